/*
 * xz_block.c - one block of a .xz stream (xz-file-format.txt 3): its
 * header (sizes, the filter chain), its LZMA2 data, the filters and the
 * check on the way out, and the padding and check field after it.
 *
 * Output leaves in steps of LZMA2_STEP (256 KiB), so that a reader at
 * the other end of a pipe works while we decode, but a block's last
 * 1 MiB (64 KiB when filtered) waits until its check has matched: a
 * small corrupt block prints nothing, a large one nothing of its end.
 */
#include <string.h>

#include "xz.h"

/* Any filter before LZMA2 in this build: without one, their path out
 * (fbuf, the stages) is compiled out. */
#define XZ_FILTERS (ENABLE_FEATURE_XZ_X86 || ENABLE_FEATURE_XZ_ARM \
		    || ENABLE_FEATURE_XZ_ARMTHUMB || ENABLE_FEATURE_XZ_ARM64 \
		    || ENABLE_FEATURE_XZ_DELTA)

enum {
	BLOCK_HEADER_MAX = 1024,
	FILTERS_MAX = 4,
	FBUF_SIZE = 64 << 10,   /* filtered output: bytes held at a time */
	HOLD_BYTES = 1 << 20,   /* the last output of a block, held for its check */
};

union check_sum {
	uint32_t crc32;
	uint64_t crc64;
	struct sha_ctx sha;
};

struct block {
	size_t header_size;
	uint64_t compressed, uncompressed;      /* UINT64_MAX: not stored */
	uint32_t dict_size;
	unsigned stages;                        /* filters before LZMA2 */
	struct xz_filter stage[FILTERS_MAX - 1];        /* in decoding order */
	size_t stage_done[FILTERS_MAX - 1];     /* fbuf bytes each has finished */
	size_t fill;                            /* bytes in fbuf */
	union check_sum sum;
	const unsigned char *held;              /* output waiting for the check */
	size_t held_len;
};

/* The filters xz knows: the name its messages give, whether this build
 * has it (1), has its switch FEATURE_XZ_<NAME> off (0), or zerobox has
 * none (-1), and the alignment of a branch filter's start offset. */
static const struct {
	unsigned char id, align;
	signed char built;
	char name[9];
} known_filters[] = {
	{ XZ_FILTER_DELTA, 1, ENABLE_FEATURE_XZ_DELTA, "delta" },
	{ XZ_FILTER_X86, 1, ENABLE_FEATURE_XZ_X86, "x86" },
	{ XZ_FILTER_POWERPC, 4, -1, "powerpc" },
	{ XZ_FILTER_IA64, 16, -1, "ia64" },
	{ XZ_FILTER_ARM, 4, ENABLE_FEATURE_XZ_ARM, "arm" },
	{ XZ_FILTER_ARMTHUMB, 2, ENABLE_FEATURE_XZ_ARMTHUMB, "armthumb" },
	{ XZ_FILTER_SPARC, 4, -1, "sparc" },
	{ XZ_FILTER_ARM64, 4, ENABLE_FEATURE_XZ_ARM64, "arm64" },
};

/* The bytes of each check ID's field. */
static size_t xz_check_size(unsigned check)
{
	return check ? (size_t)4 << (check - 1) / 3 : 0;
}

size_t xz_get_vli(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	size_t n = 0;

	*v = 0;
	do {
		if (n == 9 || p + n >= end || (n && p[n] == 0))
			return 0;
		*v |= (uint64_t)(p[n] & 0x7F) << (7 * n);
	} while (p[n++] & 0x80);
	return n;
}

void xz_index_sum_add(struct xz_index_sum *s, uint64_t unpadded, uint64_t uncompressed)
{
	/* In the machine's byte order: both sums are made here, and only
	 * compared with each other. */
	const uint64_t pair[2] = { unpadded, uncompressed };

	s->hash = crc32_update(s->hash, pair, sizeof(pair));
	s->count++;
	s->unpadded += unpadded;
	s->uncompressed += uncompressed;
}

