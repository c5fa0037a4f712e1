/*
 * lzma2_dec.c - LZMA2: a sequence of chunks, each stored bytes or LZMA
 * data, with a header that gives its sizes and what it resets (the
 * dictionary, LZMA's state, its properties); a zero byte ends it.  And
 * the dictionary window all chunks write into (xz.h): it starts small
 * and grows with the output up to the dictionary size, so a stream
 * that declares a large dictionary costs what it decodes.
 *
 * An LZMA chunk (at most 64 KiB compressed) is decoded from one piece
 * of memory: straight from the front end's buffer when it holds the
 * chunk whole, else gathered into a buffer of our own first.  So the
 * range coder never waits for input inside a symbol, and input may
 * arrive in pieces of any size.
 */
#include <string.h>
#include <unistd.h>

#include "xz.h"

enum {
	CHUNK_IN_MAX = 1 << 16,         /* an LZMA chunk's compressed bytes */
	WINDOW_MIN = 64 << 10,          /* writes of at least this */
	WINDOW_FIRST = 256 << 10,       /* the first capacity, then doubled */
};

/* LZMA2's control bytes. */
enum {
	CONTROL_END = 0x00,
	CONTROL_STORED_RESET = 0x01,    /* stored bytes, dictionary reset */
	CONTROL_STORED = 0x02,
	CONTROL_LZMA = 0x80,            /* bits 5-6: what it resets (below) */
	RESET_STATE = 1,
	RESET_PROPS = 2,                /* a properties byte follows */
	RESET_DICT = 3,
};

/* A byte that ends the stream where the block lets it go on: truncated
 * input, or a stream longer than the block says (-2). */
static int take_byte(struct lzma2_dec *d, struct unpack_io *io)
{
	if (d->in_left == 0)
		return -2;
	d->in_left--;
	return unpack_next_byte(io);
}

static enum xz_status take_fail(int c)
{
	return c == -2 ? XZ_CORRUPT : XZ_TRUNCATED;
}

/* More input wanted than there is: the block's end, or the input's.
 * Past the chunk's own end, xz reads on into what follows (and calls
 * that corrupt) as long as there is something to read. */
static bool input_follows(struct lzma2_dec *d, struct unpack_io *io)
{
	return d->in_left == 0 || io->in_next < io->in_end || unpack_fill(io);
}

/* The chunk needed input past what it has. */
static enum xz_status overrun(struct lzma2_dec *d, struct unpack_io *io)
{
	if (d->short_in != XZ_OK)
		return d->short_in;
	return input_follows(d, io) ? XZ_CORRUPT : XZ_TRUNCATED;
}

/* The block's uncompressed size is reached, but the stream goes on:
 * corrupt, unless the input ends here, which xz reports first (it waits
 * for more input before it looks at the sizes). */
static enum xz_status output_full(struct lzma2_dec *d, struct unpack_io *io)
{
	if (d->at == L2_LZMA && d->in.next < d->in.end)
		return XZ_CORRUPT;
	if (d->at == L2_LZMA && d->short_in != XZ_OK)
		return d->short_in;
	return input_follows(d, io) ? XZ_CORRUPT : XZ_TRUNCATED;
}

size_t lzma2_window_size(uint32_t dict_size)
{
	uint64_t need = (dict_size > WINDOW_MIN ? dict_size : WINDOW_MIN)
		+ (uint64_t)LZ_OVERRUN + LZ_SLACK;
	size_t size = page_round_up(need);

	/* Past the address space (a 4 GiB dictionary on 32 bits): as much
	 * as there is, which the growth then fails to reach. */
	return size ? size : SIZE_MAX - (size_t)getpagesize() + 1;
}

enum xz_status lzma2_init(struct lzma2_dec *d)
{
	d->lzma = try_malloc(sizeof(*d->lzma));
	return d->lzma ? XZ_OK : XZ_NO_MEMORY;
}

void lzma2_free(struct lzma2_dec *d)
{
	free_mapped(d->lzma);
	d->lzma = NULL;
	lazy_buffer_free(&d->win.buf);
	lazy_buffer_free(&d->gather);
}

