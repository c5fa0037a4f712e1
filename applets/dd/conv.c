/* conv.c - conversions in GNU's order: table, swab, block/unblock, staging. */
#include <string.h>

#include "dd.h"

/* ASCII -> EBCDIC for conv=ebcdic (POSIX), 16 bytes a row: a permutation,
 * whose inverse is conv=ascii; conv=ibm differs in five places. */
static const unsigned char ascii_to_ebcdic[] =
	/* 00 */ "\x00\x01\x02\x03\x37\x2d\x2e\x2f\x16\x05\x25\x0b\x0c\x0d\x0e\x0f"
	/* 10 */ "\x10\x11\x12\x13\x3c\x3d\x32\x26\x18\x19\x3f\x27\x1c\x1d\x1e\x1f"
	/* 20 */ "\x40\x5a\x7f\x7b\x5b\x6c\x50\x7d\x4d\x5d\x5c\x4e\x6b\x60\x4b\x61"
	/* 30 */ "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\x7a\x5e\x4c\x7e\x6e\x6f"
	/* 40 */ "\x7c\xc1\xc2\xc3\xc4\xc5\xc6\xc7\xc8\xc9\xd1\xd2\xd3\xd4\xd5\xd6"
	/* 50 */ "\xd7\xd8\xd9\xe2\xe3\xe4\xe5\xe6\xe7\xe8\xe9\xad\xe0\xbd\x9a\x6d"
	/* 60 */ "\x79\x81\x82\x83\x84\x85\x86\x87\x88\x89\x91\x92\x93\x94\x95\x96"
	/* 70 */ "\x97\x98\x99\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xc0\x4f\xd0\x5f\x07"
	/* 80 */ "\x20\x21\x22\x23\x24\x15\x06\x17\x28\x29\x2a\x2b\x2c\x09\x0a\x1b"
	/* 90 */ "\x30\x31\x1a\x33\x34\x35\x36\x08\x38\x39\x3a\x3b\x04\x14\x3e\xe1"
	/* a0 */ "\x41\x42\x43\x44\x45\x46\x47\x48\x49\x51\x52\x53\x54\x55\x56\x57"
	/* b0 */ "\x58\x59\x62\x63\x64\x65\x66\x67\x68\x69\x70\x71\x72\x73\x74\x75"
	/* c0 */ "\x76\x77\x78\x80\x8a\x8b\x8c\x8d\x8e\x8f\x90\x6a\x9b\x9c\x9d\x9e"
	/* d0 */ "\x9f\xa0\xaa\xab\xac\x4a\xae\xaf\xb0\xb1\xb2\xb3\xb4\xb5\xb6\xb7"
	/* e0 */ "\xb8\xb9\xba\xbb\xbc\xa1\xbe\xbf\xca\xcb\xcc\xcd\xce\xcf\xda\xdb"
	/* f0 */ "\xdc\xdd\xde\xdf\xea\xeb\xec\xed\xee\xef\xfa\xfb\xfc\xfd\xfe\xff";

/* { ASCII, IBM }: where POSIX's conv=ibm table (no permutation) differs. */
static const unsigned char ibm_changes[][2] = {
	{ 0x5e, 0x5f },   /* '^' -> not sign */
	{ 0x7e, 0xa1 },   /* '~' */
	{ 0xcb, 0x9a },
	{ 0xd5, 0xad },
	{ 0xe5, 0xbd },
};

/* The state kept from one record to the next (conv_init resets it). */
static struct {
	unsigned char table[256];     /* the composed translation */
	uint64_t cbs;
	/* In the output character set: GNU blocks after translating. */
	unsigned char space, newline;
	/* block: the line's bytes so far, cbs + 1 once cut (and counted).
	 * unblock: the record's; its newline waits for the next byte. */
	uint64_t column;
	uint64_t held_spaces;         /* unblock: spaces maybe trailing */
	bool swab_held;               /* swab: an odd byte waits for its pair */
	unsigned char swab_byte;
	unsigned char spaces[64];     /* source for runs of padding */
} cv;

/* The composed translation table and the block/unblock state, once. */
void conv_init(const struct dd_options *opt)
{
	unsigned conv = opt->conv;
	bool to_ebcdic = conv & (CONV_EBCDIC | CONV_IBM);

	memset(&cv, 0, sizeof(cv));
	if (!ENABLE_FEATURE_DD_CONV)
		return;
	/* GNU's steps composed into one table, so that each byte costs one
	 * lookup: from EBCDIC, case, to EBCDIC. */
	for (unsigned c = 0; c < 256; c++)
		cv.table[conv & CONV_ASCII ? ascii_to_ebcdic[c] : c] =
			(unsigned char)c;
	for (unsigned c = 0; c < 256; c++) {
		unsigned char b = cv.table[c];

		/* lcase/ucase in the C locale. */
		if ((conv & CONV_UCASE) ? (b >= 'a' && b <= 'z')
		    : (conv & CONV_LCASE) && b >= 'A' && b <= 'Z')
			b ^= 0x20;
		cv.table[c] = to_ebcdic ? ascii_to_ebcdic[b] : b;
	}
	/* By index: ascii excludes ibm, and these are not letters. */
	if (conv & CONV_IBM)
		for (size_t i = 0; i < ARRAY_SIZE(ibm_changes); i++)
			cv.table[ibm_changes[i][0]] = ibm_changes[i][1];
	cv.cbs = opt->cbs;
	/* Not cv.table[' ']: after conv=ascii the stream is ASCII again. */
	cv.space = to_ebcdic ? ascii_to_ebcdic[' '] : ' ';
	cv.newline = to_ebcdic ? ascii_to_ebcdic['\n'] : '\n';
	memset(cv.spaces, cv.space, sizeof(cv.spaces));
}

