/*
 * xz.h - what the parts of the .xz decoder share (docs/unpack.md has the
 * design).  xz_dec.c reads the container (streams, blocks, index) and
 * hands each block's compressed data to lzma2_dec.c (LZMA2 chunks),
 * which runs lzma_dec.c (the LZMA symbols and the range coder) into the
 * dictionary window; what comes out of the window goes through the
 * filters (bcj.c, delta.c) and the check on its way to unpack_write.
 * Only libbb.h's xz_decode is for applets; this header is the decoder's.
 */
#ifndef ZEROBOX_XZ_H
#define ZEROBOX_XZ_H

#include "libbb.h"

/* What went wrong, one word per message xz prints (xz_dec.c prints it). */
enum xz_status {
	XZ_OK,
	XZ_CORRUPT,             /* "Compressed data is corrupt" */
	XZ_TRUNCATED,           /* "Unexpected end of input" (or a read error,
				 * which the front end reported) */
	XZ_UNSUPPORTED,         /* "Unsupported options" */
	XZ_MEMLIMIT,            /* -M: "Memory usage limit reached" */
	XZ_NO_MEMORY,           /* an allocation failed */
	XZ_WRITE_FAILED,        /* unpack_write reported it */
	XZ_NOT_XZ,              /* "File format not recognized" */
	XZ_LZMA_ALONE,          /* the same, for a .lzma file */
};

/* The little-endian 32-bit number at p (any alignment). */
static inline uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16
		| (uint32_t)p[3] << 24;
}

/* ---- the dictionary window and the LZMA decoder (lzma_dec.c) ------- */

/*
 * The dictionary is also the output buffer: LZMA writes into it, matches
 * copy from it, and its bytes are handed on from there.  It grows with
 * the output (mremap) up to max, then wraps around at size.  pos counts
 * from the last dictionary reset until the first wrap, so pos & 15 is
 * the position LZMA's contexts see (size is a multiple of 16).  A match
 * copy may write LZ_OVERRUN bytes past its end: the buffer has LZ_SLACK
 * bytes after size for that, and size is at least the dictionary size +
 * LZ_OVERRUN, so that the overrun never reaches history still needed.
 */
enum { LZ_OVERRUN = 8, LZ_SLACK = 64 };
struct lz_window {
	struct lazy_buffer buf;
	size_t size;            /* where pos wraps: buf.capacity - LZ_SLACK */
	size_t pos;             /* the next byte goes here */
	size_t done;            /* [done, pos): new, not yet given out */
	size_t kept;            /* [kept, done): given out, still wanted */
	size_t max;             /* the capacity it may grow to */
	uint32_t dict_size;     /* how far back a match may reach */
	bool wrapped;           /* pos went round once: all dict_size is history */
};

/* Input of one LZMA chunk: bytes up to end are the chunk's (all of them
 * when end is its true end); reading up to LZMA_IN_SLACK bytes past end
 * must be harmless, as a symbol can overrun end before it is noticed. */
enum { LZMA_IN_SLACK = 64 };
struct lzma_input {
	const unsigned char *next, *end;
};

/* LZMA's adaptive probabilities, one array; PROBS_MAX holds them for
 * lc + lp = 4, the most LZMA2 allows. */
enum {
	LZMA_STATES = 12,
	LZMA_POS_STATES_MAX = 16,
	LZMA_LEN_PROBS = 2 + 2 * (LZMA_POS_STATES_MAX << 3) + 256,
	LZMA_PROBS_MAX = LZMA_STATES * LZMA_POS_STATES_MAX * 2
		+ 4 * LZMA_STATES + 4 * 64 + 115 + 16 + 2 * LZMA_LEN_PROBS
		+ (0x300 << 4),
};

struct lzma_dec {
	uint32_t range, code;   /* the range coder */
	uint32_t rep[4];        /* the last four match distances, minus 1 */
	unsigned state;         /* 0-11: what the last symbols were */
	unsigned lc, lp, pb;    /* literal context, literal and position bits */
	uint32_t pending;       /* bytes of a match still to copy */
	uint16_t probs[LZMA_PROBS_MAX];
};

/* lc, lp and pb from LZMA2's properties byte: false if it is invalid
 * for LZMA2 (pb > 4, lc + lp > 4). */
bool lzma_set_props(struct lzma_dec *d, unsigned props);
/* Every probability back to even, the state and distances to zero. */
void lzma_reset_state(struct lzma_dec *d);
/* Start the range coder on a chunk: false if its first byte is not 0. */
bool lzma_start_chunk(struct lzma_dec *d, struct lzma_input *in);

enum lzma_result {
	LZMA_FILLED,            /* the window reached out_end between symbols */
	LZMA_CUT,               /* a match was cut at out_end: d->pending left */
	LZMA_OVERRUN,           /* the input went past in->end */
	LZMA_BAD,               /* a distance before the history, or an end
				 * marker (LZMA2 has none) */
};
/* Decode into w until w->pos reaches out_end (at most w->size),
 * finishing a pending match first. */
enum lzma_result lzma_decode(struct lzma_dec *d, struct lz_window *w,
			     size_t out_end, struct lzma_input *in);
/* After the chunk's last symbol: true if the range coder ends exactly at
 * in->end, as the encoder's flush leaves it. */
bool lzma_chunk_finished(struct lzma_dec *d, struct lzma_input *in);

/* ---- LZMA2 (lzma2_dec.c) ------------------------------------------- */

enum lzma2_at { L2_CONTROL, L2_LZMA, L2_COPY, L2_END };

