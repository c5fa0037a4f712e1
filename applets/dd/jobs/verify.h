/*
 * verify.h - what the files of conv=verify (FEATURE_DD_VERIFY) share:
 *   verify.c           the job's outline: arm it, finish it, report it
 *   verify_hold.c      the held first block: kept while writing, written last
 *   verify_readback.c  reading the range back from the device, comparing
 *   verify_reader.c    the read-back's reader: AIO read-ahead, or pread
 *   verify_hash.c      the chunk hash, and the hashes of the range
 */
#ifndef ZEROBOX_DD_VERIFY_H
#define ZEROBOX_DD_VERIFY_H

#include <linux/aio_abi.h>

#include "entries.h"

/* The unit of comparison, and of a mismatch's report. */
enum { CHUNK_SIZE = 1 << 20 };
/* The held first block is at least this. */
enum { HOLD_MIN = 1 << 20 };
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

struct dd_verify_state {
	uint64_t start;               /* output offset of the range */
	uint64_t next;                /* output offset of the next byte */
	struct chunk_hasher hasher;   /* the chunk next is in */
	struct lazy_buffer hashes;    /* uint64_t per whole chunk */
	uint64_t chunks;              /* hashes stored */
	uint64_t hold_size;           /* the first block's size; 0: none */
	struct lazy_buffer hold;      /* its bytes, as they were written */
	/* Read-back. */
	const char *method;           /* how it read, for the report */
	bool direct_refused;          /* O_DIRECT was refused */
	uint64_t verified;            /* bytes verified */
	uint64_t verify_ns;           /* the time it took */
	uint64_t differ_bytes, differ_chunks, first_differ;
	uint64_t progress_done, progress_total;
};

/* verify_hash.c */
void hasher_reset(struct chunk_hasher *h);
void hasher_update(struct chunk_hasher *h, const unsigned char *p, size_t len);
uint64_t hasher_final(const struct chunk_hasher *h);
void map_hashes(struct dd_verify_state *v, uint64_t size);
void store_hash(struct dd_verify_state *v);
void note_bytes(struct dd_verify_state *v, const unsigned char *data, size_t len);
void compare_chunk(struct dd_verify_state *v, struct chunk_hasher *h,
		   uint64_t chunk_offset);

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
size_t piece_at(const struct reader *r, uint64_t pos, uint64_t end,
		uint64_t align);

/* verify_readback.c */
bool verify_range(struct dd_run *run, struct lazy_buffer *buf,
		  uint64_t from, uint64_t to);
void verify_progress(struct dd_run *run, enum line_when when);

/* verify_hold.c */
bool write_held_block(struct dd_run *run, uint64_t len);

#endif
