/* report.c - the summary, the status=progress line and the exit status,
 * in GNU's format; each line is written with one write(2). */
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs/jobs.h"

/* Every field of a line is bounded: LINE_SIZE holds the longest. */
enum { LINE_SIZE = 512 };

static struct {
	int exit_status;                 /* EXIT_SUCCESS until note_failure */
	uint64_t start_ns;               /* monotonic start of the copy */
	uint64_t paused_ns;              /* the copy's clock stopped here; 0: runs */
	struct progress_line progress;   /* status=progress, on stderr */
	uint64_t shown_bytes;            /* the last line's; UINT64_MAX: none */
	bool writeback_reported;         /* report_writeback_error spoke */
} report;

/* dd will exit 1: something failed, and was reported. */
void note_failure(void)
{
	report.exit_status = EXIT_FAILURE;
}

/* 0, or 1 after note_failure. */
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
	int64_t elapsed = (int64_t)((report.paused_ns ? report.paused_ns : now)
				    - report.start_ns);
	char si[HUMAN_BUF_SIZE], iec[HUMAN_BUF_SIZE], rate[HUMAN_BUF_SIZE];
	char seconds[HUMAN_BUF_SIZE], sizes[2 * HUMAN_BUF_SIZE + 8];
	const char *rate_text = "Infinity B", *secs;

	report.shown_bytes = bytes;
	sizes[0] = '\0';
	human_readable(si, bytes, 1, 1, HUMAN_SI);
	human_readable(iec, bytes, 1, 1, HUMAN_IEC);
	if (bytes >= 1024)
		bb_format(sizes, sizeof(sizes), " (%s, %s)", si, iec);
	else if (bytes >= 1000)
		bb_format(sizes, sizeof(sizes), " (%s)", si);
	if (elapsed)
		rate_text = human_readable(rate, bytes, SECOND_NS, elapsed, HUMAN_SI);
	if (note) {
		seconds[HUMAN_BUF_SIZE - 1] = '\0';
		secs = put_digits(&seconds[HUMAN_BUF_SIZE - 1],
				  (elapsed + SECOND_NS / 2) / SECOND_NS, 10);
	} else {
		secs = format_double_g(seconds, (double)elapsed / SECOND_NS);
	}
	return bb_format(buf, size, "%llu byte%s%s copied, %s s, %s/s%s",
			 (unsigned long long)bytes, bytes == 1 ? "" : "s", sizes,
			 secs, rate_text, note ? note : "\n");
}

/* The copy starts now: the clock of the summary and of progress. */
void report_start(void)
{
	report.start_ns = monotonic_ns();
	report.shown_bytes = UINT64_MAX;
	report.progress.fd = STDERR_FILENO;
	line_pacer_start(&report.progress.pacer, report.start_ns, SECOND_NS);
}

/* The copy's clock stops now, until report_resume: the time between
 * (opening the output, conv=verify's read-back) is in no summary,
 * SIGUSR1's included, and moves the progress line's schedule along. */
void report_pause(void)
{
	report.paused_ns = monotonic_ns();
}

void report_resume(void)
{
	uint64_t gap = monotonic_ns() - report.paused_ns;

	report.start_ns += gap;
	report.progress.pacer.next_ns += gap;
	report.progress.pacer.last_turn_ns += gap;
	report.paused_ns = 0;
}

