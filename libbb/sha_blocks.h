/*
 * sha_blocks.h - what SHA-1 and SHA-256 share (FIPS 180-4, 5.1.1 and
 * 6.x): big-endian words and the start of a hash; the block buffer and
 * the padding are sha_update's and sha_final's.  Private to
 * libbb/sha1.c, sha256.c and sha_blocks.c.
 */
#ifndef ZEROBOX_SHA_BLOCKS_H
#define ZEROBOX_SHA_BLOCKS_H

#include "libbb.h"

static inline uint32_t load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16
		| (uint32_t)p[2] << 8 | p[3];
}

static inline void store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

typedef void sha_compress_fn(uint32_t *state, const unsigned char *block);

/* Start a hash whose state begins as initial[0..words). */
void sha_start(struct sha_ctx *ctx, const uint32_t *initial, unsigned words,
	       sha_compress_fn *compress);

#endif
