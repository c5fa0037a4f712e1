/*
 * verify_hold.c - conv=verify's held first block.  On a block device the
 * first block of the range (the first MiB, or obs if that is larger, in
 * whole chunks) is kept in memory and written only once the rest is
 * written and verified: a copy that fails or is interrupted leaves no
 * first block, so no card that boots half an image.  The bytes that are
 * written go to the chunk hashes on their way.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "verify.h"

size_t verify_hold(struct dd_run *run, const unsigned char *data, size_t len)
{
	struct dd_verify_state *v = run->verify;
	uint64_t offset = v->next - v->start;
	size_t take;

	if (offset >= v->hold_size)
		return 0;
	take = len < v->hold_size - offset ? len : (size_t)(v->hold_size - offset);
	/* The device's offset moves on as if the bytes were written. */
	if (lseek(run->out.fd, (off_t)take, SEEK_CUR) < 0)
		return 0;
	memcpy(v->hold.data + offset, data, take);
	note_bytes(v, data, take);
	return take;
}

/* Write the held first block (and sync it).  False if that failed
 * (reported). */
void verify_written(struct dd_run *run, const unsigned char *data, size_t len)
{
	note_bytes(run->verify, data, len);
}

bool write_held_block(struct dd_run *run, uint64_t len)
{
	struct dd_verify_state *v = run->verify;
	int fd = run->out.fd, flags = fcntl(fd, F_GETFL);

	/* A short held block can't go through O_DIRECT; it is synced. */
	if (flags >= 0 && (flags & O_DIRECT) && len % DIRECT_ALIGN)
		(void)fcntl(fd, F_SETFL, flags & ~O_DIRECT);
	if (transfer_write(&run->transfer, fd, v->hold.data, (size_t)len,
			   (int64_t)v->start) != len) {
		bb_perror_msg("verify: writing the first block of %s",
			      quote_always(run->out.name));
		return false;
	}
	if (((run->opt->conv & CONV_FSYNC) ? fsync(fd) : fdatasync(fd)) != 0) {
		bb_perror_msg("verify: syncing the first block of %s",
			      quote_always(run->out.name));
		return false;
	}
	return true;
}
