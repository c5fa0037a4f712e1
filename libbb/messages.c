/*
 * messages.c - the one path every diagnostic takes.
 *
 * A message is built whole in memory, "applet: text[: strerror]\n", and
 * leaves with a single write(2) to stderr, so lines from two processes
 * sharing a terminal or a log never interleave.  Short messages use the
 * stack; longer ones a heap buffer; if that allocation fails the message
 * is cut short but still ends with a newline.
 *
 * A write to stderr that fails is remembered, and turns a successful exit
 * into a failure (bb_exit_status): GNU tools fail when they cannot say
 * what they have to say (": | dd 2>&-" exits 1; "dd --help 2>&-" does
 * not, as it writes nothing there).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"

const char *applet_name = "zerobox";
const char *applet_usage;
int xfunc_error_retval = EXIT_FAILURE;

enum { MSG_STACK = 256 };

static bool stderr_failed;
static int open_line_fd = -1;   /* where a progress line is open, or -1 */

void bb_leave_line_open(int fd)
{
	open_line_fd = fd;
}

int bb_take_open_line(void)
{
	int fd = open_line_fd;

	open_line_fd = -1;
	return fd;
}

ssize_t bb_write_stderr(const void *buf, size_t len)
{
	ssize_t n = full_write(STDERR_FILENO, buf, len);

	if (n != (ssize_t)len)
		stderr_failed = true;
	return n;
}

int bb_exit_status(int status)
{
	return status == 0 && stderr_failed ? xfunc_error_retval : status;
}

/*
 * GNU tools print glibc's wording for errno.  musl words some errors
 * differently ("I/O error" for "Input/output error"); these are the
 * ones a file-copying tool can meet.
 */
const char *bb_strerror(int errnum)
{
#ifndef __GLIBC__
	/* Two lists in the same order: the numbers, and their words one
	 * after another (no table of pointers, which would cost more than
	 * the words). */
	static const unsigned short numbers[] = {
		EIO, ENOMEM, EBUSY, EXDEV, EMFILE, ENOTTY, ESPIPE, ERANGE,
		ENAMETOOLONG, ELOOP, EOVERFLOW, EOPNOTSUPP, ETIMEDOUT,
		EUCLEAN, EDQUOT, EILSEQ,
	};
	static const char words[] =
		"Input/output error\0" "Cannot allocate memory\0"
		"Device or resource busy\0" "Invalid cross-device link\0"
		"Too many open files\0" "Inappropriate ioctl for device\0"
		"Illegal seek\0" "Numerical result out of range\0"
		"File name too long\0" "Too many levels of symbolic links\0"
		"Value too large for defined data type\0"
		"Operation not supported\0" "Connection timed out\0"
		"Structure needs cleaning\0" "Disk quota exceeded\0"
		"Invalid or incomplete multibyte or wide character";
	const char *w = words;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(numbers); i++, w += strlen(w) + 1)
		if (numbers[i] == errnum)
			return w;
#endif
	return strerror(errnum);
}

/* Copy s at pos; like bb_vformat, never past size - 1.  Returns the new
 * position as if nothing had been cut. */
static size_t put_str(char *buf, size_t size, size_t pos, const char *s)
{
	for (; *s; s++, pos++)
		if (pos + 1 < size)
			buf[pos] = *s;
	return pos;
}

/* Build "applet: text[: strerror]\n", after a newline that ends an open
 * line if end_line, and return the length it needs. */
static size_t build_msg(char *buf, size_t size, bool end_line, int errnum,
			const char *fmt, va_list ap)
{
	size_t n = put_str(buf, size, 0, end_line ? "\n" : "");

	n = put_str(buf, size, n, applet_name);
	n = put_str(buf, size, n, ": ");
	n += bb_vformat(buf + (n < size ? n : size),
			n < size ? size - n : 0, fmt, ap);
	if (errnum) {
		n = put_str(buf, size, n, ": ");
		n = put_str(buf, size, n, bb_strerror(errnum));
	}
	return put_str(buf, size, n, "\n");
}

