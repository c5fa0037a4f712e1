/*
 * getopt.c - option parsing with GNU's messages, for applets that take
 * options (dd has none).
 */
#include <getopt.h>
#include <string.h>

#include "libbb.h"

int bb_getopt(int argc, char **argv, const char *optstring,
	      const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, optstring, longopts, NULL);
	if (c == '?' || c == ':') {
		const char *arg = argv[optind - 1];

		if (c == ':' && optopt)
			bb_error_msg_and_usage("option requires an argument -- '%c'",
					    optopt);
		if (c == ':')
			bb_error_msg_and_usage("option '%s' requires an argument", arg);
		if (optopt)
			bb_error_msg_and_usage("invalid option -- '%c'", optopt);
		bb_error_msg_and_usage("unrecognized option '%s'", arg);
	}
	if (c == BB_OPT_HELP) {
		bb_print_usage();
		exit(EXIT_SUCCESS);
	}
	return c;
}
