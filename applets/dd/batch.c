/*
 * batch.c - a pipe's whole records, read at once, written together and
 * counted as the record loop would (docs/design.md, "Batches from a pipe").
 */
#include <errno.h>
#include <unistd.h>

#include "dd.h"

/* A look that finds no batch backs off: `wait` records go one by one. */
enum { BACKOFF_MAX = 64 };
static struct {
	struct lazy_buffer buf;
	unsigned wait, backoff;
} batches;

/* Where counting a batch has got to. */
struct batch_count {
	size_t got;      /* bytes the batch read */
	size_t in;       /* of them, counted in */
	size_t staged;   /* two buffers: bytes waiting for a full block */
	size_t out;      /* bytes of the write counted out */
};

/* How far count_records goes: the records written, or the failed one too. */
enum count_until { UNTIL_WRITTEN, THROUGH_FAILED };

/* Count the batch's records up to the first whose block is not all in
 * the `written` bytes: each read, then its block (one buffer: the record;
 * two: the block it completes, if any); THROUGH_FAILED counts that one
 * too.  errno is kept. */
static void count_records(struct dd_run *run, struct batch_count *c,
			  size_t written, enum count_until until)
{
	bool failed = until == THROUGH_FAILED;

	size_t bs = (size_t)run->opt->obs;   /* = ibs: batches are plain */

	while (c->in < c->got) {
		size_t len = c->got - c->in < bs ? c->got - c->in : bs;
		size_t block = len, done;

		if (run->plan.two_buffers)
			block = c->staged + len >= bs ? bs : 0;
		if (block && c->out + block > written && !failed)
			return;
		tally_read(run, len);
		c->in += len;
		c->staged += len - block;
		if (!block)
			continue;
		done = written - c->out < block ? written - c->out : block;
		tally_write(run, done, block);
		c->out += done;
		if (done < block)
			return;
	}
}

/* Write the batch's blocks, counting as they go (after ENOSPC or EDQUOT a
 * block at a time: docs/design.md, "Batches from a pipe"); stage the rest. */
static enum dd_stop write_batch(struct dd_run *run, unsigned char *data,
				size_t end, struct batch_count *c)
{
	size_t obs = (size_t)run->opt->obs, done = 0;
	bool by_block = false;

	while (done < end) {
		size_t len = by_block ? obs - done % obs
			: (size_t)run->plan.batch_write;
		size_t n;

		if (len > end - done)
			len = end - done;
		n = write_whole(run, data + done, len);
		done += n;
		if (n < len && !by_block && (errno == ENOSPC || errno == EDQUOT)) {
			by_block = true;
		} else if (n < len) {
			count_records(run, c, done, THROUGH_FAILED);
			report_write_error(run, run->plan.two_buffers ? WRITE_BLOCK
						  : WRITE_RECORD);
			return run->plan.two_buffers ? STOP_BLOCK_FAILED
				: STOP_WRITE_FAILED;
		}
		count_records(run, c, done, UNTIL_WRITTEN);
		housekeep_within_record(run);
	}
	count_records(run, c, end, UNTIL_WRITTEN);
	if (run->plan.two_buffers)
		stage_output(run, data + end, c->staged);
	return STOP_NONE;
}

/* How many whole records the input pipe holds to go as one batch, or 0
 * (read one record). */
size_t records_for_batch(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t k;

	if (batches.wait) {
		batches.wait--;
		return 0;
	}
	/* What the pipe holds less one record (docs/design.md), as the
	 * buffer and count= (UINT64_MAX without) allow. */
	k = pipe_bytes_held(&run->in) / opt->ibs;
	k = k ? k - 1 : 0;
	k = min_u64(k, run->plan.batch_size / opt->ibs);
	k = min_u64(k, opt->max_records
		    - (run->tally.in_full + run->tally.in_partial));
	/* Without memory for the buffer, records go one by one. */
	if (k >= 2 && (batches.buf.data
		       || lazy_buffer_alloc(&batches.buf, run->plan.batch_size
					    + run->opt->obs) == 0)) {
		batches.backoff = 0;
		return (size_t)k;
	}
	batches.backoff = batches.backoff ? batches.backoff * 2 : 1;
	if (batches.backoff > BACKOFF_MAX)
		batches.backoff = BACKOFF_MAX;
	batches.wait = batches.backoff;
	return 0;
}

/* Move a batch of `records` records: STOP_NONE with *len as
 * read_record's (the bytes moved and counted), or a failed write's
 * STOP_WRITE_FAILED / STOP_BLOCK_FAILED (reported). */
enum dd_stop copy_batch(struct dd_run *run, size_t records, ssize_t *len)
{
	struct batch_count c = { 0 };
	size_t bs = (size_t)run->opt->obs, end;   /* = ibs: batches are plain */
	unsigned char *data = batches.buf.data + bs;

	*len = read_restarting(run, data, records * bs);
	if (*len <= 0)
		return STOP_NONE;
	c.got = end = (size_t)*len;
	/* To the partial-read rules a batch is its records: the first
	 * follows the read before it, the last is the one before the next. */
	note_read_size(run, (ssize_t)bs, bs);
	if (c.got % bs)
		note_read_size(run, (ssize_t)(c.got % bs), bs);
	/* Two buffers: staged bytes begin the first block; a rest is staged. */
	if (run->plan.two_buffers) {
		c.staged = take_staged_output(run, data);
		end = (c.staged + c.got) / bs * bs;
	}
	return write_batch(run, data - c.staged, end, &c);
}
