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
//usage:Copy INFILE to OUTFILE, the readable areas first, then the edges and
//usage:insides of the unreadable ones a sector at a time.  MAPFILE records
//usage:what was read, in GNU ddrescue's format; a rescue resumes from it.
//usage:
//usage:  -b, --sector-size=BYTES    sector size of the input (512)
//usage:  -c, --cluster-size=SECTORS sectors per read while copying (128)
//usage:  -d, --idirect              read the input with O_DIRECT
//usage:  -D, --odirect              write the output with O_DIRECT
//usage:  -f, --force                write to a device or partition
//usage:  -i, --input-position=BYTES start of the rescue in INFILE (0)
//usage:  -o, --output-position=BYTES where it goes in OUTFILE (the -i)
//usage:  -s, --size=BYTES           bytes to rescue at most
//usage:  -n, --no-scrape            leave out the scraping phase
//usage:  -N, --no-trim              leave out the trimming phase
//usage:  -r, --retry-passes=N       retry bad sectors N times (-1: ever)
//usage:  -q, --quiet                no progress and no summary
//usage:  -v, --verbose              tell what is about to be done
//usage:
//usage:Numbers are decimal, 0x hex or 0 octal, with an optional multiplier
//usage:k M G T P E (1000^n) or Ki Mi Gi Ti Pi Ei (1024^n), then s
//usage:(sectors) and B (bytes), e.g. 64Ki, 2048s, 1Mis.

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

/* Blocks the map may hold: room for thousands of scattered bad sectors
 * in well under a MiB (pages are touched only as blocks are added). */
enum { MAX_BLOCKS = 1 << 16 };

static const char longopts[] =
	"bsector-size\0" "ccluster-size\0" "didirect\0" "Dodirect\0"
	"fforce\0" "iinput-position\0" "ooutput-position\0" "ssize\0"
	"nno-scrape\0" "Nno-trim\0" "rretry-passes\0" "qquiet\0"
	"vverbose\0" "Vversion\0";

/* Each option's argument by its letter ("" for a flag), NULL for an
 * option not given. */
static const char *given[128];

/* The number given to option opt, in GNU ddrescue's spelling (sector
 * is what its "s" means, 0 where "s" is refused); dflt if the option
 * was not given. */
static uint64_t number(int opt, uint64_t sector, uint64_t max, uint64_t dflt)
{
	const struct number_syntax rescue = { NULL, sector, NUMBER_RESCUE };
	uint64_t v;

	if (!given[opt])
		return dflt;
	if (parse_number_in(given[opt], &rescue, 0, max, &v) != PARSE_SIZE_OK)
		bb_error_msg_and_usage("invalid number for -%c: %s", opt,
				       quote_escaped(given[opt]));
	return v;
}

/* "message naming 'name'", then exit 1 (the errno ones are
 * exit(bb_perror_name(...))). */
BB_NORETURN static void die_about(const char *fmt, const char *name)
{
	bb_error_msg_and_die(fmt, quote_always(name));
}

static void on_signal(int sig)
{
	rescue_stop_signal = sig;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	if (S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode))
		return a->st_rdev == b->st_rdev;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The mapfile into r->map, and the status line it resumes from; no
 * mapfile yet leaves the map empty. */
static void read_mapfile(struct rescue *r, const struct stat *in_st)
{
	struct mapfile_parser p;
	struct stat st;
	char chunk[4096];
	ssize_t n = 0;
	int fd = open(r->map_name, O_RDONLY | O_CLOEXEC);

	if (fd < 0 && errno != ENOENT)
		exit(bb_perror_name("cannot open mapfile %s", r->map_name));
	if (fd >= 0 && !fstat(fd, &st)) {
		if (same_file(&st, in_st))
			die_about("mapfile %s is the input", r->map_name);
		if (S_ISBLK(in_st->st_mode) && st.st_dev == in_st->st_rdev)
			bb_error_msg("warning: mapfile %s is on the disk being rescued",
				     quote_always(r->map_name));
	}
	if (mapfile_parse_begin(&p, MAX_BLOCKS))
		bb_perror_msg_and_die("cannot reserve the block list");
	while (fd >= 0 && (n = safe_read(fd, chunk, sizeof(chunk))) > 0)
		if (mapfile_parse_feed(&p, chunk, (size_t)n))
			break;
	if (n < 0)
		exit(bb_perror_name("error reading mapfile %s", r->map_name));
	if (p.error || mapfile_parse_end(&p, &r->map)) {
		xfunc_error_retval = 2;
		bb_error_msg_and_die("%s:%u: %s: mapfile refused, left as it is",
				     quote_always(r->map_name), p.lineno, p.error);
	}
	if (fd >= 0)
		close(fd);
	if (p.have_status) {
		r->cur_status = p.cur_status;
		r->cur_pass = p.cur_pass;
	}
}

