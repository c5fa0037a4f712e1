/*
 * verify.h - what the files of conv=verify (FEATURE_DD_VERIFY) share:
 *   verify.c           the job's outline: arm it, finish it, report it
 *   verify_hold.c      the held first block: kept while writing, written last
 *   verify_readback.c  reading the extents back from the device, comparing
 *   verify_locate.c    the first differing byte of a chunk whose hash differs
 *   verify_reader.c    the read-back's reader: AIO read-ahead, or pread
 *   verify_hash.c      the chunk hash, and the hashes of the chunks written
 */
#ifndef ZEROBOX_DD_VERIFY_H
#define ZEROBOX_DD_VERIFY_H

#include <linux/aio_abi.h>

#include "entries.h"

/* The unit of comparison, and of a mismatch's report: chunks are counted
 * from the range's start on the output, whatever was written in them. */
enum { CHUNK_SIZE = 1 << 20 };
/* The held first block: the first chunk, whatever obs is. */
enum { HOLD_SIZE = CHUNK_SIZE };
/* Read-back requests: large enough for the device's full rate. */
enum { READ_SIZE = 1 << 20 };
/* O_DIRECT offsets and lengths are kept to this (and to the device's
 * logical block size, if larger). */
enum { DIRECT_ALIGN = 4096 };

enum { STRIPE = 32 };

struct chunk_hasher {
	uint64_t lane[4];
	uint64_t length;
	unsigned char pending[STRIPE];
	size_t pending_len;
};

/* What a piece of the output is compared with. */
enum expect {
	EXPECT_HASH,      /* the chunk's hash, made as it was written */
	EXPECT_ZEROS,     /* zeros the device was asked for */
	EXPECT_BYTES,     /* bytes at hand (the held block, the input again) */
};

struct dd_verify_state {
	uint64_t start;               /* output offset of chunk 0 */
	uint64_t next;                /* output offset of the next byte */
	uint64_t in_start;            /* the input offset that went to start */
	struct chunk_hasher hasher;   /* the chunk `chunk` is in */
	uint64_t chunk;               /* the chunk being hashed */
	struct lazy_buffer hashes;    /* uint64_t per chunk, by its index */
	uint64_t hold_size;           /* the first block's size; 0: none */
	struct lazy_buffer hold;      /* its bytes, by offset from start */
	bool held_written;            /* it went to the output */
	struct extent_source own;     /* a plain copy's one extent */
	bool own_given;               /* the walk over it is past it */
	const struct extent_source *source;   /* the extents written */
	/* Read-back. */
	const char *method;           /* how it read, for the report */
	bool direct_refused;          /* O_DIRECT was refused */
	uint64_t verified;            /* bytes verified */
	uint64_t verify_ns;           /* the time it took */
	uint64_t began;               /* when the read-back began */
	uint64_t differ_chunks;       /* chunks that differ */
	uint64_t first_chunk;         /* the first of them (an offset) */
	uint64_t first_byte;          /* its first differing byte, or UINT64_MAX */
	uint64_t progress_done, progress_total;
};

/* verify_hash.c */
void hasher_reset(struct chunk_hasher *h);
void hasher_update(struct chunk_hasher *h, const unsigned char *p, size_t len);
uint64_t hasher_final(const struct chunk_hasher *h);
void map_hashes(struct dd_verify_state *v, uint64_t size);
void store_hash(struct dd_verify_state *v);
void note_bytes(struct dd_verify_state *v, const unsigned char *data, size_t len);
uint64_t stored_hash(const struct dd_verify_state *v, uint64_t chunk);
uint64_t chunk_of(const struct dd_verify_state *v, uint64_t offset);
size_t first_difference(const unsigned char *a, const unsigned char *b,
			size_t len);
size_t first_nonzero(const unsigned char *p, size_t len);

/* verify_reader.c */
/*
 * start() asks for the piece at pos; finish() waits for it and says
 * where its bytes are.  With AIO the pieces go to the two halves of the
 * buffer in turn, and the next piece can be started before this one is
 * hashed; without, one pread into the whole buffer.
 */
struct reader {
	int fd;
	aio_context_t aio;           /* 0: pread */
	struct iocb request;
	unsigned char *area[2];      /* where the pieces land, in turn */
	size_t piece_max;            /* the most one piece may be */
	int filling;                 /* the area of the piece started */
	bool started;
	uint64_t pos;                /* the piece started */
	size_t len;
};

void reader_open(struct reader *r, int fd, struct lazy_buffer *buf,
		 uint64_t align, bool ahead);
int reader_start(struct reader *r, uint64_t pos, size_t len);
ssize_t reader_finish(struct dd_run *run, struct reader *r,
		      const unsigned char **data);
void reader_close(struct reader *r);

/* verify_readback.c */
/* A walk over the extents in [from, to), a piece at a time: each piece
 * is one read of the device, aligned, of which [lo, hi) is theirs. */
struct piece {
	uint64_t read_at;            /* aligned */
	size_t read_len;             /* aligned, at most the walk's piece_max */
	uint64_t lo, hi;
	bool zeros;
};
struct walk {
	const struct extent_source *source;
	uint64_t from, to, align;
	size_t piece_max;
	struct written_extent extent;   /* clipped to [from, to) */
	uint64_t pos;                   /* its next byte */
	bool done;
};
void walk_start(struct walk *w, const struct extent_source *source,
		uint64_t from, uint64_t to, uint64_t align, size_t piece_max);
bool next_piece(struct walk *w, struct piece *p);
/* Read the extents in [from, to) back and compare them as `how` says
 * (EXPECT_BYTES: with the held block).  False after a read error
 * (reported). */
bool verify_window(struct dd_run *run, struct lazy_buffer *buf,
		   uint64_t from, uint64_t to, enum expect how);
void verify_progress(struct dd_run *run, enum line_when when);
/* The read-back's own descriptor of the output: O_DIRECT unless that was
 * refused (then the cache is dropped first).  -1 with errno. */
int open_for_reading(struct dd_run *run);
/* One aligned read into buf, all of len or an error: 0, or an errno. */
int read_fully(struct dd_run *run, int fd, unsigned char *buf, size_t len,
	       uint64_t at);
/* What O_DIRECT needs of fd's offsets and lengths. */
uint64_t direct_alignment(const struct dd_run *run);

/* verify_locate.c: where the first differing chunk (by hash) differs,
 * from the input read again, when it can be; v->first_byte. */
void locate_first_byte(struct dd_run *run, struct lazy_buffer *buf);

/* verify_hold.c */
bool write_held_block(struct dd_run *run);

#endif
