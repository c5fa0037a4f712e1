/*
 * cat.c - concatenate files to standard output, as GNU coreutils cat.
 * Without options the bytes move with zero-copy where they can (libbb's
 * copy_fd_zerocopy); with options, through a small line and character
 * filter whose state (line number, blank lines) carries across files.
 */
//config:config CAT
//config:	bool "cat"
//config:	default y
//config:	help
//config:	  Concatenate files to standard output.
//config:config FEATURE_CAT_OPTIONS
//config:	bool "Options -benstvAET (numbering, showing non-printing)"
//config:	default y
//config:	depends on CAT
//config:	help
//config:	  Without this, cat takes only -u (ignored).

//applet:cat cat_main CAT

//usage:[-benstuvAET] [FILE]...
//usage:Concatenate FILE(s) to standard output.  With no FILE, or when
//usage:FILE is -, read standard input.
//usage:
//usage:  -A   equivalent to -vET
//usage:  -b   number nonempty output lines, overrides -n
//usage:  -e   equivalent to -vE
//usage:  -E   display $ at end of each line
//usage:  -n   number all output lines
//usage:  -s   suppress repeated empty output lines
//usage:  -t   equivalent to -vT
//usage:  -T   display TAB characters as ^I
//usage:  -u   (ignored)
//usage:  -v   use ^ and M- notation, except for LFD and TAB

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libbb.h"

enum {
	OPT_NUMBER = 1 << 0,            /* -n */
	OPT_NONBLANK = 1 << 1,          /* -b */
	OPT_SQUEEZE = 1 << 2,           /* -s */
	OPT_ENDS = 1 << 3,              /* -E */
	OPT_TABS = 1 << 4,              /* -T */
	OPT_NONPRINTING = 1 << 5,       /* -v */
	IN_CHUNK = 64 << 10,
	OUT_CAP = 128 << 10,
	/* One input byte adds at most a line number, "M-^X", "$\n". */
	OUT_SLACK = 32,
};

struct cat_state {
	unsigned opts;
	int at_line_start;
	unsigned blank_run;             /* empty lines just seen */
	uint64_t line;
	size_t out_len;
	char *out;
	unsigned char *in;
};

static int flush_out(struct cat_state *s)
{
	ssize_t len = (ssize_t)s->out_len;

	s->out_len = 0;
	return full_write(STDOUT_FILENO, s->out, (size_t)len) == len ? 0 : -1;
}

static void put_number(struct cat_state *s)
{
	s->out_len += bb_format(s->out + s->out_len, OUT_SLACK, "%6llu\t",
				(unsigned long long)++s->line);
}

/* Filter n bytes into s->out; -1 if a write failed. */
static int filter(struct cat_state *s, const unsigned char *p, size_t n)
{
	unsigned o = s->opts;

	for (; n; p++, n--) {
		unsigned char c = *p;
		char *q;

		if (s->out_len > OUT_CAP - OUT_SLACK && flush_out(s) != 0)
			return -1;
		q = s->out + s->out_len;
		if (s->at_line_start) {
			if (c == '\n') {
				if (++s->blank_run > 1 && (o & OPT_SQUEEZE))
					continue;
				if ((o & OPT_NUMBER) && !(o & OPT_NONBLANK))
					put_number(s);
			} else {
				s->blank_run = 0;
				s->at_line_start = 0;
				if (o & (OPT_NUMBER | OPT_NONBLANK))
					put_number(s);
			}
			q = s->out + s->out_len;
		}
		if (c == '\n') {
			if (o & OPT_ENDS)
				*q++ = '$';
			*q++ = '\n';
			s->at_line_start = 1;
		} else if (c == '\t') {
			if (o & OPT_TABS) {
				*q++ = '^';
				*q++ = 'I';
			} else {
				*q++ = '\t';
			}
		} else if (o & OPT_NONPRINTING) {
			q += visible_char(q, c);
		} else {
			*q++ = (char)c;
		}
		s->out_len = (size_t)(q - s->out);
	}
	return 0;
}

