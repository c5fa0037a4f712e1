/*
 * sampler: run one command in the board guest and record, every 100 ms,
 * what a slow card does to a small machine.
 *
 *   sampler LOG DEV COMMAND [ARG...] [| COMMAND [ARG...]]
 *
 * With a lone "|" argument the sampler runs two commands itself, the
 * first's stdout piped into the second, as sh would, so that each one's
 * peak RSS is known.
 * The command runs with its stderr on a pipe that the sampler reads, so
 * each progress line gets the time it was printed.  Lines appended to
 * LOG (times in ms since the command started, sizes in KiB):
 *
 *   S T MEMAVAILABLE DIRTY WRITEBACK SECTORS_READ SECTORS_WRITTEN CANARY_US
 *     GROUP_RSS
 *   E T TEXT          one line of the command's stderr (\r ends a line too)
 *   X T STATUS MAXRSS the command ended: exit status, or 128+signal, and
 *                     its peak RSS in KiB (wait4's ru_maxrss); for a
 *                     pipeline, the second command's status unless it is
 *                     0, then the first's (sh's pipefail), and the sum of
 *                     both commands' peaks
 *   P T N STATUS MAXRSS  command N (1 or 2) of a pipeline ended (before
 *                     the X line)
 *
 * GROUP_RSS is the sum of the RSS (KiB) of every process in the
 * commands' process group when the sample was taken: the command, its
 * children (bmaptool's xz) and a pipeline's two commands.  Sampled, so a
 * peak shorter than a tick can be missed; pages two processes share
 * count twice.
 *
 * MAXRSS is the largest RSS of the command's process, or of a child it
 * waited for, counting the sampler's forked copy that the process
 * started as (exec keeps the larger of the two: 0.6 MiB on the host).
 * Under sh -c it is sh's or the command's, whichever is larger, so a
 * command whose own peak counts is run without sh.
 *
 * CANARY_US is the worst latency the canary saw since the last sample:
 * a second process that every 100 ms reads a small file and forks a
 * child that exits at once.  A canary stuck longer than a tick shows up
 * as the latency of the call in progress, so a stall is never hidden.
 *
 * The sampler asks the OOM killer to spare it and the command asks to
 * be its first victim.  The sampler is locked in memory, allocates
 * nothing once running and writes only its log, which is in RAM.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS 100
#define CANARY_FILE "/canary"

/* Shared with the canary process. */
struct canary_state {
	volatile int64_t call_started_us;	/* 0 when not inside a call */
	volatile int64_t worst_us;		/* since the sampler last read it */
};

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The tick after this one; a sampler that fell behind (a stalled
 * machine) skips the ticks it missed instead of sampling them at once. */
static int64_t next_tick_after(int64_t tick)
{
	int64_t now = now_us();

	tick += TICK_MS * 1000;
	return tick > now ? tick : now + TICK_MS * 1000;
}

static void set_oom_score_adj(const char *value)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, value, strlen(value)) < 0)
			perror("sampler: oom_score_adj");
		close(fd);
	}
}

