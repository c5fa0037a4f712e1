/*
 * bench-helper.c - plumbing and measuring for scripts/bench.sh.
 *
 * Compiled by bench.sh into its temp dir at bench time (statically when it
 * can, so that its own resident set stays small: the peak RSS reported for
 * a command includes what the forked helper had mapped before exec).
 *
 * Usage:
 *   bench-helper run [-p FILE [-b CHUNK]] [-c [-r]] [-f] [-R] -- CMD [ARG...]
 *       Run CMD and print "SECONDS MAXRSS_KIB STATUS CPU ALL_CPU" on
 *       stdout.
 *       -p FILE  CMD's stdin is a pipe fed by a producer child that writes
 *                as many bytes as FILE holds, CHUNK bytes per write(2)
 *                (default 1 MiB), all from one buffer filled with FILE's
 *                first CHUNK bytes, so that dd and the ceiling face the
 *                same writer.
 *       -c       CMD's stdout is a pipe drained by a consumer child that
 *                splices it to /dev/null (1 MiB read fallback).
 *       -r       with -c: the consumer is a plain reader instead, read(2)
 *                into a 128 KiB buffer, as `cat >/dev/null` drains a pipe.
 *       The clock (CLOCK_MONOTONIC) starts before the first fork and stops
 *       when CMD and the consumer have both exited.  MAXRSS is CMD's
 *       ru_maxrss from wait4.  STATUS is CMD's exit code, or "sigN".
 *       CPU is CMD's user+system seconds, ALL_CPU that of CMD, producer
 *       and consumer together: on a busy machine, the cost that waiting
 *       for a CPU does not inflate.
 *       -f       the producer's pipe is CMD's fd 3 and the consumer's its fd
 *                4, not stdin and stdout (for bench-ceiling: IN /dev/fd/3,
 *                OUT /dev/fd/4, its report on stdout).
 *       -R       exact peak RSS instead: CMD is traced (ptrace) to its exit
 *                and MAXRSS is VmHWM from /proc/PID/status read there.
 *                ru_maxrss is coarse for small processes (the kernel's
 *                per-CPU RSS counters lag by up to 31 pages per CPU and
 *                counter) and includes the helper's own pages before exec.
 *                Falls back to ru_maxrss when ptrace is not allowed.
 *       Pipes keep the default size (CMD may raise it itself), unless
 *       BENCH_PIPE_SZ=BYTES in the environment sets both pipes' capacity
 *       for every contender alike.
 *   bench-helper mkfile FILE SIZE   write SIZE bytes of pseudo-random data,
 *                                   fdatasync (so no writeback later)
 *   bench-helper warm FILE          pull FILE into the page cache
 *                                   (sendfile to /dev/null: no copying)
 *   bench-helper evict FILE         fdatasync + POSIX_FADV_DONTNEED FILE;
 *                                   prints the pages still resident
 *   bench-helper noop               do nothing (to measure the RSS floor)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-clock.h"

#define BUFSZ (1 << 20)
#define READER_BUFSZ (128 << 10)

static void die(const char *what)
{
	fprintf(stderr, "bench-helper: %s: %s\n", what, strerror(errno));
	exit(125);
}

static int xopen(const char *path, int flags)
{
	int fd = open(path, flags, 0644);
	if (fd < 0)
		die(path);
	return fd;
}

/* Read in until EOF and drop the bytes, bufsz at a time. */
static void read_all(int in, size_t bufsz)
{
	char *b = malloc(bufsz);
	if (!b)
		die("malloc");
	while (read(in, b, bufsz) > 0)
		;
}

/* Copy in to out until EOF: splice when one side is a pipe, else read+write. */
static void pump(int in, int out)
{
	ssize_t n;
	/* Ask for everything the pipe holds. */
	while ((n = splice(in, NULL, out, NULL, 1 << 30, SPLICE_F_MOVE)) > 0)
		;
	if (n == 0)
		return;
	if (errno == EPIPE)
		return;
	/* splice unsupported here: plain loop with a 1 MiB buffer */
	char *b = malloc(BUFSZ);
	if (!b)
		die("malloc");
	while ((n = read(in, b, BUFSZ)) > 0)
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, b + off, n - off);
			if (w < 0)
				return;	/* EPIPE: the reader left */
			off += w;
		}
}

/* The producer: write the size of in to out, chunk bytes at a time,
 * from one buffer holding in's first chunk. */