/* Copy one open file; 0, or -1 after printing the error. */
static int cat_fd(struct cat_state *s, int fd, const char *name,
		  struct lazy_buffer *buf)
{
	int which = COPY_FD_READ_ERROR;
	int r;

	if (ENABLE_FEATURE_CAT_OPTIONS && s->opts) {
		for (;;) {
			ssize_t n = safe_read(fd, s->in, IN_CHUNK);

			if (n <= 0) {
				r = (int)n;
				break;
			}
			if (filter(s, s->in, (size_t)n) != 0) {
				which = COPY_FD_WRITE_ERROR;
				r = -1;
				break;
			}
		}
	} else {
		r = copy_fd_zerocopy(fd, STDOUT_FILENO, UINT64_MAX, buf, &which);
	}
	if (r == 0)
		return 0;
	if (which == COPY_FD_WRITE_ERROR)
		bb_perror_msg_and_die("write error");
	bb_perror_msg("%s", quote_if_needed(name));
	return -1;
}

/* GNU's order, which its "ambiguous" message lists. */
static const char cat_longopts[] =
	"bnumber-nonblank\0" "nnumber\0" "ssqueeze-blank\0"
	"vshow-nonprinting\0" "Eshow-ends\0" "Tshow-tabs\0" "Ashow-all\0";

int cat_main(int argc, char **argv)
{
	static char *const stdin_only[] = { (char *)"-", NULL };
	struct cat_state s;
	struct lazy_buffer buf = { NULL, 0 };
	struct stat out_st;
	int out_ok, c, status = EXIT_SUCCESS;
	char *const *files;

	memset(&s, 0, sizeof(s));
	s.at_line_start = 1;
	while ((c = bb_getopt(argc, argv,
			      ENABLE_FEATURE_CAT_OPTIONS ? ":benstuvAET" : ":u",
			      ENABLE_FEATURE_CAT_OPTIONS ? cat_longopts : ""))
	       != -1) {
		static const char letters[] = "nbsETvAet";
		static const unsigned char bits[] = {
			OPT_NUMBER, OPT_NUMBER | OPT_NONBLANK, OPT_SQUEEZE,
			OPT_ENDS, OPT_TABS, OPT_NONPRINTING,
			OPT_NONPRINTING | OPT_ENDS | OPT_TABS,
			OPT_NONPRINTING | OPT_ENDS, OPT_NONPRINTING | OPT_TABS,
		};
		const char *l = strchr(letters, c);

		_Static_assert(sizeof(letters) - 1 == sizeof(bits),
			       "one bit set per option letter");
		if (c && l)
			s.opts |= bits[l - letters];
	}
	if (ENABLE_FEATURE_CAT_OPTIONS && s.opts) {
		s.out = xmalloc(OUT_CAP);
		s.in = xmalloc(IN_CHUNK);
	}
	files = optind < argc ? argv + optind : stdin_only;
	out_ok = fstat(STDOUT_FILENO, &out_st) == 0 && S_ISREG(out_st.st_mode);

	for (; *files; files++) {
		const char *name = *files;
		int is_stdin = strcmp(name, "-") == 0;
		int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY);
		struct stat st;

		if (fd < 0) {
			bb_perror_msg("%s", quote_if_needed(name));
			status = EXIT_FAILURE;
			continue;
		}
		/* cat f >> f would never end. */
		if (out_ok && fstat(fd, &st) == 0 && st.st_dev == out_st.st_dev
		    && st.st_ino == out_st.st_ino
		    && lseek(fd, 0, SEEK_CUR) < st.st_size) {
			bb_error_msg("%s: input file is output file",
				     quote_if_needed(name));
			status = EXIT_FAILURE;
		} else if (cat_fd(&s, fd, name, &buf) != 0) {
			status = EXIT_FAILURE;
		}
		if (!is_stdin)
			close(fd);
	}
	if (s.out_len && flush_out(&s) != 0)
		bb_perror_msg_and_die("write error");
	if (close(STDOUT_FILENO) != 0)
		bb_perror_msg_and_die("write error");
	return status;
}
