/*
 * test_xz.c - the .xz decoder (libbb/xz_dec.c and its parts) driven from
 * memory, through unpack_feed.h's front end:
 *
 *   - every file of testsuite/xz/ gives the same result, messages and
 *     output whole, a byte at a time and in random pieces, and the
 *     result its name promises;
 *   - a block whose check fails prints nothing of itself;
 *   - a stream that declares a 1.5 GiB dictionary decodes, under -M too,
 *     and -M below what the decoder needs is refused;
 *   - the branch filters give the same bytes whole and in pieces.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xz.h"
#include "unit.h"
#include "unpack_feed.h"

#ifndef XZ_DIR
#error "XZ_DIR: the Makefile names testsuite/xz"
#endif

/* Decode data in pieces, keeping the output. */
static struct outcome decode(const unsigned char *data, size_t len, size_t piece,
			     uint64_t mem_limit)
{
	return decode_feed(data, len, piece, mem_limit, true, UINT64_MAX);
}

/* The file name of XZ_DIR, in memory (malloc'd); NULL, and the group
 * failed, if it can't be read. */
static unsigned char *read_xz_file(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	unsigned char *p = NULL;
	long n;

	snprintf(path, sizeof(path), "%s/%s", XZ_DIR, name);
	f = fopen(path, "rb");
	if (!f) {
		unit_fail("cannot read %s", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc(n ? (size_t)n : 1);
	*len = fread(p, 1, (size_t)n, f);
	fclose(f);
	return p;
}

/* ---- the official files ----------------------------------------------- */

/* What the file's name promises, in this build. */
static enum unpack_result expected(const char *name)
{
	if (!strcmp(name, "unsupported-check.xz"))
		return UNPACK_WARNING;
	if ((strstr(name, "delta") && !ENABLE_FEATURE_XZ_DELTA)
	    || (strstr(name, "arm64") && !ENABLE_FEATURE_XZ_ARM64))
		return UNPACK_ERROR;
	if (!strncmp(name, "good-", 5) && strcmp(name, "good-1-empty-bcj-lzma2.xz"))
		return UNPACK_OK;
	return UNPACK_ERROR;
}

static void check_file(const char *name)
{
	size_t len;
	unsigned char *data = read_xz_file(name, &len);
	struct outcome whole, parts;
	static const size_t pieces[] = { 1, 0, 13 };

	if (!data)
		return;
	whole = decode(data, len, len ? len : 1, UINT64_MAX);
	if (whole.result != expected(name))
		unit_fail("%s: result %d, want %d (%s)", name, whole.result,
			  expected(name), whole.msgs);
	if (whole.result == UNPACK_OK && whole.msgs[0])
		unit_fail("%s: a message for a good file: %s", name, whole.msgs);
	if (whole.result != UNPACK_OK && !whole.msgs[0])
		unit_fail("%s: no message", name);
	for (size_t i = 0; i < ARRAY_SIZE(pieces); i++) {
		parts = decode(data, len, pieces[i], UINT64_MAX);
		if (parts.result != whole.result || strcmp(parts.msgs, whole.msgs)
		    || parts.out_len != whole.out_len
		    || (whole.out_len && memcmp(parts.out, whole.out, whole.out_len)))
			unit_fail("%s: in pieces of %zu: result %d (%s), %zu bytes; whole: "
				  "%d (%s), %zu bytes", name, pieces[i], parts.result,
				  parts.msgs, parts.out_len, whole.result, whole.msgs,
				  whole.out_len);
		free(parts.out);
	}
	free(whole.out);
	free(data);
}

static void test_official_files(void)
{
	DIR *d = opendir(XZ_DIR);
	struct dirent *e;
	int n = 0;

	unit_begin("xz: every test file, whole, byte by byte and in random pieces");
	if (!d) {
		unit_fail("no %s", XZ_DIR);
		unit_end();
		return;
	}
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (l > 3 && !strcmp(e->d_name + l - 3, ".xz")) {
			check_file(e->d_name);
			n++;
		}
	}
	closedir(d);
	if (n < 60)
		unit_fail("only %d files in %s", n, XZ_DIR);
	unit_end();
}

/* ---- what a corrupt block prints -------------------------------------- */

static void test_corrupt_block_prints_nothing(void)
{
	static const char *const files[] = {
		"bad-1-check-crc32.xz", "bad-1-check-crc64.xz",
		"bad-1-check-sha256.xz", "bad-1-lzma2-7.xz", "bad-1-lzma2-11.xz",
	};

	unit_begin("xz: a small corrupt block prints nothing of itself");
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		size_t len;
		unsigned char *data = read_xz_file(files[i], &len);
		struct outcome o;

		if (!data)
			continue;
		o = decode(data, len, len, UINT64_MAX);
		CHECK(o.result == UNPACK_ERROR);
		CHECK_STR(o.msgs, "f.xz: Compressed data is corrupt\n");
		if (o.out_len)
			unit_fail("%s: %zu bytes printed", files[i], o.out_len);
		free(o.out);
		free(data);
	}
	unit_end();
}

