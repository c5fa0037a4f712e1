/*
 * sha256_arm64.c - placeholder
 */
#include "sha_blocks.h"

whole_blocks_fn *sha256_arm64(void)
{
	return NULL;
}
