/*
 * sha1.c - SHA-1 as FIPS 180-4 defines it (sections 5.3.1 and 6.1), for
 * bmap files of format 1.3, which use it.  Its compression is in
 * sha_portable.c.
 */
#include "sha_blocks.h"

void sha1_init(struct sha_ctx *ctx)
{
	/* H(0) */
	static const uint32_t initial[5] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
	};

	sha_start(ctx, initial, ARRAY_SIZE(initial), sha_portable);
}
