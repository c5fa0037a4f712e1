/*
 * xz_dec.c - the .xz container (xz-file-format.txt): a file is streams,
 * each a header, blocks (xz_block.c), an index listing the blocks and a
 * footer, with zero padding between and after them.  Messages and exit
 * status are xz's (5.4): the same words for the same faults, found in
 * the same order.
 */
#include <string.h>

#include "xz.h"

enum { STREAM_HEADER_SIZE = 12, UNPADDED_MIN = 5 };

static const unsigned char header_magic[6] = { 0xFD, '7', 'z', 'X', 'Z', 0x00 };

/* Would xz take these 13 bytes for a .lzma (LZMA_Alone) header?  Its
 * test: valid properties, a dictionary size of 2^n or 2^n + 2^(n-1)
 * (or 2^32 - 1), and a size unknown or below 256 GiB. */
static bool looks_like_lzma(const unsigned char *h)
{
	uint32_t dict = get_le32(h + 1), low = dict & (0 - dict), rest = dict - low;
	uint64_t size = 0;

	for (int i = 12; i >= 5; i--)
		size = size << 8 | h[i];
	if (h[0] > (4 * 5 + 4) * 9 + 8)
		return false;
	if (dict != UINT32_MAX && (dict == 0 || (rest && rest != low << 1)))
		return false;
	return size == UINT64_MAX || size < (UINT64_C(1) << 38);
}

/* ---- stream header, index, footer ----------------------------------- */

static enum xz_status stream_header(struct xz_dec *x, const unsigned char *h)
{
	if (crc32_update(0, h + 6, 2) != get_le32(h + 8))
		return XZ_CORRUPT;
	if (h[6] || (h[7] & 0xF0))
		return XZ_UNSUPPORTED;
	x->check = h[7];
	if (x->check != 0 && x->check != 1 && x->check != 4 && x->check != 10) {
		unpack_warn(x->io, "Unsupported type of integrity check; "
			    "not verifying file integrity");
		x->warned = true;
	}
	memset(&x->blocks, 0, sizeof(x->blocks));
	return XZ_OK;
}

struct index_reader {
	uint32_t crc;           /* of the index so far */
	uint64_t size;
};

static enum xz_status index_byte(struct xz_dec *x, struct index_reader *r, unsigned *byte)
{
	int c = unpack_next_byte(x->io);
	unsigned char b = (unsigned char)c;

	if (c < 0)
		return XZ_TRUNCATED;
	r->crc = crc32_update(r->crc, &b, 1);
	r->size++;
	*byte = b;
	return XZ_OK;
}

/* A variable-length integer of the index: its bytes up to the one
 * without the continuation bit (at most 9), then as in a block header. */
static enum xz_status index_vli(struct xz_dec *x, struct index_reader *r, uint64_t *v)
{
	unsigned char b[9];
	size_t n = 0;

	do {
		unsigned c;
		enum xz_status st;

		if (n == sizeof(b))
			return XZ_CORRUPT;
		st = index_byte(x, r, &c);
		if (st != XZ_OK)
			return st;
		b[n] = (unsigned char)c;
	} while (b[n++] & 0x80);
	return xz_get_vli(b, b + n, v) ? XZ_OK : XZ_CORRUPT;
}

/* The index (its indicator byte read): the records must be the blocks
 * just decoded.  *size: its size, for the footer. */
static enum xz_status decode_index(struct xz_dec *x, uint64_t *size)
{
	struct index_reader r = { crc32_update(0, "", 1), 1 };
	struct xz_index_sum listed = { 0 };
	uint64_t count, unpadded, uncompressed;
	enum xz_status st = index_vli(x, &r, &count);

