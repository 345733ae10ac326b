/* test_numfmt.c: the number formatter of the batch outputs (util/numfmt.c)
 * and the UTF-8 check (util/utf8.c). Hand-checked values first, then the
 * same characters as printf over millions of values, at every precision
 * the outputs use (fixed 6 and 10 places, 6, 12 and 15 significant
 * digits): random ones over 24 decades, and ones next to a tie of the last
 * digit (the exact binary value a few ulps either side of it, and exact
 * ties, which printf rounds to even). */
#include "unit/testutil.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/utf8.h"

/* Values worked out by hand: a number, its places (numfmt_fixed,
 * numfmt_fixed_all) or significant digits (numfmt_sig), and what httop
 * writes. */
struct hand {
	double x;
	unsigned d;
	const char *want;
};

static const struct hand hand_fixed[] = {
	/* 0.4 at 10 places is 4000000000 / 10^10, zeros dropped */
	{ 0.4, 10, "0.4" },
	{ 1, 10, "1" },
	{ 0, 10, "0" },
	{ -0.0, 10, "0" },
	/* 0.219760575351 x 10^10 = 2197605753.51 -> 2197605754 */
	{ 0.219760575351, 10, "0.2197605754" },
	/* 1e-11 rounds to 0 at 10 places, and has no sign left */
	{ -1e-11, 10, "0" },
	/* 1.5e-10 is 1.49999999999999999002e-10 as a double: x 10^10 =
	 * 1.4999999999999999900 -> 1, as printf's %.10f says */
	{ 0.00000000015, 10, "0.0000000001" },
	/* 1.00000000005 is 1.00000000005000000414 as a double: up */
	{ 1.00000000005, 10, "1.0000000001" },
	/* 1 <= |x| < 10 at 10 places (a fraction's bound): its own path,
	 * up to a rounding to 10 */
	{ 2.5, 10, "2.5" },
	{ -3.25, 10, "-3.25" },
	{ 9.99999999999, 10, "10" },
	{ -9.99999999999, 10, "-10" },
	{ 7.12345678904, 10, "7.123456789" },
	{ 1.101837, 6, "1.101837" },
	{ 2.5, 0, "2" },                                /* an exact tie: to even, as printf */
	{ 3.5, 0, "4" },
	/* 12.125 is exact in binary: 1212.5, a tie, to even 1212 (printf) */
	{ -12.125, 2, "-12.12" },
	{ -12.375, 2, "-12.38" },                       /* 1237.5 -> 1238 (even) */
	/* 0.00048828125 = 2^-11 exactly: 4882812.5 at 10 places, to even */
	{ 0x1p-11, 10, "0.0004882812" },
	{ -0x1p-11, 10, "-0.0004882812" },
	/* 0.1 + 0.2 = 0.30000000000000004441: 0.3 at 10 places */
	{ 0.1 + 0.2, 10, "0.3" },
	/* 999999.99999999995 at 10 places: the double is 1000000 exactly */
	{ 999999.99999999995, 10, "1000000" },
	/* 123456.78901234567 (123456.789012345671 as a double) at 10 places:
	 * 1234567890123456.71 -> ...457: past 2^52, printf's digits */
	{ 123456.78901234567, 10, "123456.7890123457" },
	/* too large for 10 places (x 10^10 > 9e18): 15 significant digits */
	{ 1e9, 10, "1000000000" },
};

/* numfmt_fixed_all: the same, its trailing zeros kept */
static const struct hand hand_fixed_all[] = {
	{ 2, 6, "2.000000" },
	{ -1.0000004, 6, "-1.000000" },                 /* 1000000.4 -> 1000000 */
	{ 7, 0, "7" },
	{ -0.0000004, 6, "0.000000" },                  /* rounds to 0: no sign */
	{ 1704067201.0032649, 6, "1704067201.003265" },
};

static const struct hand hand_sig[] = {
	/* significant digits: 2.675094 at 6 -> 2.67509; 1234567 -> 1234570 */
	{ 2.675094, 6, "2.67509" },
	{ 1234567, 6, "1234570" },
	{ 0.000123456789, 6, "0.000123457" },
	{ 9.9999996, 6, "10" },                         /* rounding carries a digit */
	{ -0.5, 6, "-0.5" },
	{ 100, 6, "100" },
	{ 0.1, 6, "0.1" },
	{ 1e-5, 6, "1e-05" },                           /* outside: printf's %g */
	{ 2e15, 6, "2e+15" },
	{ 0, 6, "0" },
	{ -0.0, 6, "0" },
	/* 2.0000005 is 2.00000049999999990573 as a double: down */
	{ 2.0000005, 6, "2" },
	/* 0.0001234565 is 1.23456500000000013060e-4: up to 0.000123457 */
	{ 0.0001234565, 6, "0.000123457" },
	/* 1234565 exactly: a tie at the tens, to even: 1234560 */
	{ 1234565, 6, "1234560" },
	{ 1234575, 6, "1234580" },
	/* 999999.5: a tie, up to even 1000000 (a digit more) */
	{ 999999.5, 6, "1000000" },
	{ -999999.4, 6, "-999999" },
	{ 0.30000000000000004, 12, "0.3" },
	{ 4858379682.9099998474, 12, "4858379682.91" },
	/* 812658628.4725 is 812658628.47249996662 as a double: .472 */
	{ 812658628.4725, 12, "812658628.472" },
	{ 999999999999999.9, 15, "1000000000000000" },
	{ 0.0001, 6, "0.0001" },
	{ 123456789012.345, 6, "123457000000" },
};

