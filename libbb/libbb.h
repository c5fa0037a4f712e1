/*
 * libbb.h - the library every zerobox applet shares.
 *
 * Naming contract (every function below follows it):
 *   x*        prints a message through the one message path and exits
 *             with xfunc_error_retval (1 unless the applet changed it)
 *             on failure.  It never returns an error.
 *   safe_*    retries on EINTR; any other error is returned.  (dd,
 *             which acts on signals, does its own I/O and never uses
 *             these where a signal must be answered.)
 *   full_*    loops until the whole request is done; see each one for
 *             what it returns after partial progress.
 *   bb_*      message and usage helpers.
 *   anything else returns -1 (or NULL) and sets errno on failure.
 *
 * Messages: every diagnostic is "applet: message[: strerror]\n", built in
 * memory and emitted with a single write(2) to stderr.  Formats are
 * checked by the compiler as printf formats, but are rendered by a small
 * formatter (bb_vformat) that supports only: %s %.*s %c %d %i %u %x %ld
 * %lu %lld %llu %jd %ju %zd %zu %% (and l/ll/j/z on x), with optional '-'
 * and '0' flags, a field width (digits or '*') and, for %s, a precision
 * (no floating point, which is what keeps stdio's printf, and its size,
 * out of a static musl binary: docs/sizes.md).  Error texts are glibc's wording (bb_strerror), as GNU prints.
 *
 * Exit codes: EXIT_SUCCESS (0) for success, EXIT_FAILURE (1) for any
 * error, 127 when the multicall entry finds no such applet.
 */
#ifndef ZEROBOX_LIBBB_H
#define ZEROBOX_LIBBB_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <stdlib.h>

#include "autoconf.h"

#define BB_PRINTF(fmt_index, first_arg) \
	__attribute__((format(printf, fmt_index, first_arg)))
#define BB_NORETURN __attribute__((noreturn))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* ---- applet identity (messages.c) ---------------------------------- */

/* Name used as the prefix of every message; set by the multicall entry. */
extern const char *applet_name;
/* Exit status used by x* functions and *_and_die; default EXIT_FAILURE. */
extern int xfunc_error_retval;

/* ---- formatting and messages (format.c, messages.c) ---------------- */

/* Render fmt into buf (always NUL-terminated when size > 0).  Returns the
 * length the full result needs, like vsnprintf, so a caller can size a
 * second attempt. */
size_t bb_vformat(char *buf, size_t size, const char *fmt, va_list ap);
size_t bb_format(char *buf, size_t size, const char *fmt, ...) BB_PRINTF(3, 4);
/* The digits of v in base 10 or 16, written backwards so that they end
 * just before end; returns where they start. */
char *put_digits(char *end, uint64_t v, unsigned base);

/* Format and write to fd with one write(2) (longer results are allocated;
 * if that fails they are truncated).  Returns what full_write returns. */
ssize_t bb_dprintf(int fd, const char *fmt, ...) BB_PRINTF(2, 3);

/* "applet: message: strerror(errnum)\n" on stderr (0 means: no
 * ": strerror" part).  bb_error_msg and bb_perror_msg are names for it
 * without an error number and with errno, not functions of their own:
 * a variadic function costs its register save area.  errno is read
 * when the call is made, so a message's arguments must leave it alone
 * (the quote_* functions do). */
void bb_errno_msg(int errnum, const char *fmt, ...) BB_PRINTF(2, 3);
#define bb_error_msg(...) bb_errno_msg(0, __VA_ARGS__)
#define bb_perror_msg(...) bb_errno_msg(errno, __VA_ARGS__)
/* bb_perror_msg(fmt, quote_always(name)) for a message about one file
 * ("cannot open %s"); returns EXIT_FAILURE, the caller's status. */
int bb_perror_name(const char *fmt, const char *name);
/* All of these leave errno as it was on entry. */
void bb_verror_msg(int errnum, const char *fmt, va_list ap);
/* The same, then exit(xfunc_error_retval). */
BB_NORETURN void bb_errno_msg_and_die(int errnum, const char *fmt, ...)
	BB_PRINTF(2, 3);
#define bb_error_msg_and_die(...) bb_errno_msg_and_die(0, __VA_ARGS__)
#define bb_perror_msg_and_die(...) bb_errno_msg_and_die(errno, __VA_ARGS__)
/* "applet: message\nTry 'applet --help' for more information.\n" (two
 * writes, as GNU; the second with the "applet: " prefix too if
 * bb_try_help_prefixed, as diffutils), then exit(xfunc_error_retval),
 * i.e. 1. */
BB_NORETURN void bb_error_msg_and_usage(const char *fmt, ...) BB_PRINTF(1, 2);
extern bool bb_try_help_prefixed;

/* strerror() in glibc's words ("Input/output error", "Value too large
 * for defined data type"), which musl words differently; others as
 * strerror(). */
const char *bb_strerror(int errnum);