static void canary_once(void)
{
	char buf[4096];
	int fd = open(CANARY_FILE, O_RDONLY);
	pid_t pid;

	if (fd >= 0) {
		while (read(fd, buf, sizeof buf) > 0)
			;
		close(fd);
	}
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void canary_loop(struct canary_state *state)
{
	for (;;) {
		int64_t start = now_us(), took;

		state->call_started_us = start;
		canary_once();
		took = now_us() - start;
		state->call_started_us = 0;
		if (took > state->worst_us)
			state->worst_us = took;
		usleep(TICK_MS * 1000);
	}
}

/* The worst canary latency since the last call, counting a call still
 * running as what it has taken so far. */
static int64_t canary_take_worst(struct canary_state *state)
{
	int64_t worst = state->worst_us, started = state->call_started_us;

	state->worst_us = 0;
	if (started && now_us() - started > worst)
		worst = now_us() - started;
	return worst;
}

static long long meminfo_field(const char *text, const char *name)
{
	const char *at = strstr(text, name);

	return at ? strtoll(at + strlen(name), NULL, 10) : -1;
}

static int read_whole(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	if (n < 0)
		n = 0;
	buf[n] = '\0';
	return (int)n;
}

/* The RSS in KiB of process PID when its process group is PGID, else 0;
 * NAME is PID as /proc spells it. */
static long long process_rss_kib(const char *name, pid_t pgid)
{
	char path[288], stat[1024];
	const char *after_name;
	long long group = 0, rss_pages = 0;
	int fd, n;

	snprintf(path, sizeof path, "/proc/%s/stat", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read_whole(fd, stat, sizeof stat);
	close(fd);
	after_name = n > 0 ? strrchr(stat, ')') : NULL;
	/* After the name: state, ppid, pgrp, then 18 fields to rss. */
	if (!after_name || sscanf(after_name + 1,
		   " %*c %*d %lld %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u"
		   " %*d %*d %*d %*d %*d %*d %*u %*u %lld", &group, &rss_pages) != 2)
		return 0;
	return group == pgid ? rss_pages * (sysconf(_SC_PAGESIZE) / 1024) : 0;
}

/* One entry of getdents64, as the kernel lays it out (libcs differ in
 * what they name it). */
struct dirent64_layout {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* The summed RSS in KiB of the processes in group PGID, from /proc read
 * through a static buffer (the sampler allocates nothing once running). */
static long long group_rss_kib(pid_t pgid)
{
	static _Alignas(8) char entries[16384];
	long long sum = 0;
	long n;
	int dir;

	if (pgid <= 0)
		return 0;
	dir = open("/proc", O_RDONLY | O_DIRECTORY);
	if (dir < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, dir, entries, sizeof entries)) > 0) {
		for (long at = 0; at < n;) {
			struct dirent64_layout *entry = (struct dirent64_layout *)(entries + at);

			if (entry->d_name[0] >= '1' && entry->d_name[0] <= '9')
				sum += process_rss_kib(entry->d_name, pgid);
			at += entry->d_reclen;
		}
	}
	close(dir);
	return sum;
}

static void sample(FILE *log, int64_t t0, int meminfo_fd, int stat_fd,
		   struct canary_state *canary, pid_t pgid)
{
	char mem[4096], st[512];
	unsigned long long f[7] = { 0 };

	read_whole(meminfo_fd, mem, sizeof mem);
	read_whole(stat_fd, st, sizeof st);
	sscanf(st, "%llu %llu %llu %llu %llu %llu %llu",
	       &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6]);
	fprintf(log, "S %lld %lld %lld %lld %llu %llu %lld %lld\n",
		(long long)((now_us() - t0) / 1000),
		meminfo_field(mem, "MemAvailable:"),
		meminfo_field(mem, "Dirty:"),
		meminfo_field(mem, "Writeback:"),
		f[2], f[6], (long long)canary_take_worst(canary),
		group_rss_kib(pgid));
}

/* Copies complete lines of the command's stderr to the log, each with
 * the time it arrived; \r (status=progress) ends a line as \n does. */
static void log_stderr(FILE *log, int64_t t0, char *line, size_t *used,
		       const char *data, size_t n, size_t cap)
{
	for (size_t i = 0; i < n; i++) {
		char c = data[i];

		if (c == '\r' || c == '\n') {
			if (*used) {
				line[*used] = '\0';
				fprintf(log, "E %lld %s\n",
					(long long)((now_us() - t0) / 1000), line);
			}
			*used = 0;
		} else if (*used < cap - 1) {
			line[(*used)++] = c;
		}
	}
}

/* Starts ARGV in process group PGID (0: a new group of its own), with
 * stdin from IN_FD and stdout to OUT_FD where they are not -1, stderr on
 * ERR_FD; CLOSE_FDS (ended by -1) are closed in the child. */
static pid_t spawn(char **argv, pid_t pgid, int in_fd, int out_fd, int err_fd,
		   const int *close_fds)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	munlockall();
	set_oom_score_adj("1000");
	setpgid(0, pgid);
	if (in_fd >= 0)
		dup2(in_fd, 0);
	if (out_fd >= 0)
		dup2(out_fd, 1);
	dup2(err_fd, 2);
	for (; *close_fds >= 0; close_fds++)
		close(*close_fds);
	execvp(argv[0], argv);
	_exit(127);
}

/* The commands' state: pid (0 once reaped), exit status and peak RSS. */
struct command {
	pid_t pid;
	int status;
	long maxrss;
};

/* Reaps what has ended of the N commands without waiting; returns how
 * many are still running.  Each one of a pipeline gets a P line. */
static int reap(FILE *log, int64_t t0, struct command *cmds, int n)
{
	int running = 0;

	for (int i = 0; i < n; i++) {
		struct rusage usage;
		int status;
		pid_t got;

		if (!cmds[i].pid)
			continue;
		got = wait4(cmds[i].pid, &status, WNOHANG, &usage);
		if (got == 0) {
			running++;
			continue;
		}
		cmds[i].pid = 0;
		cmds[i].status = got < 0 ? 127 : WIFEXITED(status) ?
			WEXITSTATUS(status) : 128 + WTERMSIG(status);
		cmds[i].maxrss = got < 0 ? -1 : usage.ru_maxrss;
		if (n > 1)
			fprintf(log, "P %lld %d %d %ld\n", (long long)((now_us() - t0) / 1000),
				i + 1, cmds[i].status, cmds[i].maxrss);
	}
	return running;
}

