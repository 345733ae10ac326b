/* split.c: the four-way SMT split of one core's interval (doc/hardware.md
 * section 1).
 *
 * With N, A, B, C the TSC ticks with neither thread, thread 0 only,
 * thread 1 only and both threads active:
 *     dTSC = N + A + B + C,  ref0 = A + C,  ref1 = B + C,  any = A + B + C
 * so  N = dTSC - any,  A = any - ref1,  B = any - ref0,  C = ref0 + ref1 - any.
 * (McCalpin's 2018 blog post prints the last one with the sign reversed.) */
#include "config.h"
#include "metrics/internal.h"

double
split_clamp(double f[4])
{
	double worst = 0.0, sum = 0.0;
	int k;

	for (k = 0; k < 4; k++) {
		double c = f[k] < 0.0 ? 0.0 : f[k] > 1.0 ? 1.0 : f[k];
		double d = c > f[k] ? c - f[k] : f[k] - c;

		if (d > worst)
			worst = d;
		f[k] = c;
		sum += c;
	}
	if (sum > 0.0)
		for (k = 0; k < 4; k++)
			f[k] /= sum;
	return worst;
}

void
split_from_any(double dtsc, double ref0, double ref1, double any, double out[4],
    double *inconsistency)
{
	int k;

	*inconsistency = 0.0;
	if (dtsc <= 0.0) {
		for (k = 0; k < 4; k++)
			out[k] = 0.0;
		return;
	}
	out[0] = (dtsc - any) / dtsc;
	out[1] = (any - ref1) / dtsc;
	out[2] = (any - ref0) / dtsc;
	out[3] = (ref0 + ref1 - any) / dtsc;
	*inconsistency = split_clamp(out);
}

/* ONE_THREAD_ACTIVE on thread i counts A (i = 0) or B (i = 1) directly;
 * then C = ref0 - A, and ref1 - B must give the same C. */
void
split_from_ota(double dtsc, double ref0, double ref1, double ota0, double ota1,
    double out[4], double *inconsistency, double *mismatch)
{
	double c0, c1;
	int k;

	*inconsistency = 0.0;
	*mismatch = 0.0;
	if (dtsc <= 0.0) {
		for (k = 0; k < 4; k++)
			out[k] = 0.0;
		return;
	}
	c0 = ref0 - ota0;
	c1 = ref1 - ota1;
	*mismatch = (c0 > c1 ? c0 - c1 : c1 - c0) / dtsc;
	out[1] = ota0 / dtsc;
	out[2] = ota1 / dtsc;
	out[3] = c0 / dtsc;
	out[0] = (dtsc - ota0 - ota1 - c0) / dtsc;
	*inconsistency = split_clamp(out);
}

static double
clamp01(double x)
{
	return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

/* Only u0 = A + C and u1 = B + C are known (fractions): C can be anything
 * from the least overlap, max(0, u0 + u1 - 1), to the most, min(u0, u1);
 * A = u0 - C, B = u1 - C and N = 1 - u0 - u1 + C follow. */
void
split_bound(double u0, double u1, double lo[4], double hi[4])
{
	double clo, chi;

	u0 = clamp01(u0);
	u1 = clamp01(u1);
	clo = u0 + u1 - 1.0 > 0.0 ? u0 + u1 - 1.0 : 0.0;
	chi = u0 < u1 ? u0 : u1;
	lo[3] = clo;
	hi[3] = chi;
	lo[1] = clamp01(u0 - chi);
	hi[1] = clamp01(u0 - clo);
	lo[2] = clamp01(u1 - chi);
	hi[2] = clamp01(u1 - clo);
	lo[0] = clamp01(1.0 - u0 - u1 + clo);
	hi[0] = clamp01(1.0 - u0 - u1 + chi);
	/* 1 - u0 - u1 + (u0 + u1 - 1) leaves rounding dust like 1e-17:
	 * a bound edge that is zero in exact arithmetic should print as 0. */
	for (int i = 0; i < 4; i++) {
		if (lo[i] < 1e-12)
			lo[i] = 0.0;
		if (hi[i] < 1e-12)
			hi[i] = 0.0;
	}
}
