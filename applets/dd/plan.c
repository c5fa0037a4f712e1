/*
 * plan.c - every limit that follows from the operands and the ends,
 * computed once, and the choice of mover.  Pure functions: no syscall,
 * no allocation, so the fuzz harness checks them directly.
 *
 * The input buffer is sized from what a read can return at most:
 *   - what is left of a regular file or block device after skip= (one
 *     byte more, so that end of file shows as a short read and a read
 *     that fills the buffer means the file grew),
 *   - a pipe's capacity,
 *   - count= in bytes,
 *   - ibs.
 * So `dd if=small.img bs=1G` maps a page, not a gigabyte.  A bound that
 * turns out wrong (a file that grows, iflag=fullblock on a pipe) makes
 * the buffer grow (buffers.c).
 *
 * A record larger than RECORD_STEP from an input whose reads are short
 * only at its end is moved a step at a time (records.c), so that
 * `dd if=/dev/sda of=/dev/sdb bs=1G` fits on a board with 64 MiB.
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "dd.h"

/* records × block + bytes, or false if that does not fit. */
static bool blocks_to_bytes(uint64_t records, uint64_t block, uint64_t bytes,
			    uint64_t *result)
{
	return !__builtin_mul_overflow(records, block, result)
		&& !__builtin_add_overflow(*result, bytes, result);
}

/* GNU warns about short reads only where they change the outcome: one
 * buffer (bs=), no fullblock, and counted or skipped records or
 * O_DIRECT. */
static bool wants_partial_read_warning(const struct dd_options *opt)
{
	return opt->bs_given && !opt->reshaping
		&& !(opt->input_flags & FLAG_FULLBLOCK)
		&& (opt->skip_records
		    || (opt->max_records != 0 && opt->max_records != UINT64_MAX)
		    || ((opt->input_open_flags | opt->output_open_flags) & O_DIRECT));
}

/* The input offset after skip=, from arithmetic alone; UINT64_MAX if it
 * does not fit. */
static uint64_t input_start(const struct dd_plan *plan, const struct io_end *in)
{
	uint64_t start;

	if (plan->skip_overflow
	    || __builtin_add_overflow(plan->skip_offset, in->offset, &start))
		return UINT64_MAX;
	return start;
}

/* The most the whole input can still deliver, or UINT64_MAX. */
static uint64_t input_total_bound(const struct dd_plan *plan,
				  const struct io_end *in)
{
	uint64_t bound = plan->count_bytes;

	if (in->size_known) {
		uint64_t start = input_start(plan, in);
		uint64_t left = start < in->size ? in->size - start : 0;

		bound = min_u64(bound, left + 1);
	}
	return bound;
}

/*
 * The largest piece of a record read or written at once.  Large enough
 * that a step costs no more per byte than one large read (the bench's
 * bs=1M rows are at the plateau), small enough for a board with 32 MiB.
 */
enum { RECORD_STEP = 4 << 20 };

/* iflag=fullblock drops a record whose read fails part-way, as GNU's
 * does: no mover may write a part of a record before it is all read. */
static bool writes_only_whole_records(const struct dd_options *opt)
{
	return opt->input_flags & FLAG_FULLBLOCK;
}

/* Can a record be moved in steps with the same outcome as one read and
 * one write?  One buffer (each read written as it came), nothing that
 * looks at the whole record (conv=sync pads it, noerror skips it, sparse
 * tests it for zeros, fullblock drops it on error), and an input of
 * known size, so that reading a record in steps returns what one read
 * would.  (Not /dev/zero: there bs=1E count=1 must stay GNU's "memory
 * exhausted", not an endless copy.) */
static bool records_may_step(const struct dd_options *opt,
			     const struct io_end *in)
{
	return opt->bs_given && opt->ibs == opt->obs && !opt->reshaping
		&& !(opt->conv & (CONV_SYNC | CONV_NOERROR | CONV_SPARSE))
		&& !writes_only_whole_records(opt) && in->size_known;
}

