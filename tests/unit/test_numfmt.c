/* test_numfmt.c: the number formatter of the batch outputs (util/numfmt.c)
 * and the UTF-8 check (util/utf8.c). Hand-checked values first, then
 * agreement with printf over many values: a fixed-point number within half
 * a unit of its last place, a significant-digit one equal to %.Ng's value
 * or one unit of its last digit away (a tie rounded the other way). */
#include "unit/testutil.h"

#include <math.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/utf8.h"

static const char *
fx(double x, unsigned d)
{
	static char buf[NUMFMT_MAX + 1];

	*numfmt_fixed(buf, x, d) = '\0';
	return buf;
}

static const char *
sg(double x, unsigned d)
{
	static char buf[NUMFMT_MAX + 1];

	*numfmt_sig(buf, x, d) = '\0';
	return buf;
}

static void
test_hand(void **state)
{
	char buf[NUMFMT_MAX + 1];

	(void)state;
	*numfmt_u64(buf, 0) = '\0';
	assert_string_equal(buf, "0");
	*numfmt_u64(buf, UINT64_MAX) = '\0';
	assert_string_equal(buf, "18446744073709551615");
	/* fixed: 0.4 at 10 places is 4000000000 / 10^10, zeros dropped */
	assert_string_equal(fx(0.4, 10), "0.4");
	assert_string_equal(fx(1, 10), "1");
	assert_string_equal(fx(0, 10), "0");
	assert_string_equal(fx(-0.0, 10), "0");
	/* 0.219760575351 x 10^10 = 2197605753.51 -> 2197605754 */
	assert_string_equal(fx(0.219760575351, 10), "0.2197605754");
	/* 1e-11 rounds to 0 at 10 places, and has no sign left */
	assert_string_equal(fx(-1e-11, 10), "0");
	assert_string_equal(fx(0.00000000015, 10), "0.0000000002");   /* 1.5 -> 2 */
	assert_string_equal(fx(1.101837, 6), "1.101837");
	assert_string_equal(fx(2.5, 0), "3");
	*numfmt_fixed_all(buf, 2, 6) = '\0';
	assert_string_equal(buf, "2.000000");
	*numfmt_fixed_all(buf, -1.0000004, 6) = '\0';   /* 1000000.4 -> 1000000 */
	assert_string_equal(buf, "-1.000000");
	*numfmt_fixed_all(buf, 7, 0) = '\0';
	assert_string_equal(buf, "7");
	assert_string_equal(fx(-12.125, 2), "-12.13");   /* 1212.5 -> 1213 (exact tie, up) */
	/* too large for 10 places (x 10^10 > 9e18): 15 significant digits */
	assert_string_equal(fx(1e9, 10), "1000000000");
	/* significant digits: 2.675094 at 6 -> 2.67509; 1234567 -> 1234570 */
	assert_string_equal(sg(2.675094, 6), "2.67509");
	assert_string_equal(sg(1234567, 6), "1234570");
	assert_string_equal(sg(0.000123456789, 6), "0.000123457");
	assert_string_equal(sg(9.9999996, 6), "10");      /* rounding carries a digit */
	assert_string_equal(sg(-0.5, 6), "-0.5");
	assert_string_equal(sg(100, 6), "100");
	assert_string_equal(sg(0.1, 6), "0.1");
	assert_string_equal(sg(1e-5, 6), "1e-05");         /* outside: printf's %g */
	assert_string_equal(sg(2e15, 6), "2e+15");
	assert_string_equal(sg(0, 6), "0");
}

static double
rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*s >> 11) * 0x1.0p-53;
}

/* 200,000 values over 20 decades, both signs. */
static void
test_against_printf(void **state)
{
	char ref[64];
	uint64_t s = 1;
	unsigned i, d;
	double x, got, want, ulp;

	(void)state;
	for (i = 0; i < 200000; i++) {
		x = pow(10, rnd(&s) * 20 - 5) * (rnd(&s) < 0.5 ? -1 : 1);
		for (d = 1; d <= 15; d += 7) {
			got = strtod(sg(x, d), NULL);
			snprintf(ref, sizeof ref, "%.*g", (int)d, x);
			want = strtod(ref, NULL);
			/* one unit of the last digit (1.5: the difference itself
			 * is a double, inexact at 15 digits; two units fail) */
			ulp = pow(10, floor(log10(fabs(want))) - (d - 1));
			if (!(fabs(got - want) <= ulp * 1.5))
				fail_msg("%.17g at %u digits: %s, printf %s", x, d, sg(x, d), ref);
		}
		if (fabs(x) < 1e8) {
			got = strtod(fx(x, 10), NULL);
			if (!(fabs(got - x) <= 0.5e-10 * 1.0001 + fabs(x) * 1e-15))
				fail_msg("%.17g at 10 places: %s", x, fx(x, 10));
		}
	}
}

