/*
 * test_messages.c - the message path and bb_vformat.
 *
 * Each message must leave in exactly one write(2).  The test runs the
 * code in a child whose stderr (and stdout) is an AF_UNIX SOCK_SEQPACKET
 * socket: every write(2) becomes one record there, so counting records
 * counts writes.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libbb.h"
#include "unit.h"

enum { MAX_RECORDS = 8, BIG = 100 * 1024 };

struct capture {
	int status;                     /* exit status, 128+sig if killed */
	int nrec;                       /* records (write calls) seen */
	size_t len[MAX_RECORDS];
	char *rec[MAX_RECORDS];
	int fd[MAX_RECORDS];            /* 1 or 2: where it was written */
};

static void capture_free(struct capture *c)
{
	int i;

	for (i = 0; i < c->nrec; i++)
		free(c->rec[i]);
}

/* Read every record from one socket into c. */
static void drain(int sock, int fd, struct capture *c)
{
	static char buf[4 * BIG];
	ssize_t n;

	while ((n = recv(sock, buf, sizeof(buf), 0)) > 0) {
		if (c->nrec == MAX_RECORDS)
			continue;
		c->rec[c->nrec] = malloc((size_t)n + 1);
		memcpy(c->rec[c->nrec], buf, (size_t)n);
		c->rec[c->nrec][n] = '\0';
		c->len[c->nrec] = (size_t)n;
		c->fd[c->nrec] = fd;
		c->nrec++;
	}
}

static int seqpacket(int sv[2])
{
	int size = 1 << 20;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
		return -1;
	setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return 0;
}

