/*
 * io.c - read/write wrappers: safe_* retry EINTR, full_* loop until the
 * whole request is done.  See libbb.h for what each returns after
 * partial progress.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"

/* One read or write, again while a signal interrupts it. */
static ssize_t retry_interrupted(int fd, void *buf, size_t count, bool writing)
{
	ssize_t n;

	do
		n = writing ? write(fd, buf, count) : read(fd, buf, count);
	while (n < 0 && errno == EINTR);
	return n;
}

ssize_t safe_read(int fd, void *buf, size_t count)
{
	return retry_interrupted(fd, buf, count, false);
}

ssize_t safe_write(int fd, const void *buf, size_t count)
{
	return retry_interrupted(fd, (void *)buf, count, true);
}

ssize_t full_read(int fd, void *buf, size_t count)
{
	size_t done = 0;

	while (done < count) {
		ssize_t n = safe_read(fd, (char *)buf + done, count - done);
		if (n < 0)
			return done ? (ssize_t)done : -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t full_write(int fd, const void *buf, size_t count)
{
	size_t done = 0;

	while (done < count) {
		ssize_t n = safe_write(fd, (const char *)buf + done,
				       count - done);
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t full_write_str(int fd, const char *s)
{
	return full_write(fd, s, strlen(s));
}
