/*
 * rescue.c - the passes of a rescue, in GNU ddrescue's order:
 *   copying   big reads of the non-tried areas: forwards skipping ahead
 *             after each error (the skip doubles while errors follow
 *             each other), backwards leaving the rest of a block after
 *             its first error, then forwards without skipping; a failed
 *             read marks its cluster non-trimmed;
 *   trimming  sector reads in from both edges of each non-trimmed block
 *             up to its first bad sector; the middle becomes non-scraped;
 *   scraping  every non-scraped sector once;
 *   retrying  the bad sectors, -r times, changing direction each pass.
 * So a sector is read at most once while copying and once after.  Only
 * finished areas are written to the output, and no finished area is
 * read again.  The mapfile is saved every 30 seconds, at the end and
 * when a signal stops the rescue; progress goes to stdout each second.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

static const uint64_t SAVE_INTERVAL_NS = 30000000000u, PROGRESS_NS = 1000000000u;

volatile int rescue_stop_signal;

/* Save the mapfile, if there is one; a failure is reported and the
 * rescue goes on. */
static void save(struct rescue *r)
{
	struct mapfile_status st = { r->command_line, r->phase, r->cur_pos,
				     r->cur_status, r->cur_pass };
	char text[64];

	if (!r->map_name)
		return;
	if (r->cur_status == ST_NONTRIED || r->cur_status == ST_BAD) {
		bb_format(text, sizeof(text), "%s Pass %d", r->phase, r->cur_pass);
		st.phase = text;
	}
	if (mapfile_save(r->map_name, &r->map, &st))
		bb_perror_name("error saving mapfile %s", r->map_name);
}

static void progress(struct rescue *r, bool last)
{
	char res[HUMAN_BUF_SIZE], err[HUMAN_BUF_SIZE], rate[HUMAN_BUF_SIZE];
	uint64_t now = monotonic_ns(), errsize = 0;
	size_t areas = 0, n;
	struct winsize ws;
	/* isatty() as musl has it, through the ioctl() libbb links anyway */
	bool tty = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0;
	const char *bad = "*/-";

	if (r->quiet)
		return;
	for (; *bad; bad++) {
		errsize += map_total(&r->map, r->ipos, r->iend, *bad, &n);
		areas += n;
	}
	human_readable(res, map_total(&r->map, r->ipos, r->iend, ST_FINISHED, &n), 1, 1, false);
	human_readable(err, errsize, 1, 1, false);
	human_readable(rate, r->read_bytes - r->rate_bytes, 1000000000,
		       now > r->rate_ns ? now - r->rate_ns : 1, false);
	r->rate_bytes = r->read_bytes;
	r->rate_ns = now;
	bb_dprintf(STDOUT_FILENO,
		   "%srescued: %s, bad areas: %zu, errsize: %s, rate: %s/s, %s pass %d%s",
		   tty ? "\r" : "", res, areas, err, rate,
		   r->phase, r->cur_pass,
		   tty && !last ? "\033[K" : "\n");
	r->line_open = tty && !last;
}

void rescue_end_line(struct rescue *r)
{
	if (r->line_open)
		full_write_str(STDOUT_FILENO, "\n");
	r->line_open = false;
}

/* After each read: stop for a signal, show progress, save now and then. */
static enum rescue_stop tick(struct rescue *r)
{
	uint64_t now = monotonic_ns();

	if (rescue_stop_signal)
		return RESCUE_SIGNALED;
	if (now - r->last_progress_ns >= PROGRESS_NS) {
		r->last_progress_ns = now;
		progress(r, false);
	}
	if (now - r->last_save_ns >= SAVE_INTERVAL_NS) {
		r->last_save_ns = now;
		save(r);
	}
	return RESCUE_GO_ON;
}

static enum rescue_stop set(struct rescue *r, uint64_t a, uint64_t b, int st)
{
	return map_set(&r->map, a, b, st) ? RESCUE_MAP_FULL : RESCUE_GO_ON;
}

/*
 * Read [pos, pos + len) and write what was read; *done is the bytes
 * finished.  A short read counts as an error at the first sector it did
 * not return (its partial sector is not kept), as does a read past the
 * end of a device that shrank.
 */
