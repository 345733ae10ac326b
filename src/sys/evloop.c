/* evloop.c: poll(2) on the signal pipes and the terminal, up to a deadline
 * (evloop.h). */
#include "config.h"
#include "evloop.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "signals.h"
#include "util/clock.h"
#include "util/xalloc.h"

/* Room for httop's own descriptors (the signal pipes, the terminal's
 * two) before the caller's. */
#define OWN_FDS 4

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

/* Empty the SIGCHLD pipe: one wake for any number of ends; the caller
 * asks waitpid which child it was. */
static void
drain(int fd)
{
	char buf[64];

	while (read(fd, buf, sizeof buf) > 0)
		;
}

/* The poll array: grown when the caller's descriptors outgrow it, so a
 * wait allocates nothing once the set of nodes is known. */
static struct pollfd *
poll_array(unsigned want)
{
	static struct pollfd *p;
	static unsigned cap;

	if (want > cap) {
		cap = want > 2 * cap ? want : 2 * cap;
		p = xreallocarray(p, cap, sizeof *p);
	}
	return p;
}

/* The caller's descriptors' revents back in its array; WAKE_FDS when
 * any is ready. */
static unsigned
caller_fds(const struct evwait *w, const struct pollfd *p, int rc)
{
	unsigned i, wake = 0;

	for (i = 0; i < w->nfds; i++) {
		w->fds[i].revents = rc > 0 ? p[i].revents : 0;
		if (w->fds[i].revents != 0)
			wake = WAKE_FDS;
	}
	return wake;
}

/* The caller's descriptors after httop's own; how many. */
static unsigned
add_fds(const struct evwait *w, struct pollfd *p)
{
	if (w->nfds > 0)
		memcpy(p, w->fds, w->nfds * sizeof *p);
	return w->nfds;
}

/* httop's own descriptors first in p: the signal pipes, the terminal. */
static unsigned
own_fds(const struct evwait *w, int cfd, struct pollfd *p)
{
	unsigned n = 0;

	p[n].fd = signals_fd();
	p[n++].events = POLLIN;
	if (cfd >= 0) {
		p[n].fd = cfd;
		p[n++].events = POLLIN;
	}
	if (w->in_fd >= 0) {
		p[n].fd = w->in_fd;
		p[n++].events = POLLIN;
	}
	if (w->out_fd >= 0 && w->out_fd != w->in_fd) {
		/* No events asked: poll still reports POLLHUP and POLLERR. */
		p[n].fd = w->out_fd;
		p[n++].events = 0;
	}
	return n;
}

unsigned
evloop_wait(const struct evwait *w)
{
	struct pollfd *p = poll_array(OWN_FDS + w->nfds);
	unsigned n, wake = 0, i, first, own;
	int rc, ms = timeout_ms(w->deadline), cfd = signals_child_fd();

	/* Due now and nothing else to look at (batch): the handler has set
	 * the flag already, no system call is needed. */
	if (ms == 0 && w->in_fd < 0 && w->out_fd < 0 && cfd < 0 && w->nfds == 0)
		return signals_caught() != 0 ? WAKE_SIGNAL : WAKE_DEADLINE;
	n = own_fds(w, cfd, p);
	first = cfd >= 0 ? 2 : 1;
	own = n;
	n += add_fds(w, p + n);
	if (signals_caught() != 0)
		return WAKE_SIGNAL;
	for (i = 0; i < n; i++)
		p[i].revents = 0;
	if (signals_wait_mask() == NULL) {
		rc = poll(p, n, ms);
	} else {
		/* The live view: a held SIGWINCH can come only here. */
		struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

		rc = ppoll(p, n, ms < 0 ? NULL : &ts, signals_wait_mask());
	}
	/* Any other failure leaves nothing to wait on: end as on a hang-up
	 * rather than spin. */
	if (rc < 0)
		wake |= errno == EINTR ? WAKE_OTHER : WAKE_HANGUP;
	if (rc > 0 && cfd >= 0 && (p[1].revents & POLLIN)) {
		drain(cfd);
		wake |= WAKE_CHILD;
	}
	wake |= caller_fds(w, p + own, rc);
	for (i = first; rc > 0 && i < own; i++) {
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
