/* numfmt.h: numbers to text without printf, for the batch outputs, where
 * printf("%.12g") was most of the cost of a JSON line. Each function
 * writes at p (room for NUMFMT_MAX bytes), does not terminate, and returns
 * the end. x must be finite: the callers write null or nothing otherwise.
 * The precision each output field gets is chosen by its writer (json.c,
 * csv.c) and documented in httop(1). */
#ifndef HTTOP_NUMFMT_H
#define HTTOP_NUMFMT_H

#include <stdint.h>

#define NUMFMT_MAX 32

char *numfmt_u64(char *p, uint64_t u);
/* x rounded to `decimals` (at most 12) places, trailing zeros (and a bare
 * point) dropped: 0.25 -> "0.25", 1 -> "1", -0.0000001 at 6 -> "0". A
 * value too large for that (|x| x 10^decimals >= 9e18) is written as
 * numfmt_sig(x, 15). */
char *numfmt_fixed(char *p, double x, unsigned decimals);
/* The same with every decimal written, as printf's %.*f: 1 -> "1.000000". */
char *numfmt_fixed_all(char *p, double x, unsigned decimals);
/* x to `digits` significant digits (1 to 15), trailing zeros dropped,
 * without an exponent from 1e-4 up to 1e15 (1234567 at 6 digits is
 * "1234570", where %g would say 1.23457e+06); outside that range as
 * printf's %.*g. Both are valid JSON numbers. */
char *numfmt_sig(char *p, double x, unsigned digits);
/* Shares x[0..n-1] (fractions whose sum is `whole`, 1 for the four shares
 * of a core) as whole units of `total` (100: percent) that add up to the
 * rounded total of them, as printed side by side: each is rounded down,
 * and the units left go to the largest remainders (the first on a tie).
 * 0.2149, 0.2149, 0.2851, 0.2851 at 100 -> 21, 21, 29, 29 (each rounded
 * alone: 21, 21, 29, 29 = 100); 0.335, 0.335, 0.33 -> 34, 33, 33 (alone:
 * 34, 34, 33 = 101). n at most 8; a share that is not finite or below 0 is
 * taken as 0. */
void numfmt_round_shares(const double *x, unsigned n, long total, long *out);

#endif
