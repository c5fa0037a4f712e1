/*
 * verify_reader.c - the read-back's reader.  The O_DIRECT read-back reads
 * ahead: while one half of the buffer is hashed, the device fills the
 * other (Linux AIO, which O_DIRECT makes asynchronous), so the device
 * never waits for the hash.  Where AIO can't be had (ENOSYS, a system
 * limit), each piece is read with pread.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "verify.h"

void reader_open(struct reader *r, int fd, struct lazy_buffer *buf,
			uint64_t align, bool ahead)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->area[0] = r->area[1] = buf->data;
	r->piece_max = buf->capacity;
	if (!ahead || buf->capacity / 2 < align || buf->capacity / 2 % align
	    || syscall(SYS_io_setup, 1L, &r->aio) != 0) {
		r->aio = 0;
		return;
	}
	r->piece_max = buf->capacity / 2;
	r->area[1] = buf->data + r->piece_max;
}

/* Returns 0, or -1 with errno. */
int reader_start(struct reader *r, uint64_t pos, size_t len)
{
	struct iocb *list[1] = { &r->request };

	r->pos = pos;
	r->len = len;
	r->started = true;
	if (!r->aio)
		return 0;
	memset(&r->request, 0, sizeof(r->request));
	r->request.aio_fildes = (uint32_t)r->fd;
	r->request.aio_lio_opcode = IOCB_CMD_PREAD;
	r->request.aio_buf = (uint64_t)(uintptr_t)r->area[r->filling];
	r->request.aio_nbytes = len;
	r->request.aio_offset = (int64_t)pos;
	if (syscall(SYS_io_submit, r->aio, 1L, list) == 1)
		return 0;
	r->started = false;
	return -1;
}

/* The started piece's byte count (0 at the end), or -1 with errno;
 * *data: where its bytes are. */
ssize_t reader_finish(struct dd_run *run, struct reader *r,
			     const unsigned char **data)
{
	struct io_event done;
	long got;

	r->started = false;
	if (!r->aio) {
		ssize_t n;

		do
			n = pread(r->fd, r->area[0], r->len, (off_t)r->pos);
		while (n < 0 && transfer_retry(&run->transfer));
		*data = r->area[0];
		return n;
	}
	do
		got = syscall(SYS_io_getevents, r->aio, 1L, 1L, &done, NULL);
	while (got < 0 && transfer_retry(&run->transfer));
	if (got != 1)
		return -1;
	*data = r->area[r->filling];
	r->filling ^= 1;
	if (done.res < 0) {
		errno = (int)-done.res;
		return -1;
	}
	return (ssize_t)done.res;
}

/* A piece still started is waited for (its area may be freed next). */
void reader_close(struct reader *r)
{
	if (r->aio)
		(void)syscall(SYS_io_destroy, r->aio);
}
