/*
 * fastpath.c - plain copies through the kernel's zero-copy paths
 * (FEATURE_DD_SPLICE), with records counted exactly as the record loop
 * would count them.
 *
 * A copy is plain when nothing looks at the bytes: no conversion, no
 * sync/noerror/sparse/swab, ibs == obs, no O_DIRECT, blocking
 * descriptors.  Two ways of counting then give GNU's records lines:
 *
 * Coalesced - the input is a regular file, a block device or /dev/zero.
 *   Their reads come back short only at the end, so the records follow
 *   from the byte count: bytes/ibs full, one partial for a remainder.
 *   dd then moves large chunks whatever bs= says (64 MiB per
 *   copy_file_range, a pipe's worth per splice), so `dd if=a of=b` at
 *   bs=512 costs a handful of syscalls per MiB instead of 4096.
 *
 * Per record - the input is a pipe and bs= was given.  Its reads can
 *   come back short at any time, so each record is one splice of up to
 *   ibs bytes and is counted as the read would have been.
 *
 * Output whose write sizes can be seen keeps the record loop: character
 * devices other than /dev/null (tapes), and pipes when obs <= PIPE_BUF,
 * where POSIX promises atomic writes.
 *
 * If the kernel refuses the path before any byte moved (EINVAL, EXDEV,
 * EBADF, ENOSYS, EOPNOTSUPP, EPERM, ETXTBSY, or 0 from a procfs or
 * sysfs file that claims a size), the record loop takes over.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dd.h"

/* Large enough that syscall cost vanishes, small enough that progress
 * lines and SIGUSR1 answers come within a fraction of a second. */
enum { FAST_CHUNK = 64 << 20 };

static bool is_plain_copy(const struct dd_options *opt)
{
	return !opt->reshaping
		&& !(opt->conv & (CONV_SYNC | CONV_NOERROR | CONV_SPARSE | CONV_SWAB))
		&& opt->ibs == opt->obs
		&& !((opt->input_open_flags | opt->output_open_flags) & O_DIRECT);
}

static bool is_nonblocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 || (flags & O_NONBLOCK);
}

/* The most bytes count= lets through, or UINT64_MAX. */
static uint64_t count_limit(const struct dd_options *opt)
{
	uint64_t limit;

	if (opt->max_records == UINT64_MAX
	    || __builtin_mul_overflow(opt->max_records, opt->ibs, &limit)
	    || __builtin_add_overflow(limit, opt->max_bytes, &limit))
		return UINT64_MAX;
	return limit;
}

/* Errors that belong to the output side of a splice-like call. */
static bool is_write_error(int err)
{
	return err == ENOSPC || err == EFBIG || err == EDQUOT || err == EPIPE;
}

/* After bytes moved in one stream, the records lines the record loop
 * would have printed: both sides count ibs-sized records. */
static void count_coalesced(struct dd_run *run, uint64_t moved, bool write_failed)
{
	uint64_t ibs = run->opt->ibs;
	uint64_t rest = moved % ibs;

	run->stats.in_full = run->stats.out_full = moved / ibs;
	if (!rest)
		return;
	run->stats.out_partial = 1;
	/* A write that failed part-way through a record: GNU had read the
	 * whole record if the input held it. */
	if (write_failed && run->in_size_known
	    && run->in_size - (run->in_offset - rest) >= ibs)
		run->stats.in_full++;
	else
		run->stats.in_partial = 1;
}

/* Act on a failed step after some bytes moved: GNU's messages. */
static enum fast_result report_failure(struct dd_run *run, int err)
{
	errno = err;
	if (is_write_error(err)) {
		bb_perror_msg(run->two_buffers ? "writing to %s" : "error writing %s",
			      quote_always(run->out_name));
		return FAST_WRITE_FAILED;
	}
	bb_perror_msg("error reading %s", quote_always(run->in_name));
	run->exit_status = EXIT_FAILURE;
	return FAST_DONE;
}

/* Bookkeeping after n bytes moved. */
static void advance(struct dd_run *run, bool reads_input, uint64_t n)
{
	if (reads_input) {
		run->in_offset += n;
		input_consumed(run);
	}
	run->out_offset += n;
	run->stats.bytes_out += n;
	output_written(run);
}

/*
 * The most one step of a coalesced copy into a pipe should move: a
 * quarter of the pipe, so that its reader drains one part while dd
 * fills the next.  Filling the whole pipe at once makes the two take
 * turns.  Into a 1 MiB pipe (1 GiB, medians of 21 and 9 runs):
 * vmsplice 35 GB/s at 256 KiB a call against 22 at 1 MiB, splice from
 * a file 25 against 18.5.  A 64 KiB pipe measured best filled whole.
 */
static size_t pipe_step_size(int fd)
{
	int capacity = fcntl(fd, F_GETPIPE_SZ);

	if (capacity < 4 * 65536)
		return 65536;
	return (size_t)capacity / 4;
}

