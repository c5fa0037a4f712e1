/*
 * fuzz_conv.c - the conversion pipeline (conv_init, conv_record,
 * conv_finish) with block/unblock/swab/sync and the character tables,
 * any cbs= and any record boundaries, checked against a slow reference
 * written from the specification, not from conv.c:
 *
 *   records (each padded to ibs under sync, with spaces when block or
 *   unblock is on, else NULs) -> translate -> swap byte pairs across the
 *   whole stream (an odd last byte stays) -> block: each line cut or
 *   padded to cbs, newline dropped, a last unterminated line padded;
 *   unblock: each cbs-byte record minus trailing spaces, plus newline.
 *
 * Plus the invariants: block output is a multiple of cbs; no
 * unblocked record ends in a space before its newline.
 *
 * conv.c is linked as it is: conv_init resets its state, so each input
 * starts afresh; stage_output is a stub that appends to a buffer (and
 * staging_outcome one that never fails).
 *
 * Input: 7 header bytes, then the data.
 *   [0] conversions: bit0-1 shape (0 none, 1 block, 2 unblock, 3 none),
 *       bit2 swab, bit3 sync, bit4-6 table (0 none, 1 ascii, 2 ebcdic,
 *       3 ibm, 4 lcase, 5 ucase, 6 ascii+lcase, 7 ebcdic+ucase),
 *       bit7 huge cbs (unblock/none only)
 *   [1-2] cbs, [3-4] ibs (both 1-based, capped), [5-6] record-split seed
 */
#include <string.h>

#include "dd.h"
#include "fuzz.h"

#include <stdlib.h>

static unsigned char *out;
static size_t out_len, out_cap;

/* conv.c's only calls out of itself: staging and the truncation count. */
void tally_truncated_record(struct dd_run *run)
{
	run->tally.truncated_records++;
}

void stage_output(struct dd_run *run, const unsigned char *data, size_t len)
{
	(void)run;
	if (!len)
		return;
	if (out_len + len > out_cap) {
		size_t cap = out_cap ? out_cap : 4096;

		while (cap < out_len + len)
			cap *= 2;
		out = realloc(out, cap);
		FUZZ_CHECK(out != NULL);
		out_cap = cap;
	}
	memcpy(out + out_len, data, len);
	out_len += len;
}

/* The stub never fails. */
enum dd_stop staging_outcome(void)
{
	return STOP_NONE;
}

/* A growable byte string for the reference. */
struct bytes { unsigned char *p; size_t n, cap; };

static void put(struct bytes *b, const void *data, size_t len)
{
	if (!len)
		return;
	if (b->n + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->n + len)
			cap *= 2;
		b->p = realloc(b->p, cap);
		FUZZ_CHECK(b->p != NULL);
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
}

static void put_repeat(struct bytes *b, unsigned char c, uint64_t n)
{
	while (n--)
		put(b, &c, 1);
}

static const unsigned table_convs[8] = {
	0, CONV_ASCII, CONV_EBCDIC, CONV_IBM, CONV_LCASE, CONV_UCASE,
	CONV_ASCII | CONV_LCASE, CONV_EBCDIC | CONV_UCASE,
};

/* The conversions a mode byte asks for, as the operand parser would
 * leave them; false for a combination it refuses. */
static bool options_from(struct dd_options *opt, unsigned mode, uint64_t cbs,
			 uint64_t ibs)
{
	memset(opt, 0, sizeof(*opt));
	opt->ibs = ibs;
	opt->obs = 512;
	opt->cbs = cbs;
	opt->conv = table_convs[(mode >> 4) & 7];
	if ((mode & 3) == 1)
		opt->conv |= CONV_BLOCK;
	if ((mode & 3) == 2)
		opt->conv |= CONV_UNBLOCK;
	if (mode & 4)
		opt->conv |= CONV_SWAB;
	if (mode & 8)
		opt->conv |= CONV_SYNC;
	if (!ENABLE_FEATURE_DD_CONV)
		opt->conv &= CONV_SWAB | CONV_SYNC;
	/* ascii implies unblock, ebcdic/ibm block, as operands.c has it. */
	if (opt->conv & CONV_ASCII)
		opt->conv |= CONV_UNBLOCK;
	if (opt->conv & (CONV_EBCDIC | CONV_IBM))
		opt->conv |= CONV_BLOCK;
	if ((opt->conv & CONV_BLOCK) && (opt->conv & CONV_UNBLOCK))
		return false;   /* refused by the operand parser */
	if ((mode & 0x80) && !(opt->conv & CONV_BLOCK))
		opt->cbs = ((uint64_t)1 << 62) + cbs;   /* never reached */
	return true;
}

/* Feed d[0..n) to the converter in records of pseudo-random lengths in
 * [1, ibs], as reads give them; what went in is kept in stream. */
