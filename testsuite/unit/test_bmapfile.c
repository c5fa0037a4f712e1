/*
 * test_bmapfile.c - the bmap parser (applets/dd/jobs/bmapfile.c): the
 * formats 1.0, 1.3 and 2.0, the file's own checksum with its digits
 * taken as zeros, the same answers whatever the pieces the bytes come
 * in, and a refusal, never a crash, for every broken map: each prefix
 * of a good one, a flipped byte, inconsistent headers and ranges.
 * dd_bmap.tests checks maps that bmaptool itself made.
 */
#include <stdio.h>
#include <string.h>

#include "libbb.h"
#include "../../applets/dd/jobs/bmap.h"
#include "unit.h"
#include "sha_hex.h"

static char doc[8192];

/* The map's text: @SUM@ stands for the file checksum, which is filled
 * in as bmaptool computes it (the digest with the digits as zeros). */
static const char *make_bmap(const char *text, enum bmap_checksum_type type)
{
	char *at;
	size_t hexlen = type == BMAP_CHECKSUM_SHA1 ? 40 : 64;
	char h1[2 * SHA1_DIGEST_SIZE + 1], h256[2 * SHA256_DIGEST_SIZE + 1];

	snprintf(doc, sizeof(doc), "%s", text);
	at = strstr(doc, "@SUM@");
	if (!at)
		return doc;
	memmove(at + hexlen, at + 5, strlen(at + 5) + 1);
	memset(at, '0', hexlen);
	sha_hex(doc, strlen(doc), 0, h1, h256);
	memcpy(at, type == BMAP_CHECKSUM_SHA1 ? h1 : h256, hexlen);
	return doc;
}

struct result {
	enum bmap_step end;
	const char *error;
	unsigned ranges;
	uint64_t firsts, lasts;   /* sums, to compare runs */
	uint64_t first_last;      /* the last range's last block */
	bool all_checksums;
	struct bmap_header header;
};

/* Parse text in pieces of `piece` bytes (0: all at once). */
static struct result parse(const char *text, size_t len, size_t piece)
{
	struct bmap_parser p;
	struct result r = { .all_checksums = true };
	size_t at = 0;

	bmap_parse_init(&p);
	while (at < len) {
		size_t n = piece ? min_u64(piece, len - at) : len - at, used;
		enum bmap_step s = bmap_parse(&p, (const unsigned char *)text + at, n, &used);

		at += used;
		if (s == BMAP_ERROR) {
			r.end = BMAP_ERROR;
			r.error = p.error;
			return r;
		}
		if (s == BMAP_RANGE) {
			r.ranges++;
			r.firsts += p.range.first;
			r.lasts += p.range.last;
			r.first_last = p.range.last;
			r.all_checksums &= p.range.has_checksum;
		}
	}
	r.end = bmap_parse_end(&p);
	r.error = p.error;
	r.header = p.header;
	return r;
}

static struct result parse_str(const char *text)
{
	return parse(text, strlen(text), 0);
}

#define HEAD20(image, bs, blocks, mapped) \
	"<?xml version=\"1.0\" ?>\n<!-- a <comment> with -- dashes -->\n" \
	"<bmap version=\"2.0\">\n" \
	"  <ImageSize> " image " </ImageSize>\n" \
	"  <BlockSize> " bs " </BlockSize>\n" \
	"  <BlocksCount> " blocks " </BlocksCount>\n" \
	"  <MappedBlocksCount> " mapped " </MappedBlocksCount>\n" \
	"  <ChecksumType> sha256 </ChecksumType>\n" \
	"  <BmapFileChecksum> @SUM@ </BmapFileChecksum>\n"

#define SUM64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define SUM40 "0123456789abcdef0123456789abcdef01234567"

static const char good20[] = HEAD20("40000", "4096", "10", "5")
	"  <BlockMap>\n"
	"    <Range chksum=\"" SUM64 "\"> 1 </Range>\n"
	"    <Range chksum='" SUM64 "'> 3 - 5 </Range>\n"
	"    <Range chksum=\"" SUM64 "\">9</Range>\n"
	"  </BlockMap>\n"
	"</bmap>\n";

static const char good13[] =
	"<bmap version=\"1.3\">\n"
	"<ImageSize>8192</ImageSize><BlockSize>4096</BlockSize>\n"
	"<BlocksCount>2</BlocksCount><MappedBlocksCount>2</MappedBlocksCount>\n"
	"<BmapFileSHA1>@SUM@</BmapFileSHA1>\n"
	"<BlockMap><Range sha1=\"" SUM40 "\">0-1</Range></BlockMap>\n"
	"</bmap>\n";

