/*
 * sha_blocks.c - the block buffer and padding SHA-1 and SHA-256 share
 * (FIPS 180-4, 5.1.1): bytes wait until a 64-byte block is whole; the
 * message ends with a 1 bit, zeros up to 8 bytes short of a block, and
 * its length in bits, big-endian.
 */
#include <string.h>

#include "sha_blocks.h"

void sha_blocks_update(struct sha_blocks *b, uint32_t *state,
		       sha_compress_fn *compress, const void *data, size_t len)
{
	const unsigned char *p = data;

	b->length += len;
	if (b->fill) {
		size_t take = min_u64(len, SHA_BLOCK_SIZE - b->fill);

		memcpy(b->block + b->fill, p, take);
		b->fill += take;
		p += take;
		len -= take;
		if (b->fill < SHA_BLOCK_SIZE)
			return;
		compress(state, b->block);
		b->fill = 0;
	}
	for (; len >= SHA_BLOCK_SIZE; p += SHA_BLOCK_SIZE, len -= SHA_BLOCK_SIZE)
		compress(state, p);
	memcpy(b->block, p, len);
	b->fill = len;
}

void sha_blocks_pad(struct sha_blocks *b, uint32_t *state,
		    sha_compress_fn *compress)
{
	uint64_t bits = b->length * 8;

	b->block[b->fill++] = 0x80;
	if (b->fill > SHA_BLOCK_SIZE - 8) {
		memset(b->block + b->fill, 0, SHA_BLOCK_SIZE - b->fill);
		compress(state, b->block);
		b->fill = 0;
	}
	memset(b->block + b->fill, 0, SHA_BLOCK_SIZE - 8 - b->fill);
	store_be32(b->block + 56, (uint32_t)(bits >> 32));
	store_be32(b->block + 60, (uint32_t)bits);
	compress(state, b->block);
	b->fill = 0;
}
