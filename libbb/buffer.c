/*
 * buffer.c - copy buffers made of fresh anonymous pages.
 *
 * mmap gives pages the kernel maps only when first touched, and nothing
 * here touches them (no memset, no MAP_POPULATE): a 1 GiB buffer that
 * receives 4 KiB costs one page of RSS.  The exception is the small zero
 * block for vmsplice, which must be real pages (see libbb.h).  Growing uses mremap, which moves
 * page tables rather than bytes.  MAP_NORESERVE is left out on purpose,
 * so that with overcommit off an impossible size fails here, up front,
 * instead of as a SIGBUS later.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libbb.h"

size_t page_round_up(uint64_t n)
{
	uint64_t mask = (uint64_t)getpagesize() - 1;

	if (n == 0)
		n = 1;
	if (n > SIZE_MAX - mask)
		return 0;
	return (size_t)((n + mask) & ~mask);
}

/* What mmap or mremap returned becomes the buffer; a failure leaves it
 * as it was. */
static int hold(struct lazy_buffer *buf, void *p, size_t cap)
{
	if (p == MAP_FAILED)
		return -1;
	buf->data = p;
	buf->capacity = cap;
	return 0;
}

/* Fresh private anonymous pages for size bytes, with extra mmap flags. */
static int map_pages(struct lazy_buffer *buf, uint64_t size, int flags)
{
	size_t cap = page_round_up(size);

	buf->data = NULL;
	buf->capacity = 0;
	if (!cap) {
		errno = ENOMEM;
		return -1;
	}
	return hold(buf, mmap(NULL, cap, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0), cap);
}

int lazy_buffer_alloc(struct lazy_buffer *buf, uint64_t size)
{
	return map_pages(buf, size, 0);
}

int lazy_buffer_grow(struct lazy_buffer *buf, uint64_t size)
{
	size_t cap;
	void *p;

	if (!buf->data)
		return lazy_buffer_alloc(buf, size);
	if (size <= buf->capacity)
		return 0;
	cap = page_round_up(size);
	p = cap ? mremap(buf->data, buf->capacity, cap, MREMAP_MAYMOVE)
		: MAP_FAILED;
	/* Linux says EINVAL for a size past the address space; the
	 * arguments are otherwise always valid here. */
	if (p == MAP_FAILED && (!cap || errno == EINVAL))
		errno = ENOMEM;
	return hold(buf, p, cap);
}

int zero_block_alloc(struct lazy_buffer *buf, size_t size)
{
	/* MAP_POPULATE on a private writable mapping write-faults every
	 * page: each is a page of its own, zeroed by the kernel. */
	return map_pages(buf, size, MAP_POPULATE);
}

void lazy_buffer_free(struct lazy_buffer *buf)
{
	if (buf->data)
		munmap(buf->data, buf->capacity);
	buf->data = NULL;
	buf->capacity = 0;
}

/*
 * Small allocations for the rest of libbb come from mappings too, not
 * malloc: zerobox allocates rarely (a long message, a quoted name), and
 * without malloc the static binary carries no allocator.  Each block
 * starts with its mapping's size, for free_mapped; 16 bytes keep the
 * caller's part aligned for any type.
 */
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

void free_mapped(void *p)
{
	struct lazy_buffer block;

	if (!p)
		return;
	block.data = (unsigned char *)p - BLOCK_HEADER;
	memcpy(&block.capacity, block.data, sizeof(block.capacity));
	lazy_buffer_free(&block);
}
