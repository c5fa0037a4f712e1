/*
 * zerocopy.c - the zero-copy mover (FEATURE_ZEROCOPY): plain copies
 * move inside the kernel (libbb's zerocopy.c picks the syscall), with
 * records counted as the record loop would count them.  plan.c decides
 * when it is used and how records are counted:
 *
 * Coalesced - the input is a regular file, a block device or /dev/zero,
 *   whose reads come back short only at the end: the records follow
 *   from the byte count, and dd moves large steps whatever bs= says.
 *
 * Per record - the input is a pipe and bs= was given: each record is
 *   one step of up to ibs bytes, counted as the read would have been.
 *
 * If the kernel refuses the path before any byte moved, the record loop
 * does the whole copy instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dd.h"

/* Large enough that syscall cost vanishes, small enough that progress
 * lines and SIGUSR1 answers come within a fraction of a second. */
enum { COALESCED_STEP = 64 << 20 };

/* Errors that belong to the output side of a splice-like call. */
static bool is_write_error(int err)
{
	return err == ENOSPC || err == EFBIG || err == EDQUOT || err == EPIPE;
}

/* Report a failed step after some bytes moved, as GNU words it. */
static enum zerocopy_result report_failure(struct dd_run *run, int err,
					   enum dd_stop *stop)
{
	errno = err;
	if (is_write_error(err)) {
		bb_perror_msg(run->plan.two_buffers ? "writing to %s" : "error writing %s",
			      quote_always(run->out.name));
		*stop = run->plan.two_buffers ? STOP_BLOCK_FAILED : STOP_WRITE_FAILED;
		return ZEROCOPY_DONE;
	}
	bb_perror_msg("error reading %s", quote_always(run->in.name));
	run->exit_status = EXIT_FAILURE;
	return ZEROCOPY_DONE;
}

/*
 * The most one step of a coalesced copy into a pipe should move: a
 * quarter of the pipe, so that its reader drains one part while dd
 * fills the next (filling it whole makes the two take turns).  A 64 KiB
 * pipe measured best filled whole.
 */
static size_t pipe_step_size(const struct io_end *out)
{
	if (out->pipe_capacity < 4 * 65536)
		return 65536;
	return out->pipe_capacity / 4;
}

static enum zerocopy_result copy_coalesced(struct dd_run *run,
					   struct copy_channel *ch,
					   const struct lazy_buffer *zeros,
					   enum dd_stop *stop)
{
	bool from_input = ch->path != COPY_VMSPLICE_ZEROS
		&& ch->path != COPY_WRITE_ZEROS;
	uint64_t limit = run->plan.count_bytes, moved = 0;
	size_t step = COALESCED_STEP;

	if (run->cache)
		step = CACHE_WINDOW;   /* keep the cache footprint bounded */
	if (ch->path == COPY_WRITE_ZEROS && step > zeros->capacity)
		step = zeros->capacity;
	if (io_end_is_pipe(&run->out))
		step = pipe_step_size(&run->out);

	while (moved < limit) {
		size_t want = (size_t)min_u64(limit - moved, step);
		ssize_t n;

		tally_coalesced(run, moved, false);
		tick(run);
		n = copy_channel_step(ch, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			if (moved == 0 && copy_channel_may_fall_back(ch, err))
				return ZEROCOPY_NOT_USED;
			tally_coalesced(run, moved, is_write_error(err));
			return report_failure(run, err, stop);
		}
		if (n == 0) {
			/* procfs and sysfs files claim a size they don't
			 * splice: nothing moved yet, so read them instead. */
			if (moved == 0)
				return ZEROCOPY_NOT_USED;
			break;
		}
		moved += (uint64_t)n;
		tally_moved(run, (uint64_t)n, from_input);
	}
	tally_coalesced(run, moved, false);
	return ZEROCOPY_DONE;
}

/*
 * One record through dd's own pipe: the first splice takes what one
 * read would have returned, the rest write it all out.  Returns the
 * record's size, 0 at end of input, or -1 with errno (bytes still held
 * in ch->in_pipe).
 */
