/*
 * test_quote.c - names and operands quoted as GNU coreutils quotes them
 * in the C locale.  Expected strings were taken from GNU dd 9.1
 * ("failed to open %s": quoteaf; "invalid number: %s": quote) and
 * GNU wc 9.1 ("%s: No such file or directory": quotef).
 */
#include "libbb.h"
#include "unit.h"

struct q_case {
	const char *in, *want;
};

static const struct q_case escaped[] = {
	{ "foo", "'foo'" },
	{ "", "''" },
	{ "a'b", "'a\\'b'" },
	{ "a\\b", "'a\\\\b'" },
	{ "a\001b", "'a\\001b'" },
	{ "a\nb", "'a\\nb'" },
	{ "\a\b\f\r\t\v", "'\\a\\b\\f\\r\\t\\v'" },
	{ "\303\251", "'\\303\\251'" },
	{ "\177", "'\\177'" },
	{ "a\"b", "'a\"b'" },
	{ "a b", "'a b'" },
	{ "a$b~", "'a$b~'" },
	{ "1\t", "'1\\t'" },
};

static const struct q_case always[] = {
	{ "ab", "'ab'" },
	{ "", "''" },
	{ "a'b", "\"a'b\"" },
	{ "a\\b", "'a\\b'" },
	{ "a\001b", "'a'$'\\001''b'" },
	{ "a\nb", "'a'$'\\n''b'" },
	{ "\303\251", "''$'\\303\\251'" },
	{ "a\"b", "'a\"b'" },
	{ "a b", "'a b'" },
	{ "a$b", "'a$b'" },
	{ "~", "'~'" },
	{ "a!b", "'a!b'" },
	{ "a\tb", "'a'$'\\t''b'" },
	{ "'", "\"'\"" },
	{ "a''b", "\"a''b\"" },
	{ "\177", "''$'\\177'" },
	{ "a*b", "'a*b'" },
	{ "a=b", "'a=b'" },
	{ "a#", "'a#'" },
	{ "#a", "'#a'" },
	{ "-a", "'-a'" },
	{ "a,b", "'a,b'" },
	{ "a%b", "'a%b'" },
	{ "{", "'{'" },
	{ "a?b", "'a?b'" },
	{ "a'$b", "'a'\\''$b'" },
	{ "it's a", "\"it's a\"" },
	{ "a'\nb", "'a'\\'''$'\\n''b'" },
	{ "a' b", "\"a' b\"" },
	{ "a'@b", "\"a'@b\"" },
	{ "#'", "\"#'\"" },
	{ "a'#", "'a'\\''#'" },
	{ "a'~", "'a'\\''~'" },
	{ "~'", "\"~'\"" },
	{ "a'{", "'a'\\''{'" },
	{ "{'", "'{'\\'''" },
	{ "a'?", "'a'\\''?'" },
	{ "a@b", "'a@b'" },
	{ "a]b", "'a]b'" },
	{ "a^b", "'a^b'" },
	{ "x{y", "'x{y'" },
	{ "}", "'}'" },
	{ "a\\'b", "'a\\'\\''b'" },
};

static const struct q_case if_needed[] = {
	{ "ab", "ab" },
	{ "a b", "'a b'" },
	{ "a'b", "\"a'b\"" },
	{ "a=b", "'a=b'" },
	{ "#a", "'#a'" },
	{ "a#", "a#" },
	{ "~", "'~'" },
	{ "a~", "a~" },
	{ "{", "'{'" },
	{ "a{", "a{" },
	{ "?", "'?'" },
	{ "a?b", "'a?b'" },
	{ "a@b", "a@b" },
	{ "", "''" },
	{ "a\\b", "'a\\b'" },
	{ "a\nb", "'a'$'\\n''b'" },
	{ "-a", "-a" },
	{ "a%b", "a%b" },
	{ "a+b,c:d]", "'a+b,c:d]'" },
	{ "a^b", "'a^b'" },
	{ "x/y.z_w", "x/y.z_w" },
	{ "\303\251", "''$'\\303\\251'" },
	{ "/dev/sda1", "/dev/sda1" },
};

#define RUN(fn, cases) \
	do { \
		size_t i_; \
		for (i_ = 0; i_ < sizeof(cases) / sizeof(cases[0]); i_++) \
			CHECK_STR(fn(cases[i_].in), cases[i_].want); \
	} while (0)

int main(void)
{
	unit_begin("quote_escaped (GNU quote)");
	RUN(quote_escaped, escaped);
	unit_end();

	unit_begin("quote_always (GNU quoteaf)");
	RUN(quote_always, always);
	unit_end();

	unit_begin("quote_if_needed (GNU quotef)");
	RUN(quote_if_needed, if_needed);
	unit_end();
	return unit_exit_status();
}
