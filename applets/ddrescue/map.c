/*
 * map.c - block lists: contiguous blocks, each with one status, from 0
 * to the end of the list.  Block i covers [start[i], start[i + 1]);
 * start[count] is the end.  Neighbours have different statuses, but
 * for those map_recolor leaves, as GNU's -M and -A leave them.  The arrays are anonymous mappings that grow
 * (mremap) as blocks are added, their pages touched only as used: nine
 * bytes a block, with no bound but memory.
 *
 * A rescue has two lists: the map of the input, and its domain (the
 * parts to rescue, as ST_FINISHED blocks); map_next_piece searches the
 * first within the second.
 */
#include <string.h>

#include "libbb.h"
#include "ddrescue.h"

enum { FIRST_ROOM = 1024 };

/* Room for n more blocks.  Returns 0, or -1 (ENOMEM) with the map as
 * it was. */
static int room(struct map *m, size_t n)
{
	size_t want = m->capacity;

	if (m->count + n <= m->capacity)
		return 0;
	while (want < m->count + n)
		want = want ? want * 2 : FIRST_ROOM;
	if (lazy_buffer_grow(&m->start_mem, (want + 1) * sizeof(*m->start)) ||
	    lazy_buffer_grow(&m->status_mem, want))
		return -1;
	m->start = (uint64_t *)(void *)m->start_mem.data;
	m->status = m->status_mem.data;
	m->capacity = want;
	return 0;
}

int map_init(struct map *m)
{
	memset(m, 0, sizeof(*m));
	if (room(m, 1))
		return -1;
	m->start[0] = 0;
	return 0;
}

void map_free(struct map *m)
{
	lazy_buffer_free(&m->start_mem);
	lazy_buffer_free(&m->status_mem);
	memset(m, 0, sizeof(*m));
}

uint64_t map_end(const struct map *m)
{
	return m->start[m->count];
}

int map_append(struct map *m, uint64_t size, int st)
{
	size_t n = m->count;

	if (!size)
		return 0;
	if (n && m->status[n - 1] == st) {
		m->start[n] += size;
		return 0;
	}
	if (room(m, 1))
		return -1;
	m->status[n] = (unsigned char)st;
	m->start[n + 1] = m->start[n] + size;
	m->count = n + 1;
	return 0;
}

void map_truncate(struct map *m, uint64_t end)
{
	while (m->count && m->start[m->count - 1] >= end)
		m->count--;
	if (m->start[m->count] > end)
		m->start[m->count] = end;
}

/* The block holding pos (pos < end). */
static size_t find(const struct map *m, uint64_t pos)
{
	size_t lo = 0, hi = m->count;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->start[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int map_set(struct map *m, uint64_t a, uint64_t b, int st)
{
	uint64_t new_start[3], *start;
	unsigned char new_status[3], *status;
	size_t first, last, n = 0, old;
	int before;

	if (b > map_end(m))
		b = map_end(m);
	if (a >= b)
		return 0;
	if (room(m, 2))
		return -1;
	start = m->start;
	status = m->status;
	first = find(m, a);
	last = find(m, b - 1);
	/* The blocks first..last become: what is left of first before a,
	 * [a, b), what is left of last after b.  [a, b) merges into the
	 * block before it, and the block after it into [a, b), where they
	 * share its status; what is left of a block keeps its own bounds
	 * (two neighbours map_recolor left with one status stay two). */
	before = first ? status[first - 1] : -1;
	if (start[first] < a) {
		new_start[n] = start[first];
		new_status[n++] = (unsigned char)(before = status[first]);
	}
	if (st != before) {
		new_start[n] = a;
		new_status[n++] = (unsigned char)(before = st);
	}
	if (b < start[last + 1] && status[last] != before) {
		new_start[n] = b;
		new_status[n++] = (unsigned char)(before = status[last]);
	}
	if (last + 1 < m->count && status[last + 1] == before && before == st)
		last++;
	old = last - first + 1;
	memmove(start + first + n, start + last + 1, (m->count - last) * sizeof(*start));
	memmove(status + first + n, status + last + 1, m->count - last - 1);
	memcpy(start + first, new_start, n * sizeof(*start));
	memcpy(status + first, new_status, n);
	m->count = m->count - old + n;
	return 0;
}

int map_status_at(const struct map *m, uint64_t pos)
{
	return pos < map_end(m) ? m->status[find(m, pos)] : ST_FINISHED;
}

/* The first block of status st that holds or follows pos (backwards:
 * that holds or comes before pos - 1), whole; false if none. */
static bool block_of(const struct map *m, uint64_t pos, int st, bool backwards,
		     uint64_t *s, uint64_t *e)
{
	size_t i;

	if (backwards ? !pos : pos >= map_end(m))
		return false;
	if (backwards && pos > map_end(m))
		pos = map_end(m);
	for (i = find(m, backwards ? pos - 1 : pos); m->status[i] != st;
	     i += backwards ? -1 : 1)
		if (backwards ? !i : i + 1 == m->count)
			return false;
	*s = m->start[i];
	*e = m->start[i + 1];
	return true;
}

bool map_next_piece(const struct map *m, const struct map *domain, uint64_t pos,
		    int st, bool backwards, uint64_t *s, uint64_t *e)
{
	uint64_t ds, de, bs, be;

	while (block_of(domain, pos, ST_FINISHED, backwards, &ds, &de)) {
		if (backwards ? pos > de : pos < ds)
			pos = backwards ? de : ds;
		if (block_of(m, pos, st, backwards, &bs, &be) &&
		    (backwards ? be > ds : bs < de)) {
			*s = bs > ds ? bs : ds;
			*e = min_u64(be, de);
			return true;
		}
		pos = backwards ? ds : de;
	}
	return false;
}

int map_recolor(struct map *m, const struct map *domain, int from, int to)
{
	uint64_t pos = 0, s, e;
	size_t i;

	while (map_next_piece(m, domain, pos, from, false, &s, &e)) {
		i = find(m, s);
		if (m->start[i] == s && m->start[i + 1] == e)
			m->status[i] = (unsigned char)to;
		else if (map_set(m, s, e, to))
			return -1;
		pos = e;
	}
	return 0;
}

uint64_t map_total(const struct map *m, const struct map *domain, int st,
		   uint64_t lo, uint64_t hi, size_t *pieces)
{
	uint64_t sum = 0, s, e;

	*pieces = 0;
	/* each piece is a separate area: two pieces never touch, as the
	 * blocks of a list of either kind never have a status in common
	 * with a neighbour */
	while (lo < hi && map_next_piece(m, domain, lo, st, false, &s, &e) && s < hi) {
		sum += min_u64(e, hi) - (s > lo ? s : lo);
		++*pieces;
		lo = e;
	}
	return sum;
}
