/*
 * cmp.c - compare two files byte by byte, as GNU diffutils cmp (3.8
 * messages).  Both files are read in large chunks into untouched lazy
 * buffers and compared with memcmp; only a differing chunk is searched
 * further, and lines are counted with memchr.
 */
//config:config CMP
//config:	bool "cmp"
//config:	default y
//config:	help
//config:	  Compare two files byte by byte.

//applet:cmp cmp_main CMP

//usage:[-bls] [-i SKIP1[:SKIP2]] [-n LIMIT] FILE1 [FILE2 [SKIP1 [SKIP2]]]
//usage:Compare two files byte by byte.  FILE2 (or FILE1) - or missing is
//usage:standard input.  Exit status: 0 same, 1 different, 2 trouble.
//usage:
//usage:  -b   print differing bytes
//usage:  -i   skip the first SKIP1 bytes of FILE1 and SKIP2 of FILE2
//usage:  -l   output byte numbers and differing byte values
//usage:  -n   compare at most LIMIT bytes
//usage:  -s   suppress all normal output
//usage:
//usage:SKIP and LIMIT may have a suffix: kB=1000, K=1024, MB=1000*1000,
//usage:M=1024*1024, and so on for G, T, P, E, Z, Y; or KiB, MiB, ...

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libbb.h"

/* diffutils' cmp suffixes: "kKMGTPEZY" (and iB, B). */
static const struct size_suffix cmp_suffixes[] = {
	{ 'k', 1, 0 }, { 'K', 1, 0 }, { 'M', 2, 0 }, { 'G', 3, 0 },
	{ 'T', 4, 0 }, { 'P', 5, 0 }, { 'E', 6, 0 }, { 'Z', 7, 0 },
	{ 'Y', 8, 0 }, { 0, 0, 0 }
};

enum {
	EXIT_TROUBLE = 2,
	MAX_CHUNK = 1 << 20,            /* per read, regular files */
	STREAM_CHUNK = 256 << 10,       /* per read, pipes and devices */
	BLOCK = 64,                     /* memcmp granularity in a diff */
	OUT_CAP = 64 << 10,
};

enum mode { MODE_FIRST, MODE_LIST, MODE_SILENT };

struct cmp_file {
	const char *name;
	int fd;
	uint64_t skip;
	struct stat st;
	struct lazy_buffer buf;
};

static char *out_buf;
static size_t out_len;

static void out_flush(void)
{
	if (out_len && full_write(STDOUT_FILENO, out_buf, out_len)
	    != (ssize_t)out_len)
		bb_perror_msg_and_die("write failed");
	out_len = 0;
}

static void cmp_usage(const char *fmt, const char *arg)
{
	bb_error_msg_and_usage(fmt, arg);
}

/* A number as diffutils reads it (strtoumax with base 0, then an
 * xstrtoumax suffix): NUMBER_OFFSET, at most INT64_MAX.  Reads s up to
 * end (exclusive); 0 or -1 when invalid. */
static int parse_offset(const char *s, const char *end, uint64_t *result)
{
	static const struct number_syntax offset = {
		cmp_suffixes, 0, NUMBER_OFFSET
	};
	const char *p = s;
	uint64_t v;

	if (scan_number(&p, &offset, &v) != PARSE_SIZE_OK || p != end
	    || v > INT64_MAX)
		return -1;
	*result = v;
	return 0;
}

static uint64_t parse_skip_or_limit(const char *s, const char *end,
				    const char *what)
{
	uint64_t v;

	if (parse_offset(s, end, &v) != 0)
		bb_error_msg_and_usage("invalid --%s value %s", what,
				    quote_escaped(s));
	return v;
}

/* Skip f->skip bytes: lseek where possible, else read them away. */
static void skip_input(struct cmp_file *f)
{
	uint64_t left = f->skip;

	if (!left)
		return;
	if (left <= INT64_MAX && lseek(f->fd, (off_t)left, SEEK_CUR) >= 0)
		return;
	while (left) {
		size_t n = left < f->buf.capacity ? (size_t)left : f->buf.capacity;
		ssize_t r = full_read(f->fd, f->buf.data, n);

		if (r < 0)
			bb_perror_msg_and_die("%s", f->name);
		if (r == 0)
			break;
		left -= (uint64_t)r;
	}
}

static uint64_t count_newlines(const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n;
	uint64_t lines = 0;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		p++;
		lines++;
	}
	return lines;
}

