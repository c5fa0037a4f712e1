/*
 * sha_blocks.c - the block buffer of the block hashes (SHA-1, SHA-256,
 * conv=verify's chunk hash): bytes wait until a block is whole.  And the
 * padding SHA-1 and SHA-256 share (FIPS 180-4, 5.1.1): the message ends
 * with a 1 bit, zeros up to 8 bytes short of a block, and its length in
 * bits, big-endian.
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

void feed_blocks(unsigned char *pending, size_t *fill, size_t block_size,
		 const void *data, size_t len, whole_blocks_fn *whole, void *ctx)
{
	const unsigned char *p = data;

	if (*fill) {
		size_t take = min_u64(len, block_size - *fill);

		memcpy(pending + *fill, p, take);
		*fill += take;
		p += take;
		len -= take;
		if (*fill < block_size)
			return;
		whole(ctx, pending, 1);
		*fill = 0;
	}
	whole(ctx, p, len / block_size);
	p += len / block_size * block_size;
	len %= block_size;
	memcpy(pending, p, len);
	*fill = len;
}

static void compress_blocks(void *hash, const unsigned char *blocks,
			    size_t count)
{
	struct sha_ctx *ctx = hash;

	for (; count; count--, blocks += SHA_BLOCK_SIZE)
		ctx->compress(ctx->state, blocks);
}

void sha_update(struct sha_ctx *ctx, const void *data, size_t len)
{
	ctx->length += len;
	feed_blocks(ctx->block, &ctx->fill, SHA_BLOCK_SIZE, data, len,
		    compress_blocks, ctx);
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
