/* numparse.c: strict decimal numbers (numparse.h). */
#include "config.h"
#include "util/numparse.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool
digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The digits of s[0..len), at most max, into *out. */
static int
digits(const char *s, size_t len, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;
	unsigned d;
	size_t i;

	if (len == 0)
		return NUM_BAD;
	for (i = 0; i < len; i++)
		if (!digit(s[i]))
			return NUM_BAD;
	for (i = 0; i < len; i++) {
		d = (unsigned)(s[i] - '0');
		if (d > max || v > (max - d) / 10)
			return NUM_RANGE;
		v = v * 10 + d;
	}
	*out = v;
	return NUM_OK;
}

int
num_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	return digits(s, strlen(s), max, out);
}

int
num_int(const char *s, long long min, long long max, long long *out)
{
	bool neg = s[0] == '-';
	unsigned long long u, lim;
	long long v;
	int rc;

	if (min > max)
		return NUM_RANGE;
	if (s[0] == '-' || s[0] == '+')
		s++;
	/* the magnitude's limit: -min or max, each at least 0 */
	if (neg)
		lim = min >= 0 ? 0 : (unsigned long long)(-(min + 1)) + 1;
	else
		lim = max <= 0 ? 0 : (unsigned long long)max;
	rc = digits(s, strlen(s), lim, &u);
	if (rc != NUM_OK)
		return rc;
	if (neg)
		v = u == 0 ? 0 : -(long long)(u - 1) - 1;
	else
		v = (long long)u;
	if (v < min || v > max)
		return NUM_RANGE;
	*out = v;
	return NUM_OK;
}

/* The bytes of a run of digits at s, at most end. */
static size_t
run(const char *s, const char *end)
{
	const char *p = s;

	while (p < end && digit(*p))
		p++;
	return (size_t)(p - s);
}

/* Is s[0..len) a decimal floating-point number? */
static bool
decimal(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	size_t whole, frac = 0;

	if (p < end && (*p == '+' || *p == '-'))
		p++;
	whole = run(p, end);
	p += whole;
	if (p < end && *p == '.') {
		p++;
		frac = run(p, end);
		p += frac;
	}
	if (whole + frac == 0)
		return false;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (run(p, end) == 0)
			return false;
		p += run(p, end);
	}
	return p == end;
}

/* inf, infinity or nan, signed or not, in any case. */
static bool
nonfinite(const char *s, size_t len)
{
	if (len > 0 && (*s == '+' || *s == '-')) {
		s++;
		len--;
	}
	return (len == 3 && (strncasecmp(s, "inf", 3) == 0 || strncasecmp(s, "nan", 3) == 0)) ||
	    (len == 8 && strncasecmp(s, "infinity", 8) == 0);
}

int
num_double_n(const char *s, size_t len, unsigned flags, double lo, double hi, double *out)
{
	bool fin = decimal(s, len);
	char *end;
	double v;

	if (!fin && !((flags & NUM_NONFINITE) && nonfinite(s, len)))
		return NUM_BAD;
	errno = 0;
	v = strtod(s, &end);
	/* strtod stops where the checked form does (LC_NUMERIC is C) */
	if (end != s + len)
		return NUM_BAD;
	if ((fin && errno == ERANGE) || v < lo || v > hi)
		return NUM_RANGE;
	*out = v;
	return NUM_OK;
}

int
num_double(const char *s, unsigned flags, double lo, double hi, double *out)
{
	return num_double_n(s, strlen(s), flags, lo, hi, out);
}
