/*
 * verify_hold.c - conv=verify's held first block.  On a block device the
 * first chunk of the range (1 MiB, whatever obs is) is kept in memory,
 * each byte at its offset from the range's start, and written only once
 * the rest is written and verified: a copy that fails or is interrupted
 * leaves no first block, so no card that boots half an image.  The bytes
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

void verify_written(struct dd_run *run, const unsigned char *data, size_t len)
{
	note_bytes(run->verify, data, len);
}

void verify_moved_to(struct dd_run *run, uint64_t offset)
{
	run->verify->next = offset;
}

uint64_t verify_hold_end(const struct dd_run *run)
{
	return run->verify->start + run->verify->hold_size;
}

/* Write what the extents hold of the first block, each piece at its
 * offset (zeros asked for are the buffer's untouched pages), and sync
 * it.  False if that failed (reported). */
bool write_held_block(struct dd_run *run)
{
	struct dd_verify_state *v = run->verify;
	uint64_t align = direct_alignment(run);
	int fd = run->out.fd, flags = fcntl(fd, F_GETFL);
	struct walk w;
	struct piece p;

	walk_start(&w, v->source, v->start, v->start + v->hold_size, 1, v->hold_size);
	while (next_piece(&w, &p)) {
		size_t len = (size_t)(p.hi - p.lo);

		/* A piece O_DIRECT can't write is written through the cache,
		 * and synced below. */
		if (flags >= 0 && (flags & O_DIRECT) && (p.lo % align || len % align)) {
			flags &= ~O_DIRECT;
			(void)fcntl(fd, F_SETFL, flags);
		}
		if (transfer_write(&run->transfer, fd, v->hold.data + (p.lo - v->start),
				   len, (int64_t)p.lo) != len) {
			bb_perror_msg("verify: writing the first block of %s",
				      quote_always(run->out.name));
			return false;
		}
		v->held_written = true;
	}
	if (((run->opt->conv & CONV_FSYNC) ? fsync(fd) : fdatasync(fd)) != 0) {
		bb_perror_msg("verify: syncing the first block of %s",
			      quote_always(run->out.name));
		return false;
	}
	return true;
}
