/*
 * dd.h - what the parts of dd share.
 *
 * dd.c reads like an outline; each step has its own file:
 *   operands.c  argv -> struct dd_options, with every check GNU makes
 *   position.c  opening the files, skip= on input, seek= on output
 *   plan.c      sizing and allocating the buffers from what the kernel
 *               knows, before the output is touched
 *   copy.c      the record loop: read, convert, stage, count
 *   output.c    each write (sparse, O_DIRECT tail) and the final syncs
 *   fastpath.c  plain copies through the zero-copy engine
 *   conv.c      conversions: character tables, swab, block/unblock
 *   cache.c     iflag=/oflag=nocache
 *   signals.c   SIGINT/SIGUSR1: handlers set flags, the loop acts
 *   report.c    the summary and status=progress
 */
#ifndef ZEROBOX_DD_H
#define ZEROBOX_DD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

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
	STATUS_PROGRESS,  /* default, plus a line rewritten every second */
};

/* Everything the operands say; filled by parse_operands(), then read-only. */
struct dd_options {
	const char *input_path;     /* if=, NULL for standard input */
	const char *output_path;    /* of=, NULL for standard output */
	uint64_t ibs, obs, cbs;     /* block sizes in bytes (cbs 0 = unset) */
	bool bs_given;              /* bs= given: one write per read */
	unsigned conv;              /* CONV_* */
	bool reshaping;             /* a CONV_RESHAPING symbol was given (even
				     * block/unblock that cbs= left inert) */
	int input_open_flags;       /* O_* from iflag= */
	int output_open_flags;      /* O_* from oflag= */
	unsigned input_flags;       /* FLAG_* from iflag= */
	unsigned output_flags;      /* FLAG_* from oflag= */
	enum dd_status status;

	/* count=, skip=, seek= split as GNU does: whole records plus bytes
	 * (the bytes part is nonzero only with *_bytes flags). */
	uint64_t max_records, max_bytes;   /* count; unlimited = UINT64_MAX */
	bool count_given;
	uint64_t skip_records, skip_bytes;
	uint64_t seek_records, seek_bytes;
};

/* Record and byte counters, as printed in the summary. */
struct dd_stats {
	uint64_t in_full, in_partial;
	uint64_t out_full, out_partial;
	uint64_t truncated_records;      /* conv=block: lines cut at cbs */
	uint64_t bytes_out;
	uint64_t start_ns;               /* monotonic start of the copy */
	uint64_t next_progress_ns;       /* status=progress: next line due */
	int progress_len;                /* status=progress: last line width */
};

/* The run: open files, buffers, counters. */
struct dd_run {
	const struct dd_options *opt;
	int exit_status;                 /* EXIT_FAILURE once anything failed */

	int in_fd;
	const char *in_name;             /* as given, quoted in messages */
	mode_t in_mode;                  /* st_mode of the input */
	bool in_seekable;                /* lseek works on the input */
	int in_seek_errno;               /* why it doesn't */
	bool in_size_known;              /* regular file or block device */
	uint64_t in_size;                /* its size, if known */
	uint64_t in_offset;              /* input offset (after skip=) */
	bool skip_short;                 /* skip= went past the input's end */

	int out_fd;
	const char *out_name;
	mode_t out_mode;
	uint64_t out_offset;             /* output offset, for nocache */
	bool final_op_was_seek;          /* conv=sparse ended in a hole */
	bool sparse_off;                 /* output can't seek: no holes */
	bool sync_at_end;                /* O_DIRECT dropped: fsync at end */

	struct lazy_buffer ibuf;         /* input records land here */
	struct lazy_buffer obuf;         /* output staging, two_buffers only */
	bool two_buffers;
	size_t obuf_fill;                /* bytes staged in obuf */

	bool warn_partial_read;          /* GNU's "suggest iflag=fullblock" */
	ssize_t prev_read;               /* result of the previous read */
	struct dd_stats stats;
	struct dd_cache_state *cache;    /* nocache bookkeeping, or NULL */
};

/* operands.c */
void parse_operands(struct dd_options *opt, char **argv);

/* position.c */
void open_input(struct dd_run *run);
uint64_t input_start_offset(const struct dd_run *run);
void skip_input(struct dd_run *run);
void open_output(struct dd_run *run);

/* plan.c */
void plan_buffers(struct dd_run *run);
void grow_input_buffer(struct dd_run *run, uint64_t want);
void grow_output_buffer(struct dd_run *run, uint64_t want);
BB_NORETURN void die_memory_exhausted(const char *which, uint64_t size);

/* copy.c */
int copy_records(struct dd_run *run);
bool next_record_size(const struct dd_run *run, size_t *size);
ssize_t read_input(struct dd_run *run, size_t size);
void note_read_size(struct dd_run *run, ssize_t n, size_t size);
/* Append converted bytes to the output buffer, writing each full obs
 * block as it fills (only used with two_buffers). */
void stage_output(struct dd_run *run, const unsigned char *data, size_t len);

/* output.c */
size_t write_output(struct dd_run *run, const unsigned char *data, size_t len);
void finish_output_file(struct dd_run *run);

/* fastpath.c (FEATURE_DD_SPLICE) */
enum fast_result {
	FAST_NOT_USED,      /* nothing moved: use the record loop */
	FAST_DONE,          /* copied (a read error sets exit_status) */
	FAST_WRITE_FAILED,  /* reported; stop without syncing, as GNU */
};
enum fast_result copy_fast(struct dd_run *run);

/* cache.c (FEATURE_DD_NOCACHE) */
void setup_nocache(struct dd_run *run);
/* Call after in_offset / out_offset moved forward. */
void input_consumed(struct dd_run *run);
void output_written(struct dd_run *run);
void finish_nocache(struct dd_run *run);

/* conv.c (FEATURE_DD_CONV; without it only CONV_SWAB is ever set) */
/* Build the translation table from ascii/ebcdic/ibm/lcase/ucase. */
void conv_init(const struct dd_options *opt);
/* Convert one record just read (buf may be changed in place) and pass
 * the result to stage_output(). */
void conv_record(struct dd_run *run, unsigned char *buf, size_t len);
/* At end of input: emit what conversions hold back (swab's odd byte,
 * block's last line, unblock's last record). */
void conv_finish(struct dd_run *run);

/* signals.c */
void install_signal_handlers(struct dd_run *run);
/* Act on SIGINT (summary, then die by it) and SIGUSR1 (summary). */
void process_signals(struct dd_run *run);

/* report.c */
void print_summary(struct dd_run *run);
void maybe_print_progress(struct dd_run *run);
BB_NORETURN void die_with_summary(struct dd_run *run);

#endif
