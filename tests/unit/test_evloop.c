/* test_evloop.c: a resize is never left waiting (sys/evloop.c,
 * sys/signals.c). curses' SIGWINCH handler only sets a flag; the live view
 * looks at the keys (and so at the new size) when the wait wakes for input
 * or a signal. A SIGWINCH that came while httop was drawing, outside the
 * wait, woke nothing: the view kept the old size until the next key (seen
 * as a tmux test's frame drawn 100 wide in an 80-column pane for 10 s).
 * With SIGWINCH held (signals_hold_winch), it stays pending until the wait,
 * which it then wakes: WAKE_OTHER, not the deadline 60 s away. */
#include "unit/testutil.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "sys/evloop.h"
#include "sys/signals.h"
#include "util/clock.h"

static volatile sig_atomic_t winched;

static void
on_winch(int sig)
{
	(void)sig;
	winched = 1;
}

/* A handler as curses installs one, and an empty pipe as the keys. */
static int keys[2];

static int
setup(void **state)
{
	struct sigaction sa;

	(void)state;
	if (signals_init() != 0 || pipe(keys) != 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_winch;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	return sigaction(SIGWINCH, &sa, NULL);
}

static unsigned
wait_keys(double seconds)
{
	struct evwait w;

	memset(&w, 0, sizeof w);
	w.in_fd = keys[0];
	w.out_fd = -1;
	w.deadline = clock_mono() + seconds;
	return evloop_wait(&w);
}

static bool
winch_blocked(void)
{
	sigset_t m;

	assert_int_equal(sigprocmask(SIG_BLOCK, NULL, &m), 0);
	return sigismember(&m, SIGWINCH) == 1;
}

/* Held: raised outside the wait, it waits for the wait and wakes it. */
static void
test_held_winch_wakes_the_wait(void **state)
{
	unsigned wake;

	(void)state;
	assert_int_equal(signals_hold_winch(true), 0);
	assert_true(winch_blocked());
	assert_non_null(signals_wait_mask());
	assert_int_equal(sigismember(signals_wait_mask(), SIGWINCH), 0);
	winched = 0;
	raise(SIGWINCH);
	assert_int_equal(winched, 0);          /* pending, not yet handled */
	wake = wait_keys(60.0);
	assert_int_equal(winched, 1);
	assert_true(wake & WAKE_OTHER);
	assert_false(wake & WAKE_DEADLINE);
	assert_int_equal(signals_hold_winch(false), 0);
	assert_false(winch_blocked());
	assert_null(signals_wait_mask());
}

/* Not held (batch, or before this change in the live view): handled at
 * once, outside the wait, which then sleeps to its deadline. */
static void
test_unheld_winch_is_handled_at_once(void **state)
{
	unsigned wake;

	(void)state;
	assert_false(winch_blocked());
	winched = 0;
	raise(SIGWINCH);
	assert_int_equal(winched, 1);
	wake = wait_keys(0.05);
	assert_int_equal(wake, WAKE_DEADLINE);
}

/* Holding twice, releasing twice: the mask is as before, not unblocked
 * where the caller had it blocked. */
static void
test_hold_is_idempotent(void **state)
{
	sigset_t before, after;

	(void)state;
	assert_int_equal(sigprocmask(SIG_BLOCK, NULL, &before), 0);
	assert_int_equal(signals_hold_winch(true), 0);
	assert_int_equal(signals_hold_winch(true), 0);
	assert_true(winch_blocked());
	assert_int_equal(signals_hold_winch(false), 0);
	assert_int_equal(signals_hold_winch(false), 0);
	assert_int_equal(sigprocmask(SIG_BLOCK, NULL, &after), 0);
	assert_int_equal(sigismember(&before, SIGWINCH), sigismember(&after, SIGWINCH));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_winch_wakes_the_wait),
		cmocka_unit_test(test_unheld_winch_is_handled_at_once),
		cmocka_unit_test(test_hold_is_idempotent),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
