/*
 * batch.c - whole records that the input pipe already holds, moved
 * together (plan.c's plan_batches says where).
 *
 * A read of ibs from a pipe that holds at least ibs bytes returns ibs.
 * So when the pipe holds k whole records, one read of k * ibs returns
 * what k of GNU's reads would have, and they count as k full records.
 * Their writes go together: into a file as one write, into a pipe in
 * writes of at most PIPE_BUF, each atomic as a record's own write was.
 * Only what the pipe holds is read, so nothing waits for more input
 * before it is written, and a record that comes short comes short as
 * GNU's read would have seen it.
 *
 * The records are counted after their write, in order, as the record
 * loop would have counted them; a failing write counts the records
 * before it and the one it failed in, with GNU's message.  What the
 * batch read past that record is gone from the pipe (README: "Batches
 * from a pipe").
 */
#include <errno.h>
#include <unistd.h>

#include "dd.h"

/* After a look at the pipe finds no batch, this many records, at most,
 * go one by one before the next look: a producer that writes a record
 * at a time then costs few extra calls. */
enum { BACKOFF_MAX = 64 };

/* The batches' buffer, and how many records go one by one before the
 * pipe is looked at again; this file's own. */
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

/*
 * How many records to take: what the pipe holds, the batch buffer and
 * count= allow, less one.  That whole record and the tail stay for an
 * ordinary read, which comes back full, as GNU's would, while the
 * writer refills the pipe: a batch that emptied it would leave the next
 * read to find only what the writer had put in since, and partial
 * records would come more often than with GNU.
 */
static size_t records_to_take(const struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t held = pipe_bytes_held(&run->in), k;

	k = held / opt->ibs;
	k = k ? k - 1 : 0;
	k = min_u64(k, run->plan.batch_size / opt->ibs);
	if (opt->max_records != UINT64_MAX)
		k = min_u64(k, opt->max_records
			    - (run->tally.in_full + run->tally.in_partial));
	return (size_t)k;
}

/* Is it time to look at the pipe?  (Batches run only in the record
 * loop's own copy, so no zero-copy carry is ever in progress.) */
static bool look_at_pipe(void)
{
	if (batches.wait) {
		batches.wait--;
		return false;
	}
	return true;
}

static void no_batch_found(void)
{
	batches.backoff = batches.backoff ? batches.backoff * 2 : 1;
	if (batches.backoff > BACKOFF_MAX)
		batches.backoff = BACKOFF_MAX;
	batches.wait = batches.backoff;
}

/*
 * Count the batch's records, in order, up to the first whose block is
 * not all within the `written` bytes written so far: each record read,
 * then its block written (one buffer: the record itself; two buffers:
 * the block it completes, if any).  With `failed`, that first one is
 * counted too, as a write that failed part-way; returns false then.
 */
static bool count_records(struct dd_run *run, struct batch_count *c,
			  size_t written, bool failed)
{
	size_t ibs = (size_t)run->opt->ibs, obs = (size_t)run->opt->obs;
	bool two_buffers = run->plan.two_buffers;

	while (c->in < c->got) {
		size_t len = c->got - c->in < ibs ? c->got - c->in : ibs;
		size_t block = len, done;

		if (two_buffers)
			block = c->staged + len >= obs ? obs : 0;
		if (block && c->out + block > written && !failed)
			break;
		tally_read(run, len);
		c->in += len;
		if (!block) {
			c->staged += len;
			continue;
		}
		if (two_buffers)
			c->staged = c->staged + len - obs;
		done = written - c->out < block ? written - c->out : block;
		tally_write(run, done, block);
		c->out += done;
		if (done < block)
			return false;
	}
	return true;
}

/*
 * Write the batch's blocks, counting as they go.  A filesystem near full
 * may refuse a large write and still take small ones (ext4 does): after
 * ENOSPC or EDQUOT the rest goes a block at a time, from where the
 * write stopped, as GNU's writes would have gone.
 */
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
		n = write_output(run, data + done, len);
		done += n;
		if (n < len && !by_block && (errno == ENOSPC || errno == EDQUOT)) {
			by_block = true;
		} else if (n < len) {
			int err = errno;

			count_records(run, c, done, true);
			errno = err;
			report_write_error(run, run->plan.two_buffers);
			return run->plan.two_buffers ? STOP_BLOCK_FAILED
				: STOP_WRITE_FAILED;
		}
		count_records(run, c, done, false);
		tick_within_record(run);
	}
	return STOP_NONE;
}

size_t records_for_batch(struct dd_run *run)
{
	size_t k;

	if (!look_at_pipe())
		return 0;
	k = records_to_take(run);
	if (k < 2) {
		no_batch_found();
		return 0;
	}
	if (!batches.buf.data
	    && lazy_buffer_alloc(&batches.buf,
				 run->plan.batch_size + run->opt->obs) != 0) {
		/* No memory for it: records go one by one, as without. */
		no_batch_found();
		return 0;
	}
	batches.backoff = 0;
	return k;
}

enum dd_stop copy_batch(struct dd_run *run, size_t records, ssize_t *len)
{
	struct batch_count c = { 0, 0, 0, 0 };
	unsigned char *data = batches.buf.data;
	size_t end;
	enum dd_stop stop;
	ssize_t n;

	/* Two buffers: the staged bytes begin the first block. */
	if (run->plan.two_buffers)
		c.staged = take_staged_output(run, data);
	n = read_batch(run, data + c.staged, records * (size_t)run->opt->ibs);
	*len = n;
	if (n <= 0) {
		int err = errno;

		/* Nothing was taken: put back what was staged. */
		if (c.staged)
			stage_output(run, data, c.staged);
		errno = err;
		return STOP_NONE;
	}
	c.got = (size_t)n;

	/* One buffer: every record is written.  Two buffers: the whole
	 * blocks; the rest stays staged. */
	end = c.got;
	if (run->plan.two_buffers)
		end = (c.staged + c.got) / (size_t)run->opt->obs
			* (size_t)run->opt->obs;
	stop = write_batch(run, data, end, &c);
	if (stop != STOP_NONE)
		return stop;
	count_records(run, &c, end, false);
	if (run->plan.two_buffers)
		stage_output(run, data + end, c.staged);
	return STOP_NONE;
}
