/*
 * quote.c - quote strings for messages the way GNU coreutils does in the
 * C locale (zerobox always behaves like the C locale):
 *
 *   quote_escaped    GNU quote():   'text' with C escapes: 'a\'b', 'a\nb',
 *                    '\303'
 *   quote_always     GNU quoteaf(): always quoted for a shell: 'a b',
 *                    'a'$'\n''b', and "a'b" when a plain double-quoted
 *                    form is safe for both C and the shell
 *   quote_if_needed  GNU quotef():  as quote_always, but bare when the
 *                    text needs no quoting at all (f.txt; a ':' needs it)
 *
 * Each returns a mapped string (try_malloc) that stays valid until
 * QUOTE_SLOTS more quote_* calls: the last few are kept in a ring and the
 * oldest is freed, so a program printing a message per bad block
 * (conv=noerror) does not grow, and nothing is lost to leak checkers at
 * exit.  quote_if_needed returns a text that needs no quoting itself,
 * without mapping anything.
 *
 * They serve messages, so they never exit and never change errno (a
 * caller writes bb_perror_msg("%s", quote_always(name))): with no memory
 * left they return the text itself, unquoted, and the message still
 * goes out.
 */
#include <errno.h>
#include <string.h>

#include "libbb.h"

enum style { LOCALE, SHELL_ALWAYS, C_DOUBLE };

static bool printable(unsigned char c)
{
	return c >= ' ' && c < 0x7f;
}

static const char c_escapes[] = "\aa\bb\ff\nn\rr\tt\vv";

/* A character that means nothing to a shell, in or out of quotes, and
 * needs no escape in C double quotes either. */
static bool shell_and_c_plain(const char *s, size_t i)
{
	unsigned char c = (unsigned char)s[i];

	if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
		return 1;
	if (c == '{' || c == '}')
		return s[1] == '\0';            /* only when alone */
	if (c == '#' || c == '~')
		return i == 0;                  /* only when first */
	return c && strchr("%+,-./:@]_' ", c) != NULL;
}

/* Does a shell need the text quoted at all? */
static bool shell_needs_quotes(const char *s)
{
	size_t i;

	if (!*s)
		return 1;
	for (i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		/* ':' too: GNU's quotef() also quotes colons, so that
		 * "name: message" stays unambiguous */
		if (!printable(c) || strchr("\\?!\"$&()*;<=>[^`|': ", c))
			return 1;
		if ((c == '#' || c == '~') && i == 0)
			return 1;
		if ((c == '{' || c == '}') && !s[1])
			return 1;
	}
	return 0;
}

/* Render s in a style into out (NULL: just measure).  Returns length. */
static size_t render(char *out, const char *s, enum style style)
{
	size_t n = 0;
	int in_dollar = 0;      /* inside a shell $'...' */
	char q = style == C_DOUBLE ? '"' : '\'';

#define PUT(ch) do { if (out) out[n] = (ch); n++; } while (0)
	PUT(q);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *e = NULL;

		if (!printable(c) || (style == LOCALE && (c == '\\' || c == '\'')))
			e = strchr(c_escapes, c);
		if (style == SHELL_ALWAYS && c == '\'') {
			PUT('\'');
			PUT('\\');
			PUT('\'');
			PUT('\'');
			in_dollar = 0;
			continue;
		}
		if (e || !printable(c) ||
		    (style == LOCALE && (c == '\\' || c == '\''))) {
			if (style == SHELL_ALWAYS && !in_dollar) {
				PUT('\'');
				PUT('$');
				PUT('\'');
				in_dollar = 1;
			}
			PUT('\\');
			if (e && c)
				PUT(e[1]);
			else if (printable(c))
				PUT((char)c);
			else {
				PUT((char)('0' + (c >> 6)));
				PUT((char)('0' + ((c >> 3) & 7)));
				PUT((char)('0' + (c & 7)));
			}
			continue;
		}
		if (in_dollar) {
			PUT('\'');
			PUT('\'');
			in_dollar = 0;
		}
		PUT((char)c);
	}
	PUT(q);
	PUT('\0');
#undef PUT
	return n;
}

enum { QUOTE_SLOTS = 4 };   /* more than any one message uses */

static const char *keep(char *out)
{
	static char *ring[QUOTE_SLOTS];
	static unsigned next;

	free_mapped(ring[next]);
	ring[next] = out;
	next = (next + 1) % QUOTE_SLOTS;
	return out;
}

static const char *quote_style(const char *s, enum style style)
{
	int saved_errno = errno;
	char *out = try_malloc(render(NULL, s, style));

	if (out) {
		render(out, s, style);
		keep(out);
	}
	errno = saved_errno;
	return out ? out : s;
}

const char *quote_escaped(const char *s)
{
	return quote_style(s, LOCALE);
}

const char *quote_always(const char *s)
{
	size_t i;

	/* GNU prefers "it's" to 'it'\''s' when that is safe everywhere. */
	if (strchr(s, '\'')) {
		for (i = 0; s[i] && shell_and_c_plain(s, i); i++)
			continue;
		if (!s[i])
			return quote_style(s, C_DOUBLE);
	}
	return quote_style(s, SHELL_ALWAYS);
}

const char *quote_if_needed(const char *s)
{
	return shell_needs_quotes(s) ? quote_always(s) : s;
}
