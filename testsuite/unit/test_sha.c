/*
 * test_sha.c - SHA-1 and SHA-256 against the FIPS 180-4 example
 * messages (and their NIST-published digests), the empty message, the
 * lengths around the padding boundary, a million 'a's, and the same
 * bytes fed in pieces of every size.  The shell suite compares against
 * sha1sum/sha256sum on files (dd_bmap.tests uses range checksums made
 * by bmaptool).
 */
#include <stdio.h>
#include <string.h>

#include "libbb.h"
#include "unit.h"

static const char *hex(const unsigned char *d, size_t n)
{
	static char out[2 * SHA256_DIGEST_SIZE + 1];

	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
	return out;
}

static const char *sha1_of(const void *data, size_t len)
{
	struct sha1_ctx c;
	unsigned char d[SHA1_DIGEST_SIZE];

	sha1_init(&c);
	sha1_update(&c, data, len);
	sha1_final(&c, d);
	return hex(d, sizeof(d));
}

static const char *sha256_of(const void *data, size_t len)
{
	struct sha256_ctx c;
	unsigned char d[SHA256_DIGEST_SIZE];

	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final(&c, d);
	return hex(d, sizeof(d));
}

static const char abc[] = "abc";
static const char two_blocks[] =
	"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

static unsigned char big[1000000];

int main(void)
{
	char ref[2 * SHA256_DIGEST_SIZE + 1];

	unit_begin("sha256: FIPS 180-4 examples and the empty message");
	CHECK_STR(sha256_of("", 0),
		  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	CHECK_STR(sha256_of(abc, 3),
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	CHECK_STR(sha256_of(two_blocks, strlen(two_blocks)),
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(big, 'a', sizeof(big));
	CHECK_STR(sha256_of(big, sizeof(big)),
		  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	unit_end();

	unit_begin("sha1: FIPS 180-4 examples and the empty message");
	CHECK_STR(sha1_of("", 0), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
	CHECK_STR(sha1_of(abc, 3), "a9993e364706816aba3e25717850c26c9cd0d89d");
	CHECK_STR(sha1_of(two_blocks, strlen(two_blocks)),
		  "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
	CHECK_STR(sha1_of(big, sizeof(big)),
		  "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	unit_end();

	/* Lengths 0..200 (each side of every padding boundary), whole and
	 * fed a byte, then 7, then 64 at a time, agree with each other. */
	unit_begin("sha1/sha256: pieces of any size give the one-call digest");
	for (size_t i = 0; i < 300; i++)
		big[i] = (unsigned char)(i * 37 + 11);
	for (size_t len = 0; len <= 200; len++) {
		size_t pieces[] = { 1, 7, 64 };

		for (size_t k = 0; k < ARRAY_SIZE(pieces); k++) {
			struct sha256_ctx c2;
			struct sha1_ctx c1;
			unsigned char d2[SHA256_DIGEST_SIZE], d1[SHA1_DIGEST_SIZE];

			sha256_init(&c2);
			sha1_init(&c1);
			for (size_t at = 0; at < len; at += pieces[k]) {
				size_t n = min_u64(pieces[k], len - at);

				sha256_update(&c2, big + at, n);
				sha1_update(&c1, big + at, n);
			}
			sha256_final(&c2, d2);
			sha1_final(&c1, d1);
			strcpy(ref, sha256_of(big, len));
			if (strcmp(ref, hex(d2, sizeof(d2))) != 0)
				unit_fail("sha256 len %zu piece %zu", len, pieces[k]);
			strcpy(ref, sha1_of(big, len));
			if (strcmp(ref, hex(d1, sizeof(d1))) != 0)
				unit_fail("sha1 len %zu piece %zu", len, pieces[k]);
		}
	}
	unit_end();
	return unit_exit_status();
}
