/*
 * human.c - the numbers in dd's summary line, digit for digit as GNU
 * prints them.
 *
 * human_readable() follows the algorithm of gnulib's human_readable()
 * with autoscale, round-to-nearest, a space before the unit, SI prefixes
 * and a "B": exact integer arithmetic when multiplier/divisor (or its
 * inverse) is a whole number, keeping a tenths digit and a rounding state
 * for each division by the base; otherwise long double arithmetic, which
 * always scales at least once (hence GNU's "0.0 kB/s" for zero bytes) and
 * keeps one decimal while the integer part has at most two digits (SI)
 * or one (binary).
 *
 * format_double_g() is printf's "%g" without printf: the double is
 * expanded exactly in decimal (a big number in base 10^9), then rounded
 * to six significant digits, ties to even, as glibc does.
 */
#include <string.h>

#include "libbb.h"

static const char power_letters[] = "KMGTPEZYRQ";
enum { MAX_EXPONENT = sizeof(power_letters) - 1 };

/* x >= 0 rounded to an integer, ties to even: what "%.0Lf" prints.
 * x - (uint64_t)x is exact in binary floating point. */
static uint64_t round_even(long double x)
{
	uint64_t u = (uint64_t)x;
	long double frac = x - (long double)u;

	if (frac > 0.5L || (frac == 0.5L && (u & 1)))
		u++;
	return u;
}

/*
 * x * 10 rounded to an integer, ties to even, from the exact product:
 * the tenths "%.1Lf" prints.  x*8 and x*2 are exact; their sum s is
 * rounded, and err (Knuth's TwoSum) is exactly what the rounding lost.
 * round(s) is the answer unless s lands on a half, where err decides.
 */
static uint64_t round_tenths(long double x)
{
	long double a = x * 8, b = x * 2;
	long double s = a + b, bv = s - a;
	long double err = (a - (s - bv)) + (b - bv);
	uint64_t u = (uint64_t)s;
	long double frac = s - (long double)u;

	if (frac > 0.5L ||
	    (frac == 0.5L && (err > 0 || (err == 0 && (u & 1)))))
		u++;
	return u;
}

char *human_readable(char *buf, uint64_t n, uint64_t multiplier,
		     uint64_t divisor, bool binary)
{
	unsigned base = binary ? 1024 : 1000;
	int exponent = 0;
	char tmp[HUMAN_BUF_SIZE];
	char *end = tmp + sizeof(tmp), *p = end;
	uint64_t amt;
	unsigned tenths, rounding;

	if (divisor <= multiplier) {
		if (multiplier % divisor == 0 &&
		    !__builtin_mul_overflow(n, multiplier / divisor, &amt)) {
			tenths = rounding = 0;
			goto exact;
		}
	} else if (multiplier != 0 && divisor % multiplier == 0) {
		uint64_t d = divisor / multiplier;
		uint64_t r10 = (n % d) * 10;
		uint64_t r2 = (r10 % d) * 2;

		amt = n / d;
		tenths = (unsigned)(r10 / d);
		rounding = r2 < d ? 0 < r2 : 2 + (d < r2);
		goto exact;
	}

	{
		/* Inexact: scale a long double, as GNU does. */
		long double damt = n * ((long double)multiplier / divisor);
		long double e = 1;
		uint64_t t;

		do {
			e *= base;
			exponent++;
		} while (e * base <= damt && exponent < MAX_EXPONENT);
		damt /= e;

		t = round_tenths(damt);                 /* "%.1Lf" */
		if (t / 10 >= (binary ? 10u : 100u)) {
			/* Too wide with a decimal: "%.0Lf" instead. */
			p = put_digits(p, round_even(damt * 10 / 10), 10);
		} else {
			*--p = (char)('0' + t % 10);
			*--p = '.';
			p = put_digits(p, t / 10, 10);
		}
		goto suffix;
	}

exact:
	if (base <= amt) {
		do {
			unsigned r10 = (unsigned)(amt % base) * 10 + tenths;
			unsigned r2 = (r10 % base) * 2 + (rounding >> 1);

			amt /= base;
			tenths = r10 / base;
			rounding = r2 < base ? (r2 + rounding) != 0
					     : 2 + (base < r2 + rounding);
			exponent++;
		} while (base <= amt && exponent < MAX_EXPONENT);

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
				*--p = (char)('0' + tenths);
				*--p = '.';
				tenths = rounding = 0;
			}
		}
	}
	if (5 < tenths + (0 < rounding + (amt & 1))) {
		amt++;
		if (amt == base && exponent < MAX_EXPONENT) {
			exponent++;
			*--p = '0';
			*--p = '.';
			amt = 1;
		}
	}
	p = put_digits(p, amt, 10);