static void
check_hand(const char *what, char *(*f)(char *, double, unsigned), const struct hand *h,
    size_t n)
{
	char got[NUMFMT_MAX + 1];
	size_t i;

	for (i = 0; i < n; i++) {
		*f(got, h[i].x, h[i].d) = '\0';
		if (strcmp(got, h[i].want) != 0)
			fail_msg("%s(%.17g, %u): %s, not %s", what, h[i].x, h[i].d, got, h[i].want);
	}
}

#define CHECK_HAND(f, h) check_hand(#f, f, h, sizeof h / sizeof h[0])

static void
test_hand(void **state)
{
	char buf[NUMFMT_MAX + 1];

	(void)state;
	*numfmt_u64(buf, 0) = '\0';
	assert_string_equal(buf, "0");
	*numfmt_u64(buf, UINT64_MAX) = '\0';
	assert_string_equal(buf, "18446744073709551615");
	CHECK_HAND(numfmt_fixed, hand_fixed);
	CHECK_HAND(numfmt_fixed_all, hand_fixed_all);
	CHECK_HAND(numfmt_sig, hand_sig);
}

static double
rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*s >> 11) * 0x1.0p-53;
}

/* printf's %.*f, trailing zeros (and a bare point) dropped unless `keep`,
 * no sign on a zero ("-0.000" is "0.000"): what numfmt_fixed(_all) says. */
static const char *
ref_fixed(double x, unsigned d, bool keep)
{
	static char r[400];
	int n = snprintf(r, sizeof r, "%.*f", (int)d, x);
	char *s = r;

	if (!keep && strchr(r, '.') != NULL) {
		while (r[n - 1] == '0')
			r[--n] = '\0';
		if (r[n - 1] == '.')
			r[--n] = '\0';
	}
	if (r[0] == '-' && strspn(r + 1, "0.") == strlen(r + 1))
		s++;
	return s;
}

/* numfmt_sig's form of printf: the exponent X of %.*e (after rounding);
 * with k = digits - 1 - X >= 0 decimals that is %.*f's number at k
 * places, trailing zeros dropped; with k < 0 the %.*e digits and -k
 * zeros. Outside 1e-4 <= |x| < 1e15, %.*g itself. */
static const char *
ref_sig(double x, unsigned d)
{
	static char r[400];
	char e[64], *p;
	int X, k;
	size_t n = 0;

	if (!(fabs(x) >= 1e-4 && fabs(x) < 1e15)) {
		snprintf(r, sizeof r, "%.*g", (int)d, x);
		return x == 0 ? "0" : r;
	}
	snprintf(e, sizeof e, "%.*e", (int)d - 1, x);
	X = atoi(strchr(e, 'e') + 1);
	k = (int)d - 1 - X;
	if (k >= 0)
		return ref_fixed(x, (unsigned)k, false);
	for (p = e; *p != 'e'; p++)
		if (*p != '.')
			r[n++] = *p;
	while (k++ < 0)
		r[n++] = '0';
	r[n] = '\0';
	return r;
}

static void
check_fixed(double x, unsigned d)
{
	char got[NUMFMT_MAX + 1];

	/* past 9e18 at this scale numfmt_fixed writes 15 digits instead */
	if (!(fabs(x) * pow(10, d) < 8.9e18))
		return;
	*numfmt_fixed(got, x, d) = '\0';
	if (strcmp(got, ref_fixed(x, d, false)) != 0)
		fail_msg("%.17g at %u places: %s, printf %s", x, d, got, ref_fixed(x, d, false));
	*numfmt_fixed_all(got, x, d) = '\0';
	if (strcmp(got, ref_fixed(x, d, true)) != 0)
		fail_msg("%.17g at %u places (all): %s, printf %s", x, d, got,
		    ref_fixed(x, d, true));
}

static void
check_sig(double x, unsigned d)
{
	char got[NUMFMT_MAX + 1];

	*numfmt_sig(got, x, d) = '\0';
	if (strcmp(got, ref_sig(x, d)) != 0)
		fail_msg("%.17g at %u digits: %s, printf %s", x, d, got, ref_sig(x, d));
}

/* The precisions the outputs use: fixed places, significant digits. */
static const unsigned places[] = { 6, 10 };
static const unsigned digits[] = { 6, 12, 15 };

static void
check_all(double x)
{
	size_t i;

	for (i = 0; i < sizeof places / sizeof places[0]; i++)
		check_fixed(x, places[i]);
	for (i = 0; i < sizeof digits / sizeof digits[0]; i++)
		check_sig(x, digits[i]);
}

