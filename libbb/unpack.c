/*
 * unpack.c - the front end of the decompressing applets (zcat/gunzip,
 * xzcat/unxz): the options, standard input or each FILE in turn,
 * FILE.gz -> FILE, and the exit status (0, 1 for an error, 2 for a
 * warning), as GNU gzip and xz have them.  The format's decode function
 * turns each input into bytes through unpack_io.c; docs/unpack.md has
 * the rules and the messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libbb.h"

enum { EXIT_WARNING = 2 };

/* A decoder's result is the exit status. */
_Static_assert((int)UNPACK_OK == EXIT_SUCCESS && (int)UNPACK_ERROR == EXIT_FAILURE
	       && (int)UNPACK_WARNING == EXIT_WARNING, "unpack_result is the exit status");

/* The options, one bit each in the order of UNPACK_OPTIONS ("cdfkqt"). */
enum {
	OPT_STDOUT = 1 << 0,
	OPT_FORCE = 1 << 2,
	OPT_KEEP = 1 << 3,
	OPT_QUIET = 1 << 4,
	OPT_TEST = 1 << 5,
};

struct unpack_run {
	const struct unpack_format *format;
	struct unpack_io io;
	unsigned opts;
};

/* The status of a run after one more file: an error outweighs a
 * warning, which outweighs success (gzip's exit_code). */
static int worse(int status, int r)
{
	return r == EXIT_FAILURE || status == EXIT_SUCCESS ? r : status;
}

/* Decode what in_fd holds to out_fd; the exit status for this input. */
static int decode(struct unpack_run *run, int in_fd, const char *name,
		  int out_fd, const char *out_name)
{
	struct unpack_io *io = &run->io;
	enum unpack_result r;

	io->in_fd = in_fd;
	io->name = name;
	io->out_fd = out_fd;
	io->out_name = out_name;
	io->at_end = false;
	io->in_next = io->in_end = io->in_buf + UNPACK_KEEP;
	r = run->format->decode(io);
	/* After damaged data, or a read or write error, nothing more
	 * (gzip aborts there): the output holds a prefix of the whole. */
	if (r == UNPACK_ERROR && (io->read_failed || io->write_failed))
		io->stop = true;
	return (int)r;
}

/* A file left alone, with a warning: exit status 2, and no message
 * under -q. */
static int skip_file(struct unpack_run *run, const char *name, const char *why)
{
	if (!(run->opts & OPT_QUIET))
		bb_error_msg("%s%s", name, why);
	return EXIT_WARNING;
}

/* Open FILE to read it: its descriptor, -1 after an error, -2 for a
 * directory (a warning, as gzip). */
static int open_named(struct unpack_run *run, const char *name, int flags,
		      struct stat *st)
{
	int fd = open(name, O_RDONLY | flags);

	if (fd < 0) {
		bb_perror_msg("%s", name);
		return -1;
	}
	if (fstat(fd, st) == 0 && S_ISDIR(st->st_mode)) {
		skip_file(run, name, " is a directory -- ignored");
		close(fd);
		return -2;
	}
	return fd;
}

