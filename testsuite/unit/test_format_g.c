/*
 * test_format_g.c - format_double_g() against the C library's "%g".
 * dd prints its elapsed seconds with %g; zerobox does so without printf.
 */
#include <math.h>      /* isnan, INFINITY: macros, no libm */
#include <stdlib.h>

#include "libbb.h"
#include "unit.h"

static int compare(double v)
{
	char want[64], got[HUMAN_BUF_SIZE];

	snprintf(want, sizeof(want), "%g", v);
	format_double_g(got, v);
	if (strcmp(want, got) != 0) {
		unit_fail("%.17g: got \"%s\", want \"%s\"", v, got, want);
		return 0;
	}
	return 1;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void test_known(void)
{
	char buf[HUMAN_BUF_SIZE];
	static const struct {
		double v;
		const char *want;
	} known[] = {
		{ 0, "0" },
		{ 1, "1" },
		{ 0.000139355, "0.000139355" },
		{ 1.5e-05, "1.5e-05" },
		{ 12.3456789, "12.3457" },
		{ 123456.7, "123457" },
		{ 1234567.0, "1.23457e+06" },
		{ 999999.5, "1e+06" },
		{ 0.0001, "0.0001" },
		{ 0.00009999995, "0.0001" },
		{ 0.000099999949, "9.99999e-05" },
		{ 100, "100" },
		{ 0.5, "0.5" },
		{ 2.5, "2.5" },
		{ 1e100, "1e+100" },
		{ 1e-300, "1e-300" },
		{ 0.125, "0.125" },
		{ 1.0000005, "1" },     /* below the tie: binary value < ...5 */
		{ 1.0000015, "1" },     /* binary value 1.00000149999... */
		{ 0.0625, "0.0625" },
	};
	size_t i;

	unit_begin("%g known values");
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		compare(known[i].v);
		CHECK_STR(format_double_g(buf, known[i].v), known[i].want);
	}
	unit_end();
}

/* Values that are exact decimal ties at the 7th digit (exactly
 * representable in binary): glibc rounds them to even. */
static void test_ties(void)
{
	static const double ties[] = {
		0.5, 2.5, 1234565, 1234575, 1048576.5,
		0.0009765625, 1.1102230246251565e-16, 8388608.5, 4194304.25,
		12345.25, 12345.75, 3.0517578125e-05, 1234562.5,
	};
	size_t i;

	unit_begin("%g exact ties");
	for (i = 0; i < sizeof(ties) / sizeof(ties[0]); i++)
		compare(ties[i]);
	unit_end();
}

/* The shapes dd produces: nanoseconds / 1e9. */
static void test_elapsed(void)
{
	uint64_t ns;
	int bad = 0;

	unit_begin("%g of elapsed ns / 1e9");
	for (ns = 1; ns < 3000000 && bad < 5; ns += 1 + ns / 1000)
		bad += !compare(ns / 1e9);
	for (ns = 0; ns < 200000 && bad < 5; ns++)
		bad += !compare((double)(rng() % 100000000000000u) / 1e9);
	unit_end();
}

static void test_random(void)
{
	long i;
	int bad = 0;

	unit_begin("%g of random doubles");
	for (i = 0; i < 300000 && bad < 5; i++) {
		uint64_t bits = rng() & 0x7fffffffffffffffu;
		double v;

		memcpy(&v, &bits, sizeof(v));
		if (isnan(v) || isinf(v))
			continue;
		bad += !compare(v);
	}
	for (i = 0; i < 300000 && bad < 5; i++) {
		/* six-or-seven-digit decimals, where rounding matters */
		double v = (double)(rng() % 100000000);
		int e = (int)(rng() % 30) - 20;

		for (; e > 0; e--)
			v *= 10;
		for (; e < 0; e++)
			v /= 10;
		bad += !compare(v);
	}
	bad += !compare(5e-324);
	bad += !compare(2.2250738585072014e-308);
	bad += !compare(1.7976931348623157e308);
	unit_end();
}

static void test_special(void)
{
	char buf[HUMAN_BUF_SIZE];

	unit_begin("%g inf and nan");
	CHECK_STR(format_double_g(buf, INFINITY), "inf");
	CHECK_STR(format_double_g(buf, NAN), "nan");
	unit_end();
}

int main(void)
{
	test_known();
	test_ties();
	test_elapsed();
	test_random();
	test_special();
	return unit_exit_status();
}
