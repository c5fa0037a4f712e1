/* dd.h - what the parts of dd share: one file a concern (docs/design.md,
 * "The pipeline"), calls only down scripts/layers.order.  Each function's
 * contract is on its definition. */
#ifndef ZEROBOX_DD_H
#define ZEROBOX_DD_H

#include "libbb.h"

/* conv= symbols. */
enum dd_conv {
	CONV_ASCII     = 1 << 0,
	CONV_EBCDIC    = 1 << 1,
	CONV_IBM       = 1 << 2,
	CONV_BLOCK     = 1 << 3,
	CONV_UNBLOCK   = 1 << 4,
	CONV_LCASE     = 1 << 5,
	CONV_UCASE     = 1 << 6,
	CONV_SPARSE    = 1 << 7,
	CONV_SWAB      = 1 << 8,
	CONV_SYNC      = 1 << 9,
	CONV_NOERROR   = 1 << 10,
	CONV_NOTRUNC   = 1 << 11,
	CONV_EXCL      = 1 << 12,
	CONV_NOCREAT   = 1 << 13,
	CONV_FDATASYNC = 1 << 14,
	CONV_FSYNC     = 1 << 15,
	CONV_VERIFY    = 1 << 16,  /* an extension (verify.c) */
};

/* Conversions that change bytes or record shape; any of them forces the
 * separate output buffer, as in GNU (so does ibs != obs, or no bs=). */
#define CONV_RESHAPING (CONV_ASCII | CONV_EBCDIC | CONV_IBM | CONV_BLOCK | \
			CONV_UNBLOCK | CONV_LCASE | CONV_UCASE | CONV_SWAB)

/* iflag=/oflag= symbols that are not open(2) flags. */
enum dd_flag {
	FLAG_FULLBLOCK   = 1 << 0,  /* input only */
	FLAG_COUNT_BYTES = 1 << 1,  /* input only */
	FLAG_SKIP_BYTES  = 1 << 2,  /* input only */
	FLAG_SEEK_BYTES  = 1 << 3,  /* output only */
	FLAG_NOCACHE     = 1 << 4,
};

enum dd_status {
	STATUS_DEFAULT,   /* summary with transfer statistics */
	STATUS_NONE,      /* nothing but errors */
	STATUS_NOXFER,    /* records lines only */
	STATUS_PROGRESS,  /* default, plus a line rewritten as it goes */
};

/* Everything the operands say; filled by parse_operands(), then read-only. */
struct dd_options {
	const char *input_path;     /* if=, NULL for standard input */
	const char *output_path;    /* of=, NULL for standard output */
	uint64_t ibs, obs, cbs;     /* block sizes in bytes (cbs 0 = unset) */
	bool bs_given;              /* bs= given: one write per read */
	unsigned conv;              /* CONV_* */
	bool reshaping;             /* CONV_RESHAPING given (whatever cbs=) */
	int input_open_flags;       /* O_* from iflag= */
	int output_open_flags;      /* O_* from oflag= */
	unsigned input_flags;       /* FLAG_* from iflag= */
	unsigned output_flags;      /* FLAG_* from oflag= */
	enum dd_status status;
	const char *bmap_path;      /* bmap=, NULL without (bmap.c) */
	bool zero_unmapped;         /* unmapped=zero: bmap= zeroes the rest */

	/* count=, skip=, seek= as GNU splits them: records plus bytes. */
	uint64_t max_records, max_bytes;   /* count; unlimited = UINT64_MAX */
	bool count_given;
	uint64_t skip_records, skip_bytes;
	uint64_t seek_records, seek_bytes;
};

/* How the bytes move (plan.c picks). */
enum dd_mover {
	MOVER_RECORDS,      /* the record loop: read, convert, write */
	MOVER_COALESCED,    /* zero-copy in large steps, records from bytes */
	MOVER_PER_RECORD,   /* zero-copy, one step per record (a pipe) */
	MOVER_READ_AHEAD,   /* large reads, the record loop's writes */
	MOVER_ZEROOUT,      /* zeros the block device writes (zeroout.c) */
};

