/* phases.h: the thread's CPU time spent reading, computing and drawing
 * (with -b: writing the batch format), summed over the refreshes, for the
 * benchmarks (bench/draw-cpu.sh). Only with HTTOP_PHASE_TIMES=1 in the
 * environment; otherwise no clock is read. Said on standard error at
 * exit. */
#ifndef HTTOP_PHASES_H
#define HTTOP_PHASES_H

#include <stdbool.h>

enum phase { PHASE_READ, PHASE_COMPUTE, PHASE_DRAW, PHASE_N };

struct phases {
	bool on;
	unsigned long refreshes;
	double t[PHASE_N];         /* seconds of thread CPU time */
	double mark;               /* the clock at the last phases_mark */
};

void phases_init(struct phases *p);
/* Start timing (the clock now). */
void phases_mark(struct phases *p);
/* Add the time since the last mark to `ph`, and mark again. */
void phases_add(struct phases *p, enum phase ph);
/* One refresh more. */
void phases_count(struct phases *p);
/* One line on standard error: the sums and the refresh count. */
void phases_report(const struct phases *p);

#endif
