/*
 * inflate.c - RFC 1951 decoding (stored, fixed and dynamic Huffman
 * blocks) for the gzip container, gunzip.c.
 *
 * Input bits wait in a 64-bit register, refilled a whole word at a time
 * while 8 input bytes are at hand, byte by byte near the end of the
 * input buffer.  Past the end of the input the register reads as zeros
 * and its count goes below zero; that is checked wherever decoded bytes
 * could leave (before a write, at each block's end), so nothing decoded
 * from bits that are not there is ever written.
 *
 * A Huffman code is decoded by one table lookup on the next ROOT bits;
 * a longer code continues in a subtable (two levels).  Bytes are decoded
 * into one window that holds the 32 KiB of history before them, so a
 * match is a copy within one buffer; the window is written out a CHUNK
 * at a time, then its last 32 KiB move to its start.
 */
#include <string.h>

#include "inflate.h"

enum {
	HISTORY = 32 << 10,             /* the farthest a distance reaches */
	CHUNK = 128 << 10,              /* written at a time */
	WINDOW_END = HISTORY + CHUNK,   /* no symbol starts at or past it */
	MAX_MATCH = 258,
	/* a match begun before WINDOW_END, and an 8-byte copy's overshoot */
	WINDOW_SIZE = WINDOW_END + MAX_MATCH + 8,
	LIT_ROOT = 10,
	DIST_ROOT = 8,
	CODELEN_ROOT = 7,
	/* The root table, then the subtables of 2^(15 - root) entries at
	 * most.  The codes are complete where there are subtables, so each
	 * holds at least two codes: n codes need n / 2 subtables. */
	LIT_TABLE_SIZE = (1 << LIT_ROOT) + 288 / 2 * (1 << (15 - LIT_ROOT)),
	DIST_TABLE_SIZE = (1 << DIST_ROOT) + 32 / 2 * (1 << (15 - DIST_ROOT)),
	/* a length and a distance code with their extra bits */
	NEED_BITS = 48,
};

/* A table entry: bits 0-7 the bits its code takes (a link: the root
 * bits), 8-15 what it is (OP_*), 16-31 its value. */
enum {
	OP_EXTRA = 0x0f,      /* length, distance: extra bits; value: the base */
	OP_LITERAL = 0x10,    /* value: the byte */
	OP_END = 0x20,        /* end of block */
	OP_LINK = 0x40,       /* a subtable of OP_EXTRA index bits at value */
	OP_BAD = 0x80,        /* no such code, or a symbol that cannot be */
};

/* What a table is for, and so what its symbols mean. */
enum table_kind { KIND_LIT, KIND_DIST, KIND_CODELEN };

struct inflate {
	struct unpack_io *io;
	uint64_t bits;            /* the next input bits, the first in bit 0 */
	int nbits;                /* how many; below 0 once past the input's end */
	bool short_input;         /* a refill met the end of the input */
	bool fixed_tables;        /* lit and dist hold the fixed codes */
	size_t pos;               /* where the next byte is decoded */
	size_t written;           /* window[written..pos) is not written yet */
	size_t start;             /* the stream's first byte in the window, or 0 */
	uint32_t crc, size;
	uint32_t lit[LIT_TABLE_SIZE];
	uint32_t dist[DIST_TABLE_SIZE];
	unsigned char window[WINDOW_SIZE];
};

static const char format_violated[] = "format violated";

/* A symbol's entry, but for the bits it takes.  Lengths (257-285) and
 * distances (0-29) come in groups of 4 and 2 codes (RFC 1951 3.2.5):
 * after the first group, each group has one extra bit more, and its
 * bases step by 1 << extra from (group + i % group) << extra. */
static uint32_t symbol_entry(enum table_kind kind, unsigned sym)
{
	unsigned group = 2, first = 1, extra = 0;

	if (kind == KIND_CODELEN)
		return sym << 16;
	if (kind == KIND_LIT) {
		if (sym < 256)
			return sym << 16 | OP_LITERAL << 8;
		if (sym == 256)
			return OP_END << 8;
		if (sym == 285)
			return 258u << 16;
		sym -= 257;
		group = 4;
		first = 3;
	}
	if (sym >= 32 - group)         /* lengths 286-287, distances 30-31 */
		return OP_BAD << 8;
	if (sym >= group) {
		extra = sym / group - 1;
		sym = (group + sym % group) << extra;
	}
	return (first + sym) << 16 | extra << 8;
}

static unsigned reverse_bits(unsigned code, unsigned len)
{
	unsigned r = 0;

	while (len--) {
		r = r << 1 | (code & 1);
		code >>= 1;
	}
	return r;
}

