/*
 * sha_blocks.h - what SHA-1 and SHA-256 share (FIPS 180-4, 5.1.1 and
 * 6.x): big-endian words and the start of a hash; the block buffer and
 * the padding are sha_update's and sha_final's.  And SHA-256's
 * compressions, the portable one and those in the CPU's instructions,
 * among which sha256_init chooses.  Private to libbb/sha*.c.
 */
#ifndef ZEROBOX_SHA_BLOCKS_H
#define ZEROBOX_SHA_BLOCKS_H

#include <string.h>

#include "libbb.h"

static inline uint32_t load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16
		| (uint32_t)p[2] << 8 | p[3];
}

/* A byte swap where the CPU is little-endian, and a copy: one store
 * each (gcc at -Oz keeps a byte store per shift of the plain C). */
static inline void store_be32(unsigned char *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, sizeof(v));
}

static inline void store_be64(unsigned char *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, sizeof(v));
}

/* Start a hash of words words (5 for SHA-1, 8 for SHA-256) whose
 * state begins as initial[0..words) (the rest zero), advanced by
 * compress(ctx, blocks, count) over whole blocks. */
void sha_start(struct sha_ctx *ctx, const uint32_t *initial, unsigned words,
	       whole_blocks_fn *compress);

/* SHA-256's round constants (FIPS 180-4, 4.2.2), for every compression
 * (sha_portable.c). */
extern const uint32_t sha256_round_constants[64];

/* SHA-1's or SHA-256's compression in portable C (sha_portable.c):
 * ctx, a struct sha_ctx, advanced over count blocks; its words say
 * which hash it is. */
void sha_portable(void *ctx, const unsigned char *blocks, size_t count);

/* SHA-256's compression for this CPU: in its own instructions where it
 * has them, x86 SHA-NI (sha256_x86.c) or ARMv8 SHA2 on arm64 and armhf
 * (sha256_armv8.c), else sha_portable.  Each is built on its
 * architectures only. */
whole_blocks_fn *sha256_x86(void);
whole_blocks_fn *sha256_armv8(void);

#endif
