/*
 * show.c - what the user of ddrescue sees on stdout (nothing with -q):
 * the phase and pass, a line each as it begins, and under it a status
 * line rewritten once a second by libbb's progress printer: the part of
 * the domain rescued, what failed, the rate, the run time, the time
 * since the last good read and an estimate of the time left.
 */
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

/* Bytes as "1048 kB", into one of four rotating buffers: enough for one
 * line. */
static const char *bytes(uint64_t n)
{
	static char buf[4][HUMAN_BUF_SIZE];
	static unsigned next;

	return human_readable(buf[next++ % 4], n, 1, 1, false);
}

uint64_t domain_size(const struct rescue *r)
{
	uint64_t all = 0;
	int i;

	for (i = 0; i < 5; i++)
		all += r->size[i];
	return all;
}

/* The finished part of the domain in hundredths of a percent, cut (not
 * rounded), as GNU shows it. */
static unsigned hundredths(const struct rescue *r)
{
	uint64_t done = r->size[SIZE_FINISHED], all = domain_size(r);

	while (done > UINT64_MAX / 10000) {
		done >>= 1;
		all >>= 1;
	}
	return all ? (unsigned)(done * 10000 / all) : 0;
}

void show_status(struct rescue *r, bool last)
{
	const uint64_t *sz = r->size;
	/* what is left to read, at this run's average rate */
	uint64_t left = domain_size(r) - sz[SIZE_FINISHED] - (r->retry_passes ? 0 : sz[SIZE_BAD]);
	unsigned pct = hundredths(r);
	char text[160], digits[24];
	const char *eta = "?";
	size_t n;

	if (r->flags & FLAG_QUIET)
		return;
	if (r->average_rate) {
		digits[sizeof(digits) - 1] = '\0';
		eta = put_digits(digits + sizeof(digits) - 1, left / r->average_rate, 10);
	}
	n = bb_format(text, sizeof(text),
		      "rescued %s %u.%02u%%, bad %s in %llu areas, %s/s, run %llus, "
		      "good read %llus ago, %ss left",
		      bytes(sz[SIZE_FINISHED]), pct / 100, pct % 100, bytes(sz[SIZE_BAD]),
		      (unsigned long long)r->bad_areas, bytes(r->current_rate),
		      (unsigned long long)r->second,
		      (unsigned long long)(r->second - r->last_good_second), eta);
	progress_line_show(&r->screen, text, n);
	if (last)
		progress_line_end(&r->screen);
}

void show_phase(struct rescue *r)
{
	if (r->flags & FLAG_QUIET)
		return;
	progress_line_end(&r->screen);
	bb_dprintf(STDOUT_FILENO, "%s\n", r->phase);
}

void show_initial_status(struct rescue *r)
{
	if (r->flags & FLAG_QUIET || !r->map_existed)
		return;
	bb_dprintf(STDOUT_FILENO, "Initial status (read from mapfile)%s\n",
		   r->map_insize > r->insize ? ", limited to the domain" : "");
	show_status(r, true);
}
