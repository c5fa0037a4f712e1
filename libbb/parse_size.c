/*
 * parse_size.c - GNU dd's number syntax: NUMBER_DD of the one number
 * parser (parse_number.c), its suffix table and its warnings.
 *
 * A number is a product of factors "N[suffix]x N[suffix]x ...".  Each
 * factor is read the way GNU coreutils 9.11 reads it (xstrtoumax plus
 * dd's own rules):
 *
 *   - leading white space and one '+' are accepted, a '-' is not;
 *   - decimal digits only ("010" is ten; no "0x", no "1.5");
 *   - the digits may be left out when a suffix letter starts the factor
 *     ("K" is 1024), but not before a bare "B";
 *   - a suffix letter from the table; a letter with a power takes an
 *     optional "iB" (1024^power, the default) or "B"/"D" (1000^power);
 *   - then one more "B" is allowed unless the previous character was a
 *     'B' ("2B" = 2, "1bB" = 512, "1KDB" = 1000, but not "1BB", "1kBB").
 *
 * The product is computed in constant stack, left to right.  A factor of
 * zero makes the whole product zero, even past a factor that overflowed
 * ("0x99999999999999999999" is 0, as in GNU).  Otherwise any overflow, in
 * a numeral, a suffix or a multiplication, gives PARSE_SIZE_OVERFLOW.
 * GNU quirk kept: a factor followed by garbage is invalid, unless its
 * value already exceeds INT64_MAX, which GNU reports as an overflow
 * ("99999999999999999999q": "Value too large for defined data type").
 */
#include <errno.h>

#include "libbb.h"

const struct size_suffix dd_size_suffixes[] = {
	{ 'c', 0, 1 },
	{ 'w', 0, 2 },
	{ 'b', 0, 512 },
	{ 'k', 1, 0 },
	{ 'K', 1, 0 },
	{ 'M', 2, 0 },
	{ 'G', 3, 0 },
	{ 'T', 4, 0 },
	{ 'P', 5, 0 },
	{ 'E', 6, 0 },
	{ 'Z', 7, 0 },
	{ 'Y', 8, 0 },
	{ 'R', 9, 0 },
	{ 'Q', 10, 0 },
	{ 0, 0, 0 }
};

enum parse_size_result parse_size(const char *str,
				  const struct size_suffix *suffixes,
				  uint64_t min, uint64_t max, uint64_t *result)
{
	const struct number_syntax dd = { suffixes, 0, NUMBER_DD };

	return parse_number_in(str, &dd, min, max, result);
}

unsigned parse_size_zero_x_count(const char *str)
{
	unsigned n = 0;
	const char *p = str;

	for (;;) {
		if (p[0] == '0' && p[1] == 'x')
			n++;
		while (*p && *p != 'x')
			p++;
		if (!*p++)
			return n;
	}
}

uint64_t xparse_size(const char *str, const struct size_suffix *suffixes,
		     uint64_t min, uint64_t max)
{
	uint64_t n = 0;
	enum parse_size_result r = parse_size(str, suffixes, min, max, &n);
	unsigned zeros;

	/* GNU warns while parsing, before judging the range. */
	if (r != PARSE_SIZE_INVALID)
		for (zeros = parse_size_zero_x_count(str); zeros; zeros--)
			bb_error_msg("warning: '0x' is a zero multiplier;"
				     " use '00x' if that is intended");
	if (r == PARSE_SIZE_OK)
		return n;
	bb_errno_msg_and_die(r == PARSE_SIZE_OVERFLOW ? EOVERFLOW : 0,
			     "invalid number: %s", quote_escaped(str));
}
