/* plan.c - limits and mover from operands and ends: pure, for the fuzzer. */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "jobs/jobs.h"

/* records × block + bytes, or false if that does not fit. */
static bool blocks_to_bytes(uint64_t records, uint64_t block, uint64_t bytes,
			    uint64_t *result)
{
	return !__builtin_mul_overflow(records, block, result)
		&& !__builtin_add_overflow(*result, bytes, result);
}

/* The input offset after skip=, UINT64_MAX if it does not fit. */
static uint64_t input_start(const struct dd_plan *plan, const struct io_end *in)
{
	uint64_t start;

	if (plan->skip_overflow
	    || __builtin_add_overflow(plan->skip_offset, in->offset, &start))
		return UINT64_MAX;
	return start;
}

/* A record's largest step: cheap per byte, yet small beside a small
 * board's memory (docs/design.md, "Large records"). */
enum { RECORD_STEP = 4 << 20 };

void plan_input(struct dd_plan *plan, const struct dd_options *opt,
		const struct io_end *in)
{
	/* The most the whole input can still deliver: with a known size,
	 * one byte more, so that its end shows as a short read. */
	uint64_t total;

	if (opt->max_records == UINT64_MAX
	    || !blocks_to_bytes(opt->max_records, opt->ibs, opt->max_bytes,
				&plan->count_bytes))
		plan->count_bytes = UINT64_MAX;
	plan->skip_overflow = !blocks_to_bytes(opt->skip_records, opt->ibs,
					       opt->skip_bytes, &plan->skip_offset);
	plan->seek_too_large = !blocks_to_bytes(opt->seek_records, opt->obs,
						opt->seek_bytes, &plan->seek_offset)
		|| plan->seek_offset > INT64_MAX;
	/* GNU warns of short reads only where they change the outcome. */
	plan->warn_partial_read = opt->bs_given && !opt->reshaping
		&& !(opt->input_flags & FLAG_FULLBLOCK)
		&& (opt->skip_records
		    || (opt->max_records != 0 && opt->max_records != UINT64_MAX)
		    || ((opt->input_open_flags | opt->output_open_flags) & O_DIRECT));

	total = plan->count_bytes;
	if (in->size_known) {
		uint64_t start = input_start(plan, in);

		total = min_u64(total, (start < in->size ? in->size - start : 0) + 1);
	}
	/* conv=sync pads every record to ibs: it needs the whole block. */
	plan->ibuf_size = opt->ibs;
	if (!(opt->conv & CONV_SYNC)) {
		plan->ibuf_size = min_u64(plan->ibuf_size, total);
		if (in->pipe_capacity)
			plan->ibuf_size = min_u64(plan->ibuf_size, in->pipe_capacity);
	}
	/* Steps of a record return what one read would: one buffer, nothing
	 * looking at the whole record, an input of known size. */
	plan->record_steps = opt->bs_given && opt->ibs == opt->obs
		&& !opt->reshaping
		&& !(opt->conv & (CONV_SYNC | CONV_NOERROR | CONV_SPARSE))
		&& !(opt->input_flags & FLAG_FULLBLOCK) && in->size_known;
	if (plan->record_steps)
		plan->ibuf_size = min_u64(plan->ibuf_size, RECORD_STEP);

	/* GNU's separate output buffer, as the input fills it (up to obs). */
	plan->two_buffers = !opt->bs_given || opt->ibs != opt->obs || opt->reshaping;
	plan->obuf_size = plan->two_buffers ? min_u64(opt->obs,
		total > plan->ibuf_size ? total : plan->ibuf_size) : 0;
}

/* Plain: nothing looks at the bytes, but for the conversions allowed
 * (CONV_SPARSE: conv=sparse's seeks, or 0). */
static bool is_plain(const struct dd_options *opt, unsigned allowed)
{
	unsigned looking = (CONV_SYNC | CONV_NOERROR | CONV_SWAB | CONV_SPARSE)
		& ~allowed;

	return !opt->reshaping && !(opt->conv & looking)
		&& opt->ibs == opt->obs
		&& !((opt->input_open_flags | opt->output_open_flags) & O_DIRECT);
}

/* Read-ahead pays for small writes (a pipe at obs <= PIPE_BUF, sparse), from
 * a file dd opened (offset unshared); fullblock writes no error-cut record. */
