/*
 * getopt.c - the option parser of the applets that take options (dd has
 * none): GNU getopt_long's rules and messages, without libc's getopt.
 *
 * The rules, as GNU's permuting getopt_long applies them:
 *   - "-" and words not starting with '-' are operands; they may come
 *     before, between or after options, and end up (in their order) at
 *     argv[optind..] once parsing is done;
 *   - "--" ends the options: everything after it is an operand;
 *   - "-abc" is a cluster of short options; an option taking an argument
 *     takes the rest of the word ("-n3") or else the next word ("-n 3");
 *   - "--name" may be abbreviated to any prefix that is unambiguous (or
 *     whose candidates all mean the same); an exact name always wins;
 *     "--name=value" or "--name value" gives the argument.
 *
 * We define optind and optarg ourselves, so that libc's getopt (with its
 * own messages and multibyte support) is never linked.
 */
#include <string.h>

#include "libbb.h"

char *optarg;
int optind = 1;

/* The state between calls; it is clear again once bb_getopt has
 * returned -1, so a new parse starts by setting optind = 1. */
/* The rest of a short option cluster being parsed, or NULL. */
static char *cluster;
/* How many operands were stepped over; they sit just before
 * argv[element], the word that holds the option being parsed. */
static int operands_skipped;
static int element;

static void reverse(char **argv, int from, int to)
{
	while (from < --to) {
		char *tmp = argv[from];

		argv[from++] = argv[to];
		argv[to] = tmp;
	}
}

/* Swap the blocks argv[from..mid) and argv[mid..to), keeping the order
 * within each (three reversals). */
static void swap_blocks(char **argv, int from, int mid, int to)
{
	reverse(argv, from, mid);
	reverse(argv, mid, to);
	reverse(argv, from, to);
}

static int is_operand(const char *word)
{
	return word[0] != '-' || word[1] == '\0';
}

/* Move the operands stepped over behind the words just parsed (an option
 * and perhaps its separate argument), then step over the operands that
 * follow.  Returns the index of the next option word, or -1 when none
 * is left (optind then points at the first operand). */
static int next_option_word(int argc, char **argv)
{
	if (operands_skipped) {
		swap_blocks(argv, element - operands_skipped, element, optind);
	}
	while (optind < argc && is_operand(argv[optind])) {
		optind++;
		operands_skipped++;
	}
	if (optind < argc && strcmp(argv[optind], "--") == 0) {
		/* "--" goes before the operands, which then run to the end. */
		swap_blocks(argv, optind - operands_skipped, optind, optind + 1);
		optind++;
		optind -= operands_skipped;
		operands_skipped = 0;
		return -1;
	}
	if (optind == argc) {
		optind -= operands_skipped;
		operands_skipped = 0;
		return -1;
	}
	element = optind;
	return optind++;
}

static int short_option(int argc, char **argv, const char *optstring)
{
	int c = (unsigned char)*cluster++;
	const char *spec = c == ':' ? NULL : strchr(optstring, c);

	if (!spec)
		bb_error_msg_and_usage("invalid option -- '%c'", c);
	if (spec[1] == ':') {
		if (*cluster)
			optarg = cluster;
		else if (optind < argc)
			optarg = argv[optind++];
		else
			bb_error_msg_and_usage("option requires an argument -- '%c'", c);
		cluster = NULL;
	} else if (*cluster == '\0') {
		cluster = NULL;
	}
	return c;
}

/*
 * Long options come as one string of entries, each a letter and a name
 * ("bnumber-nonblank\0" "nnumber\0"): the letter is what bb_getopt
 * returns, and optstring says whether it takes an argument.  "--help"
 * follows every list.
 */
static const char help_entry[] = "\001help";

static const char *next_long(const char *o, const char *longopts)
{
	if (!o)
		o = longopts;
	else if (o == help_entry)
		return NULL;
	else
		o += strlen(o) + 1;
	return *o ? o : help_entry;
}

static int takes_argument(const char *o, const char *optstring)
{
	const char *spec = o == help_entry ? NULL : strchr(optstring, *o);

	return spec && spec[1] == ':';
}

/* GNU's message for an abbreviation of several different options: the
 * candidates in list order, first found first. */
BB_NORETURN static void ambiguous(const char *word, const char *longopts,
				  const char *first, size_t len)
{
	char list[512];
	size_t used = 0;
	const char *o;

	for (o = next_long(NULL, longopts); o && used < sizeof(list);
	     o = next_long(o, longopts))
		if (strncmp(o + 1, word, len) == 0 && (o == first || *o != *first))
			used += bb_format(list + used, sizeof(list) - used,
					  " '--%s'", o + 1);
	bb_error_msg_and_usage("option '--%s' is ambiguous; possibilities:%s",
			       word, list);
}

/* The entry that the name word[0..len) chooses; two names with the same
 * letter mean the same. */
static const char *find_long(const char *word, size_t len,
			     const char *longopts)
{
	const char *o, *found = NULL;
	int unclear = 0;

	for (o = next_long(NULL, longopts); o; o = next_long(o, longopts)) {
		if (strncmp(o + 1, word, len) != 0)
			continue;
		if (o[1 + len] == '\0')
			return o;
		if (!found)
			found = o;
		else if (*o != *found)
			unclear = 1;
	}
	if (!found)
		bb_error_msg_and_usage("unrecognized option '--%s'", word);
	if (unclear)
		ambiguous(word, longopts, found, len);
	return found;
}

static int long_option(int argc, char **argv, const char *word,
		       const char *optstring, const char *longopts)
{
	const char *equals = strchr(word, '=');
	size_t len = equals ? (size_t)(equals - word) : strlen(word);
	const char *o = find_long(word, len, longopts);

	if (takes_argument(o, optstring)) {
		if (equals)
			optarg = (char *)equals + 1;
		else if (optind < argc)
			optarg = argv[optind++];
		else
			bb_error_msg_and_usage("option '--%s' requires an argument",
					       o + 1);
	} else if (equals) {
		bb_error_msg_and_usage("option '--%s' doesn't allow an argument",
				       o + 1);
	}
	if (o == help_entry) {
		bb_print_usage();
		exit(EXIT_SUCCESS);
	}
	return (unsigned char)*o;
}

int bb_getopt(int argc, char **argv, const char *optstring,
	      const char *longopts)
{
	if (optstring[0] == ':')
		optstring++;
	if (!cluster) {
		int at = next_option_word(argc, argv);

		if (at < 0)
			return -1;
		if (argv[at][1] == '-')
			return long_option(argc, argv, argv[at] + 2, optstring,
					   longopts);
		cluster = argv[at] + 1;
	}
	return short_option(argc, argv, optstring);
}