void plan_input(struct dd_plan *plan, const struct dd_options *opt,
		const struct io_end *in)
{
	uint64_t total;

	plan->count_bytes = UINT64_MAX;
	if (opt->max_records != UINT64_MAX
	    && !blocks_to_bytes(opt->max_records, opt->ibs, opt->max_bytes,
				&plan->count_bytes))
		plan->count_bytes = UINT64_MAX;
	plan->skip_overflow = !blocks_to_bytes(opt->skip_records, opt->ibs,
					       opt->skip_bytes, &plan->skip_offset);
	plan->seek_too_large = !blocks_to_bytes(opt->seek_records, opt->obs,
						opt->seek_bytes, &plan->seek_offset)
		|| plan->seek_offset > INT64_MAX;
	plan->warn_partial_read = wants_partial_read_warning(opt);

	/* conv=sync pads every record to ibs, so it needs the whole block. */
	total = input_total_bound(plan, in);
	plan->ibuf_size = opt->ibs;
	if (!(opt->conv & CONV_SYNC)) {
		plan->ibuf_size = min_u64(plan->ibuf_size, total);
		if (in->pipe_capacity)
			plan->ibuf_size = min_u64(plan->ibuf_size, in->pipe_capacity);
	}
	plan->record_steps = records_may_step(opt, in);
	if (plan->record_steps)
		plan->ibuf_size = min_u64(plan->ibuf_size, RECORD_STEP);

	/* GNU stages output separately when records are reshaped, blocks
	 * differ in size, or bs= was not given (then reads are gathered
	 * into full output blocks).  That buffer starts as large as the
	 * input can fill and grows on demand up to obs (conv=block can make
	 * output larger than input). */
	plan->two_buffers = !opt->bs_given || opt->ibs != opt->obs || opt->reshaping;
	plan->obuf_size = 0;
	if (plan->two_buffers) {
		plan->obuf_size = min_u64(opt->obs, total);
		if (plan->obuf_size < plan->ibuf_size)
			plan->obuf_size = min_u64(opt->obs, plan->ibuf_size);
	}
}

/* A copy is plain when nothing looks at the bytes; sparse_ok lets
 * conv=sparse through, which looks at them only to seek over zeros. */
static bool is_plain(const struct dd_options *opt, bool sparse_ok)
{
	unsigned looking = CONV_SYNC | CONV_NOERROR | CONV_SWAB
		| (sparse_ok ? 0 : CONV_SPARSE);

	return !opt->reshaping && !(opt->conv & looking)
		&& opt->ibs == opt->obs
		&& !((opt->input_open_flags | opt->output_open_flags) & O_DIRECT);
}

/*
 * Reading ahead (large reads from a file whose reads are full until its
 * end) pays where the writes must stay small: into a pipe at obs <=
 * PIPE_BUF, and into a file with conv=sparse, where each block is
 * written or sought over (runs of either kind go as one call).  Only a
 * file dd opened itself: an inherited descriptor's offset may be shared,
 * and a signal that ends dd would leave it past what was written.
 */
static bool read_ahead_pays(const struct dd_options *opt,
			    const struct io_end *in, const struct io_end *out)
{
	if (!in->size_known || !opt->input_path
	    || writes_only_whole_records(opt))
		return false;
	if (opt->conv & CONV_SPARSE)
		return ENABLE_FEATURE_DD_CONV && S_ISREG(out->st.st_mode)
			&& is_plain(opt, true);
	return io_end_is_pipe(out) && opt->obs <= PIPE_BUF && is_plain(opt, false);
}

/*
 * Where zero-copy pays, per record.  A splice costs more than a small
 * copy, so a path that needs one or more syscalls per record must save
 * more than that (docs/design.md has the crossover measurements, from
 * `make bench BENCH_ONLY=crossover`):
 *   pipe -> pipe, /dev/null   one splice against a read and a write:
 *                             pays from the smallest records (for
 *                             pipes, above PIPE_BUF; see below);
 *   pipe -> file              two splices (into dd's pipe and out)
 *                             against a read and a write: level from
 *                             4 KiB to 64 KiB, slower below, faster
 *                             only for records larger than 64 KiB, so
 *                             only when both bs= and the input pipe
 *                             allow such records.
 * Coalesced copies move large steps whatever bs= says, so they pay at
 * any block size.
 */
enum { PIPE_TO_FILE_MIN_RECORD = 64 << 10 };

static bool per_record_pays(const struct dd_options *opt,
			    const struct io_end *in, enum copy_path path)
{
	if (path != COPY_SPLICE_VIA_PIPE)
		return true;
	return opt->ibs > PIPE_TO_FILE_MIN_RECORD
		&& in->pipe_capacity > PIPE_TO_FILE_MIN_RECORD;
}

/* The movers and the batches need both ends known and blocking. */
static bool fast_paths_allowed(const struct io_end *in, const struct io_end *out)
{
	return ENABLE_FEATURE_ZEROCOPY && !in->stat_errno && !out->stat_errno
		&& !io_end_is_nonblocking(in) && !io_end_is_nonblocking(out);
}

