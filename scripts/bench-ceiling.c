/*
 * bench-ceiling.c - the kernel's best speed for one copy path, for
 * scripts/bench.sh: the plainest loop of one syscall kind, with nothing
 * around it (no counting, no signals, no conversions), so that dd can be
 * judged against what the kernel allows.
 *
 * Usage: bench-ceiling [-b CHUNK] [-n BYTES] [-P PIPE_SIZE] [-K] METHOD IN OUT
 *   METHOD   rw        read(2) CHUNK bytes, write(2) them all
 *            splice    splice(2) CHUNK bytes at a time; when neither IN nor
 *                      OUT is a pipe, through a pipe of its own (PIPE_SIZE,
 *                      default CHUNK and at least 64 KiB)
 *            sendfile  sendfile(2) CHUNK bytes at a time
 *            cfr       copy_file_range(2) CHUNK bytes at a time
 *            vmsplice  IN must be /dev/zero and OUT a pipe: vmsplice(2) a
 *                      CHUNK-sized buffer of zeros, never reading IN
 *   IN, OUT  paths (/dev/fd/N for descriptors the caller set up); OUT is
 *            opened O_CREAT|O_TRUNC unless -K (overwrite in place)
 *   -b CHUNK bytes per call (default 1 MiB)
 *   -n BYTES stop after BYTES (an endless IN needs it); default: at EOF
 *
 * Prints one line on stdout: "METHOD BYTES SECONDS STATUS", where SECONDS
 * is CLOCK_MONOTONIC around the copy loop only, and STATUS is "ok" or
 * "ERRNAME@call" for the first failing call (then exit 2): a path the
 * kernel refuses, such as EINVAL@splice.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "bench-clock.h"

struct job {
	int in, out;
	size_t chunk;
	long long limit;	/* -1: until EOF */
	size_t pipe_size;
	const char *failed_call;	/* set with errno on failure */
	void *buf;		/* rw: the read buffer; vmsplice: the zeros */
	int pipe_rd, pipe_wr;	/* splice's own pipe, -1 when IN or OUT is one */
};

