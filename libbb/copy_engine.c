/*
 * copy_engine.c - move bytes between descriptors inside the kernel.
 * The choice of syscall per file-type pair is explained in libbb.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
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

enum copy_path copy_choose_path(const struct stat *in, const struct stat *out)
{
	int in_file = S_ISREG(in->st_mode) || S_ISBLK(in->st_mode);

	if (in_file && S_ISREG(out->st_mode))
		return COPY_FILE_RANGE;
	if ((in_file || S_ISFIFO(in->st_mode)) && S_ISFIFO(out->st_mode))
		return COPY_SPLICE;
	if (S_ISFIFO(in->st_mode) && is_dev_null(out))
		return COPY_SPLICE;
	if (in_file && is_dev_null(out))
		return COPY_SENDFILE;
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

ssize_t copy_step(enum copy_path path, int in_fd, int out_fd,
		  const void *zeros, size_t len)
{

	switch (path) {
	case COPY_FILE_RANGE:
		return copy_file_range(in_fd, NULL, out_fd, NULL, len, 0);
	case COPY_SENDFILE:
		return sendfile(out_fd, in_fd, NULL, len);
	case COPY_SPLICE:
		return splice(in_fd, NULL, out_fd, NULL, len, SPLICE_F_MOVE);
	case COPY_VMSPLICE_ZEROS:
		return vmsplice_zeros(out_fd, zeros, len);
	case COPY_WRITE_ZEROS:
		return write(out_fd, zeros, len);
	case COPY_READ_WRITE:
		break;
	}
	errno = EINVAL;
	return -1;
}

int copy_error_allows_fallback(int err)
{
	return err == EINVAL || err == EXDEV || err == EBADF || err == ENOSYS
		|| err == EOPNOTSUPP || err == EPERM || err == ETXTBSY;
}

void pipe_raise_capacity(int fd, size_t size)
{
	/* The default /proc/sys/fs/pipe-max-size: more would only pin
	 * kernel memory without making a splice any faster. */
	enum { PIPE_MAX = 1 << 20 };
	int now = fcntl(fd, F_GETPIPE_SZ);

	if (size > PIPE_MAX)
		size = PIPE_MAX;
	if (now >= 0 && (size_t)now < size)
		fcntl(fd, F_SETPIPE_SZ, (int)size);
}
