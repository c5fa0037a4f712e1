/*
 * head.c - output the first part of files, as GNU coreutils head:
 * -c N copies N bytes with zero-copy where it can; -n N counts
 * newlines with memchr; -c -N and -n -N hold back the last N bytes or
 * lines.
 */
//config:config HEAD
//config:	bool "head"
//config:	default y
//config:	help
//config:	  Output the first part of files.
//config:config FEATURE_HEAD_ELIDE
//config:	bool "-c -N and -n -N (all but the last N bytes or lines)"
//config:	default y
//config:	depends on HEAD
//config:	help
//config:	  head -c -N and -n -N print all but the last N bytes or
//config:	  lines, holding N of them back.  Without this, a negative N
//config:	  is refused.

//applet:head head_main HEAD

//usage:[-c [-]N] [-n [-]N] [-qv] [FILE]...
//usage:Print the first 10 lines of each FILE to standard output, with a
//usage:header "==> FILE <==" when there are several.  With no FILE, or
//usage:when FILE is -, read standard input.
//usage:
//usage:  -c [-]N   print the first N bytes; with -N, all but the last N
//usage:  -n [-]N   print the first N lines; with -N, all but the last N
//usage:  -q        never print headers
//usage:  -v        always print headers
//usage:
//usage:N may have a suffix: b=512, kB=1000, K=1024, MB=1000*1000,
//usage:M=1024*1024, and so on for G, T, P, E, Z, Y; or KiB, MiB, ...

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libbb.h"

/* GNU head's xstrtoumax suffixes: "bkKmMGTPEZY" (and iB, B). */
static const struct size_suffix head_suffixes[] = {
	{ 'b', 0, 512 }, { 'k', 1, 0 }, { 'K', 1, 0 }, { 'm', 2, 0 },
	{ 'M', 2, 0 }, { 'G', 3, 0 }, { 'T', 4, 0 }, { 'P', 5, 0 },
	{ 'E', 6, 0 }, { 'Z', 7, 0 }, { 'Y', 8, 0 }, { 0, 0, 0 }
};

enum { CHUNK = 64 << 10 };

struct head {
	uint64_t count;
	int lines;                      /* -n, not -c */
	int elide;                      /* -N: all but the last count */
	struct lazy_buffer buf;
	const char *name;               /* for messages */
};

static int read_error(struct head *h)
{
	bb_perror_name("error reading %s", h->name);
	return -1;
}

static void write_or_die(const void *p, size_t n)
{
	if (full_write(STDOUT_FILENO, p, n) != (ssize_t)n)
		bb_perror_msg_and_die("error writing %s",
				      quote_always("standard output"));
}

static int copy_bytes(struct head *h, int fd, uint64_t limit)
{
	int which, r;

	r = copy_fd_zerocopy(fd, STDOUT_FILENO, limit, &h->buf, &which);
	if (r == 0)
		return 0;
	if (which == COPY_FD_WRITE_ERROR)
		bb_perror_msg_and_die("error writing %s",
				      quote_always("standard output"));
	return read_error(h);
}

static int ensure_buffer(struct head *h, uint64_t size)
{
	if (h->buf.capacity >= size)
		return 0;
	if (lazy_buffer_grow(&h->buf, size) != 0) {
		bb_perror_msg("%s", quote_always(h->name));
		return -1;
	}
	return 0;
}

/* The first count lines.  A seekable input is left just after them, as
 * GNU does, so that (head -n 1; cat) < file works. */
static int head_lines(struct head *h, int fd)
{
	uint64_t left = h->count;

	if (ensure_buffer(h, CHUNK) != 0)
		return -1;
	while (left) {
		ssize_t n = safe_read(fd, h->buf.data, h->buf.capacity);
		unsigned char *p, *end;

		if (n < 0)
			return read_error(h);
		if (n == 0)
			break;
		p = h->buf.data;
		end = p + n;
		while (left && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			p++;
			left--;
		}
		if (!p)
			p = end;
		write_or_die(h->buf.data, (size_t)(p - h->buf.data));
		if (p < end)
			lseek(fd, p - end, SEEK_CUR);   /* fails on pipes: fine */
	}
	return 0;
}

