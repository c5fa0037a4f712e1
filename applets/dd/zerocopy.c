/*
 * zerocopy.c - the zero-copy mover (FEATURE_ZEROCOPY): plain copies
 * move inside the kernel (libbb's zerocopy.c picks the syscall), with
 * records counted as the record loop would count them.  plan.c decides
 * when it is used and how records are counted:
 *
 * Coalesced - the input is a regular file, a block device or /dev/zero,
 *   whose reads come back short only at the end: the records follow
 *   from the byte count, and dd moves large steps whatever bs= says.
 *
 * Per record - the input is a pipe and bs= was given: each record is
 *   one step of up to ibs bytes, counted as the read would have been.
 *
 * Read ahead - a file dd opened, where the writes must stay as the
 *   record loop makes them (into a pipe at obs <= PIPE_BUF, or with
 *   conv=sparse): large reads, records from the byte count.
 *
 * Zero-copy only accelerates the record loop; it has no failure
 * semantics of its own.  Signals are waited out.  Anything else that
 * stops it - an error of either side, a step that moves
 * nothing where the input may not be at its end - hands the copy, where
 * it stands, to the record loop: it carries on with read and write, and
 * meets a real fault again on the side that has it, with GNU's message,
 * records lines and bytes.  What the mover began of a record travels
 * with the hand-over: the part of a record already copied (the tally's
 * carry), or a record taken from a pipe but not written (run->pending).
 */
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dd.h"

/* Large enough that syscall cost vanishes, small enough that progress
 * lines and SIGUSR1 answers come within a fraction of a second. */
enum { COALESCED_STEP = 64 << 20 };

/*
 * The most one step of a coalesced copy into a pipe should move: a
 * quarter of the pipe, so that its reader drains one part while dd
 * fills the next (filling it whole makes the two take turns).  A 64 KiB
 * pipe measured best filled whole.
 */
enum { WHOLE_PIPE_STEP = 64 << 10 };

static size_t pipe_step_size(const struct io_end *out)
{
	if (out->pipe_capacity / 4 < WHOLE_PIPE_STEP)
		return WHOLE_PIPE_STEP;
	return out->pipe_capacity / 4;
}

/*
 * Does a step that moved nothing mean the input is at its end?  The
 * private pipe's filling says so plainly; for a one-syscall step, a 0
 * could also be an output that takes nothing (or a procfs file that
 * claims a size and splices nothing), so only a file read up to its
 * size counts.  Anything else goes to the record loop, whose read
 * tells.
 */
static bool input_at_end(const struct dd_run *run, const struct copy_channel *ch)
{
	/* Short of the size seen at the start, only a read can tell the
	 * end from a fault: a FUSE file's failed read shrinks its size in
	 * the kernel, and the splice after it moves nothing. */
	if (run->in.size_known && run->tally.in_offset < run->in.size)
		return false;
	if (ch && ch->path == COPY_SPLICE_VIA_PIPE)
		return ch->in_pipe == 0;
	return run->in.size_known && run->tally.in_offset >= run->in.size;
}

/* Each turn of a coalesced copy: the records so far, the housekeeping,
 * and whether count= is reached. */
static bool turn_reaches_count(struct dd_run *run, uint64_t moved,
			       uint64_t limit)
{
	tally_coalesced(run, moved, false);
	tick(run);
	return moved >= limit;
}

static bool copy_coalesced(struct dd_run *run, struct copy_channel *ch,
			   const struct lazy_buffer *zeros)
{
	bool from_input = ch->path != COPY_VMSPLICE_ZEROS
		&& ch->path != COPY_WRITE_ZEROS;
	uint64_t limit = run->plan.count_bytes, moved = 0;
	size_t step = COALESCED_STEP;
	bool at_end = false;

	if (run->cache)
		step = CACHE_WINDOW;   /* keep the cache footprint bounded */
	if (ch->path == COPY_WRITE_ZEROS && step > zeros->capacity)
		step = zeros->capacity;
	/* Into a pipe, writes of at most PIPE_BUF keep their size (POSIX
	 * makes them atomic): one per record, as the record loop's. */
	if (io_end_is_pipe(&run->out))
		step = run->opt->obs <= PIPE_BUF ? (size_t)run->opt->obs
			: pipe_step_size(&run->out);

	while (!(at_end = turn_reaches_count(run, moved, limit))) {
		ssize_t n = copy_channel_step(ch,
				(size_t)min_u64(limit - moved, step));

		if (n > 0) {
			moved += (uint64_t)n;
			tally_moved(run, (uint64_t)n, from_input);
			continue;
		}
		if (n < 0 && retry_after(run))
			continue;
		at_end = n == 0 && input_at_end(run, ch);
		break;
	}
	tally_coalesced(run, moved, at_end);
	return at_end;
}

