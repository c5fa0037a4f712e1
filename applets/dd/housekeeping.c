/*
 * housekeeping.c - what happens between moves: SIGINT and SIGUSR1 (the
 * handlers only set flags, process_signals acts on them), and tick(), a
 * mover's turn: signals, the progress line, nocache's drops.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "dd.h"

static volatile sig_atomic_t interrupt_signal;
static volatile sig_atomic_t info_requests;

static void on_interrupt(int sig)
{
	interrupt_signal = sig;
}

static void on_info_request(int sig)
{
	(void)sig;
	info_requests++;
}

/* Install handler for sig; unless even_if_ignored, not when the caller
 * of dd ignores it. */
static void catch_signal(int sig, void (*handler)(int), int flags,
			 bool even_if_ignored)
{
	struct sigaction action;

	if (!even_if_ignored && (sigaction(sig, NULL, &action) != 0
				 || action.sa_handler == SIG_IGN))
		return;
	memset(&action, 0, sizeof(action));
	sigemptyset(&action.sa_mask);
	action.sa_handler = handler;
	action.sa_flags = flags;
	sigaction(sig, &action, NULL);
}

void install_signal_handlers(void)
{
	/* SA_RESETHAND: a second SIGINT while the summary prints kills.
	 * An ignored SIGINT stays ignored (nohup, background jobs). */
	catch_signal(SIGINT, on_interrupt, SA_NODEFER | SA_RESETHAND, false);
	/* SIGUSR1 is caught even when ignored, as GNU does: its manual
	 * ignores it first so that an early signal can't kill dd.  With
	 * POSIXLY_CORRECT it keeps its default action (GNU, where SIGUSR1
	 * stands in for the SIGINFO Linux lacks). */
	if (ENABLE_FEATURE_DD_SIGNALS && !getenv("POSIXLY_CORRECT"))
		catch_signal(SIGUSR1, on_info_request, 0, true);
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
		if (interrupt_signal) {
			int sig = interrupt_signal;

			interrupt_signal = 0;
			print_summary(run);
			/* SA_RESETHAND restored the default action when the
			 * handler ran, so this kills as the signal would. */
			raise(sig);
			continue;
		}
		info_requests--;
		print_summary(run);
	}
}

void tick(struct dd_run *run)
{
	process_signals(run);
	tick_within_record(run);
}

/* Between the steps of a large record: signals wait for its end, as
 * they would for one read and one write of it. */
void tick_within_record(struct dd_run *run)
{
	if (ENABLE_FEATURE_DD_PROGRESS && run->opt->status == STATUS_PROGRESS)
		maybe_print_progress(run);
	if (ENABLE_FEATURE_DD_NOCACHE)
		drop_passed_cache(run);
}
