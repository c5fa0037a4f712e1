/*
 * sha256_x86.c - SHA-256's compression in the x86 SHA extensions
 * (SHA-NI), with the SSSE3 and SSE4.1 shuffles they need, chosen at run
 * time: the function alone is built for those instructions (a target
 * attribute), so the rest of the binary runs on any x86 CPU.
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

/* The eight state words as the two vectors the rounds take, and back:
 * (a, b, c, d) and (e, f, g, h) are (d, c, b, a) and (h, g, f, e) high
 * lane first; their low halves (b, a, f, e) and their high halves (d,
 * c, h, g) make (a, b, e, f) and (c, d, g, h) once each pair of lanes
 * is swapped, and the same steps undo it. */
SHA_NI_TARGET
static void pack_state(const uint32_t *state, __m128i *abef, __m128i *cdgh)
{
	__m128i dcba = _mm_loadu_si128((const __m128i *)state);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)(state + 4));

	*abef = _mm_shuffle_epi32(_mm_unpacklo_epi64(hgfe, dcba), 0xb1);
	*cdgh = _mm_shuffle_epi32(_mm_unpackhi_epi64(hgfe, dcba), 0xb1);
}

SHA_NI_TARGET
static void unpack_state(uint32_t *state, __m128i abef, __m128i cdgh)
{
	__m128i bafe = _mm_shuffle_epi32(abef, 0xb1);
	__m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);

	_mm_storeu_si128((__m128i *)state, _mm_unpackhi_epi64(bafe, dchg));
	_mm_storeu_si128((__m128i *)(state + 4), _mm_unpacklo_epi64(bafe, dchg));
}

/* Four big-endian words. */
SHA_NI_TARGET
static __m128i load_words(const unsigned char *p)
{
	/* Each word's bytes the other way round. */
	static const unsigned char byte_swap[16] = {
		3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
	};

	return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p),
				_mm_loadu_si128((const __m128i *)byte_swap));
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
		/* the next 16 words of the schedule, four in each */
		__m128i w0 = load_words(blocks), w1 = load_words(blocks + 16);
		__m128i w2 = load_words(blocks + 32), w3 = load_words(blocks + 48);

		/* Four rounds a turn, and the four words after the 16 in
		 * w0..w3 (the last three turns make them for nothing). */
		for (unsigned t = 0; t < 64; t += 4) {
			__m128i wk = _mm_add_epi32(w0, _mm_loadu_si128(
				(const __m128i *)(sha256_round_constants + t)));
			__m128i next = _mm_sha256msg2_epu32(_mm_add_epi32(
				_mm_sha256msg1_epu32(w0, w1),
				_mm_alignr_epi8(w3, w2, 4)), w3);

			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
			abef = _mm_sha256rnds2_epu32(abef, cdgh,
						     _mm_shuffle_epi32(wk, 0x0e));
			w0 = w1;
			w1 = w2;
			w2 = w3;
			w3 = next;
		}
		abef = _mm_add_epi32(abef, abef_in);
		cdgh = _mm_add_epi32(cdgh, cdgh_in);
	}
	unpack_state(state, abef, cdgh);
}

whole_blocks_fn *sha256_x86(void)
{
	unsigned a, b, c, d, ssse3;

	if (__get_cpuid_max(0, NULL) < 7)
		return NULL;
	__cpuid(1, a, b, c, d);
	ssse3 = c & bit_SSSE3;
	__cpuid_count(7, 0, a, b, c, d);
	return ssse3 && (b & bit_SHA) ? sha256_sha_ni : sha_portable;
}

#endif
