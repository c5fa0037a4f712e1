/*
 * zcat.c - zcat and gunzip, as GNU gzip's -dc and -d: the front end is
 * libbb's (unpack.c), the gzip format gunzip.c, deflate inflate.c.
 * One applet under two names, each with its switch.
 */
//config:config ZCAT
//config:	bool "zcat"
//config:	default y
//config:	help
//config:	  Decompress gzip files to standard output.
//config:config GUNZIP
//config:	bool "gunzip"
//config:	default y
//config:	help
//config:	  Decompress FILE.gz to FILE (FEATURE_UNPACK_FILES), or to
//config:	  standard output with -c.  The same code as zcat: both
//config:	  cost what one does.

//applet:zcat gzip_unpack_main ZCAT
//usage:[-fqt] [FILE]...
//usage:Decompress gzip FILEs to standard output.  With no FILE, or when
//usage:FILE is -, read standard input.
//usage:
//usage:  -f   read from a terminal; copy data not in gzip format as it is
//usage:  -q   no warnings
//usage:  -t   test: decompress and check, write nothing

//applet:gunzip gzip_unpack_main GUNZIP
//usage:[-cdfkqt] [FILE]...
//usage:Decompress FILE.gz to FILE (.tgz and .taz to .tar), keeping its mode,
//usage:owner and times, and remove FILE.gz.  With no FILE, or when FILE
//usage:is -, from standard input to standard output.
//usage:
//usage:  -c   write to standard output, keep the files
//usage:  -d   decompress (the default)
//usage:  -f   overwrite FILE; read from a terminal, a symbolic link or a
//usage:       file with other links; with -c, copy data not in gzip
//usage:       format as it is
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
	.suffixes = gzip_suffixes,
	.decode = gunzip_decode,
	.stdin_name = "stdin",
};

int gzip_unpack_main(int argc, char **argv)
{
	return unpack_main(argc, argv, &gzip_format);
}
