/*
 * parse_number.c - zerobox's one number parser, in the spellings its
 * applets take (enum number_mode in libbb.h):
 *
 *   NUMBER_DD       GNU dd 9.11: products "AxBx...", each factor
 *                   [blanks][+]DIGITS[suffix][B] (parse_size.c has the
 *                   rules in full);
 *   NUMBER_COUNT    GNU's xstrtoumax (head -c, cmp -n, truncate -s): one
 *                   such factor, without the extra "B" ("2B", "1bB");
 *   NUMBER_XZ       xz's options (xzcat -M): NUMBER_COUNT's factor, but
 *                   decimal only, and a letter of the table alone or
 *                   with "i", "iB" or "B" is 1024^power, no other
 *                   ending (the caller refuses a sign or no digits);
 *   NUMBER_OFFSET   diffutils' offsets (cmp -i, -n): strtoumax's C
 *                   integer constant (decimal, 0x hex, 0 octal), then an
 *                   xstrtoumax suffix, without the extra "B";
 *   NUMBER_RESCUE   GNU ddrescue's options: a C++ integer constant
 *                   (decimal, 0x hex, 0 octal), then k M G T P E Z Y
 *                   (1000^n) or Ki Mi ... Yi (1024^n), then "s" (times
 *                   the sector size) or "B";
 *   NUMBER_INTEGER  a C++ integer constant alone (ddrescue's mapfile).
 *
 * scan_number reads one factor and stops at the first character it
 * does not take; parse_number_in judges a whole string.  Every step is
 * overflow-checked; a numeral that overflows saturates at UINT64_MAX so
 * that a product can still see a zero factor after it, as GNU dd does.
 */
#include <string.h>

#include "libbb.h"

bool bb_is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

unsigned digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (unsigned)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (unsigned)(c - 'A' + 10);
	return 99;
}

/* v times base^power; true if that overflows (v is then garbage). */
static bool scale(uint64_t *v, unsigned base, unsigned power)
{
	bool ovf = false;

	while (power--)
		ovf |= __builtin_mul_overflow(*v, base, v);
	return ovf;
}

/* A dd or xstrtoumax suffix at *sp: a letter of the table; a letter with
 * a power takes "iB" (1024^power, also the default) or "B"/"D"
 * (1000^power); in xz's spelling "i", "iB" or "B", all 1024^power.
 * Returns false if *sp holds no letter of the table. */
static bool table_suffix(const char **sp, const struct size_suffix *t, bool xz,
			 uint64_t *v, bool *ovf)
{
	const char *s = *sp;
	unsigned base = 1024;

	/* (the table's end never matches the string's) */
	for (; t->letter != *s || !*s; t++)
		if (!t->letter)
			return false;
	s++;
	if (!t->power) {
		*ovf |= __builtin_mul_overflow(*v, t->multiplier, v);
	} else {
		if (xz) {
			s += *s == 'i';
			s += *s == 'B';
		} else if (s[0] == 'i' && s[1] == 'B') {
			s += 2;
		} else if (*s == 'B' || *s == 'D') {
			base = 1000;
			s++;
		}
		*ovf |= scale(v, base, t->power);
	}
	*sp = s;
	return true;
}

/* GNU ddrescue's multipliers at *sp: "k" or "Ki", "M" or "Mi" and so on,
 * then "s" (sectors) or "B", each part optional.  Returns false for a
 * spelling GNU ddrescue refuses ("K", "ki", "s" with no sector size). */
static bool rescue_suffix(const char **sp, uint64_t sector, uint64_t *v, bool *ovf)
{
	static const char letters[] = "kKMGTPEZY";
	const char *s = *sp, *l = *s ? strchr(letters, *s) : NULL;

	if (l) {
		bool binary = s[1] == 'i';

		/* k is 1000 only, K 1024 only (as "Ki") */
		if (*s == 'k' ? binary : *s == 'K' && !binary)
			return false;
		*ovf |= scale(v, binary ? 1024 : 1000, l == letters ? 1 : (unsigned)(l - letters));
		s += 1 + binary;
	}
	if (*s == 's') {
		if (!sector)
			return false;
		*ovf |= __builtin_mul_overflow(*v, sector, v);
		s++;
	} else if (*s == 'B') {
		s++;
	}
	*sp = s;
	return true;
}

