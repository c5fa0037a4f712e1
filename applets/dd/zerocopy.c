/* zerocopy.c - the zero-copy movers plan.c picks (FEATURE_ZEROCOPY).  A
 * fault, or a 0 that may not be the end, hands the copy to the record
 * loop where it stands (docs/design.md, "Faults"). */
#include <limits.h>
#include <unistd.h>

#include "dd.h"

enum {
	COALESCED_STEP = 64 << 20,    /* progress and SIGUSR1 still come soon */
	WHOLE_PIPE_STEP = 64 << 10,   /* the default pipe, filled whole */
	READ_AHEAD_SIZE = 256 << 10,
	WRITTEN_ZEROS_SIZE = 1 << 20, /* COPY_WRITE_ZEROS's never-written zeros */
};

/* Is a step's 0 the input's end? (docs/design.md, "Faults") */
static bool input_at_end(const struct dd_run *run, const struct copy_channel *ch)
{
	if (run->in.size_known && run->tally.in_offset < run->in.size)
		return false;
	if (ch && ch->path == COPY_SPLICE_VIA_PIPE)
		return ch->in_pipe == 0;
	return run->in.size_known;
}

/* Each turn: the records so far, the housekeeping; is count= reached? */
static bool turn_reaches_count(struct dd_run *run, uint64_t moved,
			       uint64_t limit)
{
	tally_coalesced(run, moved, COALESCED_SO_FAR);
	housekeep(run);
	return moved >= limit;
}

static bool copy_coalesced(struct dd_run *run, struct copy_channel *ch)
{
	uint64_t limit = run->plan.count_bytes, moved = 0;
	size_t step = ch->path == COPY_WRITE_ZEROS ? WRITTEN_ZEROS_SIZE
		: run->cache ? CACHE_WINDOW : COALESCED_STEP;
	bool at_end = false;

	/* Into a pipe, a quarter of it; one record where writes are atomic. */
	if (io_end_is_pipe(&run->out)) {
		step = run->out.pipe_capacity / 4;
		if (step < WHOLE_PIPE_STEP)
			step = WHOLE_PIPE_STEP;
		if (run->opt->obs <= PIPE_BUF)
			step = (size_t)run->opt->obs;
	}

	while (!(at_end = turn_reaches_count(run, moved, limit))) {
		ssize_t n = copy_channel_step(ch,
				(size_t)min_u64(limit - moved, step));

		if (n > 0) {
			moved += (uint64_t)n;
			if (ch->zeros)
				tally_output(run, (uint64_t)n);
			else
				tally_moved(run, (uint64_t)n);
			continue;
		}
		if (n < 0 && transfer_retry(&run->transfer))
			continue;
		at_end = n == 0 && input_at_end(run, ch);
		break;
	}
	tally_coalesced(run, moved, at_end ? COALESCED_AT_END : COALESCED_SO_FAR);
	return at_end;
}

/* Write out the record dd's pipe holds: false once one the output does
 * not take went to the record loop whole (run->pending). */
static bool drain_record(struct dd_run *run, struct copy_channel *ch)
{
	size_t written = 0;

	while (ch->in_pipe) {
		ssize_t n = copy_channel_drain(ch);

		if (n > 0) {
			written += (size_t)n;
		} else if (n == 0 || !transfer_retry(&run->transfer)) {
			grow_buffer(run, INPUT_SIDE, ch->in_pipe);
			run->pending = copy_channel_take_back(ch, run->ibuf.data);
			tally_carry(run, 0, written);
			return false;
		}
		if (ch->in_pipe)
			housekeep(run);
	}
	return true;
}

/* Per record, from a pipe: one splice, or a fill of dd's pipe drained. */
static bool copy_per_record(struct dd_run *run, struct copy_channel *ch)
{
	bool via_pipe = ch->path == COPY_SPLICE_VIA_PIPE;

	for (;;) {
		size_t size, held = 0, moved;
		ssize_t n;

		housekeep(run);
		if (!next_record_size(run, &size))
			return true;
		/* Only a pipe (never via_pipe's) cuts a splice short. */
		if (io_end_is_pipe(&run->out))
			held = min_u64(pipe_bytes_held(&run->in), size);
		do
			n = via_pipe ? copy_channel_fill(ch, size)
				: copy_channel_step(ch, size);
		while (n < 0 && transfer_retry(&run->transfer));
		/* Only the fill's 0 is surely the end: else a read tells. */
		if (n <= 0)
			return n == 0 && via_pipe;
		/* A splice into a pipe moves only what fits, where a read takes
		 * all the input held: the rest follows (a fault's part: carry). */
		for (moved = (size_t)n; moved < held; moved += (size_t)n) {
			do
				n = copy_channel_step(ch, held - moved);
			while (n < 0 && transfer_retry(&run->transfer));
			if (n <= 0) {
				tally_carry(run, moved, moved);
				return false;
			}
		}
		if (moved < size)
			transfer_act_on_signals(&run->transfer);   /* it may have cut it short */
		note_read_size(run, (ssize_t)moved, size);
		tally_read(run, moved);
		if (via_pipe && !drain_record(run, ch))
			return false;
		tally_write(run, moved, moved);
	}
}

/* Write the next block read ahead, or with conv=sparse a run of blocks
 * all zeros (sought over) or all not; *done: the bytes written or sought
 * over, true when that was the whole piece. */
