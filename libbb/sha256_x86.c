/*
 * sha256_x86.c - SHA-256's compression in the x86 SHA extensions
 * (SHA-NI), with the SSSE3 PALIGNR they need, chosen at run time: the
 * function alone is built for those instructions (a target attribute),
 * so the rest of the binary runs on any x86 CPU, 32 or 64 bits.
 *
 * SHA256RNDS2 does two rounds on the working variables held as two
 * vectors, (a, b, e, f) and (c, d, g, h), each high lane first; after
 * two rounds the old (a, b, e, f) is the new (c, d, g, h), so the two
 * vectors take turns.  SHA256MSG1 and SHA256MSG2 extend the message
 * schedule four words at a time (FIPS 180-4, 6.2.2).
 */
#include "sha_blocks.h"

#if defined(__x86_64__) || defined(__i386__)

#include <cpuid.h>
#include <immintrin.h>

#define SHA_NI_TARGET __attribute__((target("sha,ssse3")))

/* The eight state words as the two vectors the rounds take, and back.
 * Low lane first, the state is (a, b, c, d) (e, f, g, h) and the
 * rounds take (f, e, b, a) (h, g, d, c): lanes 1, 0 of each and lanes
 * 3, 2 of each, in both directions (SHUFPS 0x11 and 0xbb). */
SHA_NI_TARGET
static void pack_state(const uint32_t *state, __m128i *abef, __m128i *cdgh)
{
	__m128 abcd = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)state));
	__m128 efgh = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(state + 4)));

	*abef = _mm_castps_si128(_mm_shuffle_ps(efgh, abcd, 0x11));
	*cdgh = _mm_castps_si128(_mm_shuffle_ps(efgh, abcd, 0xbb));
}

SHA_NI_TARGET
static void unpack_state(uint32_t *state, __m128i abef, __m128i cdgh)
{
	__m128 x = _mm_castsi128_ps(abef), y = _mm_castsi128_ps(cdgh);

	_mm_storeu_si128((__m128i *)state, _mm_castps_si128(_mm_shuffle_ps(x, y, 0xbb)));
	_mm_storeu_si128((__m128i *)(state + 4), _mm_castps_si128(_mm_shuffle_ps(x, y, 0x11)));
}

/* Four big-endian words: the halves of each word swapped, then the
 * bytes of each half (SSE2; PSHUFB would need a 16-byte constant). */
SHA_NI_TARGET
static __m128i load_words(const unsigned char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)p);

	x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1);
	return _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
}

/* whole_blocks_fn: hash, a struct sha_ctx, advanced over count blocks. */
SHA_NI_TARGET
static void sha256_sha_ni(void *hash, const unsigned char *blocks,
			  size_t count)
{
	uint32_t *state = ((struct sha_ctx *)hash)->state;
	__m128i abef, cdgh;

	pack_state(state, &abef, &cdgh);
	for (; count; count--, blocks += SHA_BLOCK_SIZE) {
		__m128i abef_in = abef, cdgh_in = cdgh;
		__m128i w[4];   /* the next 16 words of the schedule */

		for (unsigned i = 0; i < 4; i++)
			w[i] = load_words(blocks + 16 * (size_t)i);
		/* Four rounds a turn, and the four words after the 16 in
		 * w (the last three turns make them for nothing). */
		for (unsigned t = 0; t < 64; t += 4) {
			__m128i wk = _mm_add_epi32(w[0], _mm_loadu_si128(
				(const __m128i *)(sha256_round_constants + t)));
			__m128i next = _mm_sha256msg2_epu32(_mm_add_epi32(
				_mm_sha256msg1_epu32(w[0], w[1]),
				_mm_alignr_epi8(w[3], w[2], 4)), w[3]);

			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
			abef = _mm_sha256rnds2_epu32(abef, cdgh,
						     _mm_shuffle_epi32(wk, 0x0e));
			w[0] = w[1];
			w[1] = w[2];
			w[2] = w[3];
			w[3] = next;
		}
		abef = _mm_add_epi32(abef, abef_in);
		cdgh = _mm_add_epi32(cdgh, cdgh_in);
	}
	unpack_state(state, abef, cdgh);
}

/* The SHA extensions, as CPUID leaf 7 says (every CPU that has them has
 * SSSE3 too). */
whole_blocks_fn *sha256_x86(void)
{
	unsigned a, b, c, d;

	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA)
		? sha256_sha_ni : sha_portable;
}

#endif
