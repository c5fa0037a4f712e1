/* operands.c - argv into struct dd_options, with GNU's checks and messages. */
#include <fcntl.h>
#include <string.h>

#include "jobs/jobs.h"

/* GNU's limits (room for its slop; counts fit off_t). */
#define MAX_BLOCK_SIZE ((uint64_t)INT64_MAX - 1)
#define MAX_COUNT ((uint64_t)INT64_MAX)

/* The switch a word needs (for "not supported in this build"). */
enum needs {
	ALWAYS, NEEDS_CONV, NEEDS_IOFLAGS, NEEDS_NOCACHE, NEEDS_VERIFY,
	NEEDS_PROGRESS, NEEDS_BMAP, NEEDS_ZEROOUT,
};

/* 16-byte entries: the longest name is "count_bytes". */
struct symbol {
	char name[12];
	unsigned value : 24;         /* CONV_*, FLAG_*, enum dd_status, O_* */
	unsigned is_open_flag : 1;   /* iflag/oflag: value is an O_* flag */
	unsigned needs : 7;          /* enum needs */
};
_Static_assert(((unsigned)(O_APPEND | O_DIRECT | O_DIRECTORY | O_DSYNC | O_SYNC
			   | O_NONBLOCK | O_NOATIME | O_NOCTTY | O_NOFOLLOW)
		| CONV_VERIFY) < 1u << 24, "symbol values fit 24 bits");

/* Dies if the switch a word needs is off (only those names are compiled in). */
static void check_switch(const char *noun, const char *name, unsigned needs)
{
	const char *off;

	if (!ENABLE_FEATURE_DD_CONV && needs == NEEDS_CONV)
		off = "FEATURE_DD_CONV";
	else if (!ENABLE_FEATURE_DD_IOFLAGS && needs == NEEDS_IOFLAGS)
		off = "FEATURE_DD_IOFLAGS";
	else if (!ENABLE_FEATURE_DD_NOCACHE && needs == NEEDS_NOCACHE)
		off = "FEATURE_DD_NOCACHE";
	else if (!ENABLE_FEATURE_DD_VERIFY && needs == NEEDS_VERIFY)
		off = "FEATURE_DD_VERIFY";
	else if (!ENABLE_FEATURE_DD_PROGRESS && needs == NEEDS_PROGRESS)
		off = "FEATURE_DD_PROGRESS";
	else if (!ENABLE_FEATURE_DD_BMAP && needs == NEEDS_BMAP)
		off = "FEATURE_DD_BMAP";
	else if (!ENABLE_FEATURE_DD_ZEROOUT && needs == NEEDS_ZEROOUT)
		off = "FEATURE_DD_ZEROOUT";
	else
		return;
	bb_error_msg_and_die("%s '%s' is not supported in this build (%s is off)",
			     noun, name, off);
}

static const struct symbol conv_symbols[] = {
	{ "ascii",     CONV_ASCII | CONV_UNBLOCK, false, NEEDS_CONV },
	{ "ebcdic",    CONV_EBCDIC | CONV_BLOCK,  false, NEEDS_CONV },
	{ "ibm",       CONV_IBM | CONV_BLOCK,     false, NEEDS_CONV },
	{ "block",     CONV_BLOCK,     false, NEEDS_CONV },
	{ "unblock",   CONV_UNBLOCK,   false, NEEDS_CONV },
	{ "lcase",     CONV_LCASE,     false, NEEDS_CONV },
	{ "ucase",     CONV_UCASE,     false, NEEDS_CONV },
	{ "sparse",    CONV_SPARSE,    false, NEEDS_CONV },
	{ "swab",      CONV_SWAB,      false, ALWAYS },
	{ "sync",      CONV_SYNC,      false, ALWAYS },
	{ "noerror",   CONV_NOERROR,   false, ALWAYS },
	{ "notrunc",   CONV_NOTRUNC,   false, ALWAYS },
	{ "excl",      CONV_EXCL,      false, ALWAYS },
	{ "nocreat",   CONV_NOCREAT,   false, ALWAYS },
	{ "fdatasync", CONV_FDATASYNC, false, ALWAYS },
	{ "fsync",     CONV_FSYNC,     false, ALWAYS },
	{ "verify",    CONV_VERIFY,    false, NEEDS_VERIFY },
	{ "", 0, false, ALWAYS }
};

/* Shared by iflag= and oflag=; the side is checked after parsing (GNU). */
static const struct symbol flag_symbols[] = {
	{ "append",      O_APPEND,    true, ALWAYS },
	{ "direct",      O_DIRECT,    true, NEEDS_IOFLAGS },
	{ "directory",   O_DIRECTORY, true, NEEDS_IOFLAGS },
	{ "dsync",       O_DSYNC,     true, NEEDS_IOFLAGS },
	{ "sync",        O_SYNC,      true, NEEDS_IOFLAGS },
	{ "nonblock",    O_NONBLOCK,  true, NEEDS_IOFLAGS },
	{ "noatime",     O_NOATIME,   true, NEEDS_IOFLAGS },
	{ "noctty",      O_NOCTTY,    true, NEEDS_IOFLAGS },
	{ "nofollow",    O_NOFOLLOW,  true, NEEDS_IOFLAGS },
	{ "nocache",     FLAG_NOCACHE,     false, NEEDS_NOCACHE },
	{ "fullblock",   FLAG_FULLBLOCK,   false, ALWAYS },
	{ "count_bytes", FLAG_COUNT_BYTES, false, ALWAYS },
	{ "skip_bytes",  FLAG_SKIP_BYTES,  false, ALWAYS },
	{ "seek_bytes",  FLAG_SEEK_BYTES,  false, ALWAYS },
	{ "", 0, false, ALWAYS }
};