static int is_pipe(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* How much the next call may move: CHUNK, or what -n leaves. */
static size_t next_size(const struct job *j, long long done)
{
	if (j->limit >= 0 && j->limit - done < (long long)j->chunk)
		return (size_t)(j->limit - done);
	return j->chunk;
}

static int fail(struct job *j, const char *call)
{
	j->failed_call = call;
	return -1;
}

/* write(2) all of len, resuming short writes. */
static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * Each method is a set-up and a step: one call (or one read and its
 * write) of at most want bytes, returning what it moved, 0 at EOF, or -1
 * with errno and j->failed_call set.  The loop around the step is the
 * same for all of them, so it is written once, in copy_loop; the
 * indirect call it adds is nothing next to a system call.
 */
static int setup_rw(struct job *j)
{
	j->buf = malloc(j->chunk);
	return j->buf ? 0 : fail(j, "malloc");
}

static ssize_t step_rw(struct job *j, size_t want)
{
	ssize_t n = read(j->in, j->buf, want);
	if (n < 0)
		return fail(j, "read");
	if (n > 0 && write_all(j->out, j->buf, (size_t)n))
		return fail(j, "write");
	return n;
}

/* Move len bytes already in a pipe on to out. */
static int drain_pipe(int pipe_rd, int out, size_t len)
{
	while (len > 0) {
		ssize_t n = splice(pipe_rd, NULL, out, NULL, len, SPLICE_F_MOVE);
		if (n <= 0)
			return -1;
		len -= (size_t)n;
	}
	return 0;
}

/* splice(2) needs a pipe at one end: when neither IN nor OUT is one, a
 * pipe of its own in between. */
static int setup_splice(struct job *j)
{
	int p[2];

	if (is_pipe(j->in) || is_pipe(j->out))
		return 0;
	if (pipe(p))
		return fail(j, "pipe");
	j->pipe_rd = p[0];
	j->pipe_wr = p[1];
	if (fcntl(p[1], F_SETPIPE_SZ, (int)j->pipe_size) < 0)
		return fail(j, "F_SETPIPE_SZ");
	return 0;
}

static ssize_t step_splice(struct job *j, size_t want)
{
	ssize_t n;

	if (j->pipe_wr < 0) {
		n = splice(j->in, NULL, j->out, NULL, want, SPLICE_F_MOVE);
		return n < 0 ? fail(j, "splice") : n;
	}
	if (want > j->pipe_size)
		want = j->pipe_size;
	n = splice(j->in, NULL, j->pipe_wr, NULL, want, SPLICE_F_MOVE);
	/* Either half failing is the one call splice failing. */
	if (n < 0 || (n > 0 && drain_pipe(j->pipe_rd, j->out, (size_t)n)))
		return fail(j, "splice");
	return n;
}

static ssize_t step_sendfile(struct job *j, size_t want)
{
	ssize_t n = sendfile(j->out, j->in, NULL, want);
	return n < 0 ? fail(j, "sendfile") : n;
}

static ssize_t step_cfr(struct job *j, size_t want)
{
	ssize_t n = copy_file_range(j->in, NULL, j->out, NULL, want, 0);
	return n < 0 ? fail(j, "copy_file_range") : n;
}

/* Zeros into a pipe with no read: the fastest /dev/zero can go. */
static int setup_vmsplice(struct job *j)
{
	struct stat st;

	if (fstat(j->in, &st) || !S_ISCHR(st.st_mode) || j->limit < 0
	    || !is_pipe(j->out)) {
		errno = EINVAL;
		return fail(j, "vmsplice");
	}
	/* Real zero pages: the shared zero page is slow to vmsplice. */
	j->buf = mmap(NULL, j->chunk, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return j->buf == MAP_FAILED ? fail(j, "mmap") : 0;
}

/* A pipe that takes nothing is a failure too: IN never ends. */
static ssize_t step_vmsplice(struct job *j, size_t want)
{
	struct iovec iov = { j->buf, want };
	ssize_t n = vmsplice(j->out, &iov, 1, 0);
	return n <= 0 ? fail(j, "vmsplice") : n;
}

static const struct method {
	const char *name;
	int (*setup)(struct job *);	/* NULL: none */
	ssize_t (*step)(struct job *, size_t);
} methods[] = {
	{ "rw", setup_rw, step_rw },
	{ "splice", setup_splice, step_splice },
	{ "sendfile", NULL, step_sendfile },
	{ "cfr", NULL, step_cfr },
	{ "vmsplice", setup_vmsplice, step_vmsplice },
};

/* The set-up and the loop: bytes moved, or -1. */
static long long copy_loop(struct job *j, const struct method *m)
{
	long long done = 0;
	size_t want;

	if (m->setup && m->setup(j))
		return -1;
	while ((want = next_size(j, done)) > 0) {
		ssize_t n = m->step(j, want);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

/* The errno names a refused path gives; others print as a number. */
static const char *errno_name(int err)
{
	static char other[16];

	switch (err) {
	case EINVAL: return "EINVAL";
	case EXDEV: return "EXDEV";
	case EBADF: return "EBADF";
	case ENOSYS: return "ENOSYS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EPERM: return "EPERM";
	case ESPIPE: return "ESPIPE";
	case EPIPE: return "EPIPE";
	}
	snprintf(other, sizeof other, "E%d", err);
	return other;
}

static long long parse_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	switch (*end) {
	case 'K': return v << 10;
	case 'M': return v << 20;
	case 'G': return v << 30;
	case '\0': return v;
	default: return -1;
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: bench-ceiling [-b CHUNK] [-n BYTES] [-P PIPE_SIZE] [-K]"
		" rw|splice|sendfile|cfr|vmsplice IN OUT\n");
	exit(125);
}

int main(int argc, char **argv)
{
	struct job j = { -1, -1, 1 << 20, -1, 0, NULL, NULL, -1, -1 };
	int in_place = 0, c;
	long long v;

	while ((c = getopt(argc, argv, "b:n:P:K")) != -1) {
		if (c == 'K') {
			in_place = 1;
			continue;
		}
		if (c == '?' || (v = parse_size(optarg)) <= 0)
			usage();
		if (c == 'b')
			j.chunk = (size_t)v;
		else if (c == 'n')
			j.limit = v;
		else
			j.pipe_size = (size_t)v;
	}
	if (argc - optind != 3)
		usage();
	if (j.pipe_size == 0)
		j.pipe_size = j.chunk < 65536 ? 65536 : j.chunk;

	const char *method = argv[optind];
	const struct method *m = NULL;
	for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
		if (!strcmp(method, methods[i].name))
			m = &methods[i];
	if (!m)
		usage();

	j.in = open(argv[optind + 1], O_RDONLY);
	j.out = open(argv[optind + 2],
		     O_WRONLY | O_CREAT | (in_place ? 0 : O_TRUNC), 0644);
	if (j.in < 0 || j.out < 0) {
		fprintf(stderr, "bench-ceiling: %s: %s\n",
			argv[optind + (j.in < 0 ? 1 : 2)], strerror(errno));
		return 125;
	}

	double t0 = now();
	long long done = copy_loop(&j, m);
	double secs = now() - t0;

	if (done < 0) {
		printf("%s 0 %.6f %s@%s\n", method, secs, errno_name(errno),
		       j.failed_call);
		return 2;
	}
	printf("%s %lld %.6f ok\n", method, done, secs);
	return 0;
}
