/*
 * test_quote.c - names and operands quoted as GNU coreutils quotes them
 * in the C locale.  Expected strings were taken from GNU dd 9.1
 * ("failed to open %s": quoteaf; "invalid number: %s": quote) and
 * GNU wc 9.1 ("%s: No such file or directory": quotef).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* A name that needs no quoting comes back as itself: nothing mapped. */
static void test_bare_is_itself(void)
{
	static const char name[] = "/dev/sda1";

	unit_begin("quote_if_needed maps nothing for a bare name");
	CHECK(quote_if_needed(name) == name);
	CHECK(quote_if_needed("a b") != NULL);
	unit_end();
}

/* errno survives quoting, including the free of the oldest ring slot. */
static void test_keeps_errno(void)
{
	int i;

	unit_begin("quoting keeps errno");
	for (i = 0; i < 6; i++) {
		errno = EIO;
		quote_always("a b");
		CHECK(errno == EIO);
		errno = ENOSPC;
		quote_escaped("x");
		CHECK(errno == ENOSPC);
		errno = EROFS;
		quote_if_needed("c d");
		CHECK(errno == EROFS);
	}
	unit_end();
}

/*
 * With no address space left, quoting neither exits ("memory exhausted")
 * nor loses errno: the child exits 0 with the bare text, or 2 if it got
 * memory after all (qemu-user applies no RLIMIT_AS), 3 on a wrong answer.
 */
static void test_no_memory(void)
{
	pid_t pid;
	int status = 0;

	unit_begin("quoting with no memory neither dies nor loses errno");
	pid = fork();
	if (pid == 0) {
		struct rlimit rl;
		const char *q;

		getrlimit(RLIMIT_AS, &rl);
		rl.rlim_cur = 0;
		if (setrlimit(RLIMIT_AS, &rl) != 0)
			_exit(2);
		errno = EIO;
		q = quote_always("a b");
		if (errno != EIO)
			_exit(3);
		if (strcmp(q, "'a b'") == 0)
			_exit(2);
		_exit(strcmp(q, "a b") == 0 ? 0 : 3);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		unit_fail("fork/waitpid failed");
	else if (!WIFEXITED(status) ||
		 (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2))
		unit_fail("child status %#x", (unsigned)status);
	unit_end();
}

int main(void)
{
	test_bare_is_itself();
	test_keeps_errno();
	test_no_memory();

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
