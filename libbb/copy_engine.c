/*
 * copy_engine.c - move bytes between descriptors inside the kernel.
 * The choice of syscall per file-type pair is explained in libbb.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "libbb.h"

/* /dev/zero and /dev/null are recognised by device number, not name. */
int is_dev_zero(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1
		&& minor(st->st_rdev) == 5;
}

int is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1
		&& minor(st->st_rdev) == 3;
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
static int copy_file_range_pays(int out_fd, const struct stat *in,
				const struct stat *out)
{
	struct statfs fs;

	if (!S_ISREG(in->st_mode) || in->st_dev != out->st_dev)
		return 0;
	return fstatfs(out_fd, &fs) != 0 || fs.f_type != EXT_SUPER_MAGIC;
}

/* Can bytes taken from a pipe be spliced into this file?  Only where
 * splice is known to write (a failure would leave them in dd's pipe,
 * with no way to give them back to the input), and not with O_APPEND,
 * which splice refuses. */
static int pipe_can_splice_into(int out_fd)
{
	struct statfs fs;
	int flags = fcntl(out_fd, F_GETFL);

	if (flags < 0 || (flags & O_APPEND) || fstatfs(out_fd, &fs) != 0)
		return 0;
	return fs.f_type == EXT_SUPER_MAGIC || fs.f_type == TMPFS_MAGIC
		|| fs.f_type == XFS_SUPER_MAGIC || fs.f_type == BTRFS_SUPER_MAGIC;
}

enum copy_path copy_choose_path(const struct stat *in, int out_fd,
				const struct stat *out)
{
	int in_file = S_ISREG(in->st_mode) || S_ISBLK(in->st_mode);

	if (in_file && S_ISREG(out->st_mode))
		return copy_file_range_pays(out_fd, in, out)
			? COPY_FILE_RANGE : COPY_SPLICE_VIA_PIPE;
	if ((in_file || S_ISFIFO(in->st_mode)) && S_ISFIFO(out->st_mode))
		return COPY_SPLICE;
	if (S_ISFIFO(in->st_mode) && is_dev_null(out))
		return COPY_SPLICE;
	if (S_ISFIFO(in->st_mode) && S_ISREG(out->st_mode)
	    && pipe_can_splice_into(out_fd))
		return COPY_SPLICE_VIA_PIPE;
	if (in_file && is_dev_null(out))
		return COPY_SPLICE_VIA_PIPE;
	if (is_dev_zero(in) && S_ISFIFO(out->st_mode))
		return COPY_VMSPLICE_ZEROS;
	if (is_dev_zero(in) && (S_ISREG(out->st_mode) || is_dev_null(out)))
		return COPY_WRITE_ZEROS;
	return COPY_READ_WRITE;
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

/* Fill the private pipe from the input once it is empty, then write
 * out what it holds: page references move, no byte is copied in. */
static ssize_t splice_via_pipe(struct copy_channel *ch, size_t len)
{
	ssize_t n;

	if (ch->in_pipe == 0) {
		if (len > ch->pipe_size)
			len = ch->pipe_size;
		n = splice(ch->in_fd, NULL, ch->pipe_wr, NULL, len, SPLICE_F_MOVE);
		if (n <= 0)
			return n;
		ch->in_pipe = (size_t)n;
	}
	n = splice(ch->pipe_rd, NULL, ch->out_fd, NULL, ch->in_pipe, SPLICE_F_MOVE);
	if (n > 0)
		ch->in_pipe -= (size_t)n;
	return n;
}

int copy_channel_open(struct copy_channel *ch, enum copy_path path,
		      int in_fd, int out_fd, const void *zeros)
{
	int fds[2], size;

	ch->path = path;
	ch->in_fd = in_fd;
	ch->out_fd = out_fd;
	ch->zeros = zeros;
	ch->pipe_rd = ch->pipe_wr = -1;
	ch->pipe_size = 0;
	ch->in_pipe = 0;
	ch->in_seekable = lseek(in_fd, 0, SEEK_CUR) >= 0;
	if (path != COPY_SPLICE_VIA_PIPE)
		return 0;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	ch->pipe_rd = fds[0];
	ch->pipe_wr = fds[1];
	pipe_raise_capacity(ch->pipe_wr, PIPE_MAX_CAPACITY);
	size = fcntl(ch->pipe_wr, F_GETPIPE_SZ);
	ch->pipe_size = size > 0 ? (size_t)size : PIPE_DEFAULT_CAPACITY;
	return 0;
}

ssize_t copy_channel_step(struct copy_channel *ch, size_t len)
{
	switch (ch->path) {
	case COPY_FILE_RANGE:
		return copy_file_range(ch->in_fd, NULL, ch->out_fd, NULL, len, 0);
	case COPY_SPLICE:
		return splice(ch->in_fd, NULL, ch->out_fd, NULL, len, SPLICE_F_MOVE);
	case COPY_SPLICE_VIA_PIPE:
		return splice_via_pipe(ch, len);
	case COPY_VMSPLICE_ZEROS:
		return vmsplice_zeros(ch->out_fd, ch->zeros, len);
	case COPY_WRITE_ZEROS:
		return write(ch->out_fd, ch->zeros, len);
	case COPY_READ_WRITE:
		break;
	}
	errno = EINVAL;
	return -1;
}

int copy_channel_may_fall_back(const struct copy_channel *ch, int err)
{
	if (ch->in_pipe > 0 && !ch->in_seekable)
		return 0;
	return err == 0 || err == EINVAL || err == EXDEV || err == EBADF
		|| err == ENOSYS || err == EOPNOTSUPP || err == EPERM
		|| err == ETXTBSY;
}

void copy_channel_close(struct copy_channel *ch)
{
	int saved = errno;

	if (ch->in_pipe > 0)
		lseek(ch->in_fd, -(off_t)ch->in_pipe, SEEK_CUR);
	if (ch->pipe_rd >= 0) {
		close(ch->pipe_rd);
		close(ch->pipe_wr);
	}
	ch->pipe_rd = ch->pipe_wr = -1;
	ch->in_pipe = 0;
	errno = saved;
}

void pipe_raise_capacity(int fd, size_t size)
{
	int now = fcntl(fd, F_GETPIPE_SZ);

	if (size > PIPE_MAX_CAPACITY)
		size = PIPE_MAX_CAPACITY;
	if (now >= 0 && (size_t)now < size)
		fcntl(fd, F_SETPIPE_SZ, (int)size);
}
