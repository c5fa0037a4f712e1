/*
 * sha_hex.h - SHA-1 and SHA-256 of some bytes, in lower-case hex, for
 * the tests that check digests (test_sha) or write them into a map
 * (test_bmapfile).  Both at once: the two APIs differ only in their
 * types, and test_sha compares the two side by side anyway.
 */
#ifndef ZEROBOX_SHA_HEX_H
#define ZEROBOX_SHA_HEX_H

#include <stdio.h>

#include "libbb.h"

static void sha_to_hex(const unsigned char *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* Both digests of data fed in pieces of `piece` bytes, or in one update
 * call each with piece 0 (the reference the pieces are held to). */
static void sha_hex(const void *data, size_t len, size_t piece,
		    char h1[2 * SHA1_DIGEST_SIZE + 1],
		    char h256[2 * SHA256_DIGEST_SIZE + 1])
{
	const unsigned char *bytes = data;
	struct sha1_ctx c1;
	struct sha256_ctx c256;
	unsigned char d1[SHA1_DIGEST_SIZE], d256[SHA256_DIGEST_SIZE];

	sha1_init(&c1);
	sha256_init(&c256);
	if (!piece) {
		sha1_update(&c1, data, len);
		sha256_update(&c256, data, len);
	} else {
		for (size_t at = 0; at < len; at += piece) {
			size_t n = min_u64(piece, len - at);

			sha1_update(&c1, bytes + at, n);
			sha256_update(&c256, bytes + at, n);
		}
	}
	sha1_final(&c1, d1);
	sha256_final(&c256, d256);
	sha_to_hex(d1, sizeof(d1), h1);
	sha_to_hex(d256, sizeof(d256), h256);
}

#endif