/* Index of the first difference in a[0..n) vs b, n if none. */
static size_t first_diff(const unsigned char *a, const unsigned char *b,
			 size_t n)
{
	size_t i = 0;

	while (n - i >= BLOCK && memcmp(a + i, b + i, BLOCK) == 0)
		i += BLOCK;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* c in octal (the formatter has no %o). */
static const char *octal(char *buf, unsigned char c)
{
	char *p = buf + 3;

	*p = '\0';
	do
		*--p = (char)('0' + (c & 7));
	while ((c >>= 3) != 0);
	return p;
}

static void list_byte(int width, int print_bytes, uint64_t pos,
		      unsigned char c1, unsigned char c2)
{
	char v1[8], v2[8], o1[4], o2[4];

	if (out_len > OUT_CAP - 64)
		out_flush();
	if (print_bytes) {
		visible_char(v1, c1);
		visible_char(v2, c2);
		out_len += bb_format(out_buf + out_len, 64, "%*llu %3s %-4s %3s %s\n",
				     width, (unsigned long long)pos,
				     octal(o1, c1), v1, octal(o2, c2), v2);
	} else {
		out_len += bb_format(out_buf + out_len, 64, "%*llu %3s %3s\n",
				     width, (unsigned long long)pos,
				     octal(o1, c1), octal(o2, c2));
	}
}

/* With -s, trouble is told by the exit status alone. */
static void open_file(struct cmp_file *f, enum mode mode)
{
	f->fd = strcmp(f->name, "-") == 0 ? STDIN_FILENO
		: open(f->name, O_RDONLY);
	if (f->fd < 0 || fstat(f->fd, &f->st) != 0) {
		if (mode == MODE_SILENT)
			exit(EXIT_TROUBLE);
		bb_perror_msg_and_die("%s", f->name);
	}
}

static const char cmp_longopts[] =
	"bprint-bytes\0" "iignore-initial\0" "lverbose\0" "nbytes\0"
	"squiet\0" "ssilent\0";

/* One comparison: the two files, the options, how far it has got. */
struct cmp_run {
	struct cmp_file f[2];
	enum mode mode;
	int print_bytes;
	int width;                /* -l: of the offset column */
	uint64_t limit;           /* -n, UINT64_MAX without */
	uint64_t max_pos;         /* the most bytes that can be compared */
	size_t chunk;             /* bytes per read */
	uint64_t pos, lines;      /* bytes and newlines compared so far */
	unsigned char last;       /* the last byte compared (equal in both) */
};

/* The options, then FILE1 [FILE2 [SKIP1 [SKIP2]]]. */
static void parse_arguments(struct cmp_run *r, int argc, char **argv)
{
	int c;

	while ((c = bb_getopt(argc, argv, ":bi:ln:s", cmp_longopts)) != -1) {
		if (c == 'b') {
			r->print_bytes = 1;
		} else if (c == 'l' || c == 's') {
			/* Either may repeat; they exclude each other. */
			enum mode want = c == 'l' ? MODE_LIST : MODE_SILENT;

			if (r->mode != MODE_FIRST && r->mode != want)
				bb_error_msg_and_usage("options -l and -s are incompatible");
			r->mode = want;
		} else if (c == 'n') {
			r->limit = parse_skip_or_limit(optarg, optarg + strlen(optarg),
						       "bytes");
		} else if (c == 'i') {
			char *colon = strchr(optarg, ':');
			char *end = optarg + strlen(optarg);

			r->f[0].skip = parse_skip_or_limit(optarg, colon ? colon : end,
							   "ignore-initial");
			r->f[1].skip = colon ? parse_skip_or_limit(colon + 1, end,
								   "ignore-initial")
				: r->f[0].skip;
		}
	}
	argv += optind;
	argc -= optind;
	if (argc < 1)
		cmp_usage("missing operand after '%s'", applet_name);
	for (c = 0; c < 2 && c + 2 < argc; c++)
		r->f[c].skip = parse_skip_or_limit(argv[c + 2],
						   argv[c + 2] + strlen(argv[c + 2]),
						   "ignore-initial");
	if (argc > 4)
		cmp_usage("extra operand '%s'", argv[4]);
	r->f[0].name = argv[0];
	r->f[1].name = argc > 1 ? argv[1] : "-";
}

/* Buffers: what a regular file has left (at most MAX_CHUNK), plus one
 * page to see the end; STREAM_CHUNK otherwise.  Never written before a
 * read lands in them. */
static void map_buffers(struct cmp_run *r)
{
	int c;

	r->chunk = MAX_CHUNK;
	r->max_pos = r->limit;
	for (c = 0; c < 2; c++) {
		const struct cmp_file *f = &r->f[c];

		if (S_ISREG(f->st.st_mode)) {
			uint64_t left = (uint64_t)f->st.st_size > f->skip
				? (uint64_t)f->st.st_size - f->skip : 0;

			if (left < r->max_pos)
				r->max_pos = left;
		} else if (r->chunk > STREAM_CHUNK) {
			r->chunk = STREAM_CHUNK;
		}
	}
	if (r->max_pos < r->chunk - 1)        /* max_pos + 1 may wrap */
		r->chunk = page_round_up(r->max_pos + 1);
	if (r->limit < r->chunk)
		r->chunk = (size_t)r->limit;
	for (c = 0; c < 2; c++)
		if (lazy_buffer_alloc(&r->f[c].buf, r->chunk ? r->chunk : 1) != 0)
			bb_perror_msg_and_die("%s", r->f[c].name);
}

/* The first difference, at index i of the buffers: "differ: ...". */
static int report_difference(struct cmp_run *r, size_t i)
{
	unsigned char c1 = r->f[0].buf.data[i], c2 = r->f[1].buf.data[i];
	char shown[32] = "";

	r->lines += count_newlines(r->f[0].buf.data, i);
	/* -b counts bytes and shows the two. */
	if (r->print_bytes) {
		char v1[8], v2[8], o1[4], o2[4];

		visible_char(v1, c1);
		visible_char(v2, c2);
		bb_format(shown, sizeof(shown), " is %3s %s %3s %s",
			  octal(o1, c1), v1, octal(o2, c2), v2);
	}
	bb_dprintf(STDOUT_FILENO, "%s %s differ: %s %llu, line %llu%s\n",
		   r->f[0].name, r->f[1].name, r->print_bytes ? "byte" : "char",
		   (unsigned long long)(r->pos + i + 1),
		   (unsigned long long)(r->lines + 1), shown);
	return EXIT_FAILURE;
}

/* One file, s, ended before the other. */
static int report_eof(const struct cmp_run *r, const struct cmp_file *s)
{
	out_flush();
	if (r->mode == MODE_SILENT)
		return EXIT_FAILURE;
	if (r->pos == 0)
		bb_error_msg("EOF on %s which is empty", s->name);
	else if (r->mode == MODE_LIST)
		bb_error_msg("EOF on %s after byte %llu", s->name,
			     (unsigned long long)r->pos);
	else if (r->last == '\n')
		bb_error_msg("EOF on %s after byte %llu, line %llu",
			     s->name, (unsigned long long)r->pos,
			     (unsigned long long)r->lines);
	else
		bb_error_msg("EOF on %s after byte %llu, in line %llu",
			     s->name, (unsigned long long)r->pos,
			     (unsigned long long)r->lines + 1);
	return EXIT_FAILURE;
}

/* Read both a chunk at a time and compare: the exit status. */
static int compare(struct cmp_run *r)
{
	struct cmp_file *f = r->f;
	int differ = 0;

	for (;;) {
		size_t want = r->limit - r->pos < r->chunk
			? (size_t)(r->limit - r->pos) : r->chunk;
		ssize_t n[2];
		size_t common, i;
		int c;

		for (c = 0; c < 2; c++) {
			n[c] = want ? full_read(f[c].fd, f[c].buf.data, want) : 0;
			if (n[c] < 0)
				bb_perror_msg_and_die("%s", f[c].name);
		}
		common = (size_t)(n[0] < n[1] ? n[0] : n[1]);
		i = first_diff(f[0].buf.data, f[1].buf.data, common);
		if (i < common && r->mode == MODE_SILENT)
			return EXIT_FAILURE;
		if (i < common && r->mode == MODE_FIRST)
			return report_difference(r, i);
		while (i < common) {
			list_byte(r->width, r->print_bytes, r->pos + i + 1,
				  f[0].buf.data[i], f[1].buf.data[i]);
			differ = 1;
			i++;
			i += first_diff(f[0].buf.data + i, f[1].buf.data + i,
					common - i);
		}
		if (r->mode == MODE_FIRST)
			r->lines += count_newlines(f[0].buf.data, common);
		r->pos += common;
		if (common)
			r->last = f[0].buf.data[common - 1];
		if (n[0] != n[1])
			return report_eof(r, &f[n[0] < n[1] ? 0 : 1]);
		if (n[0] == 0 || r->pos >= r->limit)
			break;
	}
	if (r->mode == MODE_LIST)
		out_flush();
	return differ ? EXIT_FAILURE : EXIT_SUCCESS;
}

int cmp_main(int argc, char **argv)
{
	struct cmp_run r = { .mode = MODE_FIRST, .width = 1, .limit = UINT64_MAX };

	xfunc_error_retval = EXIT_TROUBLE;
	bb_try_help_prefixed = true;
	parse_arguments(&r, argc, argv);
	open_file(&r.f[0], r.mode);
	open_file(&r.f[1], r.mode);
	/* The same file at the same place: equal without reading. */
	if (r.f[0].st.st_ino == r.f[1].st.st_ino
	    && r.f[0].st.st_dev == r.f[1].st.st_dev && r.f[0].skip == r.f[1].skip
	    && lseek(r.f[0].fd, 0, SEEK_CUR) == lseek(r.f[1].fd, 0, SEEK_CUR))
		return EXIT_SUCCESS;
	map_buffers(&r);
	skip_input(&r.f[0]);
	skip_input(&r.f[1]);
	if (r.mode == MODE_LIST) {
		for (uint64_t m = r.max_pos; m >= 10; m /= 10)
			r.width++;
		out_buf = xmalloc(OUT_CAP);
	}
	return compare(&r);
}