/* Print the applet's usage text (from its //usage: block) to stdout,
 * adding a final newline if the text lacks one.  As GNU's close_stdout:
 * if stdout takes it not, "applet: write error: ..." and exit 1. */
void bb_print_usage(void);
/* "APPLET (zerobox) VERSION\n" on stdout, APPLET the base name of
 * applet_name; a failed write as for bb_print_usage. */
void bb_print_version(void);
/* The version string (VERSION file and git describe; version.c). */
extern const char bb_version[];

/* Write to stderr, remembering a failure: a diagnostic or summary that
 * could not be written makes the exit status 1 (bb_exit_status), as GNU's
 * close_stdout does for stderr.  Every message above goes through it. */
ssize_t bb_write_stderr(const void *buf, size_t len);
/* status, or xfunc_error_retval if status is 0 and a write to stderr
 * failed.  The multicall entry applies it to what an applet returns and,
 * through atexit, to exit(0). */
int bb_exit_status(int status);
/* Set by the multicall entry before the applet runs. */
extern const char *applet_usage;

/* Is every one of the len bytes at buf zero?  At memory speed with any C
 * library (zero.c). */
bool bb_is_all_zero(const void *buf, size_t len);

/* ---- memory (buffer.c, xfuncs.c) ----------------------------------- */

/* Allocation from anonymous mappings (buffer.c says why): never malloc
 * and free.  try_malloc returns NULL on failure, xmalloc dies; free_mapped
 * releases any of these (and ignores NULL). */
void *try_malloc(size_t size);
void *xmalloc(size_t size);
void free_mapped(void *p);

/* ---- I/O (io.c) ---------------------------------------------------- */

ssize_t safe_read(int fd, void *buf, size_t count);

/* Read until count bytes or end of file.  Returns the number of bytes
 * read (less than count only at end of file).  If a read fails before
 * any byte arrived, returns -1 with errno set; if it fails after some
 * bytes arrived, returns those bytes and the error is left for the next
 * call to meet again. */
ssize_t full_read(int fd, void *buf, size_t count);

/* Write all count bytes.  Returns count on success.  On failure returns
 * -1 if nothing was written, otherwise the number of bytes written
 * (< count) with errno set to the error that stopped it.  A write that
 * returns 0 is reported as ENOSPC. */
ssize_t full_write(int fd, const void *buf, size_t count);

/* Write a NUL-terminated string; returns what full_write returns. */
ssize_t full_write_str(int fd, const char *s);

/* ---- the transfer layer (signals.c, io.c, progress.c, time.c) ------ */

/*
 * What every applet that moves bytes shares (docs/design.md, "The
 * transfer layer"): the signals and the one place that acts on them,
 * the EINTR and short-write policy with the one write loop, the line
 * pacer and the progress line, and the clock (monotonic_ns).  Nothing
 * in it exits the process; a client's hook may.
 */

/* Signals a transfer catches (transfer_catch_signals). */
enum {
	CATCH_INTERRUPT = 1 << 0,   /* SIGINT */
	CATCH_TERMINATE = 1 << 1,   /* SIGTERM and SIGHUP */
	CATCH_INFO      = 1 << 2,   /* SIGUSR1: a report, and the copy goes on */
	CATCH_IGNORED_INTERRUPT = 1 << 3, /* SIGINT even where it was ignored */
};

/* A copy in progress, as the signals see it: the client's hooks. */
struct transfer {
	void *client;                      /* passed to the hooks */
	void (*on_info)(void *client);     /* SIGUSR1 asked for a report */
	/* A stopping signal arrived.  It may end the process (dd: the
	 * summary, then death by the signal); if it returns, the transfer
	 * is stopped, and every layer call after it returns at once. */
	void (*on_interrupt)(void *client, int sig);
	int stopped_by;                    /* that signal, or 0 */
};

void transfer_catch_signals(unsigned which);
bool transfer_act_on_signals(struct transfer *t);
bool transfer_retry(struct transfer *t);
/* Write len bytes to fd at offset (the file offset if offset < 0);
 * returns how many were written, fewer only with errno set.  t may be
 * NULL: EINTR is then simply retried. */
size_t transfer_write(struct transfer *t, int fd, const void *data, size_t len,
		      int64_t offset);

/* When a line printed every interval is due (line_due). */
struct line_pacer {
	uint64_t interval_ns, next_ns;
	uint64_t last_turn_ns;           /* when the loop last asked */
	uint64_t slowest_ns;             /* its slowest turn since the line */
	uint64_t slowest_before_ns;      /* and in the interval before it */
};

void line_pacer_start(struct line_pacer *pacer, uint64_t now,
		      uint64_t interval_ns);
bool line_due(struct line_pacer *pacer, uint64_t now);

/* A progress line (or block of lines) kept up on one descriptor, in
 * one of two styles: progress_line_show, GNU dd's line, rewritten with
 * a carriage return and spaces; progress_block_show, lines rewritten in
 * place on a terminal, written whole elsewhere.  A zeroed struct with
 * its fd set serves the first; progress_block_init sets up the second. */