	if (st == XZ_OK && count != x->blocks.count)
		st = XZ_CORRUPT;
	for (uint64_t i = 0; st == XZ_OK && i < count; i++) {
		st = index_vli(x, &r, &unpadded);
		if (st == XZ_OK && (unpadded < UNPADDED_MIN || unpadded > XZ_UNPADDED_MAX))
			st = XZ_CORRUPT;
		if (st == XZ_OK)
			st = index_vli(x, &r, &uncompressed);
		if (st == XZ_OK)
			xz_index_sum_add(&listed, unpadded, uncompressed);
	}
	while (st == XZ_OK && r.size % 4) {
		unsigned c;

		st = index_byte(x, &r, &c);
		if (st == XZ_OK && c)
			st = XZ_CORRUPT;
	}
	/* Then, as xz finds things: with the CRC32's first byte there, the
	 * records against the blocks; the CRC32 a byte at a time. */
	for (int i = 0; st == XZ_OK && i < 4; i++) {
		int c = unpack_next_byte(x->io);

		if (c < 0)
			st = XZ_TRUNCATED;
		else if ((i == 0 && memcmp(&listed, &x->blocks, XZ_INDEX_SUM_BYTES) != 0)
			 || c != (int)(r.crc >> (8 * i) & 0xff))
			st = XZ_CORRUPT;
	}
	*size = r.size + 4;
	return st;
}

static enum xz_status stream_footer(struct xz_dec *x, const unsigned char *header,
				    uint64_t index_size)
{
	unsigned char f[12];

	if (unpack_read(x->io, f, sizeof(f)) < sizeof(f))
		return XZ_TRUNCATED;
	if (f[10] != 'Y' || f[11] != 'Z' || crc32_update(0, f + 4, 6) != get_le32(f))
		return XZ_CORRUPT;
	if (f[8] || (f[9] & 0xF0))
		return XZ_UNSUPPORTED;
	if (((uint64_t)get_le32(f + 4) + 1) * 4 != index_size
	    || memcmp(f + 8, header + 6, 2) != 0)
		return XZ_CORRUPT;
	return XZ_OK;
}

/* ---- streams -------------------------------------------------------- */

/* One stream, after its header h. */
static enum xz_status decode_stream(struct xz_dec *x, const unsigned char *h)
{
	enum xz_status st = stream_header(x, h);
	uint64_t index_size;

	while (st == XZ_OK) {
		int c = unpack_next_byte(x->io);

		if (c < 0)
			return XZ_TRUNCATED;
		if (c == 0)
			break;          /* the Index Indicator */
		st = xz_decode_block(x, (unsigned)c);
	}
	if (st == XZ_OK)
		st = decode_index(x, &index_size);
	return st == XZ_OK ? stream_footer(x, h, index_size) : st;
}

/* Stream Padding (zeros, in fours), then the next stream's header into
 * h, or the end of the file (*more false). */
static enum xz_status next_stream(struct xz_dec *x, unsigned char *h, bool *more)
{
	uint64_t zeros = 0;
	int c;

	while ((c = unpack_next_byte(x->io)) == 0)
		zeros++;
	*more = c > 0;
	if (c < 0 && unpack_read_failed(x->io))
		return XZ_TRUNCATED;
	if (zeros % 4)
		return XZ_CORRUPT;
	if (c < 0)
		return XZ_OK;
	h[0] = (unsigned char)c;
	if (unpack_read(x->io, h + 1, STREAM_HEADER_SIZE - 1) < STREAM_HEADER_SIZE - 1)
		return XZ_TRUNCATED;
	return memcmp(h, header_magic, sizeof(header_magic)) ? XZ_CORRUPT : XZ_OK;
}

static enum xz_status decode_file(struct xz_dec *x)
{
	unsigned char h[STREAM_HEADER_SIZE + 1];
	size_t n = unpack_read(x->io, h, STREAM_HEADER_SIZE);
	enum xz_status st;
	bool more = true;

