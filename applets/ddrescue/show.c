/*
 * show.c - what the user of ddrescue sees on stdout: once a second a
 * block of lines (rewritten in place on a terminal, through libbb's
 * progress printer): what is rescued and what is left, by status; the
 * rates and errors; the run time, the time since the last good read
 * and the time left; the phase.  Nothing with -q.
 */
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

char *format_duration(char *buf, uint64_t s)
{
	static const struct { unsigned seconds; char unit; } units[] = {
		{ 86400, 'd' }, { 3600, 'h' }, { 60, 'm' }, { 1, 's' },
	};
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		uint64_t v = s / units[i].seconds;

		/* the units from the first that is not 0 */
		if (v || n || i == ARRAY_SIZE(units) - 1) {
			bb_format(buf + n, 24 - n, "%s%llu%c", n ? " " : "",
				  (unsigned long long)v, units[i].unit);
			n = strlen(buf);
		}
		s -= v * units[i].seconds;
	}
	return buf;
}

/* Bytes as "1048 kB" into one of eight rotating buffers: enough for
 * one screen. */
static const char *bytes(uint64_t n)
{
	static char buf[8][HUMAN_BUF_SIZE];
	static unsigned next;

	return human_readable(buf[next++ % 8], n, 1, 1, false);
}

/* rescued / domain in hundredths of a percent, cut (not rounded) */
static unsigned hundredths(uint64_t done, uint64_t all)
{
	while (done > UINT64_MAX / 10000) {
		done >>= 1;
		all >>= 1;
	}
	return all ? (unsigned)(done * 10000 / all) : 0;
}

void show_status(struct rescue *r, bool last)
{
	const uint64_t *sz = r->size;
	uint64_t all = sz[0] + sz[1] + sz[2] + sz[3] + sz[4];
	uint64_t left = sz[SIZE_NONTRIED] + sz[SIZE_NONTRIMMED] + sz[SIZE_NONSCRAPED] +
			(r->retry_passes ? sz[SIZE_BAD] : 0);
	char run[24], since[24], eta[24] = "n/a", text[640];
	unsigned pct = hundredths(sz[SIZE_FINISHED], all);
	size_t n;

	if (r->quiet)
		return;
	if (r->average_rate)
		format_duration(eta, left / r->average_rate);
	n = bb_format(text, sizeof(text),
		      "pos %s, rescued %s (%u.%02u%%), non-tried %s, non-trimmed %s,\n"
		      "non-scraped %s, bad-sector %s in %llu areas, %llu read errors,\n"
		      "%s/s now, %s/s on average, errors %s/s, %llu slow reads,\n"
		      "run time %s, last good read %s ago, time left %s\n%s",
		      bytes(r->cur_pos), bytes(sz[SIZE_FINISHED]), pct / 100, pct % 100,
		      bytes(sz[SIZE_NONTRIED]), bytes(sz[SIZE_NONTRIMMED]),
		      bytes(sz[SIZE_NONSCRAPED]), bytes(sz[SIZE_BAD]),
		      (unsigned long long)r->bad_areas, (unsigned long long)r->read_errors,
		      bytes(r->current_rate), bytes(r->average_rate), bytes(r->error_rate),
		      (unsigned long long)r->slow_reads,
		      format_duration(run, r->second),
		      format_duration(since, r->second - r->last_good_second), eta,
		      r->phase);
	progress_block_show(&r->screen, text, min_u64(n, sizeof(text) - 1));
	if (last)
		progress_line_end(&r->screen);
}

void show_initial_status(struct rescue *r)
{
	const uint64_t *sz = r->size;
	uint64_t first = 0, end = 0;

	if (r->quiet || !r->map_existed)
		return;
	if (r->domain.count) {
		end = map_end(&r->domain);
		first = r->domain.status[0] == ST_FINISHED ? 0 : r->domain.start[1];
	}
	bb_dprintf(STDOUT_FILENO, "Initial status (read from mapfile)\n");
	if (first || end < r->map_insize)
		bb_dprintf(STDOUT_FILENO, "(limited to the domain: bytes %llu to %llu of the "
			   "mapfile's %llu)\n", (unsigned long long)first,
			   (unsigned long long)end, (unsigned long long)r->map_insize);
	bb_dprintf(STDOUT_FILENO, "rescued %s, tried %s, bad-sector %s in %llu areas\n",
		   bytes(sz[SIZE_FINISHED]),
		   bytes(sz[SIZE_NONTRIMMED] + sz[SIZE_NONSCRAPED] + sz[SIZE_BAD]),
		   bytes(sz[SIZE_BAD]), (unsigned long long)r->bad_areas);
}
