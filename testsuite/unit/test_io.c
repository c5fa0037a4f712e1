/*
 * test_io.c - safe_* retry EINTR (calling the hook), full_* loop, and
 * what each returns after partial progress.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libbb.h"
#include "unit.h"

enum { BIG = 4 << 20 };

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 131 + (i >> 13));
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		continue;
}

/* A pipe for a child to use; a failure fails the group, as any check. */
static void open_pipe(int p[2])
{
	if (pipe(p) != 0)
		unit_fail("pipe");
}

/* fork, with stdout flushed first so that the child cannot print the
 * parent's buffered lines a second time. */
static pid_t fork_flushed(void)
{
	fflush(stdout);
	return fork();
}

/* A child that closes unused (unless it is -1), runs child(fd) and
 * exits with what it returns. */
static pid_t fork_child(int (*child)(int fd), int fd, int unused)
{
	pid_t pid = fork_flushed();

	if (pid == 0) {
		if (unused >= 0)
			close(unused);
		_exit(child(fd));
	}
	return pid;
}

/* The exit status of the child pid; -1 if a signal ended it. */
static int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The children: 0 when all went as planned. */

/* Reads BIG bytes of pattern in small pieces. */
static int read_pattern(int fd)
{
	unsigned char piece[1000];
	size_t got = 0;
	ssize_t n;

	while ((n = read(fd, piece, sizeof(piece))) > 0) {
		for (size_t i = 0; i < (size_t)n; i++)
			if (piece[i] != pattern(got + i))
				return 2;
		got += (size_t)n;
	}
	return got == BIG ? 0 : 3;
}

/* Writes 2500 bytes of pattern in pieces of 100, pausing now and then. */
static int dribble_pattern(int fd)
{
	unsigned char piece[100];

	for (size_t i = 0; i < 2500; i++) {
		piece[i % 100] = pattern(i);
		if (i % 100 == 99) {
			if (write(fd, piece, 100) != 100)
				return 1;
			if (i % 1000 == 999)
				sleep_ms(5);
		}
	}
	return 0;
}

/* Writes "late", late. */
static int write_late(int fd)
{
	sleep_ms(150);
	return write(fd, "late", 4) == 4 ? 0 : 1;
}

/* Reads all there is, beginning late. */
static int drain_late(int fd)
{
	char sink[65536];

	sleep_ms(150);
	while (read(fd, sink, sizeof(sink)) > 0)
		continue;
	return 0;
}

/* full_write of 4 MiB through a pipe to a child reading small pieces. */
static void test_full_write_pipe(void)
{
	int p[2];
	unsigned char *buf = malloc(BIG);
	size_t i;
	pid_t pid;

	unit_begin("full_write to a pipe");
	for (i = 0; i < BIG; i++)
		buf[i] = pattern(i);
	open_pipe(p);
	pid = fork_child(read_pattern, p[0], p[1]);
	close(p[0]);
	CHECK(full_write(p[1], buf, BIG) == BIG);
	CHECK(full_write(p[1], buf, 0) == 0);
	close(p[1]);
	CHECK(child_status(pid) == 0);
	free(buf);
	unit_end();
}

static void test_full_write_errors(void)
{
	int p[2], fd;
	char *buf = calloc(1, 256 << 10);
	ssize_t n;

	unit_begin("full_write partial progress and errors");
	/* A non-blocking pipe nobody reads: it takes what fits, then
	 * EAGAIN; full_write reports the bytes written and the error. */
	open_pipe(p);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	errno = 0;
	n = full_write(p[1], buf, 256 << 10);
	CHECK(n > 0 && n < (256 << 10));
	CHECK(errno == EAGAIN);
	/* Now full: nothing written at all gives -1. */
	errno = 0;
	CHECK(full_write(p[1], buf, 100) == -1);
	CHECK(errno == EAGAIN);
	close(p[0]);
	/* No reader: EPIPE (SIGPIPE is ignored). */
	errno = 0;
	CHECK(full_write(p[1], buf, 10) == -1);
	CHECK(errno == EPIPE);
	close(p[1]);

	fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		errno = 0;
		CHECK(full_write(fd, buf, 10) == -1);
		CHECK(errno == ENOSPC);
		close(fd);
	}
	CHECK(full_write(-1, buf, 1) == -1 && errno == EBADF);
	free(buf);
	unit_end();
}

static void test_full_read(void)
{
	int p[2];
	unsigned char buf[3000];
	size_t i;
	pid_t pid;
	int bad = 0;

	unit_begin("full_read");
	/* A writer that dribbles 2500 bytes in pieces, then closes. */
	open_pipe(p);
	pid = fork_child(dribble_pattern, p[1], p[0]);
	close(p[1]);
	CHECK(full_read(p[0], buf, 1000) == 1000);
	CHECK(full_read(p[0], buf + 1000, 2000) == 1500);  /* EOF */
	for (i = 0; i < 2500; i++)
		bad += buf[i] != pattern(i);
	CHECK(bad == 0);
	CHECK(full_read(p[0], buf, 10) == 0);
	close(p[0]);
	CHECK(child_status(pid) == 0);

	/* An error after some bytes: those bytes now, the error next. */
	open_pipe(p);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	CHECK(write(p[1], "0123456789", 10) == 10);
	errno = 0;
	CHECK(full_read(p[0], buf, sizeof(buf)) == 10);
	errno = 0;
	CHECK(full_read(p[0], buf, sizeof(buf)) == -1);
	CHECK(errno == EAGAIN);
	close(p[0]);
	close(p[1]);
	CHECK(full_read(-1, buf, 1) == -1 && errno == EBADF);
	CHECK(full_read(0, buf, 0) == 0);
	unit_end();
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* A read or write interrupted by signals (no SA_RESTART) is retried. */
static void test_eintr(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	int p[2];
	char buf[16];
	pid_t pid;

	unit_begin("safe_read/full_write retry EINTR");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;       /* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	open_pipe(p);
	pid = fork_child(write_late, p[1], -1);
	setitimer(ITIMER_REAL, &it, NULL);
	CHECK(safe_read(p[0], buf, sizeof(buf)) == 4);
	CHECK(memcmp(buf, "late", 4) == 0);

	/* Fill the pipe so the next write blocks until the child drains. */
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	while (write(p[1], buf, sizeof(buf)) > 0)
		continue;
	fcntl(p[1], F_SETFL, 0);
	CHECK(child_status(pid) == 0);
	pid = fork_child(drain_late, p[0], p[1]);
	alarms = 0;
	CHECK(full_write(p[1], "x", 1) == 1);
	setitimer(ITIMER_REAL, &off, NULL);
	close(p[1]);
	close(p[0]);
	CHECK(child_status(pid) == 0);
	if (alarms == 0)
		unit_fail("no signal arrived during the blocked write");
	CHECK(full_write_str(-1, "abc") == -1);
	unit_end();
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_full_write_pipe();
	test_full_write_errors();
	test_full_read();
	test_eintr();
	return unit_exit_status();
}
