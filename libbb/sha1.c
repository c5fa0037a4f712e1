/*
 * sha1.c - SHA-1 as FIPS 180-4 defines it (sections 4.1.1, 4.2.1,
 * 5.1.1, 6.1), for bmap files of format 1.3, which use it.
 *
 * One 64-byte block at a time, the message schedule kept in a 16-word
 * ring (the alternative method of section 6.1.3).
 */
#include "sha_blocks.h"

static uint32_t rotate_left(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static void compress_block(uint32_t *state, const unsigned char *block)
{
	uint32_t w[16];
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4];

	for (unsigned t = 0; t < 80; t++) {
		uint32_t word, f, k, temp;

		if (t < 16)
			word = load_be32(block + 4 * (size_t)t);
		else
			word = rotate_left(w[(t - 3) & 15] ^ w[(t - 8) & 15]
					   ^ w[(t - 14) & 15] ^ w[t & 15], 1);
		w[t & 15] = word;
		if (t < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (t < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (t < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		temp = rotate_left(a, 5) + f + e + k + word;
		e = d;
		d = c;
		c = rotate_left(b, 30);
		b = a;
		a = temp;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
}

void sha1_init(struct sha_ctx *ctx)
{
	static const uint32_t initial[5] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
	};

	sha_start(ctx, initial, ARRAY_SIZE(initial), compress_block);
}
