/*
 * sha256_armv8.c - SHA-256's compression in the ARMv8 SHA2 instructions,
 * on arm64 and on 32-bit ARM (armhf) running on an ARMv8 CPU, chosen at
 * run time: the function alone is built for them (a target attribute),
 * so the rest of the binary runs on any ARM CPU of its architecture,
 * the Raspberry Pi 4's Cortex-A72 among them, which lacks them.
 *
 * SHA256H and SHA256H2 do four rounds on the working variables held as
 * (a, b, c, d) and (e, f, g, h), low lane first, as the state is kept;
 * SHA256SU0 and SHA256SU1 extend the message schedule four words at a
 * time (FIPS 180-4, 6.2.2).
 *
 * clang before 16 declares these intrinsics only for a whole file built
 * with them (-march=...+sha2), which would let the compiler use them
 * anywhere: with it, ARM has the portable code only.
 */
#include "sha_blocks.h"

#if defined(__aarch64__) || defined(__arm__)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ \
	&& (!defined(__clang__) || __clang_major__ >= 16)

#include <arm_neon.h>
#include <sys/auxv.h>

/* Linux's bits for the instructions (asm/hwcap.h); glibc's <sys/auxv.h>
 * names HWCAP_SHA2 on arm64 but not HWCAP2_SHA2 on 32-bit ARM. */
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1 << 6)
#endif
#ifndef HWCAP2_SHA2
#define HWCAP2_SHA2 (1 << 3)
#endif

#if defined(__clang__)
#define SHA2_TARGET __attribute__((target("sha2")))
#elif defined(__aarch64__)
#define SHA2_TARGET __attribute__((target("+crypto")))
#else
#define SHA2_TARGET __attribute__((target("arch=armv8-a,fpu=crypto-neon-fp-armv8")))
#endif

/* whole_blocks_fn: hash, a struct sha_ctx, advanced over count blocks. */
SHA2_TARGET
static void sha256_sha2(void *hash, const unsigned char *blocks, size_t count)
{
	uint32_t *state = ((struct sha_ctx *)hash)->state;
	uint32x4_t abcd = vld1q_u32(state), efgh = vld1q_u32(state + 4);

	for (; count; count--, blocks += SHA_BLOCK_SIZE) {
		uint32x4_t abcd_in = abcd, efgh_in = efgh;
		uint32x4_t w[4];   /* the next 16 words of the schedule */

		/* Big-endian words: the bytes of each reversed. */
		for (unsigned i = 0; i < 4; i++)
			w[i] = vreinterpretq_u32_u8(vrev32q_u8(
				vld1q_u8(blocks + 16 * (size_t)i)));
		/* Four rounds a turn, and the four words after the 16 in
		 * w (the last three turns make them for nothing). */
		for (unsigned t = 0; t < 64; t += 4) {
			uint32x4_t wk = vaddq_u32(w[0],
				vld1q_u32(sha256_round_constants + t));
			uint32x4_t next = vsha256su1q_u32(
				vsha256su0q_u32(w[0], w[1]), w[2], w[3]);
			uint32x4_t abcd_before = abcd;

			abcd = vsha256hq_u32(abcd, efgh, wk);
			efgh = vsha256h2q_u32(efgh, abcd_before, wk);
			w[0] = w[1];
			w[1] = w[2];
			w[2] = w[3];
			w[3] = next;
		}
		abcd = vaddq_u32(abcd, abcd_in);
		efgh = vaddq_u32(efgh, efgh_in);
	}
	vst1q_u32(state, abcd);
	vst1q_u32(state + 4, efgh);
}

whole_blocks_fn *sha256_armv8(void)
{
#if defined(__aarch64__)
	return getauxval(AT_HWCAP) & HWCAP_SHA2 ? sha256_sha2 : sha_portable;
#else
	return getauxval(AT_HWCAP2) & HWCAP2_SHA2 ? sha256_sha2 : sha_portable;
#endif
}

#else

whole_blocks_fn *sha256_armv8(void)
{
	return sha_portable;
}

#endif
#endif
