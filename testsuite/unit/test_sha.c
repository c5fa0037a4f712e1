/*
 * test_sha.c - SHA-1 and SHA-256 against the FIPS 180-4 example
 * messages (and their NIST-published digests), the empty message, the
 * lengths around the padding boundary, a million 'a's, and the same
 * bytes fed in pieces of every size.  The shell suite compares against
 * sha1sum/sha256sum on files (dd_bmap.tests uses range checksums made
 * by bmaptool).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "libbb.h"
#include "unit.h"
#include "sha_hex.h"

static const char two_blocks[] =
	"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

static unsigned char big[1000000];   /* a million 'a's, filled in main */

/* The FIPS 180-4 examples and their NIST-published digests. */
static const struct example {
	const char *name;
	const void *data;
	size_t len;
	const char *sha1, *sha256;
} examples[] = {
	{ "the empty message", "", 0,
	  "da39a3ee5e6b4b0d3255bfef95601890afd80709",
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "abc", 3,
	  "a9993e364706816aba3e25717850c26c9cd0d89d",
	  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "two blocks", two_blocks, sizeof(two_blocks) - 1,
	  "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "a million 'a's", big, sizeof(big),
	  "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
	  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};

/* One group a hash, so that each passes or fails on its own. */
static void check_examples(bool sha1)
{
	char h1[2 * SHA1_DIGEST_SIZE + 1], h256[2 * SHA256_DIGEST_SIZE + 1];

	unit_begin(sha1 ? "sha1: FIPS 180-4 examples and the empty message"
			: "sha256: FIPS 180-4 examples and the empty message");
	for (size_t i = 0; i < ARRAY_SIZE(examples); i++) {
		const struct example *e = &examples[i];
		const char *got = sha1 ? h1 : h256;
		const char *want = sha1 ? e->sha1 : e->sha256;

		sha_hex(e->data, e->len, 0, h1, h256);
		if (strcmp(got, want) != 0)
			unit_fail("%s: got \"%s\", want \"%s\"", e->name, got, want);
	}
	unit_end();
}

int main(void)
{
	char ref1[2 * SHA1_DIGEST_SIZE + 1], ref256[2 * SHA256_DIGEST_SIZE + 1];
	char h1[2 * SHA1_DIGEST_SIZE + 1], h256[2 * SHA256_DIGEST_SIZE + 1];

	memset(big, 'a', sizeof(big));
	check_examples(false);
	check_examples(true);

	/* Lengths 0..200 (each side of every padding boundary), whole and
	 * fed a byte, then 7, then 64 at a time, agree with each other. */
	unit_begin("sha1/sha256: pieces of any size give the one-call digest");
	for (size_t i = 0; i < 300; i++)
		big[i] = (unsigned char)(i * 37 + 11);
	for (size_t len = 0; len <= 200; len++) {
		size_t pieces[] = { 1, 7, 64 };

		sha_hex(big, len, 0, ref1, ref256);
		for (size_t k = 0; k < ARRAY_SIZE(pieces); k++) {
			sha_hex(big, len, pieces[k], h1, h256);
			if (strcmp(ref256, h256) != 0)
				unit_fail("sha256 len %zu piece %zu", len, pieces[k]);
			if (strcmp(ref1, h1) != 0)
				unit_fail("sha1 len %zu piece %zu", len, pieces[k]);
		}
	}
	unit_end();
	return unit_exit_status();
}
