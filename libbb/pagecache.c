/*
 * pagecache.c - drop a file's pages from the page cache behind a
 * sequential reader or writer (see struct cache_dropper in libbb.h).
 *
 * Advising each buffer once while it is still dirty, as GNU dd does,
 * drops nothing on ext4: dirty pages can't be dropped.  So a writer
 * starts writeback of each window as it fills, and waits for and drops
 * the window before it: the footprint stays at about two windows.
 *
 * Only what the copy touched is dropped, from the offset it started at:
 * other programs' cache of the rest of the file is theirs.
 *
 * Waiting for writeback is where a write error shows: the kernel tells
 * it once per open file (errseq), to the first call that waits, and a
 * later fsync sees none.  So every wait's result goes to the caller.
 * The advice itself is only a hint: its failure is not one.
 */
#include <errno.h>
#include <fcntl.h>

#include "libbb.h"

static void drop_range(int fd, uint64_t start, uint64_t len)
{
	(void)posix_fadvise(fd, (off_t)start, (off_t)len, POSIX_FADV_DONTNEED);
}

/* Write back [start, start + len) (len 0: to the end of the file) when
 * writing, wait for it (only clean pages can be dropped), then drop it.
 * Returns 0, or the write-back's error number; a file that can't do it
 * (ESPIPE, EINVAL, ENOSYS) has no write-back to fail. */
static int settle_range(const struct cache_dropper *cd, uint64_t start,
			uint64_t len)
{
	int err = 0;

	if (cd->writing
	    && sync_file_range(cd->fd, (off_t)start, (off_t)len,
			       SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE
			       | SYNC_FILE_RANGE_WAIT_AFTER) != 0
	    && errno != ESPIPE && errno != EINVAL && errno != ENOSYS)
		err = errno;
	drop_range(cd->fd, start, len);
	return err;
}

/* 0 for no error number, else -1 with errno set to it. */
static int errno_result(int err)
{
	if (!err)
		return 0;
	errno = err;
	return -1;
}

void cache_dropper_init(struct cache_dropper *cd, int fd, enum cache_use use,
			uint64_t offset, uint64_t window)
{
	cd->fd = fd;
	cd->writing = use == CACHE_WRITING;
	cd->start = offset;
	cd->window = window;
	/* The first window that starts at or after offset; the part of the
	 * window before it is left to cache_dropper_finish. */
	cd->next_window = (offset + window - 1) / window * window;
}

int cache_dropper_advance(struct cache_dropper *cd, uint64_t offset)
{
	int failed = 0;

	while (cd->next_window + cd->window <= offset) {
		uint64_t window = cd->next_window;

		cd->next_window += cd->window;
		if (!cd->writing) {
			drop_range(cd->fd, window, cd->window);
			continue;
		}
		/* Start writeback of the window just filled... */
		sync_file_range(cd->fd, (off_t)window, (off_t)cd->window,
				SYNC_FILE_RANGE_WRITE);
		/* ...then wait for the one before it, now clean, and drop it,
		 * unless it began before the copy did. */
		if (window >= cd->start + cd->window) {
			int err = settle_range(cd, window - cd->window, cd->window);

			if (err)
				failed = err;
		}
	}
	return errno_result(failed);
}

int cache_dropper_finish(struct cache_dropper *cd, uint64_t end, bool to_eof)
{
	uint64_t len = 0;

	if (!to_eof) {
		if (end <= cd->start)
			return 0;
		len = end - cd->start;
	}
	return errno_result(settle_range(cd, cd->start, len));
}
