/*
 * sha_portable.c - SHA-1's and SHA-256's compressions in portable C, as
 * FIPS 180-4 defines them (sections 4.1, 4.2, 6.1.2, 6.2.2): SHA-1's
 * only one, SHA-256's fallback where the CPU has no SHA instructions.
 *
 * Written for size (docs/sizes.md): the two hashes share one structure,
 * nothing is unrolled, and the working variables slide down an array
 * (a round writes the new first one just before the others; the next
 * round starts there) instead of being moved one by one.
 */
#include <string.h>

#include "sha_blocks.h"

/* The first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (FIPS 180-4, 4.2.2). */
const uint32_t sha256_round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* SHA-1's left rotations by 1, 5 and 30 are right rotations by 31, 27
 * and 2. */
static uint32_t rotate_right(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

/* SHA-256's four functions of one word (4.1.2, 4.4 to 4.7): three
 * rotations, or two and a shift. */
static uint32_t big_sigma(uint32_t x, unsigned r1, unsigned r2, unsigned r3)
{
	return rotate_right(x, r1) ^ rotate_right(x, r2) ^ rotate_right(x, r3);
}

static uint32_t small_sigma(uint32_t x, unsigned r1, unsigned r2, unsigned shift)
{
	return rotate_right(x, r1) ^ rotate_right(x, r2) ^ (x >> shift);
}

/* The message schedule of block (6.1.2 and 6.2.2, step 1): w[0..80)
 * for SHA-1, w[0..64) for SHA-256. */
static void schedule(uint32_t *w, const unsigned char *block, bool sha1)
{
	for (unsigned t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * (size_t)t);
	for (unsigned t = 16; t < (sha1 ? 80u : 64u); t++) {
		if (sha1)
			w[t] = rotate_right(w[t - 3] ^ w[t - 8] ^ w[t - 14]
					    ^ w[t - 16], 31);
		else
			w[t] = small_sigma(w[t - 2], 17, 19, 10) + w[t - 7]
				+ small_sigma(w[t - 15], 7, 18, 3) + w[t - 16];
	}
}

/* Round t (step 3).  The working variables a to h (SHA-1: a to e) are
 * v[0..8); the new a goes to v[-1], so that the caller, moving v down
 * one place, finds the others moved down too.  One of them changes on
 * its way: SHA-1's new c, SHA-256's new e. */
static void one_round(uint32_t *v, uint32_t word, unsigned t, bool sha1)
{
	uint32_t a = v[0], b = v[1], c = v[2], d = v[3], e = v[4];
	uint32_t sum = word;   /* SHA-1's TEMP; SHA-256's T1, then T1 + T2 */

	if (sha1) {
		/* f_t and K_t (4.1.1, 4.2.1) change every 20 rounds. */
		if (t < 20)
			sum += ((b & c) | (~b & d)) + 0x5a827999;
		else if (t < 40)
			sum += (b ^ c ^ d) + 0x6ed9eba1;
		else if (t < 60)
			sum += ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc;
		else
			sum += (b ^ c ^ d) + 0xca62c1d6;
		v[1] = rotate_right(b, 2);
		sum += rotate_right(a, 27) + e;
	} else {
		uint32_t f = v[5], g = v[6], h = v[7];

		sum += h + big_sigma(e, 6, 11, 25) + ((e & f) ^ (~e & g))
			+ sha256_round_constants[t];
		v[3] = d + sum;
		sum += big_sigma(a, 2, 13, 22) + ((a & b) ^ (a & c) ^ (b & c));
	}
	v[-1] = sum;
}

void sha_portable(void *hash, const unsigned char *blocks, size_t count)
{
	struct sha_ctx *ctx = hash;
	bool sha1 = ctx->words == 5;
	unsigned rounds = sha1 ? 80 : 64;

	for (; count; count--, blocks += SHA_BLOCK_SIZE) {
		/* the schedule; the working variables, a word lower each
		 * round */
		uint32_t w[80], slide[80 + 8];
		uint32_t *v = slide + rounds;

		schedule(w, blocks, sha1);
		memcpy(v, ctx->state, 8 * sizeof(*v));
		for (unsigned t = 0; t < rounds; t++, v--)
			one_round(v, w[t], t, sha1);
		for (unsigned i = 0; i < 8; i++)
			ctx->state[i] += v[i];
	}
}