/*
 * Fill table (the root of root bits, then subtables) for the code
 * lengths len[0..n) (RFC 1951 3.2.2; n <= 288).  False for a code GNU
 * gzip refuses: over-subscribed, or incomplete unless its longest code
 * has one bit (one code of one bit, or none at all); what an allowed
 * incomplete code leaves unused decodes as OP_BAD.  A code longer than
 * root continues in a subtable of its root prefix, all of them as large
 * as the longest code needs.
 */
static bool build_table(uint32_t *table, unsigned root, const unsigned char *len,
			unsigned n, enum table_kind kind)
{
	unsigned space = 0, max = 0, code = 0, prefix = ~0u, sub = 0;
	unsigned next_sub = 1u << root, sub_bits;

	for (unsigned sym = 0; sym < n; sym++) {
		if (len[sym])
			space += 0x8000u >> len[sym];
		if (len[sym] > max)
			max = len[sym];
	}
	if (space > 0x8000 || (space < 0x8000 && max > 1))
		return false;
	if (space < 0x8000)
		for (unsigned i = 0; i < 1u << root; i++)
			table[i] = OP_BAD << 8;
	sub_bits = max > root ? max - root : 0;
	/* Canonical codes: by length, then by symbol; each goes in
	 * bit-reversed, as it is read. */
	for (unsigned l = 1; l <= max; l++, code <<= 1) {
		for (unsigned sym = 0; sym < n; sym++) {
			uint32_t e;
			unsigned rev, i;

			if (len[sym] != l)
				continue;
			e = symbol_entry(kind, sym) | l;
			rev = reverse_bits(code++, l);
			if (l <= root) {
				for (i = rev; i < 1u << root; i += 1u << l)
					table[i] = e;
				continue;
			}
			/* The codes under one prefix come one after another. */
			if ((rev & ((1u << root) - 1)) != prefix) {
				prefix = rev & ((1u << root) - 1);
				sub = next_sub;
				next_sub += 1u << sub_bits;
				table[prefix] = sub << 16 | (OP_LINK | sub_bits) << 8 | root;
			}
			for (i = rev >> root; i < 1u << sub_bits; i += 1u << (l - root))
				table[sub + i] = e;
		}
	}
	return true;
}

static inline __attribute__((always_inline)) uint32_t lookup(const uint32_t *table, unsigned root, uint64_t bits)
{
	uint32_t e = table[bits & ((1u << root) - 1)];

	if (e & OP_LINK << 8)
		e = table[(e >> 16) + ((bits >> root) & ((1u << (e >> 8 & OP_EXTRA)) - 1))];
	return e;
}

static uint64_t load_le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* Refill the register to at least 57 bits, byte by byte, or with all
 * the input has left. */
static void refill_slow(struct inflate *z)
{
	struct unpack_io *io = z->io;

	while (z->nbits <= 56) {
		int c = unpack_next_byte(io);

		if (c < 0) {
			z->short_input = true;
			return;
		}
		z->bits |= (uint64_t)c << z->nbits;
		z->nbits += 8;
	}
}

static unsigned get_bits(struct inflate *z, unsigned n)
{
	unsigned v;

	if (z->nbits < (int)n)
		refill_slow(z);
	v = (unsigned)z->bits & ((1u << n) - 1);
	z->bits >>= n;
	z->nbits -= (int)n;
	return v;
}

void inflate_data_error(struct unpack_io *io, const char *what)
{
	bb_error_msg("%s: invalid compressed data--%s", io->name, what);
}

/* Report what went wrong, as gzip words it: any error after the input
 * ended too soon is that. */
static int fail(struct inflate *z, const char *what)
{
	if (unpack_read_failed(z->io))
		return -1;
	if (z->short_input)
		unpack_error(z->io, "unexpected end of file");
	else
		inflate_data_error(z->io, what);
	return -1;
}

/* Drop the bits of a partial byte, and give the whole bytes still in
 * the register back to the input (at most 7, as UNPACK_KEEP allows). */
static int give_back(struct inflate *z)
{
	if (z->nbits < 0)
		return fail(z, format_violated);
	z->io->in_next -= z->nbits >> 3;
	z->bits = 0;
	z->nbits = 0;
	return 0;
}

static void account(struct inflate *z)
{
	size_t n = z->pos - z->written;

	z->crc = crc32_update(z->crc, z->window + z->written, n);
	z->size += (uint32_t)n;
}

