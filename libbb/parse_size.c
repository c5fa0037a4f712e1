/*
 * parse_size.c - GNU dd's number syntax, checked at every step.
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
#include <stdlib.h>

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

bool bb_is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const struct size_suffix *find_suffix(const struct size_suffix *t,
					     char c)
{
	for (; t->letter; t++)
		if (t->letter == c)
			return t;
	return NULL;
}

enum parse_size_result parse_size(const char *str,
				  const struct size_suffix *suffixes,
				  uint64_t min, uint64_t max, uint64_t *result)
{
	const char *p = str;
	uint64_t product = 1;
	int overflow = 0, zero = 0;

	for (;;) {
		const char *factor = p, *s = p;
		const struct size_suffix *suf;
		uint64_t value = 1;
		int ovf = 0;

		while (bb_is_space(*s))
			s++;
		if (*s == '-')
			return PARSE_SIZE_INVALID;
		if (*s == '+')
			s++;
		if (is_digit(*s)) {
			for (value = 0; is_digit(*s); s++) {
				if (__builtin_mul_overflow(value, 10, &value))
					ovf = 1;
				if (__builtin_add_overflow(value,
						(unsigned)(*s - '0'), &value))
					ovf = 1;
			}
		} else {
			s = factor;
		}
		/* No digits (s is still at the factor): a suffix letter alone
		 * means 1 of it.  The table's end never matches a '\0'. */
		suf = find_suffix(suffixes, *s);
		if (!suf && s == factor)
			return PARSE_SIZE_INVALID;
		if (suf) {
			s++;
			if (suf->power) {
				unsigned base = 1024, i;
				if (s[0] == 'i' && s[1] == 'B') {
					s += 2;
				} else if (*s == 'B' || *s == 'D') {
					base = 1000;
					s++;
				}
				for (i = 0; i < suf->power; i++)
					ovf |= __builtin_mul_overflow(value, base,
								      &value);
			} else {
				ovf |= __builtin_mul_overflow(value,
						suf->multiplier, &value);
			}
		}
		/* Zero stays zero; an overflow saturates, as strtoumax and GNU's
		 * scaling do (so that the garbage rule below sees it). */
		if (ovf)
			value = UINT64_MAX;
		if (*s == 'B' && s[-1] != 'B')
			s++;

		if (*s && *s != 'x') {
			if (value <= INT64_MAX)     /* so never after ovf */
				return PARSE_SIZE_INVALID;
			ovf = 1;        /* GNU 9.11 quirk, see above */
		}
		if (value == 0)
			zero = 1;
		else if (ovf || __builtin_mul_overflow(product, value, &product))
			overflow = 1;
		if (*s != 'x')
			break;
		p = s + 1;
	}

	if (zero)
		product = 0;
	else if (overflow)
		return PARSE_SIZE_OVERFLOW;
	if (product > max)
		return PARSE_SIZE_OVERFLOW;
	if (product < min)
		return PARSE_SIZE_TOO_SMALL;
	*result = product;
	return PARSE_SIZE_OK;
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