static enum fast_result copy_coalesced(struct dd_run *run,
				       struct copy_channel *ch,
				       const struct lazy_buffer *zeros,
				       bool to_pipe)
{
	const struct dd_options *opt = run->opt;
	bool reads_input = ch->path != COPY_VMSPLICE_ZEROS
		&& ch->path != COPY_WRITE_ZEROS;
	uint64_t limit = count_limit(opt), moved = 0;
	size_t chunk = FAST_CHUNK;

	if (run->cache)
		chunk = CACHE_WINDOW;   /* keep the cache footprint bounded */
	if (ch->path == COPY_WRITE_ZEROS && chunk > zeros->capacity)
		chunk = zeros->capacity;
	if (to_pipe)
		chunk = pipe_step_size(run->out_fd);

	while (moved < limit) {
		size_t want = limit - moved < chunk ? (size_t)(limit - moved) : chunk;
		ssize_t n;

		process_signals(run);
		if (ENABLE_FEATURE_DD_PROGRESS && opt->status == STATUS_PROGRESS) {
			count_coalesced(run, moved, false);
			maybe_print_progress(run);
		}
		n = copy_channel_step(ch, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			if (moved == 0 && copy_channel_may_fall_back(ch, err))
				return FAST_NOT_USED;
			count_coalesced(run, moved, is_write_error(err));
			return report_failure(run, err);
		}
		if (n == 0) {
			/* procfs and sysfs files claim a size they don't
			 * splice: nothing moved yet, so read them instead. */
			if (moved == 0)
				return FAST_NOT_USED;
			break;
		}
		moved += (uint64_t)n;
		advance(run, reads_input, (uint64_t)n);
	}
	count_coalesced(run, moved, false);
	return FAST_DONE;
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

static enum fast_result copy_per_record(struct dd_run *run,
					struct copy_channel *ch)
{
	const struct dd_options *opt = run->opt;
	bool moved_any = false;

	for (;;) {
		size_t size;
		ssize_t n;

		if (!next_record_size(run, &size))
			break;
		process_signals(run);
		if (ENABLE_FEATURE_DD_PROGRESS && opt->status == STATUS_PROGRESS)
			maybe_print_progress(run);
		if (ch->path == COPY_SPLICE_VIA_PIPE)
			n = record_via_pipe(ch, size);
		else
			n = copy_channel_step(ch, size);
		if (n < 0 && errno == EINTR && ch->in_pipe == 0)
			continue;
		if (n < 0) {
			int err = errno;

			if (!moved_any && copy_channel_may_fall_back(ch, err))
				return FAST_NOT_USED;
			return report_failure(run, err);
		}
		note_read_size(run, n, size);
		if (n == 0)
			break;
		moved_any = true;
		if ((uint64_t)n == opt->ibs) {
			run->stats.in_full++;
			run->stats.out_full++;
		} else {
			run->stats.in_partial++;
			run->stats.out_partial++;
		}
		advance(run, true, (uint64_t)n);
	}
	return FAST_DONE;
}

/* Could a read from the input pipe return more than dd's own pipe
 * holds?  Then one splice would split that record in two. */
static bool record_may_exceed(const struct dd_run *run,
			      const struct copy_channel *ch)
{
	int in_capacity = fcntl(run->in_fd, F_GETPIPE_SZ);
	uint64_t most = run->opt->ibs;

	if (in_capacity > 0 && (uint64_t)in_capacity < most)
		most = (uint64_t)in_capacity;
	return in_capacity <= 0 || most > ch->pipe_size;
}

/*
 * Where zeros come from.  Written: a never-written 1 MiB buffer, whose
 * pages map the shared zero page when read, so they cost no memory;
 * writes to a file measured faster in 1 MiB chunks than in 8 MiB ones
 * (75 vs 110 ms for 512 MiB; GNU's 1 MiB read+write took 89 ms).
 * Vmspliced: a 64 KiB block of real zero pages (see ZERO_BLOCK_SIZE).
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

enum fast_result copy_fast(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	struct stat in_st, out_st;
	struct lazy_buffer zeros = { NULL, 0 };
	struct copy_channel ch;
	enum copy_path path;
	enum fast_result result;
	bool coalesce;

	if (!is_plain_copy(opt) || fstat(run->in_fd, &in_st) != 0
	    || fstat(run->out_fd, &out_st) != 0
	    || is_nonblocking(run->in_fd) || is_nonblocking(run->out_fd))
		return FAST_NOT_USED;
	path = copy_choose_path(&in_st, run->out_fd, &out_st);
	if (path == COPY_READ_WRITE)
		return FAST_NOT_USED;
	if (S_ISFIFO(out_st.st_mode) && opt->obs <= PIPE_BUF)
		return FAST_NOT_USED;

	coalesce = run->in_size_known || is_dev_zero(&in_st);
	if (run->in_size_known && run->in_offset >= run->in_size)
		return FAST_NOT_USED;   /* empty, or procfs: let read decide */
	if (!coalesce && (!opt->bs_given || (opt->input_flags & FLAG_FULLBLOCK)))
		return FAST_NOT_USED;

	/* A record must fit in the pipe.  A coalesced copy fills a 1 MiB
	 * pipe in quarters whatever bs= says (see pipe_step_size): at
	 * bs=64K, vmsplice and splice into a 64 KiB pipe ran at 3.6 and
	 * 3.2 GB/s at best, against 35 and 25 into 1 MiB. */
	if (S_ISFIFO(out_st.st_mode))
		pipe_raise_capacity(run->out_fd, coalesce ? PIPE_MAX_CAPACITY
				    : (size_t)opt->obs);
	if ((path == COPY_VMSPLICE_ZEROS || path == COPY_WRITE_ZEROS)
	    && !get_zeros(run, path, &zeros))
		return FAST_NOT_USED;
	result = FAST_NOT_USED;
	if (copy_channel_open(&ch, path, run->in_fd, run->out_fd, zeros.data) == 0) {
		if (coalesce)
			result = copy_coalesced(run, &ch, &zeros,
						S_ISFIFO(out_st.st_mode));
		else if (path != COPY_SPLICE_VIA_PIPE || !record_may_exceed(run, &ch))
			result = copy_per_record(run, &ch);
		copy_channel_close(&ch);
	}
	if (zeros.data && zeros.data != run->ibuf.data)
		lazy_buffer_free(&zeros);
	return result;
}
