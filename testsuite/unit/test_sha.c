/*
 * test_sha.c - SHA-1 and SHA-256 against the FIPS 180-4 example
 * messages (and their NIST-published digests), the empty message, the
 * lengths around the padding boundary, a million 'a's, a megabyte
 * whose digests Python's hashlib gave, and the same bytes fed in pieces
 * of many sizes from odd addresses.  SHA-256 goes through each of its
 * compressions directly: the portable one, and the CPU's (x86 SHA-NI,
 * ARMv8 SHA2) where this CPU has it; a group says SKIP where it has
 * not.  And the choice sha256_init makes, and its test hook.  The
 * shell suite compares against sha1sum/sha256sum on files
 * (dd_bmap.tests uses range checksums made by bmaptool).
 *
 *   test_sha bench [MiB]   SHA-256 (and SHA-1) of MiB (256) in memory,
 *                          in 1 MiB updates, with each compression
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "libbb.h"
#include "sha_blocks.h"
#include "unit.h"
#include "unit_child.h"

/* Room for either digest in hex. */
enum { HEX256 = 2 * SHA256_DIGEST_SIZE + 1 };

/* The compression a group puts in the context: NULL for the one
 * sha1_init or sha256_init chose. */
static whole_blocks_fn *forced;

static void to_hex(const unsigned char *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* Start SHA-1 or SHA-256 with the compression fn, or with the one
 * sha1_init or sha256_init chose where fn is NULL. */
static void start_hash(struct sha_ctx *c, bool sha1, whole_blocks_fn *fn)
{
	if (sha1)
		sha1_init(c);
	else
		sha256_init(c);
	if (fn)
		c->compress = fn;
}

/* The digest of data fed in pieces of `piece` bytes, or in one update
 * with piece 0 (the reference the pieces are held to). */
static void digest_hex(bool sha1, const void *data, size_t len, size_t piece,
		       char *hex)
{
	const unsigned char *bytes = data;
	unsigned char d[SHA256_DIGEST_SIZE];
	struct sha_ctx c;

	start_hash(&c, sha1, forced);
	for (size_t at = 0, n; at < len; at += n) {
		n = piece ? min_u64(piece, len - at) : len;
		sha_update(&c, bytes + at, n);
	}
	sha_final(&c, d);
	to_hex(d, sha1 ? SHA1_DIGEST_SIZE : SHA256_DIGEST_SIZE, hex);
}

static const char two_blocks[] =
	"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

/* 1 MiB + 13 bytes from an odd address, and a byte before it; filled
 * in main. */
static unsigned char big_store[1 + (1 << 20) + 13];
static unsigned char *const big = big_store + 1;
static unsigned char million_a[1000000];

/* The FIPS 180-4 examples and their NIST-published digests; a megabyte
 * (and 13 bytes) of an LCG, digests from Python's hashlib. */
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
	{ "a million 'a's", million_a, sizeof(million_a),
	  "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
	  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	{ "1 MiB + 13 of an LCG", big_store + 1, sizeof(big_store) - 1,
	  "203409b7e84d366bd42f0c3582e1f86b06a5b955",
	  "5ec9c64a572459e1963e0ffa7af71f771890b913578f303afc16481309a416c0" },
};

/* x = x * 1103515245 + 12345 (mod 2^32), each byte the top 8 bits. */
static void fill_lcg(unsigned char *p, size_t len)
{
	uint32_t x = 1;

	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (unsigned char)(x >> 24);
	}
}

/* The examples whole, and in pieces of many sizes from an odd address:
 * every piece size meets the block buffer differently, and the large
 * ones hand whole blocks to the compression straight from the data. */
static void check_examples(bool sha1, const char *name)
{
	static const size_t pieces[] = { 0, 1, 63, 64, 65, 4096 + 7, 1 << 20 };
	char group[128], hex[HEX256];

	snprintf(group, sizeof(group), "%s: FIPS 180-4 examples, 1 MiB, pieces", name);
	unit_begin(group);
	for (size_t i = 0; i < ARRAY_SIZE(examples); i++) {
		const struct example *e = &examples[i];
		const char *want = sha1 ? e->sha1 : e->sha256;

		for (size_t k = 0; k < ARRAY_SIZE(pieces); k++) {
			if (pieces[k] == 1 && e->len > 100000)
				continue;   /* slow, and the short ones cover it */
			digest_hex(sha1, e->data, e->len, pieces[k], hex);
			if (strcmp(hex, want) != 0)
				unit_fail("%s, pieces of %zu: got \"%s\", want \"%s\"",
					  e->name, pieces[k], hex, want);
		}
	}
	unit_end();
}

/* Lengths 0..200 (each side of every padding boundary) at an odd
 * address, fed a byte, then 7, then 64 at a time, agree with the
 * portable compression fed them whole. */
static void check_lengths(bool sha1, const char *name)
{
	static const size_t pieces[] = { 0, 1, 7, 64 };
	const unsigned char *odd = big;
	char group[128], ref[HEX256], hex[HEX256];

	snprintf(group, sizeof(group), "%s: lengths 0 to 200 in pieces", name);
	unit_begin(group);
	for (size_t len = 0; len <= 200; len++) {
		whole_blocks_fn *tested = forced;

		forced = sha1 ? NULL : sha_portable;
		digest_hex(sha1, odd, len, 0, ref);
		forced = tested;
		for (size_t k = 0; k < ARRAY_SIZE(pieces); k++) {
			digest_hex(sha1, odd, len, pieces[k], hex);
			if (strcmp(ref, hex) != 0)
				unit_fail("len %zu, pieces of %zu: got %s, want %s",
					  len, pieces[k], hex, ref);
		}
	}
	unit_end();
}

