/*
 * io.c - read/write wrappers: safe_* retry EINTR, full_* loop until the
 * whole request is done, and the transfer layer's one write loop, which
 * full_write is too.  See libbb.h for what each returns after partial
 * progress.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"

ssize_t safe_read(int fd, void *buf, size_t count)
{
	ssize_t n;

	do
		n = read(fd, buf, count);
	while (n < 0 && transfer_retry(NULL));
	return n;
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

/* The one write loop (libbb.h, "the transfer layer").  A short write is
 * continued once signals are acted on (a signal may have cut it short);
 * a write that returns 0 fails as ENOSPC (some drivers say 0 at the end
 * of a device); a stopping signal ends it with EINTR. */
size_t transfer_write(struct transfer *t, int fd, const void *data, size_t len,
		      int64_t offset)
{
	const unsigned char *p = data;
	size_t done = 0;

	while (done < len) {
		ssize_t n = offset < 0 ? write(fd, p + done, len - done)
			: pwrite(fd, p + done, len - done, (off_t)(offset + (int64_t)done));

		if (n < 0) {
			if (transfer_retry(t))
				continue;
			break;
		}
		if (n == 0) {
			errno = ENOSPC;
			break;
		}
		done += (size_t)n;
		if (done < len && t && transfer_act_on_signals(t)) {
			errno = EINTR;
			break;
		}
	}
	return done;
}

ssize_t full_write(int fd, const void *buf, size_t count)
{
	size_t done = transfer_write(NULL, fd, buf, count, -1);

	return done || done == count ? (ssize_t)done : -1;
}

ssize_t full_write_str(int fd, const char *s)
{
	return full_write(fd, s, strlen(s));
}
