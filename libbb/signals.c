/*
 * signals.c - the transfer layer's signals.  The handlers only note
 * what arrived; transfer_act_on_signals(), which the copy loops call
 * between syscalls and after an interrupted one, is the one place that
 * acts on them, through the client's hooks.  Nothing here exits: a
 * hook may.
 */
#include <errno.h>
#include <signal.h>

#include "libbb.h"

static volatile sig_atomic_t stop_signal;     /* the last stopping signal */
static volatile sig_atomic_t info_requests;   /* SIGUSR1s not yet answered */

static void note_signal(int sig)
{
	if (sig == SIGUSR1)
		info_requests++;
	else
		stop_signal = sig;
}

/* Catch the signals `which` (CATCH_*) names.  No SA_RESTART: a blocked
 * read or write returns EINTR, so the answer comes at once.  A stopping
 * signal's handler is reset as it runs (SA_RESETHAND), so a second one
 * kills while the first is being answered; an interrupt that was
 * ignored stays ignored (nohup) unless CATCH_IGNORED_INTERRUPT says
 * otherwise (GNU ddrescue answers it in a background job). */
void transfer_catch_signals(unsigned which)
{
	struct sigaction action = { .sa_handler = note_signal };
	struct sigaction old;

	if (which & CATCH_INFO)
		sigaction(SIGUSR1, &action, NULL);
	action.sa_flags = SA_NODEFER | SA_RESETHAND;
	if ((which & CATCH_INTERRUPT) && sigaction(SIGINT, NULL, &old) == 0
	    && (old.sa_handler != SIG_IGN || (which & CATCH_IGNORED_INTERRUPT)))
		sigaction(SIGINT, &action, NULL);
	if (which & CATCH_TERMINATE) {
		sigaction(SIGTERM, &action, NULL);
		sigaction(SIGHUP, &action, NULL);
	}
}

/* Answer what arrived since the last call, in order: each SIGUSR1 with
 * the on_info hook, a stopping signal with the on_interrupt hook, after
 * which the transfer is stopped.  Returns whether it is stopped. */
bool transfer_act_on_signals(struct transfer *t)
{
	while (!t->stopped_by && (stop_signal || info_requests)) {
		int sig = stop_signal;

		if (sig) {
			stop_signal = 0;
			t->stopped_by = sig;
			if (t->on_interrupt)
				t->on_interrupt(t->client, sig);
		} else {
			info_requests--;
			if (t->on_info)
				t->on_info(t->client);
		}
	}
	return t->stopped_by != 0;
}

/* The EINTR policy, after a call that failed with errno: true when it
 * was interrupted and is to be made again, once the signals are acted
 * on; false for any other error, or when a signal stopped the transfer
 * (errno stays EINTR).  With no transfer (t NULL) EINTR is retried. */
bool transfer_retry(struct transfer *t)
{
	if (errno != EINTR)
		return false;
	if (!t || !transfer_act_on_signals(t))
		return true;
	errno = EINTR;          /* whatever the hooks did to it */
	return false;
}
