/*
 * delta.c - the Delta filter of .xz (xz-file-format.txt 5.3.3): each
 * byte was stored as its difference from the byte dist (1-256) before
 * it, bytes before the block's start counting as zero.  Decoding adds
 * the byte dist back, kept in a ring of the last 256 bytes.
 */
#include "xz.h"

size_t delta_filter(struct xz_filter *f, unsigned char *buf, size_t len)
{
	unsigned char at = f->at;

	for (size_t i = 0; i < len; i++) {
		unsigned char byte = (unsigned char)(buf[i] + f->history[(unsigned char)(at + 1 - f->dist)]);

		at++;
		f->history[at] = byte;
		buf[i] = byte;
	}
	f->at = at;
	return len;
}
