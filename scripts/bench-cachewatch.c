/*
 * bench-cachewatch.c - how much of a file sits in the page cache while a
 * command runs, for scripts/bench.sh's nocache section.
 *
 * Usage: bench-cachewatch [-i MS] -o REPORT -f FILE -- CMD [ARG...]
 *   Runs CMD and samples FILE's resident pages every MS milliseconds
 *   (default 20) until CMD exits, then once more.  FILE may not exist
 *   yet; it is opened afresh for every sample.  Resident pages come from
 *   cachestat(2) (Linux 6.5 and later), else from mincore(2) on a
 *   mapping of the file.
 *
 * Writes one line to REPORT (CMD keeps stdout and stderr to itself):
 *   "STATUS WALL_SECONDS PEAK_MIB FINAL_MIB SAMPLES"
 * STATUS is CMD's exit code, or 128 + the signal that ended it.  WALL is
 * CLOCK_MONOTONIC from fork to the reaping of CMD.
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-clock.h"

#ifndef __NR_cachestat
#define __NR_cachestat 451	/* the same number on every architecture */
#endif

/* The kernel's struct cachestat_range and struct cachestat. */
struct cache_range {
	uint64_t off, len;
};
struct cache_counts {
	uint64_t cache, dirty, writeback, evicted, recently_evicted;
};

/* Resident pages of an open file by mincore, or 0. */
static uint64_t resident_by_mincore(int fd)
{
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages = 0;

	if (fstat(fd, &st) || st.st_size <= 0)
		return 0;
	size_t len = (size_t)st.st_size;
	size_t n = (len + (size_t)page - 1) / (size_t)page;
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	unsigned char *vec = malloc(n);
	if (map != MAP_FAILED && vec && mincore(map, len, vec) == 0)
		for (size_t i = 0; i < n; i++)
			pages += vec[i] & 1;
	free(vec);
	if (map != MAP_FAILED)
		munmap(map, len);
	return pages;
}

/* Resident pages of path now; 0 when it does not exist. */
static uint64_t resident_pages(const char *path)
{
	static int no_cachestat;
	struct cache_range all = { 0, 0 };
	struct cache_counts cs;
	uint64_t pages = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	if (!no_cachestat && syscall(__NR_cachestat, fd, &all, &cs, 0) == 0)
		pages = cs.cache;
	else {
		no_cachestat = 1;
		pages = resident_by_mincore(fd);
	}
	close(fd);
	return pages;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench-cachewatch [-i MS] -o REPORT -f FILE -- CMD [ARG...]\n");
	exit(125);
}

int main(int argc, char **argv)
{
	const char *file = NULL, *report = NULL;
	long interval_ms = 20;
	int c;

	while ((c = getopt(argc, argv, "+i:o:f:")) != -1) {
		if (c == 'i')
			interval_ms = atol(optarg);
		else if (c == 'o')
			report = optarg;
		else if (c == 'f')
			file = optarg;
		else
			usage();
	}
	if (!file || !report || optind >= argc || interval_ms <= 0)
		usage();

	/* SIGCHLD stays blocked: sigtimedwait below is both the sleep
	 * between samples and the wake-up when CMD ends. */
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);

	double t0 = now();
	pid_t pid = fork();
	if (pid < 0) {
		perror("bench-cachewatch: fork");
		return 125;
	}
	if (pid == 0) {
		sigprocmask(SIG_UNBLOCK, &chld, NULL);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "bench-cachewatch: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}

	struct timespec gap = { interval_ms / 1000, (interval_ms % 1000) * 1000000 };
	uint64_t peak = 0, pages;
	unsigned long samples = 0;
	int status;
	for (;;) {
		pages = resident_pages(file);
		samples++;
		if (pages > peak)
			peak = pages;
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		sigtimedwait(&chld, NULL, &gap);
	}
	double wall = now() - t0;
	pages = resident_pages(file);	/* the final footprint */
	if (pages > peak)
		peak = pages;

	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	double mib = sysconf(_SC_PAGESIZE) / 1048576.0;
	FILE *out = fopen(report, "w");
	if (!out) {
		perror(report);
		return 125;
	}
	fprintf(out, "%d %.3f %.1f %.1f %lu\n", code, wall, (double)peak * mib,
		(double)pages * mib, samples);
	return fclose(out) != 0 ? 125 : 0;
}
