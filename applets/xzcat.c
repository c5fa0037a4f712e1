/*
 * xzcat.c - xzcat and unxz, as xz -dc and xz -d: the front end is
 * libbb's (unpack.c), the .xz format xz_dec.c and the files it names
 * (docs/unpack.md).  One applet under two names, each with its switch;
 * here also -M, in xz's words.
 */
//config:config XZCAT
//config:	bool "xzcat"
//config:	default y
//config:	help
//config:	  Decompress .xz files to standard output, as xz -dc: LZMA2,
//config:	  concatenated streams, CRC32, CRC64 and SHA-256 checks, and
//config:	  a dictionary that grows with the output.
//config:config UNXZ
//config:	bool "unxz"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decompress FILE.xz to FILE (FEATURE_UNPACK_FILES), or to
//config:	  standard output with -c.  The same code as xzcat, under a
//config:	  second name.
//config:config FEATURE_XZ_FAST
//config:	bool "Decode LZMA for speed"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  The LZMA loop and CRC-64 built for speed (-O2, every coder
//config:	  inline): about 1.4 times as fast, for about 2 KiB.
//config:config FEATURE_XZ_X86
//config:	bool "x86 branch filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --x86 (x86 executables, kernels).
//config:config FEATURE_XZ_ARM
//config:	bool "ARM branch filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --arm (32-bit ARM code).
//config:config FEATURE_XZ_ARMTHUMB
//config:	bool "ARM-Thumb branch filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --armthumb (Thumb code).
//config:config FEATURE_XZ_ARM64
//config:	bool "ARM64 branch filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --arm64 (AArch64 code).
//config:config FEATURE_XZ_DELTA
//config:	bool "Delta filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --delta (images, audio).

//applet:xzcat xz_unpack_main XZCAT
//usage:[-fqt] [-M LIMIT] [FILE]...
//usage:Decompress .xz FILEs (or standard input) to standard output.
//usage:
//usage:  -f        read a terminal; copy data not in .xz format as it is
//usage:  -M LIMIT  memory limit: bytes, K, M, G (KiB...), N% of RAM, 0: none
//usage:  -q        no warnings
//usage:  -t        test: decompress and check, write nothing

//applet:unxz xz_unpack_main UNXZ
//usage:[-cdfkqt] [-M LIMIT] [FILE]...
//usage:Decompress FILE.xz to FILE (.txz to .tar), keeping its mode, owner
//usage:and times, and remove FILE.xz; or standard input to standard output.
//usage:
//usage:  -c        to standard output, keep the files
//usage:  -d        decompress (the default)
//usage:  -f        overwrite FILE; read a terminal, a link, a file with
//usage:            other links; with -c, copy data not in .xz format
//usage:  -k        keep FILE.xz
//usage:  -M LIMIT  memory limit: bytes, K, M, G (KiB...), N% of RAM, 0: none
//usage:  -q        no warnings
//usage:  -t        test: decompress and check, write nothing

#include <string.h>
#include <sys/sysinfo.h>

#include "libbb.h"

static const char *const xz_suffixes[] = { ".xz", "", ".txz", ".tar", NULL };

/* -M LIMIT as xz reads it: decimal digits after blanks, a K, M or G
 * (also as Ki, KiB, KB, lower case) for 2^10, 2^20, 2^30 (NUMBER_XZ);
 * with a % after it, that share of the RAM (1 to 100); 0 or "max" for
 * no limit.  Else xz's message, with the value as xz shows it (without
 * the %), and exit 1. */
static void xz_option(struct unpack_io *io, int opt, const char *arg)
{
	static const struct size_suffix units[] = {
		{ 'k', 1, 0 }, { 'K', 1, 0 }, { 'm', 2, 0 }, { 'M', 2, 0 },
		{ 'g', 3, 0 }, { 'G', 3, 0 }, { 0, 0, 0 },
	};
	static const struct number_syntax xz_syntax = { units, 0, NUMBER_XZ };
	size_t len = strlen(arg);
	bool pct = len && arg[len - 1] == '%';
	const char *s = arg, *unit, *end = arg + len - pct;
	uint64_t v, max = pct ? 100 : UINT64_MAX;
	struct sysinfo si;
	enum parse_size_result r;

	(void)opt;
	if (strcmp(arg, "max") == 0) {
		io->mem_limit = UINT64_MAX;
		return;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	unit = s;
	while (*unit >= '0' && *unit <= '9')
		unit++;
	if (unit == s)
		bb_error_msg_and_die("%.*s: Value is not a non-negative decimal integer",
				     (int)(end - arg), arg);
	r = scan_number(&s, &xz_syntax, &v);
	if (s != end) {
		bb_error_msg("%.*s: Invalid multiplier suffix", (int)(end - unit), unit);
		bb_error_msg_and_die("Valid suffixes are `KiB' (2^10), `MiB' (2^20), "
				     "and `GiB' (2^30).");
	}
	if (r != PARSE_SIZE_OK || v < pct || v > max)
		bb_error_msg_and_die("Value of the option `%s' must be in the range [%u, %ju]",
				     pct ? "memlimit%" : "memlimit", pct, (uintmax_t)max);
	if (pct)
		io->mem_limit = sysinfo(&si) == 0
			? (uint64_t)si.totalram * si.mem_unit / 100 * v : UINT64_MAX;
	else
		io->mem_limit = v ? v : UINT64_MAX;
}

static const struct unpack_format xz_format = {
	.tool = "xz",
	.suffixes = xz_suffixes,
	.decode = xz_decode,
	.stdin_name = "(stdin)",
	.options = UNPACK_OPTIONS "M:",
	.longopts = UNPACK_LONGOPTS "Mmemlimit\0" "Mmemory\0" "Mmemlimit-decompress\0",
	.option = xz_option,
};

int xz_unpack_main(int argc, char **argv)
{
	return unpack_main(argc, argv, &xz_format);
}
