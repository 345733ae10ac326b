/* compute.c: from two samples to one interval, per refresh: every core
 * (core.c) and its threads, the interval's validity (the first bad core,
 * then the stopped counters: stopped.c) and the aggregates (aggregate.c). */
#include "config.h"
#include "metrics/internal.h"

#include <string.h>

void
metrics_compute(const struct metrics_ctx *c, const struct sample *prev,
    const struct sample *cur, struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	unsigned cpu, ci;

	iv->time = cur->time;
	iv->wall = cur->wall;
	iv->dt = prev != NULL ? cur->time - prev->time : 0.0;
	iv->job_cpi = iv->job_ghz = val_absent(R_NO_CGROUP_EVENTS);
	for (cpu = 0; cpu < iv->max_cpu; cpu++) {
		struct thread_fig *tf = &iv->threads[cpu];

		memset(tf, 0, sizeof *tf);
		tf->cpu = cpu;
		thread_blank(tf, R_NOT_SELECTED);
	}
	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++)
		core_compute(c, prev, cur, ci, iv);
	interval_offline(iv, t, cur);
	interval_judge(c, iv);
}

void
interval_judge(const struct metrics_ctx *c, struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	unsigned ci;

	iv->valid = true;
	iv->scaled = false;
	iv->reason[0] = iv->reason_c[0] = '\0';
	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct core_fig *cf = &iv->cores[ci];

		iv->scaled = iv->scaled || (cf->selected && cf->scaled);
		/* The interval is valid only if every selected core got what the
		 * plan promises; a core on its fallback bound is valid itself. */
		/* A stopped counter is named with its CPUs after the loop. */
		if (cf->selected && iv->valid && ((cf->reason != R_NONE && cf->reason != R_STOPPED) ||
		    (cf->reason == R_NONE && cf->fallback != R_NONE && cf->fallback != R_STOPPED))) {
			iv->valid = false;
			interval_describe_core(iv, t, ci);
		}
	}
	interval_stopped(iv);
	aggregate_all(c, iv);
}

void
metrics_too_short(const struct metrics_ctx *c, struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	unsigned ci, k;

	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];
		struct core_fig *cf = &iv->cores[ci];

		if (!cf->selected)
			continue;
		cf->reason = R_TOO_SHORT;
		cf->fallback = R_NONE;
		cf->stopped = 0;
		core_blank(cf, R_TOO_SHORT);
		for (k = 0; k < tc->nthreads && k < TOPO_MAX_SMT; k++)
			if (tc->cpus[k] < iv->max_cpu) {
				thread_blank(&iv->threads[tc->cpus[k]], R_TOO_SHORT);
				iv->threads[tc->cpus[k]].stopped = 0;
			}
	}
	interval_judge(c, iv);
}
