/*
 * io_end.c - learn what a copy needs to know about a descriptor, once.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/fs.h>

#include "libbb.h"

void io_end_learn(struct io_end *end, int fd, const char *name)
{
	off_t offset;

	memset(end, 0, sizeof(*end));
	end->fd = fd;
	end->name = name;

	offset = lseek(fd, 0, SEEK_CUR);
	end->seekable = offset >= 0;
	end->seek_errno = offset >= 0 ? 0 : errno;
	end->offset = offset >= 0 ? (uint64_t)offset : 0;

	/* A closed standard stream: the type stays unknown, and the first
	 * read or write reports the error. */
	if (fstat(fd, &end->st) != 0) {
		end->stat_errno = errno;
		memset(&end->st, 0, sizeof(end->st));
	}
	if (S_ISREG(end->st.st_mode)) {
		struct statfs fs;

		end->size_known = true;
		end->size = (uint64_t)end->st.st_size;
		if (fstatfs(fd, &fs) == 0)
			end->fs_type = (unsigned long)fs.f_type;
	} else if (S_ISBLK(end->st.st_mode)) {
		end->size_known = ioctl(fd, BLKGETSIZE64, &end->size) == 0;
	} else if (S_ISFIFO(end->st.st_mode)) {
		int capacity = fcntl(fd, F_GETPIPE_SZ);

		end->pipe_capacity = capacity > 0 ? (size_t)capacity : 0;
	}
	end->status_flags = fcntl(fd, F_GETFL);
}

bool io_end_is_pipe(const struct io_end *end)
{
	return S_ISFIFO(end->st.st_mode);
}

bool io_end_is_nonblocking(const struct io_end *end)
{
	return end->status_flags < 0 || (end->status_flags & O_NONBLOCK);
}

size_t pipe_bytes_held(const struct io_end *end)
{
	int held;

	if (ioctl(end->fd, FIONREAD, &held) != 0 || held < 0)
		return 0;
	return (size_t)held;
}

size_t pipe_capacity_now(const struct io_end *end)
{
	int capacity = fcntl(end->fd, F_GETPIPE_SZ);

	return capacity > 0 ? (size_t)capacity : 0;
}

void pipe_raise_capacity(struct io_end *end, size_t size)
{
	int now;

	if (!io_end_is_pipe(end))
		return;
	if (size > PIPE_MAX_CAPACITY)
		size = PIPE_MAX_CAPACITY;
	if (end->pipe_capacity >= size)
		return;
	now = fcntl(end->fd, F_SETPIPE_SZ, (int)size);
	if (now > 0)
		end->pipe_capacity = (size_t)now;
}
