/*
 * sha1.c - SHA-1 as FIPS 180-4 defines it (sections 5.3.1 and 6.1), for
 * bmap files of format 1.3, which use it.  Its compression is in
 * sha_portable.c.
 */
#include "sha_blocks.h"

void sha1_init(struct sha_ctx *ctx)
{
	/* H(0), five words; the last three are not SHA-1's. */
	static const uint32_t initial[8] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
	};

	sha_start(ctx, initial, 5, sha_portable);
}
