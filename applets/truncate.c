/*
 * truncate.c - shrink or extend the size of files, as GNU coreutils
 * truncate.
 */
//config:config TRUNCATE
//config:	bool "truncate"
//config:	default y
//config:	help
//config:	  Shrink or extend the size of each FILE to the given size.

//applet:truncate truncate_main TRUNCATE

//usage:[-co] -s [+-<>/%]SIZE | -r RFILE [-s [+-<>/%]SIZE] FILE...
//usage:Shrink or extend the size of each FILE to the specified size.  A
//usage:FILE that does not exist is created.
//usage:
//usage:  -c   do not create any files
//usage:  -o   treat SIZE as a number of IO blocks instead of bytes
//usage:  -r   base the size on RFILE
//usage:  -s   set or adjust the size by SIZE bytes: +N extend by, -N
//usage:       reduce by, <N at most, >N at least, /N round down to a
//usage:       multiple of, %N round up to a multiple of
//usage:
//usage:SIZE may have a suffix: K=1024, KB=1000, M=1024*1024, MB=1000*1000,
//usage:and so on for G, T, P, E, Z, Y; or KiB, MiB, ...

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libbb.h"

/* GNU truncate's xstrtoimax suffixes: "EgGkKmMPQRtTYZ" (and iB, B). */
static const struct size_suffix truncate_suffixes[] = {
	{ 'k', 1, 0 }, { 'K', 1, 0 }, { 'm', 2, 0 }, { 'M', 2, 0 },
	{ 'g', 3, 0 }, { 'G', 3, 0 }, { 't', 4, 0 }, { 'T', 4, 0 },
	{ 'P', 5, 0 }, { 'E', 6, 0 }, { 'Z', 7, 0 }, { 'Y', 8, 0 },
	{ 'R', 9, 0 }, { 'Q', 10, 0 }, { 0, 0, 0 }
};

enum rel_mode { RM_SET, RM_REL, RM_MAX, RM_MIN, RM_RDN, RM_RUP };

struct truncate_opts {
	int64_t size;                   /* -s value (signed with RM_REL) */
	int64_t ref_size;               /* -r file's size, or -1 */
	enum rel_mode mode;
	int got_size;
	int no_create;
	int io_blocks;
};

static void parse_size_arg(struct truncate_opts *t, const char *arg)
{
	static const char modes[] = "<>/%";
	const char *p = arg, *num;
	const char *m;
	int negative = 0;
	uint64_t v;
	enum parse_size_result r;

	while (bb_is_space(*p))
		p++;
	t->mode = RM_SET;
	if (*p && (m = strchr(modes, *p)) != NULL) {
		t->mode = (enum rel_mode)(RM_MAX + (m - modes));
		p++;
	}
	while (bb_is_space(*p))
		p++;
	num = p;                        /* the messages quote from here */
	if (*p == '+' || *p == '-') {
		if (t->mode != RM_SET)
			bb_error_msg_and_usage("multiple relative modifiers specified");
		t->mode = RM_REL;
		negative = *p == '-';
		p++;
	}
	/* One sign, right before the digits ("- 3" and "+-3" are invalid). */
	r = PARSE_SIZE_INVALID;
	if (*p != '+' && *p != '-' && !bb_is_space(*p))
		r = parse_number(p, truncate_suffixes,
				 (uint64_t)INT64_MAX + (negative ? 1 : 0), &v);
	if (r != PARSE_SIZE_OK)
		bb_errno_msg_and_die(r == PARSE_SIZE_OVERFLOW ? EOVERFLOW : 0,
				     "Invalid number: %s", quote_escaped(num));
	t->size = negative ? (int64_t)(0 - v) : (int64_t)v;
	if ((t->mode == RM_RDN || t->mode == RM_RUP) && t->size == 0)
		bb_error_msg_and_die("division by zero");
	t->got_size = 1;
}

