/* numfmt.c: fixed-point and significant-digit formatting by integer
 * arithmetic, equal to printf's. A value is scaled by a power of ten
 * (exact in a double up to 10^22) with one rounding, so the scaled double
 * is within 2^-53 of its own size of the exact product; when its fraction
 * is further than that from one half, rounding it to an integer rounds the
 * exact product the same way, and its digits are written with the point
 * put in. Otherwise (a tie, or a value too close to one to tell, a few in
 * a million: tests/unit/test_numfmt.c counts them) printf's own exact
 * rounding (to even on a tie) is asked. */
#include "config.h"
#include "util/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/* "000" .. "999": three digits per division by 1000 (4 bytes may be read
 * at 3 x i: the last one's fourth is the terminating NUL). */
#define T3_D(a, b) a b "0" a b "1" a b "2" a b "3" a b "4" a b "5" a b "6" a b "7" a b "8" a b "9"
#define T3_C(a) T3_D(a, "0") T3_D(a, "1") T3_D(a, "2") T3_D(a, "3") T3_D(a, "4") \
	T3_D(a, "5") T3_D(a, "6") T3_D(a, "7") T3_D(a, "8") T3_D(a, "9")
static const char triples[3001] = T3_C("0") T3_C("1") T3_C("2") T3_C("3") T3_C("4")
	T3_C("5") T3_C("6") T3_C("7") T3_C("8") T3_C("9");

/* How many of u's three digits (u < 1000) end it as zeros. */
static inline unsigned
tz3(unsigned u)
{
	return u % 10 != 0 ? 0 : u % 100 != 0 ? 1 : u != 0 ? 2 : 3;
}

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

/* Four digits of u < 10000 at p, by two constant divisions. */
static inline void
put4(char *p, uint32_t u)
{
	memcpy(p, pairs + 2 * (u / 100), 2);
	memcpy(p + 2, pairs + 2 * (u % 100), 2);
}

/* Ten digits of u < 10^10 at p. */
static inline void
put10(char *p, uint64_t u)
{
	uint32_t hi = (uint32_t)(u / 1000000u), lo = (uint32_t)(u % 1000000u);

	put4(p, hi);
	memcpy(p + 4, pairs + 2 * (lo / 10000u), 2);
	put4(p + 6, lo % 10000u);
}

/* Six digits of u < 10^6 at p. */
static inline void
put6(char *p, uint32_t u)
{
	memcpy(p, pairs + 2 * (u / 10000u), 2);
	put4(p + 2, u % 10000u);
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
	unsigned n;

	if (u < 10) {
		*p = (char)('0' + u);
		return p + 1;
	}
	if (u < 100) {
		memcpy(p, pairs + 2 * u, 2);
		return p + 2;
	}
	n = ndigits(u);
	put_digits(p, u, n);
	return p + n;
}

/* The k decimals of f (< 10^k) after a point, trailing zeros dropped
 * unless `keep` (then nothing when k is 0); none at all when they are all
 * zeros. */
/* After the point at p: six decimals of f (< 10^6), their trailing zeros
 * dropped unless `keep`; f is not 0 unless `keep`. */
static inline char *
put_dec6(char *p, unsigned f, bool keep)
{
	unsigned a = f / 1000u, b = f % 1000u;

	memcpy(p + 1, triples + 3 * a, 4);
	memcpy(p + 4, triples + 3 * b, 3);
	if (keep)
		return p + 7;
	return p + 7 - (b != 0 ? tz3(b) : 3 + tz3(a));
}

/* The same for ten decimals (f < 10^10). */
static inline char *
put_dec10(char *p, uint64_t f, bool keep)
{
	unsigned a = (unsigned)(f / 1000000u), b = (unsigned)(f % 1000000u);
	unsigned a1 = a / 1000u, a2 = a % 1000u, b1 = b / 1000u, b2 = b % 1000u, tz;

	p[1] = (char)('0' + a1);
	memcpy(p + 2, triples + 3 * a2, 4);
	memcpy(p + 5, triples + 3 * b1, 4);
	memcpy(p + 8, triples + 3 * b2, 3);
	if (keep)
		return p + 11;
	tz = b2 != 0 ? tz3(b2) : b1 != 0 ? 3 + tz3(b1) : a2 != 0 ? 6 + tz3(a2) : 9;
	return p + 11 - tz;
}

static char *
put_decimals(char *p, uint64_t f, unsigned k, bool keep)
{
	char *e;

	if (k == 0 || (f == 0 && !keep))
		return p;
	*p = '.';
	if (k == 10)
		return put_dec10(p, f, keep);
	if (k == 6)
		return put_dec6(p, (unsigned)f, keep);
	put_digits(p + 1, f, k);
	e = p + 1 + k;
	if (!keep)
		while (e[-1] == '0')
			e--;
	return e;
}

