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

/* A copy of the caller's: its fields are then addressed directly. */
static struct rescue r;
static const char *phase;
static int cur_status = ST_NONTRIED, cur_pass = 1;
static uint64_t cur_pos, read_bytes, last_save_ns, last_progress_ns;
static uint64_t rate_bytes, rate_ns;
static bool line_open;

static void save(void)
{
	struct mapfile_status st = { r.command_line, phase, cur_pos,
				     cur_status, cur_pass };
	char text[64];

	if (!r.map_name)
		return;
	if (cur_status == ST_NONTRIED || cur_status == ST_BAD) {
		bb_format(text, sizeof(text), "%s Pass %d", phase, cur_pass);
		st.phase = text;
	}
	if (mapfile_save(r.map_name, &st))
		bb_perror_name("error saving mapfile %s", r.map_name);
}

static void progress(bool last)
{
	char res[HUMAN_BUF_SIZE], err[HUMAN_BUF_SIZE], rate[HUMAN_BUF_SIZE];
	uint64_t now = monotonic_ns(), errsize = 0;
	size_t areas = 0, n;
	struct winsize ws;
	/* isatty() as musl has it, through the ioctl() libbb links anyway */
	bool tty = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0;
	const char *bad = "*/-";

	if (r.quiet)
		return;
	for (; *bad; bad++) {
		errsize += map_total(r.ipos, r.iend, *bad, &n);
		areas += n;
	}
	human_readable(res, map_total(r.ipos, r.iend, ST_FINISHED, &n), 1, 1, false);
	human_readable(err, errsize, 1, 1, false);
	human_readable(rate, read_bytes - rate_bytes, 1000000000,
		       now > rate_ns ? now - rate_ns : 1, false);
	rate_bytes = read_bytes;
	rate_ns = now;
	bb_dprintf(STDOUT_FILENO,
		   "%srescued: %s, bad areas: %zu, errsize: %s, rate: %s/s, %s pass %d%s",
		   tty ? "\r" : "", res, areas, err, rate,
		   phase, cur_pass,
		   tty && !last ? "\033[K" : "\n");
	line_open = tty && !last;
}

/* Before a message that ends the rescue: save, and end the progress
 * line so that the message starts on its own. */
static void save_ending_line(void)
{
	save();
	if (line_open)
		full_write_str(STDOUT_FILENO, "\n");
}

/* After each read: act on a signal, show progress, save now and then. */
static void tick(void)
{
	uint64_t now = monotonic_ns();

	if (rescue_stop_signal) {
		int sig = rescue_stop_signal;

		save_ending_line();
		if (!r.quiet)
			bb_error_msg("interrupted by signal %d", sig);
		signal(sig, SIG_DFL);
		raise(sig);
		_Exit(128 + sig);
	}
	if (now - last_progress_ns >= PROGRESS_NS) {
		last_progress_ns = now;
		progress(false);
	}
	if (now - last_save_ns >= SAVE_INTERVAL_NS) {
		last_save_ns = now;
		save();
	}
}

BB_NORETURN static void die_writing(void)
{
	int e = errno;

	save_ending_line();
	bb_errno_msg_and_die(e, "error writing %s", quote_always(r.out_name));
}

static void set(uint64_t a, uint64_t b, int st)
{
	if (map_set(a, b, st)) {
		save();
		bb_error_msg_and_die("too many blocks in the map; resume with "
				     "the mapfile saved");
	}
}

/*
 * Read [pos, pos + len) and write what was read; returns the bytes
 * finished.  A short read counts as an error at the first sector it did
 * not return (its partial sector is not kept), as does a read past the
 * end of a device that shrank.
 */
static uint64_t read_block(uint64_t pos, uint64_t len)
{
	ssize_t n, w;
	uint64_t done = 0;

	cur_pos = pos;
	do
		n = pread(r.in_fd, r.buf, len, (off_t)pos);
	while (n < 0 && errno == EINTR && !rescue_stop_signal);
	if (n > 0) {
		done = (uint64_t)n;
		if (done < len && pos + done < r.iend)
			done -= done % r.sector;
		read_bytes += done;
	}
	while (done && (w = pwrite(r.out_fd, r.buf, done,
				   (off_t)(pos - r.ipos + r.opos))) != (ssize_t)done) {
		if (w > 0 || (w < 0 && errno != EINTR)) {
			if (w >= 0)
				errno = ENOSPC;
			die_writing();
		}
	}
	if (done)
		set(pos, pos + done, ST_FINISHED);
	tick();
	return done;
}

/* The next block of status st in the rescue domain, forwards from pos
 * or backwards from it. */