void lzma2_start(struct lzma2_dec *d, uint32_t dict_size, uint64_t in_max,
		 uint64_t out_max, uint64_t mem_max)
{
	d->win.pos = d->win.done = d->win.kept = 0;
	d->win.size = d->win.buf.capacity ? d->win.buf.capacity - LZ_SLACK : 0;
	d->win.wrapped = false;
	d->win.dict_size = dict_size;
	d->win.max = lzma2_window_size(dict_size);
	d->at = L2_CONTROL;
	d->need_dict_reset = d->need_props = true;
	d->reset_dict = false;
	d->in_left = in_max;
	d->out_left = out_max;
	d->mem_left = mem_max;
}

/*
 * Room at the window's pos: grow it (doubling, up to its dictionary
 * size and what -M leaves), or wrap round once the caller let go of
 * everything in it.  Sets *flush when output must be handed on first.
 */
static enum xz_status make_room(struct lzma2_dec *d, bool *flush)
{
	struct lz_window *w = &d->win;
	size_t cap = w->buf.capacity;

	*flush = false;
	if (w->pos < w->size)
		return XZ_OK;
	if (cap < w->max) {
		uint64_t want = cap ? (uint64_t)cap * 2 : WINDOW_FIRST;

		want = min_u64(min_u64(want, w->max), d->mem_left);
		if (want <= cap)
			return XZ_MEMLIMIT;
		if (lazy_buffer_grow(&w->buf, want) != 0)
			return XZ_NO_MEMORY;
		w->size = w->buf.capacity - LZ_SLACK;
		return XZ_OK;
	}
	if (w->kept < w->pos) {
		*flush = true;
		return XZ_OK;
	}
	w->pos = w->done = w->kept = 0;
	w->wrapped = true;
	return XZ_OK;
}

/* The dictionary reset a chunk asked for, once its output was handed on. */
static bool reset_dict(struct lzma2_dec *d)
{
	if (!d->reset_dict)
		return true;
	if (d->win.kept < d->win.pos)
		return false;
	d->win.pos = d->win.done = d->win.kept = 0;
	d->win.wrapped = false;
	d->reset_dict = false;
	return true;
}

/* The compressed bytes of an LZMA chunk: in place, or gathered. */
static enum xz_status take_chunk(struct lzma2_dec *d, struct unpack_io *io, size_t size)
{
	size_t avail = (size_t)min_u64(size, d->in_left);
	const unsigned char *at;

	/* Short of the chunk's end: the block ends inside it, or the input. */
	d->short_in = avail < size ? XZ_CORRUPT : XZ_OK;
	if ((size_t)(io->in_end - io->in_next) >= avail + LZMA_IN_SLACK) {
		at = io->in_next;
		io->in_next += avail;
	} else {
		size_t got;

		if (!d->gather.data && lazy_buffer_alloc(&d->gather, CHUNK_IN_MAX + LZMA_IN_SLACK))
			return XZ_NO_MEMORY;
		got = unpack_read(io, d->gather.data, avail);
		if (got < avail) {
			d->short_in = XZ_TRUNCATED;
			avail = got;
		}
		memset(d->gather.data + avail, 0, LZMA_IN_SLACK);
		at = d->gather.data;
	}
	d->in_left -= avail;
	d->in.next = at;
	d->in.end = at + avail;
	return XZ_OK;
}

/* A control byte and the rest of its chunk's header: the sizes (a
 * stored chunk has only its own), and the properties when it resets
 * them. */
static enum xz_status read_chunk_header(struct lzma2_dec *d, struct unpack_io *io)
{
	int c = take_byte(d, io);
	unsigned reset = (unsigned)c >> 5 & 3, b[5], n = 2;
	enum xz_status st;

