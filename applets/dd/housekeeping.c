/*
 * housekeeping.c - what a mover does on every loop turn besides moving
 * bytes: act on signals, print the progress line when it is due, and let
 * nocache drop what the offsets have passed.  The same for every mover,
 * in one place; the counting itself is tally.c's.
 */
#include "dd.h"

void tick(struct dd_run *run)
{
	process_signals(run);
	tick_within_record(run);
}

/* Between the steps of a large record: signals wait for its end, as
 * they would for one read and one write of it. */
void tick_within_record(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_PROGRESS && run->opt->status == STATUS_PROGRESS)
		maybe_print_progress(run);
	if (ENABLE_FEATURE_DD_NOCACHE && run->cache) {
		input_consumed(run);
		output_written(run);
	}
}
