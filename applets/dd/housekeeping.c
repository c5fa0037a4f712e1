/*
 * housekeeping.c - between moves: the signals dd catches, and the
 * housekeeping of each loop turn.  The signals themselves are the
 * transfer layer's (libbb/signals.c); report.c answers them.
 */
#include "dd.h"

/* SIGINT, and SIGUSR1 as GNU catches it (even when ignored, which GNU's
 * manual does first; with POSIXLY_CORRECT it keeps its default). */
void catch_signals(struct dd_run *run)
{
	bool info = ENABLE_FEATURE_DD_SIGNALS && !getenv("POSIXLY_CORRECT");

	run->transfer.client = run;
	run->transfer.on_info = answer_info_request;
	run->transfer.on_interrupt = die_by_interrupt;
	transfer_catch_signals(CATCH_INTERRUPT | (info ? CATCH_INFO : 0));
}

/* Once per loop turn: act on signals, then housekeep_within_record. */
void housekeep(struct dd_run *run)
{
	transfer_act_on_signals(&run->transfer);
	housekeep_within_record(run);
}

/* The progress line, and nocache dropping what the offsets passed; not
 * the signals, which wait for the record's end, as they would for one
 * read and one write. */
void housekeep_within_record(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_PROGRESS && run->opt->status == STATUS_PROGRESS)
		maybe_print_progress(run);
	if (ENABLE_FEATURE_DD_NOCACHE && run->cache)
		drop_passed_cache(run);
}
