/*
 * zcat.c - zcat and gunzip, as GNU gzip's -dc and -d: the front end is
 * libbb's (unpack.c), the gzip format gunzip.c, deflate inflate.c.
 * One applet under two names, each with its switch.
 */
//config:config ZCAT
//config:	bool "zcat"
//config:	default y
//config:	help
//config:	  Decompress gzip files to standard output (libbb/unpack.c,
//config:	  gunzip.c, inflate.c).
//config:config GUNZIP
//config:	bool "gunzip"
//config:	default y
//config:	depends on ZCAT
//config:	help
//config:	  zcat's code under the name gunzip, which writes FILE from
//config:	  FILE.gz (with FEATURE_UNPACK_FILES) or, with -c, to
//config:	  standard output.

//applet:zcat gzip_unpack_main ZCAT
//usage:[-fqt] [FILE]...
//usage:Decompress gzip FILEs, or standard input, to standard output.
//usage:
//usage:  -f   read a terminal too; copy data not in gzip format as it is
//usage:  -q   no warnings
//usage:  -t   test: decompress and check, write nothing

//applet:gunzip gzip_unpack_main GUNZIP
//usage:[-cdfkqt] [FILE]...
//usage:Decompress FILE.gz to FILE (.tgz to .tar), keeping its mode, owner
//usage:and times, or standard input to standard output.
//usage:
//usage:  -c   to standard output, keeping the files
//usage:  -d   decompress (the default)
//usage:  -f   overwrite FILE; read a terminal, a link; -c: copy other data
//usage:  -k   keep FILE.gz
//usage:  -q   no warnings
//usage:  -t   test: decompress and check, write nothing

#include "libbb.h"

/* GNU gzip's suffixes when it decompresses, in any case. */
static const char *const gzip_suffixes[] = {
	".gz", "", ".tgz", ".tar", ".taz", ".tar", "-gz", "", ".z", "",
	"-z", "", "_z", "", NULL,
};

static const struct unpack_format gzip_format = {
	.tool = "gzip",
	/* (only FILE.gz -> FILE needs them) */
	.suffixes = ENABLE_FEATURE_UNPACK_FILES ? gzip_suffixes : NULL,
	.decode = gunzip_decode,
	.stdin_name = "stdin",
};

int gzip_unpack_main(int argc, char **argv)
{
	return unpack_main(argc, argv, &gzip_format);
}
