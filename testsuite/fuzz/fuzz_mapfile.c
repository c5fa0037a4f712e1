/*
 * fuzz_mapfile.c - the ddrescue mapfile parser on arbitrary text, fed in
 * two pieces split where the first byte says, with a block list small
 * enough that its bound is reached.  For every input:
 *   - the parse ends in success or in an error with a line number, and
 *     the same input fed whole gives the same answer and the same map;
 *   - a map that parsed is contiguous from 0, its blocks have valid
 *     statuses, and no two neighbours share one.
 * map.c and mapfile.c are compiled in as they are.
 */
#include <string.h>

#include "../../applets/ddrescue/map.c"
#include "../../applets/ddrescue/mapfile.c"
#include "fuzz.h"

enum { FUZZ_BLOCKS = 64 };

static int parse(const char *text, size_t n, size_t split, struct mapfile_parser *p)
{
	FUZZ_CHECK(map_init(FUZZ_BLOCKS) == 0);
	mapfile_parse_begin(p);
	if (mapfile_parse_feed(p, text, split))
		return -1;
	if (mapfile_parse_feed(p, text + split, n - split))
		return -1;
	return mapfile_parse_end(p);
}

struct block {
	uint64_t pos, len;
	int st;
};

/* The block list as it stands: its blocks into b, their count back. */
static size_t snapshot(struct block b[FUZZ_BLOCKS])
{
	size_t n = map_count();

	FUZZ_CHECK(n <= FUZZ_BLOCKS);   /* map_init bounds it: b holds it */
	for (size_t i = 0; i < n; i++)
		map_block(i, &b[i].pos, &b[i].len, &b[i].st);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct block first[FUZZ_BLOCKS], again[FUZZ_BLOCKS];
	struct mapfile_parser a, b;
	size_t split, i, n;
	uint64_t end = 0;
	int ra, rb;

	if (size < 1 || size > 1 << 16)
		return 0;
	split = data[0] % size;
	data++;
	size--;
	if (split > size)
		split = size;
	ra = parse((const char *)data, size, split, &a);
	n = snapshot(first);
	for (i = 0; ra == 0 && i < n; i++) {
		FUZZ_CHECK(first[i].pos == end);
		FUZZ_CHECK(first[i].len > 0);
		FUZZ_CHECK(strchr("?*/-+", first[i].st) != NULL);
		FUZZ_CHECK(i == 0 || first[i].st != first[i - 1].st);
		end = first[i].pos + first[i].len;
	}
	if (ra == 0)
		FUZZ_CHECK(end == map_end());
	else
		FUZZ_CHECK(a.error != NULL && a.lineno > 0);
	rb = parse((const char *)data, size, size, &b);
	FUZZ_CHECK(ra == rb);
	FUZZ_CHECK(a.lineno == b.lineno);
	FUZZ_CHECK(snapshot(again) == n);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(again[i].pos == first[i].pos && again[i].st == first[i].st);
	return 0;
}
