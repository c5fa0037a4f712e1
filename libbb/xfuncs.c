/*
 * xfuncs.c - allocation and open(2) that print a message and exit on
 * failure, so callers never carry an error path for them.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "libbb.h"

static void *nonnull(void *p)
{
	if (!p)
		bb_error_msg_and_die("memory exhausted");
	return p;
}

void *xmalloc(size_t size)
{
	/* malloc(0) may legitimately return NULL; ask for one byte. */
	return nonnull(malloc(size ? size : 1));
}

void *xzalloc(size_t size)
{
	return nonnull(calloc(1, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return nonnull(strdup(s));
}

int xopen(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode);

	if (fd < 0)
		bb_perror_msg_and_die("can't open '%s'", path);
	return fd;
}
