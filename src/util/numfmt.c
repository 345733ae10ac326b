/* numfmt.c: fixed-point and significant-digit formatting by integer
 * arithmetic. A value is scaled by a power of ten (exact in a double up to
 * 10^22), rounded once to an integer, and its digits written with the
 * point put in. The one rounding of the scaling can differ from printf's
 * exact decimal rounding in the last digit, at a tie only. */
#include "config.h"
#include "util/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void
numfmt_round_shares(const double *x, unsigned n, long total, long *out)
{
	double rem[8], sum = 0.0;
	long got = 0, want;
	unsigned i, k;

	if (n > 8)
		n = 8;
	for (i = 0; i < n; i++) {
		double v = isfinite(x[i]) && x[i] > 0.0 ? x[i] * (double)total : 0.0;

		out[i] = (long)floor(v);
		rem[i] = v - (double)out[i];
		got += out[i];
		sum += v;
	}
	want = lround(sum);
	/* The units left, one each, to the largest remainders. */
	for (; got < want; got++) {
		for (k = 0, i = 1; i < n; i++)
			if (rem[i] > rem[k])
				k = i;
		if (n == 0 || rem[k] < 0.0)
			break;
		out[k]++;
		rem[k] = -1.0;
	}
}

static const double p10d[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
/* 10^(i - 4): the decades numfmt_sig writes without an exponent */
static const double decade[] = {
	1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
};
static const uint64_t p10u[] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

/* "00" .. "99": two digits per division. */
static const char pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The n lowest decimal digits of u, leading zeros included, at p. */
static void
put_digits(char *p, uint64_t u, unsigned n)
{
	while (n >= 2) {
		n -= 2;
		memcpy(p + n, pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (n == 1)
		p[0] = (char)('0' + u % 10);
}

static unsigned
ndigits(uint64_t u)
{
	unsigned n = 1;

	while (n < 20 && u >= p10u[n])
		n++;
	return n;
}

char *
numfmt_u64(char *p, uint64_t u)
{
	unsigned n = u < 10 ? 1 : ndigits(u);

	put_digits(p, u, n);
	return p + n;
}

/* m / 10^k with the point put in: k decimals, trailing zeros dropped
 * unless `keep`; k <= 18. */
static char *
put_scaled(char *p, uint64_t m, unsigned k, bool keep)
{
	uint64_t f;

	p = numfmt_u64(p, m / p10u[k]);
	f = m % p10u[k];
	if (k == 0 || (f == 0 && !keep))
		return p;
	while (!keep && f % 10 == 0) {
		f /= 10;
		k--;
	}
	*p++ = '.';
	put_digits(p, f, k);
	return p + k;
}

static char *
fixed(char *p, double x, unsigned decimals, bool keep)
{
	double ax = fabs(x), s;
	uint64_t m;

	if (decimals > 12)
		decimals = 12;
	s = ax * p10d[decimals];
	if (!(s < 9e18))
		return numfmt_sig(p, x, 15);
	m = (uint64_t)(s + 0.5);
	if (x < 0 && m != 0)
		*p++ = '-';
	return put_scaled(p, m, decimals, keep);
}

char *
numfmt_fixed(char *p, double x, unsigned decimals)
{
	return fixed(p, x, decimals, false);
}

char *
numfmt_fixed_all(char *p, double x, unsigned decimals)
{
	return fixed(p, x, decimals, true);
}

char *
numfmt_sig(char *p, double x, unsigned digits)
{
	double ax = fabs(x), s;
	uint64_t m;
	int e, k;

	if (digits < 1)
		digits = 1;
	if (digits > 15)
		digits = 15;
	if (ax == 0) {
		*p++ = '0';
		return p;
	}
	if (!(ax >= 1e-4 && ax < 1e15))
		return p + snprintf(p, NUMFMT_MAX, "%.*g", (int)digits, x);
	/* e: the decimal exponent, 10^e <= ax < 10^(e+1) */
	/* from 10^0 (most figures are near 1), up or down */
	for (e = 0; e < 14 && ax >= decade[e + 5]; e++)
		;
	for (; e > -4 && ax < decade[e + 4]; e--)
		;
	k = (int)digits - 1 - e;          /* decimals to keep, -14..18 */
	s = k >= 0 ? ax * p10d[k] : ax / p10d[-k];
	m = (uint64_t)(s + 0.5);
	if (m >= p10u[digits]) {          /* 9.9999996 rounded up to 10.00000 */
		m /= 10;
		k--;
	}
	if (x < 0)
		*p++ = '-';
	if (k >= 0)
		return put_scaled(p, m, (unsigned)k, false);
	p = numfmt_u64(p, m);
	memset(p, '0', (size_t)-k);
	return p + -k;
}
