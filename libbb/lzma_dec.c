/*
 * lzma_dec.c - LZMA's symbols: the range decoder, the literal, match
 * and repeated-match coders and the twelve-state machine, decoding
 * straight into the dictionary window (xz.h).  LZMA2 (lzma2_dec.c)
 * frames it: it starts each chunk's range coder and says where the
 * chunk's output ends.
 *
 * The whole decoder lives in lzma_decode's locals while it runs; built
 * for speed, the helpers below are forced inline so that they stay
 * there.  The range
 * coder normalises before each bit, as the format's reference decoders
 * do, so it has read exactly the bytes a symbol needed when the symbol
 * ends; its arithmetic is theirs to the bit, also on corrupt input.
 */
#include <string.h>

#include "xz.h"

/* FEATURE_XZ_FAST: every coder is forced inline (its trees unrolled)
 * into the one decode loop, and the Makefile builds this file with -O2;
 * else the compiler decides, for size. */
#if ENABLE_FEATURE_XZ_FAST
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static
#endif

enum {
	RC_TOP = 1u << 24,      /* normalise below this */
	PROB_BITS = 11,
	PROB_ONE = 1u << PROB_BITS,
	MOVE_BITS = 5,          /* how fast a probability adapts */
	MATCH_LEN_MIN = 2,
	LITERAL_PROBS = 0x300,  /* per literal context: plain and matched trees */
	FIRST_MATCH_STATE = 7,  /* states 0-6 follow a literal */
	DIST_MODEL_END = 14,    /* slots from here take direct bits */
};

/* Where each group of probabilities starts in lzma_dec.probs. */
enum {
	P_IS_MATCH = 0,                                 /* [state][pos_state] */
	P_IS_REP = P_IS_MATCH + LZMA_STATES * LZMA_POS_STATES_MAX,
	P_IS_REP0 = P_IS_REP + LZMA_STATES,
	P_IS_REP1 = P_IS_REP0 + LZMA_STATES,
	P_IS_REP2 = P_IS_REP1 + LZMA_STATES,
	P_IS_REP0_LONG = P_IS_REP2 + LZMA_STATES,       /* [state][pos_state] */
	P_DIST_SLOT = P_IS_REP0_LONG + LZMA_STATES * LZMA_POS_STATES_MAX,
	P_DIST_SPECIAL = P_DIST_SLOT + 4 * 64,          /* slots 4-13, reversed */
	P_ALIGN = P_DIST_SPECIAL + 115,
	P_LEN = P_ALIGN + 16,
	P_REP_LEN = P_LEN + LZMA_LEN_PROBS,
	P_LITERAL = P_REP_LEN + LZMA_LEN_PROBS,
};
_Static_assert(P_LITERAL + (LITERAL_PROBS << 4) == LZMA_PROBS_MAX,
	       "xz.h's LZMA_PROBS_MAX is this layout's size");

/* Inside a length coder: two choices, then 8 short lengths per
 * pos_state, 8 middle ones per pos_state, 256 long ones. */
enum {
	LEN_CHOICE = 0,
	LEN_CHOICE2 = 1,
	LEN_LOW = 2,
	LEN_MID = LEN_LOW + (LZMA_POS_STATES_MAX << 3),
	LEN_HIGH = LEN_MID + (LZMA_POS_STATES_MAX << 3),
};

bool lzma_set_props(struct lzma_dec *d, unsigned props)
{
	if (props >= 9 * 5 * 5)
		return false;
	d->lc = props % 9;
	d->lp = props / 9 % 5;
	d->pb = props / 45;
	return d->lc + d->lp <= 4;
}

void lzma_reset_state(struct lzma_dec *d)
{
	size_t n = P_LITERAL + (LITERAL_PROBS << (d->lc + d->lp));

	for (size_t i = 0; i < n; i++)
		d->probs[i] = PROB_ONE / 2;
	d->state = 0;
	d->rep[0] = d->rep[1] = d->rep[2] = d->rep[3] = 0;
	d->pending = 0;
}

bool lzma_start_chunk(struct lzma_dec *d, struct lzma_input *in)
{
	const unsigned char *p = in->next;

	in->next += 5;
	d->range = 0xFFFFFFFF;
	d->code = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16
		| (uint32_t)p[3] << 8 | p[4];
	return p[0] == 0;
}