/* m / 10^k with the point put in: k decimals, trailing zeros dropped
 * unless `keep`; k <= 18. */
static char *
put_scaled(char *p, uint64_t m, unsigned k, bool keep)
{
	uint64_t ip = m, f = 0;

	if (k == 10) {
		ip = m / 10000000000ull;
		f = m % 10000000000ull;
	} else if (k == 6) {
		ip = m / 1000000u;
		f = m % 1000000u;
	} else if (k > 0) {
		ip = m / p10u[k];
		f = m % p10u[k];
	}
	if (ip < 10)
		*p++ = (char)('0' + ip);
	else
		p = numfmt_u64(p, ip);
	return put_decimals(p, f, k, keep);
}

/* s (>= 0), the value scaled by one rounded multiplication or division,
 * rounded to the integer *m that the exact product rounds to: false when
 * s is too close to a half to tell (or too large for its fraction to be
 * known). The product is within s x 2^-53 of s; 2^-50 leaves room. */
static bool
round_scaled(double s, uint64_t *m)
{
	double f, margin = s * 0x1p-50;

	if (!(s < 0x1p52))
		return false;
	*m = (uint64_t)s;
	f = s - (double)*m - 0.5;       /* exact: s and *m share their ulp */
	if (f > margin)
		(*m)++;
	else if (!(f < -margin))
		return false;
	return true;
}

/* printf's %.*f (it rounds the exact value, a tie to even), then as
 * numfmt_fixed writes it: trailing zeros dropped unless `keep`, no sign
 * on a zero. */
static char *
fixed_exact(char *p, double x, unsigned decimals, bool keep)
{
	char buf[NUMFMT_MAX + 8];
	const char *s = buf;
	int n = snprintf(buf, sizeof buf, "%.*f", (int)decimals, x), i;
	bool zero;

	if (n < 0 || n >= (int)sizeof buf)
		n = 0;
	if (!keep && memchr(buf, '.', (size_t)n) != NULL) {
		while (buf[n - 1] == '0')
			n--;
		if (buf[n - 1] == '.')
			n--;
	}
	for (i = buf[0] == '-', zero = true; i < n; i++)
		zero = zero && (buf[i] == '0' || buf[i] == '.');
	if (buf[0] == '-' && zero) {
		s++;
		n--;
	}
	memcpy(p, s, (size_t)n);
	return p + n;
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
	if (!round_scaled(s, &m))
		return fixed_exact(p, x, decimals, keep);
	if (x < 0 && m != 0)
		*p++ = '-';
	return put_scaled(p, m, decimals, keep);
}

/* Ten decimals, trailing zeros dropped, of |x| < 10 (the JSON writer's
 * fractions, and their bounds of 1): fixed's steps for that range alone. */
static char *
fixed10(char *p, double x)
{
	double s = fabs(x) * 1e10;
	uint64_t m, ip;

	if (!(s < 1e11))
		return fixed(p, x, 10, false);
	if (!round_scaled(s, &m))
		return fixed_exact(p, x, 10, false);
	if (x < 0 && m != 0)
		*p++ = '-';
	ip = m / 10000000000ull;        /* m <= 10^11 */
	m -= ip * 10000000000ull;
	if (ip < 10)
		*p++ = (char)('0' + ip);
	else
		p = numfmt_u64(p, ip);
	if (m == 0)
		return p;
	*p = '.';
	return put_dec10(p, m, false);
}

char *
numfmt_fixed(char *p, double x, unsigned decimals)
{
	if (decimals == 10)
		return fixed10(p, x);
	return fixed(p, x, decimals, false);
}

char *
numfmt_fixed_all(char *p, double x, unsigned decimals)
{
	return fixed(p, x, decimals, true);
}

/* The `digits` significant digits of printf's %.*e (exact rounding, a tie
 * to even) written without an exponent, trailing zeros dropped. */
static char *
sig_exact(char *p, double x, unsigned digits)
{
	char buf[48], d[24];
	unsigned nd = 0, i;
	int n = snprintf(buf, sizeof buf, "%.*e", (int)digits - 1, x), ex;
	const char *q = buf, *e;

	if (n < 0 || n >= (int)sizeof buf)
		return p;
	if (*q == '-')
		*p++ = *q++;
	for (; *q != 'e' && *q != '\0'; q++)
		if (*q >= '0' && *q <= '9' && nd < sizeof d)
			d[nd++] = *q;
	e = *q == 'e' ? q + 1 : "0";
	ex = atoi(e);
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	if (ex < 0) {
		memcpy(p, "0.", 2);
		p += 2;
		for (i = 0; i < (unsigned)-ex - 1; i++)
			*p++ = '0';
		memcpy(p, d, nd);
		return p + nd;
	}
	for (i = 0; i <= (unsigned)ex; i++)
		*p++ = i < nd ? d[i] : '0';
	if (nd > (unsigned)ex + 1) {
		*p++ = '.';
		memcpy(p, d + ex + 1, nd - (unsigned)ex - 1);
		p += nd - (unsigned)ex - 1;
	}
	return p;
}