static const char good10[] =
	"<bmap version=\"1.0\">\n"
	"<ImageSize>8192</ImageSize><BlockSize>4096</BlockSize>\n"
	"<BlocksCount>2</BlocksCount><MappedBlocksCount>1</MappedBlocksCount>\n"
	"<BlockMap><Range>1</Range></BlockMap>\n"
	"</bmap>\n";

static void expect_error(const char *name, const char *text, const char *want)
{
	struct result r = parse_str(text);

	if (r.end != BMAP_ERROR)
		unit_fail("%s: accepted", name);
	else if (want && (!r.error || !strstr(r.error, want)))
		unit_fail("%s: said '%s', want '%s'", name, r.error ? r.error : "", want);
}

/* good20 with one piece replaced (the checksum fixed up again). */
static const char *variant(const char *from, const char *to)
{
	static char text[8192];
	char *at;

	snprintf(text, sizeof(text), "%s", good20);
	at = strstr(text, from);
	if (!at)
		return "(variant not found)";
	memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
	memcpy(at, to, strlen(to));
	return make_bmap(text, BMAP_CHECKSUM_SHA256);
}

/* good20 broken in one place (variant's from, to) and a word of the
 * error it must give. */
static const struct broken {
	const char *name, *from, *to, *want;
} broken[] = {
	{ "version 3", "\"2.0\"", "\"3.0\"", "above 2.x" },
	{ "no version", " version=\"2.0\"", "", "no version" },
	{ "bad version", "\"2.0\"", "\"two\"", "no version MAJOR.MINOR" },
	{ "descending", "> 3 - 5 <", "> 0 <", "ascending" },
	{ "overlapping", ">9<", ">5<", "ascending" },
	{ "past the end", ">9<", ">10<", "past the image" },
	{ "backwards", "> 3 - 5 <", "> 5 - 3 <", "ends before" },
	{ "mapped count", "> 5 </Mapped", "> 6 </Mapped", "MappedBlocksCount" },
	{ "blocks count", "> 10 </Blocks", "> 11 </Blocks",
	  "BlocksCount does not match" },
	{ "block size 0", "> 4096 <", "> 0 <", "BlockSize is 0" },
	{ "not a number", "> 40000 <", "> 4e4 <", "decimal" },
	{ "too big", "> 40000 <", "> 99999999999999999999 <", "decimal" },
	{ "duplicate", "  <BlockMap>", "<BlockSize>1</BlockSize><BlockMap>", "twice" },
	{ "header after BlockMap", "  <ChecksumType> sha256 </ChecksumType>\n", "",
	  "header is incomplete" },
	{ "checksum type", "> sha256 <", "> md5 <", "neither" },
	{ "range checksum", "'" SUM64 "'", "'abc'", "range checksum" },
	{ "range text", "> 1 <", "> 1-2-3 <", "FIRST" },
	{ "mismatched end tag", "</BlockMap>", "</BlockMop>", "well-formed" },
	{ "attribute without quotes", "version=\"2.0\"", "version=2.0", "well-formed" },
	{ "doctype", "<bmap", "<!DOCTYPE x><bmap", "DOCTYPE" },
	{ "another root", "<bmap version", "<map version", "no <bmap>" },
	{ "text outside", "</bmap>\n", "</bmap>\ntrailing", "outside" },
	{ "element in a value", "> 4096 <", "> <b/>4096 <", "inside a value" },
	{ "nested deep", "  <BlockMap>", "<a><b><c><d><e><f><g><h>", "nested" },
};

/* The formats that parse: 2.0 whole and in pieces, 1.3, 1.0, 1.4, and
 * elements the parser does not know. */
