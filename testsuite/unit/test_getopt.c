/*
 * test_getopt.c - bb_getopt's rules, as GNU's permuting getopt_long has
 * them: which options come back, with which arguments, and where the
 * operands are afterwards.  The shell tests check the messages against
 * the host's tools; here also a rule no applet's table can show (two
 * names with the same meaning are not ambiguous) and the error exits.
 */
#include "libbb.h"
#include "unit.h"
#include "unit_child.h"

/* "--qu" means the same either way; "--ver" is ambiguous. */
static const char longopts[] =
	"nlines\0" "qquiet\0" "qquit\0" "vverbose\0" "Vversion\0";

/* Parse the words (after a program name) and describe the result:
 * each option as "c" or "c=arg", then "|" and the operands. */
static const char *parse(const char *const *words)
{
	static char out[256];
	char *argv[16];
	int argc = 1, c;
	size_t len = 0;

	argv[0] = (char *)"prog";
	while (*words)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	optind = 1;
	while ((c = bb_getopt(argc, argv, ":n:qv", longopts)) != -1)
		len += bb_format(out + len, sizeof(out) - len,
				 c == 'n' ? "%c=%s " : "%c ", c, optarg);
	len += bb_format(out + len, sizeof(out) - len, "|");
	for (; optind < argc; optind++)
		len += bb_format(out + len, sizeof(out) - len, " %s",
				 argv[optind]);
	return out;
}

/* Set while a parse must not end the process (an error message there
 * exits): then say which group failed, instead of dying silently. */
static int must_return;

static void report_unexpected_exit(void)
{
	if (must_return)
		printf("FAIL: %s (the parser exited)\n", unit_group);
}

#define PARSE(want, ...) \
	do { \
		must_return = 1; \
		CHECK_STR(parse((const char *const[]){ __VA_ARGS__, NULL }), want); \
		must_return = 0; \
	} while (0)

static void test_short(void)
{
	unit_begin("short options, clusters, attached or separate argument");
	PARSE("q v |", "-q", "-v");
	PARSE("q v n=3 |", "-qvn3");
	PARSE("q n=3 | f", "-qn", "3", "f");
	PARSE("n=-q |", "-n", "-q");
	PARSE("n=-- | f", "-n", "--", "f");
	unit_end();
}

static void test_long(void)
{
	unit_begin("long options: exact, prefixes, =value or separate");
	PARSE("n=2 |", "--lines=2");
	PARSE("n=2 |", "--li", "2");
	PARSE("n= |", "--lines=");
	PARSE("n=a=b |", "--l=a=b");
	PARSE("q q |", "--quiet", "--quit");
	PARSE("q |", "--qu");
	PARSE("v |", "--verb");
	PARSE("V |", "--versio");
	unit_end();
}

static void test_permutation(void)
{
	unit_begin("operands move behind the options, in their order");
	PARSE("| a b", "a", "b");
	PARSE("q | a", "a", "-q");
	PARSE("q n=1 v | a b c", "a", "-q", "b", "-n", "1", "c", "-v");
	PARSE("n=x | a b", "a", "--lines", "x", "b");
	PARSE("q | - a", "-", "-q", "a");
	PARSE("q | ", "-q", "");
	unit_end();
}

static void test_double_dash(void)
{
	unit_begin("-- ends the options, operands keep their order");
	PARSE("| -q", "--", "-q");
	PARSE("q | a -v b", "a", "-q", "--", "-v", "b");
	PARSE("q | a --", "-q", "a", "--", "--");
	PARSE("q |", "-q", "--");
	unit_end();
}

/* parse, for unit_run_child: an error message there exits. */
static void parse_child(const void *words)
{
	parse(words);
}

#define FAILS(want, ...) \
	do { \
		char err_[512]; \
		CHECK(unit_run_child(parse_child, \
				     (const char *const[]){ __VA_ARGS__, NULL }, \
				     err_, sizeof(err_), NULL) == 1); \
		CHECK_STR(err_, want "\nTry 'zerobox --help' for more information.\n"); \
	} while (0)

static void test_errors(void)
{
	unit_begin("errors: GNU's messages, exit 1");
	FAILS("zerobox: invalid option -- 'x'", "a", "-qx");
	FAILS("zerobox: invalid option -- ':'", "-:");
	FAILS("zerobox: option requires an argument -- 'n'", "-qn");
	FAILS("zerobox: unrecognized option '--lines-x=1'", "--lines-x=1");
	FAILS("zerobox: option '--lines' requires an argument", "a", "--lin");
	FAILS("zerobox: option '--quiet' doesn't allow an argument", "--quie=1");
	FAILS("zerobox: option '--ver' is ambiguous; possibilities: '--verbose' '--version'",
	      "--ver");
	FAILS("zerobox: option '--=1' is ambiguous; possibilities: '--lines' '--quiet' '--quit' '--verbose' '--version' '--help'",
	      "--=1");
	unit_end();
}

int main(void)
{
	atexit(report_unexpected_exit);
	test_short();
	test_long();
	test_permutation();
	test_double_dash();
	test_errors();
	return unit_exit_status();
}
