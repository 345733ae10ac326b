/* evloop.h: the one wait of httop. Both front ends block only here, on
 * the ending-signal pipe, the terminal (keys in, hang-up on either side)
 * and the pacer's deadline, so a signal, a hang-up, a key and a refresh
 * all wake the same call and none can be missed or spun on. */
#ifndef HTTOP_EVLOOP_H
#define HTTOP_EVLOOP_H

/* What woke the wait (several at once are possible). */
enum {
	WAKE_DEADLINE = 1 << 0,   /* the deadline has passed */
	WAKE_SIGNAL = 1 << 1,     /* an ending signal: signals_caught() */
	WAKE_INPUT = 1 << 2,      /* keys to read on the terminal */
	WAKE_HANGUP = 1 << 3,     /* the terminal is gone (noted as SIGHUP) */
	WAKE_OTHER = 1 << 4,      /* another signal (SIGWINCH): look at the keys */
};

struct evwait {
	int in_fd;                /* keys (-1: none) */
	int out_fd;               /* the terminal drawn on, watched for hang-up (-1: none) */
	double deadline;          /* clock_mono() seconds; INFINITY: none, <= now: don't sleep */
};

/* Wait until something in `w` happens. Returns the WAKE_* bits. */
unsigned evloop_wait(const struct evwait *w);

#endif
