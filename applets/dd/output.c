/*
 * output.c - the output side of a write: GNU's iwrite (EINTR, ENOSPC on
 * a zero-byte write, conv=sparse holes, O_DIRECT's short last block) and
 * what happens once the copy is over (the size under sparse, the syncs).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dd.h"

/*
 * O_DIRECT can't write a block that is not a multiple of the device's
 * block size.  Like GNU, drop O_DIRECT for the final short block, and
 * make up for it with an fsync and cache advice at the end.
 */
static void drop_direct_for_last_block(struct dd_run *run)
{
	int flags = fcntl(run->out_fd, F_GETFL);

	if (flags < 0 || fcntl(run->out_fd, F_SETFL, flags & ~O_DIRECT) != 0) {
		if (run->opt->status != STATUS_NONE)
			bb_perror_msg("failed to turn off O_DIRECT: %s",
				      quote_if_needed(run->out_name));
	}
	run->sync_at_end = true;
}

size_t write_output(struct dd_run *run, const unsigned char *data, size_t len)
{
	size_t done = 0;

	if ((run->opt->output_open_flags & O_DIRECT) && len < run->opt->obs
	    && !run->sync_at_end)
		drop_direct_for_last_block(run);

	run->final_op_was_seek = false;
	if (ENABLE_FEATURE_DD_CONV && (run->opt->conv & CONV_SPARSE)
	    && !run->sparse_off && bb_is_all_zero(data, len)) {
		if (lseek(run->out_fd, (off_t)len, SEEK_CUR) >= 0) {
			run->final_op_was_seek = true;
			run->out_offset += len;
			return len;
		}
		/* Not seekable: sparse was only advice. */
		run->sparse_off = true;
	}

	while (done < len) {
		ssize_t n;

		process_signals(run);
		n = write(run->out_fd, data + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (n == 0) {
			/* Some drivers say 0 at the end of a device. */
			errno = ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	run->out_offset += done;
	if (done)
		output_written(run);
	return done;
}

/* A copy that ended in a hole (conv=sparse) must still give the file
 * its full size. */
static void extend_after_final_hole(struct dd_run *run)
{
	struct stat st;
	off_t end;

	if (fstat(run->out_fd, &st) != 0) {
		bb_perror_msg("cannot fstat %s", quote_always(run->out_name));
		run->exit_status = EXIT_FAILURE;
		return;
	}
	if (!S_ISREG(st.st_mode))
		return;
	end = lseek(run->out_fd, 0, SEEK_CUR);
	if (end > st.st_size && ftruncate(run->out_fd, end) != 0) {
		bb_perror_msg("failed to truncate to %lld bytes in output file %s",
			      (long long)end, quote_always(run->out_name));
		run->exit_status = EXIT_FAILURE;
	}
}

/* conv=fdatasync / conv=fsync.  Where fdatasync can't work (ENOSYS,
 * EINVAL), GNU tries fsync instead. */
static void sync_output(struct dd_run *run)
{
	bool want_fsync = (run->opt->conv & CONV_FSYNC) || run->sync_at_end;

	if (run->opt->conv & CONV_FDATASYNC) {
		int r;

		do
			r = fdatasync(run->out_fd);
		while (r != 0 && errno == EINTR);
		if (r != 0) {
			if (errno != ENOSYS && errno != EINVAL) {
				bb_perror_msg("fdatasync failed for %s",
					      quote_always(run->out_name));
				run->exit_status = EXIT_FAILURE;
			}
			want_fsync = true;
		}
	}
	if (want_fsync) {
		int r;

		do
			r = fsync(run->out_fd);
		while (r != 0 && errno == EINTR);
		if (r != 0) {
			bb_perror_msg("fsync failed for %s", quote_always(run->out_name));
			run->exit_status = EXIT_FAILURE;
		}
	}
}

void finish_output_file(struct dd_run *run)
{
	if (run->final_op_was_seek)
		extend_after_final_hole(run);
	sync_output(run);
}
