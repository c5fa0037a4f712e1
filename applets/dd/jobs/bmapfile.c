/*
 * bmapfile.c - a streaming parser of bmaptool's block map files,
 * formats 1.0 to 2.x (FEATURE_DD_BMAP).
 *
 * A bmap is a small XML document:
 *   <bmap version="2.0">
 *     <ImageSize>, <BlockSize>, <BlocksCount>, <MappedBlocksCount>,
 *     <ChecksumType> (1.4 and 2.x), <BmapFileChecksum> (1.4 and 2.x) or
 *     <BmapFileSHA1> (1.3),
 *     <BlockMap> <Range chksum="HEX"> FIRST-LAST </Range> ... </BlockMap>
 *   </bmap>
 * Format 1.3 names the range checksum attribute "sha1"; 1.0 to 1.2 have
 * no checksums.  The file's own checksum is that of the whole file with
 * the checksum's digits replaced by ASCII zeros.
 *
 * The lexer reads one byte at a time and keeps only the open elements'
 * names (for their end tags) and one element's text, so memory does not
 * depend on the map's size.  It knows what a bmap needs: elements,
 * attributes in either quote, comments and processing instructions;
 * other markup (DOCTYPE, CDATA) is refused.  Unknown elements are
 * skipped whole, so a later minor version can add some.  Stricter than
 * bmaptool where streaming needs it: the header comes before BlockMap,
 * and ranges are in ascending order without overlap.
 */
#include <string.h>

#include "bmap.h"

enum lex_state {
	LEX_TEXT,          /* between tags */
	LEX_LT,            /* after '<' */
	LEX_BANG,          /* after "<!": must be "<!--" */
	LEX_COMMENT,       /* inside <!-- --> */
	LEX_PI,            /* inside <? ?> */
	LEX_START_NAME,    /* an element's name */
	LEX_IN_TAG,        /* between attributes */
	LEX_ATTR_NAME,
	LEX_ATTR_EQ,       /* after an attribute's name: '=' comes */
	LEX_ATTR_QUOTE,    /* after '=': the opening quote comes */
	LEX_ATTR_VALUE,
	LEX_EMPTY_CLOSE,   /* after '/' in a start tag: '>' comes */
	LEX_END_NAME,      /* the name in </name> */
	LEX_END_SPACE,     /* after it: '>' comes */
};

enum element {
	EL_UNKNOWN,
	EL_ROOT,
	EL_IMAGE_SIZE,
	EL_BLOCK_SIZE,
	EL_BLOCKS_COUNT,
	EL_MAPPED_COUNT,
	EL_CHECKSUM_TYPE,
	EL_FILE_CHECKSUM,
	EL_BLOCK_MAP,
	EL_RANGE,
};

#define SEEN(el) (1u << (el))

static const char *const header_names[] = {
	[EL_IMAGE_SIZE] = "ImageSize",
	[EL_BLOCK_SIZE] = "BlockSize",
	[EL_BLOCKS_COUNT] = "BlocksCount",
	[EL_MAPPED_COUNT] = "MappedBlocksCount",
	[EL_CHECKSUM_TYPE] = "ChecksumType",
	[EL_BLOCK_MAP] = "BlockMap",
};

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		|| (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'
		|| c == ':' || c >= 0x80;
}

/* Formats 1.4 and 2.x name the checksum type and the attribute "chksum"
 * (1.4 is 2.0 under an earlier number); 1.3 has SHA-1 only. */
static bool names_checksum_type(const struct bmap_header *h)
{
	return h->version_major > 1 || h->version_minor >= 4;
}

static bool has_checksums(const struct bmap_header *h)
{
	return h->version_major > 1 || h->version_minor >= 3;
}

/* Any fault of the XML itself: the line number says where. */
static const char NOT_XML[] = "not well-formed XML";
/* A version attribute missing or not a number. */
static const char NO_VERSION[] = "the bmap element has no version MAJOR.MINOR";

static enum bmap_step fail(struct bmap_parser *p, const char *why)
{
	p->error = why;
	return BMAP_ERROR;
}