/* Every limit that follows from the operands and the ends (plan.c):
 * plan_input() the sizes, plan_output() the mover and the batches. */
struct dd_plan {
	uint64_t count_bytes;      /* count= in bytes; UINT64_MAX: no limit */
	uint64_t skip_offset;      /* bytes skip= passes over */
	bool skip_overflow;        /* skip= does not fit in 64 bits */
	uint64_t seek_offset;      /* bytes seek= passes over */
	bool seek_too_large;       /* seek= is past what off_t can hold */
	bool two_buffers;          /* GNU's separate output buffer */
	uint64_t ibuf_size;        /* the input buffer to map first */
	uint64_t obuf_size;        /* the output buffer to map first */
	bool warn_partial_read;    /* GNU's "suggest iflag=fullblock" */
	bool record_steps;         /* larger records move in steps (records.c) */
	uint64_t batch_size;       /* most a pipe's batch holds; 0: none */
	uint64_t batch_write;      /* the most one write of a batch carries */

	enum dd_mover mover;
	enum copy_path path;       /* the zero-copy path, for the movers */
};

/* Counts and offsets; recordio.c is their only writer. */
struct dd_tally {
	uint64_t in_full, in_partial;
	uint64_t out_full, out_partial;
	uint64_t truncated_records;      /* conv=block: lines cut at cbs */
	uint64_t bytes_out;
	uint64_t in_offset;              /* where the next byte is read */
	uint64_t out_offset;             /* where the next byte is written */
	/* A record counts once it ends: what a large record's steps or a
	 * zero-copy mover moved of it before is its carry, in and out. */
	size_t carry_in, carry_out;
};

struct dd_run {
	const struct dd_options *opt;
	struct io_end in, out;           /* ends.c */
	struct dd_plan plan;
	struct lazy_buffer ibuf, obuf;   /* obuf: two_buffers only */
	bool final_op_was_seek;          /* conv=sparse ended in a hole */
	bool sparse_off;                 /* output can't seek: no holes */
	bool sync_at_end;                /* O_DIRECT dropped: fsync at end */
	uint64_t direct_tail;            /* where that last block began */
	size_t pending;                  /* zero-copy's record in ibuf, not out */
	struct dd_tally tally;
	struct dd_cache_state *cache;    /* nocache bookkeeping, or NULL */
	struct dd_verify_state *verify;  /* conv=verify's, or NULL */
	uint64_t expected_bytes;         /* the bytes the copy will write, when
					  * known before (bmap='s mapped bytes),
					  * else 0 */
	struct transfer transfer;        /* the signals' view (housekeeping.c) */
};

/* The two sides of a copy. */
enum dd_side { INPUT_SIDE, OUTPUT_SIDE };

/* What a write carries, for GNU's words when it fails: a block of the
 * output buffer ("writing to"), or a record as it was read ("error
 * writing"). */
enum dd_write { WRITE_RECORD, WRITE_BLOCK };

/* Where the record loop begins: at the copy's start, or where a
 * zero-copy mover handed over (its last turn was the loop's first, and
 * looked at the progress line already). */
enum records_start { RECORDS_FROM_START, RECORDS_AFTER_MOVER };

/* Whether a coalesced count is at the copy's end (the remainder a short
 * last record) or on the way (the remainder carried). */
enum coalesced_at { COALESCED_SO_FAR, COALESCED_AT_END };

/* How a copy ended (failures are reported where they happen). */
enum dd_stop {
	STOP_NONE,          /* go on */
	STOP_DONE,          /* end of input or count= reached */
	STOP_INPUT_FAILED,  /* a read error, or an image unlike its bmap: the
			     * last block and the syncs, then exit 1 */
	STOP_WRITE_FAILED,  /* a write failed: sync, then stop */
	STOP_BLOCK_FAILED,  /* a full output block failed: a failing sync
			     * then ends dd at once, no summary */
};

/* operands.c */
void parse_operands(struct dd_options *opt, char **argv);

/* ends.c */
void open_input(struct dd_run *run);
void open_output(struct dd_run *run);