	if (n < sizeof(header_magic) || memcmp(h, header_magic, sizeof(header_magic)) != 0) {
		if (n == STREAM_HEADER_SIZE)
			n += unpack_read(x->io, h + n, 1);
		if (n > STREAM_HEADER_SIZE && looks_like_lzma(h))
			return XZ_LZMA_ALONE;
		if (unpack_read_failed(x->io))
			return XZ_TRUNCATED;
		/* -cf: not .xz, so as it is, as xz -cdf does (a failure
		 * there was reported); xz -tf still refuses it. */
		if (!x->io->copy_unknown || x->io->to_null)
			return XZ_NOT_XZ;
		if (unpack_write(x->io, h, n) != 0 || unpack_copy_rest(x->io) != UNPACK_OK)
			return XZ_WRITE_FAILED;
		return XZ_OK;
	}
	if (n < STREAM_HEADER_SIZE)
		return XZ_TRUNCATED;
	do {
		st = decode_stream(x, h);
		if (st == XZ_OK)
			st = next_stream(x, h, &more);
	} while (st == XZ_OK && more);
	return st;
}

/* ---- messages ------------------------------------------------------- */

static uint64_t mib_rounded_up(uint64_t n)
{
	return (n >> 20) + ((n & ((1u << 20) - 1)) != 0);
}

/* Says why the decode ended in st (not XZ_OK), in xz's words; nothing
 * for a read or write error, which was reported where it happened. */
static void report_failure(struct xz_dec *x, enum xz_status st)
{
	static const char *const words[] = {
		[XZ_CORRUPT] = "Compressed data is corrupt",
		[XZ_TRUNCATED] = "Unexpected end of input",
		[XZ_UNSUPPORTED] = "Unsupported options",
		[XZ_MEMLIMIT] = "Memory usage limit reached",
		[XZ_NO_MEMORY] = "Cannot allocate memory",
		[XZ_NOT_XZ] = "File format not recognized",
		[XZ_LZMA_ALONE] = "File format not recognized (.lzma is not supported)",
	};
	struct unpack_io *io = x->io;
	uint64_t need = mib_rounded_up(x->mem_needed), limit = io->mem_limit;
	char upper[sizeof("armthumb")], what[80];

	if ((st == XZ_TRUNCATED && unpack_read_failed(io)) || st == XZ_WRITE_FAILED)
		return;
	if (st == XZ_UNSUPPORTED && x->absent) {
		/* The switch's name is the filter's, in upper case. */
		for (size_t i = 0; i < sizeof(upper); i++)
			upper[i] = (char)(x->absent[i] >= 'a' ? x->absent[i] - 'a' + 'A' : x->absent[i]);
		if (x->absent_switched_off)
			bb_format(what, sizeof(what), "Unsupported filter: %s "
				  "(FEATURE_XZ_%s is off in this build)", x->absent, upper);
		else
			bb_format(what, sizeof(what), "Unsupported filter: %s", x->absent);
		unpack_error(io, what);
		return;
	}
	unpack_error(io, words[st]);
	/* xz's second line, with the size of what the stream needs. */
	if (st == XZ_MEMLIMIT)
		bb_error_msg("%ju MiB of memory is required. The limit is %ju %s.",
			     (uintmax_t)need, (uintmax_t)(limit >> 20 ? mib_rounded_up(limit) : limit),
			     limit >> 20 ? "MiB" : "B");
	else if (st == XZ_NO_MEMORY && need)
		bb_error_msg("%ju MiB of memory is required.", (uintmax_t)need);
}

enum unpack_result xz_decode(struct unpack_io *io)
{
	struct xz_dec x;
	enum xz_status st;

	memset(&x, 0, sizeof(x));
	x.io = io;
	st = decode_file(&x);
	lzma2_free(&x.lzma2);
	lazy_buffer_free(&x.fbuf);
	if (st != XZ_OK) {
		report_failure(&x, st);
		return UNPACK_ERROR;
	}
	return x.warned ? UNPACK_WARNING : UNPACK_OK;
}
