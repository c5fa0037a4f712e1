/*
 * housekeeping.c - between moves: SIGINT and SIGUSR1, and tick().
 */
#include <errno.h>
#include <signal.h>

#include "dd.h"

static volatile sig_atomic_t interrupt_signal;
static volatile sig_atomic_t info_requests;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		info_requests++;
	else
		interrupt_signal = sig;
}

/* No SA_RESTART: a blocked read returns EINTR, the summary comes at once. */
void install_signal_handlers(void)
{
	struct sigaction action = {
		.sa_handler = on_signal,
		.sa_flags = SA_NODEFER | SA_RESETHAND,
	};
	struct sigaction old;

	sigemptyset(&action.sa_mask);
	/* An ignored SIGINT stays ignored (nohup).  SA_RESETHAND: a second
	 * one while the summary prints kills. */
	if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGINT, &action, NULL);
	/* SIGUSR1 is caught even when ignored, as by GNU (whose manual
	 * ignores it first); with POSIXLY_CORRECT it keeps its default. */
	action.sa_flags = 0;
	if (ENABLE_FEATURE_DD_SIGNALS && !getenv("POSIXLY_CORRECT"))
		sigaction(SIGUSR1, &action, NULL);
}

bool retry_after(struct dd_run *run)
{
	if (errno != EINTR)
		return false;
	process_signals(run);
	return true;
}

void process_signals(struct dd_run *run)
{
	while (interrupt_signal || info_requests) {
		int sig = interrupt_signal;

		if (sig)
			interrupt_signal = 0;
		else
			info_requests--;
		print_summary(run);
		/* The default action is back (SA_RESETHAND): this kills. */
		if (sig)
			raise(sig);
	}
}

void tick(struct dd_run *run)
{
	process_signals(run);
	tick_within_record(run);
}

void tick_within_record(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_PROGRESS && run->opt->status == STATUS_PROGRESS)
		maybe_print_progress(run);
	if (ENABLE_FEATURE_DD_NOCACHE && run->cache)
		drop_passed_cache(run);
}