/*
 * Which mover: zero-copy for plain copies along a path the kernel
 * offers, with records counted as the record loop would count them:
 *   coalesced   for inputs whose reads come back short only at the end
 *               (files, block devices, /dev/zero);
 *   per record  for a pipe input with bs= (each read may be short),
 *               where that pays;
 *   read ahead  for a file into a pipe at obs <= PIPE_BUF, where the
 *               writes must keep their size, and into a file with
 *               conv=sparse (read_ahead_pays);
 * the record loop otherwise: pipe inputs into pipes at obs <= PIPE_BUF
 * (POSIX promises atomic writes) or into files at records of 64 KiB or
 * less, both in batches where the pipe holds several records
 * (plan_batches), and character devices other than /dev/null (tapes),
 * which have no zero-copy path.
 */
static void choose_mover(struct dd_plan *plan, const struct dd_options *opt,
			 const struct io_end *in, const struct io_end *out)
{
	/* A read of /dev/zero never fails part-way. */
	bool coalesce = (in->size_known && !writes_only_whole_records(opt))
		|| is_dev_zero(&in->st);
	/* Empty, or procfs claiming a size: let read decide. */
	bool empty = in->size_known && input_start(plan, in) >= in->size;

	plan->mover = MOVER_RECORDS;
	plan->path = COPY_READ_WRITE;
	if (ENABLE_FEATURE_DD_ZEROOUT && zeroout_applies(opt, plan, in, out)
	    && !empty) {
		plan->mover = MOVER_ZEROOUT;
		return;
	}
	/* conv=verify hashes the bytes on their way through. */
	if (!fast_paths_allowed(in, out) || (opt->conv & CONV_VERIFY) || empty)
		return;
	if (read_ahead_pays(opt, in, out)) {
		plan->mover = MOVER_READ_AHEAD;
		return;
	}
	if (!is_plain(opt, false))
		return;
	plan->path = copy_choose_path(in, out);
	if (plan->path == COPY_READ_WRITE)
		return;
	/* Into a pipe, a reader sees the size of writes of at most PIPE_BUF
	 * (each is atomic): they stay one per record, as the record loop's.
	 * Zeros need no read before them: a read of a page or less from
	 * /dev/zero is never cut short.  (Files are read ahead, above.) */
	if (io_end_is_pipe(out) && opt->obs <= PIPE_BUF) {
		if (plan->path == COPY_VMSPLICE_ZEROS) {
			plan->path = COPY_WRITE_ZEROS;
			plan->mover = MOVER_COALESCED;
		}
		return;
	}
	if (coalesce)
		plan->mover = MOVER_COALESCED;
	else if (opt->bs_given && !(opt->input_flags & FLAG_FULLBLOCK)
		 && per_record_pays(opt, in, plan->path))
		plan->mover = MOVER_PER_RECORD;
}

/* Where writes only add bytes: files, block devices, pipes, /dev/null
 * (not a tape, where each write is a block). */
static bool writes_only_add_bytes(const struct io_end *out)
{
	return S_ISREG(out->st.st_mode) || S_ISBLK(out->st.st_mode)
		|| S_ISFIFO(out->st.st_mode) || is_dev_null(&out->st);
}

/*
 * Batches (batch.c), for the record loop reading a pipe: the whole
 * records the pipe already holds are read in one read and written
 * together.  Only where nothing looks at the bytes or the reads (no
 * fullblock, which a batch never needs), where a write may carry
 * several records, and not with oflag=sync or dsync, which ask for each
 * record on the disk before the next is read.  One default pipe's worth
 * at most; into a pipe, writes of at most PIPE_BUF, which are atomic as
 * each record's own write was.
 */
enum { BATCH_SIZE = 64 << 10 };

static void plan_batches(struct dd_plan *plan, const struct dd_options *opt,
			 const struct io_end *in, const struct io_end *out)
{
	uint64_t obs = opt->obs;

	plan->batch_size = plan->batch_write = 0;
	if (!fast_paths_allowed(in, out) || plan->mover != MOVER_RECORDS
	    || !io_end_is_pipe(in)
	    || !writes_only_add_bytes(out) || !is_plain(opt, false)
	    || (opt->input_flags & FLAG_FULLBLOCK)
	    || (opt->output_open_flags & (O_SYNC | O_DSYNC))
	    || obs > BATCH_SIZE / 2)
		return;
	plan->batch_size = BATCH_SIZE / obs * obs;
	plan->batch_write = plan->batch_size;
	if (io_end_is_pipe(out))
		plan->batch_write = obs < PIPE_BUF ? PIPE_BUF / obs * obs : obs;
}

void plan_output(struct dd_plan *plan, const struct dd_options *opt,
		 const struct io_end *in, const struct io_end *out)
{
	/* A record's steps are separate writes. */
	if (!writes_only_add_bytes(out))
		plan->record_steps = false;
	choose_mover(plan, opt, in, out);
	plan_batches(plan, opt, in, out);
}
