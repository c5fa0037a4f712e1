/*
 * copy.c - one read of a rescue and what follows it, as GNU ddrescue
 * does it: the input read (whole sectors under -d, the bytes asked for
 * kept), what was read written to the output, the map marked and its
 * sizes kept; then, once a second, the rates and the limits (-a, -E,
 * -T) and the screen; and the mapfile saved on its schedule, always
 * after the output is fsynced, so that the mapfile never calls finished
 * what a crash could still take from the output.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

/* GNU's schedule: every 30 seconds, up to 5 minutes for a large map
 * (a second more for each 38 blocks). */
enum { SAVE_MIN_S = 30, SAVE_MAX_EXTRA_S = 270, BLOCKS_PER_SECOND = 38 };

/* The statuses in the order of SIZE_*. */
static const char size_order[] = "?*/-+";

int size_index(int status)
{
	const char *p = strchr(size_order, status);

	return p && status ? (int)(p - size_order) : SIZE_NONTRIED;
}

enum rescue_stop mark(struct rescue *r, uint64_t a, uint64_t b, int st)
{
	int old = map_status_at(&r->map, a);
	size_t before = 0, after = 0;
	/* the bad areas around [a, b) before and after: a change can join
	 * two or split one */
	bool bad = old == ST_BAD || st == ST_BAD;
	uint64_t lo = a ? a - 1 : 0;

	if (a >= b || old == st)
		return RESCUE_GO_ON;
	if (bad)
		map_total(&r->map, ST_BAD, lo, b + 1, &before);
	if (map_set(&r->map, a, b, st))
		return RESCUE_NO_MEMORY;
	if (bad) {
		map_total(&r->map, ST_BAD, lo, b + 1, &after);
		r->bad_areas = r->bad_areas + after - before;
	}
	r->size[size_index(old)] -= b - a;
	r->size[size_index(st)] += b - a;
	return RESCUE_GO_ON;
}

void count_sizes(struct rescue *r)
{
	size_t i, n;

	for (i = 0; i < 5; i++) {
		r->size[i] = map_total(&r->map, size_order[i], 0, UINT64_MAX, &n);
		if (i == SIZE_BAD)
			r->bad_areas = n;
	}
}

/* Read len bytes at a into r->buf, in one read (again only after
 * EINTR); *got is how many arrived.  A short read is an error at the
 * first sector it did not return, whose part is dropped (trimming reads
 * it alone), unless it reached the end of the input.  Under -d the read
 * covers whole sectors, and what it got beyond [a, a + len) is dropped.
 * Returns 0, or the read's errno (EIO for a short read; EINTR: a signal
 * stopped the rescue). */
static int read_input(struct rescue *r, uint64_t a, uint64_t len, uint64_t *got)
{
	uint64_t pre = 0, want = len, n;
	ssize_t k;

	if (r->flags & FLAG_DIRECT_IN) {
		pre = a % r->sector;
		want = (pre + len + r->sector - 1) / r->sector * r->sector;
	}
	*got = 0;
	do
		k = pread(r->in_fd, r->buf, want, (off_t)(a - pre));
	while (k < 0 && transfer_retry(&r->transfer));
	if (k < 0)
		return errno;
	n = (uint64_t)k > pre ? min_u64((uint64_t)k - pre, len) : 0;
	if (pre && n)
		memmove(r->buf, r->buf + pre, n);
	if (n < len && a + n < r->insize) {
		*got = n > (a + n) % r->sector ? n - (a + n) % r->sector : 0;
		return EIO;
	}
	*got = n;
	return 0;
}

/* Write what was read from a; under -S, a block of zeros is only noted
 * (the output is made long enough at the end). */
static enum rescue_stop write_output(struct rescue *r, uint64_t a, uint64_t n)
{
	uint64_t at = a - r->ipos + r->opos;

	if ((r->flags & FLAG_SPARSE) && bb_is_all_zero(r->buf, n)) {
		if (at + n > r->sparse_end)
			r->sparse_end = at + n;
		return RESCUE_GO_ON;
	}
	if (transfer_write(&r->transfer, r->out_fd, r->buf, n, (int64_t)at) == n)
		return RESCUE_GO_ON;
	if (r->transfer.stopped_by)
		return RESCUE_SIGNALED;
	r->error = errno;
	return RESCUE_WRITE_FAILED;
}

int save_mapfile(const struct rescue *r)
{
	struct mapfile_status st = { r->command_line, r->phase, r->cur_pos,
				     r->cur_status, r->cur_pass };

	return mapfile_save(r->map_name, &r->map, &st);
}

enum rescue_stop save_now(struct rescue *r)
{
	uint64_t interval = r->map.count / BLOCKS_PER_SECOND;

