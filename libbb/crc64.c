/*
 * crc64.c - the CRC-64 of xz's default check (ECMA-182, reflected
 * polynomial 0xC96C5795D7870F42), eight bytes a step through eight
 * tables computed at first use into .bss, as crc32.c does (one byte a
 * step without FEATURE_XZ_FAST).
 */
#include "libbb.h"

#define CRC64_POLY UINT64_C(0xC96C5795D7870F42)

/* Table t gives the CRC of a byte followed by t zero bytes. */
static uint64_t crc64_tables[ENABLE_FEATURE_XZ_FAST ? 8 : 1][256];

static void make_tables(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint64_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC64_POLY & (0 - (c & 1)));
		crc64_tables[0][i] = c;
	}
	for (int t = 1; t < (int)ARRAY_SIZE(crc64_tables); t++)
		for (unsigned i = 0; i < 256; i++) {
			uint64_t c = crc64_tables[t - 1][i];

			crc64_tables[t][i] = (c >> 8) ^ crc64_tables[0][c & 0xff];
		}
}

/* Little-endian load, whatever the host's order (written out, so that
 * compilers make it one load where they can). */
static uint64_t load_le64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16
		| (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40
		| (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

uint64_t crc64_update(uint64_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	/* Entry 1 is never 0 once the tables are made. */
	if (!crc64_tables[0][1])
		make_tables();
	crc = ~crc;
	/* Without FEATURE_XZ_FAST a byte a step: a quarter of the speed,
	 * and the code the compiler drops is most of this file's. */
	for (; ARRAY_SIZE(crc64_tables) == 8 && len >= 8; len -= 8, p += 8) {
		uint64_t v = crc ^ load_le64(p);
		const uint64_t (*t)[256] = crc64_tables;

		crc = t[7][v & 0xff] ^ t[6][(v >> 8) & 0xff] ^ t[5][(v >> 16) & 0xff]
			^ t[4][(v >> 24) & 0xff] ^ t[3][(v >> 32) & 0xff]
			^ t[2][(v >> 40) & 0xff] ^ t[1][(v >> 48) & 0xff] ^ t[0][v >> 56];
	}
	while (len--)
		crc = (crc >> 8) ^ crc64_tables[0][(crc ^ *p++) & 0xff];
	return ~crc;
}
