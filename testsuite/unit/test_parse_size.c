/*
 * test_parse_size.c - the one number parser: GNU dd's number syntax
 * (coreutils 9.11 rules; the expected values were checked against GNU
 * dd 9.1 where 9.1 and 9.11 agree, single factors; products follow
 * 9.11), and the modes GNU ddrescue's options and mapfile take
 * (checked against GNU ddrescue 1.27's -s).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "libbb.h"
#include "unit.h"
#include "unit_child.h"

#define OK PARSE_SIZE_OK
#define INV PARSE_SIZE_INVALID
#define OVF PARSE_SIZE_OVERFLOW
#define SMALL PARSE_SIZE_TOO_SMALL
#define IMAX ((uint64_t)INT64_MAX)
#define K ((uint64_t)1024)
#define KD ((uint64_t)1000)

struct ps_case {
	const char *str;
	enum parse_size_result want;
	uint64_t value;
};

static const char *result_name(enum parse_size_result r)
{
	switch (r) {
	case OK: return "OK";
	case INV: return "INVALID";
	case OVF: return "OVERFLOW";
	case SMALL: return "TOO_SMALL";
	}
	return "?";
}

/* Run cases against [min, max]. */
static void run_cases(const struct ps_case *c, size_t n, uint64_t min,
		      uint64_t max)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 12345;
		enum parse_size_result r =
			parse_size(c[i].str, dd_size_suffixes, min, max, &v);
		if (r != c[i].want)
			unit_fail("'%s': got %s, want %s", c[i].str,
				  result_name(r), result_name(c[i].want));
		else if (r == OK && v != c[i].value)
			unit_fail("'%s': got %" PRIu64 ", want %" PRIu64,
				  c[i].str, v, c[i].value);
		else if (r != OK && v != 12345)
			unit_fail("'%s': result written on failure", c[i].str);
	}
}

static const struct ps_case plain[] = {
	{ "0", OK, 0 },
	{ "1", OK, 1 },
	{ "010", OK, 10 },
	{ " 1", OK, 1 },
	{ "\t\n\v\f\r 7", OK, 7 },
	{ "+1", OK, 1 },
	{ " +1", OK, 1 },
	{ "9223372036854775807", OK, IMAX },
	{ "18446744073709551615", OK, UINT64_MAX },
	{ "00000000000000000000000000000042", OK, 42 },
};

static const struct ps_case suffixes[] = {
	{ "1c", OK, 1 }, { "3w", OK, 6 }, { "2b", OK, 1024 },
	{ "1B", OK, 1 }, { "2B", OK, 2 },
	{ "1bB", OK, 512 }, { "1cB", OK, 1 }, { "1wB", OK, 2 },
	{ "1k", OK, K }, { "1K", OK, K }, { "1kiB", OK, K }, { "1KiB", OK, K },
	{ "1kB", OK, KD }, { "1KB", OK, KD }, { "1kD", OK, KD },
	{ "1KD", OK, KD }, { "1KDB", OK, KD },
	{ "1M", OK, K * K }, { "1MiB", OK, K * K }, { "1MB", OK, KD * KD },
	{ "1MD", OK, KD * KD }, { "1MDB", OK, KD * KD },
	{ "1G", OK, K * K * K }, { "1GiB", OK, K * K * K },
	{ "1GB", OK, KD * KD * KD }, { "1GD", OK, KD * KD * KD },
	{ "1T", OK, K * K * K * K }, { "1TiB", OK, K * K * K * K },
	{ "1TB", OK, KD * KD * KD * KD }, { "1TD", OK, KD * KD * KD * KD },
	{ "1P", OK, K * K * K * K * K }, { "1PiB", OK, K * K * K * K * K },
	{ "1PB", OK, KD * KD * KD * KD * KD },
	{ "1PD", OK, KD * KD * KD * KD * KD },
	{ "1E", OK, K * K * K * K * K * K },
	{ "1EiB", OK, K * K * K * K * K * K },
	{ "1EB", OK, KD * KD * KD * KD * KD * KD },
	{ "1ED", OK, KD * KD * KD * KD * KD * KD },
	{ "7E", OK, 7 * K * K * K * K * K * K },
	{ "9EB", OK, 9 * KD * KD * KD * KD * KD * KD },
	/* a suffix letter alone counts one of it; GNU's xstrtoumax rule */
	{ "K", OK, K }, { "k", OK, K }, { "KB", OK, KD }, { "kB", OK, KD },
	{ "KiB", OK, K }, { "KD", OK, KD }, { "MB", OK, KD * KD },
	{ "b", OK, 512 }, { "c", OK, 1 }, { "w", OK, 2 }, { "bB", OK, 512 },
	{ "cB", OK, 1 },
	/* zero times anything, even a too-large power, is zero */
	{ "0Z", OK, 0 }, { "0Y", OK, 0 }, { "0R", OK, 0 }, { "0Q", OK, 0 },
	{ "0QiB", OK, 0 }, { "0QB", OK, 0 },
};

