/*
 * fuzz_bmapfile.c - the bmap parser (applets/dd/jobs/bmapfile.c) on arbitrary
 * bytes, with properties that must hold for every input:
 *   - it never crashes, reads out of bounds or stops taking bytes;
 *   - every range it gives lies inside the image, after the one before;
 *   - a map it accepts adds up: the ranges make MappedBlocksCount and
 *     mapped_bytes never exceeds ImageSize;
 *   - the pieces the bytes come in change nothing (the first input byte
 *     picks a piece size; the answer must equal the one of a single
 *     piece).
 */
#include <string.h>

#include "libbb.h"
#include "bmap.h"
#include "fuzz.h"

struct outcome {
	enum bmap_step end;
	uint64_t ranges, blocks;
	struct bmap_header header;
};

static struct outcome run(const uint8_t *data, size_t size, size_t piece)
{
	struct bmap_parser p;
	struct outcome o = { 0 };
	size_t at = 0;
	bool have = false;
	uint64_t prev = 0;

	bmap_parse_init(&p);
	while (at < size) {
		size_t n = size - at < piece ? size - at : piece, used = 0;
		enum bmap_step s = bmap_parse(&p, data + at, n, &used);

		FUZZ_CHECK(used <= n);
		FUZZ_CHECK(used > 0 || s == BMAP_ERROR);
		at += used;
		if (s == BMAP_ERROR) {
			FUZZ_CHECK(p.error != NULL);
			o.end = BMAP_ERROR;
			return o;
		}
		if (s == BMAP_RANGE) {
			FUZZ_CHECK(p.range.first <= p.range.last);
			FUZZ_CHECK(p.range.last < p.header.blocks_count);
			FUZZ_CHECK(!have || p.range.first > prev);
			FUZZ_CHECK(bmap_range_length(&p.header, &p.range) > 0);
			FUZZ_CHECK(bmap_range_offset(&p.header, &p.range)
				   < p.header.image_size);
			have = true;
			prev = p.range.last;
			o.ranges++;
			o.blocks += p.range.last - p.range.first + 1;
		}
	}
	o.end = bmap_parse_end(&p);
	o.header = p.header;
	if (o.end == BMAP_DONE) {
		FUZZ_CHECK(o.blocks == p.header.mapped_blocks);
		FUZZ_CHECK(p.header.mapped_bytes <= p.header.image_size);
	} else {
		FUZZ_CHECK(o.end == BMAP_ERROR && p.error != NULL);
	}
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct outcome whole, pieces;
	size_t piece;

	if (size < 1 || size > 65536)
		return 0;
	piece = (size_t)data[0] % 64 + 1;
	data++;
	size--;
	whole = run(data, size, size ? size : 1);
	pieces = run(data, size, piece);
	FUZZ_CHECK(whole.end == pieces.end);
	FUZZ_CHECK(whole.ranges == pieces.ranges && whole.blocks == pieces.blocks);
	if (whole.end == BMAP_DONE)
		FUZZ_CHECK(memcmp(&whole.header, &pieces.header, sizeof(whole.header)) == 0);
	return 0;
}