/* ---- the header --------------------------------------------------- */

/* A non-last filter's properties, and whether this build has it. */
static enum xz_status set_stage(struct xz_dec *x, struct xz_filter *f, uint64_t id,
				const unsigned char *props, uint64_t size)
{
	unsigned i = 0;

	while (i < ARRAY_SIZE(known_filters) && known_filters[i].id != id)
		i++;
	if (i == ARRAY_SIZE(known_filters))
		return XZ_UNSUPPORTED;
	if (id == XZ_FILTER_DELTA ? size != 1 : size != 0 && size != 4)
		return XZ_UNSUPPORTED;
	if (size == 4 && get_le32(props) % known_filters[i].align)
		return XZ_UNSUPPORTED;
	if (known_filters[i].built != 1) {
		x->absent = known_filters[i].name;
		x->absent_switched_off = known_filters[i].built == 0;
		return XZ_UNSUPPORTED;
	}
	memset(f, 0, sizeof(*f));
	f->id = (unsigned)id;
	if (id == XZ_FILTER_DELTA)
		f->dist = props[0] + 1u;
	else if (size == 4)
		f->pos = get_le32(props);
	return XZ_OK;
}

/* LZMA2's properties: the dictionary size. */
static enum xz_status set_lzma2(struct block *b, const unsigned char *props, uint64_t size)
{
	unsigned bits = props[0];

	if (size != 1 || bits > 40)
		return XZ_UNSUPPORTED;
	b->dict_size = bits == 40 ? UINT32_MAX : (2u | (bits & 1)) << (bits / 2 + 11);
	return XZ_OK;
}

/* The list of filter flags, h[at, end): the chain ends with LZMA2, and
 * only there. */
static enum xz_status parse_filters(struct xz_dec *x, struct block *b, unsigned count,
				    const unsigned char *p, const unsigned char *end)
{
	for (unsigned i = 0; i < count; i++) {
		uint64_t id, size;
		size_t n = xz_get_vli(p, end, &id);
		enum xz_status st;

		/* IDs from 2^62 are reserved for a program's internal use. */
		if (!n || id >= UINT64_C(1) << 62)
			return XZ_CORRUPT;
		p += n;
		n = xz_get_vli(p, end, &size);
		if (!n || size > (uint64_t)(end - p - n))
			return XZ_CORRUPT;
		p += n;
		if (id == XZ_FILTER_LZMA2 && i == count - 1)
			st = set_lzma2(b, p, size);
		else if (id == XZ_FILTER_LZMA2 || i == count - 1)
			st = XZ_UNSUPPORTED;
		else
			st = set_stage(x, &b->stage[count - 2 - i], id, p, size);
		if (st != XZ_OK)
			return st;
		p += size;
	}
	b->stages = XZ_FILTERS ? count - 1 : 0;
	/* Header Padding: zeros, or a field this decoder does not know. */
	return bb_is_all_zero(p, (size_t)(end - p)) ? XZ_OK : XZ_UNSUPPORTED;
}

/* The whole header h (its size from h[0]), CRC32 first. */
static enum xz_status parse_header(struct xz_dec *x, struct block *b, const unsigned char *h)
{
	size_t size = ((size_t)h[0] + 1) * 4;
	const unsigned char *p = h + 2, *end = h + size - 4;
	unsigned flags = h[1];
	size_t n;

	if (crc32_update(0, h, size - 4) != get_le32(end))
		return XZ_CORRUPT;
	if (flags & 0x3C)
		return XZ_UNSUPPORTED;
	b->header_size = size;
	b->compressed = b->uncompressed = UINT64_MAX;
	if (flags & 0x40) {
		if (!(n = xz_get_vli(p, end, &b->compressed)) || b->compressed == 0
		    || b->compressed > XZ_UNPADDED_MAX - size - xz_check_size(x->check))
			return XZ_CORRUPT;
		p += n;
	}
	if (flags & 0x80) {
		if (!(n = xz_get_vli(p, end, &b->uncompressed)))
			return XZ_CORRUPT;
		p += n;
	}
	return parse_filters(x, b, (flags & 3) + 1, p, end);
}

