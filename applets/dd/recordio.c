/*
 * recordio.c - GNU's iread and iwrite, and the tally (its only writer).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "jobs/jobs.h"

/* The partial-read rules' memory; a record read in steps is one read. */
static struct {
	ssize_t prev_read;       /* the previous read's length, or -1 */
	size_t steps_whole, steps_before;
	bool warned;
	bool pipe_fitted;        /* ibuf outgrew the pipe's capacity */
} reads;

/* How much the next record may read: ibs, or what count= in bytes leaves
 * for the last one (less what a carried record read already); false
 * once count= is reached. */
bool next_record_size(const struct dd_run *run, size_t *size)
{
	const struct dd_options *opt = run->opt;
	uint64_t records = run->tally.in_full + run->tally.in_partial;

	*size = (size_t)opt->ibs - run->tally.carry_in;
	if (records >= opt->max_records + (opt->max_bytes != 0))
		return false;
	if (records >= opt->max_records)
		*size = (size_t)opt->max_bytes - run->tally.carry_in;
	return true;
}

/* The reads that follow are steps of one record of `whole` bytes, `before`
 * of them already read (records.c); whole = 0 ends that. */
void read_steps_at(size_t whole, size_t before)
{
	reads.steps_whole = whole;
	reads.steps_before = before;
}

/* Does this read, the first of a record, follow a short one? */
static bool follows_short_read(size_t size)
{
	size_t asked = reads.steps_whole ? reads.steps_whole : size;

	return !reads.steps_before && reads.prev_read > 0
		&& (size_t)reads.prev_read < asked;
}

/* GNU's partial-read warning, for a read of size that returned n. */
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

/* One read(2) of the input, restarted after acting on a signal. */
ssize_t read_restarting(struct dd_run *run, unsigned char *buf, size_t size)
{
	ssize_t n;

	do
		n = read(run->in.fd, buf, size);
	while (n < 0 && transfer_retry(&run->transfer));
	return n;
}

/* Fit ibuf to the pipe's capacity once it is readable ("The memory rules"
 * in docs/design.md), with a byte to spare: a read that fills it then
 * says that the writer raised the capacity, and no record needs to ask. */
static void fit_buffer_to_pipe(struct dd_run *run, size_t size)
{
	struct pollfd readable = { .fd = run->in.fd, .events = POLLIN };
	size_t capacity;

	/* A nonblocking read does not wait, so neither does this. */
	if (io_end_is_nonblocking(&run->in))
		return;
	while (poll(&readable, 1, -1) < 0)
		if (!transfer_retry(&run->transfer))
			return;
	capacity = pipe_capacity_now(&run->in);
	if (capacity >= run->ibuf.capacity)
		grow_buffer(run, INPUT_SIDE, capacity < size ? capacity + 1 : size);
	reads.pipe_fitted = true;
}

/* Read a record of up to size bytes into ibuf as one read(2) would (or
 * iflag=fullblock's reads): its length, 0 at end, or -1 with errno; *got
 * is what ibuf holds (after a failed fullblock read, what came before).
 * A read that fills a buffer below size grows it (docs/design.md). */
ssize_t read_record(struct dd_run *run, size_t size, size_t *got)
{
	bool fullblock = run->opt->input_flags & FLAG_FULLBLOCK;
	/* Reads that go on are one read to the partial-read rules. */
	bool in_steps = reads.steps_whole != 0;
	ssize_t n;

	*got = 0;
	if (!reads.pipe_fitted && run->ibuf.capacity < size
	    && io_end_is_pipe(&run->in))
		fit_buffer_to_pipe(run, size);
	for (;;) {
		size_t room = run->ibuf.capacity - *got;
		size_t want = size - *got < room ? size - *got : room;

		n = read_restarting(run, run->ibuf.data + *got, want);
		/* O_DIRECT's read past a short last block may fail: the end. */
		if (n < 0 && errno == EINVAL && follows_short_read(want)
		    && (run->opt->input_open_flags & O_DIRECT))
			n = 0;
		note_read_size(run, n, want);
		if (n <= 0)
			break;
		*got += (size_t)n;
		if (*got == size)
			break;
		if ((size_t)n < want && fullblock)
			continue;
		/* A pipe's read returns all it holds: a short one is the
		 * record.  A full buffer reads on as far as one read of
		 * size would have gone. */
		if ((size_t)n < want && !fullblock)
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
			/* The capacity was raised: fit again next record. */
			reads.pipe_fitted = false;
			grow_buffer(run, INPUT_SIDE, *got + held);
		} else {
			grow_buffer(run, INPUT_SIDE, *got + 1);
		}
		if (!in_steps)
			read_steps_at(size, *got);
	}
	if (!in_steps)
		read_steps_at(0, 0);
	return n < 0 && (!*got || fullblock) ? -1 : (ssize_t)*got;
}

/* Write a whole record or output block (GNU's iwrite): how many bytes
 * were written, fewer with errno set.  A short one is the output's last,
 * which O_DIRECT can't write: as GNU, O_DIRECT goes off for it, and the
 * file is fsynced at the end. */