struct progress_line {
	int fd;
	bool on_terminal;        /* progress_block_show: fd is a terminal */
	size_t width;            /* progress_line_show: the last text's length */
	unsigned lines;          /* progress_block_show: the last block's lines */
	struct line_pacer pacer;
};

void progress_line_show(struct progress_line *line, const char *text,
			size_t len);
size_t progress_line_fit(const struct progress_line *line, size_t len,
			 size_t tail);
void progress_block_init(struct progress_line *line, int fd);
void progress_block_show(struct progress_line *line, const char *text,
			 size_t len);
void progress_line_end(struct progress_line *line);
void progress_estimate(char *note, size_t size, uint64_t done,
		       uint64_t total, uint64_t elapsed_ns);

/* A line left open by the progress printer (on fd): whatever comes next
 * ends it first, as GNU's dd does.  bb_take_open_line returns its fd,
 * or -1 if none, and counts it as ended: the caller writes the newline.
 * The message functions do so themselves. */
void bb_leave_line_open(int fd);
int bb_take_open_line(void);

/* ---- sizes (parse_size.c) ------------------------------------------ */

/*
 * One suffix letter.  With a power, the letter means 1024^power, and may
 * be followed by "iB" (still 1024^power) or "B"/"D" (1000^power); the
 * power may exceed 64 bits (Z Y R Q always overflow, except on 0).
 * Without a power it means a plain multiplier (b = 512).
 */
struct size_suffix {
	char letter;            /* '\0' terminates a table */
	unsigned char power;    /* 0: use multiplier */
	unsigned short multiplier;
};

/* GNU dd's suffixes: c w b, k K M G T P E Z Y R Q. */
extern const struct size_suffix dd_size_suffixes[];

/* isspace() of the C locale, as strtoumax skips it before a number
 * (parse_number.c). */
bool bb_is_space(char c);

enum parse_size_result {
	PARSE_SIZE_OK = 0,
	PARSE_SIZE_INVALID,     /* not a number */
	PARSE_SIZE_OVERFLOW,    /* a number, but above max or past 2^64 */
	PARSE_SIZE_TOO_SMALL,   /* a number, but below min */
};

/* Parse "N[suffix]" or a product "N[suffix]xN[suffix]x..." of any length
 * in constant stack, exactly as GNU dd 9.11 does: parse_number_in in
 * NUMBER_DD (parse_size.c has the grammar: leading blanks and '+', "K"
 * alone = 1024, "KB" = 1000, an extra trailing "B" as in "2B" or "1bB",
 * a zero factor zeroes even an overflowing product).  Every multiplication is overflow-checked; the
 * result must lie in [min, max] (PARSE_SIZE_OVERFLOW above max,
 * PARSE_SIZE_TOO_SMALL below min).  On success stores it in *result. */
enum parse_size_result parse_size(const char *str,
				  const struct size_suffix *suffixes,
				  uint64_t min, uint64_t max, uint64_t *result);

/* How many times GNU dd prints "warning: '0x' is a zero multiplier; use
 * '00x' if that is intended" for str: once per factor spelled "0x...".
 * Meaningful when parse_size did not return PARSE_SIZE_INVALID. */
unsigned parse_size_zero_x_count(const char *str);

/* parse_size as GNU dd does it: first the zero-multiplier warnings (see
 * above, even when the value is then out of range), then on failure die
 * with "invalid number: 'str'" (quote_escaped; adding ": Value too large
 * for defined data type" for PARSE_SIZE_OVERFLOW). */
uint64_t xparse_size(const char *str, const struct size_suffix *suffixes,
		     uint64_t min, uint64_t max);

/* A digit's value in bases up to 16 (either case), 99 for a non-digit
 * (parse_number.c). */
unsigned digit_value(char c);

/* ---- the one number parser (parse_number.c) ----------------------- */

/* How a number is spelt; parse_number.c has each mode's rules. */
enum number_mode {
	NUMBER_DD,          /* GNU dd: parse_size's grammar, "x" products */
	NUMBER_COUNT,       /* GNU xstrtoumax: one factor, no extra "B" */
	NUMBER_XZ,          /* xz: decimal, a letter with "i", "iB", "B": 1024^n */
	NUMBER_OFFSET,      /* diffutils: 0x/0/decimal, then NUMBER_COUNT's suffix */
	NUMBER_RESCUE,      /* GNU ddrescue: 0x/0/decimal, k Ki M Mi.., s, B */
	NUMBER_INTEGER,     /* a C++ integer constant: 0x/0/decimal alone */
};  /* (the last two only with DDRESCUE, their user; else refused) */
struct number_syntax {
	const struct size_suffix *suffixes; /* NUMBER_DD, _COUNT, _XZ, _OFFSET */
	uint64_t sector;                    /* what NUMBER_RESCUE's "s" means
					       (0: "s" refused) */
	enum number_mode mode;
};
/* One factor at *s in syn's spelling, up to the first character it
 * does not take (*s is moved there): PARSE_SIZE_OK, PARSE_SIZE_INVALID
 * (nothing taken), or PARSE_SIZE_OVERFLOW with *v UINT64_MAX. */
