/*
 * unpack_input.c - a decoder's headers and trailers come from the front
 * end's input buffer (unpack_fill refills it) a byte or a few at a time
 * through here.  (Apart from unpack_io.c, so that a unit test's own
 * unpack_fill stands in for the front end's under --wrap.)
 */
#include <string.h>

#include "libbb.h"

int unpack_next_byte(struct unpack_io *io)
{
	if (io->in_next == io->in_end && !unpack_fill(io))
		return -1;
	return *io->in_next++;
}

size_t unpack_read(struct unpack_io *io, void *dst, size_t n)
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