/* plan.c: pure functions of the operands and the ends. */
void plan_input(struct dd_plan *plan, const struct dd_options *opt,
		const struct io_end *in);
void plan_output(struct dd_plan *plan, const struct dd_options *opt,
		 const struct io_end *in, const struct io_end *out);

/* buffers.c */
void map_buffers(struct dd_run *run);
void grow_buffer(struct dd_run *run, enum dd_side side, uint64_t want);
BB_NORETURN void die_memory_exhausted(const char *which, uint64_t size);

/* position.c */
void skip_input(struct dd_run *run);
void seek_output(struct dd_run *run);

/* zerocopy.c (FEATURE_ZEROCOPY) */
bool copy_zerocopy(struct dd_run *run);

/* records.c */
enum dd_stop copy_records(struct dd_run *run, enum records_start start);

/* batch.c (FEATURE_ZEROCOPY) */
size_t records_for_batch(struct dd_run *run);
enum dd_stop copy_batch(struct dd_run *run, size_t records, ssize_t *len);

/* conv.c (FEATURE_DD_CONV; without it only CONV_SWAB is ever set) */
void conv_init(const struct dd_options *opt);
enum dd_stop conv_record(struct dd_run *run, unsigned char *buf, size_t len);
enum dd_stop conv_finish(struct dd_run *run);

/* output.c */
void stage_output(struct dd_run *run, const unsigned char *data, size_t len);
enum dd_stop staging_outcome(void);
size_t take_staged_output(struct dd_run *run, unsigned char *end);
enum dd_stop flush_output(struct dd_run *run);
bool extend_after_final_hole(struct dd_run *run);
bool output_syncs_at_end(const struct dd_run *run);
bool sync_output(struct dd_run *run);

/* recordio.c, reading */
bool next_record_size(const struct dd_run *run, size_t *size);
ssize_t read_record(struct dd_run *run, size_t size, size_t *got);
ssize_t read_restarting(struct dd_run *run, unsigned char *buf, size_t size);
void note_read_size(struct dd_run *run, ssize_t n, size_t size);
void read_steps_at(size_t whole, size_t before);

/* recordio.c, writing */
size_t write_bytes(struct dd_run *run, const unsigned char *data, size_t len);
size_t write_whole(struct dd_run *run, const unsigned char *data, size_t len);
enum dd_stop write_counted(struct dd_run *run, const unsigned char *data,
			   size_t len, enum dd_write what);
void report_write_error(struct dd_run *run, enum dd_write what);
bool seek_over_zeros(struct dd_run *run, size_t len);

/* recordio.c: the tally, the only writer of run->tally. */
void tally_read(struct dd_run *run, size_t n);
void tally_write(struct dd_run *run, size_t written, size_t wanted);
void tally_carry_ends(struct dd_run *run);
void tally_carry(struct dd_run *run, size_t read, size_t written);
void tally_moved(struct dd_run *run, uint64_t n);
void tally_output(struct dd_run *run, uint64_t n);
void tally_coalesced(struct dd_run *run, uint64_t moved, enum coalesced_at at);
void tally_truncated_record(struct dd_run *run);
void tally_passed(struct dd_run *run, uint64_t in, uint64_t out);

/* housekeeping.c */
void catch_signals(struct dd_run *run);
void housekeep(struct dd_run *run);
void housekeep_within_record(struct dd_run *run);

/* cache.c (FEATURE_DD_NOCACHE) */
void setup_nocache(struct dd_run *run);
void drop_passed_cache(struct dd_run *run);
void finish_nocache(struct dd_run *run);
int take_held_writeback_error(void);

/* report.c */
void report_start(void);
void report_pause(void);
void report_resume(void);
void print_summary(struct dd_run *run);
BB_NORETURN void die_with_summary(struct dd_run *run);
void answer_info_request(void *run);
void die_by_interrupt(void *run, int sig);
void maybe_print_progress(struct dd_run *run);
void catch_up_progress(struct dd_run *run);
void note_failure(void);
int dd_exit_status(void);
void report_seek_error(const struct io_end *end);
void report_writeback_error(const struct io_end *end, int err);

#endif
