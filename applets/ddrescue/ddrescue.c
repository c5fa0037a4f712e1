/*
 * ddrescue.c - rescue the readable data of a failing disk, as GNU
 * ddrescue does, keeping its mapfile: the options, the checks that
 * come before anything is written, reading the mapfile, then the passes
 * (rescue.c).  Bad input is refused before the output is opened.
 */
//config:config DDRESCUE
//config:	bool "ddrescue"
//config:	default y
//config:	help
//config:	  Copy a failing disk, good areas first, with GNU ddrescue's
//config:	  passes (copy, trim, scrape, retry) and its mapfile, so that a
//config:	  rescue can be stopped and resumed, also by GNU ddrescue.

//applet:ddrescue ddrescue_main DDRESCUE

//usage:[OPTION]... INFILE OUTFILE [MAPFILE]
//usage:Copy INFILE to OUTFILE, the good areas first, as GNU ddrescue does;
//usage:MAPFILE (its format) records what was read: a rescue resumes from it.
//usage:-b N sector size (512)  -c N sectors a read (64 KiB)  -d -D O_DIRECT in, out
//usage:-f write to a device  -i -o -s N start in INFILE, in OUTFILE (-i), size
//usage:-m MAP only what MAP calls finished  -n -N no scraping, no trimming
//usage:-r N retry passes (-1: no end)  -R all passes reversed  -S sparse output
//usage:-M trim all failed again  -A copy non-trimmed again  -O reopen after errors
//usage:-K I,M skip sizes  -e [+]N stop at N (new) bad areas  -E N at N bytes/s failed
//usage:-T S stop S after a good read (m h d: minutes, hours, days)
//usage:-a N skip areas under N bytes/s (0: auto) after --delay-slow=S
//usage:-q -v quiet, verbose; GNU's long option names work too
//usage:N: 0x hex, 0 octal; k M G.. 1000^n, Ki Mi.. 1024^n; s sectors

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

/* The long-only option: a code past the letters. */
enum { OPT_DELAY_SLOW = 0x80 };

/* GNU ddrescue's options, and the long names of those it lacks, so that
 * they too are refused by name (its long-only ones it lacks, --ask,
 * --cpass, --log-reads and the like, are unrecognized by name). */
static const char longopts[] =
	"bsector-size\0" "ccluster-size\0" "didirect\0" "Dodirect\0"
	"fforce\0" "iinput-position\0" "ooutput-position\0" "ssize\0"
	"nno-scrape\0" "Nno-trim\0" "rretry-passes\0" "qquiet\0"
	"vverbose\0" "Vversion\0" "Rreverse\0" "Ssparse\0" "Mretrim\0"
	"Atry-again\0" "mdomain-mapfile\0" "Kskip-size\0" "emax-bad-areas\0"
	"Emax-error-rate\0" "Ttimeout\0" "amin-read-rate\0" "Oreopen-on-error\0"
	"\x80" "delay-slow\0"
	"Bbinary-prefixes\0" "Ccomplete-only\0" "Ffill-mode\0" "Ggenerate-mode\0"
	"Htest-mode\0" "Iverify-input-size\0" "Jverify-on-error\0" "Lloose-domain\0"
	"ppreallocate\0" "Pdata-preview\0" "ttruncate\0" "uunidirectional\0"
	"wignore-write-errors\0" "Wcompare-before-write\0" "xextend-outfile\0"
	"Xmax-read-errors\0" "ysynchronous\0" "Zmax-read-rate\0";
/* Those it has, then those it lacks (an argument where GNU's takes one). */
static const char optstring[] = "b:c:dDfi:o:s:nNr:qvVRSMAm:K:e:E:T:a:O\x80:"
	"BCF:GH:IJLpPtuwWx:X:yZ:";

/* Each option's argument by its code ("" for a flag), NULL for an
 * option not given. */
static const char *given[256];

/* The number given to option opt, in GNU ddrescue's spelling (sector
 * is what its "s" means, 0 where "s" is refused), in [min, max]; dflt
 * if the option was not given. */
static uint64_t number(int opt, uint64_t sector, uint64_t min, uint64_t max, uint64_t dflt)
{
	const struct number_syntax rescue = { NULL, sector, NUMBER_RESCUE };
	uint64_t v;

	if (!given[opt])
		return dflt;
	if (parse_number_in(given[opt], &rescue, min, max, &v) != PARSE_SIZE_OK)
		bb_error_msg_and_usage("invalid number for -%c: %s", opt,
				       quote_escaped(given[opt]));
	return v;
}

