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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t first_pos[FUZZ_BLOCKS];
	static int first_st[FUZZ_BLOCKS];
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
	n = map_count();
	for (i = 0; i < n; i++) {
		uint64_t pos, len;
		int st;

		map_block(i, &pos, &len, &st);
		first_pos[i] = pos;
		first_st[i] = st;
		if (ra == 0) {
			FUZZ_CHECK(pos == end);
			FUZZ_CHECK(len > 0);
			FUZZ_CHECK(strchr("?*/-+", st) != NULL);
			FUZZ_CHECK(i == 0 || st != first_st[i - 1]);
			end = pos + len;
		}
	}
	if (ra == 0)
		FUZZ_CHECK(end == map_end());
	else
		FUZZ_CHECK(a.error != NULL && a.lineno > 0);
	rb = parse((const char *)data, size, size, &b);
	FUZZ_CHECK(ra == rb);
	FUZZ_CHECK(a.lineno == b.lineno);
	FUZZ_CHECK(map_count() == n);
	for (i = 0; i < n; i++) {
		uint64_t pos, len;
		int st;

		map_block(i, &pos, &len, &st);
		FUZZ_CHECK(pos == first_pos[i] && st == first_st[i]);
	}
	return 0;
}
