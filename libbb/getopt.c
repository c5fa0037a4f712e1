/*
 * getopt.c - option parsing with GNU's messages, for applets that take
 * options (dd has none).
 */
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"

int bb_try_help_prefixed;

void bb_show_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bb_verror_msg(0, fmt, ap);
	va_end(ap);
	if (bb_try_help_prefixed)
		bb_error_msg("Try '%s --help' for more information.", applet_name);
	else
		bb_dprintf(STDERR_FILENO,
			   "Try '%s --help' for more information.\n", applet_name);
	exit(xfunc_error_retval);
}

int bb_getopt(int argc, char **argv, const char *optstring,
	      const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, optstring, longopts, NULL);
	if (c == '?' || c == ':') {
		const char *arg = argv[optind - 1];

		if (c == ':' && optopt)
			bb_show_usage_error("option requires an argument -- '%c'",
					    optopt);
		if (c == ':')
			bb_show_usage_error("option '%s' requires an argument", arg);
		if (optopt)
			bb_show_usage_error("invalid option -- '%c'", optopt);
		bb_show_usage_error("unrecognized option '%s'", arg);
	}
	if (c == BB_OPT_HELP) {
		bb_print_usage();
		exit(EXIT_SUCCESS);
	}
	return c;
}