static const struct ps_case products[] = {
	{ "2x3", OK, 6 },
	{ "1x2x3", OK, 6 },
	{ "2Bx4B", OK, 8 },
	{ "2bx3w", OK, 6144 },
	{ "1x 2", OK, 2 },
	{ "1x+2", OK, 2 },
	{ "1xk", OK, K },
	{ "kx2", OK, 2 * K },
	{ "0x10", OK, 0 },
	{ "00x10", OK, 0 },
	{ "10x0", OK, 0 },
	{ "0x0x1", OK, 0 },
	{ "1KiBx1MB", OK, K * KD * KD },
	{ "4294967296x2147483647", OK, (uint64_t)4294967296 * 2147483647 },
	/* zero wins over overflow, as in GNU 9.11 */
	{ "0x1Z", OK, 0 },
	{ "1Zx0", OK, 0 },
	{ "99999999999999999999x0", OK, 0 },
	{ "0x99999999999999999999", OK, 0 },
	{ "2x0x99999999999999999999", OK, 0 },
	{ "0x99999999999999999999q", OK, 0 },
	/* ... but not over an invalid factor */
	{ "0x1q", INV, 0 },
	{ "0xq", INV, 0 },
	{ "1Zx", INV, 0 },
};

static const struct ps_case invalid[] = {
	{ "", INV, 0 }, { " ", INV, 0 }, { "+", INV, 0 }, { "B", INV, 0 },
	{ "1 ", INV, 0 }, { "1\t", INV, 0 }, { "-0", INV, 0 }, { "-1", INV, 0 },
	{ " -1", INV, 0 }, { "+-1", INV, 0 }, { "++1", INV, 0 },
	{ "1.5", INV, 0 }, { "1e3", INV, 0 }, { "0x", INV, 0 },
	{ "x1", INV, 0 }, { "1x", INV, 0 }, { "1xx1", INV, 0 }, { "x", INV, 0 },
	{ "1x-2", INV, 0 }, { "1BB", INV, 0 }, { "1kb", INV, 0 },
	{ "1Ki", INV, 0 }, { "1iB", INV, 0 }, { "1kBB", INV, 0 },
	{ "1KiBB", INV, 0 }, { "1bD", INV, 0 }, { "1biB", INV, 0 },
	{ "1cD", INV, 0 }, { "1DB", INV, 0 }, { "1m", INV, 0 }, { "1g", INV, 0 },
	{ "1t", INV, 0 }, { "1KiD", INV, 0 }, { "Mi", INV, 0 }, { " k", INV, 0 },
	{ "+k", INV, 0 }, { "5q", INV, 0 }, { "1 x2", INV, 0 },
	{ "8EBq", INV, 0 }, { "1bBq", INV, 0 }, { "1x2x", INV, 0 },
	{ "2Bx4BB", INV, 0 }, { "1x2 ", INV, 0 }, { "1X2", INV, 0 },
	{ "9223372036854775807q", INV, 0 },
};

static const struct ps_case overflow[] = {
	{ "18446744073709551616", OVF, 0 },
	{ "99999999999999999999", OVF, 0 },
	{ "99999999999999999999B", OVF, 0 },
	{ "16E", OVF, 0 },
	{ "1Z", OVF, 0 }, { "1Y", OVF, 0 }, { "1R", OVF, 0 }, { "1Q", OVF, 0 },
	{ "1ZB", OVF, 0 }, { "1ZiB", OVF, 0 }, { "Z", OVF, 0 },
	{ "4294967297x4294967297", OVF, 0 },
	{ "4294967296x4294967296", OVF, 0 },
	{ "2x9223372036854775808", OVF, 0 },
	{ "1x1x1x16E", OVF, 0 },
	{ "16Ex1x1x1", OVF, 0 },
	{ "1Zx1", OVF, 0 },
	{ "2x99999999999999999999", OVF, 0 },
	/* GNU 9.11: garbage after a value past INT64_MAX is an overflow */
	{ "99999999999999999999q", OVF, 0 },
	{ "9223372036854775808q", OVF, 0 },
	{ "8Eq", OVF, 0 },
	{ "Zq", OVF, 0 },
	{ "2x99999999999999999999q", OVF, 0 },
};

