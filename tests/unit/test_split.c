/* test_split.c: counter deltas with wrap and the three ways to split a
 * core's interval (metrics/split.c, metrics/delta.c). Every expected value
 * is worked out by hand in the comment next to it. */
#include "unit/testutil.h"

#include "metrics/metrics.h"

static void
test_delta(void **state)
{
	(void)state;
	/* no wrap: 250 - 100 = 150 */
	assert_int_equal(counter_delta(100, 250, 48), 150);
	/* 48 bits: from 2^48 - 10 up to the wrap is 10 counts, then 5 more = 15 */
	assert_int_equal(counter_delta(0xFFFFFFFFFFF6ull, 5, 48), 15);
	/* 40 bits: from 2^40 - 1, one count to wrap, then 0x10 = 16 more: 17 */
	assert_int_equal(counter_delta(0xFFFFFFFFFFull, 0x10, 40), 17);
	/* 64 bits: from 2^64 - 2, 2 counts to wrap, then 1 more = 3 */
	assert_int_equal(counter_delta(UINT64_MAX - 1, 1, 64), 3);
	/* bits above the width do not count: (2^48 + 7) - 0 mod 2^48 = 7 */
	assert_int_equal(counter_delta(0, (1ull << 48) + 7, 48), 7);
	/* a counter set back (reprogrammed): 500 - 10^9 mod 2^48
	 * = 281474976710656 - 999999500 = 281473976711156 */
	assert_int_equal(counter_delta(1000000000ull, 500, 48), 281473976711156ull);
}

static void
test_any_round(void **state)
{
	double f[4], inc;

	(void)state;
	/* dTSC 1000, ref0 600, ref1 500, any 800:
	 * N = 1000 - 800 = 200, A = 800 - 500 = 300, B = 800 - 600 = 200,
	 * C = 600 + 500 - 800 = 300; as fractions .2 .3 .2 .3, nothing clamped */
	split_from_any(1000, 600, 500, 800, f, &inc);
	assert_near(f[0], 0.2, 1e-12);
	assert_near(f[1], 0.3, 1e-12);
	assert_near(f[2], 0.2, 1e-12);
	assert_near(f[3], 0.3, 1e-12);
	assert_near(inc, 0.0, 1e-12);
	/* both threads always active: ref0 = ref1 = any = dTSC -> C = 1 */
	split_from_any(1000, 1000, 1000, 1000, f, &inc);
	assert_near(f[3], 1.0, 1e-12);
	assert_near(f[0] + f[1] + f[2], 0.0, 1e-12);
}

static void
test_any_skew(void **state)
{
	double f[4], inc;

	(void)state;
	/* read skew: any read a little late. dTSC 1000, ref0 500, ref1 300,
	 * any 810: N = 190, A = 510, B = 310, C = 800 - 810 = -10.
	 * C clamps to 0 (inconsistency 10/1000 = 0.01); the rest sum to
	 * 1.01 and are rescaled: N = .19/1.01 = 0.188118812, A = .51/1.01 =
	 * 0.504950495, B = .31/1.01 = 0.306930693 */
	split_from_any(1000, 500, 300, 810, f, &inc);
	assert_near(f[0], 0.188118812, 1e-9);
	assert_near(f[1], 0.504950495, 1e-9);
	assert_near(f[2], 0.306930693, 1e-9);
	assert_near(f[3], 0.0, 0.0);
	assert_near(inc, 0.01, 1e-12);
	assert_near(f[0] + f[1] + f[2] + f[3], 1.0, 1e-12);
}

static void
test_ota(void **state)
{
	double f[4], inc, mis;

	(void)state;
	/* dTSC 1000, ref0 600, ref1 500, OTA (scaled) 300 and 200:
	 * A = 300, B = 200, C = 600 - 300 = 300 (and 500 - 200 = 300: no
	 * mismatch), N = 1000 - 300 - 200 - 300 = 200 */
	split_from_ota(1000, 600, 500, 300, 200, f, &inc, &mis);
	assert_near(f[0], 0.2, 1e-12);
	assert_near(f[1], 0.3, 1e-12);
	assert_near(f[2], 0.2, 1e-12);
	assert_near(f[3], 0.3, 1e-12);
	assert_near(inc, 0.0, 1e-12);
	assert_near(mis, 0.0, 1e-12);
	/* OTA1 190: B = .19, C from thread 0 = .3, from thread 1 = 310:
	 * mismatch 10/1000 = .01; N = 1000 - 300 - 190 - 300 = 210 */
	split_from_ota(1000, 600, 500, 300, 190, f, &inc, &mis);
	assert_near(f[0], 0.21, 1e-12);
	assert_near(f[2], 0.19, 1e-12);
	assert_near(f[3], 0.3, 1e-12);
	assert_near(mis, 0.01, 1e-12);
}

static void
test_bound(void **state)
{
	double lo[4], hi[4];

	(void)state;
	/* u0 = u1 = .5: C from max(0, 0) = 0 to min(.5,.5) = .5; A = .5 - C
	 * in [0,.5]; B likewise; N = 1 - 1 + C in [0,.5] */
	split_bound(0.5, 0.5, lo, hi);
	assert_near(lo[3], 0.0, 1e-12);
	assert_near(hi[3], 0.5, 1e-12);
	assert_near(lo[1], 0.0, 1e-12);
	assert_near(hi[1], 0.5, 1e-12);
	assert_near(lo[2], 0.0, 1e-12);
	assert_near(hi[2], 0.5, 1e-12);
	assert_near(lo[0], 0.0, 1e-12);
	assert_near(hi[0], 0.5, 1e-12);
	/* u0 = .9, u1 = .8: C in [.9 + .8 - 1, .8] = [.7, .8];
	 * A = .9 - C in [.1, .2]; B = .8 - C in [0, .1];
	 * N = 1 - 1.7 + C in [0, .1] */
	split_bound(0.9, 0.8, lo, hi);
	assert_near(lo[3], 0.7, 1e-12);
	assert_near(hi[3], 0.8, 1e-12);
	assert_near(lo[1], 0.1, 1e-12);
	assert_near(hi[1], 0.2, 1e-12);
	assert_near(lo[2], 0.0, 1e-12);
	assert_near(hi[2], 0.1, 1e-12);
	assert_near(lo[0], 0.0, 1e-12);
	assert_near(hi[0], 0.1, 1e-12);
	/* u0 = .3, u1 = .2: C in [0, .2]; A in [.1, .3]; B in [0, .2];
	 * N = .5 + C in [.5, .7] */
	split_bound(0.3, 0.2, lo, hi);
	assert_near(lo[3], 0.0, 1e-12);
	assert_near(hi[3], 0.2, 1e-12);
	assert_near(lo[1], 0.1, 1e-12);
	assert_near(hi[1], 0.3, 1e-12);
	assert_near(lo[0], 0.5, 1e-12);
	assert_near(hi[0], 0.7, 1e-12);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_any_round),
		cmocka_unit_test(test_any_skew),
		cmocka_unit_test(test_ota),
		cmocka_unit_test(test_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
