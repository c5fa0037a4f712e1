/*
 * report.c - the summary dd prints at the end, on errors, on SIGUSR1
 * and SIGINT, and the status=progress line.  Each is built in memory and
 * written with one write(2), in GNU's exact format.
 */
#include <unistd.h>

#include "dd.h"

enum { SUMMARY_SIZE = 512 };

static int exit_status = EXIT_SUCCESS;

void note_failure(void)
{
	exit_status = EXIT_FAILURE;
}

int dd_exit_status(void)
{
	return exit_status;
}
enum { SECOND_NS = 1000000000 };

/* GNU leaves out the "(1.0 kB, 1.0 KiB)" part while a unit has no
 * prefix, i.e. while the number reads "N B". */
static bool lacks_prefix(const char *human)
{
	size_t len = 0;

	while (human[len])
		len++;
	return len >= 2 && human[len - 2] == ' ';
}

/*
 * "N bytes (X kB, Y KiB) copied, T s, R kB/s".  Progress lines show
 * whole seconds; the final summary shows %g seconds.
 */
static size_t format_transfer(char *buf, size_t size, const struct dd_run *run,
			      uint64_t now, bool progress)
{
	uint64_t bytes = run->tally.bytes_out;
	uint64_t elapsed = now > run->report.start_ns ? now - run->report.start_ns : 0;
	char si[HUMAN_BUF_SIZE], iec[HUMAN_BUF_SIZE], rate[HUMAN_BUF_SIZE];
	char seconds[HUMAN_BUF_SIZE];
	const char *rate_text = "Infinity B";

	human_readable(si, bytes, 1, 1, 0);
	human_readable(iec, bytes, 1, 1, 1);
	if (elapsed)
		rate_text = human_readable(rate, bytes, 1000000000, elapsed, 0);
	if (progress)
		bb_format(seconds, sizeof(seconds), "%llu",
			  (unsigned long long)((elapsed + 500000000) / 1000000000));
	else
		format_double_g(seconds, (double)elapsed / 1e9);

	if (lacks_prefix(si))
		return bb_format(buf, size, "%llu byte%s copied, %s s, %s/s",
				 (unsigned long long)bytes, bytes == 1 ? "" : "s",
				 seconds, rate_text);
	if (lacks_prefix(iec))
		return bb_format(buf, size, "%llu bytes (%s) copied, %s s, %s/s",
				 (unsigned long long)bytes, si, seconds, rate_text);
	return bb_format(buf, size, "%llu bytes (%s, %s) copied, %s s, %s/s",
			 (unsigned long long)bytes, si, iec, seconds, rate_text);
}

void report_start(struct dd_run *run)
{
	run->report.start_ns = monotonic_ns();
	line_pacer_start(&run->report.progress, run->report.start_ns, SECOND_NS);
}

void report_leave_out(struct dd_run *run, uint64_t since)
{
	uint64_t now = monotonic_ns();

	if (now > since) {
		run->report.start_ns += now - since;
		run->report.progress.next_ns += now - since;
		run->report.progress.last_turn_ns += now - since;
	}
}

/* Which bytes the statistics last showed (catch_up_progress asks). */
static void note_shown(struct dd_run *run)
{
	run->report.shown = true;
	run->report.shown_bytes = run->tally.bytes_out;
}

/* Append the summary's statistics line and its newline at buf + len, in
 * a buffer of SUMMARY_SIZE (cut short if it does not fit); returns the
 * new length. */
static size_t append_statistics(char *buf, size_t len, struct dd_run *run)
{
	if (len < SUMMARY_SIZE - 1)
		len += format_transfer(buf + len, SUMMARY_SIZE - len, run,
				       monotonic_ns(), false);
	if (len > SUMMARY_SIZE - 2)
		len = SUMMARY_SIZE - 2;
	buf[len++] = '\n';
	note_shown(run);
	return len;
}

void print_summary(struct dd_run *run)
{
	const struct dd_tally *st = &run->tally;
	char buf[SUMMARY_SIZE];
	size_t len = 0;

	if (run->opt->status == STATUS_NONE)
		return;
	/* A progress line is still open: end it first. */
	if (bb_stderr_end_line())
		buf[len++] = '\n';
	len += bb_format(buf + len, sizeof(buf) - len,
			 "%llu+%llu records in\n%llu+%llu records out\n",
			 (unsigned long long)st->in_full,
			 (unsigned long long)st->in_partial,
			 (unsigned long long)st->out_full,
			 (unsigned long long)st->out_partial);
	if (st->truncated_records)
		len += bb_format(buf + len, sizeof(buf) - len,
				 "%llu truncated record%s\n",
				 (unsigned long long)st->truncated_records,
				 st->truncated_records == 1 ? "" : "s");
	if (len > sizeof(buf) - 1)
		len = sizeof(buf) - 1;
	if (run->opt->status != STATUS_NOXFER)
		len = append_statistics(buf, len, run);
	bb_write_stderr(buf, len);
}