enum parse_size_result scan_number(const char **s, const struct number_syntax *syn,
				   uint64_t *v);
/* The whole string in syn's spelling (NUMBER_DD: a product of factors),
 * in [min, max]; stores it in *result only on PARSE_SIZE_OK.  Garbage
 * after a factor is PARSE_SIZE_INVALID, or PARSE_SIZE_OVERFLOW when the
 * factor already passed INT64_MAX (as GNU's strtoumax reports it). */
enum parse_size_result parse_number_in(const char *str, const struct number_syntax *syn,
				       uint64_t min, uint64_t max, uint64_t *result);
/* One count as GNU's xstrtoumax reads it (head -c, cmp -n, truncate -s):
 * parse_number_in in NUMBER_COUNT with min 0 ("x" products and an extra
 * trailing "B", as in "2B" or "1bB", are invalid; "1KB" is 1000). */
enum parse_size_result parse_number(const char *str,
				    const struct size_suffix *suffixes,
				    uint64_t max, uint64_t *result);

/* ---- lazily touched buffers (buffer.c) ----------------------------- */

/*
 * A copy buffer made of fresh anonymous pages (mmap).  Nothing in libbb
 * ever writes to it: pages stay unmapped until a read lands in them, so
 * peak RSS follows the bytes moved, not the size asked for.  It can grow
 * with mremap(MREMAP_MAYMOVE), which moves page tables, never bytes.
 */
struct lazy_buffer {
	unsigned char *data;    /* NULL until allocated */
	size_t capacity;        /* bytes usable; a multiple of the page size */
};

/* Round n up to a whole number of pages (n == 0 gives one page).  Returns
 * 0 if that overflows size_t. */
size_t page_round_up(uint64_t n);

/* Map a buffer able to hold at least size bytes.  Returns 0, or -1 with
 * errno (ENOMEM) and the buffer left empty. */
int lazy_buffer_alloc(struct lazy_buffer *buf, uint64_t size);
/* Grow to hold at least size bytes, keeping the contents (an empty
 * buffer is allocated; a big enough one is left alone).  Returns 0, or
 * -1 with errno (ENOMEM) and the buffer unchanged. */
int lazy_buffer_grow(struct lazy_buffer *buf, uint64_t size);
void lazy_buffer_free(struct lazy_buffer *buf);
/* The one exception to "never touched": size bytes of real zero pages,
 * allocated and zeroed by the kernel up front (MAP_POPULATE), for
 * vmsplice (see ZERO_BLOCK_SIZE).  Free with lazy_buffer_free.  Returns 0, or
 * -1 with errno. */
int zero_block_alloc(struct lazy_buffer *buf, size_t size);

/* ---- human-readable numbers (human.c) ------------------------------ */

enum { HUMAN_BUF_SIZE = 32 };

/*
 * GNU's human_readable(amount, buf, autoscale | round-to-nearest | space
 * before unit | SI | B [| base_1024], multiplier, divisor): the value shown
 * is amount * multiplier / divisor (divisor >= 1), computed exactly as GNU
 * does (integer arithmetic when multiplier/divisor or divisor/multiplier
 * is whole, long double otherwise).  "999 B", "1.0 kB", "105 MB"; in
 * HUMAN_IEC units, "1.0 KiB", "100 MiB".  dd's summary:
 *   bytes: human_readable(buf, bytes, 1, 1, HUMAN_SI or HUMAN_IEC)
 *   rate:  human_readable(buf, bytes, SECOND_NS, elapsed_ns, HUMAN_SI), then
 *          append "/s" (0 bytes in 139 us gives "0.0 kB", as GNU).
 * buf must hold HUMAN_BUF_SIZE bytes.  Returns buf.
 */
enum human_units { HUMAN_SI, HUMAN_IEC };   /* kB, MB; KiB, MiB */
char *human_readable(char *buf, uint64_t amount, uint64_t multiplier,
		     uint64_t divisor, enum human_units units);

/* %g of a non-negative double (six significant digits, trailing zeros
 * removed, exponent form below 1e-4 or at/above 1e6), exactly as glibc's
 * printf gives it (also "inf", "nan").  buf must hold HUMAN_BUF_SIZE
 * bytes.  Returns buf. */
char *format_double_g(char *buf, double value);

/* ---- quoting file names in messages (quote.c) --------------------- */

/*
 * Quote a name for a message the way GNU's shell-escape style does, so
 * it can be pasted back into a shell: 'a b', "it's", 'tab'$'\t''x'.
 * quote_always always adds quotes (GNU's quoteaf); quote_if_needed leaves
 * names made only of safe characters bare (GNU's quotef), returning
 * the name itself.  A quoted result is mapped and stays valid for the
 * next three quote_* calls: the four most recent are kept and older ones
 * freed, so use it in the message at hand, never store it.  They never
 * exit and keep errno: with no memory left they return the name itself.
 */
