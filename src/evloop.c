/* evloop.c: poll(2) on the signal pipe and the terminal, up to a deadline
 * (evloop.h). */
#include "config.h"
#include "evloop.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>

#include "signals.h"
#include "util/clock.h"

/* poll's timeout in ms, rounded up so a wait never ends just short of the
 * deadline (that would spin until it passes); -1: none. */
static int
timeout_ms(double deadline)
{
	double left;

	if (isinf(deadline))
		return deadline > 0 ? -1 : 0;
	left = deadline - clock_mono();
	if (left <= 0)
		return 0;
	if (left > 86400.0)
		left = 86400.0;
	return (int)ceil(left * 1000.0);
}

unsigned
evloop_wait(const struct evwait *w)
{
	struct pollfd p[3];
	unsigned n = 0, wake = 0, i;
	int rc, ms = timeout_ms(w->deadline);

	/* Due now and no terminal to look at (batch): the handler has set
	 * the flag already, no system call is needed. */
	if (ms == 0 && w->in_fd < 0 && w->out_fd < 0)
		return signals_caught() != 0 ? WAKE_SIGNAL : WAKE_DEADLINE;
	p[n].fd = signals_fd();
	p[n++].events = POLLIN;
	if (w->in_fd >= 0) {
		p[n].fd = w->in_fd;
		p[n++].events = POLLIN;
	}
	if (w->out_fd >= 0 && w->out_fd != w->in_fd) {
		/* No events asked: poll still reports POLLHUP and POLLERR. */
		p[n].fd = w->out_fd;
		p[n++].events = 0;
	}
	if (signals_caught() != 0)
		return WAKE_SIGNAL;
	for (i = 0; i < n; i++)
		p[i].revents = 0;
	rc = poll(p, n, ms);
	/* Any other failure leaves nothing to wait on: end as on a hang-up
	 * rather than spin. */
	if (rc < 0)
		wake |= errno == EINTR ? WAKE_OTHER : WAKE_HANGUP;
	for (i = 1; rc > 0 && i < n; i++) {
		/* A hung-up terminal is also readable (read gives EIO or 0):
		 * the hang-up wins, or the loop would read nothing forever. */
		if (p[i].revents & (POLLHUP | POLLERR | POLLNVAL))
			wake |= WAKE_HANGUP;
		else if (p[i].revents & POLLIN)
			wake |= WAKE_INPUT;
	}
	if (wake & WAKE_HANGUP)
		signals_note(SIGHUP);
	if (signals_caught() != 0)
		wake |= WAKE_SIGNAL;
	if (w->deadline < INFINITY && clock_mono() >= w->deadline)
		wake |= WAKE_DEADLINE;
	return wake;
}