static bool next_block(bool backwards, uint64_t pos, int st, uint64_t *a, uint64_t *b)
{
	return backwards ? map_search(r.ipos, pos, st, true, a, b)
			 : map_search(pos, r.iend, st, false, a, b);
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
static void copy_pass(bool backwards, bool skipping)
{
	uint64_t skip_min = r.iend / 100000 > 65536 ? r.iend / 100000 : 65536;
	uint64_t skip_max = r.iend / 100 > skip_min ? r.iend / 100 : skip_min;
	uint64_t skip, pos = backwards ? r.iend : r.ipos, a, b;

	/* Whole sectors, so that no read takes part of a sector that
	 * another read already tried. */
	skip_min -= skip_min % r.sector;
	skip_max -= skip_max % r.sector;
	skip = skip_min;

	while (next_block(backwards, pos, ST_NONTRIED, &a, &b)) {
		uint64_t done;

		first_piece(backwards, r.cluster, &a, &b);
		done = read_block(a, b - a);
		if (done == b - a) {
			pos = backwards ? a : b;
			skip = skip_min;
			continue;
		}
		set(a + done, b, ST_NONTRIMMED);
		if (backwards) {
			uint64_t s, e;

			pos = a;
			/* The rest of this block waits for the sweep. */
			if (skipping && map_search(r.ipos, a, ST_NONTRIED, true, &s, &e) && e == a)
				pos = s;
			continue;
		}
		pos = b;
		if (skipping) {
			pos += skip;
			skip = skip * 2 < skip_max ? skip * 2 : skip_max;
		}
	}
}

static bool is_bad(uint64_t pos)
{
	return map_status_at(pos) == ST_BAD;
}

/* Read [a, b), a sector or less; false, with it marked bad, if it failed. */
static bool read_or_mark_bad(uint64_t a, uint64_t b)
{
	if (read_block(a, b - a) == b - a)
		return true;
	set(a, b, ST_BAD);
	return false;
}

/* Read the sectors of [*a, *b) in from one edge up to the first that
 * fails; the range loses what was read, the bad sector included. */
static void trim_edge(bool backwards, uint64_t *a, uint64_t *b)
{
	while (*a < *b) {
		uint64_t s = *a, e = *b;
		bool ok;

		first_piece(backwards, r.sector, &s, &e);
		ok = read_or_mark_bad(s, e);
		if (backwards)
			*b = s;
		else
			*a = e;
		if (!ok)
			break;
	}
}

/* Each non-trimmed block is read in from both edges, except an edge
 * next to a bad sector (a - 1 at 0 is past the map, never bad); what
 * is left in the middle is for scraping. */
static void trim(void)
{
	uint64_t pos = r.ipos, a, b;

	while (map_search(pos, r.iend, ST_NONTRIMMED, false, &a, &b)) {
		pos = b;
		if (!is_bad(a - 1))
			trim_edge(false, &a, &b);
		if (!is_bad(pos))
			trim_edge(true, &a, &b);
		set(a, b, ST_NONSCRAPED);
	}
}

/* Read every sector of the blocks of status st once; backwards for the
 * even retry passes. */
static void sector_pass(int st, bool backwards)
{
	uint64_t pos = backwards ? r.iend : r.ipos, a, b;

	while (next_block(backwards, pos, st, &a, &b)) {
		first_piece(backwards, r.sector, &a, &b);
		read_or_mark_bad(a, b);
		pos = backwards ? a : b;
	}
}

/* Each pass begins with a save: a kill -9 loses at most one pass, or
 * 30 seconds, of work.  (Called from five places: not inlined, which
 * would repeat its three stores in each.) */
__attribute__((noinline)) static void begin(int status, int pass, const char *what)
{
	cur_status = status;
	cur_pass = pass;
	phase = what;
	save();
}

int rescue_run(const struct rescue *rescue)
{
	int pass;

	r = *rescue;
	rate_ns = last_save_ns = last_progress_ns = monotonic_ns();
	/* Pass 1 forwards and 2 backwards, skipping after errors; 3
	 * forwards without.  A resumed rescue goes on from the copying
	 * pass it was in (cur_pass, 1 unless rescue_resume_at said). */
	for (pass = cur_pass; pass <= 3; pass++) {
		begin(ST_NONTRIED, pass, "Copying non-tried blocks...");
		copy_pass(pass == 2, pass < 3);
	}
	if (!r.no_trim) {
		begin(ST_NONTRIMMED, 1, "Trimming failed blocks...");
		trim();
	}
	if (!r.no_scrape) {
		begin(ST_NONSCRAPED, 1, "Scraping failed blocks...");
		sector_pass(ST_NONSCRAPED, false);
	}
	for (pass = 1; pass <= r.retry_passes; pass++) {
		size_t blocks;
		/* -r -1 retries until no bad sector is left, then stops */
		if (map_total(r.ipos, r.iend, ST_BAD, &blocks) == 0)
			break;
		begin(ST_BAD, pass, "Retrying bad sectors...");
		sector_pass(ST_BAD, !(pass & 1));
	}
	cur_pos = r.iend;
	begin(ST_FINISHED, 1, "Finished");
	if (line_open)
		full_write_str(STDOUT_FILENO, "\n");
	progress(true);
	return 0;
}

void rescue_resume_at(int status, int pass)
{
	if (status == ST_NONTRIED && pass > 1)
		cur_pass = pass > 3 ? 3 : pass;
}
