/*
 * rescue.c - the phases of a rescue, in GNU ddrescue 1.27's order and
 * with its reads, so that the two tools' mapfiles come out the same:
 *
 *   copying   up to five passes over the non-tried areas, a cluster a
 *             read, in alternate directions (-R: the first backwards).
 *             Pass 1 skips ahead after an error (the skip doubles while
 *             errors follow each other) or a slow second (-a); passes 2
 *             to 4 leave the rest of a block after its first error;
 *             passes 3 and 4 read only blocks next to finished ones;
 *             pass 5 reads everything left.  A pass that finds no
 *             non-tried block ends the phase.  A failed read marks what
 *             it did not get non-trimmed (bad, if a sector or less);
 *   trimming  each non-trimmed block read a sector at a time in from its
 *             leading edge, then its trailing edge, up to the first bad
 *             sector (not from an edge next to a bad sector); the middle
 *             becomes non-scraped;
 *   scraping  every non-scraped sector, once;
 *   retrying  the bad sectors, -r passes, alternating directions.
 *
 * A rescue resumes at the pass, and the position, the mapfile's status
 * line names.  The mapfile is saved on copy.c's schedule, GNU's.
 */
#include <limits.h>
#include <string.h>

#include "libbb.h"
#include "ddrescue.h"

/* The status, in the domain or not, of the byte before pos (ST_FINISHED
 * at 0) or, if not before, of the byte at pos (ST_FINISHED past the
 * end). */
static int neighbour(const struct rescue *r, uint64_t pos, bool before)
{
	if (before && !pos)
		return ST_FINISHED;
	return map_status_at(&r->map, pos - before) & ~ST_OUTSIDE;
}

/*
 * The block of status st (within the domain) that holds or follows pos
 * (backwards: holds or comes before pos - 1), cut at pos, into
 * [*a, *b).  With next_to_finished, only a block that follows
 * (backwards: precedes) a finished block or the map's edge.  *found, if
 * not NULL, is set when a block of status st was seen at all.
 */
static bool piece_from(const struct rescue *r, uint64_t pos, int st, bool back,
		       bool next_to_finished, bool *found, uint64_t *a, uint64_t *b)
{
	uint64_t from = pos;

	while (map_next_block(&r->map, pos, st, back, a, b)) {
		if (found)
			*found = true;
		pos = back ? *a : *b;
		if (!next_to_finished || neighbour(r, back ? *b : *a, !back) == ST_FINISHED) {
			if (back)
				*b = min_u64(*b, from);
			else if (*a < from)
				*a = from;
			return true;
		}
	}
	return false;
}

/* Cut [*a, *b) to its first read of at most size bytes, forwards or
 * backwards, ending (backwards: starting) on a multiple of align unless
 * that is the range's own end, as GNU's reads do. */
static void first_read(bool back, uint64_t size, uint64_t align, uint64_t *a, uint64_t *b)
{
	uint64_t rest;

	if (back) {
		if (*b - *a > size) {
			*a = *b - size;
			rest = (align - *a % align) % align;
			if (rest < size)
				*a += rest;
		}
	} else if (*b - *a > size) {
		*b = *a + size;
		rest = *b % align;
		if (rest < size)
			*b -= rest;
	}
}

/* A pass begins: it becomes the status line at its first read (as
 * GNU's: a pass with nothing to read leaves the line as it was). */
__attribute__((noinline)) static void begin_pass(struct rescue *r, int status, int pass, bool forward,
						 const char *what, int number)
{
	const char *way = forward ? "forwards" : "backwards";

	r->next_status = status;
	r->next_pass = pass;
	r->pass_pending = true;
	r->forward = forward;
	if (number)
		bb_format(r->phase_text, sizeof(r->phase_text), "%s%d (%s)", what, number, way);
	else
		bb_format(r->phase_text, sizeof(r->phase_text), "%s(%s)", what, way);
	r->phase = r->phase_text;
}

/* copy_chunk, once the status line took a pass just begun. */
static enum rescue_stop read_chunk(struct rescue *r, uint64_t a, uint64_t b, int fail_status,
				   uint64_t *failed)
{
	if (r->pass_pending) {
		r->cur_status = r->next_status;
		r->cur_pass = r->next_pass;
		r->cur_pos = r->forward ? a : b;
		r->pass_pending = false;
		show_phase(r);
	}
	return copy_chunk(r, a, b, fail_status, failed);
}

/* The sectors of [a, b), one read each, in the direction of back; with
 * stop_at_bad, up to the first that fails (marked bad).  *pos is where
 * the reads got to. */
