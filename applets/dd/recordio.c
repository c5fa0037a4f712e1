/*
 * recordio.c - the record I/O layer: one record read and one block
 * written, as GNU's iread and iwrite, and the counts and offsets, whose
 * only writer this file is: every mover reports what it moved through
 * the tally_* functions, so GNU's counting rules live here once.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "dd.h"

/* What the partial-read rules remember between reads; this file's own. */
static struct {
	ssize_t prev_read;       /* the previous read's length, or -1 */
	/* A record read in steps is one read to those rules: its size,
	 * and the bytes of it in so far. */
	size_t steps_whole, steps_before;
	bool warned;             /* the warning was given */
} reads;

bool next_record_size(const struct dd_run *run, size_t *size)
{
	const struct dd_options *opt = run->opt;
	uint64_t records = run->tally.in_full + run->tally.in_partial;

	/* Less what the zero-copy mover already read of this record. */
	*size = (size_t)opt->ibs - run->tally.carry_in;
	if (opt->max_records == UINT64_MAX)
		return true;
	if (records >= opt->max_records + (opt->max_bytes != 0))
		return false;
	if (records >= opt->max_records)
		*size = (size_t)opt->max_bytes - run->tally.carry_in;
	return true;
}

void read_steps_at(size_t whole, size_t before)
{
	reads.steps_whole = whole;
	reads.steps_before = before;
}

/* The size GNU's one read would have asked for. */
static size_t read_size_as_one(size_t size)
{
	return reads.steps_whole ? reads.steps_whole : size;
}

/* Did the previous read come back short, so that this one (the first of
 * a record) follows a short read? */
static bool follows_short_read(size_t size)
{
	return !reads.steps_before && reads.prev_read > 0
		&& (size_t)reads.prev_read < read_size_as_one(size);
}

/* GNU's warning when a short read is followed by another read, in the
 * cases where that changes the outcome (plan.c says which).  A record
 * read in steps counts as one read. */
void note_read_size(struct dd_run *run, ssize_t n, size_t size)
{
	if (n > 0 && run->plan.warn_partial_read && !reads.warned
	    && follows_short_read(size)) {
		if (run->opt->status != STATUS_NONE)
			bb_error_msg("warning: partial read (%lld byte%s);"
				     " suggest iflag=fullblock",
				     (long long)reads.prev_read,
				     reads.prev_read == 1 ? "" : "s");
		reads.warned = true;
	}
	reads.prev_read = n < 0 ? n : (ssize_t)reads.steps_before + n;
}

/* read(2), restarted after acting on a signal, as GNU's iread (which
 * looks at the progress line only at the top of its loop). */
ssize_t read_restarting(struct dd_run *run, unsigned char *buf, size_t size)
{
	ssize_t n;

	do
		n = read(run->in.fd, buf, size);
	while (n < 0 && retry_after(run));
	return n;
}

/* One read(2), as GNU's iread. */
static ssize_t read_once(struct dd_run *run, unsigned char *buf, size_t size)
{
	ssize_t n = read_restarting(run, buf, size);

	/* O_DIRECT reads past a short final block can fail with EINVAL:
	 * that is end of file. */
	if (n < 0 && errno == EINVAL && (run->opt->input_open_flags & O_DIRECT)
	    && follows_short_read(size))
		n = 0;
	note_read_size(run, n, size);
	return n;
}

/* The partial-read rules see a batch as the records it holds: its
 * first follows the read before it, its last is the one before the
 * next. */
ssize_t read_batch(struct dd_run *run, unsigned char *buf, size_t size)
{
	size_t ibs = (size_t)run->opt->ibs;
	ssize_t n = read_restarting(run, buf, size);

	if (n <= 0)
		return n;
	note_read_size(run, (ssize_t)ibs, ibs);
	if ((size_t)n % ibs)
		note_read_size(run, (ssize_t)((size_t)n % ibs), ibs);
	return n;
}

/*
 * A buffer sized to the pipe's capacity at the start: its writer may
 * raise the pipe before it writes, and GNU's one read then returns up to
 * the new capacity.  A writer wakes its reader only once the pipe is
 * full or its write is done, so the capacity is asked for after the
 * wait, not before it.  True when the buffer now holds what one read
 * of the pipe can return.
 */
static bool fit_buffer_to_pipe(struct dd_run *run, size_t size)
{
	struct pollfd readable = { .fd = run->in.fd, .events = POLLIN };
	size_t capacity;

	/* A nonblocking read does not wait, so neither does this. */
	if (io_end_is_nonblocking(&run->in))
		return false;
	while (poll(&readable, 1, -1) < 0)
		if (!retry_after(run))
			return false;
	capacity = pipe_capacity_now(&run->in);
	if (capacity > run->ibuf.capacity)
		grow_input_buffer(run, capacity < size ? capacity : size);
	return true;
}

/*
 * Where the buffer is smaller than size (plan.c sized it from the
 * input), a read that fills it means the bound no longer holds: the
 * buffer grows and reading goes on, so the record is what one large
 * read gives.
 */
