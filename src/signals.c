/* signals.c: ending signals through a flag and ppoll(), fatal signals
 * through an async-signal-safe restore. */
#include "config.h"
#include "signals.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "source/source.h"

static const int ending[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

static volatile sig_atomic_t caught;
static struct source *volatile fatal_source;
static void (*volatile fatal_screen)(void);
/* The mask to wait with: the caller's, minus the ending signals. */
static sigset_t wait_mask;

static void
on_ending(int sig)
{
	if (caught == 0)
		caught = sig;
}

/* Only pwrite() on open descriptors happens in emergency_restore; then the
 * default action runs (SA_RESETHAND), so a core dump still shows the bug. */
static void
on_fatal(int sig)
{
	struct source *s = fatal_source;
	void (*screen)(void) = fatal_screen;

	/* The terminal first, then the registers: the same order as a
	 * normal end (tui_close, then source_restore). */
	fatal_screen = NULL;
	if (screen != NULL)
		screen();
	fatal_source = NULL;
	if (s != NULL)
		source_emergency_restore(s);
	raise(sig);
}

int
signals_init(void)
{
	struct sigaction sa;
	sigset_t block;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL) != 0)
		return -1;

	sa.sa_handler = on_ending;
	sigemptyset(&block);
	for (i = 0; i < sizeof ending / sizeof ending[0]; i++) {
		sigaddset(&sa.sa_mask, ending[i]);
		sigaddset(&block, ending[i]);
	}
	for (i = 0; i < sizeof ending / sizeof ending[0]; i++) {
		struct sigaction old;

		/* Under nohup SIGHUP comes ignored: a long batch recording must
		 * outlive the log-out that started it, so leave it ignored. */
		if (ending[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(ending[i], &sa, NULL) != 0)
			return -1;
	}

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
		if (sigaction(fatal[i], &sa, NULL) != 0)
			return -1;
	}

	if (sigprocmask(SIG_BLOCK, &block, &wait_mask) != 0)
		return -1;
	for (i = 0; i < sizeof ending / sizeof ending[0]; i++)
		sigdelset(&wait_mask, ending[i]);
	return 0;
}

void
signals_set_source(struct source *s)
{
	fatal_source = s;
}

void
signals_set_screen(void (*restore)(void))
{
	fatal_screen = restore;
}

static struct timespec
ts_add(struct timespec t, double seconds)
{
	double whole = floor(seconds);

	t.tv_sec += (time_t)whole;
	t.tv_nsec += (long)((seconds - whole) * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* end - now, or zero once it has passed. */
static struct timespec
ts_left(struct timespec end, struct timespec now)
{
	struct timespec left;

	left.tv_sec = end.tv_sec - now.tv_sec;
	left.tv_nsec = end.tv_nsec - now.tv_nsec;
	if (left.tv_nsec < 0) {
		left.tv_sec--;
		left.tv_nsec += 1000000000L;
	}
	if (left.tv_sec < 0)
		left.tv_sec = left.tv_nsec = 0;
	return left;
}

static bool
ts_reached(struct timespec now, struct timespec end)
{
	return now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec);
}

int
signals_wait(double seconds)
{
	struct timespec now, end, left;

	clock_gettime(CLOCK_MONOTONIC, &now);
	end = ts_add(now, seconds > 0 ? seconds : 0);
	/* ppoll() unblocks the ending signals only while it sleeps, so one
	 * that arrives just before the call is taken at once, not missed. */
	while (caught == 0) {
		left = ts_left(end, now);
		if (ppoll(NULL, 0, &left, &wait_mask) == 0 && left.tv_sec == 0 && left.tv_nsec == 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ts_reached(now, end))
			break;
	}
	return caught;
}

int
signals_wait_fd(double seconds, int fd, bool *ready)
{
	struct timespec now, end, left;
	struct pollfd pfd;
	int rc;

	*ready = false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	end = ts_add(now, seconds > 0 ? seconds : 0);
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (caught == 0) {
		pfd.revents = 0;
		if (seconds >= 0)
			left = ts_left(end, now);
		rc = ppoll(&pfd, 1, seconds >= 0 ? &left : NULL, &wait_mask);
		if (rc > 0 && !(pfd.revents & POLLIN)) {
			/* POLLHUP, POLLERR: the terminal is gone, as after a
			 * dropped ssh whose SIGHUP was ignored (nohup). */
			caught = SIGHUP;
			break;
		}
		if (rc > 0) {
			*ready = true;
			break;
		}
		if (rc < 0 && errno == EINTR && caught == 0) {
			/* Another signal (SIGWINCH): curses has a KEY_RESIZE. */
			*ready = true;
			break;
		}
		if (rc == 0 && seconds >= 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (seconds >= 0 && ts_reached(now, end))
			break;
	}
	return caught;
}

int
signals_caught(void)
{
	return caught;
}

int
signals_exit_status(int sig)
{
	if (sig == 0 || sig == SIGINT || sig == SIGTERM)
		return 0;
	return 128 + sig;
}
