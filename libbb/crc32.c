/*
 * crc32.c - the CRC-32 of gzip, xz and PNG (reflected polynomial
 * 0xEDB88320), eight bytes a step through eight tables.  The tables are
 * computed at first use into .bss, so they cost no file size.
 */
#include "libbb.h"

enum { CRC32_POLY = 0xEDB88320u };

static uint32_t crc32_tables[8][256];

static void make_tables(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32_POLY & (0u - (c & 1)));
		crc32_tables[0][i] = c;
	}
	for (unsigned i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc32_tables[t][i] = (crc32_tables[t - 1][i] >> 8)
				^ crc32_tables[0][crc32_tables[t - 1][i] & 0xff];
}

/* Little-endian load, whatever the host's order. */
static uint32_t load_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16
		| (uint32_t)p[3] << 24;
}

uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	/* Entry 1 is never 0 once the tables are made. */
	if (!crc32_tables[0][1])
		make_tables();
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		uint32_t lo = crc ^ load_le32(p), hi = load_le32(p + 4);

		crc = crc32_tables[7][lo & 0xff] ^ crc32_tables[6][(lo >> 8) & 0xff]
			^ crc32_tables[5][(lo >> 16) & 0xff] ^ crc32_tables[4][lo >> 24]
			^ crc32_tables[3][hi & 0xff] ^ crc32_tables[2][(hi >> 8) & 0xff]
			^ crc32_tables[1][(hi >> 16) & 0xff] ^ crc32_tables[0][hi >> 24];
	}
	while (len--)
		crc = (crc >> 8) ^ crc32_tables[0][(crc ^ *p++) & 0xff];
	return ~crc;
}