/* Run fn(arg) in a child with stdout and stderr captured. */
static void run(void (*fn)(void *), void *arg, struct capture *c)
{
	int out[2], err[2], status;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	if (seqpacket(out) != 0 || seqpacket(err) != 0) {
		unit_fail("socketpair: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* The children speak as dd, but for the default name's test. */
		applet_name = "dd";
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		close(out[1]);
		close(err[1]);
		fn(arg);
		_exit(0);
	}
	close(out[1]);
	close(err[1]);
	/* stdout first: the children here write little there. */
	drain(out[0], 1, c);
	drain(err[0], 2, c);
	close(out[0]);
	close(err[0]);
	waitpid(pid, &status, 0);
	c->status = WIFEXITED(status) ? WEXITSTATUS(status)
				      : 128 + WTERMSIG(status);
}

/* Exactly one record on fd, equal to want, and exit status. */
static void expect_one(struct capture *c, int fd, const char *want,
		       int status)
{
	if (c->nrec != 1)
		unit_fail("%d writes, want 1 (first: \"%s\")", c->nrec,
			  c->nrec ? c->rec[0] : "");
	else if (c->fd[0] != fd)
		unit_fail("written to fd %d, want %d", c->fd[0], fd);
	else if (strcmp(c->rec[0], want) != 0)
		unit_fail("got \"%s\", want \"%s\"", c->rec[0], want);
	if (c->status != status)
		unit_fail("exit status %d, want %d", c->status, status);
	capture_free(c);
}

/* run, then expect_one: the check most messages need. */
static void expect_run(void (*fn)(void *), void *arg, int fd, const char *want,
		       int status)
{
	struct capture c;

	run(fn, arg, &c);
	expect_one(&c, fd, want, status);
}

/* ---- the children ---------------------------------------------------- */

static void do_error_msg(void *arg)
{
	(void)arg;
	applet_name = "zerobox";
	bb_error_msg("hello %s, %d", "world", -7);
}

/* A line left open (a progress line): the next message ends it first,
 * in its own write, and only once. */
static void do_open_line(void *arg)
{
	(void)arg;
	bb_write_stderr("\r1 byte copied", 14);
	bb_leave_line_open(STDERR_FILENO);
	bb_error_msg("x");
	bb_error_msg("y");
	bb_write_stderr("\r2", 2);
	bb_leave_line_open(STDERR_FILENO);
	if (bb_take_open_line() == STDERR_FILENO && bb_take_open_line() < 0)
		bb_write_stderr("ended once\n", 11);
}

static void do_error_msg_dd(void *arg)
{
	(void)arg;
	errno = EINVAL;
	bb_error_msg("x");
	if (errno != EINVAL)
		bb_error_msg("errno changed");
}

static void do_perror(void *arg)
{
	(void)arg;
	errno = ENOENT;
	bb_perror_msg("failed to open %s", "'x'");
}

static void do_errno(void *arg)
{
	bb_errno_msg(*(int *)arg, "invalid number: %s", "'1Z'");
}

static void do_die(void *arg)
{
	(void)arg;
	bb_error_msg_and_die("cannot combine %s and %s", "block", "unblock");
}

static void do_die_retval(void *arg)
{
	(void)arg;
	xfunc_error_retval = 3;
	errno = EIO;
	bb_perror_msg_and_die("error reading %s", "'f'");
}

static void do_errno_die(void *arg)
{
	(void)arg;
	bb_errno_msg_and_die(ENOSPC, "writing");
}

static void do_usage(void *arg)
{
	(void)arg;
	bb_error_msg_and_usage("unrecognized operand %s", "'foo'");
}

static void do_print_usage(void *arg)
{
	applet_usage = arg;
	bb_print_usage();
}

static void do_big(void *arg)
{
	bb_error_msg("unrecognized operand '%s'", (const char *)arg);
}

static void do_big_dprintf(void *arg)
{
	bb_dprintf(1, "[%s]", (const char *)arg);
}

#if defined(__SANITIZE_ADDRESS__)
#define ZB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZB_ASAN 1
#endif
#endif
#ifndef ZB_ASAN
#define ZB_ASAN 0
#endif

/* With the address space full, the heap fallback fails: the message is
 * cut to the stack buffer, still one write ending in a newline. */
static void do_big_no_memory(void *arg)
{
	struct rlimit rl = { 0, 0 };
	void *hog;

#if ZB_ASAN
	/* ASan's shadow lives beyond any RLIMIT_AS, and its malloc aborts
	 * instead of returning NULL: nothing to check. */
	_exit(99);
#endif
	/* Use up what malloc could get, then forbid more. */
	getrlimit(RLIMIT_AS, &rl);
	rl.rlim_cur = 64 << 20;
	if (setrlimit(RLIMIT_AS, &rl) != 0)
		_exit(99);
	/* qemu-user does not apply RLIMIT_AS (it would bind the emulator):
	 * twice the limit allocated means no limit, nothing to check. */
	for (size_t n = 0; (hog = malloc(1 << 16)) != NULL; n++)
		if (n > 2 * ((64 << 20) >> 16))
			_exit(99);
	while ((hog = malloc(64)) != NULL)
		continue;
	bb_error_msg("operand '%s'", (const char *)arg);
}

/* ---- the groups -------------------------------------------------------- */

static void test_basic(void)
{
	int e;

	unit_begin("messages: text, prefix, strerror, one write");
	CHECK_STR(applet_name, "zerobox");
	expect_run(do_error_msg, NULL, 2, "zerobox: hello world, -7\n", 0);
	expect_run(do_error_msg_dd, NULL, 2, "dd: x\n", 0);
	expect_run(do_perror, NULL, 2,
		   "dd: failed to open 'x': No such file or directory\n", 0);
	e = EOVERFLOW;
	expect_run(do_errno, &e, 2, "dd: invalid number: '1Z': "
		   "Value too large for defined data type\n", 0);
	e = 0;
	expect_run(do_errno, &e, 2, "dd: invalid number: '1Z'\n", 0);
	unit_end();
}

static void test_open_line(void)
{
	struct capture c;

	unit_begin("messages: an open line is ended first, once");
	run(do_open_line, NULL, &c);
	if (c.nrec != 5 || strcmp(c.rec[1], "\ndd: x\n") != 0
	    || strcmp(c.rec[2], "dd: y\n") != 0
	    || strcmp(c.rec[4], "ended once\n") != 0)
		unit_fail("%d records: \"%s\", \"%s\"", c.nrec,
			  c.nrec > 1 ? c.rec[1] : "", c.nrec > 2 ? c.rec[2] : "");
	capture_free(&c);
	unit_end();
}

static void test_die(void)
{
	unit_begin("messages: _and_die and exit status");
	expect_run(do_die, NULL, 2, "dd: cannot combine block and unblock\n", 1);
	expect_run(do_die_retval, NULL, 2,
		   "dd: error reading 'f': Input/output error\n", 3);
	expect_run(do_errno_die, NULL, 2,
		   "dd: writing: No space left on device\n", 1);
	unit_end();
}

static void test_usage(void)
{
	struct capture c;

	unit_begin("messages: usage");
	run(do_usage, NULL, &c);
	if (c.nrec != 2 ||
	    strcmp(c.rec[0], "dd: unrecognized operand 'foo'\n") != 0 ||
	    strcmp(c.rec[1], "Try 'dd --help' for more information.\n") != 0)
		unit_fail("usage error: %d records: \"%s\"", c.nrec,
			  c.nrec ? c.rec[0] : "");
	if (c.status != 1)
		unit_fail("usage exit status %d", c.status);
	capture_free(&c);
	expect_run(do_print_usage, "Usage: dd [OPERAND]...\n  or:  dd OPTION\n",
		   1, "Usage: dd [OPERAND]...\n  or:  dd OPTION\n", 0);
	expect_run(do_print_usage, "Usage: dd", 1, "Usage: dd\n", 0);
	unit_end();
}

static void test_strerror(void)
{
	unit_begin("bb_strerror uses glibc's words");
	CHECK_STR(bb_strerror(EIO), "Input/output error");
	CHECK_STR(bb_strerror(EOVERFLOW),
		  "Value too large for defined data type");
	CHECK_STR(bb_strerror(ENOMEM), "Cannot allocate memory");
	CHECK_STR(bb_strerror(ESPIPE), "Illegal seek");
	CHECK_STR(bb_strerror(ENOSPC), "No space left on device");
	CHECK_STR(bb_strerror(ENOENT), "No such file or directory");
	CHECK_STR(bb_strerror(EINVAL), "Invalid argument");
	CHECK_STR(bb_strerror(EFBIG), "File too large");
	CHECK_STR(bb_strerror(EOPNOTSUPP), "Operation not supported");
	CHECK_STR(bb_strerror(EDQUOT), "Disk quota exceeded");
	CHECK_STR(bb_strerror(EBUSY), "Device or resource busy");
	CHECK_STR(bb_strerror(EXDEV), "Invalid cross-device link");
	CHECK_STR(bb_strerror(EMFILE), "Too many open files");
	CHECK_STR(bb_strerror(ENOTTY), "Inappropriate ioctl for device");
	CHECK_STR(bb_strerror(ERANGE), "Numerical result out of range");
	CHECK_STR(bb_strerror(ENAMETOOLONG), "File name too long");
	CHECK_STR(bb_strerror(ELOOP), "Too many levels of symbolic links");
	CHECK_STR(bb_strerror(ETIMEDOUT), "Connection timed out");
	CHECK_STR(bb_strerror(EUCLEAN), "Structure needs cleaning");
	CHECK_STR(bb_strerror(EILSEQ),
		  "Invalid or incomplete multibyte or wide character");
	unit_end();
}

static void test_big(void)
{
	struct capture c;
	char *arg = malloc(BIG + 1), *want;
	size_t i, wlen;

	unit_begin("messages: 100 KB operand printed whole in one write");
	for (i = 0; i < BIG; i++)
		arg[i] = (char)('a' + i % 26);
	arg[BIG] = '\0';
	wlen = strlen("dd: unrecognized operand ''\n") + BIG;
	want = malloc(wlen + 1);
	snprintf(want, wlen + 1, "dd: unrecognized operand '%s'\n", arg);
	run(do_big, arg, &c);
	if (c.nrec != 1 || c.len[0] != wlen || memcmp(c.rec[0], want, wlen))
		unit_fail("%d writes, first %zu bytes, want 1 write of %zu",
			  c.nrec, c.nrec ? c.len[0] : 0, wlen);
	capture_free(&c);

	snprintf(want, wlen + 1, "[%s]", arg);
	run(do_big_dprintf, arg, &c);
	if (c.nrec != 1 || c.len[0] != BIG + 2 ||
	    memcmp(c.rec[0], want, BIG + 2))
		unit_fail("bb_dprintf: %d writes, first %zu bytes", c.nrec,
			  c.nrec ? c.len[0] : 0);
	capture_free(&c);

	/* Just past the stack buffer, and just inside it. */
	for (i = 200; i < 300; i++) {
		arg[i] = '\0';
		snprintf(want, wlen + 1, "dd: unrecognized operand '%s'\n",
			 arg);
		run(do_big, arg, &c);
		if (c.nrec != 1 || strcmp(c.rec[0], want) != 0)
			unit_fail("operand of %zu bytes: %d writes", i,
				  c.nrec);
		capture_free(&c);
		arg[i] = (char)('a' + i % 26);
	}

	run(do_big_no_memory, arg, &c);
	if (c.status == 99) {
		/* no (enforced) RLIMIT_AS, or ASan: nothing to check */
	} else if (c.nrec != 1 || c.len[0] < 100 || c.len[0] >= 1024 ||
		   c.rec[0][c.len[0] - 1] != '\n' ||
		   strncmp(c.rec[0], "dd: operand 'abcdef", 19) != 0) {
		unit_fail("no memory: %d writes, %zu bytes", c.nrec,
			  c.nrec ? c.len[0] : 0);
	}
	capture_free(&c);
	free(want);
	free(arg);
	unit_end();
}

/* bb_format must agree with snprintf on the subset. */
#define SAME(...) \
	do { \
		char a_[256], b_[256]; \
		size_t n_ = bb_format(a_, sizeof(a_), __VA_ARGS__); \
		int m_ = snprintf(b_, sizeof(b_), __VA_ARGS__); \
		if (strcmp(a_, b_) != 0 || n_ != (size_t)m_) \
			unit_fail("line %d: \"%s\" (%zu), printf \"%s\" (%d)", \
				  __LINE__, a_, n_, b_, m_); \
	} while (0)

static void test_format(void)
{
	char buf[16];
	const char *volatile null = NULL;   /* opaque: no -Wformat warning */

	unit_begin("bb_format subset");
	SAME("plain text");
	SAME("%s|%s", "abc", "");
	SAME("%.*s|", 3, "abcdef");
	SAME("%.*s|", 10, "abc");
	SAME("%.*s|", 0, "abc");
	SAME("%.2s|", "abc");
	SAME("%d %d %d", 0, -1, 42);
	SAME("%d %i", INT_MIN, INT_MAX);
	SAME("%u %u", 0u, UINT_MAX);
	SAME("%ld %lu", LONG_MIN, ULONG_MAX);
	SAME("%lld %llu", LLONG_MIN, ULLONG_MAX);
	SAME("%lld %llu", -1LL, 0ULL);
	SAME("%jd %ju", INTMAX_MIN, UINTMAX_MAX);
	SAME("%zd %zu", (ssize_t)-5, SIZE_MAX);
	SAME("%x %x %x", 0u, 255u, 0xdeadbeefu);
	SAME("%lx %llx %zx %jx", ULONG_MAX, ULLONG_MAX, SIZE_MAX,
	     UINTMAX_MAX);
	SAME("%c%c%c", 'a', 'b', 0x7e);
	SAME("100%%");
	SAME("[%5d][%-5d][%05d]", 42, 42, 42);
	SAME("[%5d][%-5d][%05d]", -42, -42, -42);
	SAME("[%8s][%-8s]", "ab", "ab");
	SAME("[%2s][%-2s]", "abcd", "abcd");
	SAME("[%3c][%-3c]", 'x', 'y');
	SAME("[%*d][%-*d][%*d]", 6, 7, 6, 7, -6, 7);
	SAME("[%*s]", 4, "z");
	SAME("[%08x][%-8x][%20llu]", 0xbeefu, 0xbeefu, ULLONG_MAX);
	SAME("[%1d][%0d]", 12345, 12345);
	CHECK(bb_format(buf, sizeof(buf), "%s", null) == 6);
	CHECK_STR(buf, "(null)");
	/* truncation: always terminated, returns the full length */
	CHECK(bb_format(buf, 5, "hello %s", "world") == 11);
	CHECK_STR(buf, "hell");
	CHECK(bb_format(buf, 1, "abc") == 3);
	CHECK_STR(buf, "");
	buf[0] = 'Q';
	CHECK(bb_format(buf, 0, "abc%d", 12) == 5);
	CHECK(buf[0] == 'Q');
	CHECK(bb_format(buf, sizeof(buf), "%d", 12345) == 5);
	CHECK_STR(buf, "12345");
	unit_end();
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_basic();
	test_open_line();
	test_die();
	test_usage();
	test_strerror();
	test_big();
	test_format();
	return unit_exit_status();
}
