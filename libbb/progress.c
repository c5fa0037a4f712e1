/*
 * progress.c - the transfer layer's progress line and its pacer: one
 * printer for every applet that shows how a copy goes.
 */
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libbb.h"

/* A line is due at the interval, or a little early when the loop's
 * turns are slow: a line that waited for a slow turn would come late
 * (docs/design.md, "Progress lines"). */
bool line_due(struct line_pacer *pacer, uint64_t now)
{
	uint64_t turn = now - pacer->last_turn_ns;
	uint64_t early = pacer->slowest_before_ns;

	pacer->last_turn_ns = now;
	if (turn > pacer->slowest_ns)
		pacer->slowest_ns = turn;
	if (pacer->slowest_ns > early)
		early = pacer->slowest_ns;
	early = min_u64(early, pacer->interval_ns / 2);
	if (now + early < pacer->next_ns)
		return false;
	pacer->next_ns = now + pacer->interval_ns;
	pacer->slowest_before_ns = pacer->slowest_ns;
	pacer->slowest_ns = 0;
	return true;
}

/* The first line is due one interval after now. */
void line_pacer_start(struct line_pacer *pacer, uint64_t now,
		      uint64_t interval_ns)
{
	*pacer = (struct line_pacer){ .interval_ns = interval_ns,
		.next_ns = now + interval_ns, .last_turn_ns = now };
}

/* Write a new state of the line, and leave it open unless it ended. */
static void write_line(struct progress_line *line, const char *buf, size_t n,
		       bool ended)
{
	if (line->fd == STDERR_FILENO)
		bb_write_stderr(buf, n);
	else
		full_write(line->fd, buf, n);
	if (!ended)
		bb_leave_line_open(line->fd);
}

enum { SHOW_MAX = 1024 };

/* GNU dd's style: a carriage return, the text (one line), and spaces over
 * what the last line had beyond it, the same into a file or a terminal.
 * One write; a text too long for the buffer is cut. */
void progress_line_show(struct progress_line *line, const char *text,
			size_t len)
{
	char buf[SHOW_MAX + 2];
	size_t n;

	len = len < SHOW_MAX ? len : SHOW_MAX;
	buf[0] = '\r';
	memcpy(buf + 1, text, len);
	n = len + 1;
	/* GNU counts the text alone as the line's width. */
	if (bb_take_open_line() == line->fd)
		while (n <= line->width && n <= SHOW_MAX)
			buf[n++] = ' ';
	line->width = len;
	write_line(line, buf, n, false);
}

/* How much of a line of len bytes to show on line's fd: all of it, or
 * without its last tail bytes on a terminal too narrow for it (a line
 * that wraps can't be rewritten in place).  The width is asked each
 * time: a window may be resized. */
size_t progress_line_fit(const struct progress_line *line, size_t len,
			 size_t tail)
{
	struct winsize ws;

	if (ioctl(line->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col
	    && len >= ws.ws_col)
		return len - tail;
	return len;
}

/* A block of lines for progress_block_show on fd. */
void progress_block_init(struct progress_line *line, int fd)
{
	struct winsize ws;

	*line = (struct progress_line){ .fd = fd };
	/* isatty() as musl has it, through the ioctl() libbb links anyway */
	line->on_terminal = ioctl(fd, TIOCGWINSZ, &ws) == 0;
}

/* Text of one or more lines (no final newline): on a terminal it replaces
 * the last block in place, each line cleared to its end; elsewhere it is
 * written whole, with its newline.  One write; a text too long for the
 * buffer is cut. */
void progress_block_show(struct progress_line *line, const char *text,
			 size_t len)
{
	char buf[4 * SHOW_MAX + 16];   /* each byte may grow to four */
	size_t n = 0, i;
	unsigned lines = 1;

	len = len < SHOW_MAX ? len : SHOW_MAX;
	if (bb_take_open_line() == line->fd && line->lines > 1)
		n = bb_format(buf, sizeof(buf), "\033[%uA", line->lines - 1);
	if (line->on_terminal)
		buf[n++] = '\r';
	for (i = 0; i <= len; i++) {
		if ((i == len || text[i] == '\n') && line->on_terminal)
			n += bb_format(buf + n, sizeof(buf) - n, "\033[K");
		if (i == len)
			break;
		lines += text[i] == '\n';
		buf[n++] = text[i];
	}
	if (!line->on_terminal)
		buf[n++] = '\n';
	line->lines = lines;
	write_line(line, buf, n, !line->on_terminal);
}

/* "; P%, H:MM:SS left" into note (size bytes): done of total bytes
 * after elapsed_ns, the time left at the rate so far; "" while nothing
 * is done, past the total, or with a total beyond INT64_MAX (unknown).
 * (Below 2^63 the counts' signed conversions to double, the short
 * ones, hold.) */
void progress_estimate(char *note, size_t size, uint64_t done,
		       uint64_t total, uint64_t elapsed_ns)
{
	double percent, left;
	unsigned secs;

	note[0] = '\0';
	if (!done || done > total || total > INT64_MAX)
		return;
	/* done x 100 / total is exact where it is whole */
	percent = (double)(int64_t)done * 100 / (double)(int64_t)total;
	left = (double)(int64_t)elapsed_ns / SECOND_NS
		* (100 - percent) / percent + 0.5;
	secs = left < 1e9 ? (unsigned)left : 999999999;
	bb_format(note, size, "; %u%%, %u:%02u:%02u left", (unsigned)percent,
		  secs / 3600, secs / 60 % 60, secs % 60);
}

/* End the line if it is still open: what follows starts on a line of
 * its own. */
void progress_line_end(struct progress_line *line)
{
	int fd = bb_take_open_line();

	if (fd >= 0 && fd != line->fd)
		bb_leave_line_open(fd);
	else if (fd >= 0)
		full_write(fd, "\n", 1);
}
