/*
 * test_crc64.c - crc64_update against the published check value of
 * CRC-64/XZ ("123456789"), values xz's own CRC-64 gives (an .xz file's
 * check field), the same bytes in pieces of every size and alignment,
 * and a bit-wise reference written here for random data.
 */
#include <stdint.h>
#include <stdio.h>

#include "libbb.h"
#include "unit.h"

static unsigned char data[4099];

/* One bit at a time: the definition, slow and obvious. */
static uint64_t crc64_bitwise(const unsigned char *p, size_t len)
{
	uint64_t crc = ~UINT64_C(0);

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ UINT64_C(0xC96C5795D7870F42) : crc >> 1;
	}
	return ~crc;
}

int main(void)
{
	static unsigned char million[1000000];
	uint32_t seed = 12345;

	unit_begin("crc64: check values");
	CHECK_U64(crc64_update(0, "", 0), 0);
	CHECK_U64(crc64_update(0, "123456789", 9), UINT64_C(0x995DC9BBDF1939FA));
	/* printf 'hello world\n' | xz --check=crc64: the check field. */
	CHECK_U64(crc64_update(0, "hello world\n", 12), UINT64_C(0xCFBF7F6AC4FFF2A1));
	for (size_t i = 0; i < sizeof(million); i++)
		million[i] = 'a';
	CHECK_U64(crc64_update(0, million, sizeof(million)),
		  crc64_bitwise(million, sizeof(million)));
	unit_end();

	for (size_t i = 0; i < sizeof(data); i++) {
		seed = seed * 1103515245u + 12345u;
		data[i] = (unsigned char)(seed >> 16);
	}
	unit_begin("crc64: equals a bit-wise reference at every length and offset");
	for (size_t off = 0; off < 9; off++)
		for (size_t len = 0; off + len <= sizeof(data); len += 1 + len / 7)
			CHECK_U64(crc64_update(0, data + off, len),
				  crc64_bitwise(data + off, len));
	unit_end();

	unit_begin("crc64: continued in pieces of every size");
	for (size_t piece = 1; piece < 40; piece++) {
		uint64_t crc = 0;

		for (size_t at = 0; at < sizeof(data); at += piece)
			crc = crc64_update(crc, data + at,
					   piece < sizeof(data) - at ? piece : sizeof(data) - at);
		CHECK_U64(crc, crc64_bitwise(data, sizeof(data)));
	}
	unit_end();
	return unit_exit_status();
}
