/*
 * fuzz_mapfile.c - the ddrescue mapfile parser on arbitrary text, fed in
 * two pieces split where the first byte says.  For every input:
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

/* The map of a parse: the one handed over, or the parser's after an
 * error. */
static int parse(const char *text, size_t n, size_t split, struct mapfile_parser *p,
		 struct map *map)
{
	int r = -1;

	FUZZ_CHECK(mapfile_parse_begin(p) == 0);
	if (!mapfile_parse_feed(p, text, split) &&
	    !mapfile_parse_feed(p, text + split, n - split))
		r = mapfile_parse_end(p, map);
	if (r)
		*map = p->map;
	return r;
}

static bool same_map(const struct map *a, const struct map *b)
{
	return a->count == b->count && map_end(a) == map_end(b) &&
	       !memcmp(a->start, b->start, a->count * sizeof(*a->start)) &&
	       !memcmp(a->status, b->status, a->count);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mapfile_parser a, b;
	struct map first, again;
	size_t split, i;
	uint64_t end = 0;
	int ra, rb;

	if (size < 1 || size > 1 << 16)
		return 0;
	split = data[0] % size;
	data++;
	size--;
	if (split > size)
		split = size;
	ra = parse((const char *)data, size, split, &a, &first);
	for (i = 0; ra == 0 && i < first.count; i++) {
		FUZZ_CHECK(first.start[i] == end);
		FUZZ_CHECK(first.start[i + 1] > end);
		FUZZ_CHECK(strchr("?*/-+", first.status[i]) != NULL);
		FUZZ_CHECK(i == 0 || first.status[i] != first.status[i - 1]);
		end = first.start[i + 1];
	}
	if (ra == 0)
		FUZZ_CHECK(end == map_end(&first));
	else
		FUZZ_CHECK(a.error != NULL && a.lineno > 0);
	rb = parse((const char *)data, size, size, &b, &again);
	FUZZ_CHECK(ra == rb);
	FUZZ_CHECK(a.lineno == b.lineno);
	FUZZ_CHECK(same_map(&first, &again));
	map_free(&first);
	map_free(&again);
	return 0;
}
