/*
 * syncwait.c - status=progress through the final fsync/fdatasync.
 *
 * A sync of a slow card can take minutes, and one syscall gives no news
 * while it runs.  So with status=progress the written range is first
 * written out in steps (sync_file_range: start writeback, wait for it),
 * each timed to take well under a second, with the progress line
 * between them saying how much of the range is left; the fsync or
 * fdatasync that follows has only the metadata and the device's cache
 * left to do.  Each step's writeback is started one step ahead.  The
 * steps cover what this copy wrote, from seek=.  A step that found its
 * range already clean does not make the next one larger: the first
 * dirty one must not be large.  An error that a step reports is the
 * sync's error (the kernel reports a writeback error once).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "jobs.h"

/* Step sizes: a step's time is kept between these, by doubling and
 * halving. */
enum { STEP_MIN = 1 << 20, STEP_MAX = 16 << 20 };
#define STEP_FAST_NS 50000000ULL
#define STEP_SLOW_NS 200000000ULL
/* Quicker than this, a step waited for no device at all. */
#define STEP_CLEAN_NS 1000000ULL

static int sync_here(struct dd_run *run, int fd, enum dd_sync what)
{
	int r;

	do
		r = what == SYNC_DATA ? fdatasync(fd) : fsync(fd);
	while (r != 0 && transfer_retry(&run->transfer));
	return r;
}

int write_out_with_progress(struct dd_run *run, int fd)
{
	const unsigned flags = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE
		| SYNC_FILE_RANGE_WAIT_AFTER;
	uint64_t end = run->tally.out_offset, step = STEP_MIN;
	uint64_t at = (run->out.offset + run->plan.seek_offset)
		& ~(uint64_t)(getpagesize() - 1);

	if (!ENABLE_FEATURE_DD_PROGRESS || run->opt->status != STATUS_PROGRESS)
		return 0;
	while (at < end) {
		uint64_t began = monotonic_ns(), took;
		uint64_t len = min_u64(step, end - at);

		/* The next step's writeback starts before this one is
		 * waited for, so that the device always has work. */
		if (at + len < end)
			(void)sync_file_range(fd, (off_t)(at + len),
					      (off_t)min_u64(len, end - at - len),
					      SYNC_FILE_RANGE_WRITE);
		if (sync_file_range(fd, (off_t)at, (off_t)len, flags) != 0) {
			if (transfer_retry(&run->transfer))
				continue;
			/* Not for this file (a pipe, some filesystems): the
			 * sync alone. */
			if (errno == ESPIPE || errno == EINVAL || errno == ENOSYS)
				break;
			return -1;
		}
		at += len;
		took = monotonic_ns() - began;
		if (took >= STEP_CLEAN_NS && took < STEP_FAST_NS && step < STEP_MAX)
			step *= 2;
		else if (took > STEP_SLOW_NS && step > STEP_MIN)
			step /= 2;
		transfer_act_on_signals(&run->transfer);
		maybe_print_sync_progress(run, end - at);
	}
	return 0;
}

int sync_with_progress(struct dd_run *run, int fd, enum dd_sync what)
{
	if (write_out_with_progress(run, fd) != 0)
		return -1;
	return sync_here(run, fd, what);
}
