/*
 * operands.c - turn "name=value" operands into struct dd_options, with
 * every check and message GNU dd gives, before anything is opened.
 */
#include <fcntl.h>
#include <string.h>

#include "dd.h"

/* GNU's limits: block sizes must leave room for its slop, counts fit
 * off_t.  Reproduced so the same operands are accepted and refused. */
#define MAX_BLOCK_SIZE ((uint64_t)INT64_MAX - 1)
#define MAX_COUNT ((uint64_t)INT64_MAX)

/* Room for the longest word, "count_bytes", and its NUL. */
enum { SYMBOL_NAME_SIZE = 12 };

/* The switch a word needs, when that switch is off in this build. */
enum missing_feature {
	NOTHING_MISSING,
	MISSING_CONV,
	MISSING_IOFLAGS,
	MISSING_NOCACHE,
	MISSING_VERIFY,
	MISSING_PROGRESS,
};

/* Names inside the entries rather than pointed to, and the missing
 * switch as a byte rather than its name: smaller tables. */
struct symbol {
	char name[SYMBOL_NAME_SIZE];
	unsigned value;         /* CONV_*, FLAG_*, enum dd_status, or O_* */
	bool is_open_flag;      /* iflag/oflag: value is an O_* flag */
	unsigned char missing;  /* enum missing_feature */
};

#define CONV_FEATURE (ENABLE_FEATURE_DD_CONV ? NOTHING_MISSING : MISSING_CONV)
#define IOFLAGS_FEATURE (ENABLE_FEATURE_DD_IOFLAGS ? NOTHING_MISSING : MISSING_IOFLAGS)
#define NOCACHE_FEATURE (ENABLE_FEATURE_DD_NOCACHE ? NOTHING_MISSING : MISSING_NOCACHE)
#define VERIFY_FEATURE (ENABLE_FEATURE_DD_VERIFY ? NOTHING_MISSING : MISSING_VERIFY)
#define PROGRESS_FEATURE (ENABLE_FEATURE_DD_PROGRESS ? NOTHING_MISSING : MISSING_PROGRESS)

/* For "not supported in this build" messages: only the names of the
 * switches that are off are compiled in. */
static const char *feature_name(unsigned char missing)
{
	if (!ENABLE_FEATURE_DD_CONV && missing == MISSING_CONV)
		return "FEATURE_DD_CONV";
	if (!ENABLE_FEATURE_DD_IOFLAGS && missing == MISSING_IOFLAGS)
		return "FEATURE_DD_IOFLAGS";
	if (!ENABLE_FEATURE_DD_NOCACHE && missing == MISSING_NOCACHE)
		return "FEATURE_DD_NOCACHE";
	if (!ENABLE_FEATURE_DD_VERIFY && missing == MISSING_VERIFY)
		return "FEATURE_DD_VERIFY";
	return "FEATURE_DD_PROGRESS";
}

static const struct symbol conv_symbols[] = {
	{ "ascii",     CONV_ASCII | CONV_UNBLOCK, false, CONV_FEATURE },
	{ "ebcdic",    CONV_EBCDIC | CONV_BLOCK,  false, CONV_FEATURE },
	{ "ibm",       CONV_IBM | CONV_BLOCK,     false, CONV_FEATURE },
	{ "block",     CONV_BLOCK,     false, CONV_FEATURE },
	{ "unblock",   CONV_UNBLOCK,   false, CONV_FEATURE },
	{ "lcase",     CONV_LCASE,     false, CONV_FEATURE },
	{ "ucase",     CONV_UCASE,     false, CONV_FEATURE },
	{ "sparse",    CONV_SPARSE,    false, CONV_FEATURE },
	{ "swab",      CONV_SWAB,      false, NOTHING_MISSING },
	{ "sync",      CONV_SYNC,      false, NOTHING_MISSING },
	{ "noerror",   CONV_NOERROR,   false, NOTHING_MISSING },
	{ "notrunc",   CONV_NOTRUNC,   false, NOTHING_MISSING },
	{ "excl",      CONV_EXCL,      false, NOTHING_MISSING },
	{ "nocreat",   CONV_NOCREAT,   false, NOTHING_MISSING },
	{ "fdatasync", CONV_FDATASYNC, false, NOTHING_MISSING },
	{ "fsync",     CONV_FSYNC,     false, NOTHING_MISSING },
	{ "verify",    CONV_VERIFY,    false, VERIFY_FEATURE },
	{ "", 0, false, NOTHING_MISSING }
};

