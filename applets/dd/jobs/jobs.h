/*
 * jobs.h - the entry points of the jobs built on dd's core, each behind
 * its own switch: conv=verify, the final sync that keeps status=progress
 * up, the zeroing mover and bmap= (whose parser is bmap.h's).
 */
#ifndef ZEROBOX_DD_JOBS_H
#define ZEROBOX_DD_JOBS_H

#include "../dd.h"

/* verify.c (FEATURE_DD_VERIFY): conv=verify. */
/* Refuse an output that can't be read back (once it is open). */
void verify_check_output(struct dd_run *run);
/* Arm it, at the output's offset after seek= (sets run->verify). */
void verify_start(struct dd_run *run);
/* Before a write of len bytes: keep what falls in the held first block
 * (moving the output's offset past it); returns how many bytes of data
 * that took, which are not to be written. */
size_t verify_hold(struct dd_run *run, const unsigned char *data, size_t len);
/* After a write: len bytes of data went to the output. */
void verify_written(struct dd_run *run, const unsigned char *data, size_t len);
/* Once the copy and its syncs are over: read back, compare, write the
 * held block.  copy_ok false: report that the first block was not
 * written.  A failure is reported and noted (note_failure). */
void verify_finish(struct dd_run *run, bool copy_ok);
/* After the summary: "N bytes verified". */
void verify_report(struct dd_run *run);

/* syncwait.c: a sync with the progress line kept up while it runs
 * (status=progress).  Returns 0, or -1 with errno, as fsync does. */
int sync_with_progress(struct dd_run *run, int fd, bool data_only);
/* Its first half: with status=progress, write out what the page cache
 * holds of the output, the line kept up; otherwise nothing.  Returns 0,
 * or -1 with errno; a file that can't do it (a pipe) returns 0. */
int write_out_with_progress(struct dd_run *run, int fd);

/* zeroout.c (FEATURE_DD_ZEROOUT): whether the mover fits (pure), and
 * the mover, as copy_zerocopy. */
bool zeroout_applies(const struct dd_options *opt, const struct dd_plan *plan,
		     const struct io_end *in, const struct io_end *out);
bool copy_zeroout(struct dd_run *run);

/* bmap.c (FEATURE_DD_BMAP): read and check the whole map, the input's
 * and the output's size, before the output is opened; then the mover. */
void bmap_prepare(struct dd_run *run);
enum dd_stop copy_bmap(struct dd_run *run);

#endif
