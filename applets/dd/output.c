/*
 * output.c - the output side: GNU's iwrite (EINTR, ENOSPC for a write
 * of zero bytes, conv=sparse holes, O_DIRECT's short last block), the
 * output block of the two-buffer shape, and what happens once the copy
 * is over (the size after a final hole, the syncs).
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
 * make up for it at the end: an fsync, then the cache that block left
 * is dropped (sync_output).
 */
static void drop_direct_for_last_block(struct dd_run *run)
{
	run->direct_tail = run->tally.out_offset;
	int flags = fcntl(run->out.fd, F_GETFL);

	if (flags < 0 || fcntl(run->out.fd, F_SETFL, flags & ~O_DIRECT) != 0) {
		if (run->opt->status != STATUS_NONE)
			bb_perror_msg("failed to turn off O_DIRECT: %s",
				      quote_if_needed(run->out.name));
	}
	run->sync_at_end = true;
}

/* A block is short when its bytes, with those of it the steps or the
 * zero-copy mover wrote before, are fewer than obs. */
size_t write_output(struct dd_run *run, const unsigned char *data, size_t len)
{
	if ((run->opt->output_open_flags & O_DIRECT)
	    && run->tally.carry_out + len < run->opt->obs && !run->sync_at_end)
		drop_direct_for_last_block(run);
	return write_step(run, data, len);
}

bool seek_over_zeros(struct dd_run *run, size_t len)
{
	if (run->sparse_off)
		return false;
	if (lseek(run->out.fd, (off_t)len, SEEK_CUR) >= 0) {
		run->final_op_was_seek = true;
		return true;
	}
	/* Not seekable: sparse was only advice. */
	run->sparse_off = true;
	return false;
}

