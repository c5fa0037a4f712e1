/*
 * fuzz_parse_size.c - parse_size() and parse_size_zero_x_count() on
 * arbitrary strings, with properties that must hold for every input:
 *   - the result lies in [min, max] and the classification agrees with
 *     an unbounded parse of the same string;
 *   - a string of decimal digits alone is what strtoull says it is;
 *   - "AxB" is the product of "A" and "B" when both are plain factors
 *     (digits and suffix letters) and the product does not overflow;
 *   - parse_size_zero_x_count never reads past the string.
 */
#include <errno.h>
#include <string.h>

#include "libbb.h"
#include "fuzz.h"

static int plain_factor(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || strchr("cwbkKMGTPEZYRQBDi", *s)))
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *x;
	uint64_t min = 0, max = UINT64_MAX, v = 0, all = 0;
	enum parse_size_result r, r_all;

	if (size > 4096)
		return 0;
	/* The first two bytes pick the bounds; the rest is the string. */
	if (size >= 2) {
		min = data[0] & 1;
		max = data[1] & 1 ? UINT64_MAX : (data[1] & 2 ? INT64_MAX - 1 : (uint64_t)INT64_MAX);
		data += 2;
		size -= 2;
	}
	s = fuzz_string(data, size);

	r = parse_size(s, dd_size_suffixes, min, max, &v);
	r_all = parse_size(s, dd_size_suffixes, 0, UINT64_MAX, &all);
	(void)parse_size_zero_x_count(s);

	FUZZ_CHECK(r >= PARSE_SIZE_OK && r <= PARSE_SIZE_TOO_SMALL);
	if (r == PARSE_SIZE_OK) {
		FUZZ_CHECK(v >= min && v <= max);
		FUZZ_CHECK(r_all == PARSE_SIZE_OK && all == v);
	}
	if (r_all == PARSE_SIZE_INVALID)
		FUZZ_CHECK(r == PARSE_SIZE_INVALID);
	if (r_all == PARSE_SIZE_OK) {
		if (all > max)
			FUZZ_CHECK(r == PARSE_SIZE_OVERFLOW);
		else if (all < min)
			FUZZ_CHECK(r == PARSE_SIZE_TOO_SMALL);
		else
			FUZZ_CHECK(r == PARSE_SIZE_OK);
	}

	/* Pure digits: strtoull's value, or overflow past 2^64. */
	if (size && strspn(s, "0123456789") == size) {
		unsigned long long ref;

		errno = 0;
		ref = strtoull(s, NULL, 10);
		if (errno == ERANGE)
			FUZZ_CHECK(r_all == PARSE_SIZE_OVERFLOW);
		else
			FUZZ_CHECK(r_all == PARSE_SIZE_OK && all == ref);
	}

	/* One 'x' between two plain factors: the product. */
	x = strchr(s, 'x');
	if (x && !strchr(x + 1, 'x')) {
		uint64_t a, b, ab;

		*x = '\0';
		if (plain_factor(s) && plain_factor(x + 1)
		    && parse_size(s, dd_size_suffixes, 0, UINT64_MAX, &a) == PARSE_SIZE_OK
		    && parse_size(x + 1, dd_size_suffixes, 0, UINT64_MAX, &b) == PARSE_SIZE_OK
		    && !__builtin_mul_overflow(a, b, &ab))
			FUZZ_CHECK(r_all == PARSE_SIZE_OK && all == ab);
	}
	free(s);
	return 0;
}