/* min/max: below is TOO_SMALL, above is OVERFLOW, and invalid beats
 * out-of-range. */
static const struct ps_case range_1_10[] = {
	{ "0", SMALL, 0 }, { "0x5", SMALL, 0 }, { "1", OK, 1 }, { "10", OK, 10 },
	{ "11", OVF, 0 }, { "5x2", OK, 10 }, { "3x4", OVF, 0 }, { "11q", INV, 0 },
};

static const struct ps_case range_int64[] = {
	{ "9223372036854775807", OK, IMAX },
	{ "9223372036854775808", OVF, 0 },
	{ "8E", OVF, 0 },
	{ "8EB", OK, 8000000000000000000u },
	{ "2x4611686018427387904", OVF, 0 },
};

/* Each table of cases, against its range. */
static void test_tables(void)
{
	static const struct {
		const char *name;
		const struct ps_case *cases;
		size_t n;
		uint64_t min, max;
	} tables[] = {
		{ "numerals", plain, ARRAY_SIZE(plain), 0, UINT64_MAX },
		{ "suffixes", suffixes, ARRAY_SIZE(suffixes), 0, UINT64_MAX },
		{ "products", products, ARRAY_SIZE(products), 0, UINT64_MAX },
		{ "invalid", invalid, ARRAY_SIZE(invalid), 0, UINT64_MAX },
		{ "overflow", overflow, ARRAY_SIZE(overflow), 0, UINT64_MAX },
		{ "min/max 1 to 10", range_1_10, ARRAY_SIZE(range_1_10), 1, 10 },
		{ "min/max 0 to INT64_MAX", range_int64, ARRAY_SIZE(range_int64),
		  0, IMAX },
	};

	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		unit_begin(tables[i].name);
		run_cases(tables[i].cases, tables[i].n, tables[i].min,
			  tables[i].max);
		unit_end();
	}
}

/* The table of suffixes has the fourteen GNU dd knows. */
static void test_suffix_count(void)
{
	const struct size_suffix *s;
	unsigned n = 0;

	unit_begin("suffixes: fourteen");
	for (s = dd_size_suffixes; s->letter; s++)
		n++;
	CHECK(n == 14);
	unit_end();
}

/* 10,000 factors in constant stack: "1x1x...x1", and one that overflows
 * at the very end. */
static void test_long_chain(void)
{
	enum { FACTORS = 10000 };
	char *s = malloc(FACTORS * 2 + 8);
	uint64_t v = 0;
	size_t i;

	unit_begin("10000-factor chain");
	for (i = 0; i < FACTORS; i++) {
		s[2 * i] = '1';
		s[2 * i + 1] = 'x';
	}
	s[2 * FACTORS - 1] = '\0';
	CHECK(parse_size(s, dd_size_suffixes, 0, UINT64_MAX, &v) == OK);
	CHECK_U64(v, 1);
	for (i = 0; i < 64; i++)
		s[2 * i] = '2';
	CHECK(parse_size(s, dd_size_suffixes, 0, UINT64_MAX, &v) == OVF);
	s[0] = '1';
	CHECK(parse_size(s, dd_size_suffixes, 0, UINT64_MAX, &v) == OK);
	CHECK_U64(v, UINT64_C(1) << 63);
	s[2 * FACTORS - 2] = '0';
	s[0] = '2';
	CHECK(parse_size(s, dd_size_suffixes, 0, UINT64_MAX, &v) == OK);
	CHECK_U64(v, 0);
	s[2 * FACTORS - 2] = 'q';
	CHECK(parse_size(s, dd_size_suffixes, 0, UINT64_MAX, &v) == INV);
	CHECK(parse_size_zero_x_count(s) == 0);
	free(s);
	unit_end();
}

static void test_zero_x_count(void)
{
	unit_begin("zero multiplier warnings");
	CHECK(parse_size_zero_x_count("0x10") == 1);
	CHECK(parse_size_zero_x_count("00x10") == 0);
	CHECK(parse_size_zero_x_count("10") == 0);
	CHECK(parse_size_zero_x_count("0") == 0);
	CHECK(parse_size_zero_x_count("2x0x3") == 1);
	CHECK(parse_size_zero_x_count("0x0x1") == 2);
	CHECK(parse_size_zero_x_count(" 0x1") == 0);
	CHECK(parse_size_zero_x_count("1x0") == 0);
	unit_end();
}