suffix:
	memcpy(buf, p, (size_t)(end - p));
	p = buf + (end - p);
	*p++ = ' ';
	if (exponent) {
		*p++ = !binary && exponent == 1 ? 'k'
						: power_letters[exponent - 1];
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
	/* 2^53 * 5^1074, the longest exact expansion, has 767 digits. */
	LIMBS = 87,
};

char *format_double_g(char *buf, double value)
{
	uint32_t big[LIMBS];            /* base 10^9, least significant first */
	char digits[LIMBS * 9 + 1];
	int nlimbs, ndigits, exp10, x, i, last;
	uint64_t bits, m;
	int e2;
	char *p = buf;

	memcpy(&bits, &value, sizeof(bits));
	e2 = (int)(bits >> 52 & 0x7ff);
	m = bits & ((UINT64_C(1) << 52) - 1);
	/* memcpy rather than strcpy, which links musl's stpcpy. */
	if (e2 == 0x7ff) {
		memcpy(buf, m ? "nan" : "inf", 4);
		return buf;
	}
	if (value == 0) {
		memcpy(buf, "0", 2);
		return buf;
	}
	if (e2)
		m |= UINT64_C(1) << 52;
	else
		e2 = 1;
	e2 -= 1075;                     /* value = m * 2^e2 */
	while (!(m & 1) && e2 < 0) {
		m >>= 1;
		e2++;
	}

	/* The exact value as an integer times 10^exp10:
	 * m * 2^e2, or (m * 5^-e2) * 10^e2. */
	big[0] = (uint32_t)(m % 1000000000);
	big[1] = (uint32_t)(m / 1000000000 % 1000000000);
	big[2] = (uint32_t)(m / 1000000000 / 1000000000);
	nlimbs = 3;
	exp10 = e2 < 0 ? e2 : 0;
	while (e2 != 0) {
		uint32_t mul;
		uint64_t carry = 0;

		if (e2 > 0) {
			int s = e2 > 29 ? 29 : e2;
			mul = UINT32_C(1) << s;
			e2 -= s;
		} else {
			int s = -e2 > 13 ? 13 : -e2;
			for (mul = 1; s; s--, e2++)
				mul *= 5;
		}
		for (i = 0; i < nlimbs; i++) {
			uint64_t t = (uint64_t)big[i] * mul + carry;
			big[i] = (uint32_t)(t % 1000000000);
			carry = t / 1000000000;
		}
		for (; carry; carry /= 1000000000)
			big[nlimbs++] = (uint32_t)(carry % 1000000000);
	}
	while (nlimbs > 1 && !big[nlimbs - 1])
		nlimbs--;

	/* Decimal digits, most significant first, no leading zeros. */
	ndigits = 0;
	for (i = nlimbs - 1; i >= 0; i--) {
		char limb[9];
		int k;
		uint32_t v = big[i];

		for (k = 8; k >= 0; k--, v /= 10)
			limb[k] = (char)('0' + v % 10);
		for (k = 0; k < 9; k++)
			if (ndigits || limb[k] != '0')
				digits[ndigits++] = limb[k];
	}
	x = ndigits - 1 + exp10;        /* decimal exponent of digits[0] */

	/* Round to G_PRECISION significant digits, ties to even. */
	if (ndigits > G_PRECISION) {
		int up = digits[G_PRECISION] > '5';

		if (digits[G_PRECISION] == '5') {
			up = (digits[G_PRECISION - 1] - '0') & 1;
			for (i = G_PRECISION + 1; i < ndigits; i++)
				if (digits[i] != '0')
					up = 1;
		}
		ndigits = G_PRECISION;
		for (i = G_PRECISION - 1; up && i >= 0; i--) {
			if (digits[i] == '9') {
				digits[i] = '0';
			} else {
				digits[i]++;
				up = 0;
			}
		}
		if (up) {
			digits[0] = '1';
			x++;
		}
	}
	/* Trailing zeros are dropped by %g anyway. */
	while (ndigits > 1 && digits[ndigits - 1] == '0')
		ndigits--;
	last = ndigits - 1;

	if (x < -4 || x >= G_PRECISION) {
		*p++ = digits[0];
		if (last > 0) {
			*p++ = '.';
			memcpy(p, digits + 1, (size_t)last);
			p += last;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		if (x < 0)
			x = -x;
		if (x < 10)
			*p++ = '0';
		p += bb_format(p, 8, "%d", x);
	} else if (x < 0) {
		*p++ = '0';
		*p++ = '.';
		for (i = x + 1; i < 0; i++)
			*p++ = '0';
		memcpy(p, digits, (size_t)ndigits);
		p += ndigits;
	} else {
		for (i = 0; i <= x; i++)
			*p++ = i < ndigits ? digits[i] : '0';
		if (last > x) {
			*p++ = '.';
			memcpy(p, digits + x + 1, (size_t)(last - x));
			p += last - x;
		}
	}
	*p = '\0';
	return buf;
}
