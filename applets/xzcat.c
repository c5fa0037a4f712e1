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

/* A number as xz reads one: decimal digits, a K, M or G (also as Ki,
 * KiB, KB) for 2^10, 2^20, 2^30, within [min, max]; else xz's message
 * and exit 1.  name is the option's name in the range message. */
static uint64_t xz_number(const char *name, const char *arg, uint64_t min, uint64_t max)
{
	static const char units[] = "kKmMgG";
	const char *p = arg, *unit;
	uint64_t v = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		bb_error_msg_and_die("%s: Value is not a non-negative decimal integer", arg);
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v))
			goto range;
	if (*p) {
		/* A letter, then nothing, i, iB or B. */
		const char *rest = p + 1 + (p[1] == 'i');

		unit = strchr(units, *p);
		if (!unit || (*rest && strcmp(rest, "B") != 0)) {
			bb_error_msg("%s: Invalid multiplier suffix", p);
			bb_error_msg_and_die("Valid suffixes are `KiB' (2^10), `MiB' (2^20), "
					     "and `GiB' (2^30).");
		}
		if (__builtin_mul_overflow(v, (uint64_t)1 << (10 * (1 + (unit - units) / 2)), &v))
			goto range;
	}
	if (v >= min && v <= max)
		return v;
range:
	bb_error_msg_and_die("Value of the option `%s' must be in the range [%ju, %ju]",
			     name, (uintmax_t)min, (uintmax_t)max);
}

/* -M LIMIT: bytes, N% of the RAM, or 0 or "max" for none. */
static void xz_option(struct unpack_io *io, int opt, const char *arg)
{
	size_t len = strlen(arg);
	uint64_t limit;

	(void)opt;
	if (strcmp(arg, "max") == 0) {
		io->mem_limit = UINT64_MAX;
	} else if (len && arg[len - 1] == '%') {
		char pct[24];
		struct sysinfo si;

		bb_format(pct, sizeof(pct), "%.*s", (int)(len - 1 < 20 ? len - 1 : 20), arg);
		limit = xz_number("memlimit%", pct, 1, 100);
		io->mem_limit = sysinfo(&si) == 0
			? (uint64_t)si.totalram * si.mem_unit / 100 * limit : UINT64_MAX;
	} else {
		limit = xz_number("memlimit", arg, 0, UINT64_MAX);
		io->mem_limit = limit ? limit : UINT64_MAX;
	}
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