static void test_good_maps(void)
{
	struct result r, whole;
	char copy[8192];
	size_t len;

	unit_begin("bmap 2.0: header, ranges, the file checksum");
	r = parse_str(make_bmap(good20, BMAP_CHECKSUM_SHA256));
	CHECK(r.end == BMAP_DONE);
	CHECK_U64(r.ranges, 3);
	CHECK_U64(r.firsts, 1 + 3 + 9);
	CHECK_U64(r.lasts, 1 + 5 + 9);
	CHECK(r.all_checksums);
	CHECK_U64(r.header.version_major, 2);
	CHECK_U64(r.header.image_size, 40000);
	CHECK_U64(r.header.block_size, 4096);
	CHECK_U64(r.header.blocks_count, 10);
	CHECK(r.header.checksum_type == BMAP_CHECKSUM_SHA256);
	/* The last block holds 40000 - 9 * 4096 = 3136 bytes. */
	CHECK_U64(r.header.mapped_bytes, 4 * 4096 + 3136);
	unit_end();

	unit_begin("bmap 2.0: any pieces, even a byte at a time, parse the same");
	make_bmap(good20, BMAP_CHECKSUM_SHA256);
	len = strlen(doc);
	whole = parse(doc, len, 0);
	for (size_t piece = 1; piece < 80; piece++) {
		r = parse(doc, len, piece);
		if (r.end != whole.end || r.ranges != whole.ranges
		    || r.firsts != whole.firsts || r.lasts != whole.lasts)
			unit_fail("piece %zu differs", piece);
	}
	unit_end();

	unit_begin("bmap 1.3 (SHA-1, BmapFileSHA1, sha1=) and 1.0 (no checksums)");
	r = parse_str(make_bmap(good13, BMAP_CHECKSUM_SHA1));
	CHECK(r.end == BMAP_DONE);
	CHECK(r.header.checksum_type == BMAP_CHECKSUM_SHA1);
	CHECK_U64(r.ranges, 1);
	CHECK(r.all_checksums);
	CHECK_U64(r.header.mapped_bytes, 8192);
	r = parse_str(good10);
	CHECK(r.end == BMAP_DONE);
	CHECK(r.header.checksum_type == BMAP_CHECKSUM_NONE);
	CHECK_U64(r.ranges, 1);
	CHECK(!r.all_checksums);
	/* 1.4 is 2.0 under an earlier number. */
	r = parse_str(variant("version=\"2.0\"", "version=\"1.4\""));
	CHECK(r.end == BMAP_DONE);
	unit_end();

	unit_begin("bmap: unknown elements are skipped; comments count in the checksum");
	r = parse_str(variant("  <BlockMap>", "<Extra a='1'><Deep>x</Deep><Empty/></Extra><BlockMap>"));
	CHECK(r.end == BMAP_DONE);
	CHECK_U64(r.ranges, 3);
	make_bmap(good20, BMAP_CHECKSUM_SHA256);
	snprintf(copy, sizeof(copy), "%s", doc);
	*strstr(copy, "comment>") = 'C';   /* a change the checksum missed */
	expect_error("a changed comment", copy, "checksum does not match");
	unit_end();
}

/* What is refused: checksums that do not match, prefixes, broken
 * headers and ranges, garbage. */
static void test_bad_maps(void)
{
	struct result r;
	char copy[8192];
	size_t len;

	unit_begin("bmap: the file's own checksum");
	make_bmap(good20, BMAP_CHECKSUM_SHA256);
	snprintf(copy, sizeof(copy), "%s", doc);
	/* A range's checksum changed: the file's no longer matches. */
	*strstr(copy, SUM64) ^= 1;
	expect_error("a changed range checksum", copy, "checksum does not match");
	snprintf(copy, sizeof(copy), "%s", doc);
	*(strstr(copy, "<BmapFileChecksum> ") + 19) ^= 1;
	expect_error("a changed file checksum", copy, "checksum does not match");
	expect_error("a short file checksum",
		     variant("@SUM@", "0123"), "checksum");
	expect_error("no file checksum",
		     variant("<BmapFileChecksum> @SUM@ </BmapFileChecksum>", ""),
		     "has no checksum");
	expect_error("a sha1-sized checksum in a sha256 map",
		     variant("<BmapFileChecksum> @SUM@ </BmapFileChecksum>",
			     "<BmapFileChecksum>" SUM40 "</BmapFileChecksum>"),
		     "digest of its type");
	unit_end();

	unit_begin("bmap: every prefix of a good map is refused");
	make_bmap(good20, BMAP_CHECKSUM_SHA256);
	len = strlen(doc);
	for (size_t n = 0; n + 1 < len; n++) {
		r = parse(doc, n, 0);
		if (r.end != BMAP_ERROR)
			unit_fail("prefix of %zu bytes accepted", n);
	}
	unit_end();

	unit_begin("bmap: inconsistent headers and ranges are refused");
	for (size_t i = 0; i < ARRAY_SIZE(broken); i++)
		expect_error(broken[i].name,
			     variant(broken[i].from, broken[i].to),
			     broken[i].want);
	expect_error("garbage", "\x7f" "ELF\x02\x01\x01", NULL);
	expect_error("empty", "", "ends too soon");
	unit_end();
}

int main(void)
{
	test_good_maps();
	test_bad_maps();

	unit_begin("bmap: the image's short last block");
	{
		struct bmap_header h = { .image_size = 40000, .block_size = 4096,
					 .blocks_count = 10 };
		struct bmap_range last = { .first = 8, .last = 9 };
		struct bmap_range one = { .first = 2, .last = 2 };

		CHECK_U64(bmap_range_offset(&h, &last), 8 * 4096);
		CHECK_U64(bmap_range_length(&h, &last), 40000 - 8 * 4096);
		CHECK_U64(bmap_range_length(&h, &one), 4096);
	}
	unit_end();
	return unit_exit_status();
}
