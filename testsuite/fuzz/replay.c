/*
 * replay.c - the unit-test face of a fuzz harness: run every committed
 * input of testsuite/fuzz/corpus/NAME (seeds) and testsuite/fuzz/crashes/NAME
 * (inputs that once crashed; each is a regression test) through
 * LLVMFuzzerTestOneInput, and print one PASS line per directory.  A
 * crash or failed invariant aborts the binary, which the unit runner
 * counts as a failure (the last "input:" line names the file).
 *
 * FUZZ_DIR and FUZZ_NAME come from the Makefile; a directory given on the
 * command line is replayed instead (for reproducing a new crash).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	static uint8_t buf[1 << 20];
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	printf("input: %s\n", path);
	fflush(stdout);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

static int run_dir(const char *dir, const char *what)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	int n = 0;

	if (!d) {
		printf("SKIP: fuzz %s %s (no %s)\n", FUZZ_NAME, what, dir);
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (run_file(path) == 0)
			n++;
	}
	closedir(d);
	printf("PASS: fuzz %s %s (%d inputs)\n", FUZZ_NAME, what, n);
	return n;
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			if (run_file(argv[i]) != 0)
				run_dir(argv[i], "inputs");
		return 0;
	}
	run_dir(FUZZ_DIR "/corpus/" FUZZ_NAME, "seeds");
	run_dir(FUZZ_DIR "/crashes/" FUZZ_NAME, "regressions");
	return 0;
}