static enum rescue_stop read_block(struct rescue *r, uint64_t pos, uint64_t len,
				   uint64_t *done)
{
	enum rescue_stop stop;
	ssize_t n, w;
	uint64_t got = 0;

	r->cur_pos = pos;
	do
		n = pread(r->in_fd, r->buf, len, (off_t)pos);
	while (n < 0 && errno == EINTR && !rescue_stop_signal);
	if (n > 0) {
		got = (uint64_t)n;
		if (got < len && pos + got < r->iend)
			got -= got % r->sector;
		r->read_bytes += got;
	}
	while (got && (w = pwrite(r->out_fd, r->buf, got,
				  (off_t)(pos - r->ipos + r->opos))) != (ssize_t)got) {
		if (w > 0 || (w < 0 && errno != EINTR)) {
			r->error = w >= 0 ? ENOSPC : errno;
			return RESCUE_WRITE_FAILED;
		}
	}
	*done = got;
	if (got && (stop = set(r, pos, pos + got, ST_FINISHED)) != RESCUE_GO_ON)
		return stop;
	return tick(r);
}

/* The next block of status st in the rescue domain, forwards from pos
 * or backwards from it. */
static bool next_block(const struct rescue *r, bool backwards, uint64_t pos, int st,
		       uint64_t *a, uint64_t *b)
{
	return backwards ? map_search(&r->map, r->ipos, pos, st, true, a, b)
			 : map_search(&r->map, pos, r->iend, st, false, a, b);
}

/* Narrow [*a, *b) to its first read of unit bytes (a sector, a
 * cluster), forwards or backwards: reads end on unit boundaries of the
 * input, as GNU's do, so that a bad area is delimited the same way. */
static void first_piece(bool backwards, uint64_t unit, uint64_t *a, uint64_t *b)
{
	if (backwards) {
		uint64_t s = (*b - 1) - (*b - 1) % unit;

		if (s > *a)
			*a = s;
	} else {
		uint64_t e = *a - *a % unit + unit;

		if (e < *b)
			*b = e;
	}
}

/* One copying pass.  skipping: jump ahead after an error, the jump
 * doubling while errors follow; backwards: read blocks from their end,
 * leaving the rest of a block after its first error. */
static enum rescue_stop copy_pass(struct rescue *r, bool backwards, bool skipping)
{
	uint64_t skip_min = r->iend / 100000 > 65536 ? r->iend / 100000 : 65536;
	uint64_t skip_max = r->iend / 100 > skip_min ? r->iend / 100 : skip_min;
	uint64_t skip, pos = backwards ? r->iend : r->ipos, a, b;
	enum rescue_stop stop;

	/* Whole sectors, so that no read takes part of a sector that
	 * another read already tried. */
	skip_min -= skip_min % r->sector;
	skip_max -= skip_max % r->sector;
	skip = skip_min;

	while (next_block(r, backwards, pos, ST_NONTRIED, &a, &b)) {
		uint64_t done;

		first_piece(backwards, r->cluster, &a, &b);
		if ((stop = read_block(r, a, b - a, &done)) != RESCUE_GO_ON)
			return stop;
		if (done == b - a) {
			pos = backwards ? a : b;
			skip = skip_min;
			continue;
		}
		if ((stop = set(r, a + done, b, ST_NONTRIMMED)) != RESCUE_GO_ON)
			return stop;
		if (backwards) {
			uint64_t s, e;

			pos = a;
			/* The rest of this block waits for the sweep. */
			if (skipping && map_search(&r->map, r->ipos, a, ST_NONTRIED, true, &s, &e)
			    && e == a)
				pos = s;
			continue;
		}
		pos = b;
		if (skipping) {
			pos += skip;
			skip = skip * 2 < skip_max ? skip * 2 : skip_max;
		}
	}
	return RESCUE_GO_ON;
}

/* Read [a, b), a sector or less; *ok false, with it marked bad, if it
 * failed. */
static enum rescue_stop read_or_mark_bad(struct rescue *r, uint64_t a, uint64_t b,
					 bool *ok)
{
	enum rescue_stop stop;
	uint64_t done;

	if ((stop = read_block(r, a, b - a, &done)) != RESCUE_GO_ON)
		return stop;
	*ok = done == b - a;
	return *ok ? RESCUE_GO_ON : set(r, a, b, ST_BAD);
}

/* Read the sectors of [*a, *b) in from one edge up to the first that
 * fails; the range loses what was read, the bad sector included. */