const char *quote_always(const char *name);
const char *quote_if_needed(const char *name);
/* GNU's quote(), used for operands ("invalid number: 'a\'b'"): always
 * 'single quotes', with C escapes for \ ' and unprintable bytes. */
const char *quote_escaped(const char *s);

/* ---- one end of a copy (io_end.c) ---------------------------------- */

/*
 * What a copy needs to know about a descriptor, learned once when it is
 * opened (fstat, lseek, fcntl, ioctl, fstatfs), so that nothing asks the
 * kernel the same question twice.  Only pipe_capacity changes later,
 * through pipe_raise_capacity().
 */
struct io_end {
	int fd;
	const char *name;          /* as given; quoted in messages */
	int stat_errno;            /* 0 when st holds fstat's answer */
	struct stat st;            /* zeroed when fstat failed */
	bool seekable;             /* lseek works */
	int seek_errno;            /* why it doesn't */
	uint64_t offset;           /* the offset when learned (0 if none) */
	bool size_known;           /* a regular file or a block device */
	uint64_t size;             /* its size, when known */
	size_t pipe_capacity;      /* a pipe's capacity, 0 for other files */
	int status_flags;          /* F_GETFL, or -1 */
	unsigned long fs_type;     /* statfs magic of a regular file, or 0 */
};

void io_end_learn(struct io_end *end, int fd, const char *name);
bool io_end_is_pipe(const struct io_end *end);
bool io_end_is_nonblocking(const struct io_end *end);

/* Raise a pipe's capacity to at least size bytes, at most
 * PIPE_MAX_CAPACITY (best effort), so one splice can move a whole
 * block.  PIPE_MAX_CAPACITY is the default /proc/sys/fs/pipe-max-size:
 * more would only pin kernel memory without making a splice faster. */
enum { PIPE_MAX_CAPACITY = 1 << 20 };
void pipe_raise_capacity(struct io_end *end, size_t size);
/* A pipe's capacity now, which its writer may have raised since
 * io_end_init (F_GETPIPE_SZ), or 0.  No read of it returns more. */
size_t pipe_capacity_now(const struct io_end *end);
/* The bytes a pipe holds now (FIONREAD), or 0. */
size_t pipe_bytes_held(const struct io_end *end);

/* ---- a file's holes (holes.c) -------------------------------------- */

/* The bytes from offset, at most to end, that are a hole of fd's file:
 * 0 where data begins at offset, or where the file system can't say.
 * Both move the file offset: callers use pread, or seek back. */
uint64_t file_hole_length(int fd, uint64_t offset, uint64_t end);
/* The bytes from offset, at most to end, before the next hole (all of
 * them where the file system can't say). */
uint64_t file_data_length(int fd, uint64_t offset, uint64_t end);

/* ---- zero-copy (zerocopy.c) ---------------------------------------- */

/*
 * How data moves from one descriptor to another inside the kernel.
 * copy_choose_path() picks, per pair of ends, the path that measured
 * fastest (docs/design.md has the rules and the measurements):
 *   regular/block -> regular        copy_file_range where the filesystem
 *                                   may share extents or copy on a
 *                                   server; on ext2/3/4 and across
 *                                   filesystems, splice through a
 *                                   private pipe
 *   regular/block -> pipe           splice
 *   regular/block -> /dev/null      splice through a private pipe
 *   pipe          -> pipe, /dev/null splice
 *   pipe          -> regular        splice through a private pipe, where
 *                                   splice is known to write (ext*,
 *                                   tmpfs, XFS, btrfs) and not O_APPEND
 *   /dev/zero     -> pipe           vmsplice of a block of zero pages
 *   /dev/zero     -> regular, null  write of a never-written buffer
 *   anything else                   read/write
 * Callers decide whether the copy is plain enough to use it.
 */
enum copy_path {
	COPY_READ_WRITE,
	COPY_FILE_RANGE,
	COPY_SPLICE,
	COPY_SPLICE_VIA_PIPE,
	COPY_VMSPLICE_ZEROS,
	COPY_WRITE_ZEROS,
};

bool is_dev_zero(const struct stat *st);
bool is_dev_null(const struct stat *st);
enum copy_path copy_choose_path(const struct io_end *in, const struct io_end *out);

/*
 * A vmsplice source of zeros must be real pages, not the shared zero
 * page that a never-written buffer maps: the kernel takes its slow
 * path for that page on every call.  A block of real zero pages,
 * repeated in one iovec, is the fast source; it costs its size in RSS.
 */
enum { ZERO_BLOCK_SIZE = 64 << 10, ZERO_BLOCK_REPEATS = 16 };

/* One copy in progress along a chosen path. */
struct copy_channel {
	enum copy_path path;
	const struct io_end *in, *out;
	/* COPY_WRITE_ZEROS: never-written bytes, as many as a step asks
	 * for; COPY_VMSPLICE_ZEROS: a zero block of ZERO_BLOCK_SIZE
	 * (zero_block_alloc).  NULL otherwise. */
	const void *zeros;
	int pipe_rd, pipe_wr;   /* COPY_SPLICE_VIA_PIPE's pipe, else -1 */
	size_t pipe_size;       /* its capacity */
	size_t in_pipe;         /* bytes taken from the input, not yet written */
};

