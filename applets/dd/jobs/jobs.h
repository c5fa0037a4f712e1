/*
 * jobs.h - the hooks by which dd's core reaches the jobs built on it
 * (applets/dd/jobs/: bmap=, conv=verify, the zeroing mover, the final
 * sync's progress), each job behind its own switch.  The core knows the
 * jobs by these names alone; what the jobs' files share is entries.h's.
 */
#ifndef ZEROBOX_DD_JOBS_H
#define ZEROBOX_DD_JOBS_H

#include "../dd.h"

/* bmap= and conv=verify: the jobs that check the operands and claim
 * the output.  Without them, the core's calls for those fold away. */
enum { CLAIMING_JOBS = ENABLE_FEATURE_DD_BMAP || ENABLE_FEATURE_DD_VERIFY };

/* jobs.c: dd.c's outline, step by step (operands.c asks the first). */
void jobs_check_operands(struct dd_options *opt, uint64_t skip,
			 bool sizes_given);
void jobs_prepare(struct dd_run *run);
void jobs_output_opened(struct dd_run *run);
void jobs_start(struct dd_run *run);
bool jobs_copy(struct dd_run *run, enum dd_stop *stop);
void jobs_finish(struct dd_run *run, enum dd_stop stop);
void jobs_report(struct dd_run *run);

/* claim.c, for ends.c's open_output: whether the output is a block device
 * that bmap= or conv=verify claims (open it with O_EXCL, without O_CREAT);
 * dies if standard output is such a device, claimed by someone else. */
bool jobs_claim_output(const struct dd_options *opt);
/* A claim's open failed with EBUSY: the device is in use; dies. */
BB_NORETURN void die_claimed(const char *name);

/* zeroout.c (FEATURE_DD_ZEROOUT), for plan.c: whether the zeroing mover
 * fits (a pure function of the operands, the plan and the ends). */
bool zeroout_applies(const struct dd_options *opt, const struct dd_plan *plan,
		     const struct io_end *in, const struct io_end *out);

/* syncwait.c, for output.c's final syncs: a sync with the progress line
 * kept up while it runs (status=progress).  Returns 0, or -1 with errno,
 * as fsync does. */
enum dd_sync { SYNC_DATA, SYNC_ALL };   /* fdatasync, fsync */
int sync_with_progress(struct dd_run *run, int fd, enum dd_sync what);
/* Its first half: with status=progress, write out what the page cache
 * holds of the output, the line kept up; otherwise nothing.  Returns 0,
 * or -1 with errno; a file that can't do it (a pipe) returns 0. */
int write_out_with_progress(struct dd_run *run, int fd);

/* report.c's progress line, for the jobs' own lines (the core prints
 * its own within report.c).  When a line is shown: when the pacer says
 * so, or now. */
enum line_when { LINE_WHEN_DUE, LINE_NOW };
void show_job_progress(const char *text, size_t len, enum line_when when);
void maybe_print_sync_progress(struct dd_run *run, uint64_t left);

/* verify_hold.c (FEATURE_DD_VERIFY), for recordio.c's writes, with
 * conv=verify armed (run->verify).  Before a write of len bytes: keep
 * what falls in the held first block (moving the output's offset past
 * it); returns how many bytes of data that took, which are not to be
 * written.  After it: len bytes of data went to the output. */
size_t verify_hold(struct dd_run *run, const unsigned char *data, size_t len);
void verify_written(struct dd_run *run, const unsigned char *data, size_t len);

#endif
