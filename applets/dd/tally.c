/*
 * tally.c - the records lines, the byte count and the two offsets.  This
 * file is their only writer: the movers say what happened (a record
 * read, a write, bytes moved in the kernel), and the counting rules,
 * GNU's, live here once.
 *
 * tick() is the housekeeping of one loop turn, the same for both
 * movers: act on signals, print the progress line when due, and let
 * nocache drop what the offsets have passed.
 */
#include "dd.h"

/* A record of n bytes was read (n may be 0: conv=noerror,sync pads a
 * lost block). */
void tally_read(struct dd_run *run, size_t n)
{
	run->tally.in_offset += n;
	if (n == run->opt->ibs)
		run->tally.in_full++;
	else
		run->tally.in_partial++;
}

/*
 * A write of wanted bytes wrote written of them.  A whole obs block is a
 * full record out, anything shorter a partial one; so is a write that
 * failed part-way (GNU 9.11 counts it).
 */
void tally_write(struct dd_run *run, size_t written, size_t wanted)
{
	run->tally.bytes_out += written;
	run->tally.out_offset += written;
	if (written == wanted && wanted == run->opt->obs)
		run->tally.out_full++;
	else if (written)
		run->tally.out_partial++;
}

/* A zero-copy step moved n bytes (from the input, unless it made them:
 * zeros). */
void tally_moved(struct dd_run *run, uint64_t n, bool from_input)
{
	if (from_input)
		run->tally.in_offset += n;
	run->tally.out_offset += n;
	run->tally.bytes_out += n;
}

/*
 * The records lines of a coalesced copy that has moved `moved` bytes:
 * the record loop would have read and written ibs-sized records, and a
 * short one for a remainder.  A write that failed part-way through a
 * record leaves that record read in full, if the input held it.
 */
void tally_coalesced(struct dd_run *run, uint64_t moved, bool write_failed)
{
	struct dd_tally *t = &run->tally;
	uint64_t ibs = run->opt->ibs;
	uint64_t rest = moved % ibs;

	t->in_full = t->out_full = moved / ibs;
	t->in_partial = t->out_partial = 0;
	if (!rest)
		return;
	t->out_partial = 1;
	if (write_failed && run->in.size_known
	    && run->in.size - (t->in_offset - rest) >= ibs)
		t->in_full++;
	else
		t->in_partial = 1;
}

void tally_truncated_record(struct dd_run *run)
{
	run->tally.truncated_records++;
}

/* The input moved without a record (skip=, conv=noerror's step over a
 * bad block), or the output without a write (seek=). */
void tally_input_moved(struct dd_run *run, uint64_t n)
{
	run->tally.in_offset += n;
}

void tally_output_moved(struct dd_run *run, uint64_t n)
{
	run->tally.out_offset += n;
}

void tally_set_input_offset(struct dd_run *run, uint64_t offset)
{
	run->tally.in_offset = offset;
}

void tally_set_output_offset(struct dd_run *run, uint64_t offset)
{
	run->tally.out_offset = offset;
}

void tick(struct dd_run *run)
{
	process_signals(run);
	if (ENABLE_FEATURE_DD_PROGRESS && run->opt->status == STATUS_PROGRESS)
		maybe_print_progress(run);
	if (ENABLE_FEATURE_DD_NOCACHE && run->cache) {
		input_consumed(run);
		output_written(run);
	}
}
