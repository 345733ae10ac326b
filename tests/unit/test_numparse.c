/* test_numparse.c: the strict decimal number parser (util/numparse.c), its
 * edges worked by hand: empty, blanks, signs, trailing junk, hex and
 * octal look-alikes, the last value that fits and the first that does not
 * (2^64 - 1 = 18446744073709551615, 2^63 - 1 = 9223372036854775807),
 * overflow and underflow of a double (DBL_MAX is about 1.8e308, the least
 * subnormal 4.9e-324), inf and nan only when asked, a unit after the
 * number (num_double_n). */
#include "unit/testutil.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "util/numparse.h"

static void
test_uint(void **state)
{
	static const struct {
		const char *s;
		unsigned long long max;
		int rc;
		unsigned long long v;
	} cases[] = {
		{ "0", 10, NUM_OK, 0 },
		{ "10", 10, NUM_OK, 10 },
		{ "007", 10, NUM_OK, 7 },             /* leading zeros: decimal, not octal */
		{ "11", 10, NUM_RANGE, 0 },
		{ "5", 0, NUM_RANGE, 0 },             /* a digit above max at once */
		{ "4194304", 4194304, NUM_OK, 4194304 },
		{ "4194305", 4194304, NUM_RANGE, 0 },
		{ "18446744073709551615", ULLONG_MAX, NUM_OK, ULLONG_MAX },
		{ "18446744073709551616", ULLONG_MAX, NUM_RANGE, 0 },   /* 2^64 */
		{ "99999999999999999999999", ULLONG_MAX, NUM_RANGE, 0 },
		{ "", 10, NUM_BAD, 0 },
		{ " 1", 10, NUM_BAD, 0 },
		{ "1 ", 10, NUM_BAD, 0 },
		{ "+1", 10, NUM_BAD, 0 },
		{ "-1", 10, NUM_BAD, 0 },
		{ "1x", 10, NUM_BAD, 0 },
		{ "0x1", 10, NUM_BAD, 0 },
		{ "1.0", 10, NUM_BAD, 0 },
		{ "1e1", 100, NUM_BAD, 0 },
	};
	unsigned long long v;
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = 12345;
		rc = num_uint(cases[i].s, cases[i].max, &v);
		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].s, rc, cases[i].rc);
		/* the value on success; untouched otherwise */
		if (v != (rc == NUM_OK ? cases[i].v : 12345))
			fail_msg("'%s': %llu", cases[i].s, v);
	}
}

static void
test_int(void **state)
{
	static const struct {
		const char *s;
		long long min, max;
		int rc;
		long long v;
	} cases[] = {
		{ "1", LLONG_MIN, LLONG_MAX, NUM_OK, 1 },
		{ "+1", LLONG_MIN, LLONG_MAX, NUM_OK, 1 },
		{ "-1", LLONG_MIN, LLONG_MAX, NUM_OK, -1 },
		{ "-0", 0, 5, NUM_OK, 0 },
		{ "-1", 0, 5, NUM_RANGE, 0 },
		{ "6", 0, 5, NUM_RANGE, 0 },
		{ "-3", -3, -1, NUM_OK, -3 },
		{ "-4", -3, -1, NUM_RANGE, 0 },
		{ "0", -3, -1, NUM_RANGE, 0 },
		{ "9223372036854775807", LLONG_MIN, LLONG_MAX, NUM_OK, LLONG_MAX },
		{ "9223372036854775808", LLONG_MIN, LLONG_MAX, NUM_RANGE, 0 },
		{ "-9223372036854775808", LLONG_MIN, LLONG_MAX, NUM_OK, LLONG_MIN },
		{ "-9223372036854775809", LLONG_MIN, LLONG_MAX, NUM_RANGE, 0 },
		{ "", LLONG_MIN, LLONG_MAX, NUM_BAD, 0 },
		{ "-", LLONG_MIN, LLONG_MAX, NUM_BAD, 0 },
		{ "+-1", LLONG_MIN, LLONG_MAX, NUM_BAD, 0 },
		{ " -1", LLONG_MIN, LLONG_MAX, NUM_BAD, 0 },
		{ "1a", LLONG_MIN, LLONG_MAX, NUM_BAD, 0 },
	};
	long long v;
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = 12345;
		rc = num_int(cases[i].s, cases[i].min, cases[i].max, &v);
		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].s, rc, cases[i].rc);
		if (v != (rc == NUM_OK ? cases[i].v : 12345))
			fail_msg("'%s': %lld", cases[i].s, v);
	}
}

