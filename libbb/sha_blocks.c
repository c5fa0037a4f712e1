/*
 * sha_blocks.c - the block buffer and padding SHA-1 and SHA-256 share
 * (FIPS 180-4, 5.1.1): bytes wait until a 64-byte block is whole; the
 * message ends with a 1 bit, zeros up to 8 bytes short of a block, and
 * its length in bits, big-endian.
 */
#include <string.h>

#include "sha_blocks.h"

void sha_start(struct sha_ctx *ctx, const uint32_t *initial, unsigned words,
	       sha_compress_fn *compress)
{
	memcpy(ctx->state, initial, words * sizeof(*initial));
	ctx->words = words;
	ctx->compress = compress;
	ctx->length = 0;
	ctx->fill = 0;
}

void sha_update(struct sha_ctx *ctx, const void *data, size_t len)
{
	const unsigned char *p = data;

	ctx->length += len;
	if (ctx->fill) {
		size_t take = min_u64(len, SHA_BLOCK_SIZE - ctx->fill);

		memcpy(ctx->block + ctx->fill, p, take);
		ctx->fill += take;
		p += take;
		len -= take;
		if (ctx->fill < SHA_BLOCK_SIZE)
			return;
		ctx->compress(ctx->state, ctx->block);
		ctx->fill = 0;
	}
	for (; len >= SHA_BLOCK_SIZE; p += SHA_BLOCK_SIZE, len -= SHA_BLOCK_SIZE)
		ctx->compress(ctx->state, p);
	memcpy(ctx->block, p, len);
	ctx->fill = len;
}

void sha_final(struct sha_ctx *ctx, unsigned char *digest)
{
	uint64_t bits = ctx->length * 8;

	ctx->block[ctx->fill++] = 0x80;
	if (ctx->fill > SHA_BLOCK_SIZE - 8) {
		memset(ctx->block + ctx->fill, 0, SHA_BLOCK_SIZE - ctx->fill);
		ctx->compress(ctx->state, ctx->block);
		ctx->fill = 0;
	}
	memset(ctx->block + ctx->fill, 0, SHA_BLOCK_SIZE - 8 - ctx->fill);
	store_be32(ctx->block + 56, (uint32_t)(bits >> 32));
	store_be32(ctx->block + 60, (uint32_t)bits);
	ctx->compress(ctx->state, ctx->block);
	for (unsigned i = 0; i < ctx->words; i++)
		store_be32(digest + 4 * (size_t)i, ctx->state[i]);
}