/* The command line for the mapfile's comment (the options as bb_getopt
 * left them, first), cut where the mapfile would cut it.  A newline
 * would end the comment: it becomes a blank. */
static const char *join_args(char **argv)
{
	static char line[COMMAND_LINE_MAX + 1];
	char *p = stpcpy(line, "ddrescue"), *end = line + COMMAND_LINE_MAX;

	while (*++argv) {
		const char *a = *argv;

		if (p < end)
			*p++ = ' ';
		for (; *a && p < end; a++, p++) {
			*p = *a;
			if (*p == '\n')
				*p = ' ';
		}
	}
	return line;
}

/* The options into r and given[]; the files' names.  Refuses what it
 * can tell wrong before any file is touched. */
static void parse_options(struct rescue *r, int argc, char **argv)
{
	uint64_t size;
	bool unaligned = false;
	int c;

	r->sector = 512;
	for (;;) {
		optarg = "";
		c = bb_getopt(argc, argv, "b:c:dDfi:o:s:nNr:qvVaABCe:E:F:GH:IJK:LmMOpPRST:tuwWx:X:y",
			      longopts);
		if (c < 0)
			break;
		if (c == 'V') {
			bb_print_version();
			exit(0);
		}
		/* The rest of the option string is GNU's options it lacks. */
		if (!strchr("bcdDfiosnNrqv", c))
			bb_error_msg_and_usage("option -%c is not supported by this ddrescue", c);
		given[c] = optarg;
		/* -b and -r are checked as they come, the other numbers
		 * once -b (what their "s" means) is known. */
		if (c == 'b')
			r->sector = number(c, 0, 1 << 20, 0);
		if (c == 'r')
			r->retry_passes = strcmp(optarg, "-1") ? (int)number(c, 0, INT_MAX, 0)
							       : INT_MAX;
	}
	r->no_scrape = given['n'];
	r->no_trim = given['N'];
	r->quiet = given['q'];
	if (!r->sector)
		bb_error_msg_and_usage("invalid sector size 0");
	r->cluster = number('c', 0, (64 << 20) / r->sector, 128) * r->sector;
	if (!r->cluster)
		bb_error_msg_and_usage("invalid cluster size 0");
	r->ipos = number('i', r->sector, INT64_MAX, 0);
	r->opos = number('o', r->sector, INT64_MAX, r->ipos);
	size = number('s', r->sector, INT64_MAX, UINT64_MAX);
	r->iend = r->ipos > UINT64_MAX - size ? UINT64_MAX : r->ipos + size;
	if (argc - optind < 2 || argc - optind > 3)
		bb_error_msg_and_usage(argc - optind < 2 ? "both input and output files must be given"
				       : "too many files");
	r->in_name = argv[optind];
	r->out_name = argv[optind + 1];
	r->map_name = argv[optind + 2];
	/* O_DIRECT reads and writes whole sectors only (no -s: to the end) */
	if (given['s'])
		unaligned = size % r->sector;
	if (given['d'] && (r->ipos % r->sector || unaligned))
		bb_error_msg_and_usage("with -d, -i and -s must be whole sectors");
	if (given['D'] && (r->opos % r->sector || unaligned))
		bb_error_msg_and_usage("with -D, -o and -s must be whole sectors");
}