	if (c < 0)
		return take_fail(c);
	if (c == CONTROL_END) {
		d->at = L2_END;
		return XZ_OK;
	}
	if (c == CONTROL_STORED_RESET || c >= (CONTROL_LZMA | RESET_DICT << 5)) {
		/* xz stops at a dictionary reset to make it; past the block's
		 * uncompressed size, input waiting then is corrupt. */
		if (d->out_left == 0 && input_follows(d, io))
			return XZ_CORRUPT;
		d->reset_dict = true;
		d->need_dict_reset = false;
		d->need_props = true;
	} else if (d->need_dict_reset || (c > CONTROL_STORED && c < CONTROL_LZMA)) {
		return XZ_CORRUPT;
	}
	if (c >= CONTROL_LZMA) {
		n = reset >= RESET_PROPS ? 5 : 4;
		if (reset >= RESET_PROPS)
			d->need_props = false;
		else if (d->need_props)
			return XZ_CORRUPT;
	}
	for (unsigned i = 0; i < n; i++) {
		int byte = take_byte(d, io);

		if (byte < 0)
			return take_fail(byte);
		b[i] = (unsigned)byte;
	}
	if (c < CONTROL_LZMA) {
		d->chunk_left = (b[0] << 8 | b[1]) + 1;
		d->at = L2_COPY;
		return XZ_OK;
	}
	if (n == 5 && !lzma_set_props(d->lzma, b[4]))
		return XZ_CORRUPT;
	d->chunk_left = (((unsigned)c & 0x1F) << 16 | b[0] << 8 | b[1]) + 1;
	st = take_chunk(d, io, (b[2] << 8 | b[3]) + 1);
	if (st != XZ_OK)
		return st;
	if (reset >= RESET_STATE)
		lzma_reset_state(d->lzma);
	d->chunk_started = false;
	d->at = L2_LZMA;
	return XZ_OK;
}

/* Stored bytes into the window, as far as it has room. */
static enum xz_status copy_stored(struct lzma2_dec *d, struct unpack_io *io)
{
	struct lz_window *w = &d->win;
	size_t n = (size_t)min_u64(min_u64(d->chunk_left, w->size - w->pos),
				   min_u64(d->in_left, d->out_left));
	size_t got;

	if (d->in_left == 0)
		return XZ_CORRUPT;      /* the block ends inside the chunk */
	if (d->out_left == 0)
		return output_full(d, io);
	got = unpack_read(io, w->buf.data + w->pos, n);
	w->pos += got;
	d->chunk_left -= (uint32_t)got;
	d->in_left -= got;
	d->out_left -= got;
	if (got < n)
		return XZ_TRUNCATED;
	if (d->chunk_left == 0)
		d->at = L2_CONTROL;
	return XZ_OK;
}

/* The end of an LZMA chunk: the range coder ends at its last byte. */
static enum xz_status finish_lzma_chunk(struct lzma2_dec *d, struct unpack_io *io)
{
	bool exact = lzma_chunk_finished(d->lzma, &d->in);

	if (d->in.next > d->in.end)
		return overrun(d, io);
	if (!exact || d->short_in != XZ_OK)
		return XZ_CORRUPT;
	d->at = L2_CONTROL;
	return XZ_OK;
}

/* LZMA symbols into the window, as far as it has room. */
static enum xz_status run_lzma(struct lzma2_dec *d, struct unpack_io *io)
{
	struct lz_window *w = &d->win;
	size_t start = w->pos;
	uint64_t left = min_u64(min_u64(d->chunk_left, d->out_left),
				w->done + LZMA2_STEP - start);
	size_t end = w->size - start < left ? w->size : start + (size_t)left;
	enum lzma_result res;

	if (!d->chunk_started) {
		d->chunk_started = true;
		if (!lzma_start_chunk(d->lzma, &d->in))
			return XZ_CORRUPT;
	}
	res = lzma_decode(d->lzma, w, end, &d->in);
	d->chunk_left -= (uint32_t)(w->pos - start);
	d->out_left -= w->pos - start;
	if (res == LZMA_OVERRUN)
		return overrun(d, io);
	if (res == LZMA_BAD)
		return XZ_CORRUPT;
	if (d->chunk_left == 0)
		return res == LZMA_CUT ? XZ_CORRUPT : finish_lzma_chunk(d, io);
	if (d->out_left == 0)
		return output_full(d, io);
	return XZ_OK;
}

enum xz_status lzma2_decode(struct lzma2_dec *d, struct unpack_io *io)
{
	struct lz_window *w = &d->win;
	enum xz_status st = XZ_OK;

	d->release = false;
	while (st == XZ_OK && d->at != L2_END && w->pos - w->done < LZMA2_STEP) {
		if (d->at == L2_CONTROL) {
			st = read_chunk_header(d, io);
			continue;
		}
		if (!reset_dict(d)) {
			d->release = true;
			break;
		}
		st = make_room(d, &d->release);
		if (st != XZ_OK || d->release)
			break;
		st = d->at == L2_LZMA ? run_lzma(d, io) : copy_stored(d, io);
	}
	return st;
}