static void produce(int in, int out, size_t chunk)
{
	struct stat st;
	char *b = malloc(chunk);
	size_t have = 0;
	ssize_t n;
	if (!b || fstat(in, &st))
		die("producer");
	while (have < chunk && (n = read(in, b + have, chunk - have)) > 0)
		have += n;
	memset(b + have, 0x5a, chunk - have);
	for (long long left = st.st_size; left > 0;) {
		size_t want = left < (long long)chunk ? (size_t)left : chunk;
		ssize_t w = write(out, b, want);
		if (w <= 0)
			return;	/* EPIPE: the reader left */
		left -= w;
	}
}

enum child_role { PRODUCER, CONSUMER, READER };

/* Fork the producer (produce in to out), the consumer (pump in to
 * out) or the plain reader (read in); the child closes the pipe ends that are not its own (-1: none). */
static pid_t spawn_child(enum child_role role, int in, int out, int close1,
			 int close2, size_t chunk)
{
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(close1);
		if (close2 >= 0)
			close(close2);
		if (role == PRODUCER)
			produce(in, out, chunk);
		else if (role == CONSUMER)
			pump(in, out);
		else
			read_all(in, READER_BUFSZ);
		_exit(0);
	}
	return pid;
}

/* VmHWM of a live (here: exit-stopped) process, in KiB; -1 if unknown. */
static long vm_hwm(pid_t pid)
{
	char path[64], buf[4096];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *p = strstr(buf, "\nVmHWM:");
	return p ? strtol(p + 7, NULL, 10) : -1;
}

/* Wait for a traced CMD to end; *hwm gets VmHWM at its exit stop. */
static void wait_traced(pid_t pid, int *st, struct rusage *ru, long *hwm)
{
	int first = 1;
	for (;;) {
		if (wait4(pid, st, 0, ru) < 0) {
			if (errno == EINTR)
				continue;
			die("wait4");
		}
		if (!WIFSTOPPED(*st))
			return;
		int sig = WSTOPSIG(*st);
		if (first && sig == SIGTRAP) {	/* the stop after execve */
			first = 0;
			if (ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)(long)
				   (PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL)) < 0)
				*hwm = -1;
			sig = 0;
		} else if (sig == SIGTRAP && (*st >> 16) == PTRACE_EVENT_EXIT) {
			*hwm = vm_hwm(pid);	/* mm still intact here */
			sig = 0;
		}
		ptrace(PTRACE_CONT, pid, 0, (void *)(long)sig);
	}
}

static double cpu_seconds(const struct rusage *ru)
{
	return ru->ru_utime.tv_sec + ru->ru_stime.tv_sec
		+ (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

/* Fork and exec cmd with in_fd (or -1) as its stdin (fd 3 with
 * high_fds) and out_fd (or -1) as its stdout (fd 4); traced for its
 * peak RSS with trace.  The pipes were made after fds 0-2 and in order,
 * so out_fd is above both targets and in_fd is at most 3. */
static pid_t spawn_command(char **cmd, int in_fd, int out_fd, int trace,
			   int high_fds)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid != 0)
		return pid;
	signal(SIGPIPE, SIG_DFL);
	if (trace)
		ptrace(PTRACE_TRACEME, 0, 0, 0);	/* failure: no stops */
	if (in_fd >= 0 && in_fd != (high_fds ? 3 : 0)) {
		dup2(in_fd, high_fds ? 3 : 0);
		close(in_fd);
	}
	if (out_fd >= 0 && out_fd != (high_fds ? 4 : 1)) {
		dup2(out_fd, high_fds ? 4 : 1);
		close(out_fd);
	}
	execvp(cmd[0], cmd);
	fprintf(stderr, "bench-helper: %s: %s\n", cmd[0], strerror(errno));
	_exit(127);
}

/* A pipe of BENCH_PIPE_SZ bytes when that is set; dies on failure. */
static void sized_pipe(int p[2])
{
	const char *size = getenv("BENCH_PIPE_SZ");

	if (pipe(p))
		die("pipe");
	if (size && *size)
		fcntl(p[1], F_SETPIPE_SZ, atoi(size));
}

