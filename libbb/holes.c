/*
 * holes.c - where a file's holes are (SEEK_DATA, SEEK_HOLE), so that a
 * copy need not read what it knows is zeros.  A file system that can't
 * tell reports the whole file as data, and so does an error here: a
 * hole missed costs a read, never a byte.
 */
#include <errno.h>
#include <unistd.h>

#include "libbb.h"

/* From offset to where lseek(whence) lands, within end; `otherwise`
 * where it fails or does not move on. */
static uint64_t length_to(int fd, uint64_t offset, uint64_t end, int whence,
			  uint64_t otherwise)
{
	off_t to;

	if (offset >= end)
		return 0;
	to = lseek(fd, (off_t)offset, whence);
	if (to < 0 && whence == SEEK_DATA && errno == ENXIO)
		return end - offset;    /* no data after offset: a hole */
	if (to <= (off_t)offset)
		return otherwise;
	return min_u64((uint64_t)to, end) - offset;
}

uint64_t file_hole_length(int fd, uint64_t offset, uint64_t end)
{
	return length_to(fd, offset, end, SEEK_DATA, 0);
}

uint64_t file_data_length(int fd, uint64_t offset, uint64_t end)
{
	return length_to(fd, offset, end, SEEK_HOLE, end - offset);
}
