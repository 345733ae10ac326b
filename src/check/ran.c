/* ran.c: the shares the loads really ran (ran.h).
 *
 * Each thread's bursts, clipped to the window [from, to], are its busy
 * time: util[k] = sum of their lengths / (to - from). Both threads busy
 * is the overlap of the two sets of bursts, found by walking them in time
 * order (each set is in order and its bursts do not overlap: one thread
 * recorded them one after the other). Then, as for a case's windows
 * (cases.c): t0 only = util0 - both, t1 only = util1 - both, neither =
 * 1 - (util0 + util1 - both). */
#include "config.h"
#include "check/ran.h"

#include <string.h>

/* Burst i clipped to the window: false when it does not meet it. */
static bool
clip(const struct load_burst *b, double from, double to, double *lo, double *hi)
{
	*lo = b->start > from ? b->start : from;
	*hi = b->end < to ? b->end : to;
	return *hi > *lo;
}

/* The next burst of the record from *i on that is on cpu and meets the
 * window, clipped; false when none is left. */
static bool
next(const struct load_burst *b, size_t n, int cpu, size_t *i, double from, double to,
    double *lo, double *hi)
{
	for (; *i < n; (*i)++)
		if (b[*i].cpu == cpu && clip(&b[*i], from, to, lo, hi))
			return true;
	return false;
}

/* One thread's busy time in the window, its bursts and edges there. A
 * burst of no length (the thread woke after its window had ended and
 * went back to sleep) adds no time, but the source sees the CPU busy
 * for the wake-up: its two edges count. */
static double
busy(struct check_ran *r, unsigned k, const struct load_burst *b, size_t n, int cpu)
{
	double lo, hi, sum = 0.0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (b[i].cpu != cpu || b[i].end < r->from || b[i].start > r->to)
			continue;
		if (clip(&b[i], r->from, r->to, &lo, &hi))
			sum += hi - lo;
		r->bursts[k]++;
		r->edges[k] += (b[i].start > r->from && b[i].start < r->to) +
		    (b[i].end > r->from && b[i].end < r->to);
	}
	return sum;
}

/* The time both threads were busy in the window. */
static double
overlap(const struct check_ran *r, const struct load_burst *const b[2], const size_t n[2],
    const int cpu[2])
{
	size_t i = 0, j = 0;
	double a0, a1, b0, b1, sum = 0.0;
	bool ha = next(b[0], n[0], cpu[0], &i, r->from, r->to, &a0, &a1);
	bool hb = next(b[1], n[1], cpu[1], &j, r->from, r->to, &b0, &b1);

	while (ha && hb) {
		double lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

		if (hi > lo)
			sum += hi - lo;
		/* The one that ends first can meet nothing later. */
		if (a1 < b1) {
			i++;
			ha = next(b[0], n[0], cpu[0], &i, r->from, r->to, &a0, &a1);
		} else {
			j++;
			hb = next(b[1], n[1], cpu[1], &j, r->from, r->to, &b0, &b1);
		}
	}
	return sum;
}

void
check_ran_compute(struct check_ran *r, const struct load_burst *const b[2],
    const size_t n[2], const int cpu[2], double from, double to, double span_a, double span_b)
{
	double T = to - from, u[2], both;
	unsigned k;

	memset(r, 0, sizeof *r);
	r->from = from;
	r->to = to;
	r->read_err = 0.5 * ((span_a > 0.0 ? span_a : 0.0) + (span_b > 0.0 ? span_b : 0.0));
	if (!(T > 0.0))
		return;
	for (k = 0; k < 2; k++)
		u[k] = b[k] != NULL ? busy(r, k, b[k], n[k], cpu[k]) : 0.0;
	both = b[0] != NULL && b[1] != NULL ? overlap(r, b, n, cpu) : 0.0;
	for (k = 0; k < 2; k++)
		r->util[k] = u[k] / T;
	r->share[CHECK_BOTH] = both / T;
	r->share[CHECK_T0_ONLY] = (u[0] - both) / T;
	r->share[CHECK_T1_ONLY] = (u[1] - both) / T;
	r->share[CHECK_NEITHER] = (T - (u[0] + u[1] - both)) / T;
	r->known = true;
}