/* ---- the way out ---------------------------------------------------- */

static void check_init(unsigned check, union check_sum *sum)
{
	memset(sum, 0, sizeof(*sum));
	if (check == 10)
		sha256_init(&sum->sha);
}

static void check_update(unsigned check, union check_sum *sum, const void *p, size_t n)
{
	if (check == 1)
		sum->crc32 = crc32_update(sum->crc32, p, n);
	else if (check == 4)
		sum->crc64 = crc64_update(sum->crc64, p, n);
	else if (check == 10)
		sha_update(&sum->sha, p, n);
}

/* Does the check field match?  (An unsupported check always does.) */
static bool check_matches(unsigned check, union check_sum *sum, const unsigned char *field)
{
	unsigned char mine[SHA256_DIGEST_SIZE];
	uint64_t v = check == 1 ? sum->crc32 : sum->crc64;

	if (check != 1 && check != 4 && check != 10)
		return true;
	if (check == 10) {
		sha_final(&sum->sha, mine);
	} else {
		for (size_t i = 0; i < 8; i++)
			mine[i] = (unsigned char)(v >> (8 * i));
	}
	return memcmp(mine, field, xz_check_size(check)) == 0;
}

static enum xz_status write_out(struct xz_dec *x, const void *p, size_t n)
{
	return n && unpack_write(x->io, p, n) != 0 ? XZ_WRITE_FAILED : XZ_OK;
}

/* Through the filters, in decoding order; at the block's end all bytes
 * are final.  Returns how many bytes at fbuf's start are final. */
static size_t run_stages(struct block *b, unsigned char *fbuf, bool end)
{
	size_t avail = b->fill;

	for (unsigned s = 0; s < b->stages; s++) {
		struct xz_filter *f = &b->stage[s];
		size_t from = b->stage_done[s];

		if (f->id == XZ_FILTER_DELTA)
			b->stage_done[s] += delta_filter(f, fbuf + from, avail - from);
		else
			b->stage_done[s] += bcj_filter(f, fbuf + from, avail - from);
		if (end)
			b->stage_done[s] = avail;
		avail = b->stage_done[s];
	}
	return avail;
}

/* Filtered output: through fbuf, where the block's last bytes wait for
 * its check (b->held). */
static enum xz_status pass_filtered(struct xz_dec *x, struct block *b,
				   const unsigned char *p, size_t n, bool last)
{
	unsigned char *fbuf = x->fbuf.data;

	for (;;) {
		size_t k = n < FBUF_SIZE - b->fill ? n : FBUF_SIZE - b->fill;
		size_t ready;

		memcpy(fbuf + b->fill, p, k);
		b->fill += k;
		p += k;
		n -= k;
		ready = run_stages(b, fbuf, last && !n);
		if (!n)
			break;
		/* fbuf is full: the finished bytes go, the rest moves up. */
		check_update(x->check, &b->sum, fbuf, ready);
		if (write_out(x, fbuf, ready) != XZ_OK)
			return XZ_WRITE_FAILED;
		memmove(fbuf, fbuf + ready, b->fill - ready);
		b->fill -= ready;
		for (unsigned s = 0; s < b->stages; s++)
			b->stage_done[s] -= ready;
	}
	if (last) {
		check_update(x->check, &b->sum, fbuf, b->fill);
		b->held = fbuf;
		b->held_len = b->fill;
	}
	return XZ_OK;
}

/* What the last lzma2_decode gave: the check sees it at once (while it
 * is in the cache); it is written once HOLD_BYTES newer ones follow, or
 * when the window wants it back.  The last bytes wait for the check
 * (b->held). */