/* A position or a byte count given to option opt (up to INT64_MAX, "s"
 * in sectors of -b); dflt if it was not given. */
static uint64_t bytes_option(const struct rescue *r, int opt, uint64_t dflt)
{
	return number(opt, r->sector, 0, INT64_MAX, dflt);
}

/* Was option opt given as -1 (no limit)? */
static bool minus_one(int opt)
{
	return given[opt] && !strcmp(given[opt], "-1");
}

/* -T and --delay-slow: whole seconds, or minutes, hours, days with m,
 * h, d after them. */
static uint64_t seconds(int opt, uint64_t dflt)
{
	static const struct number_syntax integer = { NULL, 0, NUMBER_INTEGER };
	static const char units[] = "smhd";
	static const unsigned to_seconds[] = { 1, 60, 3600, 86400 };
	const char *s = given[opt], *u;
	uint64_t v;

	if (!s)
		return dflt;
	if (scan_number(&s, &integer, &v) != PARSE_SIZE_OK ||
	    (*s && ((u = strchr(units, *s)) == NULL || s[1])) ||
	    __builtin_mul_overflow(v, *s ? to_seconds[u - units] : 1, &v))
		bb_error_msg_and_usage("invalid time for %s: %s",
				       opt == 'T' ? "-T" : "--delay-slow",
				       quote_escaped(given[opt]));
	return v;
}

/* The long name of option code c, from longopts. */
static const char *option_name(int c)
{
	const char *o = longopts;

	while ((unsigned char)*o != c)
		o += strlen(o) + 1;
	return o + 1;
}

/* GNU's skip sizes: from INITIAL (0: no skipping), at most MAX, both
 * rounded up to whole sectors; by default the larger of 64 KiB and
 * 1/100,000 of the input, at most 1% of it. */
static void skip_sizes(struct rescue *r)
{
	static const struct number_syntax rescue_number = { NULL, 0, NUMBER_RESCUE };
	enum { MIN_SKIP = 64 << 10 };
	const uint64_t max_skip = 1ull << 60;
	struct number_syntax syn = rescue_number;
	const char *s = given['K'];
	uint64_t first = r->insize / 100000, max = 0;

	first = first > MIN_SKIP ? (first + MIN_SKIP - 1) / MIN_SKIP * MIN_SKIP : MIN_SKIP;
	syn.sector = r->sector;
	if (s && *s != ',' && scan_number(&s, &syn, &first) != PARSE_SIZE_OK)
		s = "?";
	if (s && *s == ',' && (++s, scan_number(&s, &syn, &max) != PARSE_SIZE_OK))
		s = "?";
	if (s && (*s || (first && first < MIN_SKIP) || first > max_skip ||
		  (max && (max < MIN_SKIP || max > max_skip || first > max))))
		bb_error_msg_and_usage("invalid skip sizes for -K: %s",
				       quote_escaped(given['K']));
	if (!max)
		max = r->insize / 100 > first ? r->insize / 100 : first;
	r->skip_min = (first + r->sector - 1) / r->sector * r->sector;
	r->skip_max = (max + r->sector - 1) / r->sector * r->sector;
}

/* The options into r and given[]; the files' names.  Refuses what it
 * can tell wrong before any file is touched.  Returns -s (UINT64_MAX:
 * none). */