size_t write_whole(struct dd_run *run, const unsigned char *data, size_t len)
{
	const struct dd_options *opt = run->opt;

	if ((opt->output_open_flags & O_DIRECT) && !run->sync_at_end
	    && run->tally.carry_out + len < opt->obs) {
		int flags = fcntl(run->out.fd, F_GETFL);

		run->direct_tail = run->tally.out_offset;
		run->sync_at_end = true;
		if ((flags < 0 || fcntl(run->out.fd, F_SETFL, flags & ~O_DIRECT) != 0)
		    && opt->status != STATUS_NONE)
			bb_perror_msg("failed to turn off O_DIRECT: %s",
				      quote_if_needed(run->out.name));
	}
	return write_bytes(run, data, len);
}

/* conv=sparse: seek over len bytes of zeros instead of writing them.
 * False where the output can't seek (then they must be written). */
bool seek_over_zeros(struct dd_run *run, size_t len)
{
	if (!run->sparse_off && lseek(run->out.fd, (off_t)len, SEEK_CUR) >= 0) {
		run->final_op_was_seek = true;
		return true;
	}
	/* Not seekable: sparse was only advice. */
	run->sparse_off = true;
	return false;
}

/* Write len bytes as they are (a step of a large record, what a mover
 * hands over), through conv=sparse's seeks and conv=verify's held block
 * to the transfer layer's write loop: how many were written, fewer with
 * errno set.  Never drops O_DIRECT (write_whole does). */
size_t write_bytes(struct dd_run *run, const unsigned char *data, size_t len)
{
	size_t done = 0, held = 0;

	run->final_op_was_seek = false;
	/* A record a write already began (the read-ahead's) is written. */
	if (ENABLE_FEATURE_DD_CONV && (run->opt->conv & CONV_SPARSE)
	    && !run->tally.carry_out && bb_is_all_zero(data, len)
	    && seek_over_zeros(run, len))
		return len;
	if (ENABLE_FEATURE_DD_VERIFY && run->verify)
		done = held = verify_hold(run, data, len);
	done += transfer_write(&run->transfer, run->out.fd, data + done,
			       len - done, -1);
	if (ENABLE_FEATURE_DD_VERIFY && run->verify)
		verify_written(run, data + held, done - held);
	return done;
}

/* The one report of a write error, in GNU's words for what was written. */
void report_write_error(struct dd_run *run, enum dd_write what)
{
	bb_perror_msg(what == WRITE_BLOCK ? "writing to %s" : "error writing %s",
		      quote_always(run->out.name));
}

/* write_whole, then tally_write: STOP_NONE, or a short write reported
 * and STOP_BLOCK_FAILED (a block of the output buffer) or
 * STOP_WRITE_FAILED. */
enum dd_stop write_counted(struct dd_run *run, const unsigned char *data,
			   size_t len, enum dd_write what)
{
	size_t n = write_whole(run, data, len);

	tally_write(run, n, len);
	if (n == len)
		return STOP_NONE;
	report_write_error(run, what);
	return what == WRITE_BLOCK ? STOP_BLOCK_FAILED : STOP_WRITE_FAILED;
}

/* A record of n bytes was read, or its rest (0: noerror,sync's lost block). */
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

/* A whole obs block is a full record out; less, even failed, a partial. */
void tally_write(struct dd_run *run, size_t written, size_t wanted)
{
	struct dd_tally *t = &run->tally;

	tally_output(run, written);
	if (written == wanted && t->carry_out + wanted == run->opt->obs)
		t->out_full++;
	else if (written || t->carry_out)
		t->out_partial++;
	t->carry_out = 0;
}

/* The input ended (or failed) inside a carried record: a short last one. */
void tally_carry_ends(struct dd_run *run)
{
	struct dd_tally *t = &run->tally;

	if (!t->carry_in)
		return;
	t->in_partial++;
	t->out_partial++;
	t->carry_in = t->carry_out = 0;
}

/* n bytes reached the output (from a read already counted, or made,
 * such as zeros). */
void tally_output(struct dd_run *run, uint64_t n)
{
	run->tally.out_offset += n;
	run->tally.bytes_out += n;
}

/* A step moved n bytes from the input to the output. */
void tally_moved(struct dd_run *run, uint64_t n)
{
	run->tally.in_offset += n;
	tally_output(run, n);
}

/* Bytes read and written of a record whose end is still to come. */
void tally_carry(struct dd_run *run, size_t read, size_t written)
{
	run->tally.in_offset += read;
	run->tally.carry_in += read;
	tally_output(run, written);
	run->tally.carry_out += written;
}

/* A coalesced copy that moved `moved` bytes counts ibs-sized records:
 * at the end the remainder is a short last one, before it the carry. */
void tally_coalesced(struct dd_run *run, uint64_t moved, enum coalesced_at at)
{
	struct dd_tally *t = &run->tally;
	uint64_t ibs = run->opt->ibs;
	size_t rest = (size_t)(moved % ibs);
	bool at_end = at == COALESCED_AT_END;

	t->in_full = t->out_full = moved / ibs;
	t->in_partial = t->out_partial = at_end && rest;
	t->carry_in = t->carry_out = at_end ? 0 : rest;
}

void tally_truncated_record(struct dd_run *run)
{
	run->tally.truncated_records++;
}

/* A move without a record: the ends' first offsets, skip=, seek=, a bad
 * block, a bmap's hole. */
void tally_passed(struct dd_run *run, uint64_t in, uint64_t out)
{
	run->tally.in_offset += in;
	run->tally.out_offset += out;
}
