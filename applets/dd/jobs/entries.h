/*
 * entries.h - the jobs' entry points, which jobs.c calls for dd's
 * outline (jobs.h has the hooks the core calls).
 */
#ifndef ZEROBOX_DD_JOBS_ENTRIES_H
#define ZEROBOX_DD_JOBS_ENTRIES_H

#include "jobs.h"

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

/* zeroout.c (FEATURE_DD_ZEROOUT): the mover, as copy_zerocopy. */
bool copy_zeroout(struct dd_run *run);

/* bmap.c (FEATURE_DD_BMAP): read and check the whole map, the input's
 * and the output's size, before the output is opened; then the mover. */
void bmap_prepare(struct dd_run *run);
enum dd_stop copy_bmap(struct dd_run *run);

#endif
