/*
 * zerocopy.c - move bytes between descriptors inside the kernel.
 * The choice of syscall per pair of ends is explained in libbb.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "libbb.h"

/* /dev/zero and /dev/null are recognised by device number, not name. */
bool is_dev_zero(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 5);
}

bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

enum {
	/* Filesystem magic numbers (linux/magic.h). */
	EXT_SUPER_MAGIC = 0xEF53,       /* ext2, ext3, ext4 */
	TMPFS_MAGIC = 0x01021994,
	XFS_SUPER_MAGIC = 0x58465342,
	BTRFS_SUPER_MAGIC = 0x9123683E,
	PIPE_DEFAULT_CAPACITY = 16 * 4096,
};

/* Is copy_file_range from in to out worth more than our own splice
 * loop?  Within one filesystem that may share extents or copy on a
 * server, yes; on ext2/3/4 it is a slower splice loop, and across
 * filesystems it may not work at all (EXDEV). */
static bool copy_file_range_pays(const struct io_end *in, const struct io_end *out)
{
	if (!S_ISREG(in->st.st_mode) || in->st.st_dev != out->st.st_dev)
		return false;
	return out->fs_type != EXT_SUPER_MAGIC;
}

/* Can bytes taken from a pipe be spliced into this file?  Only where
 * splice is known to write (a failure would leave them in dd's pipe),
 * and not with O_APPEND, which splice refuses. */
static bool pipe_can_splice_into(const struct io_end *out)
{
	if (out->status_flags < 0 || (out->status_flags & O_APPEND))
		return false;
	return out->fs_type == EXT_SUPER_MAGIC || out->fs_type == TMPFS_MAGIC
		|| out->fs_type == XFS_SUPER_MAGIC
		|| out->fs_type == BTRFS_SUPER_MAGIC;
}

enum copy_path copy_choose_path(const struct io_end *in, const struct io_end *out)
{
	mode_t in_mode = in->st.st_mode, out_mode = out->st.st_mode;
	bool in_file = S_ISREG(in_mode) || S_ISBLK(in_mode);
	bool to_null = is_dev_null(&out->st);

	if (in_file && S_ISREG(out_mode))
		return copy_file_range_pays(in, out)
			? COPY_FILE_RANGE : COPY_SPLICE_VIA_PIPE;
	if ((in_file || S_ISFIFO(in_mode)) && S_ISFIFO(out_mode))
		return COPY_SPLICE;
	if (S_ISFIFO(in_mode) && to_null)
		return COPY_SPLICE;
	if (S_ISFIFO(in_mode) && S_ISREG(out_mode) && pipe_can_splice_into(out))
		return COPY_SPLICE_VIA_PIPE;
	if (in_file && to_null)
		return COPY_SPLICE_VIA_PIPE;
	if (!is_dev_zero(&in->st))
		return COPY_READ_WRITE;
	if (S_ISFIFO(out_mode))
		return COPY_VMSPLICE_ZEROS;
	return S_ISREG(out_mode) || to_null ? COPY_WRITE_ZEROS : COPY_READ_WRITE;
}

/* vmsplice len bytes of zeros: the same zero block, again and again. */
static ssize_t vmsplice_zeros(int out_fd, const void *block, size_t len)
{
	struct iovec iov[ZERO_BLOCK_REPEATS];
	int n = 0;

	while (len > 0 && n < ZERO_BLOCK_REPEATS) {
		iov[n].iov_base = (void *)block;
		iov[n].iov_len = len < ZERO_BLOCK_SIZE ? len : ZERO_BLOCK_SIZE;
		len -= iov[n].iov_len;
		n++;
	}
	return vmsplice(out_fd, iov, (unsigned long)n, 0);
}

ssize_t copy_channel_fill(struct copy_channel *ch, size_t len)
{
	ssize_t n;

	if (len > ch->pipe_size - ch->in_pipe)
		len = ch->pipe_size - ch->in_pipe;
	n = splice(ch->in->fd, NULL, ch->pipe_wr, NULL, len, SPLICE_F_MOVE);
	if (n > 0)
		ch->in_pipe += (size_t)n;
	return n;
}

ssize_t copy_channel_drain(struct copy_channel *ch)
{
	ssize_t n = splice(ch->pipe_rd, NULL, ch->out->fd, NULL, ch->in_pipe,
			   SPLICE_F_MOVE);

	if (n > 0)
		ch->in_pipe -= (size_t)n;
	return n;
}

/* Fill the private pipe from the input once it is empty, then write
 * out what it holds: page references move, no byte is copied in.  The
 * end of the input is the one 0 that means nothing is wrong. */
static ssize_t splice_via_pipe(struct copy_channel *ch, size_t len)
{
	if (ch->in_pipe == 0) {
		ssize_t n = copy_channel_fill(ch, len);

		if (n <= 0)
			return n;
	}
	return copy_channel_drain(ch);
}

int copy_channel_open(struct copy_channel *ch, enum copy_path path,
		      const struct io_end *in, const struct io_end *out,
		      const void *zeros)
{
	int fds[2], size;

	/* No pipe yet, so nothing in it. */
	*ch = (struct copy_channel){
		.path = path, .in = in, .out = out, .zeros = zeros,
		.pipe_rd = -1, .pipe_wr = -1,
	};
	if (path != COPY_SPLICE_VIA_PIPE)
		return 0;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	ch->pipe_rd = fds[0];
	ch->pipe_wr = fds[1];
	size = fcntl(ch->pipe_wr, F_SETPIPE_SZ, PIPE_MAX_CAPACITY);
	if (size <= 0)   /* over the user's pipe limit: as the kernel made it */
		size = fcntl(ch->pipe_wr, F_GETPIPE_SZ);
	ch->pipe_size = size > 0 ? (size_t)size : PIPE_DEFAULT_CAPACITY;
	return 0;
}

ssize_t copy_channel_step(struct copy_channel *ch, size_t len)
{
	int in_fd = ch->in->fd, out_fd = ch->out->fd;

	if (ch->path == COPY_FILE_RANGE)
		return copy_file_range(in_fd, NULL, out_fd, NULL, len, 0);
	if (ch->path == COPY_SPLICE)
		return splice(in_fd, NULL, out_fd, NULL, len, SPLICE_F_MOVE);
	if (ch->path == COPY_SPLICE_VIA_PIPE)
		return splice_via_pipe(ch, len);
	if (ch->path == COPY_VMSPLICE_ZEROS)
		return vmsplice_zeros(out_fd, ch->zeros, len);
	if (ch->path == COPY_WRITE_ZEROS)
		return write(out_fd, ch->zeros, len);
	errno = EINVAL;
	return -1;
}

size_t copy_channel_take_back(struct copy_channel *ch, unsigned char *buf)
{
	size_t got = 0;

	while (ch->in_pipe > 0) {
		ssize_t n = read(ch->pipe_rd, buf + got, ch->in_pipe);

		if (n < 0 && transfer_retry(NULL))
			continue;
		if (n <= 0)
			break;   /* cannot happen: the pipe is ours */
		got += (size_t)n;
		ch->in_pipe -= (size_t)n;
	}
	return got;
}

void copy_channel_close(struct copy_channel *ch)
{
	int saved = errno;

	if (ch->in_pipe > 0)
		lseek(ch->in->fd, -(off_t)ch->in_pipe, SEEK_CUR);
	if (ch->pipe_rd >= 0) {
		close(ch->pipe_rd);
		close(ch->pipe_wr);
	}
	ch->pipe_rd = ch->pipe_wr = -1;
	ch->in_pipe = 0;
	errno = saved;
}