/* Open the input, check the output, read the mapfile, make the map
 * cover the input and the domain fit in it; then the buffer and the
 * output, last, so that nothing is created when a check fails. */
static void open_files(struct rescue *r)
{
	struct io_end in;
	struct lazy_buffer buf = { NULL, 0 };
	struct stat out_st;
	uint64_t insize;
	bool out_exists;
	int fd = open(r->in_name, O_RDONLY | O_CLOEXEC | (given['d'] ? O_DIRECT : 0));

	if (fd < 0)
		exit(bb_perror_name("cannot open %s", r->in_name));
	io_end_learn(&in, fd, r->in_name);
	r->in_fd = fd;
	if (!in.size_known && !given['s'])
		die_about("the size of %s is unknown; give it with -s", r->in_name);
	insize = in.size_known ? in.size : r->iend;
	out_exists = stat(r->out_name, &out_st) == 0;
	if (out_exists && same_file(&out_st, &in.st))
		bb_error_msg_and_die("input and output are the same file");
	if (out_exists && !S_ISREG(out_st.st_mode) && !given['f'])
		die_about("output %s is not a regular file; use -f to write to it", r->out_name);
	r->cur_status = ST_NONTRIED;
	r->cur_pass = 1;
	if (r->map_name) {
		struct stat map_st;

		if (out_exists && stat(r->map_name, &map_st) == 0 && same_file(&map_st, &out_st))
			bb_error_msg_and_die("mapfile and output are the same file");
		read_mapfile(r, &in.st);
	} else if (map_init(&r->map, MAX_BLOCKS)) {
		bb_perror_msg_and_die("cannot reserve the block list");
	}
	if (map_end(&r->map) < insize &&
	    map_append(&r->map, insize - map_end(&r->map), ST_NONTRIED))
		bb_error_msg_and_die("too many blocks in the mapfile");
	r->iend = min_u64(min_u64(insize, r->iend), map_end(&r->map));
	if (r->iend < r->ipos)
		r->iend = r->ipos;
	if (lazy_buffer_alloc(&buf, r->cluster))
		bb_perror_msg_and_die("cannot allocate %llu bytes", (unsigned long long)r->cluster);
	r->buf = buf.data;

	fd = open(r->out_name, O_WRONLY | O_CREAT | O_CLOEXEC | (given['D'] ? O_DIRECT : 0), 0666);
	if (fd < 0)
		exit(bb_perror_name("cannot open %s", r->out_name));
	r->out_fd = fd;
}

/* The message for why the rescue stopped, and the exit status. */
static int report(struct rescue *r, enum rescue_stop stop)
{
	int sig = rescue_stop_signal;

	rescue_end_line(r);
	switch (stop) {
	case RESCUE_SIGNALED:
		if (!r->quiet)
			bb_error_msg("interrupted by signal %d", sig);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	case RESCUE_WRITE_FAILED:
		bb_errno_msg(r->error, "error writing %s", quote_always(r->out_name));
		return EXIT_FAILURE;
	case RESCUE_MAP_FULL:
		bb_error_msg("too many blocks in the map; resume with the mapfile saved");
		return EXIT_FAILURE;
	default:
		return EXIT_SUCCESS;
	}
}

int ddrescue_main(int argc, char **argv)
{
	struct rescue r;
	struct sigaction sa;

	memset(&r, 0, sizeof(r));
	parse_options(&r, argc, argv);
	open_files(&r);
	r.command_line = join_args(argv);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (given['v'] && !r.quiet)
		bb_dprintf(STDOUT_FILENO, "About to copy %llu bytes from %s to %s\n"
			   "    Starting positions: infile = %llu, outfile = %llu\n"
			   "    Copy block size: %llu sectors, sector size: %llu bytes\n",
			   (unsigned long long)(r.iend - r.ipos), r.in_name, r.out_name,
			   (unsigned long long)r.ipos, (unsigned long long)r.opos,
			   (unsigned long long)(r.cluster / r.sector),
			   (unsigned long long)r.sector);
	return report(&r, rescue_run(&r));
}