static int cmd_run(int argc, char **argv)
{
	const char *prod = NULL;
	size_t chunk = BUFSZ;
	int cons = 0, reader = 0, trace = 0, high_fds = 0, c;
	while ((c = getopt(argc, argv, "+p:b:crfR")) != -1) {
		switch (c) {
		case 'p': prod = optarg; break;
		case 'b':
			if (atol(optarg) <= 0)
				return 125;
			chunk = atol(optarg);
			break;
		case 'c': cons = 1; break;
		case 'r': reader = 1; break;
		case 'f': high_fds = 1; break;
		case 'R': trace = 1; break;
		default: return 125;
		}
	}
	if (optind >= argc)
		return 125;
	signal(SIGPIPE, SIG_IGN);	/* children reset it on exec */

	pid_t ppid = 0, cpid = 0, pid;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	double t0 = now();
	if (prod) {
		int fd = xopen(prod, O_RDONLY);
		sized_pipe(in);
		ppid = spawn_child(PRODUCER, fd, in[1], in[0], -1, chunk);
		close(fd);
		close(in[1]);
	}
	if (cons) {
		int nul = xopen("/dev/null", O_WRONLY);
		sized_pipe(out);
		cpid = spawn_child(reader ? READER : CONSUMER, out[0], nul,
				   out[1], in[0], 0);
		close(nul);
		close(out[0]);
	}
	pid = spawn_command(argv + optind, prod ? in[0] : -1,
			    cons ? out[1] : -1, trace, high_fds);
	if (prod)
		close(in[0]);
	if (cons)
		close(out[1]);

	int st;
	struct rusage ru;
	long hwm = -1;
	if (trace)
		wait_traced(pid, &st, &ru, &hwm);
	else
		while (wait4(pid, &st, 0, &ru) < 0)
			if (errno != EINTR)
				die("wait4");
	if (hwm >= 0)
		ru.ru_maxrss = hwm;
	if (cpid)
		waitpid(cpid, NULL, 0);
	double t1 = now();
	if (ppid) {
		kill(ppid, SIGTERM);	/* CMD stopped early: don't wait for EOF */
		waitpid(ppid, NULL, 0);
	}
	struct rusage all;
	getrusage(RUSAGE_CHILDREN, &all);
	if (WIFEXITED(st))
		printf("%.6f %ld %d", t1 - t0, ru.ru_maxrss, WEXITSTATUS(st));
	else
		printf("%.6f %ld sig%d", t1 - t0, ru.ru_maxrss, WTERMSIG(st));
	printf(" %.6f %.6f\n", cpu_seconds(&ru), cpu_seconds(&all));
	return 0;
}

static int cmd_mkfile(const char *path, long long size)
{
	int fd = xopen(path, O_WRONLY | O_CREAT | O_TRUNC);
	uint64_t *b = malloc(BUFSZ), x = 0x9e3779b97f4a7c15ull;
	if (!b)
		die("malloc");
	for (size_t i = 0; i < BUFSZ / 8; i++) {	/* xorshift64 */
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		b[i] = x;
	}
	for (long long done = 0; done < size;) {
		size_t want = size - done < BUFSZ ? size - done : BUFSZ;
		ssize_t w = write(fd, b, want);
		if (w <= 0)
			die(path);
		done += w;
		b[done / BUFSZ % (BUFSZ / 8)] ^= done;	/* no two MiB alike */
	}
	if (fdatasync(fd))
		die(path);
	return close(fd) != 0;
}

static int cmd_warm(const char *path)
{
	int fd = xopen(path, O_RDONLY), nul = xopen("/dev/null", O_WRONLY);
	ssize_t n;
	while ((n = sendfile(nul, fd, NULL, 1 << 30)) > 0)
		;
	if (n < 0) {	/* fall back to reading */
		char *b = malloc(BUFSZ);
		while (b && read(fd, b, BUFSZ) > 0)
			;
	}
	return 0;
}

static int cmd_evict(const char *path)
{
	int fd = xopen(path, O_RDWR);
	struct stat st;
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (fstat(fd, &st) || st.st_size == 0)
		return 0;
	long pg = sysconf(_SC_PAGESIZE);
	size_t np = (st.st_size + pg - 1) / pg, res = 0;
	void *m = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	unsigned char *v = malloc(np);
	if (m != MAP_FAILED && v && mincore(m, st.st_size, v) == 0)
		for (size_t i = 0; i < np; i++)
			res += v[i] & 1;
	printf("%zu\n", res);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (argc == 4 && !strcmp(argv[1], "mkfile"))
		return cmd_mkfile(argv[2], atoll(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "warm"))
		return cmd_warm(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "evict"))
		return cmd_evict(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "noop"))
		return 0;
	fprintf(stderr, "usage: bench-helper run [-p FILE [-b CHUNK]] [-c [-r]] [-f] [-R] -- CMD... | mkfile FILE SIZE"
		" | warm FILE | evict FILE | noop\n");
	return 125;
}