/* Set up a channel (for COPY_SPLICE_VIA_PIPE, make its pipe).  Returns
 * 0, or -1 with errno (EMFILE, ENFILE: then copy another way). */
int copy_channel_open(struct copy_channel *ch, enum copy_path path,
		      const struct io_end *in, const struct io_end *out,
		      const void *zeros);

/*
 * Move at most len bytes with a syscall or two; a vmsplice of zeros
 * moves at most ZERO_BLOCK_REPEATS blocks.  Returns the bytes written
 * to the output, 0 when nothing moved, or -1 with errno.  Bytes taken
 * from the input but not yet written stay in ch->in_pipe and go out
 * first on the next call.
 *
 * The rule for callers: zero-copy only accelerates read/write.  EINTR
 * is retried.  Any other error (EAGAIN too), and any 0 where the input
 * may not be at its end, hands the copy to read/write at the current
 * position, which meets the fault again if it is real and reports it as
 * read/write would, for the side that has it.  (One syscall that serves
 * both sides cannot say which one failed.)
 */
ssize_t copy_channel_step(struct copy_channel *ch, size_t len);

/* COPY_SPLICE_VIA_PIPE in two halves, for a caller that counts what
 * the input gave before it is written: fill takes at most len bytes
 * from the input into the private pipe (0 at the end of the input);
 * drain writes what the pipe holds to the output.  Both return what
 * they moved, or -1 with errno. */
ssize_t copy_channel_fill(struct copy_channel *ch, size_t len);
ssize_t copy_channel_drain(struct copy_channel *ch);

/* Read back into buf (at least ch->in_pipe bytes long) what the private
 * pipe holds, so that a caller can write it another way.  Returns the
 * bytes read back; the pipe is then empty. */
size_t copy_channel_take_back(struct copy_channel *ch, unsigned char *buf);

/* Close the channel.  Bytes still in its pipe were never written: a
 * seekable input seeks back over them, so that its offset counts only
 * bytes delivered and read/write resumes at the right place. */
void copy_channel_close(struct copy_channel *ch);

/* ---- copying a whole descriptor (copy_fd.c) ------------------------ */

enum { COPY_FD_READ_ERROR = 1, COPY_FD_WRITE_ERROR = 2 };

/*
 * Copy from in_fd's offset to out_fd until end of input or limit bytes
 * (UINT64_MAX: no limit), through buf (allocated on first use, at most
 * copy_fd.c's read size and no more than a regular input has left; kept for the next
 * call; the caller frees it).  copy_fd_zerocopy first tries zero-copy
 * above (copy_file_range, splice) and falls back to read/write
 * when the kernel refuses the path before any byte moved; copy_fd_rw
 * always uses read/write.  Both return 0, or -1 with errno set and
 * *which telling whether reading or writing failed (COPY_FD_*_ERROR).
 */
int copy_fd_zerocopy(int in_fd, int out_fd, uint64_t limit,
		     struct lazy_buffer *buf, int *which);
int copy_fd_rw(int in_fd, int out_fd, uint64_t limit, struct lazy_buffer *buf,
	       int *which);

/* ---- options (getopt.c) --------------------------------------------- */

/* Our own getopt_long (GNU's rules, permuting: afterwards the operands
 * are argv[optind..], in order) with GNU's messages: an unknown option
 * or a missing argument prints "invalid option -- 'x'" (or the long
 * form), then bb_error_msg_and_usage's "Try ..." line, and exits with
 * xfunc_error_retval.  longopts is one string of entries, each the
 * letter bb_getopt returns and the long name, ending in a NUL:
 * "ccount\0" "qquiet\0" (the letter takes an argument when optstring
 * says so; a letter optstring lacks is a long-only option).  "--help"
 * is always there: it prints the usage and exits 0.  No optional
 * arguments; a leading ':' in optstring is allowed. */
int bb_getopt(int argc, char **argv, const char *optstring,
	      const char *longopts);

/* ---- a byte made visible (visible_char.c) -------------------------- */

/* c as cat -v shows it ("a", "^I", "^?", "M-^@"): writes at most 4
 * characters and a NUL to buf; returns the number of characters. */
size_t visible_char(char *buf, unsigned char c);

/* ---- keeping the page cache clean (pagecache.c) ------------------- */

