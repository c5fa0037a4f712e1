/*
 * conv.c - the conversions that change bytes or record shape, in GNU's
 * order: (sync padding, records.c) -> one composed translation table
 * (ascii/ebcdic/ibm/lcase/ucase) -> swab -> block | unblock | as is ->
 * stage_output().  All but swab is compiled out without FEATURE_DD_CONV.
 */
#include <string.h>

#include "dd.h"

/* ASCII -> EBCDIC as POSIX defines it for conv=ebcdic: a permutation,
 * whose inverse is conv=ascii; conv=ibm differs in five places. */
static const unsigned char ascii_to_ebcdic[256] = {
	/* 0x00 */ 0x00, 0x01, 0x02, 0x03, 0x37, 0x2d, 0x2e, 0x2f,
	/* 0x08 */ 0x16, 0x05, 0x25, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	/* 0x10 */ 0x10, 0x11, 0x12, 0x13, 0x3c, 0x3d, 0x32, 0x26,
	/* 0x18 */ 0x18, 0x19, 0x3f, 0x27, 0x1c, 0x1d, 0x1e, 0x1f,
	/* ' '  */ 0x40, 0x5a, 0x7f, 0x7b, 0x5b, 0x6c, 0x50, 0x7d,
	/* '('  */ 0x4d, 0x5d, 0x5c, 0x4e, 0x6b, 0x60, 0x4b, 0x61,
	/* '0'  */ 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	/* '8'  */ 0xf8, 0xf9, 0x7a, 0x5e, 0x4c, 0x7e, 0x6e, 0x6f,
	/* '@'  */ 0x7c, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
	/* 'H'  */ 0xc8, 0xc9, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6,
	/* 'P'  */ 0xd7, 0xd8, 0xd9, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6,
	/* 'X'  */ 0xe7, 0xe8, 0xe9, 0xad, 0xe0, 0xbd, 0x9a, 0x6d,
	/* '`'  */ 0x79, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	/* 'h'  */ 0x88, 0x89, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96,
	/* 'p'  */ 0x97, 0x98, 0x99, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6,
	/* 'x'  */ 0xa7, 0xa8, 0xa9, 0xc0, 0x4f, 0xd0, 0x5f, 0x07,
	/* 0x80 */ 0x20, 0x21, 0x22, 0x23, 0x24, 0x15, 0x06, 0x17,
	/* 0x88 */ 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x09, 0x0a, 0x1b,
	/* 0x90 */ 0x30, 0x31, 0x1a, 0x33, 0x34, 0x35, 0x36, 0x08,
	/* 0x98 */ 0x38, 0x39, 0x3a, 0x3b, 0x04, 0x14, 0x3e, 0xe1,
	/* 0xa0 */ 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
	/* 0xa8 */ 0x49, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
	/* 0xb0 */ 0x58, 0x59, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
	/* 0xb8 */ 0x68, 0x69, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75,
	/* 0xc0 */ 0x76, 0x77, 0x78, 0x80, 0x8a, 0x8b, 0x8c, 0x8d,
	/* 0xc8 */ 0x8e, 0x8f, 0x90, 0x6a, 0x9b, 0x9c, 0x9d, 0x9e,
	/* 0xd0 */ 0x9f, 0xa0, 0xaa, 0xab, 0xac, 0x4a, 0xae, 0xaf,
	/* 0xd8 */ 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
	/* 0xe0 */ 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xa1, 0xbe, 0xbf,
	/* 0xe8 */ 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xda, 0xdb,
	/* 0xf0 */ 0xdc, 0xdd, 0xde, 0xdf, 0xea, 0xeb, 0xec, 0xed,
	/* 0xf8 */ 0xee, 0xef, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
};

/* Where POSIX's ASCII -> IBM table (conv=ibm) differs from the above:
 * { ASCII byte, IBM byte }.  The IBM table is not a permutation. */
static const unsigned char ibm_changes[][2] = {
	{ 0x5e, 0x5f },   /* '^' -> not sign */
	{ 0x7e, 0xa1 },   /* '~' */
	{ 0xcb, 0x9a },
	{ 0xd5, 0xad },
	{ 0xe5, 0xbd },
};

/* lcase/ucase in the C locale. */
static unsigned char change_case(unsigned char c, unsigned conv)
{
	if ((conv & CONV_UCASE) ? (c >= 'a' && c <= 'z')
	    : (conv & CONV_LCASE) && c >= 'A' && c <= 'Z')
		return c ^ 0x20;
	return c;
}

void conv_init(struct dd_conv_state *cv, const struct dd_options *opt)
{
	unsigned conv = opt->conv;
	bool to_ebcdic = conv & (CONV_EBCDIC | CONV_IBM);

	if (!ENABLE_FEATURE_DD_CONV)
		return;
	/* GNU's steps composed into one table, so that each byte costs one
	 * lookup: from EBCDIC, case, to EBCDIC. */
	for (unsigned c = 0; c < 256; c++)
		cv->table[conv & CONV_ASCII ? ascii_to_ebcdic[c] : c] =
			(unsigned char)c;
	for (unsigned c = 0; c < 256; c++) {
		unsigned char b = change_case(cv->table[c], conv);

		cv->table[c] = to_ebcdic ? ascii_to_ebcdic[b] : b;
	}
	/* By index: no earlier step moved these bytes (ascii excludes ibm,
	 * and they are not letters). */
	if (conv & CONV_IBM)
		for (size_t i = 0; i < ARRAY_SIZE(ibm_changes); i++)
			cv->table[ibm_changes[i][0]] = ibm_changes[i][1];
	cv->translate = conv & (CONV_ASCII | CONV_EBCDIC | CONV_IBM |
			       CONV_LCASE | CONV_UCASE);

	/* operands.c drops block/unblock without cbs=. */
	cv->cbs = opt->cbs;
	if (conv & CONV_BLOCK)
		cv->shape = SHAPE_BLOCK;
	else if (conv & CONV_UNBLOCK)
		cv->shape = SHAPE_UNBLOCK;
	/* Not cv->table[' ']: after conv=ascii the stream is ASCII again. */
	cv->space = to_ebcdic ? ascii_to_ebcdic[' '] : ' ';
	cv->newline = to_ebcdic ? ascii_to_ebcdic['\n'] : '\n';
	memset(cv->spaces, cv->space, sizeof(cv->spaces));
}