static enum rescue_stop sectors(struct rescue *r, uint64_t a, uint64_t b, bool back,
				bool stop_at_bad, uint64_t *pos)
{
	enum rescue_stop stop = RESCUE_GO_ON;
	uint64_t failed = 0, s, e;

	r->forward = !back;
	while (a < b && !(stop_at_bad && failed) && stop == RESCUE_GO_ON) {
		s = a;
		e = b;
		first_read(back, r->sector, r->sector, &s, &e);
		stop = read_chunk(r, s, e, ST_BAD, &failed);
		if (back)
			b = s;
		else
			a = e;
	}
	*pos = back ? b : a;
	return stop;
}

/* The next skip: doubled each time, up to the maximum. */
static uint64_t doubled(const struct rescue *r, uint64_t skip)
{
	return skip <= r->skip_max / 2 ? skip * 2 : r->skip_max;
}

/* How far a copying pass skips after a failed or slow read that ended
 * at *pos: over the rest of the non-tried area in passes 2 to 4; in
 * pass 1, the error skip, or the slow skip (the rate within the skip's
 * bounds at first), each doubled while such reads follow each other,
 * or to the area's end if that comes first. */
static void skip(struct rescue *r, int pass, bool failed, uint64_t *eskip,
		 uint64_t *sskip, uint64_t *pos)
{
	bool back = !r->forward;
	uint64_t size = UINT64_MAX, rate = r->current_rate, a, b;

	if (!r->skip_min || pass > 4)
		return;
	if (pass == 1 && failed) {
		size = *eskip;
		*eskip = doubled(r, *eskip);
	} else if (pass == 1) {
		*sskip = r->was_slow ? doubled(r, *sskip)
			 : rate > r->skip_max ? r->skip_max
			 : rate > r->skip_min ? rate : r->skip_min;
		size = *sskip;
	}
	if (piece_from(r, *pos, ST_NONTRIED, back, false, NULL, &a, &b) &&
	    (back ? b : a) == *pos) {
		first_read(back, size, r->sector, &a, &b);
		*pos = back ? a : b;
	}
}

/* One copying pass from pos; *found when it saw a non-tried block. */
static enum rescue_stop copy_pass(struct rescue *r, int pass, uint64_t pos, bool *found)
{
	bool back = !r->forward, edge = pass == 3 || pass == 4;
	uint64_t eskip = r->skip_min, sskip = 0, a, b, failed;
	enum rescue_stop stop;

	while (piece_from(r, pos, ST_NONTRIED, back, edge, found, &a, &b)) {
		first_read(back, r->cluster, r->cluster, &a, &b);
		/* a new block: the skips start again */
		if ((back ? b : a) != pos) {
			eskip = r->skip_min;
			r->slow = false;
		}
		pos = back ? a : b;
		if ((stop = read_chunk(r, a, b, ST_NONTRIMMED, &failed)) != RESCUE_GO_ON)
			return stop;
		if (failed || (r->slow_read && pass <= 2)) {
			if ((r->flags & FLAG_REOPEN) && !reopen_input(r))
				return RESCUE_REOPEN_FAILED;
			skip(r, pass, failed, &eskip, &sskip, &pos);
		} else if (r->copied) {
			eskip = r->skip_min;
		}
	}
	return RESCUE_GO_ON;
}

/* Is pos within the domain? */
static bool in_domain(const struct rescue *r, uint64_t pos)
{
	return pos < map_end(&r->map) && !(map_status_at(&r->map, pos) & ST_OUTSIDE);
}

/* Where a resumed pass of status st goes on: the position of the
 * status line, moved to the next piece it names, if that is in the
 * domain; else the pass's start. */
static uint64_t resume_at(const struct rescue *r, int st, bool back, bool resume)
{
	uint64_t pos = r->cur_pos, a, b;

	if (!resume || !in_domain(r, back ? pos - 1 : pos) ||
	    !piece_from(r, pos, st, back, false, NULL, &a, &b))
		return back ? UINT64_MAX : 0;
	return back ? b : a;
}

static enum rescue_stop copy_phase(struct rescue *r)
{
	bool resume = r->cur_status == ST_NONTRIED && r->cur_pass <= 5, back = r->flags & FLAG_REVERSE;
	int pass, first = resume ? r->cur_pass : 1;
	enum rescue_stop stop;

	for (pass = 1; pass <= 5; pass++, back = !back) {
		bool found = false;

		if (pass >= first) {
			uint64_t pos = resume_at(r, ST_NONTRIED, back, resume && pass == first);

			begin_pass(r, ST_NONTRIED, pass, !back,
				   "Copying non-tried blocks... Pass ", pass);
			stop = copy_pass(r, pass, pos, &found);
			if (stop != RESCUE_GO_ON || !found)
				return stop;
		}
		if (pass >= 2)
			r->min_rate = -1;       /* no slow reads after pass 2 */
	}
	return RESCUE_GO_ON;
}