/*
 * Drop a file's pages from the page cache as a sequential copy moves
 * through it, in windows aligned to file offsets (so 2 MiB folios are
 * covered whole; a POSIX_FADV_DONTNEED range that covers a folio only
 * in part leaves it cached).
 *   reading: each window is dropped once it has been consumed;
 *   writing: write-behind; writeback of each filled window is started
 *            (sync_file_range WRITE), and the window before it is waited
 *            for and dropped, so dirty pages never pile up.
 * Nothing before the offset given to cache_dropper_init is dropped.
 * cache_dropper_finish syncs (when writing) and drops all the copy
 * touched: from that offset to end, or to the end of the file (to_eof).
 * Each call returns 0, or -1 with errno when writing back failed: the
 * kernel tells a write-back error once, to the first wait (here), and
 * never to a later fsync, so the caller must report it.  (When several
 * failed, errno is the last one's.)  A failed posix_fadvise is advice
 * not taken, not an error.
 */
/* Windows are CACHE_WINDOW; a slow device (a card, a stick) is better
 * written behind in DEVICE_CACHE_WINDOW: less waits in the final flush. */
enum { CACHE_WINDOW = 8 << 20, DEVICE_CACHE_WINDOW = 4 << 20 };

struct cache_dropper {
	int fd;
	bool writing;
	uint64_t window;        /* a multiple of 2 MiB */
	uint64_t start;         /* where the copy began */
	uint64_t next_window;   /* start of the first window not yet passed */
};

enum cache_use { CACHE_READING, CACHE_WRITING };
void cache_dropper_init(struct cache_dropper *cd, int fd, enum cache_use use,
			uint64_t offset, uint64_t window);
int cache_dropper_advance(struct cache_dropper *cd, uint64_t offset);
int cache_dropper_finish(struct cache_dropper *cd, uint64_t end, bool to_eof);

/* ---- SHA-1 and SHA-256, block hashes (sha1.c, sha256*.c, sha_blocks.c) */

/* For a hash that takes whole blocks (SHA, conv=verify's chunk hash):
 * whole(ctx, blocks, count) gets every block that len more bytes of data
 * complete, in order, straight from data where they are whole there
 * (count may be 0); the rest waits in pending, *fill of block_size
 * bytes, for the next call. */
typedef void whole_blocks_fn(void *ctx, const unsigned char *blocks,
			     size_t count);
void feed_blocks(unsigned char *pending, size_t *fill, size_t block_size,
		 const void *data, size_t len, whole_blocks_fn *whole, void *ctx);

/* FIPS 180-4's hashes, for bmap files: sha1_init or sha256_init picks
 * the hash, sha_update takes any number of bytes, sha_final writes the
 * digest (the context must be initialized again before another use).
 * SHA-256 uses the CPU's SHA instructions where it has them (x86 SHA-NI,
 * ARMv8 SHA2), unless the environment has ZEROBOX_SHA_PORTABLE (a test
 * hook, read at the first sha256_init). */
enum { SHA_BLOCK_SIZE = 64, SHA1_DIGEST_SIZE = 20, SHA256_DIGEST_SIZE = 32 };

struct sha_ctx {
	uint32_t state[8];
	unsigned words;                  /* of state, that make the digest */
	whole_blocks_fn *compress;       /* (this context, blocks, count) */
	uint64_t length;                 /* bytes hashed so far */
	size_t fill;                     /* bytes waiting in block */
	unsigned char block[SHA_BLOCK_SIZE];
};

void sha1_init(struct sha_ctx *ctx);
void sha256_init(struct sha_ctx *ctx);
void sha_update(struct sha_ctx *ctx, const void *data, size_t len);
/* SHA1_DIGEST_SIZE or SHA256_DIGEST_SIZE bytes, as the hash is. */
void sha_final(struct sha_ctx *ctx, unsigned char *digest);

/* ---- CRC-32 (crc32.c) ---------------------------------------------- */

/* The CRC-32 of gzip and xz: crc32_update(0, data, len) for a whole
 * message; pass the result back in to continue it with more bytes. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

/* ---- CRC-64 (crc64.c) ---------------------------------------------- */

/* The CRC-64 of xz (ECMA-182): crc64_update(0, data, len) for a whole
 * message; pass the result back in to continue it with more bytes. */
uint64_t crc64_update(uint64_t crc, const void *data, size_t len);

/* ---- decompressing applets (unpack.c, unpack_io.c) ----------------- */

/*
 * zcat/gunzip and xzcat/unxz share one front end: unpack_main does the
 * options, the files, the names and the exit status; a format's decode
 * function turns one input into bytes through the calls below.  A
 * decoder never writes to a descriptor, never exits, and frees all it
 * allocated (try_malloc, lazy_buffer) before it returns.  docs/unpack.md
 * describes the behaviour.
 */
enum unpack_result {
	UNPACK_OK,       /* all input decoded and checked */
	UNPACK_ERROR,    /* reported (corrupt, truncated, unsupported, I/O, memory): exit 1 */
	UNPACK_WARNING,  /* decoded, a warning reported (gzip's trailing garbage): exit 2 */
};

