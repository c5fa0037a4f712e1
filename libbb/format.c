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

/* A conversion's flags, width and precision, and its length modifier. */
struct spec {
	bool left, zero;         /* '-', '0' */
	long width;
	long precision;          /* -1: none */
	int length;              /* 0 int, 1 long, 2 long long, 3 intmax_t, 4 size_t */
};

/* Emit s[0..n) padded to the width; zero padding goes after the sign. */
static void put_field(struct sink *o, const char *s, size_t n,
		      const struct spec *sp)
{
	long pad = sp->width > (long)n ? sp->width - (long)n : 0;
	char fill = sp->zero && !sp->left ? '0' : ' ';

	if (fill == '0' && n && *s == '-') {
		put(o, '-');
		s++;
		n--;
	}
	if (!sp->left) {
		put_n(o, fill, pad);
		pad = 0;
	}
	while (n--)
		put(o, *s++);
	put_n(o, ' ', pad);
}

/* Read what follows a '%' up to the conversion letter, which it returns
 * a pointer to. */
static const char *parse_spec(const char *fmt, va_list *ap, struct spec *sp)
{
	long *field = &sp->width;

	*sp = (struct spec){ .precision = -1 };
	while (*fmt) {
		if (*fmt == '-')
			sp->left = true;
		else if (*fmt == '0' && field == &sp->width && !sp->width)
			sp->zero = true;
		else if (*fmt >= '0' && *fmt <= '9')
			*field = *field * 10 + (*fmt - '0');
		else if (*fmt == '*')
			*field = va_arg(*ap, int);
		else if (*fmt == '.' && field == &sp->width)
			*(field = &sp->precision) = 0;
		else
			break;
		fmt++;
	}
	if (sp->width < 0) {
		sp->left = true;
		sp->width = -sp->width;
	}
	if (*fmt == 'l')
		sp->length = *++fmt == 'l' ? (fmt++, 2) : 1;
	else if (*fmt == 'j')
		sp->length = 3, fmt++;
	else if (*fmt == 'z')
		sp->length = 4, fmt++;
	return fmt;
}

/* The integer argument of a conversion of this length, its bits as
 * unsigned long long (a signed one sign-extended). */
static unsigned long long take_integer(va_list *ap, int length, bool is_signed)
{
	if (length == 0)
		return is_signed ? (unsigned long long)va_arg(*ap, int)
				 : va_arg(*ap, unsigned);
	if (length == 1)
		return is_signed ? (unsigned long long)va_arg(*ap, long)
				 : va_arg(*ap, unsigned long);
	if (length == 2)
		return is_signed ? (unsigned long long)va_arg(*ap, long long)
				 : va_arg(*ap, unsigned long long);
	if (length == 3)
		return is_signed ? (unsigned long long)va_arg(*ap, intmax_t)
				 : va_arg(*ap, uintmax_t);
	return is_signed ? (unsigned long long)va_arg(*ap, ssize_t)
			 : va_arg(*ap, size_t);
}

size_t bb_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink o = { buf, size, 0 };
	char num[24];   /* "-" and 20 digits of a 64-bit number */
	va_list args;

	va_copy(args, ap);
	for (; *fmt; fmt++) {
		bool negative, is_signed;
		struct spec sp;
		unsigned long long u;
		const char *s;
		size_t n;
		char *p;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		fmt = parse_spec(fmt + 1, &args, &sp);
		switch (*fmt) {
		case 's':
			s = va_arg(args, const char *);
			if (!s)
				s = "(null)";
			/* A loop rather than strnlen, linked for this alone. */
			for (n = 0; s[n] && (sp.precision < 0 || n < (size_t)sp.precision); n++)
				;
			sp.zero = false;
			put_field(&o, s, n, &sp);
			continue;
		case 'c':
		case 'd':
		case 'i':
		case 'u':
		case 'x':
			is_signed = *fmt != 'u' && *fmt != 'x';
			u = take_integer(&args, sp.length, is_signed);
			break;
		default:
			/* Unknown conversion, or "%%": show it as written. */
			if (!*fmt)
				fmt--;
			else
				put(&o, *fmt);
			continue;
		}
		if (*fmt == 'c') {
			num[0] = (char)u;
			sp.zero = false;
			put_field(&o, num, 1, &sp);
			continue;
		}
		negative = is_signed && (long long)u < 0;
		/* 0 - u: the magnitude, LLONG_MIN's too */
		p = put_digits(num + sizeof(num), negative ? 0 - u : u,
			       *fmt == 'x' ? 16 : 10);
		if (negative)
			*--p = '-';
		put_field(&o, p, (size_t)(num + sizeof(num) - p), &sp);
	}
	va_end(args);
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
