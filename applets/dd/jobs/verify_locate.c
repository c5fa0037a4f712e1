/*
 * verify_locate.c - the first differing byte of a chunk whose hash
 * differs.  Only a hash of each chunk is kept, so the byte is found by
 * reading the chunk again, from the output and from the input, where the
 * input can be read again (a file or a block device, not a pipe).  The
 * input's bytes must hash as the chunk did when it was written: if they
 * don't, the input is not what was written (it changed, or a conversion
 * made other bytes), and no byte is claimed.
 */
#include <unistd.h>

#include "verify.h"

/* The input's bytes that went to output offset at. */
static bool read_input(struct dd_run *run, unsigned char *buf, size_t len,
		       uint64_t at)
{
	struct dd_verify_state *v = run->verify;

	return read_fully(run, run->in.fd, buf, len,
			  v->in_start + (at - v->start)) == 0;
}

/* Walk the chunk's extents, output and input side by side; the first
 * differing byte, or UINT64_MAX. */
static uint64_t compare_chunk(struct dd_run *run, int fd, struct lazy_buffer *buf,
			      struct chunk_hasher *h)
{
	struct dd_verify_state *v = run->verify;
	size_t half = buf->capacity / 2;
	unsigned char *out = buf->data, *in = buf->data + half;
	uint64_t first = UINT64_MAX;
	struct walk w;
	struct piece p;

	walk_start(&w, v->source, v->first_chunk, v->first_chunk + CHUNK_SIZE,
		   v->direct_refused ? 1 : direct_alignment(run), half);
	while (next_piece(&w, &p)) {
		size_t len = (size_t)(p.hi - p.lo), i;
		const unsigned char *got = out + (p.lo - p.read_at);

		if (read_fully(run, fd, out, p.read_len, p.read_at) != 0)
			return UINT64_MAX;
		if (p.zeros) {
			i = first_nonzero(got, len);
		} else {
			if (!read_input(run, in, len, p.lo))
				return UINT64_MAX;
			hasher_update(h, in, len);
			i = first_difference(got, in, len);
		}
		if (i < len && first == UINT64_MAX)
			first = p.lo + i;
	}
	return first;
}

void locate_first_byte(struct dd_run *run, struct lazy_buffer *buf)
{
	struct dd_verify_state *v = run->verify;
	struct chunk_hasher h;
	uint64_t first;
	int fd;

	if (!run->in.size_known || v->first_byte != UINT64_MAX)
		return;
	fd = open_for_reading(run);
	if (fd < 0)
		return;
	hasher_reset(&h);
	first = compare_chunk(run, fd, buf, &h);
	close(fd);
	if (!h.length || hasher_final(&h) == stored_hash(v, chunk_of(v, v->first_chunk)))
		v->first_byte = first;
}