size_t write_step(struct dd_run *run, const unsigned char *data, size_t len)
{
	size_t done = 0, held = 0;

	run->final_op_was_seek = false;
	/* A record that a write already began (the read-ahead's, which
	 * failed part-way) is not all zeros: its rest is written too. */
	if (ENABLE_FEATURE_DD_CONV && (run->opt->conv & CONV_SPARSE)
	    && !run->sparse_off && !run->tally.carry_out
	    && bb_is_all_zero(data, len)
	    && seek_over_zeros(run, len))
		return len;

	/* conv=verify: the first block waits, and each byte is hashed. */
	if (ENABLE_FEATURE_DD_VERIFY && run->verify)
		done = held = verify_hold(run, data, len);
	while (done < len) {
		ssize_t n = write(run->out.fd, data + done, len - done);

		if (n < 0) {
			if (errno != EINTR)
				break;
			process_signals(run);
			continue;
		}
		if (n == 0) {
			/* Some drivers say 0 at the end of a device. */
			errno = ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	if (ENABLE_FEATURE_DD_VERIFY && run->verify)
		verify_written(run, data + held, done - held);
	return done;
}

void report_write_error(struct dd_run *run, bool block)
{
	bb_perror_msg(block ? "writing to %s" : "error writing %s",
		      quote_always(run->out.name));
}

enum dd_stop write_tallied(struct dd_run *run, const unsigned char *data,
			   size_t len, bool block)
{
	size_t n = write_output(run, data, len);

	tally_write(run, n, len);
	if (n == len)
		return STOP_NONE;
	report_write_error(run, block);
	return block ? STOP_BLOCK_FAILED : STOP_WRITE_FAILED;
}

/* Write the full output block staged in obuf (GNU's write_output). */
static void flush_full_block(struct dd_run *run)
{
	if (write_tallied(run, run->obuf.data, run->obuf_fill, true) != STOP_NONE)
		run->output_failed = true;
	run->obuf_fill = 0;
}

void stage_output(struct dd_run *run, const unsigned char *data, size_t len)
{
	while (len && !run->output_failed) {
		/* A block the zero-copy mover began is shorter by that much. */
		size_t block = (size_t)run->opt->obs - run->tally.carry_out;
		size_t room, chunk;

		if (run->obuf_fill == run->obuf.capacity)
			grow_output_buffer(run, run->obuf_fill + len);
		room = (run->obuf.capacity < block ? run->obuf.capacity : block)
			- run->obuf_fill;
		chunk = len < room ? len : room;
		memcpy(run->obuf.data + run->obuf_fill, data, chunk);
		run->obuf_fill += chunk;
		data += chunk;
		len -= chunk;
		if (run->obuf_fill == block)
			flush_full_block(run);
	}
}

enum dd_stop staging_outcome(const struct dd_run *run)
{
	return run->output_failed ? STOP_BLOCK_FAILED : STOP_NONE;
}

size_t take_staged_output(struct dd_run *run, unsigned char *dst)
{
	size_t fill = run->obuf_fill;

	memcpy(dst, run->obuf.data, fill);
	run->obuf_fill = 0;
	return fill;
}

enum dd_stop flush_output(struct dd_run *run)
{
	enum dd_stop stop;

	if (!run->obuf_fill)
		return STOP_NONE;
	stop = write_tallied(run, run->obuf.data, run->obuf_fill, false);
	run->obuf_fill = 0;
	return stop;
}

/* This needs the file's size now, which takes a second fstat, as in GNU
 * (whose failure GNU reports). */
bool extend_after_final_hole(struct dd_run *run)
{
	struct stat st;
	off_t end;

	if (!run->final_op_was_seek)
		return true;
	if (fstat(run->out.fd, &st) != 0) {
		bb_perror_name("cannot fstat %s", run->out.name);
		note_failure();
		return false;
	}
	end = lseek(run->out.fd, 0, SEEK_CUR);
	if (S_ISREG(st.st_mode) && end > st.st_size
	    && ftruncate(run->out.fd, end) != 0) {
		/* end is positive here; %llu shares ends.c's message. */
		bb_perror_msg("failed to truncate to %llu bytes in output file %s",
			      (unsigned long long)end, quote_always(run->out.name));
		note_failure();
		return false;
	}
	return true;
}

/* fsync or fdatasync of the output, restarted after a signal, with
 * status=progress kept up while it runs (syncwait.c). */
static int sync_fd(struct dd_run *run, bool data_only)
{
	return sync_with_progress(run, run->out.fd, data_only);
}

bool output_syncs_at_end(const struct dd_run *run)
{
	return (run->opt->conv & (CONV_FSYNC | CONV_FDATASYNC)) || run->sync_at_end;
}

/* Where fdatasync can't work (ENOSYS, EINVAL), GNU tries fsync instead. */
bool sync_output(struct dd_run *run)
{
	bool want_fsync = (run->opt->conv & CONV_FSYNC) || run->sync_at_end;
	bool ok = true;

	/* A block device's last close, and nocache's last window, wait for
	 * what the page cache holds, which takes long on a slow card: with
	 * status=progress that is written out here, the line kept up.  Its
	 * errors stay where GNU meets them (nowhere, for the close). */
	if (!output_syncs_at_end(run) && (S_ISBLK(run->out.st.st_mode)
	    || (ENABLE_FEATURE_DD_NOCACHE && (run->opt->output_flags & FLAG_NOCACHE))))
		(void)write_out_with_progress(run, run->out.fd);

	if ((run->opt->conv & CONV_FDATASYNC) && sync_fd(run, true) != 0) {
		if (errno != ENOSYS && errno != EINVAL) {
			bb_perror_msg("fdatasync failed for %s",
				      quote_always(run->out.name));
			ok = false;
		}
		want_fsync = true;
	}
	if (want_fsync && sync_fd(run, false) != 0) {
		bb_perror_msg("fsync failed for %s", quote_always(run->out.name));
		ok = false;
	}
	/* From the page the last block began in to the end of the file. */
	if (run->sync_at_end)
		posix_fadvise(run->out.fd, (off_t)(run->direct_tail
				& ~(uint64_t)(getpagesize() - 1)), 0,
			      POSIX_FADV_DONTNEED);
	return ok;
}