static bool write_ahead_piece(struct dd_run *run, const unsigned char *data,
			      size_t held, size_t *done)
{
	size_t obs = (size_t)run->opt->obs, len = held < obs ? held : obs;
	bool zeros = false;

	if (run->opt->conv & CONV_SPARSE) {
		zeros = bb_is_all_zero(data, len);
		while (len < held) {
			size_t block = held - len < obs ? held - len : obs;

			if (bb_is_all_zero(data + len, block) != zeros)
				break;
			len += block;
		}
	}
	if (zeros && seek_over_zeros(run, len)) {
		*done = len;
		return true;
	}
	*done = write_bytes(run, data, len);
	return *done == len;
}

/* conv=sparse: seek both ends over a hole's whole blocks, at most left (> 0)
 * bytes: how many (0 at data; *data_end: where it ends), or -1 on error. */
static int64_t pass_input_hole(struct dd_run *run, uint64_t left,
			       uint64_t *data_end)
{
	uint64_t at = run->tally.in_offset, obs = run->opt->obs, hole;

	if (!(run->opt->conv & CONV_SPARSE) || run->sparse_off
	    || !S_ISREG(run->in.st.st_mode) || at < *data_end
	    || at >= run->in.size)
		return 0;
	hole = file_hole_length(run->in.fd, at,
				at + min_u64(left, run->in.size - at));
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

/* Large reads, the record loop's writes (docs/design.md, "Zero-copy"). */
static bool copy_read_ahead(struct dd_run *run)
{
	size_t obs = (size_t)run->opt->obs;
	/* Whole blocks; one block no larger than plan.c's ibuf_size. */
	size_t ahead = obs < READ_AHEAD_SIZE ? READ_AHEAD_SIZE / obs * obs
		: (size_t)min_u64(obs, run->plan.ibuf_size);
	size_t held = 0, at = 0, done;
	uint64_t limit = run->plan.count_bytes, moved = 0, data_end = 0;
	int64_t hole = 0;
	struct lazy_buffer buf;
	bool at_end = false, whole;

	if (lazy_buffer_alloc(&buf, ahead) != 0)
		return false;
	while (!(at_end = turn_reaches_count(run, moved, limit))) {
		if (held == 0) {
			ssize_t n;

			hole = pass_input_hole(run, limit - moved, &data_end);
			if (hole < 0)
				break;
			if (hole > 0) {
				moved += (uint64_t)hole;
				tally_moved(run, (uint64_t)hole);
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
		/* A piece not all written hands the fault to the record loop. */
		whole = write_ahead_piece(run, buf.data + at, held, &done);
		at += done;
		held -= done;
		moved += done;
		tally_moved(run, done);
		if (!whole && !(done == 0 && transfer_retry(&run->transfer)))
			break;
	}
	/* The record loop reads on from what was written; a hole the input
	 * could not pass, or an input not put back, ends the copy. */
	if (hole < 0
	    || (held && lseek(run->in.fd, -(off_t)held, SEEK_CUR) < 0)) {
		report_seek_error(&run->in);
		at_end = true;
	}
	tally_coalesced(run, moved, at_end ? COALESCED_AT_END : COALESCED_SO_FAR);
	lazy_buffer_free(&buf);
	return at_end;
}

/* The zero-copy mover plan.c picked: true when it finished the copy (or
 * lost its place, reported); false hands the rest to the record loop,
 * where it stands. */
bool copy_zerocopy(struct dd_run *run)
{
	const struct dd_plan *plan = &run->plan;
	struct lazy_buffer zeros = { NULL, 0 };
	struct copy_channel ch;
	bool done = false;

	/* Larger pipes around dd (docs/design.md, "Pipes around dd"). */
	pipe_raise_capacity(&run->out, PIPE_MAX_CAPACITY);
	if (io_end_is_pipe(&run->out) && run->opt->ibs <= run->in.pipe_capacity)
		pipe_raise_capacity(&run->in, PIPE_MAX_CAPACITY);
	if (plan->mover == MOVER_READ_AHEAD)
		return copy_read_ahead(run);
	/* Never-written pages (ibuf's, if large enough), or vmsplice's. */
	if (plan->path == COPY_VMSPLICE_ZEROS) {
		if (zero_block_alloc(&zeros, ZERO_BLOCK_SIZE) != 0)
			return false;
	} else if (plan->path == COPY_WRITE_ZEROS) {
		if (run->ibuf.capacity >= WRITTEN_ZEROS_SIZE)
			zeros.data = run->ibuf.data;
		else if (lazy_buffer_alloc(&zeros, WRITTEN_ZEROS_SIZE) != 0)
			return false;
	}
	if (copy_channel_open(&ch, plan->path, &run->in, &run->out, zeros.data) == 0) {
		if (plan->mover == MOVER_COALESCED)
			done = copy_coalesced(run, &ch);
		/* Not where one fill of dd's pipe could split a record. */
		else if (plan->path != COPY_SPLICE_VIA_PIPE
			 || (run->in.pipe_capacity && ch.pipe_size >=
			     min_u64(run->in.pipe_capacity, run->opt->ibs)))
			done = copy_per_record(run, &ch);
		copy_channel_close(&ch);
	}
	if (zeros.data && zeros.data != run->ibuf.data)
		lazy_buffer_free(&zeros);
	return done;
}
