/*
 * format.c - bb_vformat, the small printf every message goes through.
 *
 * Supported: %s %.*s %.Ns %c %d %i %u %x %%, the length modifiers l ll j z
 * on d i u x, the flags '-' (left-justify) and '0' (pad numbers with
 * zeros), and a decimal or '*' field width.  Nothing else: no floating
 * point, which is what keeps musl's stdio printf out of the binary.
 */
#include <limits.h>
#include <string.h>

#include "libbb.h"

struct sink {
	char *buf;
	size_t size;    /* bytes available in buf, NUL included */
	size_t len;     /* bytes the full result needs so far */
};

static void put(struct sink *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_n(struct sink *o, char c, long n)
{
	while (n-- > 0)
		put(o, c);
}

char *put_digits(char *end, uint64_t v, unsigned base)
{
	do
		*--end = "0123456789abcdef"[v % base];
	while ((v /= base) != 0);
	return end;
}

/* Emit s[0..n) padded to width; zero padding goes after the sign. */
static void put_field(struct sink *o, const char *s, size_t n, long width,
		      bool left, bool zero)
{
	long pad = width > (long)n ? width - (long)n : 0;
	char fill = zero && !left ? '0' : ' ';

	if (fill == '0' && n && *s == '-') {
		put(o, '-');
		s++;
		n--;
	}
	if (!left) {
		put_n(o, fill, pad);
		pad = 0;
	}
	while (n--)
		put(o, *s++);
	put_n(o, ' ', pad);
}

size_t bb_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink o = { buf, size, 0 };
	char num[24];   /* "-" and 20 digits of a 64-bit number */

	for (; *fmt; fmt++) {
		bool left = false, zero = false, negative = false, is_signed;
		int lng = 0, which = 0;
		long field[2] = { 0, -1 };      /* width, precision (-1: none) */
		unsigned long long u;
		unsigned base = 10;
		const char *s;
		size_t n;
		char *p;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		/* Flags, the width, and after a '.' the precision. */
		while (*++fmt) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '0' && !which && !field[0])
				zero = true;
			else if (*fmt >= '0' && *fmt <= '9')
				field[which] = field[which] * 10 + (*fmt - '0');
			else if (*fmt == '*')
				field[which] = va_arg(ap, int);
			else if (*fmt == '.' && !which)
				field[++which] = 0;
			else
				break;
		}
		if (field[0] < 0) {
			left = true;
			field[0] = -field[0];
		}
		/* lng: 0 int, 1 long, 2 long long, 3 intmax_t, 4 size_t */
		if (*fmt == 'l')
			lng = *++fmt == 'l' ? (fmt++, 2) : 1;
		else if (*fmt == 'j')
			lng = 3, fmt++;
		else if (*fmt == 'z')
			lng = 4, fmt++;

		switch (*fmt) {
		case 's':
			s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			/* A loop rather than strnlen, linked for this alone. */
			for (n = 0; s[n] && (field[1] < 0 || n < (size_t)field[1]); n++)
				;
			put_field(&o, s, n, field[0], left, 0);
			continue;
		case 'c':
		case 'd':
		case 'i':
		case 'u':
		case 'x':
			is_signed = *fmt != 'u' && *fmt != 'x';
			if (lng == 0)
				u = is_signed ? (unsigned long long)va_arg(ap, int)
					      : va_arg(ap, unsigned);
			else if (lng == 1)
				u = is_signed ? (unsigned long long)va_arg(ap, long)
					      : va_arg(ap, unsigned long);
			else if (lng == 2)
				u = is_signed ? (unsigned long long)va_arg(ap, long long)
					      : va_arg(ap, unsigned long long);
			else if (lng == 3)
				u = is_signed ? (unsigned long long)va_arg(ap, intmax_t)
					      : va_arg(ap, uintmax_t);
			else
				u = is_signed ? (unsigned long long)va_arg(ap, ssize_t)
					      : va_arg(ap, size_t);
			if (*fmt == 'c') {
				num[0] = (char)u;
				put_field(&o, num, 1, field[0], left, 0);
				continue;
			}
			negative = is_signed && (long long)u < 0;
			/* 0 - u: the magnitude, LLONG_MIN's too */
			if (negative)
				u = 0 - u;
			if (*fmt == 'x')
				base = 16;
			break;
		default:
			/* Unknown conversion, or "%%": show it as written. */
			if (!*fmt)
				fmt--;
			else
				put(&o, *fmt);
			continue;
		}
		p = put_digits(num + sizeof(num), u, base);
		if (negative)
			*--p = '-';
		put_field(&o, p, (size_t)(num + sizeof(num) - p), field[0],
			  left, zero);
	}
	if (o.size)
		o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';
	return o.len;
}

size_t bb_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = bb_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
