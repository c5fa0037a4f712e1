/*
 * entries.h - the jobs' entry points, which jobs.c calls for dd's
 * outline (jobs.h has the hooks the core calls).
 */
#ifndef ZEROBOX_DD_JOBS_ENTRIES_H
#define ZEROBOX_DD_JOBS_ENTRIES_H

#include "jobs.h"

/* A stretch of the output a copy wrote, for conv=verify's read-back:
 * bytes that went through write_bytes (hashed on their way), or zeros
 * the device was asked for (bmap='s unmapped=zero). */
struct written_extent {
	uint64_t offset, length;    /* on the output */
	bool zeros;
};

/* Where the read-back finds the extents a copy wrote, in ascending
 * order: a plain copy's one, or a map's ranges (bmap=). */
struct extent_source {
	bool (*next)(void *ctx, struct written_extent *e);   /* false: no more */
	void (*rewind)(void *ctx);                          /* back to the first */
	void *ctx;
	uint64_t total;             /* the bytes the extents cover */
	uint64_t end;               /* no extent goes past it */
};

/* verify.c (FEATURE_DD_VERIFY): conv=verify. */
/* Refuse an output that can't be read back (once it is open). */
void verify_check_output(struct dd_run *run);
/* Arm it, at the output's offset after seek= (sets run->verify). */
void verify_start(struct dd_run *run);
/* Once the copy and its syncs are over: read back, compare, write the
 * held block; after a failed copy (stop, or a failure noted), report
 * that the first block was not written.  A failure is reported and
 * noted (note_failure). */
void verify_finish(struct dd_run *run, enum dd_stop stop);
/* After the summary: "N bytes verified". */
void verify_report(struct dd_run *run);
/* For a mover that writes where it seeks (bmap=), with conv=verify armed
 * (run->verify): the extents it writes, given before the first write
 * (source must outlive the read-back); the output offset its next write
 * goes to; and the end of the held first block, which it must leave to
 * conv=verify (zeros there are written with the held block, last). */
void verify_use_extents(struct dd_run *run, const struct extent_source *source);
void verify_moved_to(struct dd_run *run, uint64_t offset);
uint64_t verify_hold_end(const struct dd_run *run);

/* zeroout.c (FEATURE_DD_ZEROOUT): the mover, as copy_zerocopy. */
bool copy_zeroout(struct dd_run *run);
/* Zero [offset, offset + len) of the output as the mover zeroes a hole
 * (the device's zeroing where it has one), housekeeping between steps
 * (bmap='s unmapped=zero).  True, or false with errno. */
bool zero_output(struct dd_run *run, uint64_t offset, uint64_t len);

/* bmap.c (FEATURE_DD_BMAP): read and check the whole map, the input's
 * and the output's size, before the output is opened; then the mover. */
void bmap_prepare(struct dd_run *run);
enum dd_stop copy_bmap(struct dd_run *run);

#endif
