/*
 * zerobox.c - the multicall entry.
 *
 * Runs the applet named by the base name of argv[0] (a link such as
 * /bin/dd), or, when that name starts with "zerobox", the one named by the
 * base name of the first argument (zerobox dd if=..., zerobox /bin/dd
 * if=..., as BusyBox does).  The applet table, its prototypes and usage
 * texts are generated from each applet's own annotations into
 * applet_tables.h (scripts/gen_applets.sh).
 *
 *   zerobox                        short help (exit 0, as busybox)
 *   zerobox --help [APPLET]        the same, or APPLET's usage text
 *   zerobox --version              "zerobox X.Y.Z"
 *   zerobox --list                 enabled applets, one per line
 *   zerobox --list-full            the same with the install directory
 *   zerobox --install [-s] [DIR]   a hard link (-s: symlink) per applet,
 *                                  in DIR or next to the binary
 *   APPLET --help, APPLET --version
 *
 * Exit status: the applet's, 127 for an unknown applet, 1 for a failed
 * --install or write.  A diagnostic that could not be written to stderr
 * turns a success into a failure (bb_exit_status).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"

struct applet {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *usage;      /* "Usage: NAME SYNOPSIS\n" and the rest */
};

/* Prototypes, USAGE_* texts, applets[] sorted by name, NUM_APPLETS. */
#include "applet_tables.h"

enum { EXIT_NOT_FOUND = 127 };

/* Where make install and zerobox --install put the links, relative to the
 * prefix (shown by --list-full). */
#define APPLET_DIR "bin/"

static const struct applet *find_applet(const char *name)
{
	size_t lo = 0, hi = NUM_APPLETS;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(name, applets[mid].name);

		if (cmp == 0)
			return &applets[mid];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static int run_applet(const struct applet *a, int argc, char **argv)
{
	/* Messages start with the name as invoked, as GNU's do ("dd: ..."
	 * through a link in PATH, "/bin/dd: ..." when run by path). */
	applet_name = argv[0];
	applet_usage = a->usage;
	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		bb_print_usage();
		return EXIT_SUCCESS;
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		bb_print_version();
		return EXIT_SUCCESS;
	}
	return a->main(argc, argv);
}

static int not_found(const char *name)
{
	bb_error_msg("applet not found: %s", name);
	return EXIT_NOT_FOUND;
}

/* Write s to stdout; on failure complain once and remember it. */
static int write_failed;
static void out(const char *s)
{
	if (!write_failed &&
	    full_write_str(STDOUT_FILENO, s) != (ssize_t)strlen(s)) {
		bb_perror_msg("write error");
		write_failed = 1;
	}
}

static int list_applets(const char *dir)
{
	for (const struct applet *a = applets; a->name; a++) {
		out(dir);
		out(a->name);
		out("\n");
	}
	return write_failed;
}

static int help(void)
{
	size_t col = 0;

	out("zerobox: one binary, many applets.\n"
	    "Usage: zerobox APPLET [ARG]...\n"
	    "   or: APPLET [ARG]...            through a link named APPLET\n"
	    "   or: APPLET --help              the applet's usage\n"
	    "   or: zerobox --help APPLET      the same\n"
	    "   or: zerobox --version          the version\n"
	    "   or: zerobox --list[-full]      the applets, one per line\n"
	    "                                  (-full: with their directory)\n"
	    "   or: zerobox --install [-s] [DIR]  a hard link (-s: symbolic)\n"
	    "                                  per applet in DIR (default: the\n"
	    "                                  binary's own directory)\n"
	    "\nApplets:\n");
	/* "  a, b, c", wrapped before column 78. */
	for (const struct applet *a = applets; a->name; a++) {
		size_t n = strlen(a->name);

		if (a != applets) {
			out(",");
			if (++col + 1 + n > 78) {
				out("\n");
				col = 0;
			}
		}
		out(col ? " " : "  ");
		col += (col ? 1 : 2) + n;
		out(a->name);
	}
	out(NUM_APPLETS ? "\n" : "  (none)\n");
	return write_failed;
}

