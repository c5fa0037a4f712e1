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
	ZEROCOPY_STEP = 1 << 30,         /* one zero-copy step moves this at most */
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

/*
 * Bytes the private pipe still holds when a pipe input is handed to
 * read/write cannot go back to the input: write them out first.
 */
static int write_back_held(struct copy_channel *ch, int out_fd,
			   struct lazy_buffer *buf, uint64_t *limit, int *which)
{
	size_t held = ch->in_pipe, n;

	if (!held || ch->in->seekable)
		return 0;   /* nothing held, or copy_channel_close gives it back */
	if (lazy_buffer_grow(buf, held) != 0) {
		*which = COPY_FD_READ_ERROR;
		return -1;
	}
	n = copy_channel_take_back(ch, buf->data);
	if (full_write(out_fd, buf->data, n) != (ssize_t)n) {
		*which = COPY_FD_WRITE_ERROR;
		return -1;
	}
	*limit -= n;
	return 0;
}

int copy_fd_zerocopy(int in_fd, int out_fd, uint64_t limit,
		     struct lazy_buffer *buf, int *which)
{
	struct io_end in, out;
	struct copy_channel ch;
	enum copy_path path;
	bool at_end = false;
	int result;

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

	/* Zero-copy until it stops; read/write then takes over where it
	 * stopped (libbb.h: the rule for callers). */
	while (limit) {
		size_t len = limit < ZEROCOPY_STEP ? (size_t)limit : ZEROCOPY_STEP;
		ssize_t n = copy_channel_step(&ch, len);

		if (n > 0) {
			limit -= (uint64_t)n;
			continue;
		}
		if (n < 0 && transfer_retry(NULL))
			continue;
		/* Only the private pipe's filling can tell the input's end. */
		at_end = n == 0 && path == COPY_SPLICE_VIA_PIPE && ch.in_pipe == 0;
		break;
	}
	result = write_back_held(&ch, out_fd, buf, &limit, which);
	copy_channel_close(&ch);
	if (result == 0 && limit && !at_end)
		result = copy_fd_rw(in_fd, out_fd, limit, buf, which);
	return result;
}
