/*
 * copy.c - the record loop: read a record, convert it, write it, count
 * it exactly as GNU dd does.
 *
 * Two shapes, as in GNU:
 *   one buffer   (bs= given, no reshaping conversion): every read is
 *                written as it came, short or not;
 *   two buffers  (otherwise): records go through conv_record() into the
 *                output buffer, which is written in whole obs blocks.
 * Plain copies first try the zero-copy engine (fastpath.c); it hands
 * back here before moving any byte when it can't do the job.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dd.h"

/* GNU's warning when a short read is followed by another read, in the
 * cases where that changes the outcome (see wants_partial_read_warning). */
void note_read_size(struct dd_run *run, ssize_t n, size_t size)
{
	if (n > 0 && run->warn_partial_read && run->prev_read > 0
	    && (size_t)run->prev_read < size) {
		if (run->opt->status != STATUS_NONE)
			bb_error_msg("warning: partial read (%lld byte%s);"
				     " suggest iflag=fullblock",
				     (long long)run->prev_read,
				     run->prev_read == 1 ? "" : "s");
		run->warn_partial_read = false;
	}
	run->prev_read = n;
}

/*
 * How much the next record may read: ibs, or what count= in bytes
 * leaves for the last one.  False once count= records are in.
 */
bool next_record_size(const struct dd_run *run, size_t *size)
{
	const struct dd_options *opt = run->opt;
	uint64_t records = run->stats.in_full + run->stats.in_partial;

	*size = (size_t)opt->ibs;
	if (opt->max_records == UINT64_MAX)
		return true;
	if (records >= opt->max_records + (opt->max_bytes != 0))
		return false;
	if (records >= opt->max_records)
		*size = (size_t)opt->max_bytes;
	return true;
}

/* One read(2), as GNU's iread: EINTR retried (after acting on signals). */
static ssize_t read_once(struct dd_run *run, unsigned char *buf, size_t size)
{
	ssize_t n;

	for (;;) {
		process_signals(run);
		n = read(run->in_fd, buf, size);
		if (n >= 0 || errno != EINTR)
			break;
	}
	/* O_DIRECT reads past a short final block can fail with EINVAL:
	 * that is end of file. */
	if (n < 0 && errno == EINVAL && (run->opt->input_open_flags & O_DIRECT)
	    && run->prev_read > 0 && (size_t)run->prev_read < size)
		n = 0;
	note_read_size(run, n, size);
	return n;
}

/*
 * Read one record of up to size bytes into the input buffer, as one
 * read(2) would (or, with iflag=fullblock, as many as fill it).  Where
 * the buffer is smaller than size (plan.c sized it from the input), a
 * read that fills it means the bound no longer holds: the buffer grows
 * and reading goes on, so the record is what one large read gives.
 * Returns the record's length, 0 at end of input, or -1 on error.
 */
ssize_t read_input(struct dd_run *run, size_t size)
{
	bool fullblock = run->opt->input_flags & FLAG_FULLBLOCK;
	size_t got = 0;

	for (;;) {
		size_t room = run->ibuf.capacity - got;
		size_t want = size - got < room ? size - got : room;
		ssize_t n = read_once(run, run->ibuf.data + got, want);

		if (n < 0)
			return got && !fullblock ? (ssize_t)got : -1;
		if (n == 0)
			break;
		got += (size_t)n;
		if (got == size)
			break;
		if ((size_t)n < want) {
			if (fullblock)
				continue;
			break;
		}
		/* The buffer is full but the record is not.  A pipe can't
		 * return more than its capacity in one read, so one read of
		 * the full size would have stopped here too. */
		if (!fullblock && !run->in_size_known)
			break;
		grow_input_buffer(run, got + 1);
	}
	return (ssize_t)got;
}

/* Write the full output block staged in obuf (GNU's write_output). */
static void flush_full_block(struct dd_run *run)
{
	size_t obs = (size_t)run->opt->obs;
	size_t n = write_output(run, run->obuf.data, obs);

	run->stats.bytes_out += n;
	if (n != obs) {
		bb_perror_msg("writing to %s", quote_always(run->out_name));
		if (n)
			run->stats.out_partial++;   /* GNU 9.11 counts it */
		die_with_summary(run);
	}
	run->stats.out_full++;
	run->obuf_fill = 0;
}

void stage_output(struct dd_run *run, const unsigned char *data, size_t len)
{
	size_t obs = (size_t)run->opt->obs;

	while (len) {
		size_t room, chunk;

		if (run->obuf_fill == run->obuf.capacity)
			grow_output_buffer(run, run->obuf_fill + len);
		room = (run->obuf.capacity < obs ? run->obuf.capacity : obs)
			- run->obuf_fill;
		chunk = len < room ? len : room;
		memcpy(run->obuf.data + run->obuf_fill, data, chunk);
		run->obuf_fill += chunk;
		data += chunk;
		len -= chunk;
		if (run->obuf_fill == obs)
			flush_full_block(run);
	}
}