static void feed_records(struct dd_run *run, const uint8_t *d, size_t n,
			 unsigned seed, struct bytes *stream)
{
	const struct dd_options *opt = run->opt;
	size_t ibs = (size_t)opt->ibs;
	unsigned char pad = opt->conv & (CONV_BLOCK | CONV_UNBLOCK) ? ' ' : 0;
	unsigned char *rec = malloc(ibs);
	uint32_t x = seed * 2654435761u + 1;

	FUZZ_CHECK(rec != NULL);
	for (size_t i = 0; i < n; ) {
		size_t len;

		x = x * 1103515245u + 12345u;
		len = (size_t)((x >> 8) % ibs) + 1;
		if (len > n - i)
			len = n - i;
		memcpy(rec, d + i, len);
		i += len;
		if (opt->conv & CONV_SYNC) {
			memset(rec + len, pad, ibs - len);
			len = ibs;
		}
		put(stream, rec, len);
		conv_record(run, rec, len);
	}
	free(rec);
	conv_finish(run);
}

/* conv.c's translation table, as conv_record applies it to the 256
 * byte values with no swab and no shape (identity without a table). */
static void probe_table(const struct dd_options *opt, unsigned char table[256])
{
	struct dd_options plain = *opt;
	struct dd_run run;
	unsigned char all[256];

	plain.conv &= ~(unsigned)(CONV_BLOCK | CONV_UNBLOCK | CONV_SWAB);
	for (unsigned c = 0; c < 256; c++)
		all[c] = (unsigned char)c;
	memset(&run, 0, sizeof(run));
	run.opt = &plain;
	out_len = 0;
	conv_init(&plain);
	conv_record(&run, all, sizeof(all));
	FUZZ_CHECK(out_len == 256);
	memcpy(table, out, 256);
	out_len = 0;
}

/* The reference of what went in: translate (by table), swab, shape
 * into ref; returns the lines block cut. */
static uint64_t reference(const struct dd_run *run, const unsigned char *table,
			  struct bytes *stream, struct bytes *ref)
{
	const struct dd_options *opt = run->opt;
	unsigned char space = ' ', newline = '\n';
	unsigned char *s = stream->p;
	size_t n = stream->n;
	uint64_t cbs = opt->cbs, truncated = 0;

	if (ENABLE_FEATURE_DD_CONV && (opt->conv & (CONV_EBCDIC | CONV_IBM))) {
		space = 0x40;
		newline = 0x25;
	}
	if (ENABLE_FEATURE_DD_CONV)
		for (size_t i = 0; i < n; i++)
			s[i] = table[s[i]];
	if (opt->conv & CONV_SWAB)
		for (size_t i = 0; i + 1 < n; i += 2) {
			unsigned char c = s[i];
			s[i] = s[i + 1];
			s[i + 1] = c;
		}
	if (ENABLE_FEATURE_DD_CONV && (opt->conv & CONV_BLOCK)) {
		for (size_t i = 0, j; i < n; i = j + 1) {   /* past the newline */
			for (j = i; j < n && s[j] != newline; j++)
				;
			if (j - i > cbs) {
				put(ref, s + i, cbs);
				truncated++;
			} else {
				put(ref, s + i, j - i);
				put_repeat(ref, space, cbs - (j - i));
			}
		}
		FUZZ_CHECK(out_len % cbs == 0);
	} else if (ENABLE_FEATURE_DD_CONV && (opt->conv & CONV_UNBLOCK)) {
		for (size_t i = 0; i < n; ) {
			size_t len = n - i < cbs ? n - i : (size_t)cbs;
			size_t keep = len;

			while (keep && s[i + keep - 1] == space)
				keep--;
			put(ref, s + i, keep);
			put(ref, &newline, 1);
			i += len;
		}
		/* Each record's newline follows a non-space or nothing. */
		FUZZ_CHECK(out_len == 0 || out[out_len - 1] == newline);
	} else if (n) {
		put(ref, s, n);
	}
	return truncated;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dd_options opt;
	struct dd_run run;
	struct bytes stream = { 0 }, ref = { 0 };
	unsigned char table[256];
	uint64_t truncated;

	if (size < 7 || size > 8192)
		return 0;
	if (!options_from(&opt, data[0],
			  (uint64_t)(data[1] | data[2] << 8) % 300 + 1,
			  (uint64_t)(data[3] | data[4] << 8) % 257 + 1))
		return 0;
	probe_table(&opt, table);
	/* A fresh run, as a fresh process would have it. */
	out_len = 0;
	memset(&run, 0, sizeof(run));
	run.opt = &opt;
	conv_init(&opt);
	feed_records(&run, data + 7, size - 7, data[5] | (unsigned)data[6] << 8,
		     &stream);
	truncated = reference(&run, table, &stream, &ref);
	FUZZ_CHECK(out_len == ref.n);
	FUZZ_CHECK(out_len == 0 || memcmp(out, ref.p, out_len) == 0);
	FUZZ_CHECK(run.tally.truncated_records == truncated);
	free(stream.p);
	free(ref.p);
	return 0;
}