/*
 * A splice into a pipe moves only what fits there, where a read takes
 * all the input holds, up to size: a record that moved less than the
 * input held just before (FIONREAD) was cut by the output.  It goes on
 * to what a read would have returned then, as a write of it would
 * (blocking until the reader makes room).  (What the input holds after
 * the splice can't tell: a fast producer refills it at once, and a read
 * would not have waited for that.)  Returns the record's length, or 0
 * with the part moved as the tally's carry when a fault stops it (the
 * record loop meets the fault again).
 */
static size_t finish_cut_record(struct dd_run *run, struct copy_channel *ch,
				size_t moved, size_t record)
{
	while (moved < record) {
		ssize_t n = copy_channel_step(ch, record - moved);

		if (n < 0 && retry_after(run))
			continue;
		if (n <= 0) {
			tally_carry_read(run, moved);
			tally_carry_written(run, moved);
			return 0;
		}
		moved += (size_t)n;
	}
	return record;
}

/* Per record, straight from pipe to pipe or to /dev/null: one splice
 * is one record. */
static bool copy_records_spliced(struct dd_run *run, struct copy_channel *ch)
{
	for (;;) {
		size_t size, held = 0;
		ssize_t n;

		tick(run);
		if (!next_record_size(run, &size))
			return true;
		/* Only a pipe can cut a splice short: ask first what a read
		 * would return (finish_cut_record). */
		if (io_end_is_pipe(&run->out))
			held = min_u64(pipe_bytes_held(&run->in), size);
		do
			n = copy_channel_step(ch, size);
		while (n < 0 && retry_after(run));
		if (n <= 0)
			return false;   /* the end, or a fault: read tells */
		if ((size_t)n < held) {
			n = (ssize_t)finish_cut_record(run, ch, (size_t)n, held);
			if (n == 0)
				return false;
		}
		if ((size_t)n < size)
			process_signals(run);   /* it may have cut it short */
		note_read_size(run, n, size);
		tally_read(run, (size_t)n);
		tally_write(run, (size_t)n, (size_t)n);
	}
}

/*
 * Per record through dd's own pipe, from a pipe into a file: the fill
 * takes what one read would have returned, the drains write it out.  A
 * record the output does not take goes to the record loop whole.
 */
static bool copy_records_via_pipe(struct dd_run *run, struct copy_channel *ch)
{
	size_t record = 0, written = 0;

	for (;;) {
		size_t size;
		ssize_t n;

		tick(run);
		if (ch->in_pipe == 0) {
			if (!next_record_size(run, &size))
				return true;
			do
				n = copy_channel_fill(ch, size);
			while (n < 0 && retry_after(run));
			if (n <= 0) {
				if (n == 0)
					note_read_size(run, 0, size);
				return n == 0;
			}
			if ((size_t)n < size)
				process_signals(run);
			note_read_size(run, n, size);
			tally_read(run, (size_t)n);
			record = (size_t)n;
			written = 0;
		}
		n = copy_channel_drain(ch);
		if (n > 0) {
			written += (size_t)n;
			if (written == record)
				tally_write(run, record, record);
			continue;
		}
		if (n < 0 && retry_after(run))
			continue;
		grow_input_buffer(run, ch->in_pipe);
		run->pending = copy_channel_take_back(ch, run->ibuf.data);
		tally_carry_written(run, written);
		return false;
	}
}

/* Could a read from the input pipe return more than dd's own pipe
 * holds?  Then one splice would split that record in two. */
static bool record_may_exceed(const struct dd_run *run,
			      const struct copy_channel *ch)
{
	uint64_t most = run->opt->ibs;

	if (run->in.pipe_capacity && run->in.pipe_capacity < most)
		most = run->in.pipe_capacity;
	return run->in.pipe_capacity == 0 || most > ch->pipe_size;
}

