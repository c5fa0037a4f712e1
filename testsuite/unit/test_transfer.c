/*
 * test_transfer.c - the transfer layer: the signals and the one place
 * that acts on them (the client's hooks, in order, a stop that sticks),
 * the EINTR policy, the one write loop (a write cut short by a signal
 * goes on, a stopping signal ends it, pwrite at an offset, ENOSPC), and
 * the progress line in both styles, with a line open on another
 * descriptor ended by a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "libbb.h"
#include "unit.h"
#include "unit_child.h"

static int reports, interrupts, last_sig;

static void on_report(void *client)
{
	(void)client;
	reports++;
}

static void on_interrupt(void *client, int sig)
{
	(void)client;
	interrupts++;
	last_sig = sig;
}

static struct transfer fresh_transfer(void)
{
	reports = interrupts = last_sig = 0;
	return (struct transfer){ .on_info = on_report, .on_interrupt = on_interrupt };
}

static void test_signals(void)
{
	struct transfer t = fresh_transfer();

	unit_begin("transfer signals: each SIGUSR1 one report, an interrupt stops for good");
	transfer_catch_signals(CATCH_INTERRUPT | CATCH_TERMINATE | CATCH_INFO);
	raise(SIGUSR1);
	raise(SIGUSR1);
	raise(SIGUSR1);
	CHECK(!transfer_act_on_signals(&t));
	CHECK(reports == 3 && interrupts == 0);
	CHECK(!transfer_act_on_signals(&t) && reports == 3);
	raise(SIGTERM);
	CHECK(transfer_act_on_signals(&t));
	CHECK(interrupts == 1 && last_sig == SIGTERM && t.stopped_by == SIGTERM);
	/* Stopped: nothing more is answered, EINTR is not retried. */
	transfer_catch_signals(CATCH_INFO);
	raise(SIGUSR1);
	CHECK(transfer_act_on_signals(&t) && reports == 3);
	errno = EINTR;
	CHECK(!transfer_retry(&t) && errno == EINTR);
	unit_end();

	unit_begin("transfer_retry: EINTR again once signals are answered, nothing else");
	t = fresh_transfer();
	errno = EINTR;
	CHECK(transfer_retry(&t));
	CHECK(reports == 1);          /* the SIGUSR1 left from above */
	errno = EAGAIN;
	CHECK(!transfer_retry(&t));
	errno = EINTR;
	CHECK(transfer_retry(NULL));
	errno = EIO;
	CHECK(!transfer_retry(NULL));
	unit_end();
}

/* A child that reads the pipe slowly, while the parent's write blocks,
 * and sends the parent `sig` before it starts reading. */
static pid_t slow_reader(int p[2], int sig)
{
	pid_t parent = getpid(), pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char sink[4096];
		struct timespec ts = { 0, 50000000 };

		close(p[1]);
		nanosleep(&ts, NULL);
		kill(parent, sig);
		nanosleep(&ts, NULL);
		while (read(p[0], sink, sizeof(sink)) > 0)
			continue;
		_exit(0);
	}
	close(p[0]);
	return pid;
}

/* transfer_write of 1 MiB into a pipe whose reader sends sig while the
 * write blocks: how much was written; errno as it left. */
static size_t write_while_signalled(struct transfer *t, int sig)
{
	static unsigned char big[1 << 20];
	int p[2], status, err;
	size_t written;
	pid_t pid;

	*t = fresh_transfer();
	if (pipe(p) != 0)
		unit_fail("pipe");
	pid = slow_reader(p, sig);
	errno = 0;
	written = transfer_write(t, p[1], big, sizeof(big), -1);
	err = errno;
	close(p[1]);
	waitpid(pid, &status, 0);
	errno = err;
	return written;
}