static void output_spaces(struct dd_run *run, uint64_t n)
{
	while (n) {
		size_t k = (size_t)min_u64(n, sizeof(cv.spaces));

		stage_output(run, cv.spaces, k);
		n -= k;
	}
}

/* conv=block: lines, across records, cut or padded to cbs (newline dropped). */
static void block_bytes(struct dd_run *run, const unsigned char *p, size_t n)
{
	while (n) {
		const unsigned char *nl = memchr(p, cv.newline, n);
		size_t part = nl ? (size_t)(nl - p) : n;
		uint64_t room = cv.cbs - min_u64(cv.column, cv.cbs);

		stage_output(run, p, (size_t)min_u64(part, room));
		if (part > room) {
			/* Count a line once, when it first passes cbs. */
			if (cv.column <= cv.cbs)
				tally_truncated_record(run);
			cv.column = cv.cbs + 1;
		} else {
			cv.column += part;
		}
		if (!nl)
			return;
		output_spaces(run, cv.cbs - min_u64(cv.column, cv.cbs));
		cv.column = 0;
		p = nl + 1;
		n -= part + 1;
	}
}

/* conv=unblock: cbs-byte records lose trailing spaces and gain a newline. */
static void unblock_bytes(struct dd_run *run, const unsigned char *p, size_t n)
{
	while (n) {
		if (cv.column == cv.cbs) {
			stage_output(run, &cv.newline, 1);
			cv.column = 0;
			cv.held_spaces = 0;
		}
		size_t take = (size_t)min_u64(n, cv.cbs - cv.column);
		size_t keep = take;

		while (keep && p[keep - 1] == cv.space)
			keep--;
		if (keep) {
			output_spaces(run, cv.held_spaces);
			cv.held_spaces = 0;
			stage_output(run, p, keep);
		}
		cv.held_spaces += take - keep;
		cv.column += take;
		p += take;
		n -= take;
	}
}

/* Translated, swabbed bytes to block/unblock (dropped without cbs=). */
static void shape_bytes(struct dd_run *run, const unsigned char *p, size_t n)
{
	unsigned conv = run->opt->conv;

	if (ENABLE_FEATURE_DD_CONV && (conv & CONV_BLOCK))
		block_bytes(run, p, n);
	else if (ENABLE_FEATURE_DD_CONV && (conv & CONV_UNBLOCK))
		unblock_bytes(run, p, n);
	else
		stage_output(run, p, n);
}

/* conv=swab: byte pairs of the whole stream (pairs span records, as GNU's). */
static void swab_bytes(struct dd_run *run, unsigned char *p, size_t n)
{
	if (cv.swab_held && n) {
		unsigned char pair[2] = { p[0], cv.swab_byte };

		shape_bytes(run, pair, 2);
		cv.swab_held = false;
		p++;
		n--;
	}
	if (n & 1) {
		cv.swab_byte = p[--n];
		cv.swab_held = true;
	}
	for (size_t i = 0; i < n; i += 2) {
		unsigned char c = p[i];

		p[i] = p[i + 1];
		p[i + 1] = c;
	}
	shape_bytes(run, p, n);
}

/* Convert a record in place and stage it: STOP_NONE, or
 * STOP_BLOCK_FAILED once a block's write failed (reported). */
enum dd_stop conv_record(struct dd_run *run, unsigned char *buf, size_t len)
{
	unsigned conv = run->opt->conv;

	if (ENABLE_FEATURE_DD_CONV && (conv & (CONV_ASCII | CONV_EBCDIC | CONV_IBM
					       | CONV_LCASE | CONV_UCASE)))
		for (size_t i = 0; i < len; i++)
			buf[i] = cv.table[buf[i]];
	if (conv & CONV_SWAB)
		swab_bytes(run, buf, len);
	else
		shape_bytes(run, buf, len);
	return staging_outcome();
}

/* Stage what was held back at the end: STOP_NONE, or STOP_BLOCK_FAILED. */
enum dd_stop conv_finish(struct dd_run *run)
{
	/* Once, at the end: swab's odd byte. */
	if (cv.swab_held)
		shape_bytes(run, &cv.swab_byte, 1);
	/* block pads a last line without newline; unblock's newline waited. */
	if (ENABLE_FEATURE_DD_CONV && cv.column > 0) {
		if (run->opt->conv & CONV_BLOCK)
			output_spaces(run, cv.cbs - min_u64(cv.column, cv.cbs));
		else
			stage_output(run, &cv.newline, 1);
	}
	return staging_outcome();
}