/* ---- memory ------------------------------------------------------------ */

/* good-1-lzma2-1.xz with its LZMA2 dictionary set to 1.5 GiB (properties
 * 37), the block header's CRC32 made right again. */
static unsigned char *big_dict_file(size_t *len)
{
	unsigned char *data = read_xz_file("good-1-lzma2-1.xz", len);
	size_t hsize;
	uint32_t crc;

	if (!data)
		return NULL;
	/* Stream header (12), block header: size, flags, filter 0x21,
	 * properties size 1, the properties. */
	hsize = (data[12] + 1u) * 4;
	if (data[13] != 0 || data[14] != 0x21 || data[15] != 1)
		return data;
	data[16] = 37;
	crc = crc32_update(0, data + 12, hsize - 4);
	for (int i = 0; i < 4; i++)
		data[12 + hsize - 4 + i] = (unsigned char)(crc >> (8 * i));
	return data;
}

/* Decode data in pieces of piece bytes under mem_limit: the result, the
 * messages and the output's length must be those given. */
static void check_decode(const unsigned char *data, size_t len, size_t piece,
			 uint64_t mem_limit, enum unpack_result result,
			 const char *msgs, size_t out_len)
{
	struct outcome o = decode(data, len, piece, mem_limit);

	if (o.result != result)
		unit_fail("piece %zu, limit %" PRIu64 ": result %d, want %d",
			  piece, mem_limit, (int)o.result, (int)result);
	CHECK_STR(o.msgs, msgs);
	CHECK_U64(o.out_len, out_len);
	free(o.out);
}

static void test_big_dictionary(void)
{
	size_t len;
	unsigned char *data;

	unit_begin("xz: a 1.5 GiB dictionary over 457 bytes decodes, also under -M 1MiB");
	data = big_dict_file(&len);
	if (!data) {
		unit_end();
		return;
	}
	CHECK(data[16] == 37);
	check_decode(data, len, len, UINT64_MAX, UNPACK_OK, "", 457);
	check_decode(data, len, 1, 1 << 20, UNPACK_OK, "", 457);
	unit_end();

	unit_begin("xz: -M below the decoder's own state is refused");
	check_decode(data, len, len, 40 << 10, UNPACK_ERROR,
		     "f.xz: Memory usage limit reached\n", 0);
	unit_end();
	free(data);
}

/* ---- the branch filters in pieces --------------------------------------- */

/* Run f over buf[0, len) in pieces of at most piece bytes, as xz_block.c
 * does: what a call leaves unfinished comes again at the front. */
static void filter_in_pieces(unsigned id, unsigned char *buf, size_t len, size_t piece)
{
	struct xz_filter f;
	size_t done = 0, avail = 0;

	memset(&f, 0, sizeof(f));
	f.id = id;
	while (avail < len) {
		avail = avail + piece < len ? avail + piece : len;
		done += bcj_filter(&f, buf + done, avail - done);
	}
}

static void test_filters_in_pieces(void)
{
	static const unsigned ids[] = {
		XZ_FILTER_X86, XZ_FILTER_ARM, XZ_FILTER_ARMTHUMB, XZ_FILTER_ARM64,
	};
	const bool built[] = {
		ENABLE_FEATURE_XZ_X86, ENABLE_FEATURE_XZ_ARM,
		ENABLE_FEATURE_XZ_ARMTHUMB, ENABLE_FEATURE_XZ_ARM64,
	};
	/* Bytes the filters look for, often. */
	static const unsigned char hot[] = {
		0xE8, 0xE9, 0x00, 0xFF, 0xEB, 0xF0, 0xF8, 0x94, 0x90, 0x97,
	};
	static unsigned char data[20000], whole[20000], parts[20000];
	uint32_t seed = 99;

	for (size_t i = 0; i < sizeof(data); i++) {
		seed = seed * 1103515245u + 12345u;
		data[i] = (seed >> 16) % 3 ? hot[(seed >> 20) % sizeof(hot)]
			: (unsigned char)(seed >> 8);
	}
	unit_begin("xz: the branch filters give the same bytes whole and in pieces");
	for (size_t k = 0; k < ARRAY_SIZE(ids); k++) {
		if (!built[k])
			continue;
		memcpy(whole, data, sizeof(data));
		filter_in_pieces(ids[k], whole, sizeof(whole), sizeof(whole));
		if (!memcmp(whole, data, sizeof(data)))
			unit_fail("filter %u changed nothing", ids[k]);
		for (size_t piece = 1; piece < 40; piece += 3) {
			memcpy(parts, data, sizeof(data));
			filter_in_pieces(ids[k], parts, sizeof(parts), piece);
			if (memcmp(parts, whole, sizeof(whole)))
				unit_fail("filter %u in pieces of %zu", ids[k], piece);
		}
	}
	unit_end();
}

int main(void)
{
	test_official_files();
	test_corrupt_block_prints_nothing();
	test_big_dictionary();
	test_filters_in_pieces();
	return unit_exit_status();
}