static void
test_double(void **state)
{
	static const struct {
		const char *s;
		unsigned flags;
		double lo, hi;
		int rc;
		double v;
	} cases[] = {
		{ "1", 0, -DBL_MAX, DBL_MAX, NUM_OK, 1 },
		{ "0.5", 0, -DBL_MAX, DBL_MAX, NUM_OK, 0.5 },
		{ ".5", 0, -DBL_MAX, DBL_MAX, NUM_OK, 0.5 },
		{ "5.", 0, -DBL_MAX, DBL_MAX, NUM_OK, 5 },
		{ "-2.5e-3", 0, -DBL_MAX, DBL_MAX, NUM_OK, -0.0025 },
		{ "+1E2", 0, -DBL_MAX, DBL_MAX, NUM_OK, 100 },
		{ "0.05", 0, 0.05, 3600, NUM_OK, 0.05 },   /* the bound itself */
		{ "0.049", 0, 0.05, 3600, NUM_RANGE, 0 },
		{ "3600.0001", 0, 0.05, 3600, NUM_RANGE, 0 },
		/* DBL_MAX is 1.797...e308: 1e308 fits, 1e309 overflows */
		{ "1e308", 0, -DBL_MAX, DBL_MAX, NUM_OK, 1e308 },
		{ "1e309", 0, -DBL_MAX, DBL_MAX, NUM_RANGE, 0 },
		{ "-1e309", 0, -DBL_MAX, DBL_MAX, NUM_RANGE, 0 },
		/* below the least subnormal: it would read as 0, and 0 is allowed */
		{ "1e-400", 0, -DBL_MAX, DBL_MAX, NUM_RANGE, 0 },
		{ "", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ ".", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "-", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "e5", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "1e", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "1e+", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ " 1", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "1 ", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "1s", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "1,5", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "0x10", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },   /* strtod: 16 */
		{ "0x1p3", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },  /* strtod: 8 */
		{ "1..2", 0, -DBL_MAX, DBL_MAX, NUM_BAD, 0 },
		{ "inf", 0, -HUGE_VAL, HUGE_VAL, NUM_BAD, 0 },
		{ "nan", 0, -HUGE_VAL, HUGE_VAL, NUM_BAD, 0 },
		{ "infinity", 0, -HUGE_VAL, HUGE_VAL, NUM_BAD, 0 },
		/* asked: inf within an infinite range; out of a finite one */
		{ "-INF", NUM_NONFINITE, -HUGE_VAL, HUGE_VAL, NUM_OK, -HUGE_VAL },
		{ "Infinity", NUM_NONFINITE, -HUGE_VAL, HUGE_VAL, NUM_OK, HUGE_VAL },
		{ "inf", NUM_NONFINITE, -DBL_MAX, DBL_MAX, NUM_RANGE, 0 },
		{ "infin", NUM_NONFINITE, -HUGE_VAL, HUGE_VAL, NUM_BAD, 0 },
		{ "nan(1)", NUM_NONFINITE, -HUGE_VAL, HUGE_VAL, NUM_BAD, 0 },
	};
	double v;
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = 12345;
		rc = num_double(cases[i].s, cases[i].flags, cases[i].lo, cases[i].hi, &v);
		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].s, rc, cases[i].rc);
		if (v != (rc == NUM_OK ? cases[i].v : 12345))
			fail_msg("'%s': %.17g", cases[i].s, v);
	}
	/* nan, asked for, is nan */
	assert_int_equal(num_double("NaN", NUM_NONFINITE, -HUGE_VAL, HUGE_VAL, &v), NUM_OK);
	assert_true(isnan(v));
}

/* The number before a unit: the first len bytes only. */
static void
test_double_n(void **state)
{
	double v = 0;

	(void)state;
	assert_int_equal(num_double_n("10ms", 2, 0, -DBL_MAX, DBL_MAX, &v), NUM_OK);
	assert_true(v == 10);
	assert_int_equal(num_double_n("25%", 2, 0, 0, 100, &v), NUM_OK);
	assert_true(v == 25);
	assert_int_equal(num_double_n("2.5s", 3, 0, 0, 3600, &v), NUM_OK);
	assert_true(v == 2.5);
	/* the unit alone, or a number cut inside its exponent */
	assert_int_equal(num_double_n("ms", 0, 0, -DBL_MAX, DBL_MAX, &v), NUM_BAD);
	assert_int_equal(num_double_n("1e5", 2, 0, -DBL_MAX, DBL_MAX, &v), NUM_BAD);
	/* a number that runs on past len (a caller's mistake): refused, not
	 * read short or long */
	assert_int_equal(num_double_n("1.5", 1, 0, -DBL_MAX, DBL_MAX, &v), NUM_BAD);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_double_n),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
