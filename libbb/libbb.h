/*
 * libbb.h - the library every zerobox applet shares.
 *
 * Naming contract (every function below follows it):
 *   x*        prints a message through the one message path and exits
 *             with xfunc_error_retval (1 unless the applet changed it)
 *             on failure.  It never returns an error.
 *   safe_*    retries on EINTR.  Before each retry it calls
 *             safe_eintr_hook (if set), so an applet can act on signals
 *             whose handlers only set flags.  Any other error is returned.
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
 * (no floating point: stdio's printf costs ~18 KiB in a static musl
 * binary).  Error texts are glibc's wording (bb_strerror), as GNU prints.
 *
 * Exit codes: EXIT_SUCCESS (0) for success, EXIT_FAILURE (1) for any
 * error, 127 when the multicall entry finds no such applet.
 */
#ifndef ZEROBOX_LIBBB_H
#define ZEROBOX_LIBBB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <stdlib.h>

#include "autoconf.h"

#define BB_PRINTF(fmt_index, first_arg) \
	__attribute__((format(printf, fmt_index, first_arg)))
#define BB_NORETURN __attribute__((noreturn))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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

/* Format and write to fd with one write(2) (longer results are allocated;
 * if that fails they are truncated).  Returns what full_write returns. */
ssize_t bb_dprintf(int fd, const char *fmt, ...) BB_PRINTF(2, 3);

/* "applet: message\n" on stderr. */
void bb_error_msg(const char *fmt, ...) BB_PRINTF(1, 2);
/* "applet: message: strerror(errno)\n" on stderr. */
void bb_perror_msg(const char *fmt, ...) BB_PRINTF(1, 2);
/* Same, with an explicit error number (0 means: no ": strerror" part). */
void bb_errno_msg(int errnum, const char *fmt, ...) BB_PRINTF(2, 3);
/* All of these leave errno as it was on entry. */
void bb_verror_msg(int errnum, const char *fmt, va_list ap);
BB_NORETURN void bb_error_msg_and_die(const char *fmt, ...) BB_PRINTF(1, 2);
BB_NORETURN void bb_perror_msg_and_die(const char *fmt, ...) BB_PRINTF(1, 2);
BB_NORETURN void bb_errno_msg_and_die(int errnum, const char *fmt, ...)
	BB_PRINTF(2, 3);
/* "applet: message\nTry 'applet --help' for more information.\n" (two
 * writes, as GNU), then exit(xfunc_error_retval), i.e. 1. */
BB_NORETURN void bb_error_msg_and_usage(const char *fmt, ...) BB_PRINTF(1, 2);

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

/* ---- memory and files (xfuncs.c) ----------------------------------- */

/* Allocation from anonymous mappings (xfuncs.c says why): never malloc
 * and free.  try_malloc returns NULL on failure; xfree releases any of
 * these (and ignores NULL). */
void *try_malloc(size_t size);
void *xmalloc(size_t size);
void *xzalloc(size_t size);
char *xstrdup(const char *s);
void xfree(void *p);
/* open(2); on failure: "can't open 'path': strerror" and exit. */
int xopen(const char *path, int flags, mode_t mode);

/* ---- I/O (io.c) ---------------------------------------------------- */

/* Called before every EINTR retry in safe_* and full_*; NULL = no hook. */
extern void (*safe_eintr_hook)(void);

ssize_t safe_read(int fd, void *buf, size_t count);
ssize_t safe_write(int fd, const void *buf, size_t count);

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

enum parse_size_result {
	PARSE_SIZE_OK = 0,
	PARSE_SIZE_INVALID,     /* not a number */
	PARSE_SIZE_OVERFLOW,    /* a number, but above max or past 2^64 */
	PARSE_SIZE_TOO_SMALL,   /* a number, but below min */
};

/* Parse "N[suffix]" or a product "N[suffix]xN[suffix]x..." of any length
 * in constant stack, exactly as GNU dd 9.11 does (parse_size.c has the
 * grammar: leading blanks and '+', "K" alone = 1024, "KB" = 1000, an
 * extra trailing "B" as in "2B" or "1bB", a zero factor zeroes even an
 * overflowing product).  Every multiplication is overflow-checked; the
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

/* One count as GNU's xstrtoumax reads it (head -c, cmp -n, truncate -s):
 * parse_size with min 0, but no "x" products and no extra trailing "B"
 * ("2B", "1bB" are invalid, "1KB" is 1000). */
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
 * is whole, long double otherwise).  "999 B", "1.0 kB", "105 MB"; with
 * binary set, "1.0 KiB", "100 MiB".  dd's summary:
 *   bytes: human_readable(buf, bytes, 1, 1, 0 or 1)
 *   rate:  human_readable(buf, bytes, 1000000000, elapsed_ns, 0), then
 *          append "/s" (0 bytes in 139 us gives "0.0 kB", as GNU).
 * buf must hold HUMAN_BUF_SIZE bytes.  Returns buf.
 */
