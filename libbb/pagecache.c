/*
 * pagecache.c - drop a file's pages from the page cache behind a
 * sequential reader or writer (see struct cache_dropper in libbb.h).
 *
 * Measured on ext4 (../shared/tools/README.md): advising each buffer
 * once while it is still dirty, as GNU dd does, drops nothing; waiting
 * for one window of writeback behind the one just started keeps the
 * footprint at two windows and is faster than a plain copy.
 */
#include <errno.h>
#include <fcntl.h>

#include "libbb.h"

static int drop_range(int fd, uint64_t start, uint64_t len)
{
	int err = posix_fadvise(fd, (off_t)start, (off_t)len, POSIX_FADV_DONTNEED);

	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

void cache_dropper_init(struct cache_dropper *cd, int fd, int writing,
			uint64_t offset)
{
	cd->fd = fd;
	cd->writing = writing;
	/* The first window that starts at or after offset; the part of the
	 * window before it is left to cache_dropper_finish. */
	cd->next_window = (offset + CACHE_WINDOW - 1) / CACHE_WINDOW * CACHE_WINDOW;
}

int cache_dropper_advance(struct cache_dropper *cd, uint64_t offset)
{
	while (cd->next_window + CACHE_WINDOW <= offset) {
		uint64_t window = cd->next_window;

		cd->next_window += CACHE_WINDOW;
		if (!cd->writing) {
			if (drop_range(cd->fd, window, CACHE_WINDOW) != 0)
				return -1;
			continue;
		}
		/* Start writeback of the window just filled... */
		sync_file_range(cd->fd, (off_t)window, CACHE_WINDOW,
				SYNC_FILE_RANGE_WRITE);
		/* ...then wait for the one before it, now clean, and drop it. */
		if (window >= CACHE_WINDOW) {
			window -= CACHE_WINDOW;
			sync_file_range(cd->fd, (off_t)window, CACHE_WINDOW,
					SYNC_FILE_RANGE_WAIT_BEFORE
					| SYNC_FILE_RANGE_WRITE
					| SYNC_FILE_RANGE_WAIT_AFTER);
			if (drop_range(cd->fd, window, CACHE_WINDOW) != 0)
				return -1;
		}
	}
	return 0;
}

int cache_dropper_finish(struct cache_dropper *cd)
{
	/* Dirty pages can't be dropped: write everything out first. */
	if (cd->writing)
		sync_file_range(cd->fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE
				| SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
	return drop_range(cd->fd, 0, 0);
}
