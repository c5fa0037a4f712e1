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

	if (!left && zero) {
		if (n && *s == '-') {
			put(o, '-');
			s++;
			n--;
		}
		put_n(o, '0', pad);
		pad = 0;
	}
	if (!left)
		put_n(o, ' ', pad);
	while (n--)
		put(o, *s++);
	if (left)
		put_n(o, ' ', pad);
}

size_t bb_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink o = { buf, size, 0 };
	char num[24];   /* "-" and 20 digits of a 64-bit number */

	for (; *fmt; fmt++) {
		bool left = false, zero = false;
		int lng = 0;
		long width = 0, prec = -1;
		unsigned long long u;
		const char *s;
		size_t n;
		char *p;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		for (;; fmt++) {
			if (fmt[1] == '-')
				left = true;
			else if (fmt[1] == '0')
				zero = true;
			else
				break;
		}
		fmt++;
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				left = true;
				width = -width;
			}
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		if (*fmt == '.') {
			prec = 0;
			if (*++fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				prec = prec * 10 + (*fmt++ - '0');
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
			n = prec < 0 ? strlen(s) : strnlen(s, (size_t)prec);
			put_field(&o, s, n, width, left, 0);
			continue;
		case 'c':
			num[0] = (char)va_arg(ap, int);
			put_field(&o, num, 1, width, left, 0);
			continue;
		case 'd':
		case 'i': {
			long long v;
			if (lng == 0)
				v = va_arg(ap, int);
			else if (lng == 1)
				v = va_arg(ap, long);
			else if (lng == 2)
				v = va_arg(ap, long long);
			else if (lng == 3)
				v = va_arg(ap, intmax_t);
			else
				v = va_arg(ap, ssize_t);
			/* 0 - (unsigned) keeps LLONG_MIN defined */
			u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
			p = put_digits(num + sizeof(num), u, 10);
			if (v < 0)
				*--p = '-';
			break;
		}
		case 'u':
		case 'x': {
			unsigned base = *fmt == 'x' ? 16 : 10;
			if (lng == 0)
				u = va_arg(ap, unsigned);
			else if (lng == 1)
				u = va_arg(ap, unsigned long);
			else if (lng == 2)
				u = va_arg(ap, unsigned long long);
			else if (lng == 3)
				u = va_arg(ap, uintmax_t);
			else
				u = va_arg(ap, size_t);
			p = put_digits(num + sizeof(num), u, base);
			break;
		}
		case '%':
			put(&o, '%');
			continue;
		default:
			/* Unknown conversion: show it as written. */
			if (!*fmt)
				fmt--;
			else
				put(&o, *fmt);
			continue;
		}
		put_field(&o, p, (size_t)(num + sizeof(num) - p), width, left,
			  zero);
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
