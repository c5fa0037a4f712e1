/*
 * sha256.c - SHA-256 (FIPS 180-4, 5.3.3 and 6.2): the initial hash
 * value, and the compression, chosen once: the CPU's SHA instructions
 * where it has them (sha256_x86.c, sha256_armv8.c), else portable C
 * (sha_portable.c).
 *
 * ZEROBOX_SHA_PORTABLE in the environment (any value) forces portable
 * C: a test hook, so that the suite can check both on a CPU that has
 * the instructions.
 */
#include "sha_blocks.h"

/* Read once, at the first sha256_init: a test hook, not a setting. */
static whole_blocks_fn *choose_compression(void)
{
	if (getenv("ZEROBOX_SHA_PORTABLE"))
		return sha_portable;
#if defined(__x86_64__) || defined(__i386__)
	return sha256_x86();
#elif defined(__aarch64__) || defined(__arm__)
	return sha256_armv8();
#else
	return sha_portable;
#endif
}

void sha256_init(struct sha_ctx *ctx)
{
	/* H(0): the fractional parts of the square roots of the first 8
	 * primes. */
	static const uint32_t initial[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	static whole_blocks_fn *compress;

	if (!compress)
		compress = choose_compression();
	sha_start(ctx, initial, ARRAY_SIZE(initial), compress);
}
