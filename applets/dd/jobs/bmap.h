/*
 * bmap.h - bmap=FILE (FEATURE_DD_BMAP): the parser of bmaptool's block
 * map files (bmapfile.c) and the mover that writes only the mapped
 * ranges (bmap.c).
 *
 * The parser is pushed bytes in pieces of any size and keeps no more
 * than one element's text: memory does not grow with the map.  A map
 * is read twice: once whole before the output is opened (every check,
 * the file's own checksum), and once during the copy, range by range.
 */
#ifndef ZEROBOX_DD_BMAP_H
#define ZEROBOX_DD_BMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "libbb.h"

enum bmap_checksum_type {
	BMAP_CHECKSUM_NONE,     /* format 1.0 to 1.2 */
	BMAP_CHECKSUM_SHA1,     /* format 1.3 */
	BMAP_CHECKSUM_SHA256,   /* format 1.4 and 2.x: ChecksumType */
};

enum { BMAP_DIGEST_MAX = SHA256_DIGEST_SIZE };

struct bmap_header {
	unsigned version_major, version_minor;
	uint64_t image_size;
	uint64_t block_size;
	uint64_t blocks_count;
	uint64_t mapped_blocks;
	enum bmap_checksum_type checksum_type;
	size_t digest_size;     /* of checksum_type; 0 for none */
	uint64_t mapped_bytes;  /* the bytes the ranges cover (at BMAP_DONE) */
};

/* One <Range>: blocks first to last, both included. */
struct bmap_range {
	uint64_t first, last;
	bool has_checksum;
	unsigned char checksum[BMAP_DIGEST_MAX];
};

enum bmap_step {
	BMAP_MORE,      /* all bytes taken: feed the next ones */
	BMAP_RANGE,     /* a range is complete (bmap_parser.range) */
	BMAP_DONE,      /* bmap_parse_end: the map is whole and checks out */
	BMAP_ERROR,     /* bmap_parser.error says what, at .line */
};

/* The parser's state; its fields are bmapfile.c's, except header and
 * range (read them after BMAP_RANGE or BMAP_DONE) and error/line. */
struct bmap_parser {
	struct bmap_header header;
	struct bmap_range range;
	const char *error;
	uint64_t line;

	/* The lexer. */
	int state;
	char quote;
	unsigned depth;
	char names[8][24];              /* open elements, for their end tags */
	size_t name_len;
	bool name_truncated;
	int element;                    /* the innermost known element */
	int skip_depth;                 /* inside an unknown element: its depth */
	char attr_name[16];
	size_t attr_name_len;
	char value[136];                /* an attribute's or element's text */
	size_t value_len;
	bool value_overflow;
	int markup_step;                /* progress through "--", "-->", "?>" */
	/* What has been seen. */
	unsigned seen;
	bool root_done;
	bool have_range;
	uint64_t prev_last;
	uint64_t mapped_sum;
	/* The file's own checksum: both hashes run, the version picks. */
	bool zero_text;                 /* inside the checksum element */
	unsigned char file_checksum[BMAP_DIGEST_MAX];
	size_t file_checksum_size;
	struct sha_ctx sha1;
	struct sha_ctx sha256;
	/* The range being built. */
	bool range_has_checksum;
	unsigned char range_checksum[BMAP_DIGEST_MAX];
};

void bmap_parse_init(struct bmap_parser *p);
/* Take bytes from data[0..len): stops after a whole range (BMAP_RANGE)
 * or at the first error; *used says how many were taken. */
enum bmap_step bmap_parse(struct bmap_parser *p, const unsigned char *data,
			  size_t len, size_t *used);
/* The input has ended: BMAP_DONE if the map is whole, consistent, and
 * its own checksum matches (the same answer if asked again). */
enum bmap_step bmap_parse_end(struct bmap_parser *p);

/* The bytes of the image a range covers (the image's last block may be
 * short). */
uint64_t bmap_range_offset(const struct bmap_header *h, const struct bmap_range *r);
uint64_t bmap_range_length(const struct bmap_header *h, const struct bmap_range *r);

#endif