struct unpack_io {
	const unsigned char *in_next, *in_end;  /* unread input bytes; the decoder advances in_next */
	const char *name;        /* the input's name for messages, as the reference tool prints it */
	uint64_t mem_limit;      /* -M (xz), UINT64_MAX for none */
	bool quiet;              /* -q: no warnings */
	/* -f with -c or -t: input that is not in the format is copied to
	 * the output as it is (unpack_copy_rest), as gzip -cdf and xz -cdf
	 * do with any file, and gzip with what follows a member. */
	bool copy_unknown;
	/* Set by a decoder that returns UNPACK_ERROR for damaged data: the
	 * files after this one are not decoded (as GNU gzip stops), so what
	 * went to the output is a prefix of the whole.  Left false, the
	 * front end goes on with the next file (xz, and gzip's header
	 * errors). */
	bool stop;
	/* The front end's own fields; decoders leave them alone. */
	int in_fd, out_fd;
	bool to_null;            /* -t: the output is dropped */
	bool at_end, read_failed, write_failed;
	const char *out_name;    /* for a write error: "stdout" or the file */
	unsigned char *in_buf;   /* UNPACK_KEEP bytes, then UNPACK_IN_SIZE read */
};

/*
 * Refill: true with [in_next, in_end) non-empty; false at the end of the
 * input (no byte left) or after a read error, which it reported (the
 * decoder then returns UNPACK_ERROR without a message of its own when
 * unpack_read_failed(io) says so).  Call it only once every byte is
 * read.  The UNPACK_KEEP bytes before in_next stay readable across it:
 * a decoder that loaded bytes ahead gives them back by moving in_next
 * back that far at most (never to before the first byte of the input).
 */
enum { UNPACK_KEEP = 8, UNPACK_IN_SIZE = 64 << 10 };
bool unpack_fill(struct unpack_io *io);
bool unpack_read_failed(const struct unpack_io *io);
/* The next input byte, or -1 at the end of the input or after a read
 * error (unpack_read_failed tells which); unpack_input.c. */
int unpack_next_byte(struct unpack_io *io);
/* Copy the next n input bytes to dst.  Returns how many: fewer than n
 * only at the end of the input or after a read error. */
size_t unpack_read(struct unpack_io *io, void *dst, size_t n);
/* Decoded bytes: written whole to the output (dropped under -t). 0,
 * or -1 after reporting a write error (the decoder then returns
 * UNPACK_ERROR at once). */
int unpack_write(struct unpack_io *io, const void *data, size_t len);
/* "APPLET: NAME: what" on stderr, through libbb's message path;
 * unpack_warn prints it unless -q. */
void unpack_error(struct unpack_io *io, const char *what);
void unpack_warn(struct unpack_io *io, const char *what);
/* Copy the rest of the input, from in_next, to the output as it is
 * (io->copy_unknown): UNPACK_OK, or UNPACK_ERROR after a reported read
 * or write error. */
enum unpack_result unpack_copy_rest(struct unpack_io *io);

/* The options every decompressing applet takes (-c -d -f -k -q -t): a
 * format's own options are added to these strings. */
#define UNPACK_OPTIONS "cdfkqt"
#define UNPACK_LONGOPTS "cstdout\0" "cto-stdout\0" "ddecompress\0" \
	"duncompress\0" "fforce\0" "kkeep\0" "qquiet\0" "ttest\0"

struct unpack_format {
	const char *tool;                   /* "gzip" or "xz", for --help and messages */
	const char *const *suffixes;        /* pairs: compressed suffix, replacement: ".gz","", ".tgz",".tar", ... NULL-terminated (matched in any case); NULL without FEATURE_UNPACK_FILES */
	enum unpack_result (*decode)(struct unpack_io *io);
	const char *stdin_name;             /* standard input in messages: "stdin", "(stdin)" */
	/* bb_getopt's strings: UNPACK_OPTIONS and UNPACK_LONGOPTS with the
	 * format's own options added (NULL: those alone), and the function
	 * that takes each of the format's options (opt, and arg for one
	 * that takes an argument) before any file is opened; it may set
	 * io->mem_limit, or die with a message. */
	const char *options, *longopts;
	void (*option)(struct unpack_io *io, int opt, const char *arg);
};

/*
 * The whole applet: options, files or stdin, -c -d -t -k -f -q, FILE.gz
 * -> FILE (mode, owner and times kept, source removed unless -k, no
 * overwrite without -f), refusing to read compressed data from a
 * terminal, exit status 0/1/2 as the reference tool.  An applet whose
 * name ends in "cat" (zcat, xzcat) always writes to standard output.
 */
int unpack_main(int argc, char **argv, const struct unpack_format *format);

/* The gzip format (gunzip.c, inflate.c): members, trailing zeros and
 * garbage as GNU gzip -d takes them. */
enum unpack_result gunzip_decode(struct unpack_io *io);

/* The .xz format (xz_dec.c and the files it names): streams, blocks,
 * LZMA2 and the filters, as xz -d takes them; .lzma is refused. */
enum unpack_result xz_decode(struct unpack_io *io);

/* ---- time (time.c), the transfer layer's clock --------------------- */

enum { SECOND_NS = 1000000000 };
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t monotonic_ns(void);

#endif
