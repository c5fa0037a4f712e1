/*
 * buffers.c - map the planned buffers (before the output opens); grow them.
 */
#include "dd.h"

void die_memory_exhausted(const char *which, uint64_t size)
{
	char human[HUMAN_BUF_SIZE];

	bb_error_msg_and_die("memory exhausted by %s buffer of size %llu bytes (%s)",
			     which, (unsigned long long)size,
			     human_readable(human, size, 1, 1, HUMAN_IEC));
}

void map_buffers(struct dd_run *run)
{
	if (lazy_buffer_alloc(&run->ibuf, run->plan.ibuf_size) != 0)
		die_memory_exhausted("input", run->opt->ibs);
	if (run->plan.two_buffers
	    && lazy_buffer_alloc(&run->obuf, run->plan.obuf_size) != 0)
		die_memory_exhausted("output", run->opt->obs);
}

/* Grow ibuf or obuf by doubling (few mremaps) to hold want bytes, at most
 * its block size (below 2^63: doubling can't overflow). */
void grow_buffer(struct dd_run *run, enum dd_side side, uint64_t want)
{
	bool output = side == OUTPUT_SIDE;
	struct lazy_buffer *buf = output ? &run->obuf : &run->ibuf;
	uint64_t limit = output ? run->opt->obs : run->opt->ibs;
	uint64_t size = buf->capacity;

	while (size < want && size < limit)
		size *= 2;
	if (lazy_buffer_grow(buf, min_u64(size, limit)) != 0)
		die_memory_exhausted(output ? "output" : "input", limit);
}