/* 400,000 values over 24 decades, both signs, at every precision. */
static void
test_against_printf(void **state)
{
	uint64_t s = 1;
	unsigned i;

	(void)state;
	for (i = 0; i < 400000; i++)
		check_all(pow(10, rnd(&s) * 24 - 8) * (rnd(&s) < 0.5 ? -1 : 1));
	/* shares and fractions, where most of the outputs' numbers are */
	for (i = 0; i < 300000; i++) {
		check_fixed(rnd(&s), 10);
		check_sig(rnd(&s) * 4, 6);
	}
}

/* Six digits (the JSON writer's figures have their own short path for
 * 10^-4 <= |x| < 10^6): every power of ten from 10^-6 to 10^8, the doubles
 * 40 ulps either side, and the six-digit values that round up to it. */
static void
test_sig6_decades(void **state)
{
	double t, x;
	int e, u;

	(void)state;
	for (e = -6; e <= 8; e++) {
		t = pow(10, e);
		for (x = t, u = 0; u < 40; u++)
			x = nextafter(x, 0);
		for (u = 0; u < 81; u++, x = nextafter(x, INFINITY)) {
			check_sig(x, 6);
			check_sig(-x, 6);
		}
		for (x = t * 0.9999994, u = 0; u < 20; u++, x = nextafter(x, INFINITY))
			check_sig(x, 6);
		for (x = t * 0.9999995, u = 0; u < 20; u++, x = nextafter(x, 0))
			check_sig(x, 6);
	}
}

/* Next to a tie: (n + 1/2) / 10^places for random n, and the doubles a
 * few ulps either side; exact binary ties (odd / 2^k); the edges. */
static void
test_ties(void **state)
{
	static const double edge[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 0.05, 5e-7, 5e-11, 9.5,
	    99.5, 999999.5, 9.9999995, 0.99999999995, 1e-4, 0.99999e-4, 1e15,
	    999999999999999.5, 1e15 - 0.125, 0x1p52, 0x1p53, 0x1p52 / 1e6, 0x1p52 / 1e10,
	    8.9e18 / 1e6, 8.9e18 / 1e10, 0x1p-1074, 2.2250738585072014e-308, 1e300,
	    -1e300, 123456.5, 0.1, 0.2, 0.3, 1.0 / 3.0, 2.0 / 3.0 };
	uint64_t s = 7;
	unsigned i, j, k;
	int u;
	double t, x;

	(void)state;
	for (i = 0; i < sizeof edge / sizeof edge[0]; i++)
		for (t = edge[i], u = 0; u < 9; u++, t = nextafter(t, INFINITY)) {
			check_all(t);
			check_all(-t);
		}
	for (i = 0; i < 100000; i++) {
		for (j = 0; j < sizeof places / sizeof places[0]; j++) {
			t = ((double)(uint64_t)(rnd(&s) * pow(10, 1 + (unsigned)(rnd(&s) * 9))) + 0.5) /
			    pow(10, places[j]);
			for (x = t, u = 0; u < 3; u++)
				x = nextafter(x, 0);
			for (u = 0; u < 7; u++, x = nextafter(x, INFINITY))
				check_fixed(rnd(&s) < 0.5 ? x : -x, places[j]);
		}
		/* six significant digits' tie, from 1e-4 to 1e14 */
		k = (unsigned)(rnd(&s) * 19);
		t = (100000.0 + (double)(uint64_t)(rnd(&s) * 900000) + 0.5) * pow(10, (int)k - 9);
		for (x = t, u = 0; u < 3; u++)
			x = nextafter(x, 0);
		for (u = 0; u < 7; u++, x = nextafter(x, INFINITY))
			check_sig(x, 6);
		/* exact binary ties: odd / 2^k, k = 1..40 */
		t = (double)(2 * (uint64_t)(rnd(&s) * 1e6) + 1) / (double)(1ull << (1 + i % 40));
		check_all(t);
	}
}

/* UTF-8: lengths of valid sequences, and the invalid ones refused. */
static void
test_utf8(void **state)
{
	static const struct {
		const char *s;
		size_t len;
	} c[] = {
		{ "a", 1 },
		{ "\xc3\xa9", 2 },          /* e acute */
		{ "\xe2\x96\x88", 3 },      /* full block */
		{ "\xf0\x9f\x98\x80", 4 },
		{ "\xff", 0 },
		{ "\x80", 0 },              /* stray continuation */
		{ "\xc0\xaf", 0 },          /* overlong '/' */
		{ "\xed\xa0\x80", 0 },      /* surrogate */
		{ "\xf4\x90\x80\x80", 0 },  /* > U+10FFFF */
		{ "\xe2\x96", 0 },          /* cut by the end */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++)
		if (utf8_len((const unsigned char *)c[i].s) != c[i].len)
			fail_msg("utf8_len of case %zu: %zu, not %zu", i,
			    utf8_len((const unsigned char *)c[i].s), c[i].len);
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
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_sig6_decades),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_round_shares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