/* SHA-256's compressions for this CPU, and which ran. */
struct compression {
	const char *name;
	whole_blocks_fn *fn;
	bool present;
};

static size_t compressions(struct compression *c)
{
	size_t n = 0;
	/* the CPU's own, which is sha_portable where the CPU lacks it */
#if defined(__x86_64__) || defined(__i386__)
	const char *cpu_name = "sha256 x86 SHA-NI";
	whole_blocks_fn *cpu = sha256_x86();
#elif defined(__aarch64__) || defined(__arm__)
	const char *cpu_name = "sha256 ARMv8 SHA2";
	whole_blocks_fn *cpu = sha256_armv8();
#else
	const char *cpu_name = NULL;
	whole_blocks_fn *cpu = NULL;
#endif

	c[n++] = (struct compression){ "sha256 portable", sha_portable, true };
	if (cpu)
		c[n++] = (struct compression){ cpu_name, cpu, cpu != sha_portable };
	return n;
}

/* The compression sha256_init puts in a context, checked in a child:
 * the choice is made once per process, and the hook is read then. */
static whole_blocks_fn *expected_choice;

static void exit_with_choice(const void *unused)
{
	struct sha_ctx c;

	(void)unused;
	sha256_init(&c);
	_exit(c.compress == expected_choice ? 0 : 1);
}

static void check_choice(whole_blocks_fn *cpu)
{
	char err[256];

	unit_begin("sha256_init: the CPU's compression; ZEROBOX_SHA_PORTABLE, the portable one");
	unsetenv("ZEROBOX_SHA_PORTABLE");
	expected_choice = cpu;
	if (unit_run_child(exit_with_choice, NULL, err, sizeof(err), NULL) != 0)
		unit_fail("without the hook, not the CPU's compression");
	setenv("ZEROBOX_SHA_PORTABLE", "1", 1);
	expected_choice = sha_portable;
	if (unit_run_child(exit_with_choice, NULL, err, sizeof(err), NULL) != 0)
		unit_fail("with ZEROBOX_SHA_PORTABLE=1, not the portable one");
	unsetenv("ZEROBOX_SHA_PORTABLE");
	unit_end();
}

static double seconds(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Hash mib MiB in 1 MiB updates, as bmap= does, best of three by CPU
 * time (a busy machine stretches the wall time). */
static void bench_one(const char *name, bool sha1, whole_blocks_fn *fn,
		      const unsigned char *buf, size_t mib)
{
	double best = 1e9, best_wall = 1e9;

	for (int round = 0; round < 3; round++) {
		unsigned char d[SHA256_DIGEST_SIZE];
		struct sha_ctx c;
		double start = seconds(CLOCK_PROCESS_CPUTIME_ID), took;
		double start_wall = seconds(CLOCK_MONOTONIC);

		start_hash(&c, sha1, fn);
		for (size_t i = 0; i < mib; i++)
			sha_update(&c, buf + ((size_t)1 << 20) * i, (size_t)1 << 20);
		sha_final(&c, d);
		took = seconds(CLOCK_PROCESS_CPUTIME_ID) - start;
		if (took < best)
			best = took;
		took = seconds(CLOCK_MONOTONIC) - start_wall;
		if (took < best_wall)
			best_wall = took;
	}
	printf("%-20s %zu MiB: CPU %.3f s, %.0f MB/s (wall %.3f s)\n", name,
	       mib, best, (double)mib * (1 << 20) / best / 1e6, best_wall);
}

static int bench(size_t mib)
{
	struct compression c[2];
	size_t n = compressions(c);
	unsigned char *buf = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buf == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	fill_lcg(buf, mib << 20);
	for (size_t i = 0; i < n; i++)
		if (c[i].present)
			bench_one(c[i].name, false, c[i].fn, buf, mib);
	bench_one("sha1 portable", true, NULL, buf, mib);
	return 0;
}

int main(int argc, char **argv)
{
	struct compression c[2];
	size_t n;

	if (argc > 1 && strcmp(argv[1], "bench") == 0)
		return bench(argc > 2 ? (size_t)atoi(argv[2]) : 256);
	memset(million_a, 'a', sizeof(million_a));
	fill_lcg(big, sizeof(big_store) - 1);
	n = compressions(c);
	/* First: once this process has hashed, its choice is made. */
	check_choice(c[n - 1].fn);   /* sha_portable where the CPU lacks its own */
	for (size_t i = 0; i < n; i++) {
		if (!c[i].present) {
			printf("SKIP: %s: this CPU lacks the instructions\n", c[i].name);
			continue;
		}
		forced = c[i].fn;
		check_examples(false, c[i].name);
		check_lengths(false, c[i].name);
	}
	forced = NULL;
	check_examples(true, "sha1");
	check_lengths(true, "sha1");
	return unit_exit_status();
}