/* UTF-8: lengths of valid sequences, and the invalid ones refused. */
static void
test_utf8(void **state)
{
	(void)state;
	assert_int_equal(utf8_len((const unsigned char *)"a"), 1);
	assert_int_equal(utf8_len((const unsigned char *)"\xc3\xa9"), 2);         /* e acute */
	assert_int_equal(utf8_len((const unsigned char *)"\xe2\x96\x88"), 3);     /* full block */
	assert_int_equal(utf8_len((const unsigned char *)"\xf0\x9f\x98\x80"), 4);
	assert_int_equal(utf8_len((const unsigned char *)"\xff"), 0);
	assert_int_equal(utf8_len((const unsigned char *)"\x80"), 0);             /* stray continuation */
	assert_int_equal(utf8_len((const unsigned char *)"\xc0\xaf"), 0);         /* overlong '/' */
	assert_int_equal(utf8_len((const unsigned char *)"\xed\xa0\x80"), 0);     /* surrogate */
	assert_int_equal(utf8_len((const unsigned char *)"\xf4\x90\x80\x80"), 0); /* > U+10FFFF */
	assert_int_equal(utf8_len((const unsigned char *)"\xe2\x96"), 0);         /* cut by the end */
}

/* The four shares as whole percent that add up to 100. By hand:
 * 0.335, 0.335, 0.33 -> 33.5, 33.5, 33: floors 33, 33, 33 = 99, one unit
 * left to the largest remainder, the first 0.5 (the first on a tie): 34,
 * 33, 33 (each rounded alone: 34, 34, 33 = 101).
 * 0.125, 0.125, 0.375, 0.375 -> 12.5, 12.5, 37.5, 37.5: floors 12, 12, 37,
 * 37 = 98, two units to the first two 0.5s: 13, 13, 37, 37 = 100 (alone:
 * 13, 13, 38, 38 = 102, by printf's rounding of a tie to even: 12, 12, 38,
 * 38 = 100 only by luck).
 * 0.996, 0.004, 0, 0 -> 99.6, 0.4: 99 + 0 = 99, the unit to 99.6: 100, 0.
 * 0.3333 x 3 (sum 0.9999): 99.99 rounds to 100: 34, 33, 33.
 * At 1000 (one decimal): 0.2094, 0.3196, 0.2426, 0.2284 -> 209.4, 319.6,
 * 242.6, 228.4 = 1000: floors 209, 319, 242, 228 = 998; 319.6 and 242.6
 * get one each: 20.9, 32.0, 24.3, 22.8 (alone the same here). */
static void
test_round_shares(void **state)
{
	static const struct {
		double x[4];
		unsigned n;
		long total, want[4];
	} c[] = {
		{ { 0.335, 0.335, 0.33 }, 3, 100, { 34, 33, 33 } },
		{ { 0.125, 0.125, 0.375, 0.375 }, 4, 100, { 13, 13, 37, 37 } },
		{ { 0.996, 0.004, 0, 0 }, 4, 100, { 100, 0, 0, 0 } },
		{ { 0.3333, 0.3333, 0.3333 }, 3, 100, { 34, 33, 33 } },
		{ { 0.2094, 0.3196, 0.2426, 0.2284 }, 4, 1000, { 209, 320, 243, 228 } },
		{ { -0.0, 1.0, NAN, 0.0 }, 4, 100, { 0, 100, 0, 0 } },
	};
	size_t i;
	unsigned k;
	long out[4];

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		numfmt_round_shares(c[i].x, c[i].n, c[i].total, out);
		for (k = 0; k < c[i].n; k++)
			if (out[k] != c[i].want[k])
				fail_msg("case %zu share %u: %ld, not %ld", i, k, out[k], c[i].want[k]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand),
		cmocka_unit_test(test_against_printf),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_round_shares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