static uint64_t parse_options(struct rescue *r, int argc, char **argv)
{
	/* the letters of FLAG_*, in the order of their bits */
	static const char flag_letters[] = "nNqRSMAOfdD";
	size_t i;
	int c;

	for (;;) {
		optarg = "";
		c = bb_getopt(argc, argv, optstring, longopts);
		if (c < 0)
			break;
		if (c == 'V') {
			bb_print_version();
			exit(0);
		}
		/* The options from 'B' on in optstring are GNU's it lacks. */
		if (strchr(optstring, c) >= strchr(optstring, 'B'))
			bb_error_msg_and_usage("option not supported: -%c, --%s",
					       c, option_name(c));
		given[c] = optarg;
	}
	r->sector = number('b', 0, 1, 1 << 20, 512);
	r->cluster = number('c', 0, 1, (64 << 20) / r->sector,
			    r->sector < 65536 ? 65536 / r->sector : 1) * r->sector;
	r->retry_passes = minus_one('r') ? INT_MAX
			  : (int)number('r', 0, 0, INT_MAX / 2, 0);
	r->ipos = bytes_option(r, 'i', 0);
	r->opos = bytes_option(r, 'o', r->ipos);
	r->min_rate = given['a'] ? (int64_t)bytes_option(r, 'a', 0) : -1;
	r->delay_slow = seconds(OPT_DELAY_SLOW, 30);
	r->timeout = seconds('T', UINT64_MAX);
	r->max_error_rate = bytes_option(r, 'E', UINT64_MAX);
	r->new_bad_only = given['e'] && *given['e'] == '+';
	r->max_bad_areas = number('e', 0, 0, INT64_MAX, UINT64_MAX);
	for (i = 0; flag_letters[i]; i++)
		if (given[(unsigned char)flag_letters[i]])
			r->flags |= 1u << i;
	r->domain_name = given['m'];
	r->in_flags = O_RDONLY | O_CLOEXEC | (r->flags & FLAG_DIRECT_IN ? O_DIRECT : 0);
	if (argc - optind < 2 || argc - optind > 3)
		bb_error_msg_and_usage("give INFILE, OUTFILE and maybe MAPFILE");
	r->in_name = argv[optind];
	r->out_name = argv[optind + 1];
	r->map_name = argv[optind + 2];
	skip_sizes(r);
	return minus_one('s') ? UINT64_MAX
	       : bytes_option(r, 's', UINT64_MAX);
}

/* The command line for the mapfile's comment (the options as bb_getopt
 * left them, first), cut where the mapfile would cut it.  A newline
 * would end the comment: it becomes a blank. */
static const char *join_args(char **argv)
{
	static char line[COMMAND_LINE_MAX + 1];
	char *p = line, *end = line + COMMAND_LINE_MAX;
	const char *a = "ddrescue";

	for (;;) {
		for (; *a && p < end; a++, p++) {
			*p = *a;
			if (*p == '\n')
				*p = ' ';
		}
		if ((a = *++argv) == NULL)
			break;
		if (p < end)
			*p++ = ' ';
	}
	*p = '\0';
	return line;
}

/* Why the rescue stopped, said; the exit status (a signal is raised
 * again once the mapfile is saved, as GNU does). */
static int report(struct rescue *r, enum rescue_stop stop)
{
	/* in the order of enum rescue_stop, from RESCUE_WRITE_FAILED */
	static const char *const why[] = {
		"error writing %s", "error reading %s", "cannot reopen %s",
		"error saving mapfile %s",
		"%s: unaligned read: is the sector size (-b) right?",
		"input file %s disappeared", "memory exhausted", "too many bad areas",
		"too high error rate reading the input", "timeout expired",
	};
	_Static_assert(ARRAY_SIZE(why) == RESCUE_TIMEOUT - RESCUE_WRITE_FAILED + 1,
		       "a message for every stop");
	int sig = r->transfer.stopped_by;
	const char *name = stop == RESCUE_WRITE_FAILED ? r->out_name
			   : stop == RESCUE_SAVE_FAILED ? r->map_name : r->in_name;

	if (stop == RESCUE_FINISHED)
		return EXIT_SUCCESS;
	if (stop == RESCUE_SIGNALED) {
		if (!(r->flags & FLAG_QUIET))
			bb_dprintf(STDOUT_FILENO, "Interrupted by user\n");
		/* its default action is back (SA_RESETHAND) */
		(void)raise(sig);
		return 128 + sig;
	}
	bb_errno_msg(stop <= RESCUE_SAVE_FAILED ? r->error : 0, why[stop - RESCUE_WRITE_FAILED],
		     quote_always(name));
	return EXIT_FAILURE;
}

int ddrescue_main(int argc, char **argv)
{
	struct rescue r;
	uint64_t size;

	memset(&r, 0, sizeof(r));
	size = parse_options(&r, argc, argv);
	r.command_line = join_args(argv);
	r.cur_status = ST_NONTRIED;
	r.cur_pass = 1;
	r.phase = "Starting";
	setup(&r, size);
	skip_sizes(&r);         /* again, now that the input's size is known */
	/* GNU ddrescue answers SIGINT even where it was ignored (a job
	 * started in the background) */
	transfer_catch_signals(CATCH_INTERRUPT | CATCH_IGNORED_INTERRUPT |
			       CATCH_TERMINATE);
	r.screen.fd = STDOUT_FILENO;
	if (given['v'] && !(r.flags & FLAG_QUIET))
		bb_dprintf(STDOUT_FILENO, "About to copy %llu bytes from %s to %s\n",
			   (unsigned long long)domain_size(&r), r.in_name, r.out_name);
	show_initial_status(&r);
	return report(&r, rescue_run(&r));
}