char *human_readable(char *buf, uint64_t amount, uint64_t multiplier,
		     uint64_t divisor, int binary);

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
 * names made only of safe characters bare (GNU's quotef).  The result is
 * allocated and stays valid for the next three quote_* calls: the four
 * most recent are kept and older ones freed, so use it in the message
 * at hand, never store it.
 */
const char *quote_always(const char *name);
const char *quote_if_needed(const char *name);
/* GNU's quote(), used for operands ("invalid number: 'a\'b'"): always
 * 'single quotes', with C escapes for \ ' and unprintable bytes. */
const char *quote_escaped(const char *s);

/* ---- zero-copy engine (copy_engine.c) ------------------------------ */

/*
 * How data moves from one descriptor to another.  copy_choose_path()
 * picks, per (input, output) pair, the syscall that measured fastest on
 * Linux (ceiling.c from ../shared/tools, 1 GiB, 1 MiB chunks, GB/s):
 *   regular/block -> regular        copy_file_range, which may share
 *                                   extents (XFS, btrfs) or copy on the
 *                                   server (NFS, SMB); but on ext2/3/4,
 *                                   or across filesystems, splice
 *                                   through a private pipe (below)
 *   regular/block -> pipe           splice              5.6x read/write
 *   regular/block -> /dev/null      splice through a private pipe:
 *                                   69 vs sendfile 57, read/write 18
 *   pipe          -> pipe, /dev/null splice             2x
 *   pipe          -> regular        splice through a private pipe,
 *                                   where splice is known to write (ext*,
 *                                   tmpfs, XFS, btrfs) and not O_APPEND:
 *                                   3.12 GB/s, read/write 2.44; splice
 *                                   straight from the input pipe 1.64,
 *                                   as it holds that pipe's lock while
 *                                   it writes, stalling the producer
 *   /dev/zero     -> pipe           vmsplice of a zero block       7x
 *   /dev/zero     -> regular, null  write of a never-written buffer
 *                                   (no read of /dev/zero at all)
 *   anything else                   read/write
 * The private pipe holds 1 MiB.  ext4's copy_file_range (and sendfile)
 * is the kernel's own splice loop through a 64 KiB pipe: in place on
 * ext4, 8.45 GB/s through ours, 6.89 by copy_file_range, 7.79 by
 * read/write; to a new file 4.04, 3.46 and 3.23.  On tmpfs all three
 * are even, so copy_file_range stays.
 * Callers decide whether the copy is "plain" enough to use it.
 */
enum copy_path {
	COPY_READ_WRITE,
	COPY_FILE_RANGE,
	COPY_SPLICE,
	COPY_SPLICE_VIA_PIPE,
	COPY_VMSPLICE_ZEROS,
	COPY_WRITE_ZEROS,
};

struct stat;
int is_dev_zero(const struct stat *st);
int is_dev_null(const struct stat *st);
enum copy_path copy_choose_path(const struct stat *in, int out_fd,
				const struct stat *out);

/*
 * A vmsplice source of zeros must be real pages, not the shared zero
 * page that a never-written buffer maps: the kernel takes the slow
 * get_user_pages path for that page, on every call.  Measured with a
 * 1 MiB pipe: 10.8 GB/s from never-written pages, 40 GB/s from a 64 KiB
 * block of real ones (the best of 16 KiB to 1 MiB), repeated 16 times
 * in one iovec.  So /dev/zero -> pipe costs 64 KiB of RSS.
 */
enum { ZERO_BLOCK_SIZE = 64 << 10, ZERO_BLOCK_REPEATS = 16 };

/* One copy in progress along a chosen path. */
struct copy_channel {
	enum copy_path path;
	int in_fd, out_fd;
	/* COPY_WRITE_ZEROS: never-written bytes, as many as a step asks
	 * for; COPY_VMSPLICE_ZEROS: a zero block of ZERO_BLOCK_SIZE
	 * (zero_block_alloc).  NULL otherwise. */
	const void *zeros;
	int pipe_rd, pipe_wr;   /* COPY_SPLICE_VIA_PIPE's pipe, else -1 */
	size_t pipe_size;       /* its capacity */
	size_t in_pipe;         /* bytes taken from in_fd, not yet written */
	int in_seekable;        /* so held bytes can be given back */
};

/* Set up a channel (for COPY_SPLICE_VIA_PIPE, make its pipe).  Returns
 * 0, or -1 with errno (EMFILE, ENFILE: then copy another way). */
int copy_channel_open(struct copy_channel *ch, enum copy_path path,
		      int in_fd, int out_fd, const void *zeros);

/*
 * Move at most len bytes with a syscall or two; a vmsplice of zeros
 * moves at most ZERO_BLOCK_REPEATS blocks.  Returns the bytes written
 * to out_fd, 0 at end of input, or -1 with errno (EINTR included: the
 * caller acts on signals and calls again).
 */
ssize_t copy_channel_step(struct copy_channel *ch, size_t len);

/*
 * May a copy that moved nothing yet fall back to read/write after its
 * step failed with err (0: the step returned 0, as procfs and sysfs
 * files do)?  Yes when the kernel or a seccomp filter refused the path
 * itself (EINVAL, EXDEV, EBADF, ENOSYS, EOPNOTSUPP, EPERM, ETXTBSY),
 * unless bytes sit in the channel's pipe that the input, a pipe
 * itself, can't take back.
 */
int copy_channel_may_fall_back(const struct copy_channel *ch, int err);

/* Close the channel.  Bytes still in its pipe were never written: the
 * input seeks back over them, so that its offset counts only bytes
 * delivered and a read/write fallback resumes at the right place. */
void copy_channel_close(struct copy_channel *ch);

/* Raise a pipe's capacity to at least size bytes, at most
 * PIPE_MAX_CAPACITY (best effort), so one splice can move a whole
 * block.  PIPE_MAX_CAPACITY is the default /proc/sys/fs/pipe-max-size:
 * more would only pin kernel memory without making a splice faster. */
enum { PIPE_MAX_CAPACITY = 1 << 20 };
void pipe_raise_capacity(int fd, size_t size);

/* ---- copying a whole descriptor (copy_fd.c) ------------------------ */

enum { COPY_FD_READ_ERROR = 1, COPY_FD_WRITE_ERROR = 2 };

/*
 * Copy from in_fd's offset to out_fd until end of input or limit bytes
 * (UINT64_MAX: no limit), through buf (allocated on first use, at most
 * 128 KiB and no more than a regular input has left; kept for the next
 * call; the caller frees it).  copy_fd_zerocopy first tries the engine
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

struct option;
/* getopt_long (which permutes, as GNU's) with GNU's messages: an unknown
 * option or a missing argument prints "invalid option -- 'x'" (or the
 * long form), then bb_show_usage_error's "Try ..." line, and exits with
 * xfunc_error_retval.  A long option whose value is BB_OPT_HELP prints
 * the usage and exits 0.  optstring must start with ':'. */
enum { BB_OPT_HELP = 0x100 };
int bb_getopt(int argc, char **argv, const char *optstring,
	      const struct option *longopts);
/* bb_error_msg, then "Try 'APPLET --help' for more information." (with
 * the "APPLET: " prefix too if bb_try_help_prefixed, as diffutils), then
 * exit(xfunc_error_retval). */
BB_NORETURN void bb_show_usage_error(const char *fmt, ...) BB_PRINTF(1, 2);
extern int bb_try_help_prefixed;

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
 * cache_dropper_finish syncs (when writing) and drops the whole file.
 * Each call returns 0, or -1 with errno when posix_fadvise failed.
 */
enum { CACHE_WINDOW = 8 << 20 };

struct cache_dropper {
	int fd;
	int writing;
	uint64_t next_window;   /* start of the first window not yet passed */
};

void cache_dropper_init(struct cache_dropper *cd, int fd, int writing,
			uint64_t offset);
int cache_dropper_advance(struct cache_dropper *cd, uint64_t offset);
int cache_dropper_finish(struct cache_dropper *cd);

/* ---- time (time.c) ------------------------------------------------- */

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t monotonic_ns(void);

#endif