void bmap_parse_init(struct bmap_parser *p)
{
	memset(p, 0, sizeof(*p));
	p->line = 1;
	p->state = LEX_TEXT;
	sha1_init(&p->sha1);
	sha256_init(&p->sha256);
}

/* The text with blanks at both ends left out. */
static void trimmed(const struct bmap_parser *p, const char **s, size_t *len)
{
	const char *b = p->value, *e = p->value + p->value_len;

	while (b < e && is_space((unsigned char)*b))
		b++;
	while (e > b && is_space((unsigned char)e[-1]))
		e--;
	*s = b;
	*len = (size_t)(e - b);
}

/* Decimal digits only, at least one, within 64 bits. */
static bool parse_decimal(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* Exactly 2 * size hex digits into out. */
static bool parse_hex(const char *s, size_t len, unsigned char *out, size_t size)
{
	if (len != 2 * size)
		return false;
	for (size_t i = 0; i < size; i++) {
		unsigned hi = digit_value(s[2 * i]);
		unsigned lo = digit_value(s[2 * i + 1]);

		if (hi >= 16 || lo >= 16)
			return false;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return true;
}

/* version="MAJOR.MINOR" */
static enum bmap_step take_version(struct bmap_parser *p)
{
	const char *s, *dot;
	size_t len;
	uint64_t major, minor;

	trimmed(p, &s, &len);
	dot = memchr(s, '.', len);
	if (!dot || !parse_decimal(s, (size_t)(dot - s), &major)
	    || !parse_decimal(dot + 1, len - (size_t)(dot - s) - 1, &minor)
	    || major == 0)
		return fail(p, NO_VERSION);
	if (major > 2)
		return fail(p, "format versions above 2.x are not supported");
	p->header.version_major = (unsigned)major;
	p->header.version_minor = minor > 1000 ? 1000 : (unsigned)minor;
	if (!names_checksum_type(&p->header) && has_checksums(&p->header)) {
		p->header.checksum_type = BMAP_CHECKSUM_SHA1;
		p->header.digest_size = SHA1_DIGEST_SIZE;
	}
	return BMAP_MORE;
}

static enum bmap_step take_attribute(struct bmap_parser *p)
{
	const char *want;
	const char *s;
	size_t len;

	if (p->skip_depth)
		return BMAP_MORE;
	if (p->value_overflow)
		return fail(p, "a value is too long");
	if (p->element == EL_ROOT && p->attr_name_len == 7
	    && memcmp(p->attr_name, "version", 7) == 0)
		return take_version(p);
	if (p->element != EL_RANGE || !has_checksums(&p->header))
		return BMAP_MORE;
	want = names_checksum_type(&p->header) ? "chksum" : "sha1";
	if (p->attr_name_len != strlen(want)
	    || memcmp(p->attr_name, want, p->attr_name_len) != 0)
		return BMAP_MORE;
	trimmed(p, &s, &len);
	if (!parse_hex(s, len, p->range_checksum, p->header.digest_size))
		return fail(p, "a range checksum is not a digest of its type");
	p->range_has_checksum = true;
	return BMAP_MORE;
}

/* Which element a start tag opens, at the current depth (before it). */
static int identify(const struct bmap_parser *p)
{
	const char *name = p->names[p->depth];

	if (p->name_truncated)
		return EL_UNKNOWN;
	if (p->depth == 1) {
		for (int el = EL_IMAGE_SIZE; el <= EL_BLOCK_MAP; el++)
			if (header_names[el] && strcmp(name, header_names[el]) == 0)
				return el == EL_CHECKSUM_TYPE
					&& !names_checksum_type(&p->header)
					? EL_UNKNOWN : el;
		if (strcmp(name, names_checksum_type(&p->header)
			   ? "BmapFileChecksum" : "BmapFileSHA1") == 0
		    && has_checksums(&p->header))
			return EL_FILE_CHECKSUM;
		return EL_UNKNOWN;
	}
	if (p->depth == 2 && p->element == EL_BLOCK_MAP
	    && strcmp(name, "Range") == 0)
		return EL_RANGE;
	return EL_UNKNOWN;
}

/* The header is complete and consistent: ranges can be checked. */
static enum bmap_step check_header(struct bmap_parser *p)
{
	struct bmap_header *h = &p->header;
	unsigned need = SEEN(EL_IMAGE_SIZE) | SEEN(EL_BLOCK_SIZE)
		| SEEN(EL_BLOCKS_COUNT) | SEEN(EL_MAPPED_COUNT);

	if (names_checksum_type(h))
		need |= SEEN(EL_CHECKSUM_TYPE);
	if ((p->seen & need) != need)
		return fail(p, "the header is incomplete");
	if (h->block_size == 0)
		return fail(p, "BlockSize is 0");
	if (h->image_size > INT64_MAX
	    || h->blocks_count != h->image_size / h->block_size
			       + (h->image_size % h->block_size != 0))
		return fail(p, "BlocksCount does not match ImageSize and BlockSize");
	return BMAP_MORE;
}

static enum bmap_step start_element(struct bmap_parser *p)
{
	int el;

	if (p->depth >= ARRAY_SIZE(p->names))
		return fail(p, "elements nested too deeply");
	if (p->skip_depth) {
		p->depth++;
		return BMAP_MORE;
	}
	if (p->depth == 0) {
		if (p->root_done || strcmp(p->names[0], "bmap") != 0)
			return fail(p, "not a bmap file (no <bmap> element)");
		el = EL_ROOT;
	} else if (p->element != EL_ROOT && p->element != EL_BLOCK_MAP) {
		return fail(p, "an element inside a value");
	} else {
		el = identify(p);
	}
	p->depth++;
	if (el == EL_UNKNOWN) {
		p->skip_depth = (int)p->depth;
		return BMAP_MORE;
	}
	if (el != EL_RANGE && el != EL_ROOT) {
		if (p->seen & SEEN(el))
			return fail(p, "an element of the header is given twice");
		p->seen |= SEEN(el);
	}
	p->element = el;
	p->value_len = 0;
	p->value_overflow = false;
	p->range_has_checksum = false;
	return BMAP_MORE;
}

/* After the start tag's attributes. */
static enum bmap_step start_tag_done(struct bmap_parser *p)
{
	if (p->skip_depth)
		return BMAP_MORE;
	if (p->element == EL_ROOT && p->header.version_major == 0)
		return fail(p, NO_VERSION);
	if (p->element == EL_BLOCK_MAP)
		return check_header(p);
	p->value_len = 0;
	p->value_overflow = false;
	return BMAP_MORE;
}

static enum bmap_step take_range(struct bmap_parser *p, const char *s, size_t len)
{
	struct bmap_range *r = &p->range;
	const char *dash = memchr(s, '-', len);
	size_t first_len = dash ? (size_t)(dash - s) : len;
	const char *last_s = dash ? dash + 1 : s;
	size_t last_len = dash ? len - first_len - 1 : len;

	while (first_len && is_space((unsigned char)s[first_len - 1]))
		first_len--;
	while (last_len && is_space((unsigned char)*last_s)) {
		last_s++;
		last_len--;
	}
	if (!parse_decimal(s, first_len, &r->first)
	    || !parse_decimal(last_s, last_len, &r->last))
		return fail(p, "a range is not FIRST or FIRST-LAST");
	if (r->first > r->last)
		return fail(p, "a range ends before it begins");
	if (r->last >= p->header.blocks_count)
		return fail(p, "a range goes past the image");
	if (p->have_range && r->first <= p->prev_last)
		return fail(p, "ranges are not in ascending order");
	p->have_range = true;
	p->prev_last = r->last;
	p->mapped_sum += r->last - r->first + 1;
	r->has_checksum = p->range_has_checksum;
	memcpy(r->checksum, p->range_checksum, sizeof(r->checksum));
	return BMAP_RANGE;
}

/* A known element's end: its text is its value. */
static enum bmap_step take_value(struct bmap_parser *p, int el)
{
	struct bmap_header *h = &p->header;
	const char *s;
	size_t len;
	uint64_t *number = NULL;

	if (el == EL_ROOT) {
		p->root_done = true;
		return BMAP_MORE;
	}
	if (el == EL_BLOCK_MAP)
		return BMAP_MORE;
	if (p->value_overflow)
		return fail(p, "a value is too long");
	trimmed(p, &s, &len);
	switch (el) {
	case EL_IMAGE_SIZE:
		number = &h->image_size;
		break;
	case EL_BLOCK_SIZE:
		number = &h->block_size;
		break;
	case EL_BLOCKS_COUNT:
		number = &h->blocks_count;
		break;
	case EL_MAPPED_COUNT:
		number = &h->mapped_blocks;
		break;
	case EL_CHECKSUM_TYPE:
		if (len == 6 && memcmp(s, "sha256", 6) == 0) {
			h->checksum_type = BMAP_CHECKSUM_SHA256;
			h->digest_size = SHA256_DIGEST_SIZE;
		} else if (len == 4 && memcmp(s, "sha1", 4) == 0) {
			h->checksum_type = BMAP_CHECKSUM_SHA1;
			h->digest_size = SHA1_DIGEST_SIZE;
		} else {
			return fail(p, "the checksum type is neither sha256 nor sha1");
		}
		return BMAP_MORE;
	case EL_FILE_CHECKSUM:
		/* Its type may come later: the size is checked at the end. */
		if (len / 2 > sizeof(p->file_checksum)
		    || !parse_hex(s, len, p->file_checksum, len / 2))
			return fail(p, "the bmap file's checksum is not a digest of its type");
		p->file_checksum_size = len / 2;
		return BMAP_MORE;
	case EL_RANGE:
		return take_range(p, s, len);
	}
	if (!parse_decimal(s, len, number))
		return fail(p, "a header value is not a decimal number");
	return BMAP_MORE;
}

static enum bmap_step end_element(struct bmap_parser *p)
{
	int el;

	if (p->depth == 0)
		return fail(p, NOT_XML);
	p->depth--;
	if (strcmp(p->names[p->depth], p->names[ARRAY_SIZE(p->names) - 1]) != 0)
		return fail(p, NOT_XML);
	if (p->skip_depth) {
		if ((int)p->depth + 1 == p->skip_depth)
			p->skip_depth = 0;
		return BMAP_MORE;
	}
	el = p->element;
	p->element = p->depth == 0 ? EL_UNKNOWN
		: p->depth == 1 ? EL_ROOT : EL_BLOCK_MAP;
	return take_value(p, el);
}

/* Append a byte to the open element's name (slot: where it goes). */
static void name_byte(struct bmap_parser *p, char *slot, unsigned char c)
{
	if (p->name_len + 1 < sizeof(p->names[0]))
		slot[p->name_len++] = (char)c;
	else
		p->name_truncated = true;
	slot[p->name_len] = '\0';
}

static void value_byte(struct bmap_parser *p, unsigned char c)
{
	if (p->value_len < sizeof(p->value))
		p->value[p->value_len++] = (char)c;
	else
		p->value_overflow = true;
}

/* The text of a known value element is kept; elsewhere only blanks may
 * stand outside the root. */
static enum bmap_step text_byte(struct bmap_parser *p, unsigned char c)
{
	if (p->depth == 0) {
		if (!is_space(c))
			return fail(p, "text outside the bmap element");
		return BMAP_MORE;
	}
	if (!p->skip_depth && p->element != EL_ROOT && p->element != EL_BLOCK_MAP)
		value_byte(p, c);
	return BMAP_MORE;
}

/* One byte through the lexer. */
/* The lexer inside "<?", "<!" and comments, and just after a '<'. */
static enum bmap_step lex_markup(struct bmap_parser *p, unsigned char c)
{
	switch ((enum lex_state)p->state) {
	case LEX_LT:
		p->name_len = 0;
		p->name_truncated = false;
		if (c == '?') {
			p->state = LEX_PI;
			p->markup_step = 0;
		} else if (c == '!') {
			p->state = LEX_BANG;
			p->markup_step = 0;
		} else if (c == '/') {
			p->state = LEX_END_NAME;
			p->names[ARRAY_SIZE(p->names) - 1][0] = '\0';   /* the end tag's slot */
		} else if (is_name_char(c) && c != '-' && c != '.') {
			if (p->depth >= ARRAY_SIZE(p->names) - 1)
				return fail(p, "elements nested too deeply");
			p->state = LEX_START_NAME;
			name_byte(p, p->names[p->depth], c);
		} else {
			return fail(p, NOT_XML);
		}
		return BMAP_MORE;
	case LEX_BANG:
		if (c != '-')
			return fail(p, "markup other than comments (DOCTYPE, CDATA)");
		if (++p->markup_step == 2) {
			p->state = LEX_COMMENT;
			p->markup_step = 0;
		}
		return BMAP_MORE;
	case LEX_COMMENT:
		/* Ends at "-->": count the dashes before a '>'. */
		if (c == '-')
			p->markup_step++;
		else if (c == '>' && p->markup_step >= 2)
			p->state = LEX_TEXT;
		else
			p->markup_step = 0;
		return BMAP_MORE;
	case LEX_PI:
		if (c == '>' && p->markup_step)
			p->state = LEX_TEXT;
		p->markup_step = c == '?';
		return BMAP_MORE;
	default:
		return fail(p, NOT_XML);
	}
}

/* The lexer in a start tag: its name, its attributes. */
static enum bmap_step lex_start_tag(struct bmap_parser *p, unsigned char c)
{
	switch ((enum lex_state)p->state) {
	case LEX_START_NAME:
		if (is_name_char(c)) {
			name_byte(p, p->names[p->depth], c);
			return BMAP_MORE;
		}
		if (is_space(c)) {
			p->state = LEX_IN_TAG;
			return start_element(p);
		}
		if (c == '>' || c == '/') {
			enum bmap_step step = start_element(p);

			if (step != BMAP_MORE)
				return step;
			p->state = c == '>' ? LEX_TEXT : LEX_EMPTY_CLOSE;
			return start_tag_done(p);
		}
		return fail(p, NOT_XML);
	case LEX_IN_TAG:
		if (is_space(c))
			return BMAP_MORE;
		if (c == '>' || c == '/') {
			p->state = c == '>' ? LEX_TEXT : LEX_EMPTY_CLOSE;
			return start_tag_done(p);
		}
		if (!is_name_char(c))
			return fail(p, NOT_XML);
		p->state = LEX_ATTR_NAME;
		p->attr_name_len = 0;
		/* fall through */
	case LEX_ATTR_NAME:
		if (is_name_char(c)) {
			if (p->attr_name_len < sizeof(p->attr_name))
				p->attr_name[p->attr_name_len++] = (char)c;
			else
				p->attr_name_len = sizeof(p->attr_name) + 1;
			return BMAP_MORE;
		}
		p->state = LEX_ATTR_EQ;
		/* fall through */
	case LEX_ATTR_EQ:
		if (is_space(c))
			return BMAP_MORE;
		if (c != '=')
			return fail(p, NOT_XML);
		p->state = LEX_ATTR_QUOTE;
		return BMAP_MORE;
	case LEX_ATTR_QUOTE:
		if (is_space(c))
			return BMAP_MORE;
		if (c != '"' && c != '\'')
			return fail(p, NOT_XML);
		p->quote = (char)c;
		p->value_len = 0;
		p->value_overflow = false;
		p->state = LEX_ATTR_VALUE;
		return BMAP_MORE;
	case LEX_ATTR_VALUE:
		if (c == (unsigned char)p->quote) {
			p->state = LEX_IN_TAG;
			return take_attribute(p);
		}
		if (c == '<')
			return fail(p, NOT_XML);
		value_byte(p, c);
		return BMAP_MORE;
	default:
		return fail(p, NOT_XML);
	}
}

/* The lexer in an end tag, or after the '/' of an empty element. */
static enum bmap_step lex_end_tag(struct bmap_parser *p, unsigned char c)
{
	/* The end-tag name goes to the spare last slot. */
	char *end_slot = p->names[ARRAY_SIZE(p->names) - 1];

	switch ((enum lex_state)p->state) {
	case LEX_EMPTY_CLOSE:
		if (c != '>')
			return fail(p, NOT_XML);
		p->state = LEX_TEXT;
		/* <x/> is <x></x>: its end tag's name is its own. */
		memcpy(end_slot, p->names[p->depth - 1], sizeof(p->names[0]));
		return end_element(p);
	case LEX_END_NAME:
		if (is_name_char(c)) {
			name_byte(p, end_slot, c);
			return BMAP_MORE;
		}
		p->state = LEX_END_SPACE;
		/* fall through */
	case LEX_END_SPACE:
		if (is_space(c))
			return BMAP_MORE;
		if (c != '>')
			return fail(p, NOT_XML);
		p->state = LEX_TEXT;
		return end_element(p);
	default:
		return fail(p, NOT_XML);
	}
}

/* One byte of the map's text, by the lexer's state. */
static enum bmap_step lex(struct bmap_parser *p, unsigned char c)
{
	switch ((enum lex_state)p->state) {
	case LEX_TEXT:
		if (c == '<') {
			p->state = LEX_LT;
			return BMAP_MORE;
		}
		return text_byte(p, c);
	case LEX_LT:
	case LEX_BANG:
	case LEX_COMMENT:
	case LEX_PI:
		return lex_markup(p, c);
	case LEX_EMPTY_CLOSE:
	case LEX_END_NAME:
	case LEX_END_SPACE:
		return lex_end_tag(p, c);
	default:
		return lex_start_tag(p, c);
	}
}

static void hash(struct bmap_parser *p, const void *data, size_t len)
{
	sha_update(&p->sha1, data, len);
	sha_update(&p->sha256, data, len);
}

/* Inside the file's own checksum, whose digits hash as zeros? */
static bool zeroed_byte(const struct bmap_parser *p, unsigned char c)
{
	return p->state == LEX_TEXT && !p->skip_depth
		&& p->element == EL_FILE_CHECKSUM && p->depth == 2
		&& c != '<' && !is_space(c);
}

enum bmap_step bmap_parse(struct bmap_parser *p, const unsigned char *data,
			  size_t len, size_t *used)
{
	size_t i, hashed = 0;
	enum bmap_step step = BMAP_MORE;

	if (p->error)
		return BMAP_ERROR;
	for (i = 0; i < len && step == BMAP_MORE; i++) {
		unsigned char c = data[i];

		if (zeroed_byte(p, c)) {
			hash(p, data + hashed, i - hashed);
			hash(p, "0", 1);
			hashed = i + 1;
		}
		if (c == '\n')
			p->line++;
		step = lex(p, c);
	}
	hash(p, data + hashed, i - hashed);
	*used = i;
	return step;
}

enum bmap_step bmap_parse_end(struct bmap_parser *p)
{
	struct bmap_header *h = &p->header;
	unsigned char digest[BMAP_DIGEST_MAX];
	struct sha_ctx file;

	if (p->error)
		return BMAP_ERROR;
	if (!p->root_done || p->state != LEX_TEXT)
		return fail(p, "the bmap file ends too soon");
	if (!(p->seen & SEEN(EL_BLOCK_MAP)))
		return fail(p, "no BlockMap");
	if (p->mapped_sum != h->mapped_blocks)
		return fail(p, "the ranges do not add up to MappedBlocksCount");
	h->mapped_bytes = p->mapped_sum * h->block_size;
	if (p->have_range && p->prev_last == h->blocks_count - 1)
		h->mapped_bytes -= h->blocks_count * h->block_size - h->image_size;
	if (h->checksum_type == BMAP_CHECKSUM_NONE)
		return BMAP_DONE;
	if (!(p->seen & SEEN(EL_FILE_CHECKSUM)))
		return fail(p, "the bmap file has no checksum");
	if (p->file_checksum_size != h->digest_size)
		return fail(p, "the bmap file's checksum is not a digest of its type");
	/* Finished in a copy: the end can be met again. */
	file = h->checksum_type == BMAP_CHECKSUM_SHA1 ? p->sha1 : p->sha256;
	sha_final(&file, digest);
	if (memcmp(digest, p->file_checksum, h->digest_size) != 0)
		return fail(p, "the bmap file's checksum does not match");
	return BMAP_DONE;
}

uint64_t bmap_range_offset(const struct bmap_header *h, const struct bmap_range *r)
{
	return r->first * h->block_size;
}

uint64_t bmap_range_length(const struct bmap_header *h, const struct bmap_range *r)
{
	uint64_t end = (r->last + 1) * h->block_size;

	return min_u64(end, h->image_size) - r->first * h->block_size;
}