static void test_write_loop(void)
{
	char tmpl[] = "/tmp/test_transfer.XXXXXX", got[16];
	struct transfer t;
	int fd;

	unit_begin("transfer_write: a write cut short by SIGUSR1 goes on to the end");
	transfer_catch_signals(CATCH_INFO | CATCH_TERMINATE);
	CHECK(write_while_signalled(&t, SIGUSR1) == 1 << 20);
	CHECK(reports == 1);
	unit_end();

	unit_begin("transfer_write: a stopping signal ends a blocked write, EINTR");
	CHECK(write_while_signalled(&t, SIGTERM) < 1 << 20);
	CHECK(errno == EINTR && t.stopped_by == SIGTERM && interrupts == 1);
	unit_end();

	unit_begin("transfer_write: at an offset, the file offset untouched; ENOSPC");
	fd = mkstemp(tmpl);
	CHECK(fd >= 0);
	CHECK(transfer_write(NULL, fd, "abcd", 4, 10) == 4);
	CHECK(lseek(fd, 0, SEEK_CUR) == 0);
	CHECK(pread(fd, got, 4, 10) == 4 && memcmp(got, "abcd", 4) == 0);
	close(fd);
	unlink(tmpl);
	fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		errno = 0;
		CHECK(transfer_write(NULL, fd, "x", 1, -1) == 0 && errno == ENOSPC);
		CHECK(full_write(fd, "x", 1) == -1);
		close(fd);
	}
	unit_end();
}

static void padded_lines(const void *arg)
{
	struct progress_line line;

	(void)arg;
	line = (struct progress_line){ .fd = STDERR_FILENO };
	progress_line_show(&line, "12345", 5);
	progress_line_show(&line, "123", 3);
	progress_line_show(&line, "abcdef", 6);
	bb_error_msg("msg");
	progress_line_show(&line, "x", 1);
	progress_line_end(&line);
	progress_line_end(&line);
}

/* A terminal-style line on a descriptor that is no terminal: stderr is
 * a pipe here, the line goes to it as fd 2 is dup'ed to fd 5. */
static void terminal_lines(const void *arg)
{
	struct progress_line line;

	(void)arg;
	dup2(STDERR_FILENO, 5);
	progress_block_init(&line, 5);
	progress_block_show(&line, "a\nb", 3);
	progress_block_show(&line, "c", 1);
	progress_line_end(&line);
}

/* A padded line on another descriptor: a message ends it there. */
static void line_elsewhere(const void *arg)
{
	struct progress_line line;

	(void)arg;
	dup2(STDERR_FILENO, 5);
	line = (struct progress_line){ .fd = 5 };
	progress_line_show(&line, "50%", 3);
	bb_error_msg("gone");
}

/* On a terminal (a pseudo-terminal's slave): rewritten in place. */
static void test_on_terminal(void)
{
	static const char want[] = "\ra\033[K\nb\033[K\033[1A\rc\033[K\n";
	struct progress_line line;
	char out[256];
	size_t got;
	ssize_t n;
	int master = posix_openpt(O_RDWR | O_NOCTTY), slave;

	unit_begin("progress line, terminal style, on a terminal: in place, cleared");
	if (master < 0 || grantpt(master) || unlockpt(master)
	    || (slave = open(ptsname(master), O_RDWR | O_NOCTTY)) < 0) {
		unit_end();     /* no pseudo-terminals here: nothing to check */
		return;
	}
	{
		struct termios raw;

		tcgetattr(slave, &raw);
		cfmakeraw(&raw);
		tcsetattr(slave, TCSANOW, &raw);
	}
	progress_block_init(&line, slave);
	CHECK(line.on_terminal);
	progress_block_show(&line, "a\nb", 3);
	progress_block_show(&line, "c", 1);
	progress_line_end(&line);
	/* A terminal may hand the bytes over in more than one read. */
	got = 0;
	while (got < strlen(want) && (n = read(master, out + got,
					      sizeof(out) - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	CHECK_STR(out, want);
	close(slave);
	close(master);
	unit_end();
}

static void test_progress_line(void)
{
	char out[512];

	unit_begin("progress line, GNU dd's style: CR, padding, ended once by a message");
	applet_name = "t";
	unit_run_child(padded_lines, NULL, out, sizeof(out), NULL);
	CHECK_STR(out, "\r12345\r123  \rabcdef\nt: msg\n\rx\n");
	unit_end();

	unit_begin("progress line, terminal style, not a terminal: whole lines");
	unit_run_child(terminal_lines, NULL, out, sizeof(out), NULL);
	CHECK_STR(out, "a\nb\nc\n");
	unit_end();

	unit_begin("progress line open on another descriptor: a message ends it there");
	unit_run_child(line_elsewhere, NULL, out, sizeof(out), NULL);
	CHECK_STR(out, "\r50%\nt: gone\n");
	unit_end();
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_signals();
	test_write_loop();
	test_progress_line();
	test_on_terminal();
	return unit_exit_status();
}