/* Shared by iflag= and oflag=; which side a flag may go on is checked
 * after parsing, as GNU does. */
static const struct symbol flag_symbols[] = {
	{ "append",      O_APPEND,    true, NOTHING_MISSING },
	{ "direct",      O_DIRECT,    true, IOFLAGS_FEATURE },
	{ "directory",   O_DIRECTORY, true, IOFLAGS_FEATURE },
	{ "dsync",       O_DSYNC,     true, IOFLAGS_FEATURE },
	{ "sync",        O_SYNC,      true, IOFLAGS_FEATURE },
	{ "nonblock",    O_NONBLOCK,  true, IOFLAGS_FEATURE },
	{ "noatime",     O_NOATIME,   true, IOFLAGS_FEATURE },
	{ "noctty",      O_NOCTTY,    true, IOFLAGS_FEATURE },
	{ "nofollow",    O_NOFOLLOW,  true, IOFLAGS_FEATURE },
	{ "nocache",     FLAG_NOCACHE,     false, NOCACHE_FEATURE },
	{ "fullblock",   FLAG_FULLBLOCK,   false, NOTHING_MISSING },
	{ "count_bytes", FLAG_COUNT_BYTES, false, NOTHING_MISSING },
	{ "skip_bytes",  FLAG_SKIP_BYTES,  false, NOTHING_MISSING },
	{ "seek_bytes",  FLAG_SEEK_BYTES,  false, NOTHING_MISSING },
	{ "", 0, false, NOTHING_MISSING }
};

static const struct symbol status_symbols[] = {
	{ "none",     STATUS_NONE,     false, NOTHING_MISSING },
	{ "noxfer",   STATUS_NOXFER,   false, NOTHING_MISSING },
	{ "progress", STATUS_PROGRESS, false, PROGRESS_FEATURE },
	{ "", 0, false, NOTHING_MISSING }
};

/* Does the comma-terminated word at str equal name? */
static int word_is(const char *str, size_t len, const char *name)
{
	return strlen(name) == len && memcmp(str, name, len) == 0;
}

/*
 * Parse a comma-separated list of symbols.  Each is ORed into *value and
 * *open_flags, or, when exclusive, the last one wins.  An unknown word
 * dies with "invalid NOUN: 'word'" and the usage hint.
 */
static void parse_symbols(const char *list, const struct symbol *table,
			  const char *noun, int exclusive,
			  unsigned *value, int *open_flags)
{
	for (;;) {
		const char *comma = strchr(list, ',');
		size_t len = comma ? (size_t)(comma - list) : strlen(list);
		const struct symbol *sym = table;

		while (sym->name[0] && !word_is(list, len, sym->name))
			sym++;
		if (!sym->name[0]) {
			char *word = xmalloc(len + 1);
			const char *quoted;

			memcpy(word, list, len);
			word[len] = '\0';
			quoted = quote_escaped(word);
			free_mapped(word);
			bb_error_msg_and_usage("invalid %s: %s", noun, quoted);
		}
		if (sym->missing)
			bb_error_msg_and_die("%s '%s' is not supported in this build"
					     " (%s is off)", noun, sym->name,
					     feature_name(sym->missing));
		if (sym->is_open_flag)
			*open_flags |= (int)sym->value;
		else if (exclusive)
			*value = sym->value;
		else
			*value |= sym->value;
		if (!comma)
			break;
		list = comma + 1;
	}
}

static int more_than_one(unsigned bits)
{
	return (bits & (bits - 1)) != 0;
}

/* GNU 9.1: a count=, skip= or seek= value with a 'B' anywhere in it
 * ("7B", "1KiB", "2x4B") counts bytes, as the *_bytes flags do. */
static bool counts_bytes(const char *val)
{
	return strchr(val, 'B') != NULL;
}

/* GNU splits a count given in bytes into whole records plus bytes. */
static void split_bytes(uint64_t n, uint64_t block, int in_bytes,
			uint64_t *records, uint64_t *bytes)
{
	if (in_bytes) {
		*records = n / block;
		*bytes = n % block;
	} else {
		*records = n;
		*bytes = 0;
	}
}