struct xparse_args {
	const char *str;
	uint64_t min, max;
};

/* xparse_size, for unit_run_child: the value follows the messages on
 * the same pipe (stdout made stderr). */
static void xparse_child(const void *arg)
{
	const struct xparse_args *a = arg;
	uint64_t v;

	dup2(2, 1);
	v = xparse_size(a->str, dd_size_suffixes, a->min, a->max);
	full_write(1, &v, sizeof(v));
}

/* Run xparse_size in a child; collect stderr and the exit status, and
 * on success the value. */
static int run_xparse(const char *str, uint64_t min, uint64_t max,
		      char *err, size_t errsize, uint64_t *value)
{
	struct xparse_args a = { str, min, max };
	size_t total = 0;
	int rc = unit_run_child(xparse_child, &a, err, errsize, &total);

	if (rc == 0 && total >= sizeof(*value)) {
		memcpy(value, err + total - sizeof(*value), sizeof(*value));
		err[total - sizeof(*value)] = '\0';
	}
	return rc;
}

static void test_xparse_size(void)
{
	char err[1024];
	uint64_t v = 0;
	const char *warn = "dd: warning: '0x' is a zero multiplier;"
			   " use '00x' if that is intended\n";
	char want[512];

	unit_begin("xparse_size messages");
	applet_name = "dd";
	CHECK(run_xparse("12", 0, IMAX, err, sizeof(err), &v) == 0);
	CHECK_U64(v, 12);
	CHECK_STR(err, "");
	CHECK(run_xparse("foo", 0, IMAX, err, sizeof(err), &v) == 1);
	CHECK_STR(err, "dd: invalid number: 'foo'\n");
	CHECK(run_xparse("0", 1, IMAX, err, sizeof(err), &v) == 1);
	CHECK_STR(err, "dd: invalid number: '0'\n");
	CHECK(run_xparse("1Z", 0, IMAX, err, sizeof(err), &v) == 1);
	CHECK_STR(err, "dd: invalid number: '1Z': "
		       "Value too large for defined data type\n");
	CHECK(run_xparse("9223372036854775808", 0, IMAX, err, sizeof(err),
			 &v) == 1);
	CHECK_STR(err, "dd: invalid number: '9223372036854775808': "
		       "Value too large for defined data type\n");
	CHECK(run_xparse("a'b\\c\td\001\303\251", 0, IMAX, err, sizeof(err),
			 &v) == 1);
	CHECK_STR(err, "dd: invalid number: 'a\\'b\\\\c\\td\\001\\303\\251'\n");
	/* the zero-multiplier warning, even before a range error */
	v = 99;
	CHECK(run_xparse("0x10", 0, IMAX, err, sizeof(err), &v) == 0);
	CHECK_U64(v, 0);
	CHECK_STR(err, warn);
	CHECK(run_xparse("0x5", 1, IMAX, err, sizeof(err), &v) == 1);
	snprintf(want, sizeof(want), "%sdd: invalid number: '0x5'\n", warn);
	CHECK_STR(err, want);
	CHECK(run_xparse("0x0x1", 0, IMAX, err, sizeof(err), &v) == 0);
	snprintf(want, sizeof(want), "%s%s", warn, warn);
	CHECK_STR(err, want);
	CHECK(run_xparse("0x1q", 0, IMAX, err, sizeof(err), &v) == 1);
	CHECK_STR(err, "dd: invalid number: '0x1q'\n");
	unit_end();
}

/* GNU ddrescue's numbers, with a sector of 1024 bytes; and the
 * mapfile's integers. */
