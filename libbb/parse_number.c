/*
 * parse_number.c - one count with a suffix, as GNU's xstrtoumax reads it
 * (head -c, cmp -n, truncate -s): dd's grammar (parse_size.c) without
 * its extras, the "x" products and the trailing "B" after a digit or a
 * plain multiplier ("2B", "1bB").
 */
#include <string.h>

#include "libbb.h"

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

enum parse_size_result parse_number(const char *str,
				    const struct size_suffix *suffixes,
				    uint64_t max, uint64_t *result)
{
	size_t n = strlen(str);

	if (strchr(str, 'x'))
		return PARSE_SIZE_INVALID;
	if (n >= 2 && str[n - 1] == 'B') {
		char c = str[n - 2];
		const struct size_suffix *s;

		if (c == 'B' || c == 'D' || (c >= '0' && c <= '9'))
			return PARSE_SIZE_INVALID;
		for (s = suffixes; s->letter; s++)
			if (s->letter == c && !s->power)
				return PARSE_SIZE_INVALID;
	}
	return parse_size(str, suffixes, 0, max, result);
}
