/*
 * unit_child.h - run code that may exit (the x* and *_and_die paths) in
 * a child, and get back what it wrote to stderr and how it ended.  For
 * the tests that check error messages and exit codes (test_getopt,
 * test_parse_size).
 */
#ifndef ZEROBOX_UNIT_CHILD_H
#define ZEROBOX_UNIT_CHILD_H

#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run fn(arg) in a child whose stderr is a pipe; store what came
 * through it in out (NUL-terminated, at most size - 1 bytes) and, with
 * len, its length in *len.  Returns the child's exit status, 128 if it was
 * killed, -1 if there was no pipe. */
static int unit_run_child(void (*fn)(const void *), const void *arg,
			  char *out, size_t size, size_t *len)
{
	int fds[2], status;
	ssize_t n;
	size_t got = 0;
	pid_t pid;

	if (pipe(fds) != 0)
		return -1;
	fflush(stdout);   /* or the child prints our buffered lines again */
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		fn(arg);
		_exit(0);
	}
	close(fds[1]);
	while (got + 1 < size && (n = read(fds[0], out + got, size - got - 1)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	if (len)
		*len = got;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

#endif