enum parse_size_result scan_number(const char **sp, const struct number_syntax *syn,
				   uint64_t *result)
{
	const char *s = *sp, *digits;
	bool c_bases = syn->mode >= NUMBER_OFFSET, ovf = false;
	unsigned base = 10, d;
	uint64_t v = 0;

	/* ddrescue's spellings cost nothing in a build without it */
	if (!ENABLE_DDRESCUE && syn->mode >= NUMBER_RESCUE)
		return PARSE_SIZE_INVALID;
	if (syn->mode != NUMBER_INTEGER) {
		while (bb_is_space(*s))
			s++;
		if (*s == '-')
			return PARSE_SIZE_INVALID;
		if (*s == '+')
			s++;
	}
	if (c_bases && *s == '0') {
		base = 8;
		if ((s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16) {
			base = 16;
			s += 2;
		}
	}
	for (digits = s; (d = digit_value(*s)) < base; s++)
		ovf |= __builtin_mul_overflow(v, base, &v) ||
		       __builtin_add_overflow(v, d, &v);
	if (s == digits) {
		/* dd and xstrtoumax: a suffix letter alone means 1 of it,
		 * but not after blanks or a sign */
		if (c_bases)
			return PARSE_SIZE_INVALID;
		s = *sp;
		v = 1;
	}
	if (syn->mode == NUMBER_RESCUE) {
		if (!rescue_suffix(&s, syn->sector, &v, &ovf))
			return PARSE_SIZE_INVALID;
	} else if (syn->mode != NUMBER_INTEGER &&
		   !table_suffix(&s, syn->suffixes, syn->mode == NUMBER_XZ, &v, &ovf) && s == *sp) {
		return PARSE_SIZE_INVALID;
	}
	/* dd's one more B, as in "2B" and "1bB" (not "1BB", "1kBB") */
	if (syn->mode <= NUMBER_COUNT && *s == 'B' && s[-1] != 'B')
		s++;
	*sp = s;
	*result = ovf ? UINT64_MAX : v;
	return ovf ? PARSE_SIZE_OVERFLOW : PARSE_SIZE_OK;
}

/* xstrtoumax takes no "x" products and no extra "B" after a digit, a
 * "B" or "D", or a plain multiplier ("2B", "1KDB", "1bB"). */
static bool count_spelling_refused(const char *str, const struct size_suffix *t)
{
	size_t n = strlen(str);
	char c;

	if (strchr(str, 'x'))
		return true;
	if (n < 2 || str[n - 1] != 'B')
		return false;
	c = str[n - 2];
	if (c == 'B' || c == 'D' || (c >= '0' && c <= '9'))
		return true;
	for (; t->letter; t++)
		if (t->letter == c && !t->power)
			return true;
	return false;
}

enum parse_size_result parse_number_in(const char *str, const struct number_syntax *syn,
				       uint64_t min, uint64_t max, uint64_t *result)
{
	const char *p = str;
	uint64_t product = 1, value;
	bool overflow = false, zero = false;

	if (syn->mode == NUMBER_COUNT && count_spelling_refused(str, syn->suffixes))
		return PARSE_SIZE_INVALID;
	for (;;) {
		enum parse_size_result r = scan_number(&p, syn, &value);
		bool more = syn->mode == NUMBER_DD && *p == 'x';

		if (r == PARSE_SIZE_INVALID)
			return r;
		/* GNU quirk kept: garbage after a value already past
		 * INT64_MAX is an overflow, not an invalid number */
		if (*p && !more) {
			if (value <= INT64_MAX)
				return PARSE_SIZE_INVALID;
			r = PARSE_SIZE_OVERFLOW;
		}
		/* a zero factor zeroes even a product that overflowed */
		if (value == 0)
			zero = true;
		else if (r == PARSE_SIZE_OVERFLOW ||
			 __builtin_mul_overflow(product, value, &product))
			overflow = true;
		if (!more)
			break;
		p++;
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

enum parse_size_result parse_number(const char *str,
				    const struct size_suffix *suffixes,
				    uint64_t max, uint64_t *result)
{
	const struct number_syntax count = { suffixes, 0, NUMBER_COUNT };

	return parse_number_in(str, &count, 0, max, result);
}
