/* numparse.h: strict decimal numbers, the one parser of the numbers the
 * user gives (options, the settings file, scenario files, environment
 * variables). Strict: all of the string is the number (no blanks before or
 * after, no trailing junk, not empty), decimal only (no hex, no octal, no
 * hex floats), nothing lost (an integer too large, a double that overflows
 * or underflows is out of range, never clamped), and no inf or nan unless
 * the caller asks (NUM_NONFINITE). strtod alone takes all of those. */
#ifndef HTTOP_NUMPARSE_H
#define HTTOP_NUMPARSE_H

#include <stddef.h>

enum {
	NUM_OK = 0,
	NUM_BAD = -1,   /* not a number of the kind asked */
	NUM_RANGE = -2, /* a number, but outside the range (or the type's) */
};

/* Flags of num_double. */
#define NUM_NONFINITE 1u /* "inf", "infinity", "nan" (any case, signed) too */

/* Digits only, at most max: NUM_OK with the value in *out, NUM_BAD or
 * NUM_RANGE (*out untouched). */
int num_uint(const char *s, unsigned long long max, unsigned long long *out);

/* An optional sign and digits, in [min, max]; returns as num_uint. */
int num_int(const char *s, long long min, long long max, long long *out);

/* [+-]digits[.digits][e[+-]digits] (a digit before or after the point),
 * in [lo, hi]; returns as num_uint. */
int num_double(const char *s, unsigned flags, double lo, double hi, double *out);

/* num_double of the first len bytes of s: the number before a unit the
 * caller has taken off ("10ms", "25%"). */
int num_double_n(const char *s, size_t len, unsigned flags, double lo, double hi, double *out);

#endif
