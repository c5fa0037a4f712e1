/*
 * holes.c - where a file's holes are (SEEK_DATA, SEEK_HOLE), so that a
 * copy need not read what it knows is zeros.  A file system that can't
 * tell reports the whole file as data, and so does an error here: a
 * hole missed costs a read, never a byte.
 */
#include <errno.h>
#include <unistd.h>

#include "libbb.h"

uint64_t file_hole_length(int fd, uint64_t offset, uint64_t end)
{
	off_t data;

	if (offset >= end)
		return 0;
	data = lseek(fd, (off_t)offset, SEEK_DATA);
	if (data < 0)
		/* ENXIO: no data after offset, a hole up to the end. */
		return errno == ENXIO ? end - offset : 0;
	if ((uint64_t)data <= offset)
		return 0;
	return min_u64((uint64_t)data, end) - offset;
}

uint64_t file_data_length(int fd, uint64_t offset, uint64_t end)
{
	off_t hole;

	if (offset >= end)
		return 0;
	hole = lseek(fd, (off_t)offset, SEEK_HOLE);
	if (hole <= (off_t)offset)
		return end - offset;
	return min_u64((uint64_t)hole, end) - offset;
}
