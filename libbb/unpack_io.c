/*
 * unpack_io.c - what a decoder of the decompressing applets calls: its
 * input, its output and its messages (libbb.h, "decompressing
 * applets").  unpack.c sets up the struct for each file.
 */
#include <string.h>

#include "libbb.h"

bool unpack_fill(struct unpack_io *io)
{
	unsigned char *data = io->in_buf + UNPACK_KEEP;
	ssize_t n;

	if (io->at_end)
		return false;
	/* The last bytes read stay just before the new ones, so that a
	 * decoder may give back what it loaded ahead. */
	memmove(io->in_buf, io->in_end - UNPACK_KEEP, UNPACK_KEEP);
	n = safe_read(io->in_fd, data, UNPACK_IN_SIZE);
	if (n <= 0) {
		io->at_end = true;
		if (n < 0) {
			io->read_failed = true;
			bb_perror_msg("%s", io->name);
		}
		io->in_next = io->in_end = data;
		return false;
	}
	io->in_next = data;
	io->in_end = data + n;
	return true;
}

bool unpack_read_failed(const struct unpack_io *io)
{
	return io->read_failed;
}

int unpack_write(struct unpack_io *io, const void *data, size_t len)
{
	if (io->to_null || full_write(io->out_fd, data, len) == (ssize_t)len)
		return 0;
	bb_perror_msg("%s", io->out_name);
	io->write_failed = true;
	return -1;
}

void unpack_error(struct unpack_io *io, const char *what)
{
	bb_error_msg("%s: %s", io->name, what);
}

void unpack_warn(struct unpack_io *io, const char *what)
{
	if (!io->quiet)
		unpack_error(io, what);
}

enum unpack_result unpack_copy_rest(struct unpack_io *io)
{
	do {
		if (unpack_write(io, io->in_next, (size_t)(io->in_end - io->in_next)))
			return UNPACK_ERROR;
		io->in_next = io->in_end;
	} while (unpack_fill(io));
	return io->read_failed ? UNPACK_ERROR : UNPACK_OK;
}
