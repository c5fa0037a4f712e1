/*
 * human.c - the numbers of dd's summary, digit for digit as GNU prints
 * them: gnulib's human_readable() (autoscale, round to nearest, SI or
 * binary prefixes, "B"), and printf's "%g" without printf.
 */
#include <string.h>

#include "libbb.h"

static const char power_letters[] = "KMGTPEZYRQ";
enum { MAX_EXPONENT = sizeof(power_letters) - 1 };

/*
 * s + err rounded to an integer, ties to even, where err is what
 * computing s lost (below half its last bit): it decides only when s
 * lands on a half.  s is far below 2^63; s - (int64_t)s is exact.
 */
static uint64_t round_nearest(long double s, long double err)
{
	int64_t u = (int64_t)s;
	long double frac = s - (long double)u;

	if (frac > 0.5L ||
	    (frac == 0.5L && (err > 0 || (err == 0 && (u & 1)))))
		u++;
	return u;
}

/* x * 10 rounded, ties to even, from the exact product: the tenths
 * "%.1Lf" prints.  x*8 and x*2 are exact; err (Knuth's TwoSum) is
 * exactly what rounding their sum lost. */
static uint64_t round_tenths(long double x)
{
	long double a = x * 8, b = x * 2;
	long double s = a + b, bv = s - a;

	return round_nearest(s, (a - (s - bv)) + (b - bv));
}

/* A number on its way to the text: the integer part, its power of the
 * base, and where the digits after it begin (the text is built from its
 * end, in a buffer of HUMAN_BUF_SIZE). */
struct scaled {
	uint64_t amt;
	int exponent;
	char *p;
};

/* Put ".d" before the text built so far. */
static void put_tenth(struct scaled *v, unsigned tenth)
{
	*--v->p = (char)('0' + tenth);
	*--v->p = '.';
}

/* The inexact case: scale a long double, as GNU does; it always scales
 * once ("0.0 kB" for 0), and keeps a decimal while the integer part has
 * at most two digits (SI) or one (binary). */
static void scale_inexact(struct scaled *v, long double damt, unsigned base)
{
	long double e = 1;

	do {
		e *= base;
		v->exponent++;
	} while (e * base <= damt && v->exponent < MAX_EXPONENT);
	damt /= e;
	v->amt = round_tenths(damt);               /* "%.1Lf" */
	if (v->amt / 10 >= (base == 1024 ? 10u : 100u)) {
		/* Too wide with a decimal: "%.0Lf" instead. */
		v->amt = round_nearest(damt * 10 / 10, 0);
		return;
	}
	put_tenth(v, (unsigned)(v->amt % 10));
	v->amt /= 10;
}

/* The exact case: v->amt and its tenths, with rounding (0: exact, 1:
 * below a half, 2: a half, 3: above) of what is left, scaled down by
 * base while it reaches base, and rounded; a decimal below 10. */
static void scale_exact(struct scaled *v, unsigned tenths, unsigned rounding,
			unsigned base)
{
	uint64_t amt = v->amt;

	if (base <= amt) {
		do {
			unsigned r10 = (unsigned)(amt % base) * 10 + tenths;
			unsigned r2 = (r10 % base) * 2 + (rounding >> 1);

			amt /= base;
			tenths = r10 / base;
			rounding = r2 < base ? (r2 + rounding) != 0
					     : 2 + (base < r2 + rounding);
			v->exponent++;
		} while (base <= amt && v->exponent < MAX_EXPONENT);

		if (amt < 10) {
			/* One decimal: round it, ties to even. */
			if (2 < rounding + (tenths & 1)) {
				tenths++;
				rounding = 0;
				if (tenths == 10) {
					amt++;
					tenths = 0;
				}
			}
			if (amt < 10) {
				put_tenth(v, tenths);
				tenths = rounding = 0;
			}
		}
	}
	if (5 < tenths + (0 < rounding + (amt & 1))) {
		amt++;
		if (amt == base && v->exponent < MAX_EXPONENT) {
			v->exponent++;
			put_tenth(v, 0);
			amt = 1;
		}
	}
	v->amt = amt;
}