/* -c or -t: FILE (or standard input) to standard output. */
static int unpack_to_stdout(struct unpack_run *run, const char *name)
{
	struct stat st;
	int fd, status;

	if (strcmp(name, "-") == 0) {
		struct winsize ws;

		/* isatty(), without linking it */
		if (!(run->opts & OPT_FORCE) && ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
			bb_error_msg_and_usage("compressed data not read from a terminal. "
					       "Use -f to force decompression.");
		return decode(run, STDIN_FILENO, run->format->stdin_name,
			      STDOUT_FILENO, "stdout");
	}
	fd = open_named(run, name, 0, &st);
	if (fd < 0)
		return fd == -1 ? EXIT_FAILURE : EXIT_WARNING;
	status = decode(run, fd, name, STDOUT_FILENO, "stdout");
	close(fd);
	return status;
}

/* The name FILE.gz decompresses to (mapped, for free_mapped), or NULL
 * when it has none of the format's suffixes. */
static char *output_name(const struct unpack_format *format, const char *name)
{
	const char *base = strrchr(name, '/');
	size_t len = strlen(name), base_len = len - (base ? (size_t)(base + 1 - name) : 0);

	for (const char *const *s = format->suffixes; *s; s += 2) {
		size_t cut = strlen(s[0]);

		if (base_len > cut && strcasecmp(name + len - cut, s[0]) == 0) {
			char *out = xmalloc(len - cut + strlen(s[1]) + 1);

			memcpy(out, name, len - cut);
			strcpy(out + len - cut, s[1]);
			return out;
		}
	}
	return NULL;
}

/* Create out_name for writing, new (-f: after removing what was
 * there): its descriptor, -1 after an error, -2 when it exists. */
static int create_output(struct unpack_run *run, const char *out_name)
{
	int fd;

	for (;;) {
		fd = open(out_name, O_WRONLY | O_CREAT | O_EXCL, S_IRUSR | S_IWUSR);
		if (fd >= 0 || errno != EEXIST)
			break;
		if (!(run->opts & OPT_FORCE)) {
			/* gzip's words, and printed even under -q. */
			bb_error_msg("%s already exists;\tnot overwritten", out_name);
			return -2;
		}
		if (unlink(out_name) != 0)
			break;
	}
	if (fd < 0)
		bb_perror_msg("%s", out_name);
	return fd;
}

/* The source's owner, mode and times go to the output, which is then
 * closed; 0, or -1 after reporting a failed close. */
static int finish_output(int fd, const char *out_name, const struct stat *st)
{
	const struct timespec times[2] = { st->st_atim, st->st_mtim };

	/* As gzip: the owner where allowed, then the mode (which a change
	 * of owner may have cleared the set-id bits of). */
	if (fchown(fd, st->st_uid, st->st_gid) != 0) {
		/* not root: the file stays ours */
	}
	fchmod(fd, st->st_mode & 07777);
	futimens(fd, times);
	if (close(fd) != 0) {
		bb_perror_msg("%s", out_name);
		return -1;
	}
	return 0;
}

/* FILE.gz, open as in, -> out_name. */
static int unpack_opened(struct unpack_run *run, int in, const char *name,
			 const struct stat *st, const char *out_name)
{
	int out, status;

	if (!S_ISREG(st->st_mode))
		return skip_file(run, name, " is not a directory or a regular file - ignored");
	if (st->st_nlink > 1 && !(run->opts & OPT_FORCE)) {
		unsigned long others = (unsigned long)st->st_nlink - 1;
		char why[64];

		bb_format(why, sizeof(why), " has %lu other link%s -- file ignored",
			  others, others == 1 ? "" : "s");
		return skip_file(run, name, why);
	}
	out = create_output(run, out_name);
	if (out < 0)
		return out == -1 ? EXIT_FAILURE : EXIT_WARNING;
	fcntl(in, F_SETFL, fcntl(in, F_GETFL) & ~O_NONBLOCK);
	status = decode(run, in, name, out, out_name);
	if (status == EXIT_FAILURE) {
		close(out);
		unlink(out_name);
	} else if (finish_output(out, out_name, st) != 0) {
		unlink(out_name);
		status = EXIT_FAILURE;
	} else if (!(run->opts & OPT_KEEP) && unlink(name) != 0) {
		bb_perror_msg("%s", name);
		status = EXIT_FAILURE;
	}
	return status;
}

/* FILE.gz -> FILE. */
static int unpack_to_file(struct unpack_run *run, const char *name)
{
	struct stat st;
	char *out_name;
	int in, status;

	out_name = output_name(run->format, name);
	if (!out_name) {
		/* gzip is silent here under -q, and then exits 0. */
		if (run->opts & OPT_QUIET)
			return EXIT_SUCCESS;
		return skip_file(run, name, ": unknown suffix -- ignored");
	}
	/* Not through a symbolic link, unless -f; no waiting for a fifo's
	 * writer, since a fifo is refused. */
	in = open_named(run, name,
			O_NONBLOCK | (run->opts & OPT_FORCE ? 0 : O_NOFOLLOW), &st);
	if (in >= 0) {
		status = unpack_opened(run, in, name, &st, out_name);
		close(in);
	} else {
		status = in == -1 ? EXIT_FAILURE : EXIT_WARNING;
	}
	free_mapped(out_name);
	return status;
}

int unpack_main(int argc, char **argv, const struct unpack_format *format)
{
	static char *const stdin_only[] = { (char *)"-", NULL };
	struct unpack_run run;
	char *const *files;
	size_t len = strlen(applet_name);
	int c, status = EXIT_SUCCESS;

	memset(&run, 0, sizeof(run));
	run.format = format;
	run.io.mem_limit = UINT64_MAX;
	/* zcat, xzcat */
	if (len >= 3 && strcmp(applet_name + len - 3, "cat") == 0)
		run.opts = OPT_STDOUT;
	while ((c = bb_getopt(argc, argv,
			      format->options ? format->options : UNPACK_OPTIONS,
			      format->longopts ? format->longopts : UNPACK_LONGOPTS))
	       != -1) {
		const char *o = strchr(UNPACK_OPTIONS, c);

		if (o)
			run.opts |= 1u << (o - UNPACK_OPTIONS);
		else
			format->option(&run.io, c, optarg);
	}
	if (run.opts & OPT_TEST)
		run.opts |= OPT_STDOUT;
	run.io.quiet = run.opts & OPT_QUIET;
	run.io.to_null = run.opts & OPT_TEST;
	run.io.copy_unknown = (run.opts & (OPT_FORCE | OPT_STDOUT)) == (OPT_FORCE | OPT_STDOUT);
	run.io.in_buf = xmalloc(UNPACK_KEEP + UNPACK_IN_SIZE);
	files = optind < argc ? argv + optind : stdin_only;
	for (; *files && !run.io.stop; files++) {
		const char *name = *files;

		if ((run.opts & OPT_STDOUT) || strcmp(name, "-") == 0)
			status = worse(status, unpack_to_stdout(&run, name));
		else if (ENABLE_FEATURE_UNPACK_FILES)
			status = worse(status, unpack_to_file(&run, name));
		else
			bb_error_msg_and_die("no FILE.gz -> FILE in this build "
					     "(FEATURE_UNPACK_FILES is off): use -c");
	}
	return status;
}
