/*
 * records.c - the record loop: read a record, convert it, write it, as
 * GNU dd does.  Two shapes, as in GNU:
 *   one buffer   (bs= given, no reshaping conversion): every read is
 *                written as it came, short or not;
 *   two buffers  (otherwise): records go through conv_record() into the
 *                output block, which is written in whole obs blocks.
 * From a pipe, the whole records it already holds may go as one batch
 * (batch.c), counted as this loop would count them.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "dd.h"

/* conv=noerror could not step over a bad block: said once, and from
 * then on the input looks unseekable. */
static bool input_seek_failed;

/*
 * conv=noerror: step over the unreadable rest of the block, as GNU's
 * advance_input_after_read_error does.  Returns false if that failed.
 */
static bool skip_bad_block(struct dd_run *run, uint64_t bad)
{
	off_t now;

	if (!run->in.seekable || input_seek_failed) {
		if (input_seek_failed || run->in.seek_errno == ESPIPE)
			return true;
		errno = run->in.seek_errno;
	} else {
		tally_input_moved(run, bad);
		if (run->tally.in_offset > INT64_MAX) {
			bb_error_msg("offset overflow while reading file %s",
				     quote_always(run->in.name));
			return false;
		}
		now = lseek(run->in.fd, 0, SEEK_CUR);
		if (now >= 0) {
			int64_t diff = (int64_t)run->tally.in_offset - now;

			if (diff == 0)
				return true;
			if ((diff < 0 || (uint64_t)diff > bad)
			    && run->opt->status != STATUS_NONE)
				bb_error_msg("warning: invalid file offset after failed read");
			if (lseek(run->in.fd, diff, SEEK_CUR) >= 0)
				return true;
		}
	}
	bb_perror_msg("%s: cannot seek", quote_if_needed(run->in.name));
	return false;
}

/* After a read error: STOP_NONE to go on (conv=noerror), with *len the
 * padded record's length (0) or -1 for none; else STOP_INPUT_FAILED. */
static enum dd_stop handle_read_error(struct dd_run *run, size_t partread,
				      ssize_t *len)
{
	const struct dd_options *opt = run->opt;
	/* A directory fails every read at the same offset: GNU's noerror
	 * loops forever there.  Zerobox stops, as without noerror. */
	bool go_on = (opt->conv & CONV_NOERROR) && errno != EISDIR;

	if (!go_on || opt->status != STATUS_NONE)
		bb_perror_name("error reading %s", run->in.name);
	if (!go_on)
		return STOP_INPUT_FAILED;
	print_summary(run);
	if (!skip_bad_block(run, opt->ibs - partread)) {
		note_failure();
		/* Say it once: from now on it looks unseekable. */
		input_seek_failed = true;
	}
	/* With sync, the lost block becomes a padded record; otherwise the
	 * loop just reads on. */
	*len = (opt->conv & CONV_SYNC) && !partread ? 0 : -1;
	return STOP_NONE;
}

/* One buffer: write the record as it was read. */
static enum dd_stop write_record(struct dd_run *run, size_t len)
{
	return write_tallied(run, run->ibuf.data, len, false);
}

/*
 * A write of a step failed, after `written` of its `len` bytes.  GNU
 * read the whole record before writing any of it: count it in as that
 * read would have returned it (to the record's end or the input's), and
 * out as a write that failed part-way.
 */
static void step_write_failed(struct dd_run *run, size_t len, size_t written,
			      size_t rest)
{
	uint64_t offset = run->tally.in_offset, size = run->in.size;

	/* Steps only read files and block devices, whose size is known. */
	rest = (size_t)min_u64(rest, size > offset ? size - offset : 0);
	tally_read(run, rest);
	tally_write(run, written, len);
	report_write_error(run, false);
}

/*
 * A record larger than the buffer (plan.c's RECORD_STEP) is read and
 * written a buffer at a time.  The input is a file or block device, so
 * the steps return what one read of the record would, and memory stays
 * at one step.  The last piece is left in ibuf, as read_record
 * leaves a whole record; what the steps moved is the tally's carry, and
 * *size becomes what the last read asked for.  *len is that piece's
 * length, 0 at the end, -1 with errno; a step's failed write gives
 * STOP_WRITE_FAILED (reported).
 */