/* bmap='s unmapped blocks: left as they are, or zeroed by the device. */
static const struct symbol unmapped_symbols[] = {
	{ "keep", false, false, ALWAYS },
	{ "zero", true,  false, NEEDS_ZEROOUT },
	{ "", 0, false, ALWAYS }
};

static const struct symbol status_symbols[] = {
	{ "none",     STATUS_NONE,     false, ALWAYS },
	{ "noxfer",   STATUS_NOXFER,   false, ALWAYS },
	{ "progress", STATUS_PROGRESS, false, NEEDS_PROGRESS },
	{ "", 0, false, ALWAYS }
};

static bool word_is(const char *str, size_t len, const char *name)
{
	return strncmp(str, name, len) == 0 && name[len] == '\0';
}

BB_NORETURN static void die_invalid(const char *noun, const char *word)
{
	bb_error_msg_and_usage("invalid %s: %s", noun, quote_escaped(word));
}

/* A comma-separated list: each symbol ORed in, or the last one wins. */
static void parse_symbols(char *list, const struct symbol *table,
			  const char *noun, bool exclusive,
			  unsigned *value, int *open_flags)
{
	for (;;) {
		char *end = strchrnul(list, ',');
		size_t len = (size_t)(end - list);
		const struct symbol *sym = table;

		while (sym->name[0] && !word_is(list, len, sym->name))
			sym++;
		if (!sym->name[0]) {
			list[len] = '\0';   /* dd dies: argv may be cut */
			die_invalid(noun, list);
		}
		check_switch(noun, sym->name, sym->needs);
		if (sym->is_open_flag)
			*open_flags |= (int)sym->value;
		else if (exclusive)
			*value = sym->value;
		else
			*value |= sym->value;
		if (!*end)
			break;
		list = end + 1;
	}
}

/* GNU splits a count in bytes into whole records plus bytes. */
static void split_bytes(uint64_t n, uint64_t block, bool in_bytes,
			uint64_t *records, uint64_t *bytes)
{
	*records = in_bytes ? n / block : n;
	*bytes = in_bytes ? n % block : 0;
}

/* The conv= symbols that exclude each other, in GNU's order. */
static const struct {
	unsigned bits;
	const char *what;
} exclusive_convs[] = {
	{ CONV_ASCII | CONV_EBCDIC | CONV_IBM, "any two of {ascii,ebcdic,ibm}" },
	{ CONV_BLOCK | CONV_UNBLOCK, "block and unblock" },
	{ CONV_LCASE | CONV_UCASE, "lcase and ucase" },
	{ CONV_EXCL | CONV_NOCREAT, "excl and nocreat" },
};

BB_NORETURN static void die_cannot_combine(const char *what)
{
	bb_error_msg_and_die("cannot combine %s", what);
}

static void check_conflicts(struct dd_options *opt)
{
	opt->reshaping = (opt->conv & CONV_RESHAPING) != 0;
	/* block/unblock only mean something with a conversion block size. */
	if (opt->cbs == 0)
		opt->conv &= ~(unsigned)(CONV_BLOCK | CONV_UNBLOCK);

	for (size_t i = 0; i < ARRAY_SIZE(exclusive_convs); i++) {
		unsigned given = opt->conv & exclusive_convs[i].bits;

		if (given & (given - 1))
			die_cannot_combine(exclusive_convs[i].what);
	}
	if (((opt->input_open_flags & O_DIRECT) && (opt->input_flags & FLAG_NOCACHE))
	    || ((opt->output_open_flags & O_DIRECT) && (opt->output_flags & FLAG_NOCACHE)))
		die_cannot_combine("direct and nocache");
}

/* By how their values are read (as operand_names); iseek/oseek: skip/seek. */
enum operand {
	OPERAND_BS, OPERAND_IBS, OPERAND_OBS, OPERAND_CBS,
	OPERAND_COUNT, OPERAND_SKIP, OPERAND_SEEK, OPERAND_ISEEK, OPERAND_OSEEK,
	OPERAND_IF, OPERAND_OF, OPERAND_BMAP, OPERAND_UNMAPPED,
	OPERAND_CONV, OPERAND_IFLAG, OPERAND_OFLAG, OPERAND_STATUS,
	UNKNOWN_OPERAND
};
static const char operand_names[][9] = {
	"bs", "ibs", "obs", "cbs", "count", "skip", "seek", "iseek", "oseek",
	"if", "of", "bmap", "unmapped", "conv", "iflag", "oflag", "status",
};

