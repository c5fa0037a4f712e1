/*
 * test_crc32.c - crc32_update against published check values (the
 * CRC catalogue's "123456789", and values zlib's crc32 gives), the
 * same bytes fed in pieces of every size and alignment, and a bit-wise
 * reference written here for random data.
 */
#include <stdint.h>
#include <stdio.h>

#include "libbb.h"
#include "unit.h"

static unsigned char data[4099];

/* One bit at a time: the definition, slow and obvious. */
static uint32_t crc32_bitwise(const unsigned char *p, size_t len)
{
	uint32_t crc = 0xFFFFFFFFu;

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
	}
	return ~crc;
}

int main(void)
{
	static unsigned char million[1000000];
	uint32_t seed = 12345;

	unit_begin("crc32: check values");
	CHECK_U64(crc32_update(0, "", 0), 0);
	CHECK_U64(crc32_update(0, "123456789", 9), 0xcbf43926u);
	CHECK_U64(crc32_update(0, "The quick brown fox jumps over the lazy dog", 43),
		  0x414fa339u);
	for (size_t i = 0; i < sizeof(million); i++)
		million[i] = 'a';
	CHECK_U64(crc32_update(0, million, sizeof(million)), 0xdc25bfbcu);
	unit_end();

	for (size_t i = 0; i < sizeof(data); i++) {
		seed = seed * 1103515245u + 12345u;
		data[i] = (unsigned char)(seed >> 16);
	}
	unit_begin("crc32: equals a bit-wise reference at every length and offset");
	for (size_t off = 0; off < 9; off++)
		for (size_t len = 0; off + len <= sizeof(data); len += 1 + len / 7)
			CHECK_U64(crc32_update(0, data + off, len),
				  crc32_bitwise(data + off, len));
	unit_end();

	unit_begin("crc32: continued in pieces of every size");
	for (size_t piece = 1; piece < 40; piece++) {
		uint32_t crc = 0;

		for (size_t at = 0; at < sizeof(data); at += piece)
			crc = crc32_update(crc, data + at,
					   piece < sizeof(data) - at ? piece : sizeof(data) - at);
		CHECK_U64(crc, crc32_bitwise(data, sizeof(data)));
	}
	unit_end();
	return unit_exit_status();
}
