/* test_pacer.c: --align's deadlines (run/pacer.c). With the wall clock
 * 1000 s ahead of clock_mono() (wall_off), every deadline falls on a wall
 * multiple of the delay at least half a delay after the step before;
 * a refresh that overran skips the multiples it missed; without --align
 * the deadlines are the start plus whole delays, as before; --align means
 * nothing for a replay's pace or the test clock. Hand-checked values. */
#include "unit/testutil.h"

#include <math.h>

#include "run/pacer.h"

/* Within 1e-6 s: a wall time near 1.8e9 s holds a double to 2.4e-7 s. */
static void
near(double got, double want)
{
	if (fabs(got - want) > 1e-6)
		fail_msg("deadline %.9f, want %.9f", got, want);
}

static void
test_align_grid(void **state)
{
	struct pacer p;

	(void)state;
	pacer_init(&p, PACE_WALL, 1.0, NULL, false);
	pacer_set_align(&p, 1000.0);
	/* started at mono 100.3 (wall 1100.3): the next multiple at least
	 * 0.5 s on is wall 1101 (mono 101), a first interval of 0.7 s */
	pacer_start(&p, 100.3, 1.0, 0.0);
	near(pacer_deadline(&p), 101.0);
	/* woken 20 ms late: the next is 102, not 102.02 */
	assert_true(pacer_due(&p, 101.02));
	(void)pacer_take(&p, 101.02);
	pacer_stepped(&p, 101.02, 0.0);
	near(pacer_deadline(&p), 102.0);
	/* a read that took 0.7 s (stepped at 102.7): 103 is less than half a
	 * delay away, so 104 */
	(void)pacer_take(&p, 102.0);
	pacer_stepped(&p, 102.7, 0.0);
	near(pacer_deadline(&p), 104.0);
	/* started at wall 1100.6: 1101 is 0.4 s away, so 1102 (1.4 s) */
	pacer_init(&p, PACE_WALL, 1.0, NULL, false);
	pacer_set_align(&p, 1000.0);
	pacer_start(&p, 100.6, 1.0, 0.0);
	near(pacer_deadline(&p), 102.0);
}

static void
test_align_fractions(void **state)
{
	struct pacer p;
	double t;
	int i;

	(void)state;
	/* -d 0.3, the wall clock 1796228361.123 s ahead: every deadline's
	 * wall time is a multiple of 0.3 (to the double's precision there),
	 * each 0.3 after the one before once started */
	pacer_init(&p, PACE_WALL, 0.3, NULL, false);
	pacer_set_align(&p, 1796228361.123);
	pacer_start(&p, 5.0, 0.3, 0.0);
	for (i = 0; i < 5; i++) {
		double w = pacer_deadline(&p) + 1796228361.123;
		double k = w / 0.3;

		if (fabs(k - nearbyint(k)) > 1e-5)
			fail_msg("step %d: wall %.6f is not a multiple of 0.3", i, w);
		t = pacer_deadline(&p) + 0.001;
		(void)pacer_take(&p, t);
		pacer_stepped(&p, t, 0.0);
		if (i > 0)
			near(pacer_deadline(&p) - (t - 0.001), 0.3);
	}
}

static void
test_align_off(void **state)
{
	struct pacer p;

	(void)state;
	/* not asked: the start plus whole delays */
	pacer_init(&p, PACE_WALL, 1.0, NULL, false);
	pacer_start(&p, 100.3, 1.0, 0.0);
	near(pacer_deadline(&p), 101.3);
	(void)pacer_take(&p, 101.32);
	pacer_stepped(&p, 101.32, 0.0);
	near(pacer_deadline(&p), 102.3);
	/* a replay in batch mode and the test clock: no wall clock to align */
	pacer_init(&p, PACE_FREE, 1.0, NULL, false);
	pacer_set_align(&p, 1000.0);
	assert_false(p.align);
	pacer_init(&p, PACE_VIRTUAL, 1.0, NULL, false);
	pacer_set_align(&p, 1000.0);
	assert_false(p.align);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_align_grid),
		cmocka_unit_test(test_align_fractions),
		cmocka_unit_test(test_align_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