/* One file, open; 0, or non-zero after the message. */
static int truncate_fd(const struct truncate_opts *t, int fd, const char *name)
{
	struct stat st;
	int64_t size = t->size, fsize, nsize;

	if ((t->io_blocks || (t->mode != RM_SET && t->ref_size < 0))
	    && fstat(fd, &st) != 0) {
		return bb_perror_name("cannot fstat %s", name);
	}
	if (t->io_blocks) {
		int64_t blk = st.st_blksize > 0 ? st.st_blksize : 512;

		if (__builtin_mul_overflow(size, blk, &size)) {
			bb_error_msg("overflow in %lld * %lld byte blocks for file %s",
				     (long long)t->size, (long long)blk,
				     quote_always(name));
			return -1;
		}
	}
	if (t->mode == RM_SET) {
		nsize = size;
	} else {
		if (t->ref_size >= 0) {
			fsize = t->ref_size;
		} else if (S_ISREG(st.st_mode)) {
			fsize = st.st_size;
		} else {
			fsize = lseek(fd, 0, SEEK_END);
			if (fsize < 0) {
				return bb_perror_name("cannot get the size of %s",
						      name);
			}
		}
		switch (t->mode) {
		case RM_MIN:
			nsize = fsize > size ? fsize : size;
			break;
		case RM_MAX:
			nsize = fsize < size ? fsize : size;
			break;
		case RM_RDN:
			nsize = fsize - fsize % size;
			break;
		default:
			if (t->mode == RM_RUP)
				size = fsize % size ? size - fsize % size : 0;
			if (__builtin_add_overflow(fsize, size, &nsize)) {
				bb_error_msg("overflow extending size of file %s",
					     quote_always(name));
				return -1;
			}
		}
	}
	if (nsize < 0)
		nsize = 0;
	if (ftruncate(fd, nsize) != 0) {
		bb_perror_msg("failed to truncate %s at %lld bytes",
			      quote_always(name), (long long)nsize);
		return -1;
	}
	return 0;
}

static const char truncate_longopts[] =
	"cno-create\0" "oio-blocks\0" "rreference\0" "ssize\0";

int truncate_main(int argc, char **argv)
{
	struct truncate_opts t;
	const char *ref = NULL;
	int c, status = EXIT_SUCCESS;

	memset(&t, 0, sizeof(t));
	t.ref_size = -1;
	while ((c = bb_getopt(argc, argv, ":cor:s:", truncate_longopts)) != -1) {
		if (c == 'c')
			t.no_create = 1;
		else if (c == 'o')
			t.io_blocks = 1;
		else if (c == 'r')
			ref = optarg;
		else if (c == 's')
			parse_size_arg(&t, optarg);
	}
	if (ref && t.got_size && t.mode == RM_SET)
		bb_error_msg_and_usage("you must specify a relative '--size' with '--reference'");
	if (!ref && !t.got_size)
		bb_error_msg_and_usage("you must specify either '--size' or '--reference'");
	if (t.io_blocks && !t.got_size)
		bb_error_msg_and_usage("'--io-blocks' was specified but '--size' was not");
	if (optind >= argc)
		bb_error_msg_and_usage("missing file operand");
	if (ref) {
		struct stat st;
		int64_t rsize;

		if (stat(ref, &st) != 0)
			bb_perror_msg_and_die("cannot stat %s", quote_always(ref));
		rsize = st.st_size;
		if (!S_ISREG(st.st_mode)) {
			int fd = open(ref, O_RDONLY);

			rsize = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
			if (rsize < 0)
				bb_perror_msg_and_die("cannot get the size of %s",
						      quote_always(ref));
			close(fd);
		}
		if (t.got_size)
			t.ref_size = rsize;
		else
			t.size = rsize;
	}

	for (; optind < argc; optind++) {
		const char *name = argv[optind];
		int fd = open(name, O_WRONLY | O_NONBLOCK
			      | (t.no_create ? 0 : O_CREAT), 0666);

		if (fd < 0) {
			if (t.no_create && errno == ENOENT)
				continue;
			status = bb_perror_name("cannot open %s for writing",
						name);
			continue;
		}
		if (truncate_fd(&t, fd, name) != 0)
			status = EXIT_FAILURE;
		if (close(fd) != 0)
			status = bb_perror_name("failed to close %s", name);
	}
	return status;
}
