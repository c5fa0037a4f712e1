/*
 * map.c - block lists: contiguous blocks, each with one status, from 0
 * to the end of the list.  Block i covers [start[i], start[i + 1]);
 * start[count] is the end.  Neighbours have different statuses, but
 * for those map_recolor and map_exclude leave, as GNU leaves them.  The arrays are anonymous mappings that grow
 * (mremap) as blocks are added, their pages touched only as used: nine
 * bytes a block, with no bound but memory.
 *
 * The blocks outside the rescue domain carry ST_OUTSIDE besides their
 * status: the domain's bounds are blocks' bounds (as GNU splits its
 * blocks at them), and a block of status st is one within the domain.
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

bool map_next_block(const struct map *m, uint64_t pos, int st, bool backwards,
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

/* A block boundary at pos.  Returns 0, or -1 (ENOMEM). */
static int split(struct map *m, uint64_t pos)
{
	size_t i;

	if (pos >= map_end(m) || m->start[i = find(m, pos)] == pos)
		return 0;
	if (room(m, 1))
		return -1;
	memmove(m->start + i + 2, m->start + i + 1, (m->count - i) * sizeof(*m->start));
	memmove(m->status + i + 1, m->status + i, m->count - i);
	m->start[i + 1] = pos;
	m->count++;
	return 0;
}

int map_exclude(struct map *m, uint64_t a, uint64_t b)
{
	size_t i;

	if (a >= b || a >= map_end(m))
		return 0;
	if (split(m, a) || split(m, b))
		return -1;
	for (i = find(m, a); i < m->count && m->start[i] < b; i++)
		m->status[i] |= ST_OUTSIDE;
	return 0;
}

void map_recolor(struct map *m, int from, int to)
{
	size_t i;

	for (i = 0; i < m->count; i++)
		if (m->status[i] == from)
			m->status[i] = (unsigned char)to;
}

uint64_t map_total(const struct map *m, int st, uint64_t lo, uint64_t hi, size_t *blocks)
{
	uint64_t sum = 0, s, e;

	*blocks = 0;
	while (lo < hi && map_next_block(m, lo, st, false, &s, &e) && s < hi) {
		sum += min_u64(e, hi) - (s > lo ? s : lo);
		++*blocks;
		lo = e;
	}
	return sum;
}
