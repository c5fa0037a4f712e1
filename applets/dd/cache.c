/*
 * cache.c - iflag=nocache and oflag=nocache (FEATURE_DD_NOCACHE), on
 * libbb's cache_dropper: the footprint of the file being read or written
 * stays at about two windows during the copy, and nothing is left at
 * the end.  On a pipe or a terminal nocache does nothing, as in GNU.
 */
#include <errno.h>
#include <sys/stat.h>

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

static void report_failure(struct dd_run *run, const char *name)
{
	bb_perror_msg("failed to discard cache for: %s", quote_if_needed(name));
	run->exit_status = EXIT_FAILURE;
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
	if (!cache_state.input_on && !cache_state.output_on)
		return;
	if (cache_state.input_on)
		cache_dropper_init(&cache_state.input, run->in.fd, 0, run->tally.in_offset);
	if (cache_state.output_on)
		cache_dropper_init(&cache_state.output, run->out.fd, 1, run->tally.out_offset);
	run->cache = &cache_state;
}

void input_consumed(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_NOCACHE && run->cache && run->cache->input_on
	    && cache_dropper_advance(&run->cache->input, run->tally.in_offset) != 0) {
		report_failure(run, run->in.name);
		run->cache->input_on = false;
	}
}

void output_written(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_NOCACHE && run->cache && run->cache->output_on
	    && cache_dropper_advance(&run->cache->output, run->tally.out_offset) != 0) {
		report_failure(run, run->out.name);
		run->cache->output_on = false;
	}
}

void finish_nocache(struct dd_run *run)
{
	if (!ENABLE_FEATURE_DD_NOCACHE || !run->cache)
		return;
	if (run->cache->input_on && cache_dropper_finish(&run->cache->input) != 0)
		report_failure(run, run->in.name);
	if (run->cache->output_on && cache_dropper_finish(&run->cache->output) != 0)
		report_failure(run, run->out.name);
}
