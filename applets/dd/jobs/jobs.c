/*
 * jobs.c - the hooks by which dd's outline (dd.c) and its operand
 * checks (operands.c) reach the jobs.  Each job is behind its switch;
 * one not configured is not linked in.
 */
#include <fcntl.h>

#include "entries.h"

/* bmap= without a block size operand picks its own records: it reads,
 * hashes and writes a record at a time (bmap.c). */
enum { BMAP_RECORD = 1 << 20 };

/* The operands are parsed and GNU's conflicts checked (skip: skip='s
 * value; sizes_given: bs=, ibs= or obs= was given): dies on what a job
 * can't work with, and bmap= picks its record size. */
void jobs_check_operands(struct dd_options *opt, uint64_t skip,
			 bool sizes_given)
{
	const char *with = NULL;

	/* conv=verify reads back what was written: no holes. */
	if (ENABLE_FEATURE_DD_VERIFY && (opt->conv & CONV_VERIFY)
	    && (opt->conv & CONV_SPARSE))
		bb_error_msg_and_die("cannot combine %s", "verify and sparse");
	if (!ENABLE_FEATURE_DD_BMAP || !opt->bmap_path)
		return;
	/* bmap= writes the map's ranges in place: nothing may move, cut
	 * or change. */
	if (!sizes_given)
		opt->ibs = opt->obs = BMAP_RECORD;
	if (skip)
		with = "skip=";
	else if (opt->seek_records || opt->seek_bytes)
		with = "seek=";
	else if (opt->count_given)
		with = "count=";
	else if (opt->conv & (CONV_RESHAPING | CONV_SPARSE | CONV_SYNC | CONV_NOERROR))
		with = "conv= other than notrunc, excl, nocreat, fsync, fdatasync or verify";
	else if ((opt->input_open_flags | opt->output_open_flags) & O_DIRECT)
		with = "iflag=direct or oflag=direct";
	else if (opt->output_open_flags & O_APPEND)
		with = "oflag=append";
	if (with)
		bb_error_msg_and_die("bmap= cannot be combined with %s", with);
	opt->conv |= CONV_NOTRUNC;
}

/* Before the output is opened: bmap= reads and checks its whole map. */
void jobs_prepare(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_BMAP && run->opt->bmap_path)
		bmap_prepare(run);
}

/* The output is open: conv=verify refuses one it can't read back. */
void jobs_output_opened(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_VERIFY)
		verify_check_output(run);
}

/* The copy begins, at the output's offset after seek=. */
void jobs_start(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_VERIFY)
		verify_start(run);
}

/* The copy, where a job moves it (bmap=, the zeroing mover): true, with
 * how it ended in *stop; false leaves it to the core's movers. */
bool jobs_copy(struct dd_run *run, enum dd_stop *stop)
{
	if (ENABLE_FEATURE_DD_BMAP && run->opt->bmap_path) {
		*stop = copy_bmap(run);
		return true;
	}
	if (ENABLE_FEATURE_DD_ZEROOUT && run->plan.mover == MOVER_ZEROOUT) {
		/* What it hands over, the record loop finishes. */
		*stop = copy_zeroout(run) ? STOP_DONE : copy_records(run, RECORDS_AFTER_MOVER);
		return true;
	}
	return false;
}

/* The copy, which ended as stop says, and its syncs are over:
 * conv=verify reads back and writes the held block. */
void jobs_finish(struct dd_run *run, enum dd_stop stop)
{
	if (ENABLE_FEATURE_DD_VERIFY)
		verify_finish(run, stop);
}

/* After the summary: conv=verify's line. */
void jobs_report(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_VERIFY)
		verify_report(run);
}
