/* phases.c: see phases.h. The scheduler's per-thread clock counts in
 * nanoseconds, not in ticks, so a refresh's few hundred microseconds show. */
#include "config.h"
#include "util/phases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void
phases_init(struct phases *p)
{
	const char *v = getenv("HTTOP_PHASE_TIMES");

	memset(p, 0, sizeof *p);
	p->on = v != NULL && strcmp(v, "1") == 0;
}

void
phases_mark(struct phases *p)
{
	if (p->on)
		p->mark = thread_cpu();
}

void
phases_add(struct phases *p, enum phase ph)
{
	double now;

	if (!p->on)
		return;
	now = thread_cpu();
	p->t[ph] += now - p->mark;
	p->mark = now;
}

void
phases_count(struct phases *p)
{
	if (p->on)
		p->refreshes++;
}

void
phases_report(const struct phases *p)
{
	if (!p->on)
		return;
	/* Machine-read (bench/draw-cpu.sh): not translated. */
	fprintf(stderr, "httop: phase times: refreshes=%lu read_s=%.9f compute_s=%.9f "
	    "draw_s=%.9f\n", p->refreshes, p->t[PHASE_READ], p->t[PHASE_COMPUTE],
	    p->t[PHASE_DRAW]);
}