/* ---- the range decoder ---------------------------------------------- */

struct rc {
	uint32_t range, code;
	const unsigned char *in;
};

ALWAYS_INLINE void rc_normalize(struct rc *rc)
{
	if (rc->range < RC_TOP) {
		rc->range <<= 8;
		rc->code = rc->code << 8 | *rc->in++;
	}
}

/* One bit with an adaptive probability (of a 0, in PROB_ONE units). */
ALWAYS_INLINE unsigned rc_bit(struct rc *rc, uint16_t *prob)
{
	uint32_t bound;

	rc_normalize(rc);
	bound = (rc->range >> PROB_BITS) * *prob;
	if (rc->code < bound) {
		rc->range = bound;
		*prob += (PROB_ONE - *prob) >> MOVE_BITS;
		return 0;
	}
	rc->range -= bound;
	rc->code -= bound;
	*prob -= *prob >> MOVE_BITS;
	return 1;
}

/* A bits-bit number, most significant bit first, through a tree of
 * probabilities (node 1 is the root, node n's children 2n and 2n+1). */
ALWAYS_INLINE unsigned rc_tree(struct rc *rc, uint16_t *probs, unsigned bits)
{
	unsigned node = 1;

	for (unsigned i = 0; i < bits; i++)
		node = node << 1 | rc_bit(rc, &probs[node]);
	return node - (1u << bits);
}

/* The same tree, the number's least significant bit first. */
ALWAYS_INLINE unsigned rc_tree_reverse(struct rc *rc, uint16_t *probs,
				       unsigned bits)
{
	unsigned node = 1, value = 0;

	for (unsigned i = 0; i < bits; i++) {
		unsigned bit = rc_bit(rc, &probs[node]);

		node = node << 1 | bit;
		value |= bit << i;
	}
	return value;
}

/* Bits of even probability.  Each halves the range; the bit is 1 unless
 * taking the half from code wraps it into the upper half, and then the
 * half goes back (exactly as the reference decoders compute it, which
 * matters once a corrupt stream has code >= range).  Without a branch:
 * these bits are unpredictable. */
ALWAYS_INLINE uint32_t rc_direct(struct rc *rc, unsigned bits)
{
	uint32_t value = 0;

	while (bits--) {
		uint32_t wrapped;

		rc_normalize(rc);
		rc->range >>= 1;
		rc->code -= rc->range;
		wrapped = 0 - (rc->code >> 31);
		rc->code += rc->range & wrapped;
		value = value << 1 | (wrapped + 1);
	}
	return value;
}

/* ---- symbols ---------------------------------------------------------- */

/* A match length, 2-273: a short (2-9), middle (10-17) or long one. */
ALWAYS_INLINE unsigned decode_len(struct rc *rc, uint16_t *lc, unsigned pos_state)
{
	if (!rc_bit(rc, &lc[LEN_CHOICE]))
		return MATCH_LEN_MIN + rc_tree(rc, &lc[LEN_LOW + (pos_state << 3)], 3);
	if (!rc_bit(rc, &lc[LEN_CHOICE2]))
		return MATCH_LEN_MIN + 8 + rc_tree(rc, &lc[LEN_MID + (pos_state << 3)], 3);
	return MATCH_LEN_MIN + 16 + rc_tree(rc, &lc[LEN_HIGH], 8);
}

/* A new match's distance minus 1, after its length: the lengths 2, 3,
 * 4 and the longer ones have a slot tree each.  A six-bit slot gives the top two bits and the number of
 * bits below them; slots 4-13 code those with their own reversed trees,
 * higher slots with direct bits and four reversed "align" bits. */
