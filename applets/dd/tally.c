/*
 * tally.c - the records lines, the byte count and the two offsets.  This
 * file is their only writer: the movers say what happened (a record
 * read, a write, bytes moved in the kernel), and the counting rules,
 * GNU's, live here once.  The rest of a loop turn (signals, progress,
 * nocache) is housekeeping.c's.
 */
#include "dd.h"

/* A record of n bytes was read (n may be 0: conv=noerror,sync pads a
 * lost block), or its rest, after the zero-copy mover read the start. */
void tally_read(struct dd_run *run, size_t n)
{
	struct dd_tally *t = &run->tally;

	t->in_offset += n;
	if (t->carry_in + n == run->opt->ibs)
		t->in_full++;
	else
		t->in_partial++;
	t->carry_in = 0;
}

/*
 * A write of wanted bytes wrote written of them.  A whole obs block is a
 * full record out, anything shorter a partial one; so is a write that
 * failed part-way (GNU 9.11 counts it), even when the part written was
 * the zero-copy mover's.
 */
void tally_write(struct dd_run *run, size_t written, size_t wanted)
{
	struct dd_tally *t = &run->tally;

	t->bytes_out += written;
	t->out_offset += written;
	if (written == wanted && t->carry_out + wanted == run->opt->obs)
		t->out_full++;
	else if (written || t->carry_out)
		t->out_partial++;
	t->carry_out = 0;
}

/* The input ended (or failed) in a record the zero-copy mover began:
 * what it copied of it was a short last record, as a read of it would
 * have been. */
void tally_carry_ends(struct dd_run *run)
{
	struct dd_tally *t = &run->tally;

	if (!t->carry_in)
		return;
	t->in_partial++;
	t->out_partial++;
	t->carry_in = t->carry_out = 0;
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

/* Part of a record, n more bytes of it, was read or written: a step of a
 * large record, or what a zero-copy mover moved before it handed over.
 * The record counts once it ends (tally_read, tally_write,
 * tally_carry_ends). */
void tally_carry_read(struct dd_run *run, size_t n)
{
	run->tally.in_offset += n;
	run->tally.carry_in += n;
}

/* Written, they move the output as a zero-copy step does. */
void tally_carry_written(struct dd_run *run, size_t n)
{
	tally_moved(run, n, false);
	run->tally.carry_out += n;
}

/*
 * The records lines of a coalesced copy that has moved `moved` bytes:
 * the record loop would have read and written ibs-sized records.  At
 * the end, a remainder is the short last record; before it, the record
 * in progress, which the record loop finishes if it takes over.
 */
void tally_coalesced(struct dd_run *run, uint64_t moved, bool at_end)
{
	struct dd_tally *t = &run->tally;
	uint64_t ibs = run->opt->ibs;
	size_t rest = (size_t)(moved % ibs);

	t->in_full = t->out_full = moved / ibs;
	t->in_partial = t->out_partial = at_end && rest;
	t->carry_in = t->carry_out = at_end ? 0 : rest;
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
