/* dd.c - the outline of dd: parse, open, plan, position, pick the mover,
 * finish; docs/design.md ("The pipeline") names the file of each step. */
//config:config DD
//config:	bool "dd"
//config:	default y
//config:	help
//config:	  Copy and convert a file, as GNU coreutils dd does.
//config:config FEATURE_DD_NOCACHE
//config:	bool "iflag=nocache and oflag=nocache"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  Drop what dd read or wrote from the page cache as it goes.
//config:config FEATURE_DD_CONV
//config:	bool "Conversions (ascii, ebcdic, ibm, block, unblock, lcase, ucase, sparse)"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  Without this, conv= has only swab, sync, noerror, notrunc,
//config:	  excl, nocreat, fdatasync and fsync.
//config:config FEATURE_DD_PROGRESS
//config:	bool "status=progress"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  A line of bytes, time and rate, rewritten as the copy goes.
//config:	  Without this, status=progress is refused.
//config:config FEATURE_DD_SIGNALS
//config:	bool "Print the summary on SIGUSR1"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  Without this, SIGUSR1 ends dd, as it would any program.
//config:config FEATURE_DD_IOFLAGS
//config:	bool "Less common iflag/oflag flags"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  direct, directory, dsync, sync, nonblock, noatime, noctty, nofollow.

//applet:dd dd_main DD

//usage:[OPERAND]...
//usage:Copy a file, converting and formatting according to the operands.
//usage:
//usage[FEATURE_DD_BMAP]:  bmap=FILE       write only the blocks bmaptool's map FILE lists, checked
//usage:  bs=BYTES        read and write up to BYTES bytes at a time (default: 512)
//usage:  cbs=BYTES       convert BYTES bytes at a time
//usage:  conv=CONVS      convert the file as per the comma separated symbol list
//usage:  count=N         copy only N input blocks
//usage:  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
//usage:  if=FILE         read from FILE instead of standard input
//usage:  iflag=FLAGS     read as per the comma separated symbol list
//usage:  obs=BYTES       write BYTES bytes at a time (default: 512)
//usage:  of=FILE         write to FILE instead of standard output
//usage:  oflag=FLAGS     write as per the comma separated symbol list
//usage:  seek=N          (or oseek=N) skip N obs-sized output blocks
//usage:  skip=N          (or iseek=N) skip N ibs-sized input blocks
//usage:  status=LEVEL    none (no messages) or noxfer (no transfer line)
//usage[FEATURE_DD_PROGRESS]:                  or progress (the transfer line, kept up as it goes)
//usage[FEATURE_DD_BMAP]:  unmapped=zero   with bmap=: zero the rest too, so that of= holds the image
//usage:
//usage:N and BYTES may be followed by c=1, w=2, b=512, kB=1000, K=1024,
//usage:MB=1000*1000, M=1024*1024, and so on for G, T, P, E; and may be
//usage:products such as 2x8K.
//usage:If N ends in 'B', it counts bytes not blocks.
//usage:
//usage:CONVS: swab sync excl nocreat notrunc noerror fdatasync fsync
//usage[FEATURE_DD_CONV]:       ascii ebcdic ibm block unblock lcase ucase sparse
//usage[FEATURE_DD_VERIFY]:       verify (read the output back from the device and compare;
//usage[FEATURE_DD_VERIFY]:       on a block device the first MiB is written last)
//usage:FLAGS: append fullblock count_bytes skip_bytes seek_bytes
//usage[FEATURE_DD_IOFLAGS]:       direct directory dsync sync nonblock noatime noctty nofollow
//usage[FEATURE_DD_NOCACHE]:       nocache
//usage[FEATURE_DD_SIGNALS]:
//usage[FEATURE_DD_SIGNALS]:SIGUSR1 prints the current statistics and the copy goes on.

#include <string.h>
#include <unistd.h>

#include "jobs/jobs.h"

/* Is word a non-empty prefix of option, as getopt_long allows? */
static bool abbreviates(const char *word, const char *option)
{
	if (!*word)
		return false;
	while (*word && *word == *option) {
		word++;
		option++;
	}
	return !*word;
}

/* Take out --help and --version, found before "--" as getopt_long does. */
static void take_options(char **argv)
{
	char **out = argv;

	for (; *argv && strcmp(*argv, "--") != 0; argv++) {
		const char *arg = *argv;

		if (arg[0] != '-' || !arg[1]) {
			*out++ = *argv;
		} else if (arg[1] != '-') {
			bb_error_msg_and_usage("invalid option -- '%c'", arg[1]);
		} else if (abbreviates(arg + 2, "help")) {
			bb_print_usage();
			exit(EXIT_SUCCESS);
		} else if (abbreviates(arg + 2, "version")) {
			bb_print_version();
			exit(EXIT_SUCCESS);
		} else {
			bb_error_msg_and_usage("unrecognized option '%s'", arg);
		}
	}
	if (*argv)
		argv++;         /* the "--" */
	while ((*out++ = *argv++) != NULL)
		;
}

/* The syncs run after a write error too (design.md, "Ends, plan, tally"). */
static void finish_copy(struct dd_run *run, enum dd_stop stop)
{
	if (stop != STOP_DONE)
		note_failure();
	if ((stop == STOP_DONE || stop == STOP_INPUT_FAILED)
	    && extend_after_final_hole(run) && output_syncs_at_end(run))
		catch_up_progress(run);
	if (!sync_output(run)) {
		if (stop == STOP_BLOCK_FAILED)
			exit(EXIT_FAILURE);
		note_failure();
	}
	finish_nocache(run);
	jobs_finish(run, stop);
}

int dd_main(int argc, char **argv)
{
	struct dd_options opt;
	struct dd_run run;
	enum dd_stop stop = STOP_DONE;

	(void)argc;
	take_options(argv + 1);
	parse_operands(&opt, argv + 1);
	memset(&run, 0, sizeof(run));
	run.opt = &opt;
	if (ENABLE_FEATURE_DD_CONV || (opt.conv & CONV_SWAB))
		conv_init(&opt);
	catch_signals(&run);
	/* The output last: a run that can't start leaves it alone. */
	open_input(&run);
	jobs_prepare(&run);
	plan_input(&run.plan, &opt, &run.in);
	map_buffers(&run);
	tally_passed(&run, run.in.offset, 0);
	report_start();
	skip_input(&run);
	/* GNU's clock starts once the output is open, before it seeks. */
	report_pause();
	open_output(&run);
	report_resume();
	jobs_output_opened(&run);
	tally_passed(&run, 0, run.out.offset);
	seek_output(&run);
	plan_output(&run.plan, &opt, &run.in, &run.out);
	setup_nocache(&run);
	jobs_start(&run);
	/* ENABLE_ first: a mover not configured is not linked in. */
	if (!jobs_copy(&run, &stop)) {
		if (!ENABLE_FEATURE_ZEROCOPY || run.plan.mover == MOVER_RECORDS)
			stop = copy_records(&run, RECORDS_FROM_START);
		else if (!copy_zerocopy(&run))
			stop = copy_records(&run, RECORDS_AFTER_MOVER);
	}
	finish_copy(&run, stop);
	/* As GNU: a descriptor that fails to close ends dd, no summary. */
	if (close(run.in.fd) != 0)
		bb_perror_msg_and_die("closing input file %s", quote_always(run.in.name));
	if (close(run.out.fd) != 0)
		bb_perror_msg_and_die("closing output file %s", quote_always(run.out.name));
	print_summary(&run);
	jobs_report(&run);
	return dd_exit_status();
}