/* zerobox --install [-s] [DIR] */
static int install_links(char **argv)
{
	char self[PATH_MAX], path[PATH_MAX];
	const char *dir;
	int symbolic = 0, status = EXIT_SUCCESS;
	ssize_t n;

	if (argv[0] && strcmp(argv[0], "-s") == 0) {
		symbolic = 1;
		argv++;
	}
	if (argv[0] && argv[1]) {
		bb_error_msg("usage: zerobox --install [-s] [DIR]");
		return EXIT_FAILURE;
	}
	/* The links lead to the real file, not to the /proc magic link
	 * (which a symlink would resolve in the reader's context). */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		bb_perror_msg("can't read /proc/self/exe");
		return EXIT_FAILURE;
	}
	self[n] = '\0';
	dir = argv[0];
	if (!dir) {
		/* Next to the binary, as busybox --install does. */
		static char own_dir[PATH_MAX];
		char *slash;

		memcpy(own_dir, self, (size_t)n + 1);
		slash = strrchr(own_dir, '/');
		if (slash == own_dir)
			slash++;
		if (slash)
			*slash = '\0';
		dir = own_dir;
	}

	for (const struct applet *a = applets; a->name; a++) {
		if (bb_format(path, sizeof(path), "%s/%s", dir, a->name)
		    >= sizeof(path)) {
			bb_errno_msg(ENAMETOOLONG, "%s/%s", dir, a->name);
			status = EXIT_FAILURE;
			continue;
		}
		/* An existing file is left alone (it may be another dd). */
		if ((symbolic ? symlink(self, path) : link(self, path)) != 0 &&
		    errno != EEXIST) {
			bb_perror_msg("%s", path);
			status = EXIT_FAILURE;
		}
	}
	return status;
}

/* The applet named by the base name of path, as for argv[0]. */
static const struct applet *find_applet_by_path(const char *path)
{
	const char *name = strrchr(path, '/');

	return find_applet(name ? name + 1 : path);
}

static int run_zerobox(int argc, char **argv);

/* A diagnostic lost on a closed or full stderr fails the run (GNU's
 * close_stdout checks stderr at exit).  Checked on the way out of main,
 * not with atexit, which would link musl's malloc: the only exit(0)
 * calls are after --help and --version, which write nothing to stderr. */
int main(int argc, char **argv)
{
	return bb_exit_status(run_zerobox(argc, argv));
}

static int run_zerobox(int argc, char **argv)
{
	const struct applet *a;

	applet_name = "zerobox";
	if (argc > 0) {
		const char *name = strrchr(argv[0], '/');

		name = name ? name + 1 : argv[0];
		if (strncmp(name, "zerobox", 7) != 0) {
			a = find_applet(name);
			return a ? run_applet(a, argc, argv) : not_found(name);
		}
	}

	/* Invoked as zerobox: the first argument names the applet. */
	if (argc < 2)
		return help();
	if (strcmp(argv[1], "--help") == 0) {
		if (argc < 3)
			return help();
		a = find_applet_by_path(argv[2]);
		if (!a)
			return not_found(argv[2]);
		applet_usage = a->usage;
		bb_print_usage();
		return EXIT_SUCCESS;
	}
	if (strcmp(argv[1], "--version") == 0) {
		bb_print_version();
		return EXIT_SUCCESS;
	}
	if (strcmp(argv[1], "--list") == 0)
		return list_applets("");
	if (strcmp(argv[1], "--list-full") == 0)
		return list_applets(APPLET_DIR);
	if (strcmp(argv[1], "--install") == 0)
		return install_links(argv + 2);
	a = find_applet_by_path(argv[1]);
	return a ? run_applet(a, argc - 1, argv + 1) : not_found(argv[1]);
}