ALWAYS_INLINE uint32_t decode_dist(struct rc *rc, uint16_t *p, unsigned len)
{
	unsigned len_state = len < MATCH_LEN_MIN + 3 ? len - MATCH_LEN_MIN : 3;
	unsigned slot = rc_tree(rc, &p[P_DIST_SLOT + (len_state << 6)], 6);
	unsigned bits;
	uint32_t dist;

	if (slot < 4)
		return slot;
	bits = (slot >> 1) - 1;
	dist = (2 | (slot & 1)) << bits;
	if (slot < DIST_MODEL_END)
		return dist + rc_tree_reverse(rc, &p[P_DIST_SPECIAL + dist - slot], bits);
	dist += rc_direct(rc, bits - 4) << 4;
	return dist + rc_tree_reverse(rc, &p[P_ALIGN], 4);
}

/* A literal byte through the tree at lit.  After a match the tree
 * first follows the byte at the last distance (match) as long as the
 * decoded bits agree with its bits: while they do, mode is 0x100 and
 * the match bit picks the second or third 0x100 probabilities; from the
 * first difference on (and for a plain literal from the start), mode is
 * 0 and the first 0x100 serve. */
ALWAYS_INLINE unsigned decode_literal(struct rc *rc, uint16_t *lit, unsigned mode,
				      unsigned match)
{
	unsigned sym = 1;

	for (int i = 0; i < 8; i++) {
		unsigned match_bit, bit;

		match <<= 1;
		match_bit = match & mode;
		bit = rc_bit(rc, &lit[mode + match_bit + sym]);
		sym = sym << 1 | bit;
		mode &= ~(match_bit ^ bit << 8);
	}
	return sym & 0xff;
}

/* Which of rep[1-3] (rep[0] is rep0, kept by the caller) a repeated
 * match takes: it moves to the front, the others down.  Returns it. */
ALWAYS_INLINE uint32_t older_distance(struct rc *rc, uint16_t *p, unsigned state,
				      uint32_t *rep, uint32_t rep0)
{
	uint32_t dist = rep[1];

	if (rc_bit(rc, &p[P_IS_REP1 + state])) {
		dist = rep[2];
		if (rc_bit(rc, &p[P_IS_REP2 + state])) {
			dist = rep[3];
			rep[3] = rep[2];
		}
		rep[2] = rep[1];
	}
	rep[1] = rep0;
	return dist;
}

/* ---- the window ------------------------------------------------------ */

/* The byte back bytes before pos (1 <= back <= the history). */
ALWAYS_INLINE unsigned char window_byte(const struct lz_window *w, size_t pos, size_t back)
{
	return w->buf.data[pos >= back ? pos - back : pos + w->size - back];
}

/* Copy n bytes to dst from back bytes before it, forward, so that a
 * copy longer than its distance repeats its start, as LZ77 means; eight
 * bytes at a time where the distance allows, overrunning the end by up
 * to LZ_OVERRUN bytes (xz.h says why that is harmless). */
ALWAYS_INLINE void copy_forward(unsigned char *dst, const unsigned char *src,
				size_t back, size_t n)
{
	if (back >= 8) {
		for (size_t i = 0; i < n; i += 8) {
			uint64_t word;

			memcpy(&word, src + i, 8);
			memcpy(dst + i, &word, 8);
		}
		return;
	}
	while (n--)
		*dst++ = *src++;
}

/* Copy n bytes from back bytes before pos to pos (pos + n <= size). */
ALWAYS_INLINE void copy_match(struct lz_window *w, size_t pos, size_t back, size_t n)
{
	unsigned char *dst = w->buf.data + pos;

	if (pos < back) {
		/* The source starts in the window's tail, left of the wrap:
		 * that part first (a word read past size reads the slack,
		 * and the bytes it puts past the part are written again). */
		size_t from = pos + w->size - back, part = w->size - from;

		if (part >= n) {
			copy_forward(dst, w->buf.data + from, back, n);
			return;
		}
		copy_forward(dst, w->buf.data + from, back, part);
		dst += part;
		n -= part;
	}
	/* A short distance repeats a pattern (a run of zeros is distance
	 * 1): once it stands twice, it repeats at twice the distance too,
	 * so the word copy soon takes over. */
	while (back < 8 && n > back) {
		const unsigned char *src = dst - back;

		for (size_t i = 0; i < back; i++)
			dst[i] = src[i];
		dst += back;
		n -= back;
		back *= 2;
	}
	copy_forward(dst, dst - back, back, n);
}

/* ---- the decoder ------------------------------------------------------ */