static ssize_t read_record_reads(struct dd_run *run, size_t size, size_t *got,
				 bool *continued)
{
	bool fullblock = run->opt->input_flags & FLAG_FULLBLOCK;
	bool fitted = false;

	*got = 0;
	if (run->ibuf.capacity < size && io_end_is_pipe(&run->in))
		fitted = fit_buffer_to_pipe(run, size);
	for (;;) {
		size_t room = run->ibuf.capacity - *got;
		size_t want = size - *got < room ? size - *got : room;
		ssize_t n = read_once(run, run->ibuf.data + *got, want);

		if (n < 0)
			return *got && !fullblock ? (ssize_t)*got : -1;
		if (n == 0)
			break;
		*got += (size_t)n;
		if (*got == size)
			break;
		if ((size_t)n < want) {
			if (fullblock)
				continue;
			break;
		}
		/* The buffer is full but the record is not.  A pipe's one
		 * read would have returned what it holds now, up to size
		 * and up to its capacity: its writer may have raised it
		 * past the capacity seen at the start.  A pipe that was not
		 * raised gave all one read can; what a fast writer put in
		 * since is the next read's.  A buffer just fitted to the
		 * pipe was that read: no need to ask again. */
		if (fitted && !fullblock)
			break;
		if (!fullblock && !run->in.size_known) {
			size_t capacity = io_end_is_pipe(&run->in)
					  ? pipe_capacity_now(&run->in) : SIZE_MAX;
			size_t held = capacity > *got
				      ? pipe_bytes_held(&run->in) : 0;

			if (held > capacity - *got)
				held = capacity - *got;
			if (!held)
				break;
			grow_input_buffer(run, *got + held);
		} else {
			grow_input_buffer(run, *got + 1);
		}
		/* The reads that go on are one read to the partial-read
		 * rules (unless the record's steps already say so). */
		if (!reads.steps_whole || *continued) {
			read_steps_at(size, *got);
			*continued = true;
		}
	}
	return (ssize_t)*got;
}

ssize_t read_record(struct dd_run *run, size_t size, size_t *got)
{
	bool continued = false;
	ssize_t n = read_record_reads(run, size, got, &continued);

	if (continued)
		read_steps_at(0, 0);
	return n;
}

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
			if (!retry_after(run))
				break;
			continue;
		}
		if (n == 0) {
			/* Some drivers say 0 at the end of a device. */
			errno = ENOSPC;
			break;
		}
		done += (size_t)n;
		/* A write that a signal cut short: act on it before the
		 * rest, as GNU's iwrite does (the rest may block for good). */
		if (done < len)
			process_signals(run);
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

/* The tally: the records lines, the byte count and the two offsets. */

/* A record of n bytes was read (n may be 0: conv=noerror,sync pads a
 * lost block), or its rest, after the zero-copy mover read the start. */
void tally_read(struct dd_run *run, size_t n)
{
	struct dd_tally *t = &run->tally;

	t->in_offset += n;
	if (t->carry_in + n == run->opt->ibs)
		t->in_full++;
	else
		t->in_partial++;
	t->carry_in = 0;
}

/*
 * A write of wanted bytes wrote written of them.  A whole obs block is a
 * full record out, anything shorter a partial one; so is a write that
 * failed part-way (GNU 9.11 counts it), even when the part written was
 * the zero-copy mover's.
 */
void tally_write(struct dd_run *run, size_t written, size_t wanted)
{
	struct dd_tally *t = &run->tally;

	t->bytes_out += written;
	t->out_offset += written;
	if (written == wanted && t->carry_out + wanted == run->opt->obs)
		t->out_full++;
	else if (written || t->carry_out)
		t->out_partial++;
	t->carry_out = 0;
}

/* The input ended (or failed) in a record the zero-copy mover began:
 * what it copied of it was a short last record, as a read of it would
 * have been. */
void tally_carry_ends(struct dd_run *run)
{
	struct dd_tally *t = &run->tally;

	if (!t->carry_in)
		return;
	t->in_partial++;
	t->out_partial++;
	t->carry_in = t->carry_out = 0;
}

/* A zero-copy step moved n bytes (from the input, unless it made them:
 * zeros). */
void tally_moved(struct dd_run *run, uint64_t n, bool from_input)
{
	if (from_input)
		run->tally.in_offset += n;
	run->tally.out_offset += n;
	run->tally.bytes_out += n;
}

/* Part of a record, n more bytes of it, was read or written: a step of a
 * large record, or what a zero-copy mover moved before it handed over.
 * The record counts once it ends (tally_read, tally_write,
 * tally_carry_ends). */
void tally_carry_read(struct dd_run *run, size_t n)
{
	run->tally.in_offset += n;
	run->tally.carry_in += n;
}

/* Written, they move the output as a zero-copy step does. */
void tally_carry_written(struct dd_run *run, size_t n)
{
	tally_moved(run, n, false);
	run->tally.carry_out += n;
}

/*
 * The records lines of a coalesced copy that has moved `moved` bytes:
 * the record loop would have read and written ibs-sized records.  At
 * the end, a remainder is the short last record; before it, the record
 * in progress, which the record loop finishes if it takes over.
 */
void tally_coalesced(struct dd_run *run, uint64_t moved, bool at_end)
{
	struct dd_tally *t = &run->tally;
	uint64_t ibs = run->opt->ibs;
	size_t rest = (size_t)(moved % ibs);

	t->in_full = t->out_full = moved / ibs;
	t->in_partial = t->out_partial = at_end && rest;
	t->carry_in = t->carry_out = at_end ? 0 : rest;
}

void tally_truncated_record(struct dd_run *run)
{
	run->tally.truncated_records++;
}

/* The input moved without a record (skip=, conv=noerror's step over a
 * bad block), or the output without a write (seek=). */
void tally_input_moved(struct dd_run *run, uint64_t n)
{
	run->tally.in_offset += n;
}

void tally_output_moved(struct dd_run *run, uint64_t n)
{
	run->tally.out_offset += n;
}

void tally_set_input_offset(struct dd_run *run, uint64_t offset)
{
	run->tally.in_offset = offset;
}

void tally_set_output_offset(struct dd_run *run, uint64_t offset)
{
	run->tally.out_offset = offset;
}
