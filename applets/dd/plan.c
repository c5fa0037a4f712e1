/*
 * plan.c - size the buffers from what the kernel already knows, and get
 * them before the output is opened (DESIGN.md principles 1-3).
 *
 * A read can never return more than:
 *   - what is left of a regular file or block device (fstat/BLKGETSIZE64
 *     and the offset after skip=),
 *   - a pipe's capacity (F_GETPIPE_SZ),
 *   - count= in bytes when that is less than one block,
 *   - ibs.
 * The input buffer is the smallest of these, rounded up to a page, so
 * `dd if=small.img bs=1G` reserves a page, not a gigabyte.  The buffers
 * are fresh anonymous mappings that nothing writes before data arrives.
 *
 * When a bound turns out wrong (a file that grows during the copy,
 * iflag=fullblock collecting a record bigger than a pipe), the buffer
 * grows with mremap, which moves page tables, not bytes.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "dd.h"

void die_memory_exhausted(const char *which, uint64_t size)
{
	char human[HUMAN_BUF_SIZE];

	bb_error_msg_and_die("memory exhausted by %s buffer of size %llu bytes (%s)",
			     which, (unsigned long long)size,
			     human_readable(human, size, 1, 1, 1));
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The most the whole input can still deliver, or UINT64_MAX. */
static uint64_t input_total_bound(const struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t bound = UINT64_MAX, count_bytes;

	if (run->in_size_known) {
		uint64_t start = input_start_offset(run);
		uint64_t left = start < run->in_size ? run->in_size - start : 0;

		/* One byte more than is left: end of file then shows as a
		 * short read, and a read that fills the buffer means the file
		 * grew (see read_input). */
		bound = left + 1;
	}
	if (opt->max_records != UINT64_MAX
	    && !__builtin_mul_overflow(opt->max_records, opt->ibs, &count_bytes)
	    && !__builtin_add_overflow(count_bytes, opt->max_bytes, &count_bytes))
		bound = min_u64(bound, count_bytes);
	return bound;
}

/* The most one read can return. */
static uint64_t single_read_bound(const struct dd_run *run)
{
	uint64_t bound = input_total_bound(run);

	if (S_ISFIFO(run->in_mode)) {
		int capacity = fcntl(run->in_fd, F_GETPIPE_SZ);

		if (capacity > 0)
			bound = min_u64(bound, (uint64_t)capacity);
	}
	return bound;
}

void plan_buffers(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t in_size = opt->ibs, out_size;

	/* conv=sync pads every record to ibs, so it needs the whole block. */
	if (!(opt->conv & CONV_SYNC))
		in_size = min_u64(in_size, single_read_bound(run));
	if (lazy_buffer_alloc(&run->ibuf, in_size) != 0)
		die_memory_exhausted("input", opt->ibs);

	/* GNU stages output separately when records are reshaped, blocks
	 * differ in size, or bs= was not given (then reads are gathered
	 * into full output blocks). */
	run->two_buffers = !opt->bs_given || opt->ibs != opt->obs
		|| opt->reshaping;
	if (!run->two_buffers)
		return;
	/* Start as large as the input can fill, and grow on demand up to
	 * obs (conv=block can make output larger than input). */
	out_size = min_u64(opt->obs, input_total_bound(run));
	if (out_size < run->ibuf.capacity)
		out_size = min_u64(opt->obs, run->ibuf.capacity);
	if (lazy_buffer_alloc(&run->obuf, out_size) != 0)
		die_memory_exhausted("output", opt->obs);
}

/* Grow buf to hold at least want bytes (at most limit), doubling to
 * keep the number of mremap calls small. */
static void grow_buffer(struct lazy_buffer *buf, uint64_t want, uint64_t limit,
			const char *which)
{
	uint64_t size = buf->capacity;

	while (size < want && size < limit)
		size = size > UINT64_MAX / 2 ? UINT64_MAX : size * 2;
	size = min_u64(size, limit);
	if (size > buf->capacity && lazy_buffer_grow(buf, size) != 0)
		die_memory_exhausted(which, limit);
}

void grow_input_buffer(struct dd_run *run, uint64_t want)
{
	grow_buffer(&run->ibuf, want, run->opt->ibs, "input");
}

void grow_output_buffer(struct dd_run *run, uint64_t want)
{
	grow_buffer(&run->obuf, want, run->opt->obs, "output");
}
