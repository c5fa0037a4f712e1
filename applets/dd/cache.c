/*
 * cache.c - iflag=nocache and oflag=nocache (FEATURE_DD_NOCACHE), on
 * libbb's cache_dropper: the footprint of the file being read or written
 * stays at about two windows during the copy, and what dd touched (from
 * the skip=/seek= offset to where it stopped) is dropped at the end; the
 * rest of the file keeps its cache.  On a pipe or a terminal nocache
 * does nothing, as in GNU, except for count=0 (below).
 *
 * As in GNU (9.7 and later), a failed posix_fadvise is reported, and
 * fails dd, only for count=0, whose whole point is the advice; during a
 * copy the advice is a hint, and a side that fails once is left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dd.h"

struct dd_cache_state {
	bool input_on, output_on;
	struct cache_dropper input, output;
};

static struct dd_cache_state cache_state;

static bool has_page_cache(mode_t mode)
{
	return S_ISREG(mode) || S_ISBLK(mode);
}

static void report_failure(const char *name)
{
	bb_perror_msg("failed to discard cache for: %s", quote_if_needed(name));
	note_failure();
}

/*
 * count=0 with nocache is GNU's documented way to drop a file's cache:
 * from the offset (down to its page) to the end of the file, whatever
 * the file is.  A descriptor that can't seek fails ("Illegal seek").
 */
static void drop_to_eof(int fd, uint64_t offset, const char *name)
{
	uint64_t page = (uint64_t)getpagesize();
	int err;

	if (lseek(fd, 0, SEEK_CUR) < 0) {
		report_failure(name);
		return;
	}
	err = posix_fadvise(fd, (off_t)(offset - offset % page), 0,
			    POSIX_FADV_DONTNEED);
	if (err) {
		errno = err;
		report_failure(name);
	}
}

/* Did dd get to the end of the file?  Then the advice goes to EOF,
 * which also drops the last, partial page.  The input's size is known
 * since it was opened; a regular output's has changed since: that takes
 * a fresh fstat. */
static bool reached_eof(const struct io_end *end, uint64_t offset, bool output)
{
	struct stat st;

	if (output && S_ISREG(end->st.st_mode))
		return fstat(end->fd, &st) == 0 && offset >= (uint64_t)st.st_size;
	return end->size_known && offset >= end->size;
}

void setup_nocache(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;

	if (!ENABLE_FEATURE_DD_NOCACHE)
		return;
	cache_state.input_on = (opt->input_flags & FLAG_NOCACHE)
		&& has_page_cache(run->in.st.st_mode);
	cache_state.output_on = (opt->output_flags & FLAG_NOCACHE)
		&& has_page_cache(run->out.st.st_mode);
	if (cache_state.input_on)
		cache_dropper_init(&cache_state.input, run->in.fd, false,
				   run->tally.in_offset, CACHE_WINDOW);
	if (cache_state.output_on)
		cache_dropper_init(&cache_state.output, run->out.fd, true,
				   run->tally.out_offset,
				   S_ISBLK(run->out.st.st_mode) ? DEVICE_CACHE_WINDOW
				   : CACHE_WINDOW);
	if ((opt->input_flags | opt->output_flags) & FLAG_NOCACHE)
		run->cache = &cache_state;
}

void input_consumed(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_NOCACHE && run->cache && run->cache->input_on
	    && cache_dropper_advance(&run->cache->input, run->tally.in_offset) != 0)
		run->cache->input_on = false;
}

void output_written(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_NOCACHE && run->cache && run->cache->output_on
	    && cache_dropper_advance(&run->cache->output, run->tally.out_offset) != 0)
		run->cache->output_on = false;
}

void finish_nocache(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	struct dd_cache_state *cs = run->cache;

	if (!ENABLE_FEATURE_DD_NOCACHE || !cs)
		return;
	if (opt->max_records == 0 && opt->max_bytes == 0) {
		if (opt->input_flags & FLAG_NOCACHE)
			drop_to_eof(run->in.fd, run->tally.in_offset, run->in.name);
		if (opt->output_flags & FLAG_NOCACHE)
			drop_to_eof(run->out.fd, run->tally.out_offset, run->out.name);
		return;
	}
	if (cs->input_on)
		cache_dropper_finish(&cs->input, run->tally.in_offset,
				     reached_eof(&run->in, run->tally.in_offset, false));
	if (cs->output_on)
		cache_dropper_finish(&cs->output, run->tally.out_offset,
				     reached_eof(&run->out, run->tally.out_offset, true));
}