void bb_verror_msg(int errnum, const char *fmt, va_list ap)
{
	int saved_errno = errno;
	int line_fd = bb_take_open_line();
	bool end_line = line_fd == STDERR_FILENO;
	char stack[MSG_STACK];
	char *buf = stack;
	size_t n;
	va_list again;

	/* A line open elsewhere (ddrescue's on stdout) is ended there. */
	if (line_fd >= 0 && !end_line)
		full_write(line_fd, "\n", 1);
	va_copy(again, ap);
	n = build_msg(stack, sizeof(stack), end_line, errnum, fmt, ap);
	if (n >= sizeof(stack)) {
		buf = try_malloc(n + 1);
		if (buf) {
			build_msg(buf, n + 1, end_line, errnum, fmt, again);
		} else {
			buf = stack;
			n = sizeof(stack) - 1;
			stack[n - 1] = '\n';
		}
	}
	va_end(again);
	bb_write_stderr(buf, n);
	if (buf != stack)
		free_mapped(buf);
	errno = saved_errno;
}

void bb_errno_msg(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bb_verror_msg(errnum, fmt, ap);
	va_end(ap);
}

int bb_perror_name(const char *fmt, const char *name)
{
	bb_perror_msg(fmt, quote_always(name));
	return EXIT_FAILURE;
}

void bb_errno_msg_and_die(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bb_verror_msg(errnum, fmt, ap);
	va_end(ap);
	exit(xfunc_error_retval);
}

bool bb_try_help_prefixed;

void bb_error_msg_and_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bb_verror_msg(0, fmt, ap);
	va_end(ap);
	/* One format for both forms; the message above ended any open
	 * line already. */
	bb_dprintf(STDERR_FILENO, "%s%sTry '%s --help' for more information.\n",
		   bb_try_help_prefixed ? applet_name : "",
		   bb_try_help_prefixed ? ": " : "", applet_name);
	exit(xfunc_error_retval);
}

/* What --help and --version print must reach stdout: GNU's close_stdout
 * says "write error: ..." and exits 1 otherwise. */
static void check_stdout_write(ssize_t written, size_t wanted)
{
	if (written != (ssize_t)wanted) {
		xfunc_error_retval = EXIT_FAILURE;
		bb_perror_msg_and_die("write error");
	}
}

void bb_print_usage(void)
{
	const char *u = applet_usage ? applet_usage : "";
	size_t n = strlen(u);
	const char *nl = n && u[n - 1] == '\n' ? "" : "\n";

	/* One write, as every message. */
	check_stdout_write(bb_dprintf(STDOUT_FILENO, "%s%s", u, nl),
			   n + strlen(nl));
}

void bb_print_version(void)
{
	const char *base = strrchr(applet_name, '/');
	char line[MSG_STACK];
	size_t n;

	base = base ? base + 1 : applet_name;
	/* "dd (zerobox) X.Y.Z" as GNU's "dd (GNU coreutils) 9.1"; the
	 * multicall binary itself just "zerobox X.Y.Z". */
	if (strcmp(base, "zerobox") == 0)
		n = bb_format(line, sizeof(line), "zerobox %s\n", bb_version);
	else
		n = bb_format(line, sizeof(line), "%s (zerobox) %s\n", base,
			      bb_version);
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	check_stdout_write(full_write(STDOUT_FILENO, line, n), n);
}

ssize_t bb_dprintf(int fd, const char *fmt, ...)
{
	char stack[MSG_STACK];
	char *buf = stack;
	size_t n;
	ssize_t r;
	va_list ap;

	va_start(ap, fmt);
	n = bb_vformat(stack, sizeof(stack), fmt, ap);
	va_end(ap);
	if (n >= sizeof(stack)) {
		buf = try_malloc(n + 1);
		if (buf) {
			va_start(ap, fmt);
			bb_vformat(buf, n + 1, fmt, ap);
			va_end(ap);
		} else {
			buf = stack;
			n = sizeof(stack) - 1;
		}
	}
	r = fd == STDERR_FILENO ? bb_write_stderr(buf, n) : full_write(fd, buf, n);
	if (buf != stack)
		free_mapped(buf);
	return r;
}
