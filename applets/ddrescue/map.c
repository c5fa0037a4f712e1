/*
 * map.c - the block list of a rescue: contiguous blocks, each with one
 * status, from 0 to the end of the map.  Block i covers
 * [start[i], start[i + 1]); start[count] is the end.  Both arrays live
 * in one mapping reserved up front, so memory stays bounded whatever
 * the disk does; a change that would need more blocks is refused.
 */
#include <string.h>

#include "libbb.h"
#include "ddrescue.h"

int map_init(struct map *m, size_t max_blocks)
{
	unsigned char *p = try_malloc((max_blocks + 1) * (sizeof(*m->start) + 1));

	memset(m, 0, sizeof(*m));
	if (!p)
		return -1;
	m->start = (uint64_t *)(void *)p;
	m->status = p + (max_blocks + 1) * sizeof(*m->start);
	m->capacity = max_blocks;
	m->start[0] = 0;
	return 0;
}

void map_free(struct map *m)
{
	free_mapped(m->start);
	memset(m, 0, sizeof(*m));
}

uint64_t map_end(const struct map *m)
{
	return m->start[m->count];
}

void map_block(const struct map *m, size_t i, uint64_t *pos, uint64_t *size, int *st)
{
	*pos = m->start[i];
	*size = m->start[i + 1] - m->start[i];
	*st = m->status[i];
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
	if (n == m->capacity)
		return -1;
	m->status[n] = (unsigned char)st;
	m->start[n + 1] = m->start[n] + size;
	m->count = n + 1;
	return 0;
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
	uint64_t new_start[3], *start = m->start;
	unsigned char new_status[3], *status = m->status;
	size_t first, last, n = 0, old, count = m->count;
	int before;

	if (b > map_end(m))
		b = map_end(m);
	if (a >= b)
		return 0;
	first = find(m, a);
	last = find(m, b - 1);
	/* The blocks first..last become: what is left of first before a,
	 * [a, b), what is left of last after b; a piece with the status of
	 * the one before it (the block before first, for the first piece)
	 * merges into it, and so does the block after last. */
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
	if (last + 1 < count && status[last + 1] == before)
		last++;
	old = last - first + 1;
	if (count - old + n > m->capacity)
		return -1;
	memmove(start + first + n, start + last + 1, (count - last) * sizeof(*start));
	memmove(status + first + n, status + last + 1, count - last - 1);
	memcpy(start + first, new_start, n * sizeof(*start));
	memcpy(status + first, new_status, n);
	m->count = count - old + n;
	return 0;
}

bool map_search(const struct map *m, uint64_t lo, uint64_t hi, int st,
		bool backwards, uint64_t *s, uint64_t *e)
{
	size_t i;

	if (hi > map_end(m))
		hi = map_end(m);
	if (lo >= hi)
		return false;
	for (i = find(m, backwards ? hi - 1 : lo); m->status[i] != st;
	     i += backwards ? -1 : 1) {
		/* the block just looked at was the last one within [lo, hi) */
		if (backwards ? m->start[i] <= lo : m->start[i + 1] >= hi)
			return false;
	}
	*s = m->start[i] > lo ? m->start[i] : lo;
	*e = min_u64(m->start[i + 1], hi);
	return true;
}

int map_status_at(const struct map *m, uint64_t pos)
{
	return pos < map_end(m) ? m->status[find(m, pos)] : ST_FINISHED;
}

uint64_t map_total(const struct map *m, uint64_t a, uint64_t b, int st, size_t *blocks)
{
	uint64_t sum = 0;
	size_t i;

	*blocks = 0;
	if (a >= b || a >= map_end(m))
		return 0;
	for (i = find(m, a); i < m->count && m->start[i] < b; i++) {
		if (m->status[i] != st)
			continue;
		sum += min_u64(m->start[i + 1], b) - (m->start[i] > a ? m->start[i] : a);
		++*blocks;
	}
	return sum;
}
