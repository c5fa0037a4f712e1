/*
 * sha256_arm64.c - placeholder
 */
#include "sha_blocks.h"

#if defined(__aarch64__)
whole_blocks_fn *sha256_arm64(void)
{
	return sha_portable;
}
#endif