/* Trimming, scraping or retrying: the pieces of status st, each read a
 * sector at a time, in the order of back (and retrying, each piece in
 * that direction too; scraping, forwards).  Trimming reads each block
 * in from both edges, up to the first bad sector, except an edge next
 * to a bad sector, and leaves the middle non-scraped. */
static enum rescue_stop sector_phase(struct rescue *r, int st, bool back, uint64_t pos,
				     bool *found)
{
	enum rescue_stop stop = RESCUE_GO_ON;
	uint64_t a, b;
	bool bad_before, bad_after;

	while (stop == RESCUE_GO_ON && piece_from(r, pos, st, back, false, found, &a, &b)) {
		pos = back ? a : b;
		if (st != ST_NONTRIMMED) {
			stop = sectors(r, a, b, st == ST_BAD && back, false, &a);
			continue;
		}
		bad_before = neighbour(r, a, true) == ST_BAD;
		bad_after = neighbour(r, b, false) == ST_BAD;
		/* GNU 1.27 marks a block between two bad sectors non-scraped
		 * without counting it so: unless other blocks are, scraping
		 * then finds nothing to do, and the next run scrapes it */
		if (bad_before && bad_after) {
			if (map_set(&r->map, a, b, ST_NONSCRAPED))
				stop = RESCUE_NO_MEMORY;
			continue;
		}
		if (!bad_before)
			stop = sectors(r, a, b, false, true, &a);
		if (stop == RESCUE_GO_ON && !bad_after)
			stop = sectors(r, a, b, true, true, &b);
		if (stop == RESCUE_GO_ON)
			stop = mark(r, a, b, ST_NONSCRAPED);
	}
	return stop;
}

/* -r passes over the bad sectors, alternating; a resumed even pass
 * goes on in its direction. */
static enum rescue_stop retry_phase(struct rescue *r)
{
	bool resume = r->cur_status == ST_BAD, back = r->flags & FLAG_REVERSE;
	int pass, first = !resume || r->cur_pass & 1 ? 1 : 2;
	enum rescue_stop stop;

	if (first == 2)
		back = !back;
	for (pass = first; pass - first < r->retry_passes && pass < INT_MAX; pass++, back = !back) {
		uint64_t pos = resume_at(r, ST_BAD, back, resume);
		bool found = false;

		resume = false;
		begin_pass(r, ST_BAD, pass, !back, "Retrying bad sectors... Retry ",
			   pass - first + 1);
		if ((stop = sector_phase(r, ST_BAD, back, pos, &found)) != RESCUE_GO_ON || !found)
			return stop;
	}
	return RESCUE_GO_ON;
}

/* The phases with something to do, as GNU 1.27 decides it as each
 * begins, from the sizes it keeps. */
static enum rescue_stop phases(struct rescue *r)
{
	/* trimming, then scraping: one pass each, unless its flag */
	static const struct {
		unsigned char status, size, skip_flag;
		char what[27];
	} one_pass[] = {
		{ ST_NONTRIMMED, SIZE_NONTRIMMED, FLAG_NO_TRIM, "Trimming failed blocks... " },
		{ ST_NONSCRAPED, SIZE_NONSCRAPED, FLAG_NO_SCRAPE, "Scraping failed blocks... " },
	};
	bool back = r->flags & FLAG_REVERSE;
	enum rescue_stop stop = RESCUE_GO_ON;
	size_t i;

	if (r->size[SIZE_NONTRIED])
		stop = copy_phase(r);
	for (i = 0; i < ARRAY_SIZE(one_pass); i++)
		if (stop == RESCUE_GO_ON && r->size[one_pass[i].size] &&
		    !(r->flags & one_pass[i].skip_flag)) {
			begin_pass(r, one_pass[i].status, 1, !back, one_pass[i].what, 0);
			stop = sector_phase(r, one_pass[i].status, back,
					    back ? UINT64_MAX : 0, NULL);
		}
	if (stop == RESCUE_GO_ON && r->retry_passes)
		stop = retry_phase(r);
	return stop;
}

enum rescue_stop rescue_run(struct rescue *r)
{
	enum rescue_stop stop, saved;

	copy_start(r);
	stop = phases(r);
	if (stop == RESCUE_GO_ON) {
		copy_finish(r);
		stop = r->limit;
	}
	show_status(r, true);
	if (stop == RESCUE_GO_ON) {
		stop = RESCUE_FINISHED;
		r->cur_status = ST_FINISHED;
		r->phase = "Finished";
		show_phase(r);
	}
	/* -S: the zeros left unwritten at the end still make the size */
	if (r->sparse_end && extend_output(r) && stop == RESCUE_FINISHED)
		stop = RESCUE_WRITE_FAILED;
	saved = save_now(r);
	/* a failure to save comes first: the mapfile is behind */
	return saved != RESCUE_GO_ON ? saved : stop;
}
