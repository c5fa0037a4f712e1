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
	       whole_blocks_fn *compress)
{
	memset(ctx, 0, sizeof(*ctx));
	memcpy(ctx->state, initial, words * sizeof(*initial));
	ctx->words = words;
	ctx->compress = compress;
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

/* Whole blocks go to the compression straight from data. */
void sha_update(struct sha_ctx *ctx, const void *data, size_t len)
{
	ctx->length += len;
	feed_blocks(ctx->block, &ctx->fill, SHA_BLOCK_SIZE, data, len,
		    ctx->compress, ctx);
}

void sha_final(struct sha_ctx *ctx, unsigned char *digest)
{
	/* 0x80, then zeros to 8 bytes short of a block's end, then the
	 * length in bits: 9 to 72 bytes. */
	unsigned char tail[SHA_BLOCK_SIZE + 8] = { 0x80 };
	size_t zeros_end = 1 + (SHA_BLOCK_SIZE - 9 - ctx->fill) % SHA_BLOCK_SIZE;

	store_be64(tail + zeros_end, ctx->length * 8);
	sha_update(ctx, tail, zeros_end + 8);
	for (unsigned i = 0; i < ctx->words; i++)
		store_be32(digest + 4 * (size_t)i, ctx->state[i]);
}
