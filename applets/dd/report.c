/* report.c - the summary, the status=progress line and the exit status,
 * in GNU's format; each line is written with one write(2). */
#include "dd.h"

/* Every field of a line is bounded: LINE_SIZE holds the longest. */
enum { LINE_SIZE = 512, SECOND_NS = 1000000000 };

static struct {
	int exit_status;                 /* EXIT_SUCCESS until note_failure */
	uint64_t start_ns;               /* monotonic start of the copy */
	struct line_pacer progress;
	size_t progress_len;             /* the open progress line's width */
	uint64_t shown_bytes;            /* the last line's; UINT64_MAX: none */
} report;

void note_failure(void)
{
	report.exit_status = EXIT_FAILURE;
}

int dd_exit_status(void)
{
	return report.exit_status;
}

/* "N bytes (X kB, Y KiB) copied, T s, R kB/s"; note NULL: the summary's
 * form (%g s, newline), else the progress line's (whole seconds, note). */
static size_t format_transfer(char *buf, size_t size, struct dd_run *run,
			      uint64_t now, const char *note)
{
	uint64_t bytes = run->tally.bytes_out;
	int64_t elapsed = (int64_t)(now - report.start_ns);
	char si[HUMAN_BUF_SIZE], iec[HUMAN_BUF_SIZE], rate[HUMAN_BUF_SIZE];
	char seconds[HUMAN_BUF_SIZE], sizes[2 * HUMAN_BUF_SIZE + 8];
	const char *rate_text = "Infinity B", *secs;

	report.shown_bytes = bytes;
	sizes[0] = '\0';
	human_readable(si, bytes, 1, 1, 0);
	human_readable(iec, bytes, 1, 1, 1);
	if (bytes >= 1024)
		bb_format(sizes, sizeof(sizes), " (%s, %s)", si, iec);
	else if (bytes >= 1000)
		bb_format(sizes, sizeof(sizes), " (%s)", si);
	if (elapsed)
		rate_text = human_readable(rate, bytes, SECOND_NS, elapsed, 0);
	if (note) {
		seconds[HUMAN_BUF_SIZE - 1] = '\0';
		secs = put_digits(&seconds[HUMAN_BUF_SIZE - 1],
				  (elapsed + SECOND_NS / 2) / SECOND_NS, 10);
	} else {
		secs = format_double_g(seconds, (double)elapsed / 1e9);
	}
	return bb_format(buf, size, "%llu byte%s%s copied, %s s, %s/s%s",
			 (unsigned long long)bytes, bytes == 1 ? "" : "s", sizes,
			 secs, rate_text, note ? note : "\n");
}

void report_start(void)
{
	report.start_ns = monotonic_ns();
	report.shown_bytes = UINT64_MAX;
	line_pacer_start(&report.progress, report.start_ns, SECOND_NS);
}

void report_leave_out(uint64_t since)
{
	uint64_t gap = monotonic_ns() - since;

	report.start_ns += gap;
	report.progress.next_ns += gap;
	report.progress.last_turn_ns += gap;
}

void print_summary(struct dd_run *run)
{
	const struct dd_tally *st = &run->tally;
	char buf[LINE_SIZE];
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
	if (run->opt->status != STATUS_NOXFER)
		len += format_transfer(buf + len, sizeof(buf) - len, run,
				       monotonic_ns(), NULL);
	bb_write_stderr(buf, len);
}

/* When due, rewrite the line in place (docs/design.md, "Progress lines"). */
static void print_progress(struct dd_run *run, uint64_t now, const char *note)
{
	char buf[LINE_SIZE];
	size_t text_len, len;

	if (!line_due(&report.progress, now))
		return;
	report.progress.interval_ns = SECOND_NS / 2;
	report.progress.next_ns = now + SECOND_NS / 2;
	buf[0] = '\r';
	text_len = format_transfer(buf + 1, sizeof(buf) - 1, run, now, note);
	len = text_len + 1;
	if (bb_stderr_end_line())
		while (len <= report.progress_len)
			buf[len++] = ' ';
	/* GNU counts the text alone as the line's length. */
	report.progress_len = text_len;
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
	*pacer = (struct line_pacer){ .interval_ns = interval_ns,
		.next_ns = now + interval_ns, .last_turn_ns = now };
}

/* A line may come early (docs/design.md, "Progress lines"). */
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

void maybe_print_progress(struct dd_run *run)
{
	print_progress(run, monotonic_ns(), "");
}

void maybe_print_sync_progress(struct dd_run *run, uint64_t left)
{
	uint64_t now = monotonic_ns();
	char note[64], human[HUMAN_BUF_SIZE];
	struct line_pacer *pacer = &report.progress;

	/* Twice a second from now on, the next line no later. */
	pacer->interval_ns = SECOND_NS / 2;
	pacer->next_ns = min_u64(pacer->next_ns, now + pacer->interval_ns);
	human_readable(human, left, 1, 1, 0);
	bb_format(note, sizeof(note), "; syncing, %s left", human);
	print_progress(run, now, note);
}

/* Before a final sync, as GNU (docs/design.md, "Progress lines"). */
void catch_up_progress(struct dd_run *run)
{
	char buf[LINE_SIZE];

	if (ENABLE_FEATURE_DD_PROGRESS && run->opt->status == STATUS_PROGRESS
	    && report.shown_bytes < run->tally.bytes_out)
		bb_write_stderr(buf, format_transfer(buf, sizeof(buf), run,
						     monotonic_ns(), NULL));
}
