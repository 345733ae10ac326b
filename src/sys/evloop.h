/* evloop.h: the one wait of httop. The front ends block only here, on
 * the ending-signal pipe, the terminal (keys in, hang-up on either side),
 * the SIGCHLD pipe while httop runs a command, and the pacer's deadline, so
 * a signal, a hang-up, a key, the command's end and a refresh all wake the
 * same call and none can be missed or spun on. */
#ifndef HTTOP_EVLOOP_H
#define HTTOP_EVLOOP_H

#include <poll.h>

/* What woke the wait (several at once are possible). */
enum {
	WAKE_DEADLINE = 1 << 0,   /* the deadline has passed */
	WAKE_SIGNAL = 1 << 1,     /* an ending signal: signals_caught() */
	WAKE_INPUT = 1 << 2,      /* keys to read on the terminal */
	WAKE_HANGUP = 1 << 3,     /* the terminal is gone (noted as SIGHUP) */
	WAKE_OTHER = 1 << 4,      /* another signal (SIGWINCH): look at the keys */
	WAKE_CHILD = 1 << 5,      /* a child ended (SIGCHLD; only while httop runs a
	                           * command or nodes: signals_watch_children) */
	WAKE_FDS = 1 << 6,        /* one of the caller's descriptors (fds) is ready */
};

struct evwait {
	int in_fd;                /* keys (-1: none) */
	int out_fd;               /* the terminal drawn on, watched for hang-up (-1: none) */
	double deadline;          /* clock_mono() seconds; INFINITY: none, <= now: don't sleep */
	/* More descriptors to wait on (the nodes' pipes: hundreds): their
	 * revents are set on return. NULL/0: none. */
	struct pollfd *fds;
	unsigned nfds;
};

/* Wait until something in `w` happens. Returns the WAKE_* bits. */
unsigned evloop_wait(const struct evwait *w);

#endif