static enum dd_stop read_record_in_steps(struct dd_run *run, size_t *size,
					 ssize_t *len)
{
	size_t step = run->ibuf.capacity, whole = *size;
	enum dd_stop stop = STOP_NONE;
	ssize_t n;

	for (;;) {
		size_t want = *size < step ? *size : step;
		size_t written, got;

		read_steps_at(whole, whole - *size);
		n = read_record(run, want, &got);
		if (want == *size || n < 0 || (size_t)n < want)
			break;
		/* A full step, and more of the record to come. */
		tally_carry_read(run, want);
		written = write_step(run, run->ibuf.data, want);
		if (written != want) {
			step_write_failed(run, want, written, *size - want);
			stop = STOP_WRITE_FAILED;
			break;
		}
		tally_carry_written(run, want);
		*size -= want;
		tick_within_record(run);
	}
	read_steps_at(0, 0);
	*len = n;
	return stop;
}

/* The next record, read whole or in steps, or several of them moved as a
 * batch: STOP_NONE with *len as read_record's, or what ended the copy.
 * *moved says that a batch moved and counted its records. */
static enum dd_stop read_next(struct dd_run *run, size_t *size, size_t *got,
			      ssize_t *len, bool *moved)
{
	size_t records = 0;
	enum dd_stop stop;

	if (ENABLE_FEATURE_ZEROCOPY && run->plan.batch_size
	    && *size == run->opt->ibs)
		records = records_for_batch(run);
	if (records) {
		stop = copy_batch(run, records, len);
		*moved = stop == STOP_NONE && *len > 0;
		return stop;
	}
	if (run->plan.record_steps && *size > run->ibuf.capacity)
		return read_record_in_steps(run, size, len);
	*len = read_record(run, *size, got);
	return STOP_NONE;
}

enum dd_stop copy_records(struct dd_run *run, bool after_mover)
{
	const struct dd_options *opt = run->opt;
	enum dd_stop stop = STOP_NONE;
	size_t partread = 0;

	/* A record the zero-copy mover read but could not write. */
	if (run->pending) {
		size_t len = run->pending;

		run->pending = 0;
		stop = write_record(run, len);
	}
	while (stop == STOP_NONE) {
		size_t size, got = 0;
		bool moved = false;
		ssize_t len;

		if (after_mover)
			process_signals(run);
		else
			tick(run);
		after_mover = false;
		if (!next_record_size(run, &size)) {
			stop = STOP_DONE;
			break;
		}
		stop = read_next(run, &size, &got, &len, &moved);
		if (stop != STOP_NONE || moved)
			continue;
		if (len <= 0)
			tally_carry_ends(run);
		if (len == 0) {
			stop = STOP_DONE;
			break;
		}
		/* A short read may be a signal's doing: act on it before the
		 * record counts, as GNU does (SIGINT then leaves it out).  The
		 * progress line waits for the loop's top, as in GNU. */
		if (len > 0 && (size_t)len < size)
			process_signals(run);
		if (len < 0) {
			stop = handle_read_error(run, partread, &len);
			if (stop != STOP_NONE || len < 0)
				continue;
		} else {
			got = (size_t)len;
		}
		tally_read(run, (size_t)len);
		partread = (uint64_t)len < opt->ibs ? (size_t)len : 0;
		if ((uint64_t)len < opt->ibs && (opt->conv & CONV_SYNC)) {
			/* Pad only the tail: the rest holds data, also what
			 * a fullblock read got before it failed (GNU pads
			 * its buffer before each read, and keeps those). */
			memset(run->ibuf.data + got,
			       opt->conv & (CONV_BLOCK | CONV_UNBLOCK) ? ' ' : 0,
			       (size_t)opt->ibs - got);
			len = (ssize_t)opt->ibs;
		}
		if (run->plan.two_buffers)
			stop = conv_record(run, run->ibuf.data, (size_t)len);
		else
			stop = write_record(run, (size_t)len);
	}
	/* The end of the input, count=, or a read error: the last block. */
	if (run->plan.two_buffers
	    && (stop == STOP_DONE || stop == STOP_INPUT_FAILED)) {
		enum dd_stop last = conv_finish(run);

		if (last == STOP_NONE)
			last = flush_output(run);
		if (last != STOP_NONE)
			stop = last;
	}
	return stop;
}
