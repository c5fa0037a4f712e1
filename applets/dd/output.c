/*
 * output.c - the two-buffer output block; the final hole's size, the syncs.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs/jobs.h"

/* The output block being filled (two buffers). */
static struct {
	size_t fill;             /* bytes staged in run->obuf */
	enum dd_stop outcome;    /* STOP_BLOCK_FAILED once a write failed */
} staged;

/* Append bytes to the output block, writing each full obs block as it
 * fills (two_buffers only); after a failed write (reported) staging
 * stops, and staging_outcome() is STOP_BLOCK_FAILED. */
void stage_output(struct dd_run *run, const unsigned char *data, size_t len)
{
	while (len && staged.outcome == STOP_NONE) {
		/* A block the zero-copy mover began is shorter by that much. */
		size_t block = (size_t)run->opt->obs - run->tally.carry_out;
		size_t room, chunk;

		if (staged.fill == run->obuf.capacity)
			grow_buffer(run, OUTPUT_SIDE, staged.fill + len);
		room = (run->obuf.capacity < block ? run->obuf.capacity : block)
			- staged.fill;
		chunk = len < room ? len : room;
		memcpy(run->obuf.data + staged.fill, data, chunk);
		staged.fill += chunk;
		data += chunk;
		len -= chunk;
		if (staged.fill == block) {
			staged.outcome = write_counted(run, run->obuf.data,
						       block, WRITE_BLOCK);
			staged.fill = 0;
		}
	}
}

/* STOP_NONE, or STOP_BLOCK_FAILED once a staged write failed. */
enum dd_stop staging_outcome(void)
{
	return staged.outcome;
}

/* Move the staged bytes (fewer than obs) to just before end; returns
 * how many. */
size_t take_staged_output(struct dd_run *run, unsigned char *end)
{
	size_t fill = staged.fill;

	memcpy(end - fill, run->obuf.data, fill);
	staged.fill = 0;
	return fill;
}

/* Write the last, short output block (a failure is reported). */
enum dd_stop flush_output(struct dd_run *run)
{
	size_t fill = staged.fill;

	staged.fill = 0;
	return fill ? write_counted(run, run->obuf.data, fill, WRITE_RECORD) : STOP_NONE;
}

/* conv=sparse's final hole gets its size; false if that failed
 * (reported).  This takes a second fstat, as in GNU (whose failure GNU
 * reports). */
bool extend_after_final_hole(struct dd_run *run)
{
	struct stat st;
	off_t end;

	if (!run->final_op_was_seek)
		return true;
	if (fstat(run->out.fd, &st) != 0) {
		bb_perror_name("cannot fstat %s", run->out.name);
	} else {
		end = lseek(run->out.fd, 0, SEEK_CUR);
		if (!S_ISREG(st.st_mode) || end <= st.st_size
		    || ftruncate(run->out.fd, end) == 0)
			return true;
		bb_perror_msg("failed to truncate to %llu bytes in output file %s",
			      (unsigned long long)end, quote_always(run->out.name));
	}
	note_failure();
	return false;
}

/* Whether the copy ends with a sync: conv=f(data)sync, or O_DIRECT's. */
bool output_syncs_at_end(const struct dd_run *run)
{
	return (run->opt->conv & (CONV_FSYNC | CONV_FDATASYNC)) || run->sync_at_end;
}

/* A final sync: 0, or -1 with errno.  *held, a write-back error that
 * nocache's windows met before it (the kernel told them, and will not
 * tell this sync), is the sync's own: the first that succeeds returns
 * it. */
static int final_sync(struct dd_run *run, int fd, enum dd_sync what, int *held)
{
	if (sync_with_progress(run, fd, what) != 0)
		return -1;
	if (!*held)
		return 0;
	errno = *held;
	*held = 0;
	return -1;
}

/* The syncs output_syncs_at_end promised; false if one failed
 * (reported).  Where fdatasync can't work (ENOSYS, EINVAL), GNU tries
 * fsync instead. */
bool sync_output(struct dd_run *run)
{
	int fd = run->out.fd;
	bool want_fsync = (run->opt->conv & CONV_FSYNC) || run->sync_at_end;
	bool ok = true;
	int held = ENABLE_FEATURE_DD_NOCACHE ? take_held_writeback_error() : 0;

	/* What a block device's close or nocache's end waits for, written
	 * out first ("Progress through the final sync" in docs/design.md);
	 * its failure is a write error GNU would not have seen. */
	if (!output_syncs_at_end(run) && (S_ISBLK(run->out.st.st_mode)
	    || (ENABLE_FEATURE_DD_NOCACHE && (run->opt->output_flags & FLAG_NOCACHE)))
	    && write_out_with_progress(run, fd) != 0) {
		report_writeback_error(&run->out, errno);
		ok = false;
	}
	if ((run->opt->conv & CONV_FDATASYNC)
	    && final_sync(run, fd, SYNC_DATA, &held) != 0) {
		if (errno != ENOSYS && errno != EINVAL) {
			bb_perror_msg("fdatasync failed for %s",
				      quote_always(run->out.name));
			ok = false;
			held = 0;       /* reported: one failure, one message */
		}
		want_fsync = true;
	}
	if (want_fsync && final_sync(run, fd, SYNC_ALL, &held) != 0) {
		bb_perror_msg("fsync failed for %s", quote_always(run->out.name));
		ok = false;
	}
	/* O_DIRECT's last block: its cache, from its page on, goes. */
	if (run->sync_at_end)
		posix_fadvise(fd, (off_t)(run->direct_tail
				& ~(uint64_t)(getpagesize() - 1)), 0,
			      POSIX_FADV_DONTNEED);
	return ok;
}