static void check_conflicts(struct dd_options *opt)
{
	opt->reshaping = (opt->conv & CONV_RESHAPING) != 0;
	/* block/unblock only mean something with a conversion block size. */
	if (opt->cbs == 0)
		opt->conv &= ~(unsigned)(CONV_BLOCK | CONV_UNBLOCK);

	if (more_than_one(opt->conv & (CONV_ASCII | CONV_EBCDIC | CONV_IBM)))
		bb_error_msg_and_die("cannot combine any two of {ascii,ebcdic,ibm}");
	if (more_than_one(opt->conv & (CONV_BLOCK | CONV_UNBLOCK)))
		bb_error_msg_and_die("cannot combine block and unblock");
	if (more_than_one(opt->conv & (CONV_LCASE | CONV_UCASE)))
		bb_error_msg_and_die("cannot combine lcase and ucase");
	if (more_than_one(opt->conv & (CONV_EXCL | CONV_NOCREAT)))
		bb_error_msg_and_die("cannot combine excl and nocreat");
	if (((opt->input_open_flags & O_DIRECT) && (opt->input_flags & FLAG_NOCACHE))
	    || ((opt->output_open_flags & O_DIRECT) && (opt->output_flags & FLAG_NOCACHE)))
		bb_error_msg_and_die("cannot combine direct and nocache");
	/* verify reads back the range just written: not an appended end,
	 * nor holes that leave the old bytes.  (Without the feature, the
	 * word was refused already; the test lets the checks compile out.) */
	if (ENABLE_FEATURE_DD_VERIFY && (opt->conv & CONV_VERIFY)) {
		if (opt->output_open_flags & O_APPEND)
			bb_error_msg_and_die("cannot combine verify and oflag=append");
		if (opt->conv & CONV_SPARSE)
			bb_error_msg_and_die("cannot combine verify and sparse");
	}
}

/*
 * bmap= writes ranges at the map's offsets from the image's start, and
 * leaves the rest of the output as it is (never truncated): operands
 * that move, cut or change bytes have no meaning with it.
 */
static void check_bmap_conflicts(struct dd_options *opt, uint64_t skip,
				 uint64_t count)
{
	const char *with = NULL;

	if (skip)
		with = "skip=";
	else if (opt->seek_records || opt->seek_bytes)
		with = "seek=";
	else if (opt->count_given || count != MAX_COUNT)
		with = "count=";
	else if (opt->conv & (CONV_RESHAPING | CONV_SPARSE | CONV_SYNC | CONV_NOERROR))
		with = "conv= other than notrunc, excl, nocreat, fsync or fdatasync";
	else if ((opt->input_open_flags | opt->output_open_flags) & O_DIRECT)
		with = "iflag=direct or oflag=direct";
	else if (opt->output_open_flags & O_APPEND)
		with = "oflag=append";
	if (with)
		bb_error_msg_and_die("bmap= cannot be combined with %s", with);
	opt->conv |= CONV_NOTRUNC;
}

/* The operand names, in the order of enum operand: looked up once,
 * rather than compared one by one. */
enum operand {
	OPERAND_IF, OPERAND_OF, OPERAND_BS, OPERAND_IBS, OPERAND_OBS,
	OPERAND_CBS, OPERAND_COUNT, OPERAND_SKIP, OPERAND_ISEEK, OPERAND_SEEK,
	OPERAND_OSEEK, OPERAND_CONV, OPERAND_IFLAG, OPERAND_OFLAG,
	OPERAND_BMAP, OPERAND_STATUS, UNKNOWN_OPERAND
};
static const char operand_names[][7] = {
	"if", "of", "bs", "ibs", "obs", "cbs", "count", "skip", "iseek",
	"seek", "oseek", "conv", "iflag", "oflag", "bmap", "status",
};

static enum operand find_operand(const char *name, size_t len)
{
	unsigned i = 0;

	while (i < UNKNOWN_OPERAND && !word_is(name, len, operand_names[i]))
		i++;
	return (enum operand)i;
}

static uint64_t parse_block_size(const char *val)
{
	return xparse_size(val, dd_size_suffixes, 1, MAX_BLOCK_SIZE);
}

/* count=, skip= or seek=; *in_bytes says whether a 'B' made it bytes. */
static uint64_t parse_count(const char *val, bool *in_bytes)
{
	*in_bytes = counts_bytes(val);
	return xparse_size(val, dd_size_suffixes, 0, MAX_COUNT);
}

