/*
 * xz_input.c - the .xz decoder takes its input bytes here, from the
 * front end's buffer (unpack_fill refills it), in pieces of any size:
 * the headers one byte or a few at a time.  LZMA chunks are taken
 * whole by lzma2_dec.c, straight from the buffer where they fit.
 */
#include <string.h>

#include "xz.h"

int xz_next_byte(struct unpack_io *io)
{
	if (io->in_next == io->in_end && !unpack_fill(io))
		return -1;
	return *io->in_next++;
}

size_t xz_read(struct unpack_io *io, void *dst, size_t n)
{
	unsigned char *to = dst;
	size_t got = 0;

	while (got < n) {
		size_t k;

		if (io->in_next == io->in_end && !unpack_fill(io))
			break;
		k = (size_t)(io->in_end - io->in_next);
		if (k > n - got)
			k = n - got;
		memcpy(to + got, io->in_next, k);
		io->in_next += k;
		got += k;
	}
	return got;
}