static enum operand find_operand(const char *name, size_t len)
{
	unsigned i = 0;

	while (i < UNKNOWN_OPERAND && !word_is(name, len, operand_names[i]))
		i++;
	if (i == OPERAND_ISEEK)
		return OPERAND_SKIP;
	if (i == OPERAND_OSEEK)
		return OPERAND_SEEK;
	return (enum operand)i;
}

void parse_operands(struct dd_options *opt, char **argv)
{
	/* By enum operand; a 'B' in a count's value counts bytes ("7B"). */
	uint64_t values[OPERAND_SEEK + 1] = {
		[OPERAND_IBS] = 512, [OPERAND_OBS] = 512, [OPERAND_COUNT] = MAX_COUNT,
	};
	bool in_bytes[OPERAND_SEEK + 1] = { false };
	bool sizes_given = false, unmapped_given = false;
	unsigned status = STATUS_DEFAULT, unmapped = false;

	memset(opt, 0, sizeof(*opt));
	for (; *argv; argv++) {
		char *arg = *argv, *val = strchr(arg, '=');
		enum operand op = UNKNOWN_OPERAND;

		if (val) {
			op = find_operand(arg, (size_t)(val - arg));
			val++;
		}
		if (op <= OPERAND_SEEK) {
			bool block_size = op <= OPERAND_CBS;

			values[op] = xparse_size(val, dd_size_suffixes, block_size,
						 block_size ? MAX_BLOCK_SIZE : MAX_COUNT);
			in_bytes[op] = strchr(val, 'B') != NULL;
			opt->count_given |= op == OPERAND_COUNT;
			sizes_given |= op <= OPERAND_OBS;
		} else if (op == OPERAND_IF) {
			opt->input_path = val;
		} else if (op == OPERAND_OF) {
			opt->output_path = val;
		} else if (op == OPERAND_BMAP) {
			check_switch("operand", "bmap", NEEDS_BMAP);
			opt->bmap_path = val;
		} else if (op == OPERAND_UNMAPPED) {
			check_switch("operand", "unmapped", NEEDS_BMAP);
			parse_symbols(val, unmapped_symbols, "unmapped= value", true,
				      &unmapped, NULL);
			unmapped_given = true;
		} else if (op == OPERAND_CONV) {
			parse_symbols(val, conv_symbols, "conversion", false,
				      &opt->conv, NULL);
		} else if (op == OPERAND_IFLAG) {
			parse_symbols(val, flag_symbols, "input flag", false,
				      &opt->input_flags, &opt->input_open_flags);
		} else if (op == OPERAND_OFLAG) {
			parse_symbols(val, flag_symbols, "output flag", false,
				      &opt->output_flags, &opt->output_open_flags);
		} else if (op == OPERAND_STATUS) {
			parse_symbols(val, status_symbols, "status level", true,
				      &status, NULL);
		} else {
			bb_error_msg_and_usage("unrecognized operand %s",
					       quote_escaped(arg));
		}
	}
	opt->status = (enum dd_status)status;
	opt->zero_unmapped = unmapped;
	if (unmapped_given && !opt->bmap_path)
		bb_error_msg_and_die("unmapped= needs bmap=");
	opt->bs_given = values[OPERAND_BS] != 0;
	opt->ibs = opt->bs_given ? values[OPERAND_BS] : values[OPERAND_IBS];
	opt->obs = opt->bs_given ? values[OPERAND_BS] : values[OPERAND_OBS];
	opt->cbs = values[OPERAND_CBS];

	/* Synchronized input asks for synchronized reads (GNU's O_RSYNC). */
	if (opt->input_open_flags & (O_DSYNC | O_SYNC))
		opt->input_open_flags |= O_RSYNC;
	if (opt->output_flags & FLAG_FULLBLOCK)
		die_invalid("output flag", "fullblock");

	split_bytes(values[OPERAND_SKIP], opt->ibs,
		    in_bytes[OPERAND_SKIP] || (opt->input_flags & FLAG_SKIP_BYTES),
		    &opt->skip_records, &opt->skip_bytes);
	split_bytes(values[OPERAND_SEEK], opt->obs,
		    in_bytes[OPERAND_SEEK] || (opt->output_flags & FLAG_SEEK_BYTES),
		    &opt->seek_records, &opt->seek_bytes);
	opt->max_records = UINT64_MAX;
	if (opt->count_given)
		split_bytes(values[OPERAND_COUNT], opt->ibs,
			    in_bytes[OPERAND_COUNT] || (opt->input_flags & FLAG_COUNT_BYTES),
			    &opt->max_records, &opt->max_bytes);

	check_conflicts(opt);
	if (CLAIMING_JOBS)
		jobs_check_operands(opt, values[OPERAND_SKIP], sizes_given);

	/* O_APPEND on a file that is truncated first is rarely meant. */
	if ((opt->output_open_flags & O_APPEND) && !(opt->conv & CONV_NOTRUNC))
		bb_error_msg("you probably want conv=notrunc with oflag=append");
}