/* The window is full: write it, and keep its last HISTORY bytes. */
static int flush(struct inflate *z)
{
	size_t moved = z->pos - HISTORY;

	if (z->nbits < 0)
		return fail(z, format_violated);
	account(z);
	if (unpack_write(z->io, z->window + z->written, z->pos - z->written))
		return -1;
	memmove(z->window, z->window + moved, HISTORY);
	z->start = z->start > moved ? z->start - moved : 0;
	z->pos = z->written = HISTORY;
	return 0;
}

int inflate_write_rest(struct inflate *z)
{
	if (unpack_write(z->io, z->window + z->written, z->pos - z->written))
		return -1;
	z->written = z->pos;
	return 0;
}

/* A stored block (RFC 1951 3.2.4): LEN and NLEN through the register,
 * then the bytes straight from the input buffer. */
static int stored_block(struct inflate *z)
{
	struct unpack_io *io = z->io;
	size_t len;

	if (give_back(z))
		return -1;
	len = get_bits(z, 16);
	if (get_bits(z, 16) != (len ^ 0xffff))
		return fail(z, format_violated);
	if (give_back(z))
		return -1;
	while (len) {
		size_t n;

		if (z->pos >= WINDOW_END && flush(z))
			return -1;
		if (io->in_next == io->in_end && !unpack_fill(io)) {
			z->short_input = true;
			return fail(z, format_violated);
		}
		n = (size_t)(io->in_end - io->in_next);
		if (n > len)
			n = len;
		if (n > WINDOW_END - z->pos)
			n = WINDOW_END - z->pos;
		memcpy(z->window + z->pos, io->in_next, n);
		io->in_next += n;
		z->pos += n;
		len -= n;
	}
	return 0;
}

/* The fixed codes (RFC 1951 3.2.6). */
static void fixed_tables(struct inflate *z)
{
	unsigned char len[288];

	for (unsigned i = 0; i < 288; i++)
		len[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	build_table(z->lit, LIT_ROOT, len, 288, KIND_LIT);
	memset(len, 5, 32);
	build_table(z->dist, DIST_ROOT, len, 32, KIND_DIST);
	z->fixed_tables = true;
}

/* A dynamic block's code lengths (RFC 1951 3.2.7), into the tables. */
static int dynamic_tables(struct inflate *z)
{
	static const unsigned char order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
	};
	unsigned char len[286 + 30], codelen[19] = { 0 };
	unsigned nlit = get_bits(z, 5) + 257, ndist = get_bits(z, 5) + 1;
	unsigned ncodelen = get_bits(z, 4) + 4, prev = 0;

	/* The code length code goes in the distance table for now. */
	z->fixed_tables = false;
	for (unsigned i = 0; i < ncodelen; i++)
		codelen[order[i]] = (unsigned char)get_bits(z, 3);
	if (nlit > 286 || ndist > 30
	    || !build_table(z->dist, CODELEN_ROOT, codelen, 19, KIND_CODELEN))
		return fail(z, format_violated);
	for (unsigned i = 0; i < nlit + ndist;) {
		uint32_t e;
		unsigned sym, repeat;

		if (z->nbits < 16)
			refill_slow(z);
		e = lookup(z->dist, CODELEN_ROOT, z->bits);
		z->bits >>= e & 0xff;
		z->nbits -= (int)(e & 0xff);
		sym = e >> 16;
		if (e & OP_BAD << 8)
			return fail(z, format_violated);
		if (sym < 16) {
			len[i++] = (unsigned char)sym;
			prev = sym;
			continue;
		}
		/* 16: the previous length again (as gzip, 0 if none yet);
		 * 17 and 18: zeros. */
		if (sym == 16) {
			repeat = 3 + get_bits(z, 2);
		} else {
			prev = 0;
			repeat = sym == 17 ? 3 + get_bits(z, 3) : 11 + get_bits(z, 7);
		}
		if (repeat > nlit + ndist - i)
			return fail(z, format_violated);
		memset(len + i, (int)prev, repeat);
		i += repeat;
	}
	if (z->nbits < 0 || !build_table(z->lit, LIT_ROOT, len, nlit, KIND_LIT)
	    || !build_table(z->dist, DIST_ROOT, len + nlit, ndist, KIND_DIST))
		return fail(z, format_violated);
	return 0;
}

/* A match of len bytes from dist back; dist <= the bytes before dst. */
static void copy_match(unsigned char *dst, size_t dist, size_t len)
{
	const unsigned char *src = dst - dist;

	if (dist >= 8) {
		/* 8 bytes at a time: a piece never overlaps its source, and
		 * the window has room for the overshoot. */
		unsigned char *end = dst + len;

		do {
			memcpy(dst, src, 8);
			dst += 8;
			src += 8;
		} while (dst < end);
	} else if (dist == 1) {
		memset(dst, *src, len);
	} else {
		while (len--)
			*dst++ = *src++;
	}
}