/* Starts the command (or the two of a pipeline, split at "|") of ARGV
 * with stderr on the write end of ERR_PIPE; returns how many it started,
 * all in the first one's process group. */
static int start(char **argv, const int *err_pipe, struct command *cmds)
{
	int link[2] = { -1, -1 }, i;

	for (i = 0; argv[i] && strcmp(argv[i], "|"); i++)
		;
	if (argv[i]) {
		argv[i] = NULL;
		if (pipe(link) < 0) {
			perror("sampler: pipe");
			exit(2);
		}
	}
	/* Without a pipeline the list ends at link[0], -1. */
	int fds[] = { err_pipe[0], err_pipe[1], link[0], link[1], -1 };
	cmds[0].pid = spawn(argv, 0, -1, link[1], err_pipe[1], fds);
	/* Set on both sides of the fork: the second may start first. */
	setpgid(cmds[0].pid, cmds[0].pid);
	if (link[0] < 0)
		return 1;
	cmds[1].pid = spawn(argv + i + 1, cmds[0].pid, link[0], -1, err_pipe[1], fds);
	close(link[0]);
	close(link[1]);
	return 2;
}

int main(int argc, char **argv)
{
	struct canary_state *canary;
	struct command cmds[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	char line[1024], buf[4096];
	size_t used = 0;
	int err_pipe[2], meminfo_fd, stat_fd, pipe_open = 1, ncmds, status;
	long maxrss;
	pid_t canary_pid, pgid;
	int64_t t0, next_tick;
	FILE *log;

	if (argc < 4) {
		fprintf(stderr, "usage: sampler LOG DEV COMMAND [ARG...] [| COMMAND [ARG...]]\n");
		return 2;
	}
	log = fopen(argv[1], "a");
	snprintf(buf, sizeof buf, "/sys/block/%s/stat", argv[2]);
	stat_fd = open(buf, O_RDONLY);
	meminfo_fd = open("/proc/meminfo", O_RDONLY);
	canary = mmap(NULL, sizeof *canary, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!log || stat_fd < 0 || meminfo_fd < 0 || canary == MAP_FAILED) {
		perror("sampler");
		return 2;
	}
	setvbuf(log, NULL, _IOLBF, 0);
	set_oom_score_adj("-1000");
	mlockall(MCL_CURRENT | MCL_FUTURE);

	canary_pid = fork();
	if (canary_pid == 0)
		canary_loop(canary);
	/* After the canary's fork: only the commands may hold the write end. */
	if (pipe(err_pipe) < 0) {
		perror("sampler");
		return 2;
	}

	t0 = now_us();
	ncmds = start(argv + 3, err_pipe, cmds);
	pgid = cmds[0].pid;
	close(err_pipe[1]);

	next_tick = t0;
	while (pipe_open) {
		int64_t wait_ms = (next_tick - now_us()) / 1000;
		struct pollfd p = { .fd = err_pipe[0], .events = POLLIN };

		if (wait_ms <= 0) {
			sample(log, t0, meminfo_fd, stat_fd, canary, pgid);
			next_tick = next_tick_after(next_tick);
			continue;
		}
		if (poll(&p, 1, (int)wait_ms) > 0) {
			ssize_t n = read(err_pipe[0], buf, sizeof buf);

			if (n > 0)
				log_stderr(log, t0, line, &used, buf, (size_t)n,
					   sizeof line);
			else if (n == 0 || errno != EINTR)
				pipe_open = 0;
		}
	}
	log_stderr(log, t0, line, &used, "\n", 1, sizeof line);
	/* stderr closed: the commands are exiting (or handed stderr on). */
	while (reap(log, t0, cmds, ncmds) > 0) {
		if (now_us() >= next_tick) {
			sample(log, t0, meminfo_fd, stat_fd, canary, pgid);
			next_tick = next_tick_after(next_tick);
		}
		usleep(10000);
	}
	status = ncmds == 2 && cmds[1].status == 0 ? cmds[0].status : cmds[ncmds - 1].status;
	maxrss = cmds[0].maxrss < 0 || cmds[ncmds - 1].maxrss < 0 ? -1 :
		cmds[0].maxrss + (ncmds == 2 ? cmds[1].maxrss : 0);
	fprintf(log, "X %lld %d %ld\n", (long long)((now_us() - t0) / 1000),
		status, maxrss);
	sample(log, t0, meminfo_fd, stat_fd, canary, 0);
	kill(canary_pid, SIGKILL);
	waitpid(canary_pid, NULL, 0);
	return 0;
}
