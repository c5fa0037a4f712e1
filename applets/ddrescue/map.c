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

static uint64_t *start;
static unsigned char *status;
static size_t count, capacity;

int map_init(size_t max_blocks)
{
	unsigned char *p;

	free_mapped(start);
	start = NULL;
	p = try_malloc((max_blocks + 1) * (sizeof(*start) + 1));
	if (!p)
		return -1;
	start = (uint64_t *)(void *)p;
	status = p + (max_blocks + 1) * sizeof(*start);
	capacity = max_blocks;
	count = 0;
	start[0] = 0;
	return 0;
}

size_t map_count(void) { return count; }
uint64_t map_end(void) { return start[count]; }

void map_block(size_t i, uint64_t *pos, uint64_t *size, int *st)
{
	*pos = start[i];
	*size = start[i + 1] - start[i];
	*st = status[i];
}

int map_append(uint64_t size, int st)
{
	if (!size)
		return 0;
	if (count && status[count - 1] == st) {
		start[count] += size;
		return 0;
	}
	if (count == capacity)
		return -1;
	status[count] = (unsigned char)st;
	start[count + 1] = start[count] + size;
	count++;
	return 0;
}

/* The block holding pos (pos < end). */
static size_t find(uint64_t pos)
{
	size_t lo = 0, hi = count;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (start[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int map_set(uint64_t a, uint64_t b, int st)
{
	uint64_t new_start[3];
	unsigned char new_status[3];
	size_t first, last, n = 0, old;
	int before;

	if (b > map_end())
		b = map_end();
	if (a >= b)
		return 0;
	first = find(a);
	last = find(b - 1);
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
	if (count - old + n > capacity)
		return -1;
	memmove(start + first + n, start + last + 1, (count - last) * sizeof(*start));
	memmove(status + first + n, status + last + 1, count - last - 1);
	memcpy(start + first, new_start, n * sizeof(*start));
	memcpy(status + first, new_status, n);
	count = count - old + n;
	return 0;
}

bool map_search(uint64_t lo, uint64_t hi, int st, bool backwards,
		uint64_t *s, uint64_t *e)
{
	size_t i;

	if (hi > map_end())
		hi = map_end();
	if (lo >= hi)
		return false;
	for (i = find(backwards ? hi - 1 : lo); status[i] != st; i += backwards ? -1 : 1) {
		/* the block just looked at was the last one within [lo, hi) */
		if (backwards ? start[i] <= lo : start[i + 1] >= hi)
			return false;
	}
	*s = start[i] > lo ? start[i] : lo;
	*e = min_u64(start[i + 1], hi);
	return true;
}

int map_status_at(uint64_t pos)
{
	return pos < map_end() ? status[find(pos)] : ST_FINISHED;
}

uint64_t map_total(uint64_t a, uint64_t b, int st, size_t *blocks)
{
	uint64_t sum = 0;
	size_t i;

	*blocks = 0;
	if (a >= b || a >= map_end())
		return 0;
	for (i = find(a); i < count && start[i] < b; i++) {
		if (status[i] != st)
			continue;
		sum += min_u64(start[i + 1], b) - (start[i] > a ? start[i] : a);
		++*blocks;
	}
	return sum;
}