enum lzma_result lzma_decode(struct lzma_dec *d, struct lz_window *w,
			     size_t out_end, struct lzma_input *in)
{
	struct rc rc = { d->range, d->code, in->next };
	const unsigned char *const in_end = in->end;
	uint16_t *const p = d->probs;
	unsigned char *const dict = w->buf.data;
	const unsigned pb_mask = (1u << d->pb) - 1, lp_mask = (1u << d->lp) - 1;
	const unsigned lc = d->lc;
	/* How far back a match may reach: dict_size, or pos before that. */
	const size_t dict_size = w->dict_size;
	const bool wrapped = w->wrapped;
	/* The older distances live in d->rep[1-3]: rarely needed, they
	 * would only crowd the registers. */
	uint32_t rep0 = d->rep[0];
	unsigned state = d->state;
	size_t pos = w->pos, len = d->pending;
	enum lzma_result res = LZMA_FILLED;

	for (;;) {
		unsigned pos_state;
		uint16_t *lens;
		bool fresh;

		if (len) {
			/* A match: what fits before out_end. */
			size_t n = len < out_end - pos ? len : out_end - pos;

			copy_match(w, pos, (size_t)rep0 + 1, n);
			pos += n;
			len -= n;
			if (len) {
				res = LZMA_CUT;
				break;
			}
		}
		if (pos >= out_end || rc.in > in_end)
			break;
		pos_state = pos & pb_mask;
		if (!rc_bit(&rc, &p[P_IS_MATCH + state * LZMA_POS_STATES_MAX + pos_state])) {
			unsigned prev = pos ? dict[pos - 1] : wrapped ? dict[w->size - 1] : 0;
			uint16_t *lit = p + P_LITERAL + LITERAL_PROBS
				* (((pos & lp_mask) << lc) + (prev >> (8 - lc)));
			bool after_match = state >= FIRST_MATCH_STATE;
			unsigned match = after_match ? window_byte(w, pos, (size_t)rep0 + 1) : 0;

			dict[pos] = (unsigned char)decode_literal(&rc, lit,
				after_match ? 0x100 : 0, match);
			pos++;
			state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
			continue;
		}
		/* A match: a new distance (after its length), the last one
		 * for a single byte, or one of the last four. */
		lens = &p[P_REP_LEN];
		fresh = !rc_bit(&rc, &p[P_IS_REP + state]);
		if (fresh) {
			lens = &p[P_LEN];
			state = state < FIRST_MATCH_STATE ? 7 : 10;
		} else if (!rc_bit(&rc, &p[P_IS_REP0 + state])) {
			if (!rc_bit(&rc, &p[P_IS_REP0_LONG + state * LZMA_POS_STATES_MAX + pos_state]))
				len = 1;
			state = state < FIRST_MATCH_STATE ? (len ? 9 : 8) : 11;
		} else {
			rep0 = older_distance(&rc, p, state, d->rep, rep0);
			state = state < FIRST_MATCH_STATE ? 8 : 11;
		}
		if (!len)
			len = decode_len(&rc, lens, pos_state);
		if (fresh) {
			d->rep[3] = d->rep[2];
			d->rep[2] = d->rep[1];
			d->rep[1] = rep0;
			rep0 = decode_dist(&rc, p, len);
		}
		/* The end marker's distance (2^32 - 1) fails here too. */
		if (rep0 >= dict_size || (!wrapped && rep0 >= pos)) {
			res = LZMA_BAD;
			len = 0;
			break;
		}
	}
	/* A symbol that read past the end needed input that is not there:
	 * that comes before whatever else it found. */
	if (rc.in > in_end)
		res = LZMA_OVERRUN;
	in->next = rc.in;
	d->range = rc.range;
	d->code = rc.code;
	d->rep[0] = rep0;
	d->state = state;
	d->pending = (uint32_t)len;
	w->pos = pos;
	return res;
}

bool lzma_chunk_finished(struct lzma_dec *d, struct lzma_input *in)
{
	struct rc rc = { d->range, d->code, in->next };

	rc_normalize(&rc);
	in->next = rc.in;
	d->range = rc.range;
	d->code = rc.code;
	return rc.in == in->end && rc.code == 0;
}