static bool read_ahead_pays(const struct dd_options *opt,
			    const struct io_end *in, const struct io_end *out,
			    bool plain)
{
	if (!in->size_known || !opt->input_path
	    || (opt->input_flags & FLAG_FULLBLOCK))
		return false;
	if (opt->conv & CONV_SPARSE)
		return ENABLE_FEATURE_DD_CONV && S_ISREG(out->st.st_mode)
			&& is_plain(opt, CONV_SPARSE);
	return plain && io_end_is_pipe(out) && opt->obs <= PIPE_BUF;
}

/* Pipe -> file through dd's pipe pays from this record size on (measured:
 * make bench BENCH_ONLY=crossover). */
enum { PIPE_TO_FILE_MIN_RECORD = 64 << 10 };

/* The movers and the batches need both ends known and blocking. */
static bool fast_paths_allowed(const struct io_end *in, const struct io_end *out)
{
	return ENABLE_FEATURE_ZEROCOPY && !in->stat_errno && !out->stat_errno
		&& !io_end_is_nonblocking(in) && !io_end_is_nonblocking(out);
}

static void choose_mover(struct dd_plan *plan, const struct dd_options *opt,
			 const struct io_end *in, const struct io_end *out)
{
	/* Empty, or procfs claiming a size: let read decide. */
	bool empty = in->size_known && input_start(plan, in) >= in->size;
	bool plain;

	plan->mover = MOVER_RECORDS;
	plan->path = COPY_READ_WRITE;
	if (ENABLE_FEATURE_DD_ZEROOUT && !empty
	    && zeroout_applies(opt, plan, in, out)) {
		plan->mover = MOVER_ZEROOUT;
		return;
	}
	/* conv=verify hashes the bytes on their way through. */
	if (!fast_paths_allowed(in, out) || (opt->conv & CONV_VERIFY) || empty)
		return;
	plain = is_plain(opt, 0);
	if (read_ahead_pays(opt, in, out, plain)) {
		plan->mover = MOVER_READ_AHEAD;
		return;
	}
	if (!plain)
		return;
	plan->path = copy_choose_path(in, out);
	if (plan->path == COPY_READ_WRITE)
		return;
	/* Into a pipe, writes of at most PIPE_BUF are seen (atomic): one per
	 * record.  Zeros need no read (design.md, "Zero-copy"). */
	if (io_end_is_pipe(out) && opt->obs <= PIPE_BUF) {
		if (plan->path == COPY_VMSPLICE_ZEROS) {
			plan->path = COPY_WRITE_ZEROS;
			plan->mover = MOVER_COALESCED;
		}
		return;
	}
	/* Reads short only at the end (/dev/zero never): records follow. */
	if ((in->size_known && !(opt->input_flags & FLAG_FULLBLOCK))
	    || is_dev_zero(&in->st))
		plan->mover = MOVER_COALESCED;
	else if (opt->bs_given && !(opt->input_flags & FLAG_FULLBLOCK)
		 && (plan->path != COPY_SPLICE_VIA_PIPE
		     || (opt->ibs > PIPE_TO_FILE_MIN_RECORD
			 && in->pipe_capacity > PIPE_TO_FILE_MIN_RECORD)))
		plan->mover = MOVER_PER_RECORD;
}

/* Batches: a default pipe's worth at most; into a pipe, atomic writes. */
enum { BATCH_SIZE = 64 << 10 };

void plan_output(struct dd_plan *plan, const struct dd_options *opt,
		 const struct io_end *in, const struct io_end *out)
{
	uint64_t obs = opt->obs;
	/* Where writes only add bytes (not a tape, whose writes are blocks),
	 * a record's steps and a batch may be separate writes. */
	bool adds_bytes = S_ISREG(out->st.st_mode) || S_ISBLK(out->st.st_mode)
		|| S_ISFIFO(out->st.st_mode) || is_dev_null(&out->st);

	plan->record_steps &= adds_bytes;
	choose_mover(plan, opt, in, out);

	/* Whole records a pipe already holds, read at once: where nothing
	 * looks at the bytes or the reads, and not with oflag=sync/dsync. */
	plan->batch_size = plan->batch_write = 0;
	if (!fast_paths_allowed(in, out) || plan->mover != MOVER_RECORDS
	    || !io_end_is_pipe(in) || !adds_bytes || !is_plain(opt, 0)
	    || (opt->input_flags & FLAG_FULLBLOCK)
	    || (opt->output_open_flags & (O_SYNC | O_DSYNC))
	    || obs > BATCH_SIZE / 2)
		return;
	plan->batch_size = plan->batch_write = BATCH_SIZE / obs * obs;
	if (io_end_is_pipe(out))
		plan->batch_write = obs < PIPE_BUF ? PIPE_BUF / obs * obs : obs;
}
