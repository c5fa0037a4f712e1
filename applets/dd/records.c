/*
 * records.c - GNU's record loop: read, convert (two buffers), write.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "dd.h"

/* noerror could not step over a bad block: said once, then unseekable. */
static bool input_seek_failed;

/* conv=noerror: step over the unreadable rest of the block, as GNU's
 * advance_input_after_read_error does.  False if that failed (reported). */
static bool skip_bad_block(struct dd_run *run, uint64_t bad)
{
	off_t now;

	if (!run->in.seekable) {
		if (run->in.seek_errno == ESPIPE)
			return true;
		errno = run->in.seek_errno;
	} else {
		tally_passed(run, bad, 0);
		if (run->tally.in_offset > INT64_MAX) {
			bb_error_msg("offset overflow while reading file %s",
				     quote_always(run->in.name));
			note_failure();
			return false;
		}
		now = lseek(run->in.fd, 0, SEEK_CUR);
		if (now >= 0) {
			int64_t diff = (int64_t)run->tally.in_offset - now;

			if ((diff < 0 || (uint64_t)diff > bad)
			    && run->opt->status != STATUS_NONE)
				bb_error_msg("warning: invalid file offset after failed read");
			if (diff == 0 || lseek(run->in.fd, diff, SEEK_CUR) >= 0)
				return true;
		}
	}
	report_seek_error(&run->in);
	return false;
}

/* After a read error: STOP_NONE to go on (conv=noerror), with *len the
 * padded record's length (0) or -1 for none; else STOP_INPUT_FAILED. */
static enum dd_stop handle_read_error(struct dd_run *run, size_t partread,
				      ssize_t *len)
{
	const struct dd_options *opt = run->opt;
	/* A directory's reads all fail: GNU's noerror loops forever; not us. */
	bool go_on = (opt->conv & CONV_NOERROR) && errno != EISDIR;

	if (!go_on || opt->status != STATUS_NONE)
		bb_perror_name("error reading %s", run->in.name);
	if (!go_on)
		return STOP_INPUT_FAILED;
	print_summary(run);
	if (!input_seek_failed)
		input_seek_failed = !skip_bad_block(run, opt->ibs - partread);
	/* With sync, the lost block becomes a padded record. */
	*len = (opt->conv & CONV_SYNC) && !partread ? 0 : -1;
	return STOP_NONE;
}

/* A record larger than ibuf, a buffer at a time ("Large records" in
 * docs/design.md); its last piece stays in ibuf, *size and *len its read's. */
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
		tally_carry(run, want, 0);
		written = write_bytes(run, run->ibuf.data, want);
		if (written != want) {
			/* In as GNU's one read would have returned it. */
			uint64_t left = run->in.size > run->tally.in_offset
				? run->in.size - run->tally.in_offset : 0;

			tally_read(run, (size_t)min_u64(*size - want, left));
			tally_write(run, written, want);
			report_write_error(run, WRITE_RECORD);
			stop = STOP_WRITE_FAILED;
			break;
		}
		tally_carry(run, 0, want);
		*size -= want;
		housekeep_within_record(run);
	}
	read_steps_at(0, 0);
	*len = n;
	return stop;
}

/* The record loop: read, convert, write, record by record (or a pipe's
 * batches), until the input ends, count= is reached or a fault stops it;
 * then the last output block.  How it ended. */
enum dd_stop copy_records(struct dd_run *run, enum records_start start)
{
	const struct dd_options *opt = run->opt;
	enum dd_stop stop = STOP_NONE;
	size_t partread = 0;

	/* A record the zero-copy mover read but could not write. */
	if (run->pending) {
		stop = write_counted(run, run->ibuf.data, run->pending, WRITE_RECORD);
		run->pending = 0;
	}
	while (stop == STOP_NONE) {
		size_t size, got = 0, records = 0;
		ssize_t len;

		if (start == RECORDS_AFTER_MOVER)
			transfer_act_on_signals(&run->transfer);
		else
			housekeep(run);
		start = RECORDS_FROM_START;
		if (!next_record_size(run, &size)) {
			stop = STOP_DONE;
			break;
		}
		if (ENABLE_FEATURE_ZEROCOPY && run->plan.batch_size
		    && size == opt->ibs)
			records = records_for_batch(run);
		if (records) {
			stop = copy_batch(run, records, &len);
			if (stop != STOP_NONE || len > 0)
				continue;
		} else if (run->plan.record_steps && size > run->ibuf.capacity) {
			stop = read_record_in_steps(run, &size, &len);
			if (stop != STOP_NONE)
				continue;
		} else {
			len = read_record(run, size, &got);
		}
		if (len <= 0) {
			tally_carry_ends(run);
			stop = len == 0 ? STOP_DONE
				: handle_read_error(run, partread, &len);
			if (stop != STOP_NONE || len < 0)
				continue;
		} else {
			/* A short read may be a signal's: act on it first. */
			if ((size_t)len < size)
				transfer_act_on_signals(&run->transfer);
			got = (size_t)len;
		}
		tally_read(run, (size_t)len);
		partread = (uint64_t)len < opt->ibs ? (size_t)len : 0;
		if ((uint64_t)len < opt->ibs && (opt->conv & CONV_SYNC)) {
			/* The tail: what a failed fullblock read got stays. */
			memset(run->ibuf.data + got,
			       opt->conv & (CONV_BLOCK | CONV_UNBLOCK) ? ' ' : 0,
			       (size_t)opt->ibs - got);
			len = (ssize_t)opt->ibs;
		}
		if (run->plan.two_buffers)
			stop = conv_record(run, run->ibuf.data, (size_t)len);
		else
			stop = write_counted(run, run->ibuf.data, (size_t)len,
					     WRITE_RECORD);
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