/* status=progress: about once a second, rewrite one line in place
 * (with a note after it, or NULL). */
static void print_progress(struct dd_run *run, uint64_t now, const char *note)
{
	char buf[SUMMARY_SIZE];
	size_t len;
	int text_len, width;

	buf[0] = '\r';
	len = 1 + format_transfer(buf + 1, sizeof(buf) - 1, run, now, true);
	if (note && len < sizeof(buf) - 1)
		len += bb_format(buf + len, sizeof(buf) - len, "%s", note);
	if (len > sizeof(buf) - 1)
		len = sizeof(buf) - 1;
	text_len = (int)len - 1;
	/* Blank out what is left of a longer previous line, if that line is
	 * still open (a message or a summary ends it).  Its length is its
	 * text's, without the blanks (GNU). */
	if (!bb_stderr_end_line())
		run->report.progress_len = 0;
	for (width = text_len; width < run->report.progress_len
	     && len < sizeof(buf); width++)
		buf[len++] = ' ';
	run->report.progress_len = text_len;
	note_shown(run);
	bb_write_stderr(buf, len);
	bb_stderr_leave_line_open();
}

void die_with_summary(struct dd_run *run)
{
	print_summary(run);
	exit(EXIT_FAILURE);
}

void report_seek_error(const struct io_end *end)
{
	bb_perror_msg("%s: cannot seek", quote_if_needed(end->name));
	note_failure();
}

void line_pacer_start(struct line_pacer *pacer, uint64_t now,
		      uint64_t interval_ns)
{
	pacer->interval_ns = interval_ns;
	pacer->next_ns = now + interval_ns;
	pacer->last_turn_ns = now;
	pacer->slowest_ns = pacer->slowest_before_ns = 0;
}

/*
 * A turn of a loop can block in one call for a good part of an interval
 * (a slow card's dirty throttling, or its read), and a line due during
 * it comes that much late.  So a line comes early when the next turn,
 * if as slow as the slowest of the last two intervals, would end past
 * the interval: no two lines more than an interval apart while turns
 * take less.  Never more than half an interval early, so that a quick
 * turn after a slow one (a read that waited on a pipe, then its end)
 * adds no line.  With quick turns, a line every interval.
 */
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

/* The first line after a second, as GNU's; then twice a second, so that
 * a turn that blocks on a slow card never leaves the line still for more
 * than a second (GNU's once a second always does, by a little). */
void maybe_print_progress(struct dd_run *run)
{
	uint64_t now = monotonic_ns();
	struct line_pacer *pacer = &run->report.progress;

	if (!line_due(pacer, now))
		return;
	print_progress(run, now, NULL);
	pacer->interval_ns = SECOND_NS / 2;
	pacer->next_ns = now + pacer->interval_ns;
}

void maybe_print_sync_progress(struct dd_run *run, uint64_t left)
{
	uint64_t now = monotonic_ns();
	char note[64], human[HUMAN_BUF_SIZE];
	struct line_pacer *pacer = &run->report.progress;

	/* Twice a second: a sync step that runs late still leaves the
	 * lines less than a second apart. */
	pacer->interval_ns = SECOND_NS / 2;
	pacer->next_ns = min_u64(pacer->next_ns, now + pacer->interval_ns);
	if (!line_due(pacer, now))
		return;
	human_readable(human, left, 1, 1, 0);
	bb_format(note, sizeof(note), "; syncing, %s left", human);
	print_progress(run, now, note);
}

/*
 * Before a final sync: when statistics were shown and bytes were written
 * since, GNU prints them once more in the summary's form (%g seconds, a
 * newline, no carriage return).  A progress line stays open, so the
 * summary still begins with a newline of its own.
 */
void catch_up_progress(struct dd_run *run)
{
	char buf[SUMMARY_SIZE];
	size_t len;

	if (!ENABLE_FEATURE_DD_PROGRESS || run->opt->status != STATUS_PROGRESS
	    || !run->report.shown
	    || run->report.shown_bytes >= run->tally.bytes_out)
		return;
	len = append_statistics(buf, 0, run);
	bb_write_stderr(buf, len);
}