static const struct ps_case rescue_cases[] = {
	{ "1k", OK, 1000 }, { "1Ki", OK, 1024 }, { "1K", INV, 0 },
	{ "1ki", INV, 0 }, { "2s", OK, 2048 }, { "1Kis", OK, 1048576 },
	{ "1ks", OK, 1024000 }, { "0x10", OK, 16 }, { "0X1f", OK, 31 },
	{ "010", OK, 8 }, { "08", INV, 0 }, { "0x", INV, 0 }, { "1kB", OK, 1000 },
	{ "1Bs", INV, 0 }, { "1sB", INV, 0 }, { "s", INV, 0 }, { " 12", OK, 12 },
	{ "+12", OK, 12 }, { "-1", INV, 0 }, { "1MiB", OK, 1048576 },
	{ "1m", INV, 0 }, { "1x2", INV, 0 }, { "7E", OK, 7000000000000000000u },
	{ "8Ei", OK, 0x8000000000000000u }, { "16Ei", OVF, 0 }, { "1Z", OVF, 0 }, { "0Y", OK, 0 },
	{ "99999999999999999999", OVF, 0 }, { "1k ", INV, 0 },
};
static const struct ps_case integer_cases[] = {
	{ "0x00117000", OK, 0x117000 }, { "0X1F", OK, 31 }, { "017", OK, 15 },
	{ "0", OK, 0 }, { "19", OK, 19 }, { "09", INV, 0 }, { "0x", INV, 0 },
	{ " 1", INV, 0 }, { "+1", INV, 0 }, { "-1", INV, 0 }, { "1k", INV, 0 },
	{ "0x8000000000000000", OK, 0x8000000000000000u },
	{ "0x10000000000000000", OVF, 0 }, { "", INV, 0 },
};
/* xz's spelling, with xzcat -M's letters (k K m M g G) */
static const struct ps_case xz_cases[] = {
	{ "5", OK, 5 }, { "010", OK, 10 }, { "2k", OK, 2048 }, { "2K", OK, 2048 },
	{ "2Ki", OK, 2048 }, { "2KiB", OK, 2048 }, { "2KB", OK, 2048 },
	{ "3m", OK, 3 << 20 }, { "1G", OK, 1 << 30 }, { "1GiB", OK, 1 << 30 },
	{ "2KD", INV, 0 }, { "2KBi", INV, 0 }, { "2KIB", INV, 0 }, { "2B", INV, 0 },
	{ "2T", INV, 0 }, { "0x10", INV, 0 }, { "2iB", INV, 0 },
	{ "17179869184G", OVF, 0 }, { "18446744073709551616", OVF, 0 },
};

static void run_mode(const struct ps_case *c, size_t n, const struct number_syntax *syn)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 12345;
		enum parse_size_result r = parse_number_in(c[i].str, syn, 0, UINT64_MAX, &v);

		if (r != c[i].want || (r == OK && v != c[i].value))
			unit_fail("'%s': got %s %" PRIu64, c[i].str, result_name(r), v);
	}
}

static void test_xz_mode(void)
{
	static const struct size_suffix units[] = {
		{ 'k', 1, 0 }, { 'K', 1, 0 }, { 'm', 2, 0 }, { 'M', 2, 0 },
		{ 'g', 3, 0 }, { 'G', 3, 0 }, { 0, 0, 0 },
	};
	static const struct number_syntax xz = { units, 0, NUMBER_XZ };
	const char *s = "7MiB%";
	uint64_t v = 0;

	unit_begin("xz's numbers (NUMBER_XZ)");
	run_mode(xz_cases, ARRAY_SIZE(xz_cases), &xz);
	CHECK(scan_number(&s, &xz, &v) == OK && v == 7 << 20 && *s == '%');
	unit_end();
}

static void test_other_modes(void)
{
	static const struct number_syntax rescue = { NULL, 1024, NUMBER_RESCUE };
	static const struct number_syntax no_sector = { NULL, 0, NUMBER_RESCUE };
	static const struct number_syntax integer = { NULL, 0, NUMBER_INTEGER };
	const char *s = "0x10 +";
	uint64_t v = 0;

	/* a build without ddrescue refuses its spellings (parse_number.c) */
	if (!ENABLE_DDRESCUE) {
		printf("SKIP: NUMBER_RESCUE and NUMBER_INTEGER (DDRESCUE is off)\n");
		return;
	}
	unit_begin("GNU ddrescue's numbers (NUMBER_RESCUE)");
	run_mode(rescue_cases, ARRAY_SIZE(rescue_cases), &rescue);
	CHECK(parse_number_in("2s", &no_sector, 0, UINT64_MAX, &v) == INV);
	CHECK(parse_number_in("2k", &rescue, 0, 1999, &v) == OVF);
	CHECK(parse_number_in("2k", &rescue, 2001, UINT64_MAX, &v) == SMALL);
	unit_end();

	unit_begin("C++ integer constants (NUMBER_INTEGER)");
	run_mode(integer_cases, ARRAY_SIZE(integer_cases), &integer);
	CHECK(scan_number(&s, &integer, &v) == OK && v == 16 && *s == ' ');
	unit_end();
}

int main(void)
{
	test_tables();
	test_suffix_count();
	test_long_chain();
	test_zero_x_count();
	test_xparse_size();
	test_xz_mode();
	test_other_modes();
	return unit_exit_status();
}
