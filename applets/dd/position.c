/*
 * position.c - skip= on the input and seek= on the output, one routine
 * for both as in GNU: lseek where the file can, else read over the
 * blocks; what seek= could not read over is written as zero blocks.
 */
#include <errno.h>
#include <unistd.h>

#include "dd.h"

/* The size of the next block of records × block + bytes, 0 when none
 * is left; pass_block() then takes it off. */
static size_t next_block(uint64_t records, uint64_t bytes, uint64_t block)
{
	return records ? (size_t)block : (size_t)bytes;
}

static void pass_block(uint64_t *records, uint64_t *bytes)
{
	if (*records)
		(*records)--;
	else
		*bytes = 0;
}

BB_NORETURN static void die_cannot_pass(struct dd_run *run, bool input)
{
	const struct io_end *end = input ? &run->in : &run->out;

	bb_perror_msg("%s: cannot %s", quote_if_needed(end->name),
		      input ? "skip" : "seek");
	die_with_summary(run);
}

/* Reads over one block: the input's as a record is read, the output's
 * (a tape opened read-write) into scratch.  Dies as GNU does on error,
 * the output's with the lseek's errno. */
static ssize_t read_over(struct dd_run *run, bool input, size_t size,
			 struct lazy_buffer *scratch, int lseek_errno)
{
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
		tally_input_moved(run, (uint64_t)n);
		return n;
	}
	if (!scratch->data && lazy_buffer_alloc(scratch, run->opt->obs) != 0)
		die_memory_exhausted("output", run->opt->obs);
	n = safe_read(run->out.fd, scratch->data, size);
	if (n < 0) {
		errno = lseek_errno;
		die_cannot_pass(run, false);
	}
	tally_output_moved(run, (uint64_t)n);
	return n;
}

/*
 * Passes records × block + bytes of the input (skip=) or the output
 * (seek=).  Returns the records not passed because the file ended
 * first; *bytes stays nonzero if they were not passed.  A file that can
 * seek, but not that far, is an error, as in GNU.
 */
static uint64_t pass_over(struct dd_run *run, bool input, uint64_t records,
			  uint64_t *bytes)
{
	const struct io_end *end = input ? &run->in : &run->out;
	uint64_t block = input ? run->opt->ibs : run->opt->obs;
	uint64_t wanted = input ? run->plan.skip_offset : run->plan.seek_offset;
	struct lazy_buffer scratch = { NULL, 0 };
	int err;

	/* seek= too large died in open_output. */
	errno = 0;
	if (!(input && run->plan.skip_overflow) && wanted <= INT64_MAX
	    && lseek(end->fd, (off_t)wanted, SEEK_CUR) >= 0) {
		uint64_t left = end->size - run->tally.in_offset;

		*bytes = 0;
		if (!input) {
			tally_output_moved(run, wanted);
			return 0;
		}
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
				die_cannot_pass(run, input);
		}
		tally_input_moved(run, wanted);
		return records;
	}
	err = errno;
	if (lseek(end->fd, 0, SEEK_END) >= 0) {
		errno = err ? err : EOVERFLOW;
		die_cannot_pass(run, input);
	}
	for (;;) {
		size_t size = next_block(records, *bytes, block);

		if (!size || read_over(run, input, size, &scratch, err) == 0)
			break;
		pass_block(&records, bytes);
	}
	lazy_buffer_free(&scratch);
	return records;
}

void skip_input(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t bytes = opt->skip_bytes, before = run->tally.in_offset;
	uint64_t records;

	if (!opt->skip_records && !bytes)
		return;
	records = pass_over(run, true, opt->skip_records, &bytes);
	/* dd_main says so once the output is open. */
	run->skip_short = records
		|| (!run->plan.skip_overflow
		    && run->plan.skip_offset != run->tally.in_offset - before);
}

void seek_output(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t bytes = opt->seek_bytes, records;
	struct lazy_buffer zeros = { NULL, 0 };

	if (!opt->seek_records && !bytes)
		return;
	records = pass_over(run, false, opt->seek_records, &bytes);
	if (!records && !bytes)
		return;
	/* A fresh mapping reads as zeros: the blocks to write. */
	if (lazy_buffer_alloc(&zeros, opt->obs) != 0)
		die_memory_exhausted("output", opt->obs);
	for (;;) {
		size_t size = next_block(records, bytes, opt->obs);

		if (!size)
			break;
		if (write_output(run, zeros.data, size) != size) {
			report_write_error(run, true);
			die_with_summary(run);
		}
		tally_output_moved(run, size);
		pass_block(&records, &bytes);
	}
	lazy_buffer_free(&zeros);
}
