/*
 * sha_hex.h - SHA-1 and SHA-256 of some bytes, in lower-case hex, for
 * the tests that write them into a map (test_bmapfile).  Both at once:
 * a map may ask for either.
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
	struct sha_ctx c1, c256;
	unsigned char d1[SHA1_DIGEST_SIZE], d256[SHA256_DIGEST_SIZE];

	sha1_init(&c1);
	sha256_init(&c256);
	if (!piece) {
		sha_update(&c1, data, len);
		sha_update(&c256, data, len);
	} else {
		for (size_t at = 0; at < len; at += piece) {
			size_t n = min_u64(piece, len - at);

			sha_update(&c1, bytes + at, n);
			sha_update(&c256, bytes + at, n);
		}
	}
	sha_final(&c1, d1);
	sha_final(&c256, d256);
	sha_to_hex(d1, sizeof(d1), h1);
	sha_to_hex(d256, sizeof(d256), h256);
}

#endif