static enum rescue_stop trim_edge(struct rescue *r, bool backwards, uint64_t *a,
				  uint64_t *b)
{
	enum rescue_stop stop;
	bool ok = true;

	while (*a < *b && ok) {
		uint64_t s = *a, e = *b;

		first_piece(backwards, r->sector, &s, &e);
		if ((stop = read_or_mark_bad(r, s, e, &ok)) != RESCUE_GO_ON)
			return stop;
		if (backwards)
			*b = s;
		else
			*a = e;
	}
	return RESCUE_GO_ON;
}

static bool is_bad(const struct rescue *r, uint64_t pos)
{
	return map_status_at(&r->map, pos) == ST_BAD;
}

/* Each non-trimmed block is read in from both edges, except an edge
 * next to a bad sector (a - 1 at 0 is past the map, never bad); what
 * is left in the middle is for scraping. */
static enum rescue_stop trim(struct rescue *r)
{
	enum rescue_stop stop = RESCUE_GO_ON;
	uint64_t pos = r->ipos, a, b;

	while (stop == RESCUE_GO_ON &&
	       map_search(&r->map, pos, r->iend, ST_NONTRIMMED, false, &a, &b)) {
		pos = b;
		if (!is_bad(r, a - 1) && (stop = trim_edge(r, false, &a, &b)) != RESCUE_GO_ON)
			break;
		if (!is_bad(r, pos) && (stop = trim_edge(r, true, &a, &b)) != RESCUE_GO_ON)
			break;
		stop = set(r, a, b, ST_NONSCRAPED);
	}
	return stop;
}

/* Read every sector of the blocks of status st once; backwards for the
 * even retry passes. */
static enum rescue_stop sector_pass(struct rescue *r, int st, bool backwards)
{
	enum rescue_stop stop = RESCUE_GO_ON;
	uint64_t pos = backwards ? r->iend : r->ipos, a, b;
	bool ok;

	while (stop == RESCUE_GO_ON && next_block(r, backwards, pos, st, &a, &b)) {
		first_piece(backwards, r->sector, &a, &b);
		stop = read_or_mark_bad(r, a, b, &ok);
		pos = backwards ? a : b;
	}
	return stop;
}

/* Each pass begins with a save: a kill -9 loses at most one pass, or
 * 30 seconds, of work. */
static void begin(struct rescue *r, int status, int pass, const char *what)
{
	r->cur_status = status;
	r->cur_pass = pass;
	r->phase = what;
	save(r);
}

/* The phases, from the copying pass the status line names. */
static enum rescue_stop phases(struct rescue *r)
{
	enum rescue_stop stop = RESCUE_GO_ON;
	int pass = r->cur_status == ST_NONTRIED ? r->cur_pass : 1;

	/* Pass 1 forwards and 2 backwards, skipping after errors; 3
	 * forwards without. */
	if (pass > 3)
		pass = 3;
	for (; pass <= 3 && stop == RESCUE_GO_ON; pass++) {
		begin(r, ST_NONTRIED, pass, "Copying non-tried blocks...");
		stop = copy_pass(r, pass == 2, pass < 3);
	}
	if (stop == RESCUE_GO_ON && !r->no_trim) {
		begin(r, ST_NONTRIMMED, 1, "Trimming failed blocks...");
		stop = trim(r);
	}
	if (stop == RESCUE_GO_ON && !r->no_scrape) {
		begin(r, ST_NONSCRAPED, 1, "Scraping failed blocks...");
		stop = sector_pass(r, ST_NONSCRAPED, false);
	}
	for (pass = 1; stop == RESCUE_GO_ON && pass <= r->retry_passes; pass++) {
		size_t blocks;
		/* -r -1 retries until no bad sector is left, then stops */
		if (map_total(&r->map, r->ipos, r->iend, ST_BAD, &blocks) == 0)
			break;
		begin(r, ST_BAD, pass, "Retrying bad sectors...");
		stop = sector_pass(r, ST_BAD, !(pass & 1));
	}
	return stop;
}

enum rescue_stop rescue_run(struct rescue *r)
{
	enum rescue_stop stop;

	r->rate_ns = r->last_save_ns = r->last_progress_ns = monotonic_ns();
	stop = phases(r);
	if (stop != RESCUE_GO_ON) {
		save(r);
		return stop;
	}
	r->cur_pos = r->iend;
	begin(r, ST_FINISHED, 1, "Finished");
	rescue_end_line(r);
	progress(r, true);
	return RESCUE_FINISHED;
}