/* m's `digits` digits (10^(digits-1) <= m < 10^digits) as a number whose
 * first digit is at 10^e (-4 <= e <= 15): 0.000123457, 2.67509, 1234570.
 * Copies of a size known when compiled, of at most NUMFMT_MAX bytes in
 * all, then the trailing zeros of a fraction taken off. */
static char *
put_sig(char *p, uint64_t m, unsigned digits, int e)
{
	char d[32], *q;
	unsigned lead;

	memset(d + 16, '0', 16);
	if (digits == 6) {
		put6(d, (uint32_t)m);
		memset(d + 6, '0', 10);
	} else {
		put_digits(d, m, digits);
		memset(d + digits, '0', 16 - digits);
	}
	if (e < 0) {
		memcpy(p, "0.000000", 8);
		q = p + 1 - e;
		memcpy(q, d, 16);
		q += digits;
	} else if ((lead = (unsigned)e + 1) >= digits) {
		memcpy(p, d, 16);
		return p + lead;
	} else {
		memcpy(p, d, 16);
		p[lead] = '.';
		memcpy(p + lead + 1, d + lead, 16);
		q = p + digits + 1;
	}
	while (q[-1] == '0')
		q--;
	if (q[-1] == '.')
		q--;
	return q;
}

/* Six significant digits, m (10^5 <= m < 10^6) with its first digit at
 * 10^e, -4 <= e <= 5: put_sig's text by two table lookups. */
static inline char *
put_sig6(char *p, unsigned m, int e)
{
	char d[16] = { 0 };
	unsigned hi = m / 1000u, lo = m % 1000u, tz, lead;

	memcpy(d, triples + 3 * hi, 4);
	memcpy(d + 3, triples + 3 * lo, 4);
	tz = lo != 0 ? tz3(lo) : 3 + tz3(hi);
	if (e < 0) {
		memcpy(p, "0.000000", 8);
		p += 1 - e;
		memcpy(p, d, 8);
		return p + 6 - tz;
	}
	lead = (unsigned)e + 1;
	memcpy(p, d, 8);
	if (lead + tz >= 6)
		return p + lead;
	p[lead] = '.';
	memcpy(p + lead + 1, d + lead, 8);
	return p + 7 - tz;
}

static char *
sig_general(char *p, double x, unsigned digits)
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
	/* e: the decimal exponent, 10^e <= ax < 10^(e+1) (by the doubles
	 * nearest the powers: a value next to one is checked below) */
	/* from 10^0 (most figures are near 1), up or down */
	for (e = 0; e < 14 && ax >= decade[e + 5]; e++)
		;
	for (; e > -4 && ax < decade[e + 4]; e--)
		;
	k = (int)digits - 1 - e;          /* decimals to keep, -14..18 */
	s = k >= 0 ? ax * p10d[k] : ax / p10d[-k];
	/* Not 10^(digits-1) <= s < 10^digits: e was one off, next to a power
	 * of ten; 10^digits after rounding (9.9999996 to 10.00000): exact. */
	if (!(s >= p10d[digits - 1] && s < p10d[digits]) || !round_scaled(s, &m) ||
	    m >= p10u[digits])
		return sig_exact(p, x, digits);
	if (x < 0)
		*p++ = '-';
	if (digits == 6 && e <= 5)
		return put_sig6(p, (unsigned)m, e);
	return put_sig(p, m, digits, e);
}

/* Six significant digits of x where 10^-4 <= |x| < 10^6 (the JSON
 * writer's figures): sig_general's steps for that range alone, without
 * its clamps and its other widths, so that the common call is short. The
 * decade is found from 1 up or down by the same doubles, the scaling is
 * the same one multiplication, the same values go to sig_exact. */
static char *
sig6(char *p, double x)
{
	double ax = fabs(x), s;
	uint64_t m;
	int e;

	if (!(ax >= 1e-4 && ax < 1e6))
		return sig_general(p, x, 6);
	if (ax >= 1.0)
		for (e = 0; e < 5 && ax >= decade[e + 5]; e++)
			;
	else
		for (e = -1; e > -4 && ax < decade[e + 4]; e--)
			;
	s = ax * p10d[5 - e];
	if (!(s >= 1e5 && s < 1e6) || !round_scaled(s, &m) || m >= 1000000u)
		return sig_exact(p, x, 6);
	if (x < 0)
		*p++ = '-';
	return put_sig6(p, (unsigned)m, e);
}

char *
numfmt_sig(char *p, double x, unsigned digits)
{
	if (digits == 6)
		return sig6(p, x);
	return sig_general(p, x, digits);
}