char *human_readable(char *buf, uint64_t n, uint64_t multiplier,
		     uint64_t divisor, enum human_units units)
{
	bool binary = units == HUMAN_IEC;
	unsigned base = binary ? 1024 : 1000;
	char tmp[HUMAN_BUF_SIZE];
	char *end = tmp + sizeof(tmp), *p;
	struct scaled v = { 0, 0, end };

	unsigned tenths = 0, rounding = 0;
	bool exact = true;

	/* Exact where the quotient or the product of the two is whole. */
	if (divisor > multiplier && multiplier != 0 && divisor % multiplier == 0) {
		uint64_t d = divisor / multiplier;
		uint64_t r10 = (n % d) * 10;
		uint64_t r2 = (r10 % d) * 2;

		v.amt = n / d;
		tenths = (unsigned)(r10 / d);
		rounding = r2 < d ? 0 < r2 : 2 + (d < r2);
	} else if (divisor > multiplier || multiplier % divisor != 0
		   || __builtin_mul_overflow(n, multiplier / divisor, &v.amt)) {
		scale_inexact(&v, n * ((long double)multiplier / divisor), base);
		exact = false;
	}
	if (exact)
		scale_exact(&v, tenths, rounding, base);
	p = put_digits(v.p, v.amt, 10);
	memcpy(buf, p, (size_t)(end - p));
	p = buf + (end - p);
	*p++ = ' ';
	if (v.exponent) {
		*p++ = !binary && v.exponent == 1 ? 'k'
						  : power_letters[v.exponent - 1];
		if (binary)
			*p++ = 'i';
	}
	*p++ = 'B';
	*p = '\0';
	return buf;
}

/* ---- %g ------------------------------------------------------------- */

enum {
	G_PRECISION = 6,
	LIMB_BASE = 1000000000,
	LIMBS = 86,     /* 767 digits */
};

char *format_double_g(char *buf, double value)
{
	/* The exact value in base 10^9, then its decimal digits, least
	 * significant first (2^53 * 5^1074 has 767); zeros past the last,
	 * for the "0.000" of small values. */
	uint32_t limb[LIMBS];
	unsigned char digit[LIMBS * 9 + 8] = { 0 };
	uint64_t bits, m, carry;
	int e2, exp10, nlimbs = 0, n, low = 0, i, x, point, pos, bottom;
	char *p = buf;

	memcpy(&bits, &value, sizeof(bits));
	e2 = (int)(bits >> 52 & 0x7ff);
	m = bits & ((UINT64_C(1) << 52) - 1);
	/* memcpy rather than strcpy, which links musl's stpcpy. */
	if (e2 == 0x7ff) {
		memcpy(buf, m ? "nan" : "inf", 4);
		return buf;
	}
	if (e2)
		m |= UINT64_C(1) << 52;
	else
		e2 = 1;
	e2 -= 1075;                     /* value = m * 2^e2 */
	while (!(m & 1) && e2 < 0) {    /* (a zero ends with e2 = 0) */
		m >>= 1;
		e2++;
	}
	/* m * 2^e2, or (m * 5^-e2) * 10^e2: an integer times 10^exp10. */
	exp10 = e2 < 0 ? e2 : 0;
	for (carry = m;;) {
		/* Up to 2^29 or 5^13 at a time: limb * mul + carry fits. */
		uint64_t mul = 1;

		for (; carry; carry /= LIMB_BASE)
			limb[nlimbs++] = (uint32_t)(carry % LIMB_BASE);
		if (!e2)
			break;
		for (; e2 > 0 && mul < UINT32_C(1) << 29; e2--)
			mul *= 2;
		for (; e2 < 0 && mul < UINT32_C(1) << 29; e2++)
			mul *= 5;
		for (i = 0; i < nlimbs; i++) {
			carry += limb[i] * mul;
			limb[i] = (uint32_t)(carry % LIMB_BASE);
			carry /= LIMB_BASE;
		}
	}
	for (i = 0; i < nlimbs * 9; i++) {
		digit[i] = (unsigned char)(limb[i / 9] % 10);
		limb[i / 9] /= 10;
	}
	for (n = i + 1; n > 1 && !digit[n - 1]; n--)
		;

	/* Round to G_PRECISION significant digits, ties to even. */
	if (n > G_PRECISION) {
		int cut = n - G_PRECISION;      /* the lowest digit kept */
		int up;

		while (low < cut - 1 && !digit[low])
			low++;
		up = digit[cut - 1] * 2 + (low < cut - 1) + (digit[cut] & 1) > 10;
		for (low = cut; up; low++) {
			up = ++digit[low] == 10;
			if (up)
				digit[low] = 0;
		}
		if (low > n)
			n = low;                /* 999999.5 -> 1000000 */
		low = cut;
	}
	/* Trailing zeros are dropped by %g. */
	while (low < n - 1 && !digit[low])
		low++;

	/* Digit i stands for 10^(i + exp10); the point follows the digit
	 * of 10^point. */
	x = n - 1 + exp10;
	point = x < -4 || x >= G_PRECISION ? x : 0;
	bottom = low + exp10 < point ? low + exp10 : point;
	for (pos = x > point ? x : point; pos >= bottom; pos--) {
		*p++ = (char)('0' + digit[pos - exp10]);
		if (pos == point && pos > bottom)
			*p++ = '.';
	}
	if (point)
		p += bb_format(p, 8, "e%c%02d", x < 0 ? '-' : '+',
			       x < 0 ? -x : x);
	*p = '\0';
	return buf;
}