static enum xz_status take_output(struct xz_dec *x, struct block *b, bool last)
{
	struct lzma2_dec *l = &x->lzma2;
	struct lz_window *w = &l->win;
	const unsigned char *data = w->buf.data;
	size_t from = w->done, upto;
	enum xz_status st = XZ_OK;

	if (!data)
		return XZ_OK;   /* nothing yet, not even a window */
	w->done = w->pos;
	if (XZ_FILTERS && b->stages) {
		w->kept = w->pos;
		return pass_filtered(x, b, data + from, w->pos - from, last);
	}
	check_update(x->check, &b->sum, data + from, w->pos - from);
	if (last) {
		b->held = data + w->kept;
		b->held_len = w->pos - w->kept;
		return XZ_OK;
	}
	upto = l->release ? w->pos : w->pos - w->kept > HOLD_BYTES ? w->pos - HOLD_BYTES : w->kept;
	if (upto - w->kept >= (l->release ? 1 : LZMA2_STEP)) {
		st = write_out(x, data + w->kept, upto - w->kept);
		w->kept = upto;
	}
	return st;
}

/* ---- the block ----------------------------------------------------- */

/* The LZMA2 data, through to its end, with the memory it may take. */
static enum xz_status decode_data(struct xz_dec *x, struct block *b, uint64_t *used)
{
	struct lzma2_dec *l = &x->lzma2;
	uint64_t fixed = sizeof(*l->lzma) + (64 << 10) + LZMA_IN_SLACK
		+ (XZ_FILTERS && b->stages ? FBUF_SIZE : 0);
	uint64_t limit = x->io->mem_limit;
	enum xz_status st;

	x->mem_needed = fixed + lzma2_window_size(b->dict_size);
	if (limit <= fixed)
		return XZ_MEMLIMIT;
	if (!l->lzma && lzma2_init(l) != XZ_OK)
		return XZ_NO_MEMORY;
	if (XZ_FILTERS && b->stages && !x->fbuf.data && lazy_buffer_alloc(&x->fbuf, FBUF_SIZE))
		return XZ_NO_MEMORY;
	lzma2_start(l, b->dict_size, b->compressed, b->uncompressed, limit - fixed);
	do {
		st = lzma2_decode(l, x->io);
		if (st == XZ_OK)
			st = take_output(x, b, l->at == L2_END);
	} while (st == XZ_OK && l->at != L2_END);
	*used = b->compressed - l->in_left;
	return st;
}

enum xz_status xz_decode_block(struct xz_dec *x, unsigned size_byte)
{
	unsigned char h[BLOCK_HEADER_MAX], field[64];
	struct block b;
	size_t size = ((size_t)size_byte + 1) * 4, check_size = xz_check_size(x->check);
	uint64_t used, out;
	enum xz_status st;

	h[0] = (unsigned char)size_byte;
	if (unpack_read(x->io, h + 1, size - 1) < size - 1)
		return XZ_TRUNCATED;
	memset(&b, 0, sizeof(b));
	st = parse_header(x, &b, h);
	if (st != XZ_OK)
		return st;
	check_init(x->check, &b.sum);
	st = decode_data(x, &b, &used);
	if (st != XZ_OK)
		return st;
	out = b.uncompressed - x->lzma2.out_left;
	if ((b.compressed != UINT64_MAX && used != b.compressed)
	    || (b.uncompressed != UINT64_MAX && out != b.uncompressed))
		return XZ_CORRUPT;
	/* Block Padding, then the Check. */
	for (uint64_t pad = used; pad % 4; pad++) {
		int c = unpack_next_byte(x->io);

		if (c != 0)
			return c < 0 ? XZ_TRUNCATED : XZ_CORRUPT;
	}
	if (unpack_read(x->io, field, check_size) < check_size)
		return XZ_TRUNCATED;
	if (!check_matches(x->check, &b.sum, field))
		return XZ_CORRUPT;
	st = write_out(x, b.held, b.held_len);
	xz_index_sum_add(&x->blocks, size + used + check_size, out);
	return st;
}