/* All but the last count bytes or lines, from any input: keep what may
 * belong to the tail in the buffer, write the rest whenever the buffer is
 * full.  The buffer grows until what is kept fills at most half of it, so
 * each byte is moved a bounded number of times. */
static int head_elide_stream(struct head *h, int fd)
{
	size_t fill = 0;
	uint64_t newlines = 0;
	uint64_t keep_bytes = h->lines ? 0 : h->count;

	if (h->lines && h->count == 0)
		return copy_bytes(h, fd, UINT64_MAX);
	for (;;) {
		ssize_t n;
		size_t out = 0;

		if (!h->buf.data || (uint64_t)fill * 2 > h->buf.capacity) {
			uint64_t want = (uint64_t)fill * 2 + CHUNK;

			if (!h->lines && want < keep_bytes + CHUNK)
				want = keep_bytes > UINT64_MAX - CHUNK
					? UINT64_MAX : keep_bytes + CHUNK;
			if (ensure_buffer(h, want) != 0)
				return -1;
		}
		n = safe_read(fd, h->buf.data + fill, h->buf.capacity - fill);
		if (n < 0)
			return read_error(h);
		if (h->lines) {
			const unsigned char *p = h->buf.data + fill;
			const unsigned char *end = p + n;

			while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
				p++;
				newlines++;
			}
			/* At the end, an unterminated last line counts. */
			if (n == 0 && fill && h->buf.data[fill - 1] != '\n')
				newlines++;
		}
		fill += (size_t)n;
		if (n != 0 && fill < h->buf.capacity)
			continue;
		if (!h->lines) {
			if (fill > keep_bytes)
				out = fill - (size_t)keep_bytes;
		} else if (newlines > h->count) {
			/* Everything up to the newline ending line
			 * newlines - count goes out. */
			uint64_t skip = newlines - h->count;
			const unsigned char *p = h->buf.data;

			while (skip--)
				p = (const unsigned char *)memchr(p, '\n',
						fill - (size_t)(p - h->buf.data)) + 1;
			out = (size_t)(p - h->buf.data);
			newlines = h->count;
		}
		if (out) {
			write_or_die(h->buf.data, out);
			memmove(h->buf.data, h->buf.data + out, fill - out);
			fill -= out;
		}
		if (n == 0)
			return 0;
	}
}

static int head_fd(struct head *h, int fd)
{
	struct stat st;
	off_t pos;

	if (!h->elide)
		return h->lines ? head_lines(h, fd) : copy_bytes(h, fd, h->count);
	if (!ENABLE_FEATURE_HEAD_ELIDE)
		return 0;
	/* A regular file's length is known: no buffering needed. */
	if (!h->lines && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
	    && st.st_size > 0 && (pos = lseek(fd, 0, SEEK_CUR)) >= 0) {
		uint64_t left = pos < st.st_size ? (uint64_t)(st.st_size - pos) : 0;

		return left > h->count ? copy_bytes(h, fd, left - h->count) : 0;
	}
	return head_elide_stream(h, fd);
}

/* "-N" gives elide; the number is parsed as GNU head's. */
static void parse_count(struct head *h, const char *arg, int lines)
{
	uint64_t v;
	enum parse_size_result r;

	h->lines = lines;
	h->elide = 0;
	if (*arg == '-') {
		if (!ENABLE_FEATURE_HEAD_ELIDE)
			bb_error_msg_and_die("-%c -N: not supported in this build",
					     lines ? 'n' : 'c');
		h->elide = 1;
		arg++;
	}
	r = parse_number(arg, head_suffixes, UINT64_MAX, &v);
	if (r != PARSE_SIZE_OK)
		bb_errno_msg_and_die(r == PARSE_SIZE_OVERFLOW ? EOVERFLOW : 0,
				     "invalid number of %s: %s",
				     lines ? "lines" : "bytes",
				     quote_escaped(arg));
	h->count = v;
}