/*
 * Read ahead (plan.c's read_ahead_pays): the reads, whose size nobody
 * sees (a file returns all it is asked for until its end), are large;
 * the writes stay as the record loop makes them.  Records follow from
 * the byte count, as in a coalesced copy.  When the copy stops early,
 * the bytes read ahead but not written are sought back over: the record
 * loop, which takes over, reads on from what was written.
 */
enum { READ_AHEAD_SIZE = 256 << 10 };

/* How many of len bytes, from the start, are blocks of obs bytes that
 * are all zeros (*zeros), or all not (the last block may be short). */
static size_t run_of_same_blocks(const unsigned char *data, size_t len,
				 size_t obs, bool *zeros)
{
	size_t run = 0;

	*zeros = bb_is_all_zero(data, len < obs ? len : obs);
	while (run < len) {
		size_t block = len - run < obs ? len - run : obs;

		if (run > 0 && bb_is_all_zero(data + run, block) != *zeros)
			break;
		run += block;
	}
	return run;
}

/* The next piece of what was read ahead: into a pipe, one record (a
 * reader sees each write); with conv=sparse, a run of blocks that is
 * sought over or written whole, as each block would be.  Returns the
 * bytes done, or -1 with errno; *whole is false when the piece was not
 * all written (errno says why), so that the copy stops there and the
 * record loop meets the fault with GNU's message: a zero run after it
 * must not be sought over as if nothing had happened. */
static ssize_t write_ahead_piece(struct dd_run *run, const unsigned char *data,
				 size_t held, bool *whole)
{
	size_t obs = (size_t)run->opt->obs, run_len, done;
	bool zeros = false;

	*whole = false;
	if (!(run->opt->conv & CONV_SPARSE))
		run_len = held < obs ? held : obs;
	else
		run_len = run_of_same_blocks(data, held, obs, &zeros);
	if (zeros && seek_over_zeros(run, run_len)) {
		*whole = true;
		return (ssize_t)run_len;
	}
	done = write_step(run, data, run_len);
	*whole = done == run_len;
	return done ? (ssize_t)done : -1;
}

/*
 * conv=sparse from a file with holes: the whole blocks of a hole at the
 * input's offset are zeros, and are sought over on both sides without
 * being read, as the record loop would seek over each block it read.
 * At most left bytes, a step at a time.  *data_end remembers where the
 * data found last ends, so that a file without holes is asked once.
 * Returns the bytes passed over (0 at data, or where the output can't
 * seek), or -1 if the input's offset can't be put back.
 */
static int64_t pass_input_hole(struct dd_run *run, uint64_t left,
			       uint64_t *data_end)
{
	uint64_t at = run->tally.in_offset, obs = run->opt->obs, hole;
	uint64_t end = at + min_u64(left, run->in.size - min_u64(at, run->in.size));

	if (!(run->opt->conv & CONV_SPARSE) || run->sparse_off
	    || !S_ISREG(run->in.st.st_mode) || at < *data_end || at >= end)
		return 0;
	hole = file_hole_length(run->in.fd, at, end);
	if (hole == 0)
		*data_end = at + file_data_length(run->in.fd, at, run->in.size);
	hole = min_u64(hole, COALESCED_STEP);
	hole -= hole % obs;
	if (hole && !seek_over_zeros(run, (size_t)hole))
		hole = 0;
	if (lseek(run->in.fd, (off_t)(at + hole), SEEK_SET) < 0)
		return -1;
	return (int64_t)hole;
}