static ssize_t record_via_pipe(struct copy_channel *ch, size_t size)
{
	ssize_t n = copy_channel_step(ch, size);
	size_t record;

	if (n <= 0)
		return n;
	record = (size_t)n + ch->in_pipe;
	while (ch->in_pipe > 0) {
		n = copy_channel_step(ch, ch->in_pipe);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
	}
	return (ssize_t)record;
}

static enum zerocopy_result copy_per_record(struct dd_run *run,
					    struct copy_channel *ch,
					    enum dd_stop *stop)
{
	bool moved_any = false;

	for (;;) {
		size_t size;
		ssize_t n;

		tick(run);
		if (!next_record_size(run, &size))
			break;
		if (ch->path == COPY_SPLICE_VIA_PIPE)
			n = record_via_pipe(ch, size);
		else
			n = copy_channel_step(ch, size);
		if (n < 0 && errno == EINTR && ch->in_pipe == 0)
			continue;
		if (n < 0) {
			int err = errno;

			if (!moved_any && copy_channel_may_fall_back(ch, err))
				return ZEROCOPY_NOT_USED;
			return report_failure(run, err, stop);
		}
		note_read_size(run, n, size);
		if (n == 0)
			break;
		moved_any = true;
		tally_read(run, (size_t)n);
		tally_write(run, (size_t)n, (size_t)n);
	}
	return ZEROCOPY_DONE;
}

/* Could a read from the input pipe return more than dd's own pipe
 * holds?  Then one splice would split that record in two. */
static bool record_may_exceed(const struct dd_run *run,
			      const struct copy_channel *ch)
{
	uint64_t most = run->opt->ibs;

	if (run->in.pipe_capacity && run->in.pipe_capacity < most)
		most = run->in.pipe_capacity;
	return run->in.pipe_capacity == 0 || most > ch->pipe_size;
}

/*
 * Where zeros come from.  Written: a never-written 1 MiB buffer, whose
 * pages map the shared zero page when read, so they cost no memory.
 * Vmspliced: a block of real zero pages (see ZERO_BLOCK_SIZE).
 */
static bool get_zeros(struct dd_run *run, enum copy_path path,
		      struct lazy_buffer *zeros)
{
	uint64_t size = 1 << 20;

	if (path == COPY_VMSPLICE_ZEROS)
		return zero_block_alloc(zeros, ZERO_BLOCK_SIZE) == 0;
	if (run->ibuf.capacity >= size) {
		/* The first MiB of the input buffer: never read into here. */
		zeros->data = run->ibuf.data;
		zeros->capacity = size;
		return true;
	}
	return lazy_buffer_alloc(zeros, size) == 0;
}

enum zerocopy_result copy_zerocopy(struct dd_run *run, enum dd_stop *stop)
{
	const struct dd_plan *plan = &run->plan;
	struct lazy_buffer zeros = { NULL, 0 };
	struct copy_channel ch;
	enum zerocopy_result result = ZEROCOPY_NOT_USED;
	bool coalesced = plan->mover == MOVER_COALESCED;

	*stop = STOP_DONE;
	/* A record must fit in the pipe.  A coalesced copy fills a 1 MiB
	 * pipe in quarters whatever bs= says (see pipe_step_size). */
	pipe_raise_capacity(&run->out, coalesced ? PIPE_MAX_CAPACITY
			    : (size_t)run->opt->obs);
	if ((plan->path == COPY_VMSPLICE_ZEROS || plan->path == COPY_WRITE_ZEROS)
	    && !get_zeros(run, plan->path, &zeros))
		return ZEROCOPY_NOT_USED;
	if (copy_channel_open(&ch, plan->path, &run->in, &run->out, zeros.data) == 0) {
		if (coalesced)
			result = copy_coalesced(run, &ch, &zeros, stop);
		else if (plan->path != COPY_SPLICE_VIA_PIPE
			 || !record_may_exceed(run, &ch))
			result = copy_per_record(run, &ch, stop);
		copy_channel_close(&ch);
	}
	if (zeros.data && zeros.data != run->ibuf.data)
		lazy_buffer_free(&zeros);
	return result;
}
