/*
 * xfuncs.c - allocation and open(2) that print a message and exit on
 * failure, so callers never carry an error path for them.
 *
 * Memory comes from anonymous mappings, not malloc: zerobox allocates
 * rarely (a long message, a quoted name, an applet's buffers), and
 * without malloc the static binary carries no allocator (musl's costs
 * about 6.5 KiB).  Pages stay untouched until used, and come zeroed.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#include "libbb.h"

/* Each block starts with its mapping's size, for xfree; 16 bytes keep
 * the caller's part aligned for any type. */
enum { BLOCK_HEADER = 16 };

void *try_malloc(size_t size)
{
	struct lazy_buffer block;

	if (size > SIZE_MAX - BLOCK_HEADER
	    || lazy_buffer_alloc(&block, size + BLOCK_HEADER) != 0)
		return NULL;
	memcpy(block.data, &block.capacity, sizeof(block.capacity));
	return block.data + BLOCK_HEADER;
}

void xfree(void *p)
{
	struct lazy_buffer block;

	if (!p)
		return;
	block.data = (unsigned char *)p - BLOCK_HEADER;
	memcpy(&block.capacity, block.data, sizeof(block.capacity));
	lazy_buffer_free(&block);
}

void *xmalloc(size_t size)
{
	void *p = try_malloc(size);

	if (!p)
		bb_error_msg_and_die("memory exhausted");
	return p;
}

void *xzalloc(size_t size)
{
	return xmalloc(size);   /* fresh mappings read as zeros */
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}

int xopen(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode);

	if (fd < 0)
		bb_perror_msg_and_die("can't open '%s'", path);
	return fd;
}