static bool copy_read_ahead(struct dd_run *run)
{
	size_t obs = (size_t)run->opt->obs;
	/* A whole number of blocks; a single block no larger than what the
	 * input or count= can still give (plan.c's ibuf_size). */
	size_t ahead = obs < READ_AHEAD_SIZE ? READ_AHEAD_SIZE / obs * obs
		: (size_t)min_u64(obs, run->plan.ibuf_size);
	size_t held = 0, at = 0;
	uint64_t limit = run->plan.count_bytes, moved = 0;
	uint64_t data_end = 0;    /* pass_input_hole's */
	struct lazy_buffer buf;
	bool at_end = false, whole = false;

	if (lazy_buffer_alloc(&buf, ahead) != 0)
		return false;
	while (!(at_end = turn_reaches_count(run, moved, limit))) {
		ssize_t n;

		if (held == 0) {
			int64_t hole = pass_input_hole(run, limit - moved,
							&data_end);

			if (hole < 0) {
				report_seek_error(&run->in);
				at_end = true;
				break;
			}
			if (hole > 0) {
				moved += (uint64_t)hole;
				tally_moved(run, (uint64_t)hole, true);
				continue;
			}
			n = read_restarting(run, buf.data,
					    (size_t)min_u64(limit - moved, ahead));
			if (n <= 0) {
				at_end = n == 0 && input_at_end(run, NULL);
				break;
			}
			held = (size_t)n;
			at = 0;
		}
		n = write_ahead_piece(run, buf.data + at, held, &whole);
		if (n > 0) {
			at += (size_t)n;
			held -= (size_t)n;
			moved += (uint64_t)n;
			tally_moved(run, (uint64_t)n, true);
		}
		if (whole || (n < 0 && retry_after(run)))
			continue;
		break;
	}
	/* The record loop reads on from what was written.  If the input
	 * can't be put back there, nothing after it can be trusted. */
	if (held && lseek(run->in.fd, -(off_t)held, SEEK_CUR) < 0) {
		report_seek_error(&run->in);
		at_end = true;
	}
	tally_coalesced(run, moved, at_end);
	lazy_buffer_free(&buf);
	return at_end;
}

/*
 * Where zeros come from.  Written: a never-written 1 MiB buffer, whose
 * pages map the shared zero page when read, so they cost no memory.
 * Vmspliced: a block of real zero pages (see ZERO_BLOCK_SIZE).
 */
static bool get_zeros(struct dd_run *run, enum copy_path path,
		      struct lazy_buffer *zeros)
{
	uint64_t size = 1 << 20;

	if (path == COPY_VMSPLICE_ZEROS)
		return zero_block_alloc(zeros, ZERO_BLOCK_SIZE) == 0;
	if (run->ibuf.capacity >= size) {
		/* The first MiB of the input buffer: never read into here. */
		zeros->data = run->ibuf.data;
		zeros->capacity = size;
		return true;
	}
	return lazy_buffer_alloc(zeros, size) == 0;
}

/*
 * Larger pipes around dd: a coalesced copy fills a 1 MiB output pipe in
 * quarters (see pipe_step_size).  Between two pipes, each record costs
 * two sleeping processes a wake-up; 1 MiB on both sides lets a reader
 * and a writer run for many records between wake-ups (the pipe -> pipe
 * rows of docs/benchmarks.md).
 * These pipes are not dd's: a larger one holds more, but its reads still
 * return what one read can, up to ibs; the input pipe is raised only
 * where it holds a record already, so that reads are no larger than
 * they would have been.  SIGPIPE and EPIPE are as before.
 */
static void raise_pipes(struct dd_run *run)
{
	pipe_raise_capacity(&run->out, PIPE_MAX_CAPACITY);
	if (io_end_is_pipe(&run->out) && run->opt->ibs <= run->in.pipe_capacity)
		pipe_raise_capacity(&run->in, PIPE_MAX_CAPACITY);
}

bool copy_zerocopy(struct dd_run *run)
{
	const struct dd_plan *plan = &run->plan;
	struct lazy_buffer zeros = { NULL, 0 };
	struct copy_channel ch;
	bool coalesced = plan->mover == MOVER_COALESCED;
	bool done = false;

	raise_pipes(run);
	if (plan->mover == MOVER_READ_AHEAD)
		return copy_read_ahead(run);
	if ((plan->path == COPY_VMSPLICE_ZEROS || plan->path == COPY_WRITE_ZEROS)
	    && !get_zeros(run, plan->path, &zeros))
		return false;
	if (copy_channel_open(&ch, plan->path, &run->in, &run->out, zeros.data) == 0) {
		if (coalesced)
			done = copy_coalesced(run, &ch, &zeros);
		else if (plan->path != COPY_SPLICE_VIA_PIPE)
			done = copy_records_spliced(run, &ch);
		else if (!record_may_exceed(run, &ch))
			done = copy_records_via_pipe(run, &ch);
		copy_channel_close(&ch);
	}
	if (zeros.data && zeros.data != run->ibuf.data)
		lazy_buffer_free(&zeros);
	return done;
}