/* GNU's records and bytes lines, one write. */
void print_summary(struct dd_run *run)
{
	const struct dd_tally *st = &run->tally;
	char buf[LINE_SIZE];
	size_t len = 0;

	if (run->opt->status == STATUS_NONE)
		return;
	/* A progress line is still open: end it first. */
	if (bb_take_open_line() == STDERR_FILENO)
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

/* The bytes this copy is to write, where that is known: a job's count
 * (bmap=), else the least of count= and what the input has after skip=
 * (a regular file or a device, its size at the start) and a device
 * output after seek=.  A pipe's end can come anywhere before the
 * output's, so only an endless input (/dev/zero) goes by the output's
 * alone.  block and unblock change the length: unknown (UINT64_MAX). */
static uint64_t expected_bytes(const struct dd_run *run)
{
	const struct io_end *in = &run->in, *out = &run->out;
	uint64_t total = run->plan.count_bytes;
	uint64_t in_at = in->offset + run->plan.skip_offset;
	uint64_t out_at = out->offset + run->plan.seek_offset;

	if (run->expected_bytes)
		return run->expected_bytes;
	if (run->opt->conv & (CONV_BLOCK | CONV_UNBLOCK))
		return UINT64_MAX;
	if (in->size_known)
		total = min_u64(total, in->size > in_at ? in->size - in_at : 0);
	if (S_ISBLK(out->st.st_mode) && out->size_known
	    && (in->size_known || S_ISCHR(in->st.st_mode)))
		total = min_u64(total, out->size > out_at ? out->size - out_at : 0);
	return total;
}

/* When due, rewrite the line in place (docs/design.md, "Progress lines"):
 * GNU's first line after a second, then twice a second.  GNU's line,
 * then note (NULL: the estimate), which a terminal too narrow for it
 * does not get (progress_line_fit). */
static void print_progress(struct dd_run *run, uint64_t now, const char *note)
{
	char buf[LINE_SIZE], estimate[64];
	size_t len;

	if (!line_due(&report.progress.pacer, now))
		return;
	report.progress.pacer.interval_ns = SECOND_NS / 2;
	report.progress.pacer.next_ns = now + SECOND_NS / 2;
	if (!note) {
		progress_estimate(estimate, sizeof(estimate),
				  run->tally.bytes_out, expected_bytes(run),
				  now - report.start_ns);
		note = estimate;
	}
	len = format_transfer(buf, sizeof(buf), run, now, note);
	len = progress_line_fit(&report.progress, len, strlen(note));
	progress_line_show(&report.progress, buf, len);
}

/* A line of a job's own (conv=verify's read-back) in the progress
 * line's place: now, or when due, twice a second from the last "now". */
void show_job_progress(const char *text, size_t len, enum line_when when)
{
	uint64_t now = monotonic_ns();

	if (when == LINE_NOW)
		line_pacer_start(&report.progress.pacer, now, SECOND_NS / 2);
	else if (!line_due(&report.progress.pacer, now))
		return;
	progress_line_show(&report.progress, text, len);
}

/* The transfer layer's on_info hook (housekeeping.c installs it):
 * SIGUSR1 prints the summary, as GNU. */
void answer_info_request(void *run)
{
	print_summary(run);
}

/* As GNU: the summary, then death by the signal (its default action is
 * back, SA_RESETHAND).  Should the signal be blocked, the copy goes on,
 * as it would have in GNU's dd. */
void die_by_interrupt(void *client, int sig)
{
	struct dd_run *run = client;

	print_summary(run);
	raise(sig);
	run->transfer.stopped_by = 0;
}

/* After a fatal error, the summary, then exit 1. */
void die_with_summary(struct dd_run *run)
{
	print_summary(run);
	exit(EXIT_FAILURE);
}

/* "NAME: cannot seek", and note_failure(). */
void report_seek_error(const struct io_end *end)
{
	bb_perror_msg("%s: cannot seek", quote_if_needed(end->name));
	note_failure();
}

/* Where GNU's dd meets no write-back error (oflag=nocache's windows, the
 * write-out before a block device's close), dd reports the one it met
 * in GNU's words for a failed write.  A failing card fails many
 * requests: one message says it. */
void report_writeback_error(const struct io_end *end, int err)
{
	note_failure();
	if (report.writeback_reported)
		return;
	report.writeback_reported = true;
	bb_errno_msg(err, "error writing %s", quote_always(end->name));
}

/* status=progress: the line, when due. */
void maybe_print_progress(struct dd_run *run)
{
	print_progress(run, monotonic_ns(), NULL);
}

/* The same during the final sync, left bytes still to write out. */
void maybe_print_sync_progress(struct dd_run *run, uint64_t left)
{
	uint64_t now = monotonic_ns();
	char note[64], human[HUMAN_BUF_SIZE];
	struct line_pacer *pacer = &report.progress.pacer;

	/* Twice a second from now on, the next line no later. */
	pacer->interval_ns = SECOND_NS / 2;
	pacer->next_ns = min_u64(pacer->next_ns, now + pacer->interval_ns);
	human_readable(human, left, 1, 1, HUMAN_SI);
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
