/* pipe_size FD BYTES: make the pipe open on FD hold BYTES (F_SETPIPE_SZ),
 * so that a test can fill a fifo with more than 64 KiB before the
 * applet under test starts.  dd_zerocopy_faults.tests compiles it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: pipe_size FD BYTES\n");
		return 2;
	}
	if (fcntl(atoi(argv[1]), F_SETPIPE_SZ, atoi(argv[2])) < 0) {
		perror("F_SETPIPE_SZ");
		return 1;
	}
	return 0;
}