/* One buffer: write the record as it was read. */
static int write_record(struct dd_run *run, size_t len)
{
	size_t n = write_output(run, run->ibuf.data, len);

	run->stats.bytes_out += n;
	if (n != len) {
		bb_perror_msg("error writing %s", quote_always(run->out_name));
		if (n)
			run->stats.out_partial++;   /* GNU 9.11 counts it */
		return -1;
	}
	if (len == run->opt->ibs)
		run->stats.out_full++;
	else
		run->stats.out_partial++;
	return 0;
}

/*
 * conv=noerror: step over the unreadable rest of the block, as GNU's
 * advance_input_after_read_error does.  Returns false if that failed.
 */
static bool skip_bad_block(struct dd_run *run, uint64_t bad)
{
	off_t now;

	if (!run->in_seekable) {
		if (run->in_seek_errno == ESPIPE)
			return true;
		errno = run->in_seek_errno;
	} else {
		run->in_offset += bad;
		if (run->in_offset > INT64_MAX) {
			bb_error_msg("offset overflow while reading file %s",
				     quote_always(run->in_name));
			return false;
		}
		now = lseek(run->in_fd, 0, SEEK_CUR);
		if (now >= 0) {
			int64_t diff = (int64_t)run->in_offset - now;

			if (diff == 0)
				return true;
			if ((diff < 0 || (uint64_t)diff > bad)
			    && run->opt->status != STATUS_NONE)
				bb_error_msg("warning: invalid file offset after failed read");
			if (lseek(run->in_fd, diff, SEEK_CUR) >= 0)
				return true;
		}
	}
	bb_perror_msg("%s: cannot seek", quote_if_needed(run->in_name));
	return false;
}

/* After a read error: true to go on (conv=noerror), false to stop. */
static bool handle_read_error(struct dd_run *run, size_t partread,
			      ssize_t *len)
{
	const struct dd_options *opt = run->opt;
	/* A directory fails every read at the same offset: GNU's noerror
	 * loops forever there.  Zerobox stops, as without noerror. */
	bool go_on = (opt->conv & CONV_NOERROR) && errno != EISDIR;

	if (!go_on || opt->status != STATUS_NONE)
		bb_perror_msg("error reading %s", quote_always(run->in_name));
	if (!go_on)
		return false;
	print_summary(run);
	if (!skip_bad_block(run, opt->ibs - partread)) {
		run->exit_status = EXIT_FAILURE;
		/* Say it once: from now on it looks unseekable. */
		run->in_seekable = false;
		run->in_seek_errno = ESPIPE;
	}
	/* With sync, the lost block becomes a padded record; otherwise the
	 * loop just reads on. */
	*len = (opt->conv & CONV_SYNC) && !partread ? 0 : -1;
	return true;
}

/* The tail of the copy: what conversions hold back, the last short
 * output block, the file size under sparse, and the syncs. */
static void finish_output(struct dd_run *run)
{
	if (run->two_buffers) {
		conv_finish(run);
		if (run->obuf_fill) {
			size_t n = write_output(run, run->obuf.data, run->obuf_fill);

			run->stats.bytes_out += n;
			if (n)
				run->stats.out_partial++;
			if (n != run->obuf_fill) {
				bb_perror_msg("error writing %s",
					      quote_always(run->out_name));
				run->exit_status = EXIT_FAILURE;
				return;
			}
			run->obuf_fill = 0;
		}
	}
	finish_output_file(run);
}

int copy_records(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	size_t partread = 0;

	if (ENABLE_FEATURE_DD_SPLICE) {
		switch (copy_fast(run)) {
		case FAST_NOT_USED:
			break;
		case FAST_DONE:
			finish_output_file(run);
			goto done;
		case FAST_WRITE_FAILED:
			return EXIT_FAILURE;
		}
	}

	for (;;) {
		size_t size;
		ssize_t len;

		if (!next_record_size(run, &size))
			break;
		if (ENABLE_FEATURE_DD_PROGRESS && opt->status == STATUS_PROGRESS)
			maybe_print_progress(run);

		len = read_input(run, size);
		if (len == 0)
			break;
		if (len < 0) {
			if (!handle_read_error(run, partread, &len)) {
				run->exit_status = EXIT_FAILURE;
				break;
			}
			if (len < 0)
				continue;
		}
		run->in_offset += (uint64_t)len;
		input_consumed(run);

		if ((uint64_t)len < opt->ibs) {
			run->stats.in_partial++;
			partread = (size_t)len;
			if (opt->conv & CONV_SYNC) {
				/* Pad only the tail: the rest holds data. */
				memset(run->ibuf.data + len,
				       opt->conv & (CONV_BLOCK | CONV_UNBLOCK) ? ' ' : 0,
				       (size_t)opt->ibs - (size_t)len);
				len = (ssize_t)opt->ibs;
			}
		} else {
			run->stats.in_full++;
			partread = 0;
		}

		if (!run->two_buffers) {
			if (write_record(run, (size_t)len) != 0)
				return EXIT_FAILURE;
		} else {
			conv_record(run, run->ibuf.data, (size_t)len);
		}
	}
	finish_output(run);
 done:
	finish_nocache(run);
	return run->exit_status;
}
