/*
 * progress.c - the transfer layer's progress line and its pacer: one
 * printer for every applet that shows how a copy goes.
 */
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

/* A line on fd, rewritten in the style given; its pacer is the
 * caller's to start. */
void progress_line_init(struct progress_line *line, int fd,
			enum progress_style style)
{
	struct winsize ws;

	*line = (struct progress_line){ .fd = fd, .style = style };
	/* isatty() as musl has it, through the ioctl() libbb links anyway */
	line->on_terminal = style == PROGRESS_TERMINAL
		&& ioctl(fd, TIOCGWINSZ, &ws) == 0;
}

enum { SHOW_MAX = 1024 };

/* Replace what the line shows with text (one line, or several separated
 * by newlines, with no final newline), in one write.  A text too long
 * for the line's buffer is cut. */
void progress_line_show(struct progress_line *line, const char *text,
			size_t len)
{
	char buf[4 * SHOW_MAX + 64];   /* each byte may grow to four */
	size_t n = 0, i, width;
	bool was_open = bb_take_open_line() == line->fd;
	unsigned lines = 1;

	len = len < SHOW_MAX ? len : SHOW_MAX;
	if (was_open && line->on_terminal && line->lines > 1)
		n = bb_format(buf, sizeof(buf), "\033[%uA", line->lines - 1);
	if (line->style == PROGRESS_PADDED || line->on_terminal)
		buf[n++] = '\r';
	for (i = 0; i < len; i++) {
		if (text[i] == '\n') {
			lines++;
			if (line->on_terminal) {
				buf[n++] = '\033';
				buf[n++] = '[';
				buf[n++] = 'K';
			}
		}
		buf[n++] = text[i];
	}
	if (line->style == PROGRESS_PADDED) {
		/* GNU counts the text alone as the line's width. */
		for (width = len; was_open && width < line->width; width++)
			buf[n++] = ' ';
		line->width = len;
	}
	line->lines = lines;
	if (line->on_terminal) {
		buf[n++] = '\033';
		buf[n++] = '[';
		buf[n++] = 'K';
	} else if (line->style == PROGRESS_TERMINAL) {
		buf[n++] = '\n';
	}
	if (line->fd == STDERR_FILENO)
		bb_write_stderr(buf, n);
	else
		full_write(line->fd, buf, n);
	if (line->style == PROGRESS_PADDED || line->on_terminal)
		bb_leave_line_open(line->fd);
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