/* Put the decoding loop's locals back into z and its input. */
static void put_back(struct inflate *z, const unsigned char *in,
		     uint64_t bits, int nbits, size_t pos)
{
	z->io->in_next = in;
	z->bits = bits;
	z->nbits = nbits;
	z->pos = pos;
}

/*
 * The symbols of a Huffman block up to its end (RFC 1951 3.2.5), with
 * the tables in z: 0, or -1 after an error was reported.  The loop
 * keeps its state in locals (a byte stored to the window may alias any
 * field of z) and puts it back around the calls that need it; r says
 * why it stopped (-1 reported, -2 a bad code, -3 a distance too far).
 */
static int huffman_block(struct inflate *z)
{
	struct unpack_io *io = z->io;
	const unsigned char *in = io->in_next, *in_end = io->in_end;
	unsigned char *window = z->window;
	const uint32_t *lit = z->lit, *dist_table = z->dist;
	uint64_t bits = z->bits;
	int nbits = z->nbits, r = 0;
	size_t pos = z->pos;

	for (;;) {
		uint32_t e;
		unsigned op, len, dist;

		if (pos >= WINDOW_END) {
			put_back(z, in, bits, nbits, pos);
			if (flush(z)) {
				r = -1;
				break;
			}
			pos = z->pos;
		}
		if (nbits < NEED_BITS) {
			if (in_end - in >= 8) {
				bits |= load_le64(in) << nbits;
				in += (63 - nbits) >> 3;
				nbits |= 56;
			} else {
				put_back(z, in, bits, nbits, pos);
				refill_slow(z);
				in = io->in_next;
				in_end = io->in_end;
				bits = z->bits;
				nbits = z->nbits;
			}
		}
		e = lookup(lit, LIT_ROOT, bits);
		bits >>= e & 0xff;
		nbits -= (int)(e & 0xff);
		op = e >> 8 & 0xff;
		if (op & OP_LITERAL) {
			window[pos++] = (unsigned char)(e >> 16);
			continue;
		}
		if (op & (OP_END | OP_BAD)) {
			if (op & OP_BAD)
				r = -2;
			break;
		}
		len = (e >> 16) + ((unsigned)bits & ((1u << op) - 1));
		bits >>= op;
		nbits -= (int)op;
		e = lookup(dist_table, DIST_ROOT, bits);
		bits >>= e & 0xff;
		nbits -= (int)(e & 0xff);
		op = e >> 8 & 0xff;
		dist = (e >> 16) + ((unsigned)bits & ((1u << (op & OP_EXTRA)) - 1));
		bits >>= op & OP_EXTRA;
		nbits -= (int)(op & OP_EXTRA);
		if (op & OP_BAD) {
			r = -2;
			break;
		}
		if (dist > pos - z->start) {
			r = -3;
			break;
		}
		copy_match(window + pos, dist, len);
		pos += len;
	}
	put_back(z, in, bits, nbits, pos);
	if (r == -2)
		return fail(z, format_violated);
	if (r == -3)
		return fail(z, "distance too far back");
	return r;
}

int inflate_stream(struct inflate *z, uint32_t *crc, uint32_t *size)
{
	unsigned final;

	z->bits = 0;
	z->nbits = 0;
	z->short_input = false;
	z->start = z->pos;
	z->crc = 0;
	z->size = 0;
	do {
		unsigned type;
		int r;

		final = get_bits(z, 1);
		type = get_bits(z, 2);
		if (type == 0) {
			r = stored_block(z);
		} else if (type == 1) {
			if (!z->fixed_tables)
				fixed_tables(z);
			r = huffman_block(z);
		} else if (type == 2) {
			r = dynamic_tables(z);
			if (!r)
				r = huffman_block(z);
		} else {
			r = fail(z, format_violated);
		}
		if (r)
			return -1;
		if (z->nbits < 0)
			return fail(z, format_violated);
	} while (!final);
	if (give_back(z))
		return -1;
	account(z);
	*crc = z->crc;
	*size = z->size;
	return 0;
}

struct inflate *inflate_new(struct unpack_io *io)
{
	struct inflate *z = try_malloc(sizeof(*z));

	if (z) {
		z->io = io;
		z->pos = z->written = 0;
		z->fixed_tables = false;
	}
	return z;
}

void inflate_free(struct inflate *z)
{
	free_mapped(z);
}