/* "-NUM[bkmclqv]...": digits, then letters each changing the last
 * setting: c bytes, b/k/m bytes times 512/1024/1048576 (also applied to
 * a later l), l lines, q/v headers. */
static void parse_obsolete(struct head *h, const char *arg, int *headers)
{
	/* Looked up rather than compared letter by letter, which gcc turns
	 * into a jump table over the letters from b to v. */
	static const char byte_units[] = "cbkm";
	static const unsigned char byte_unit_shift[] = { 0, 9, 10, 20 };
	size_t n = 0;
	char digits[32];
	uint64_t mult = 1;
	const char *p, *unit;

	/* A loop, not strspn, which would be linked for this alone. */
	while (arg[n] >= '0' && arg[n] <= '9')
		n++;
	h->lines = 1;
	for (p = arg + n; *p; p++) {
		if ((unit = strchr(byte_units, *p)) != NULL) {
			h->lines = 0;
			mult = (uint64_t)1 << byte_unit_shift[unit - byte_units];
		} else if (*p == 'l')
			h->lines = 1;
		else if (*p == 'q')
			*headers = 0;
		else if (*p == 'v')
			*headers = 1;
		else
			bb_error_msg_and_usage("invalid trailing option -- %c", *p);
	}
	if (n >= sizeof(digits))
		n = sizeof(digits) - 1;        /* overflows below anyway */
	memcpy(digits, arg, n);
	digits[n] = '\0';
	parse_count(h, digits, h->lines);
	if (__builtin_mul_overflow(h->count, mult, &h->count))
		h->count = UINT64_MAX;
}

static const char head_longopts[] =
	"cbytes\0" "nlines\0" "qquiet\0" "qsilent\0" "vverbose\0";

int head_main(int argc, char **argv)
{
	static char *const stdin_only[] = { (char *)"-", NULL };
	struct head h;
	int c, headers = -1, status = EXIT_SUCCESS, first = 1;
	char *const *files;

	memset(&h, 0, sizeof(h));
	h.count = 10;
	h.lines = 1;
	/* The old form "head -5", only as the first argument. */
	if (argc > 1 && argv[1][0] == '-' && argv[1][1] >= '0'
	    && argv[1][1] <= '9') {
		parse_obsolete(&h, argv[1] + 1, &headers);
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	while ((c = bb_getopt(argc, argv, ":c:n:qv", head_longopts)) != -1) {
		if (c == 'c' || c == 'n')
			parse_count(&h, optarg, c == 'n');
		else if (c == 'q' || c == 'v')   /* the last one given wins */
			headers = c == 'v';
	}
	files = optind < argc ? argv + optind : stdin_only;
	if (headers < 0)
		headers = files[0] && files[1];

	for (; *files; files++) {
		int is_stdin = strcmp(*files, "-") == 0;
		int fd;

		h.name = is_stdin ? "standard input" : *files;
		fd = is_stdin ? STDIN_FILENO : open(*files, O_RDONLY);
		if (fd < 0) {
			bb_perror_msg("cannot open %s for reading",
				      quote_always(*files));
			status = EXIT_FAILURE;
			continue;
		}
		if (headers) {
			char hdr[16];

			bb_format(hdr, sizeof(hdr), "%s==> ", first ? "" : "\n");
			write_or_die(hdr, strlen(hdr));
			write_or_die(h.name, strlen(h.name));
			write_or_die(" <==\n", 5);
		}
		first = 0;
		if (head_fd(&h, fd) != 0)
			status = EXIT_FAILURE;
		if (!is_stdin && close(fd) != 0) {
			bb_perror_name("failed to close %s", *files);
			status = EXIT_FAILURE;
		}
	}
	return status;
}
