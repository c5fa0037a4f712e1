/*
 * sha256_arm64.c - SHA-256's compression in the ARMv8 SHA2 instructions
 * (arm64), chosen at run time: the function alone is built for them (a
 * target attribute), so the rest of the binary runs on any ARMv8 CPU,
 * the Raspberry Pi 4's Cortex-A72 among them, which lacks them.
 *
 * SHA256H and SHA256H2 do four rounds on the working variables held as
 * (a, b, c, d) and (e, f, g, h), low lane first, as the state is kept;
 * SHA256SU0 and SHA256SU1 extend the message schedule four words at a
 * time (FIPS 180-4, 6.2.2).
 *
 * clang before 16 declares these intrinsics only for a whole file built
 * with them (-march=armv8-a+sha2), which would let the compiler use
 * them anywhere: with it, arm64 has the portable code only.
 */
#include "sha_blocks.h"

#if defined(__aarch64__)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ \
	&& (!defined(__clang__) || __clang_major__ >= 16)

#include <arm_neon.h>
#include <sys/auxv.h>

#ifdef __clang__
#define SHA2_TARGET __attribute__((target("sha2")))
#else
#define SHA2_TARGET __attribute__((target("+crypto")))
#endif

/* whole_blocks_fn: hash, a struct sha_ctx, advanced over count blocks. */
SHA2_TARGET
static void sha256_armv8(void *hash, const unsigned char *blocks,
			 size_t count)
{
	uint32_t *state = ((struct sha_ctx *)hash)->state;
	uint32x4_t abcd = vld1q_u32(state), efgh = vld1q_u32(state + 4);

	for (; count; count--, blocks += SHA_BLOCK_SIZE) {
		uint32x4_t abcd_in = abcd, efgh_in = efgh;
		uint32x4_t w[16];   /* the message schedule, four words each */

		/* Big-endian words: the bytes of each reversed. */
		for (unsigned i = 0; i < 4; i++)
			w[i] = vreinterpretq_u32_u8(vrev32q_u8(
				vld1q_u8(blocks + 16 * i)));
		for (unsigned i = 4; i < 16; i++)
			w[i] = vsha256su1q_u32(vsha256su0q_u32(w[i - 4], w[i - 3]),
					       w[i - 2], w[i - 1]);
		for (unsigned i = 0; i < 16; i++) {
			uint32x4_t wk = vaddq_u32(w[i],
				vld1q_u32(sha256_round_constants + 4 * i));
			uint32x4_t abcd_before = abcd;

			abcd = vsha256hq_u32(abcd, efgh, wk);
			efgh = vsha256h2q_u32(efgh, abcd_before, wk);
		}
		abcd = vaddq_u32(abcd, abcd_in);
		efgh = vaddq_u32(efgh, efgh_in);
	}
	vst1q_u32(state, abcd);
	vst1q_u32(state + 4, efgh);
}

whole_blocks_fn *sha256_arm64(void)
{
	return getauxval(AT_HWCAP) & HWCAP_SHA2 ? sha256_armv8 : sha_portable;
}

#else

whole_blocks_fn *sha256_arm64(void)
{
	return sha_portable;
}

#endif
#endif
