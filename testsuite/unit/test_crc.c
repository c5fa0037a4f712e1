/*
 * test_crc.c - crc32_update and crc64_update against published check
 * values (the CRC catalogue's "123456789"; what zlib's crc32 and xz's
 * check field give), the same bytes fed in pieces of every size and
 * alignment, and a bit-wise reference written here for random data.
 * One set of loops serves both CRCs.
 */
#include <stdint.h>
#include <stdio.h>

#include "libbb.h"
#include "unit.h"

static unsigned char data[4099];

/* A reflected CRC of either width, as these loops see it. */
struct crc {
	const char *name;
	uint64_t (*update)(uint64_t crc, const void *p, size_t len);
	uint64_t poly, all_ones;
};

static uint64_t update32(uint64_t crc, const void *p, size_t len)
{
	return crc32_update((uint32_t)crc, p, len);
}

static uint64_t update64(uint64_t crc, const void *p, size_t len)
{
	return crc64_update(crc, p, len);
}

static const struct crc crcs[] = {
	{ "crc32", update32, 0xEDB88320u, 0xFFFFFFFFu },
	{ "crc64", update64, UINT64_C(0xC96C5795D7870F42), ~UINT64_C(0) },
};

/* One bit at a time: the definition, slow and obvious. */
static uint64_t bitwise(const struct crc *c, const unsigned char *p, size_t len)
{
	uint64_t crc = c->all_ones;

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ c->poly : crc >> 1;
	}
	return crc ^ c->all_ones;
}

static void test_against_reference(const struct crc *c)
{
	char name[80];

	snprintf(name, sizeof(name), "%s: equals a bit-wise reference at every length and offset", c->name);
	unit_begin(name);
	for (size_t off = 0; off < 9; off++)
		for (size_t len = 0; off + len <= sizeof(data); len += 1 + len / 7)
			CHECK_U64(c->update(0, data + off, len),
				  bitwise(c, data + off, len));
	unit_end();

	snprintf(name, sizeof(name), "%s: continued in pieces of every size", c->name);
	unit_begin(name);
	for (size_t piece = 1; piece < 40; piece++) {
		uint64_t crc = 0;

		for (size_t at = 0; at < sizeof(data); at += piece)
			crc = c->update(crc, data + at,
					piece < sizeof(data) - at ? piece : sizeof(data) - at);
		CHECK_U64(crc, bitwise(c, data, sizeof(data)));
	}
	unit_end();
}

int main(void)
{
	static unsigned char million[1000000];
	uint32_t seed = 12345;

	for (size_t i = 0; i < sizeof(million); i++)
		million[i] = 'a';
	unit_begin("crc32: check values");
	CHECK_U64(crc32_update(0, "", 0), 0);
	CHECK_U64(crc32_update(0, "123456789", 9), 0xcbf43926u);
	CHECK_U64(crc32_update(0, "The quick brown fox jumps over the lazy dog", 43),
		  0x414fa339u);
	CHECK_U64(crc32_update(0, million, sizeof(million)), 0xdc25bfbcu);
	unit_end();

	unit_begin("crc64: check values");
	CHECK_U64(crc64_update(0, "", 0), 0);
	CHECK_U64(crc64_update(0, "123456789", 9), UINT64_C(0x995DC9BBDF1939FA));
	/* printf 'hello world\n' | xz --check=crc64: the check field. */
	CHECK_U64(crc64_update(0, "hello world\n", 12), UINT64_C(0xCFBF7F6AC4FFF2A1));
	CHECK_U64(crc64_update(0, million, sizeof(million)),
		  bitwise(&crcs[1], million, sizeof(million)));
	unit_end();

	for (size_t i = 0; i < sizeof(data); i++) {
		seed = seed * 1103515245u + 12345u;
		data[i] = (unsigned char)(seed >> 16);
	}
	for (size_t i = 0; i < sizeof(crcs) / sizeof(crcs[0]); i++)
		test_against_reference(&crcs[i]);
	return unit_exit_status();
}