struct lzma2_dec {
	struct lzma_dec *lzma;
	struct lz_window win;
	struct lazy_buffer gather;      /* a chunk the input buffer splits */
	enum lzma2_at at;
	bool need_dict_reset, need_props;
	bool reset_dict;                /* the chunk begins with a dictionary reset */
	bool chunk_started;             /* its range coder has begun */
	uint32_t chunk_left;            /* uncompressed bytes left in the chunk */
	struct lzma_input in;           /* the LZMA chunk's compressed bytes */
	enum xz_status short_in;        /* XZ_OK: in.end is the chunk's end; else
					 * why the bytes stop short of it */
	uint64_t in_left, out_left;     /* what the block may still take, give */
	uint64_t mem_left;              /* what the window may grow to (-M) */
	bool release;                   /* the caller must let win.kept go */
};

/* Allocate the LZMA state (d zeroed before).  XZ_OK or XZ_NO_MEMORY. */
enum xz_status lzma2_init(struct lzma2_dec *d);
void lzma2_free(struct lzma2_dec *d);
/* Begin a block's LZMA2 stream: a dictionary of dict_size, at most in_max
 * compressed and out_max uncompressed bytes (UINT64_MAX: no limit), the
 * window at most mem_max bytes. */
void lzma2_start(struct lzma2_dec *d, uint32_t dict_size, uint64_t in_max,
		 uint64_t out_max, uint64_t mem_max);
/* The memory the window needs for dict_size (what -M is compared with). */
size_t lzma2_window_size(uint32_t dict_size);
/*
 * Decode until LZMA2_STEP new bytes are ready, the window must be
 * emptied, or the stream's end (then d->at is L2_END).  The caller takes
 * the new bytes, [win.done, win.pos), and moves win.done to win.pos; it
 * may keep bytes it took in the window, from win.kept on, until
 * d->release asks for them: then it hands them on and moves win.kept to
 * win.done before the next call.  Offsets, not pointers: the window may
 * move as it grows.  Returns XZ_OK or what went wrong.
 */
enum { LZMA2_STEP = 256 << 10 };
enum xz_status lzma2_decode(struct lzma2_dec *d, struct unpack_io *io);

/* ---- filters (bcj.c, delta.c) -------------------------------------- */

enum {
	XZ_FILTER_DELTA = 0x03,
	XZ_FILTER_X86 = 0x04,
	XZ_FILTER_POWERPC = 0x05,
	XZ_FILTER_IA64 = 0x06,
	XZ_FILTER_ARM = 0x07,
	XZ_FILTER_ARMTHUMB = 0x08,
	XZ_FILTER_SPARC = 0x09,
	XZ_FILTER_ARM64 = 0x0A,
	XZ_FILTER_LZMA2 = 0x21,
};

/* One non-last filter of a block, decoding in place. */
struct xz_filter {
	unsigned id;
	uint32_t pos;           /* BCJ: the address of the next byte */
	uint32_t x86_last;      /* x86: the address of the last E8/E9 */
	unsigned char x86_alone, x86_alone_near;   /* x86: see bcj.c */
	unsigned dist;          /* delta: the distance */
	unsigned char history[256];     /* delta: the last 256 bytes, ring */
	unsigned char at;       /* delta: where history's newest byte is */
};

/* Decode buf[0, len) in place.  Returns how many bytes at its start are
 * final; the rest must come again, with what follows them, in the next
 * call.  At the end of the data the rest stays as it is. */
size_t bcj_filter(struct xz_filter *f, unsigned char *buf, size_t len);
size_t delta_filter(struct xz_filter *f, unsigned char *buf, size_t len);

/* ---- the container (xz_dec.c) and its blocks (xz_block.c) --------- */

/* What the blocks of a stream add up to, and what its index lists: the
 * two must agree (the records' order too, through the CRC-32, which is
 * here for that; the blocks' checks guard the data).  All zero to begin. */
struct xz_index_sum {
	uint64_t count, unpadded, uncompressed;
	uint32_t hash;          /* CRC-32 of every (unpadded, uncompressed) pair */
};
/* Its bytes without the padding at its end: two sums are equal when
 * memcmp finds these equal. */
#define XZ_INDEX_SUM_BYTES (offsetof(struct xz_index_sum, hash) + sizeof(uint32_t))
/* A variable-length integer at p, at most end - p bytes: its length, or
 * 0 if it is invalid (over 9 bytes, a needless zero byte, cut). */
size_t xz_get_vli(const unsigned char *p, const unsigned char *end, uint64_t *v);
/* Count one more block (or record) into s. */
void xz_index_sum_add(struct xz_index_sum *s, uint64_t unpadded, uint64_t uncompressed);
/* The largest Unpadded Size (a multiple of 4 below 2^63). */
#define XZ_UNPADDED_MAX (UINT64_C(0x7FFFFFFFFFFFFFFC))

/* One .xz file being decoded. */
struct xz_dec {
	struct unpack_io *io;
	struct lzma2_dec lzma2;
	unsigned check;                 /* the stream's check ID */
	struct xz_index_sum blocks;     /* the blocks decoded in the stream */
	bool warned;                    /* a warning was printed */
	struct lazy_buffer fbuf;        /* a filtered block's output */
	const char *absent;             /* message: a filter this build lacks */
	bool absent_switched_off;       /* its switch is off (else zerobox has none) */
	uint64_t mem_needed;            /* message: what -M or ENOMEM stopped */
};

/* Decode the block whose header begins with size_byte (not 0, which is
 * the index), up to and including its check.  XZ_OK or what went wrong. */
enum xz_status xz_decode_block(struct xz_dec *x, unsigned size_byte);

#endif
