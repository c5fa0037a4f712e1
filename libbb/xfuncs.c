/*
 * xfuncs.c - allocation that prints a message and exits on failure, so
 * callers never carry an error path for it (try_malloc in buffer.c is
 * the one that returns NULL).
 */
#include <string.h>

#include "libbb.h"

void *xmalloc(size_t size)
{
	void *p = try_malloc(size);

	if (!p)
		bb_error_msg_and_die("memory exhausted");
	return p;
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}
