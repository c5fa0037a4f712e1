/*
 * fuzz_mapfile.c - the ddrescue mapfile parser on arbitrary text, fed in
 * two pieces split where the first byte says, with a block list small
 * enough that its bound is reached.  For every input:
 *   - the parse ends in success or in an error with a line number, and
 *     the same input fed whole gives the same answer and the same map;
 *   - a map that parsed is contiguous from 0, its blocks have valid
 *     statuses, and no two neighbours share one.
 * map.c and mapfile.c are linked as built.
 */
#include <string.h>

#include "libbb.h"
#include "../../applets/ddrescue/ddrescue.h"
#include "fuzz.h"

enum { FUZZ_BLOCKS = 64 };

/* The map of a parse: the one handed over, or the parser's after an
 * error. */
static int parse(const char *text, size_t n, size_t split, struct mapfile_parser *p,
		 struct map *map)
{
	int r = -1;

	FUZZ_CHECK(mapfile_parse_begin(p, FUZZ_BLOCKS) == 0);
	if (!mapfile_parse_feed(p, text, split) &&
	    !mapfile_parse_feed(p, text + split, n - split))
		r = mapfile_parse_end(p, map);
	if (r)
		*map = p->map;
	return r;
}

struct block {
	uint64_t pos, len;
	int st;
};

/* The block list: its blocks into b, their count back; the map is
 * freed. */
static size_t snapshot(struct map *map, struct block b[FUZZ_BLOCKS])
{
	size_t n = map->count;

	FUZZ_CHECK(n <= FUZZ_BLOCKS);   /* map_init bounds it: b holds it */
	for (size_t i = 0; i < n; i++)
		map_block(map, i, &b[i].pos, &b[i].len, &b[i].st);
	map_free(map);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct block first[FUZZ_BLOCKS], again[FUZZ_BLOCKS];
	struct mapfile_parser a, b;
	struct map map;
	size_t split, i, n;
	uint64_t end = 0, map_end_a;
	int ra, rb;

	if (size < 1 || size > 1 << 16)
		return 0;
	split = data[0] % size;
	data++;
	size--;
	if (split > size)
		split = size;
	ra = parse((const char *)data, size, split, &a, &map);
	map_end_a = map_end(&map);
	n = snapshot(&map, first);
	for (i = 0; ra == 0 && i < n; i++) {
		FUZZ_CHECK(first[i].pos == end);
		FUZZ_CHECK(first[i].len > 0);
		FUZZ_CHECK(strchr("?*/-+", first[i].st) != NULL);
		FUZZ_CHECK(i == 0 || first[i].st != first[i - 1].st);
		end = first[i].pos + first[i].len;
	}
	if (ra == 0)
		FUZZ_CHECK(end == map_end_a);
	else
		FUZZ_CHECK(a.error != NULL && a.lineno > 0);
	rb = parse((const char *)data, size, size, &b, &map);
	FUZZ_CHECK(ra == rb);
	FUZZ_CHECK(a.lineno == b.lineno);
	FUZZ_CHECK(snapshot(&map, again) == n);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(again[i].pos == first[i].pos && again[i].st == first[i].st);
	return 0;
}