void parse_operands(struct dd_options *opt, char **argv)
{
	uint64_t bs = 0, count = MAX_COUNT, skip = 0, seek = 0;
	bool count_b = false, skip_b = false, seek_b = false;

	memset(opt, 0, sizeof(*opt));
	opt->ibs = opt->obs = 512;

	for (; *argv; argv++) {
		const char *arg = *argv;
		const char *eq = strchr(arg, '=');
		const char *val = NULL;
		enum operand op = UNKNOWN_OPERAND;

		if (eq) {
			op = find_operand(arg, (size_t)(eq - arg));
			val = eq + 1;
		}

		if (op == OPERAND_IF)
			opt->input_path = val;
		else if (op == OPERAND_OF)
			opt->output_path = val;
		else if (op == OPERAND_BS)
			bs = parse_block_size(val);
		else if (op == OPERAND_IBS)
			opt->ibs = parse_block_size(val);
		else if (op == OPERAND_OBS)
			opt->obs = parse_block_size(val);
		else if (op == OPERAND_CBS)
			opt->cbs = parse_block_size(val);
		else if (op == OPERAND_COUNT) {
			count = parse_count(val, &count_b);
			opt->count_given = 1;
		} else if (op == OPERAND_SKIP || op == OPERAND_ISEEK)
			skip = parse_count(val, &skip_b);
		else if (op == OPERAND_SEEK || op == OPERAND_OSEEK)
			seek = parse_count(val, &seek_b);
		else if (op == OPERAND_CONV)
			parse_symbols(val, conv_symbols, "conversion", 0,
				      &opt->conv, NULL);
		else if (op == OPERAND_IFLAG)
			parse_symbols(val, flag_symbols, "input flag", 0,
				      &opt->input_flags, &opt->input_open_flags);
		else if (op == OPERAND_OFLAG)
			parse_symbols(val, flag_symbols, "output flag", 0,
				      &opt->output_flags, &opt->output_open_flags);
		else if (op == OPERAND_BMAP) {
			if (!ENABLE_FEATURE_DD_BMAP)
				bb_error_msg_and_die("operand 'bmap' is not supported"
						     " in this build (FEATURE_DD_BMAP is off)");
			opt->bmap_path = val;
		} else if (op == OPERAND_STATUS) {
			unsigned level = STATUS_DEFAULT;
			parse_symbols(val, status_symbols, "status level", 1,
				      &level, NULL);
			opt->status = (enum dd_status)level;
		} else
			bb_error_msg_and_usage("unrecognized operand %s",
					       quote_escaped(arg));
	}

	if (bs) {
		opt->ibs = opt->obs = bs;
		opt->bs_given = 1;
	}

	/* Synchronized input asks for synchronized reads as well, as GNU
	 * does (O_RSYNC; on Linux the same bits as O_SYNC). */
	if (opt->input_open_flags & (O_DSYNC | O_SYNC))
		opt->input_open_flags |= O_RSYNC;

	/* fullblock reshapes reads; it has no meaning for output. */
	if (opt->output_flags & FLAG_FULLBLOCK)
		bb_error_msg_and_usage("invalid output flag: 'fullblock'");

	split_bytes(skip, opt->ibs, skip_b || (opt->input_flags & FLAG_SKIP_BYTES),
		    &opt->skip_records, &opt->skip_bytes);
	split_bytes(seek, opt->obs, seek_b || (opt->output_flags & FLAG_SEEK_BYTES),
		    &opt->seek_records, &opt->seek_bytes);
	if (count == MAX_COUNT && !opt->count_given) {
		opt->max_records = UINT64_MAX;
		opt->max_bytes = 0;
	} else
		split_bytes(count, opt->ibs,
			    count_b || (opt->input_flags & FLAG_COUNT_BYTES),
			    &opt->max_records, &opt->max_bytes);

	check_conflicts(opt);
	if (ENABLE_FEATURE_DD_BMAP && opt->bmap_path)
		check_bmap_conflicts(opt, skip, count);

	/* O_APPEND on a file that is truncated first is rarely meant. */
	if ((opt->output_open_flags & O_APPEND) && !(opt->conv & CONV_NOTRUNC))
		bb_error_msg("you probably want conv=notrunc with oflag=append");
}
