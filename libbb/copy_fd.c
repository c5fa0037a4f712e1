/*
 * copy_fd.c - copy one descriptor to another, for applets that copy
 * whole files (cat) or a byte count (head -c): zero-copy where the
 * file types allow it, read/write otherwise.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libbb.h"

enum {
	RW_CHUNK = 128 << 10,           /* GNU cat's and head's io_blksize */
	ENGINE_CHUNK = 1 << 30,         /* one syscall moves this at most */
};

/* The read size: RW_CHUNK, bounded by limit and, for a regular file, by
 * what is left of it (it may still grow: a smaller buffer only costs
 * more reads). */
static uint64_t rw_size(int in_fd, uint64_t limit)
{
	struct stat st;
	uint64_t n = limit < RW_CHUNK ? limit : RW_CHUNK;

	if (fstat(in_fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		off_t pos = lseek(in_fd, 0, SEEK_CUR);

		if (pos >= 0 && pos < st.st_size && (uint64_t)(st.st_size - pos) < n)
			n = (uint64_t)(st.st_size - pos);
	}
	return n;
}

int copy_fd_rw(int in_fd, int out_fd, uint64_t limit, struct lazy_buffer *buf,
	       int *which)
{
	*which = COPY_FD_READ_ERROR;
	if (!buf->data && lazy_buffer_alloc(buf, rw_size(in_fd, limit)) != 0)
		return -1;
	while (limit) {
		size_t want = limit < buf->capacity ? (size_t)limit : buf->capacity;
		ssize_t n = safe_read(in_fd, buf->data, want);

		if (n < 0) {
			*which = COPY_FD_READ_ERROR;
			return -1;
		}
		if (n == 0)
			break;
		if (full_write(out_fd, buf->data, (size_t)n) != n) {
			*which = COPY_FD_WRITE_ERROR;
			return -1;
		}
		limit -= (uint64_t)n;
	}
	return 0;
}

/* After data moved, whose fault is an error of a one-syscall copy? */
static int engine_error_side(int err)
{
	return err == EPIPE || err == ENOSPC || err == EDQUOT || err == EFBIG
		? COPY_FD_WRITE_ERROR : COPY_FD_READ_ERROR;
}

int copy_fd_zerocopy(int in_fd, int out_fd, uint64_t limit,
		     struct lazy_buffer *buf, int *which)
{
	struct io_end in, out;
	struct copy_channel ch;
	enum copy_path path;
	uint64_t moved = 0;
	int result = 0;

	if (!ENABLE_FEATURE_ZEROCOPY)
		return copy_fd_rw(in_fd, out_fd, limit, buf, which);
	io_end_learn(&in, in_fd, NULL);
	io_end_learn(&out, out_fd, NULL);
	path = copy_choose_path(&in, &out);
	/* The *_ZEROS paths need a buffer known never written: not ours. */
	if (path == COPY_READ_WRITE || path == COPY_VMSPLICE_ZEROS
	    || path == COPY_WRITE_ZEROS
	    || copy_channel_open(&ch, path, &in, &out, NULL) != 0)
		return copy_fd_rw(in_fd, out_fd, limit, buf, which);
	if (path == COPY_SPLICE)
		pipe_raise_capacity(&out, PIPE_MAX_CAPACITY);

	while (limit) {
		size_t len = limit < ENGINE_CHUNK ? (size_t)limit : ENGINE_CHUNK;
		ssize_t n = copy_channel_step(&ch, len);

		if (n < 0 && errno == EINTR)
			continue;
		/* Before any byte moved, a refused path or a first 0 (procfs
		 * and sysfs files claim size 0) falls back to read/write. */
		if (moved == 0 && n <= 0
		    && copy_channel_may_fall_back(&ch, n == 0 ? 0 : errno)) {
			copy_channel_close(&ch);
			return copy_fd_rw(in_fd, out_fd, limit, buf, which);
		}
		if (n < 0) {
			*which = engine_error_side(errno);
			result = -1;
			break;
		}
		if (n == 0)
			break;
		moved += (uint64_t)n;
		limit -= (uint64_t)n;
	}
	copy_channel_close(&ch);
	return result;
}