	if (!r->map_name)
		return RESCUE_GO_ON;
	if (fsync(r->out_fd) && errno != EINVAL) {
		r->error = errno;
		return RESCUE_WRITE_FAILED;
	}
	if (save_mapfile(r)) {
		r->error = errno;
		return RESCUE_SAVE_FAILED;
	}
	interval = SAVE_MIN_S + min_u64(interval, SAVE_MAX_EXTRA_S);
	/* the next one counts from the end of this one, as GNU's */
	r->next_save_ns = monotonic_ns() + interval * SECOND_NS;
	return RESCUE_GO_ON;
}

/* A second went by (or the last part of one, at the end): the rates,
 * the error rate and the timeout, and whether the read was slow.  GNU's
 * rules, in whole seconds. */
static void rates(struct rescue *r, uint64_t second, bool last)
{
	uint64_t done = r->size[SIZE_FINISHED];
	uint64_t span = second - r->second;

	r->average_rate = second ? (done - r->rescued_at_start) / second : 0;
	r->current_rate = (done - r->rescued_last_second) / span;
	if (done != r->rescued_last_second && !last)
		r->last_good_second = second;
	else if (!last && r->second &&
		 second - r->last_good_second > r->timeout)
		r->limit = RESCUE_TIMEOUT;
	r->rescued_last_second = done;
	if (r->error_bytes / span > r->max_error_rate &&
	    r->limit == RESCUE_GO_ON)
		r->limit = RESCUE_ERROR_RATE;
	r->error_bytes = 0;
	if (last)
		return;
	r->second = second;
	r->was_slow = r->slow;
	r->slow = second > r->delay_slow && r->min_rate >= 0 &&
		  r->current_rate < (r->min_rate ? (uint64_t)r->min_rate : r->average_rate / 10);
	r->slow_read = r->slow;
}

void copy_start(struct rescue *r)
{
	r->start_ns = monotonic_ns();
	r->rescued_at_start = r->rescued_last_second = r->size[SIZE_FINISHED];
	r->next_save_ns = r->start_ns + (uint64_t)SAVE_MIN_S * SECOND_NS;
}

void copy_finish(struct rescue *r)
{
	uint64_t second = (monotonic_ns() - r->start_ns) / SECOND_NS;

	/* the part of a second since the last rates counts as one */
	rates(r, second > r->second ? second : r->second + 1, true);
}

/* After each read: the clock, the screen, the mapfile's schedule. */
static enum rescue_stop after_read(struct rescue *r)
{
	uint64_t now = monotonic_ns(), second = (now - r->start_ns) / SECOND_NS;

	r->slow_read = false;
	if (second > r->second) {
		rates(r, second, false);
		show_status(r, false);
	}
	return now >= r->next_save_ns ? save_now(r) : RESCUE_GO_ON;
}

enum rescue_stop copy_chunk(struct rescue *r, uint64_t a, uint64_t b, int fail_status,
			    uint64_t *failed)
{
	enum rescue_stop stop = RESCUE_GO_ON;
	struct stat st;
	uint64_t got, lost = 0;
	int err;

	r->copied = *failed = 0;
	r->cur_pos = r->forward ? a : b;
	if (r->limit != RESCUE_GO_ON)
		return r->limit;
	if (transfer_act_on_signals(&r->transfer))
		return RESCUE_SIGNALED;
	err = read_input(r, a, b - a, &got);
	/* what GNU ddrescue stops for at once, the read left unmarked */
	if (err == EINTR)
		return RESCUE_SIGNALED;
	if (err == EINVAL)
		return RESCUE_UNALIGNED;
	if (err == ENODEV || err == ENXIO || err == ENOTCONN) {
		r->error = err;
		return RESCUE_READ_FAILED;
	}
	if (got && ((stop = write_output(r, a, got)) != RESCUE_GO_ON ||
		    (stop = mark(r, a, a + got, ST_FINISHED)) != RESCUE_GO_ON))
		return stop;
	r->copied = got;
	if (err) {
		lost = b - a - got;
		r->error_bytes += lost;
		stop = mark(r, a + got, b, lost > r->sector ? fail_status : ST_BAD);
		/* a disk that went away takes its name with it */
		if (stop == RESCUE_GO_ON && stat(r->in_name, &st))
			stop = RESCUE_INPUT_GONE;
	}
	*failed = lost;
	if (stop != RESCUE_GO_ON)
		return stop;
	if (r->bad_areas > r->max_bad_areas && r->limit == RESCUE_GO_ON)
		r->limit = RESCUE_TOO_MANY_BAD;
	return after_read(r);
}

bool reopen_input(struct rescue *r)
{
	int fd;

	close(r->in_fd);
	fd = open(r->in_name, r->in_flags);
	if (fd < 0) {
		r->error = errno;
		return false;
	}
	r->in_fd = fd;
	return true;
}

int extend_output(struct rescue *r)
{
	off_t end = lseek(r->out_fd, 0, SEEK_END);

	if (end < 0 || ((uint64_t)end < r->sparse_end &&
			ftruncate(r->out_fd, (off_t)r->sparse_end))) {
		r->error = errno;
		return -1;
	}
	return 0;
}
