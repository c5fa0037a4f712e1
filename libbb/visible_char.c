/*
 * visible_char.c - a byte as cat -v and cmp -b show it: ^X for control
 * characters, ^? for DEL, M- before bytes with the high bit set.
 */
#include "libbb.h"

size_t visible_char(char *buf, unsigned char c)
{
	size_t n = 0;

	if (c >= 128) {
		buf[n++] = 'M';
		buf[n++] = '-';
		c -= 128;
	}
	if (c < 32) {
		buf[n++] = '^';
		c += 64;
	} else if (c == 127) {
		buf[n++] = '^';
		c = '?';
	}
	buf[n++] = (char)c;
	buf[n] = '\0';
	return n;
}
