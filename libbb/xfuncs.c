/*
 * xfuncs.c - allocation that prints a message and exits on failure, so
 * callers never carry an error path for it (try_malloc in buffer.c is
 * the one that returns NULL).  Never for a message being reported:
 * quote.c falls back to the bare text instead of dying here.
 */
#include "libbb.h"

void *xmalloc(size_t size)
{
	void *p = try_malloc(size);

	if (!p)
		bb_error_msg_and_die("memory exhausted");
	return p;
}
