/* signals.c: ending signals through a flag and a self-pipe, fatal signals
 * through an async-signal-safe restore (signals.h says why). */
#include "config.h"
#include "signals.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"

static const int ending[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
/* Every signal httop handles or ignores, and how it came (default or
 * ignored, after an exec): a command httop runs gets them back. */
static const int changed[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE,
	SIGILL, SIGABRT, SIGPIPE, SIGCHLD };
static struct sigaction inherited[sizeof changed / sizeof changed[0]];
static sigset_t inherited_mask;

static volatile sig_atomic_t caught;
static volatile sig_atomic_t deferred;
static int pipe_fd[2] = { -1, -1 };
static int child_fd[2] = { -1, -1 };
static void (*volatile fatal_restore)(void *);
static void *volatile fatal_arg;
static void (*volatile fatal_screen)(void);

static void
screen_back(void)
{
	void (*screen)(void) = fatal_screen;

	fatal_screen = NULL;
	if (screen != NULL)
		screen();
}

static void
on_ending(int sig)
{
	int saved = errno;
	char c = (char)sig;

	if (!deferred) {
		/* Start-up: no register written yet, nothing else to undo. */
		screen_back();
		_exit(signals_exit_status(sig));
	}
	if (caught == 0)
		caught = sig;
	/* Non-blocking: a full pipe already wakes the loop. */
	(void)!write(pipe_fd[1], &c, 1);
	errno = saved;
}

/* Only pwrite() on open descriptors happens in emergency_restore; then the
 * default action runs (SA_RESETHAND), so a core dump still shows the bug. */
static void
on_fatal(int sig)
{
	void (*restore)(void *) = fatal_restore;

	/* The terminal first, then the registers: the same order as a
	 * normal end (tui_close, then source_restore). */
	screen_back();
	fatal_restore = NULL;
	if (restore != NULL)
		restore(fatal_arg);
	raise(sig);
}

/* A child changed state: the command's end, for the event loop. */
static void
on_child(int sig)
{
	int saved = errno;
	char c = (char)sig;

	(void)!write(child_fd[1], &c, 1);
	errno = saved;
}

static int
pipe_init(int fd[2])
{
	int i;

	if (pipe(fd) != 0)
		return -1;
	for (i = 0; i < 2; i++) {
		if (fcntl(fd[i], F_SETFD, FD_CLOEXEC) != 0 || fcntl(fd[i], F_SETFL, O_NONBLOCK) != 0)
			return -1;
	}
	return 0;
}

int
signals_init(void)
{
	struct sigaction sa;
	sigset_t unblock;
	size_t i;

	if (pipe_init(pipe_fd) != 0)
		return -1;
	for (i = 0; i < sizeof changed / sizeof changed[0]; i++)
		if (sigaction(changed[i], NULL, &inherited[i]) != 0)
			return -1;
	if (sigprocmask(SIG_BLOCK, NULL, &inherited_mask) != 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL) != 0)
		return -1;

	/* SA_RESTART: a read of a register or a file is never cut short. */
	sa.sa_handler = on_ending;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&unblock);
	for (i = 0; i < sizeof ending / sizeof ending[0]; i++) {
		sigaddset(&sa.sa_mask, ending[i]);
		sigaddset(&unblock, ending[i]);
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
	/* A parent may have started us with them blocked (some job
	 * launchers do): they must reach the handler. */
	return sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}

static sigset_t winch_wait_mask;
static bool winch_held;

int
signals_hold_winch(bool hold)
{
	sigset_t winch, old;

	if (hold == winch_held)
		return 0;
	sigemptyset(&winch);
	sigaddset(&winch, SIGWINCH);
	if (sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &winch, &old) != 0)
		return -1;
	if (hold) {
		winch_wait_mask = old;
		sigdelset(&winch_wait_mask, SIGWINCH);
	}
	winch_held = hold;
	return 0;
}

const sigset_t *
signals_wait_mask(void)
{
	return winch_held ? &winch_wait_mask : NULL;
}

void
signals_defer(void)
{
	deferred = 1;
}

int
signals_fd(void)
{
	return pipe_fd[0];
}

void
signals_set_restore(void (*restore)(void *), void *arg)
{
	/* The argument first: a signal between the two sees no callback
	 * or the whole pair. */
	fatal_restore = NULL;
	fatal_arg = arg;
	fatal_restore = restore;
}

void
signals_set_screen(void (*restore)(void))
{
	fatal_screen = restore;
}

int
signals_caught(void)
{
	return caught;
}

void
signals_note(int sig)
{
	char c = (char)sig;

	if (caught == 0)
		caught = sig;
	(void)!write(pipe_fd[1], &c, 1);
}

int
signals_sleep(double seconds)
{
	double end = clock_mono() + seconds, left;
	struct pollfd pfd;

	pfd.fd = pipe_fd[0];
	pfd.events = POLLIN;
	while (caught == 0 && (left = end - clock_mono()) > 0) {
		/* Rounded up: a wait never ends just short of its deadline. */
		(void)poll(&pfd, 1, (int)(left * 1000.0) + 1);
	}
	return caught;
}

int
signals_watch_children(void)
{
	struct sigaction sa;

	if (child_fd[0] >= 0)
		return 0;
	if (pipe_init(child_fd) != 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_child;
	/* Only an end matters (a stopped command is still running). */
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	return sigaction(SIGCHLD, &sa, NULL);
}

void
signals_inherit(void)
{
	size_t i;

	for (i = 0; i < sizeof changed / sizeof changed[0]; i++)
		sigaction(changed[i], &inherited[i], NULL);
	sigprocmask(SIG_SETMASK, &inherited_mask, NULL);
}

int
signals_child_fd(void)
{
	return child_fd[0];
}

int
signals_take(void)
{
	char buf[64];
	int sig;

	/* The flag first, then the pipe: a signal between the two leaves
	 * the flag set (seen by the next wait before it polls) or a byte
	 * in the pipe with the flag set; never a byte without the flag,
	 * which would make every wait return at once. */
	sig = __atomic_exchange_n(&caught, 0, __ATOMIC_SEQ_CST);
	while (read(pipe_fd[0], buf, sizeof buf) > 0)
		;
	return sig;
}

int
signals_exit_status(int sig)
{
	if (sig == 0 || sig == SIGINT || sig == SIGTERM)
		return 0;
	return 128 + sig;
}