static void output_spaces(struct dd_run *run, uint64_t n)
{
	struct dd_conv_state *cv = &run->conv;

	while (n) {
		size_t k = (size_t)min_u64(n, sizeof(cv->spaces));

		stage_output(run, cv->spaces, k);
		n -= k;
	}
}

/* conv=block: each line becomes exactly cbs bytes, cut or space-padded;
 * the newline itself is dropped.  Lines may span records. */
static void block_bytes(struct dd_run *run, const unsigned char *p, size_t n)
{
	struct dd_conv_state *cv = &run->conv;

	while (n) {
		const unsigned char *nl = memchr(p, cv->newline, n);
		size_t part = nl ? (size_t)(nl - p) : n;
		uint64_t room = cv->cbs - min_u64(cv->column, cv->cbs);

		if (room)
			stage_output(run, p, (size_t)min_u64(part, room));
		if (part > room) {
			/* Count a line once, when it first passes cbs. */
			if (cv->column <= cv->cbs)
				tally_truncated_record(run);
			cv->column = cv->cbs + 1;
		} else {
			cv->column += part;
		}
		if (!nl)
			return;
		output_spaces(run, cv->cbs - min_u64(cv->column, cv->cbs));
		cv->column = 0;
		p = nl + 1;
		n -= part + 1;
	}
}

/* conv=unblock: each cbs-byte record loses its trailing spaces and gains
 * a newline.  Spaces are held back until a non-space shows they were
 * not trailing, since a record may span reads. */
static void unblock_bytes(struct dd_run *run, const unsigned char *p, size_t n)
{
	struct dd_conv_state *cv = &run->conv;

	while (n) {
		if (cv->column == cv->cbs) {
			stage_output(run, &cv->newline, 1);
			cv->column = 0;
			cv->held_spaces = 0;
		}
		size_t take = (size_t)min_u64(n, cv->cbs - cv->column);
		size_t keep = take;

		while (keep && p[keep - 1] == cv->space)
			keep--;
		if (keep) {
			output_spaces(run, cv->held_spaces);
			cv->held_spaces = 0;
			stage_output(run, p, keep);
		}
		cv->held_spaces += take - keep;
		cv->column += take;
		p += take;
		n -= take;
	}
}

/* Hand translated, swabbed bytes to the record shaping step. */
static void shape_bytes(struct dd_run *run, const unsigned char *p, size_t n)
{
	struct dd_conv_state *cv = &run->conv;

	if (ENABLE_FEATURE_DD_CONV && cv->shape == SHAPE_BLOCK)
		block_bytes(run, p, n);
	else if (ENABLE_FEATURE_DD_CONV && cv->shape == SHAPE_UNBLOCK)
		unblock_bytes(run, p, n);
	else
		stage_output(run, p, n);
}

/* conv=swab: swap byte pairs of the whole stream, as GNU does: an odd
 * byte left at the end of a record pairs with the first of the next. */
static void swab_bytes(struct dd_run *run, unsigned char *p, size_t n)
{
	struct dd_conv_state *cv = &run->conv;

	if (cv->swab_held && n) {
		unsigned char pair[2] = { p[0], cv->swab_byte };

		shape_bytes(run, pair, 2);
		cv->swab_held = false;
		p++;
		n--;
	}
	if (n & 1) {
		cv->swab_byte = p[--n];
		cv->swab_held = true;
	}
	for (size_t i = 0; i < n; i += 2) {
		unsigned char c = p[i];

		p[i] = p[i + 1];
		p[i + 1] = c;
	}
	shape_bytes(run, p, n);
}

enum dd_stop conv_record(struct dd_run *run, unsigned char *buf, size_t len)
{
	struct dd_conv_state *cv = &run->conv;

	if (ENABLE_FEATURE_DD_CONV && cv->translate)
		for (size_t i = 0; i < len; i++)
			buf[i] = cv->table[buf[i]];
	if (run->opt->conv & CONV_SWAB)
		swab_bytes(run, buf, len);
	else
		shape_bytes(run, buf, len);
	return staging_outcome();
}

enum dd_stop conv_finish(struct dd_run *run)
{
	struct dd_conv_state *cv = &run->conv;

	if (cv->swab_held) {
		cv->swab_held = false;
		shape_bytes(run, &cv->swab_byte, 1);
	}
	/* A last line without its newline is still padded (block); the last
	 * record's newline waited for a next record (unblock). */
	if (ENABLE_FEATURE_DD_CONV && cv->column > 0) {
		if (cv->shape == SHAPE_BLOCK)
			output_spaces(run, cv->cbs - min_u64(cv->column, cv->cbs));
		else
			stage_output(run, &cv->newline, 1);
		cv->column = 0;
	}
	return staging_outcome();
}
