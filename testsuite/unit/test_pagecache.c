/*
 * test_pagecache.c - the cache dropper's results: 0 where nothing failed
 * to write back, whatever the advice did.  Its advice failing (a pipe:
 * ESPIPE) is not an error, nor is a descriptor without write-back; a
 * write-back error is (testsuite/dd_failing_card.tests makes real ones,
 * on a card whose writes fail).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "libbb.h"
#include "unit.h"

enum { MIB = 1 << 20 };

static void expect_ok(const char *what, int result)
{
	if (result != 0)
		unit_fail("%s: -1, errno %d", what, errno);
}

/* Write len bytes of 'x' to fd in 1 MiB pieces, advancing the dropper. */
static void write_through(struct cache_dropper *cd, int fd, uint64_t len)
{
	static unsigned char piece[MIB];
	uint64_t done = 0;

	memset(piece, 'x', sizeof(piece));
	while (done < len) {
		if (write(fd, piece, MIB) != MIB) {
			unit_fail("write at %" PRIu64 ": errno %d", done, errno);
			return;
		}
		done += MIB;
		expect_ok("advance", cache_dropper_advance(cd, done));
	}
}

int main(void)
{
	char name[] = "/tmp/zerobox-pagecache.XXXXXX";
	int fd = mkstemp(name), pipe_fds[2];
	struct cache_dropper cd;
	struct stat st;

	if (fd < 0 || pipe(pipe_fds) != 0) {
		perror(name);
		return 1;
	}
	unlink(name);

	unit_begin("pagecache: writing a file, three windows and a tail");
	cache_dropper_init(&cd, fd, CACHE_WRITING, 0, CACHE_WINDOW);
	write_through(&cd, fd, 3 * CACHE_WINDOW + MIB);
	expect_ok("finish", cache_dropper_finish(&cd, 3 * CACHE_WINDOW + MIB, true));
	if (fstat(fd, &st) != 0 || st.st_size != 3 * CACHE_WINDOW + MIB)
		unit_fail("size %lld", (long long)st.st_size);
	unit_end();

	unit_begin("pagecache: reading a file, from an offset");
	cache_dropper_init(&cd, fd, CACHE_READING, MIB, CACHE_WINDOW);
	expect_ok("advance", cache_dropper_advance(&cd, 3 * CACHE_WINDOW));
	expect_ok("finish", cache_dropper_finish(&cd, 3 * CACHE_WINDOW, false));
	unit_end();

	/* A pipe has no page cache: the advice fails (ESPIPE), and so does
	 * sync_file_range; neither is a write error. */
	unit_begin("pagecache: a pipe, advice refused, no write-back");
	cache_dropper_init(&cd, pipe_fds[1], CACHE_WRITING, 0, CACHE_WINDOW);
	expect_ok("advance", cache_dropper_advance(&cd, 2 * CACHE_WINDOW));
	expect_ok("finish", cache_dropper_finish(&cd, 2 * CACHE_WINDOW, false));
	cache_dropper_init(&cd, pipe_fds[0], CACHE_READING, 0, CACHE_WINDOW);
	expect_ok("advance (reading)", cache_dropper_advance(&cd, 2 * CACHE_WINDOW));
	expect_ok("finish (reading)", cache_dropper_finish(&cd, 2 * CACHE_WINDOW, true));
	unit_end();

	close(fd);
	return unit_exit_status();
}
