/*
 * cache.c - iflag/oflag=nocache on libbb's cache_dropper (docs/design.md).
 *
 * The output's windows are waited for, so nocache learns of a write-back
 * error, and the kernel tells no one else (not a later fsync).  With a
 * final sync asked for (conv=fsync, conv=fdatasync), it is held for that
 * sync, which reports it in GNU's words; otherwise it is reported at
 * once.  Either way the copy goes on, as GNU's would.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dd.h"

/* One side's dropper: off without a page cache. */
struct nocache_side {
	bool on;
	struct cache_dropper dropper;
};

static struct dd_cache_state {
	struct nocache_side in, out;
	int held_error;      /* a write-back error for the final sync, or 0 */
} cache_state;

static void start_side(struct nocache_side *side, const struct io_end *end,
		       unsigned flags, uint64_t offset, enum dd_side which)
{
	mode_t mode = end->st.st_mode;
	bool output = which == OUTPUT_SIDE;

	side->on = (flags & FLAG_NOCACHE) && (S_ISREG(mode) || S_ISBLK(mode));
	if (side->on)
		cache_dropper_init(&side->dropper, end->fd,
				   output ? CACHE_WRITING : CACHE_READING, offset,
				   output && S_ISBLK(mode) ? DEVICE_CACHE_WINDOW
				   : CACHE_WINDOW);
}

void setup_nocache(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;

	if (!ENABLE_FEATURE_DD_NOCACHE
	    || !((opt->input_flags | opt->output_flags) & FLAG_NOCACHE))
		return;
	start_side(&cache_state.in, &run->in, opt->input_flags,
		   run->tally.in_offset, INPUT_SIDE);
	start_side(&cache_state.out, &run->out, opt->output_flags,
		   run->tally.out_offset, OUTPUT_SIDE);
	run->cache = &cache_state;
}

/* The output's write-back failed with err (the input's never writes). */
static void writeback_failed(struct dd_run *run, int err)
{
	if (!(run->opt->conv & (CONV_FSYNC | CONV_FDATASYNC)))
		report_writeback_error(&run->out, err);
	else if (!cache_state.held_error)
		cache_state.held_error = err;
}

static void advance_side(struct dd_run *run, struct nocache_side *side,
			 uint64_t offset)
{
	if (side->on && cache_dropper_advance(&side->dropper, offset) != 0)
		writeback_failed(run, errno);
}

void drop_passed_cache(struct dd_run *run)
{
	advance_side(run, &run->cache->in, run->tally.in_offset);
	advance_side(run, &run->cache->out, run->tally.out_offset);
}

int take_held_writeback_error(void)
{
	int err = cache_state.held_error;

	cache_state.held_error = 0;
	return err;
}

/* At the file's end, advice to EOF also drops the partial last page (a
 * regular output's size takes a fresh fstat).  count=0 drops from offset
 * to EOF whatever the file (GNU's use): a descriptor that can't seek fails. */
static void finish_side(struct dd_run *run, struct nocache_side *side,
			const struct io_end *end, unsigned flags,
			uint64_t offset, bool count0)
{
	struct stat st;
	bool at_eof = end->size_known && offset >= end->size;

	if (count0 && (flags & FLAG_NOCACHE)) {
		uint64_t page_mask = (uint64_t)getpagesize() - 1;
		int err = lseek(end->fd, 0, SEEK_CUR) < 0 ? errno
			: posix_fadvise(end->fd, (off_t)(offset & ~page_mask),
					0, POSIX_FADV_DONTNEED);

		if (err) {
			errno = err;
			bb_perror_msg("failed to discard cache for: %s",
				      quote_if_needed(end->name));
			note_failure();
		}
		return;
	}
	if (count0 || !side->on)
		return;
	if (side->dropper.writing && S_ISREG(end->st.st_mode))
		at_eof = fstat(end->fd, &st) == 0 && offset >= (uint64_t)st.st_size;
	/* After the final syncs (which left nothing to fail): reported. */
	if (cache_dropper_finish(&side->dropper, offset, at_eof) != 0)
		report_writeback_error(&run->out, errno);
}

void finish_nocache(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	bool count0 = opt->max_records == 0 && opt->max_bytes == 0;

	if (!ENABLE_FEATURE_DD_NOCACHE || !run->cache)
		return;
	finish_side(run, &run->cache->in, &run->in, opt->input_flags,
		    run->tally.in_offset, count0);
	finish_side(run, &run->cache->out, &run->out, opt->output_flags,
		    run->tally.out_offset, count0);
}
