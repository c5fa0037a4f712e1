/*
 * test_holes.c - file_hole_length and file_data_length on a file with a
 * hole in the middle and one at its end, within a range, and on a pipe,
 * where lseek fails: there everything is data, so a hole missed costs a
 * read and never a byte.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "libbb.h"
#include "unit.h"

enum { BLOCK = 64 << 10, MIB = 1 << 20 };

static void expect(const char *what, uint64_t got, uint64_t want)
{
	if (got != want)
		unit_fail("%s: %" PRIu64 ", not %" PRIu64, what, got, want);
}

int main(void)
{
	char name[] = "/tmp/zerobox-holes.XXXXXX";
	static unsigned char data[BLOCK];
	int fd = mkstemp(name), pipe_fds[2];
	bool holes;

	memset(data, 'x', sizeof(data));
	/* data [0, BLOCK), a hole, data [MIB, MIB + BLOCK), a hole to 2 MiB */
	if (fd < 0 || pwrite(fd, data, BLOCK, 0) != BLOCK
	    || pwrite(fd, data, BLOCK, MIB) != BLOCK || ftruncate(fd, 2 * MIB)) {
		perror(name);
		return 1;
	}
	unlink(name);
	holes = lseek(fd, 0, SEEK_HOLE) == BLOCK;

	unit_begin("holes: a file's data and holes, within the range");
	expect("hole at 0", file_hole_length(fd, 0, 2 * MIB), 0);
	expect("data at 0", file_data_length(fd, 0, 2 * MIB), holes ? BLOCK : 2 * MIB);
	if (holes) {
		expect("hole at BLOCK", file_hole_length(fd, BLOCK, 2 * MIB), MIB - BLOCK);
		expect("hole within a range", file_hole_length(fd, BLOCK, 2 * BLOCK), BLOCK);
		expect("data at MIB", file_data_length(fd, MIB, 2 * MIB), BLOCK);
		expect("the hole at the end", file_hole_length(fd, MIB + BLOCK, 2 * MIB),
		       MIB - BLOCK);
	} else {
		printf("note: /tmp reports no holes; only the fallbacks are checked\n");
	}
	expect("an empty range", file_hole_length(fd, MIB, MIB), 0);
	expect("an empty range (data)", file_data_length(fd, MIB, MIB), 0);
	unit_end();

	unit_begin("holes: where lseek fails, all is data");
	if (pipe(pipe_fds)) {
		perror("pipe");
		return 1;
	}
	expect("hole in a pipe", file_hole_length(pipe_fds[0], 0, MIB), 0);
	expect("data in a pipe", file_data_length(pipe_fds[0], 0, MIB), MIB);
	unit_end();
	return unit_exit_status();
}
