/* position.c - skip= and seek=, one routine (GNU's): lseek, else read over. */
#include <errno.h>
#include <unistd.h>

#include "dd.h"

BB_NORETURN static void die_cannot_pass(struct dd_run *run, enum dd_side side)
{
	bool input = side == INPUT_SIDE;
	const struct io_end *end = input ? &run->in : &run->out;

	bb_perror_msg("%s: cannot %s", quote_if_needed(end->name),
		      input ? "skip" : "seek");
	die_with_summary(run);
}

/* An output block, mapped on first use: fresh, it reads as zeros. */
static unsigned char *output_block(struct dd_run *run, struct lazy_buffer *buf)
{
	if (!buf->data && lazy_buffer_alloc(buf, run->opt->obs) != 0)
		die_memory_exhausted("output", run->opt->obs);
	return buf->data;
}

/* Reads over one block: the input's as a record, the output's (a tape
 * opened read-write) into scratch.  Dies on error as GNU does. */
static ssize_t read_over(struct dd_run *run, enum dd_side side, size_t size,
			 struct lazy_buffer *scratch, int lseek_errno)
{
	bool input = side == INPUT_SIDE;
	ssize_t n;
	size_t got;

	if (input) {
		n = read_record(run, size, &got);
		if (n < 0) {
			bb_perror_name("error reading %s", run->in.name);
			if (run->opt->conv & CONV_NOERROR)
				print_summary(run);
			die_with_summary(run);
		}
	} else {
		n = safe_read(run->out.fd, output_block(run, scratch), size);
		if (n < 0) {
			errno = lseek_errno;
			die_cannot_pass(run, OUTPUT_SIDE);
		}
	}
	tally_passed(run, input ? (uint64_t)n : 0, input ? 0 : (uint64_t)n);
	return n;
}

/* Passes skip= or seek=; returns the input's records not passed because
 * it ended first.  A file that can seek, but not that far, is an error. */
static uint64_t pass_over(struct dd_run *run, enum dd_side side)
{
	bool input = side == INPUT_SIDE;
	const struct dd_options *opt = run->opt;
	uint64_t records = input ? opt->skip_records : opt->seek_records;
	uint64_t bytes = input ? opt->skip_bytes : opt->seek_bytes;
	const struct io_end *end = input ? &run->in : &run->out;
	uint64_t block = input ? opt->ibs : opt->obs;
	uint64_t wanted = input ? run->plan.skip_offset : run->plan.seek_offset;
	struct lazy_buffer buf = { NULL, 0 };
	bool zeros = false;
	int err;

	if (!records && !bytes)
		return 0;
	/* seek= too large died in open_output. */
	errno = 0;
	if (!(input && run->plan.skip_overflow) && wanted <= INT64_MAX
	    && lseek(end->fd, (off_t)wanted, SEEK_CUR) >= 0) {
		uint64_t left;

		if (!input) {
			tally_passed(run, 0, wanted);
			return 0;
		}
		left = end->size - run->tally.in_offset;
		/* GNU fstats an input it skipped with lseek, to find its end. */
		if (end->stat_errno)
			bb_errno_msg_and_die(end->stat_errno, "cannot fstat %s",
					     quote_always(end->name));
		/* Past an input's end: stop there (skip_input says so). */
		records = 0;
		if (end->size_known && run->tally.in_offset <= end->size
		    && left < wanted) {
			records = (wanted - left) / block;
			wanted = left;
			if (lseek(end->fd, (off_t)end->size, SEEK_SET) < 0)
				die_cannot_pass(run, side);
		}
		tally_passed(run, wanted, 0);
		return records;
	}
	err = errno;
	if (lseek(end->fd, 0, SEEK_END) >= 0) {
		errno = err ? err : EOVERFLOW;
		die_cannot_pass(run, side);
	}
	/* Each read, however short, passes one block. */
	while (records || bytes) {
		size_t size = records ? (size_t)block : (size_t)bytes;

		if (zeros || read_over(run, side, size, &buf, err) == 0) {
			if (input)
				break;
			/* Past the output's end: zero blocks. */
			if (!zeros)
				lazy_buffer_free(&buf);
			zeros = true;
			if (write_whole(run, output_block(run, &buf), size) != size) {
				report_write_error(run, WRITE_BLOCK);
				die_with_summary(run);
			}
			tally_passed(run, 0, size);
		}
		if (records)
			records--;
		else
			bytes = 0;
	}
	lazy_buffer_free(&buf);
	return records;
}

static bool skip_short;   /* skip= went past the input's end */

void skip_input(struct dd_run *run)
{
	uint64_t before = run->tally.in_offset;

	skip_short = pass_over(run, INPUT_SIDE) != 0
		|| (!run->plan.skip_overflow
		    && run->plan.skip_offset != run->tally.in_offset - before);
}

/* GNU warns of a short skip= once the output is open, before seek=. */
void seek_output(struct dd_run *run)
{
	if (skip_short && run->opt->status != STATUS_NONE)
		bb_error_msg("%s: cannot skip to specified offset",
			     quote_if_needed(run->in.name));
	pass_over(run, OUTPUT_SIDE);
}
