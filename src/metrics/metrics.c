/* metrics.c: from two samples to one interval: set up once, then per
 * refresh every core (core.c) and the aggregates (aggregate.c). */
#include "config.h"
#include "metrics/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

void
metrics_ctx_init(struct metrics_ctx *c, const struct machine *m, const struct plan *p)
{
	int k;

	memset(c, 0, sizeof *c);
	c->m = m;
	c->plan = p;
	c->base_hz = identity_tsc_hz(&m->id);
	c->issue_width = uarch_issue_width(m->group, &m->id);
	c->tol.rel = 0.005;
	c->tol.abs_ticks_per_scale = 2;
	for (k = 0; k < SLOT_NKINDS; k++)
		c->slot[k] = plan_slot_index(p, (enum slot_kind)k);
}

void
interval_init(struct interval *iv, const struct machine *m)
{
	const struct topology *t = &m->topo;

	memset(iv, 0, sizeof *iv);
	iv->ncores = t->ncores;
	iv->max_cpu = t->max_cpu;
	iv->npackages = t->npackages;
	iv->cores = xcalloc(t->ncores ? t->ncores : 1, sizeof *iv->cores);
	iv->threads = xcalloc(t->max_cpu ? t->max_cpu : 1, sizeof *iv->threads);
	iv->packages = xcalloc(t->npackages ? t->npackages : 1, sizeof *iv->packages);
	iv->scratch = xcalloc(t->max_cpu ? t->max_cpu : 1, sizeof *iv->scratch);
	interval_offline(iv, t, NULL);
}

void
interval_offline(struct interval *iv, const struct topology *t, const struct sample *s)
{
	unsigned cpu;

	for (cpu = 0; cpu < iv->max_cpu && cpu < t->max_cpu; cpu++) {
		int st = s != NULL && cpu < s->max_cpu ? s->state[cpu] : CPU_NOT_READ;

		iv->threads[cpu].offline = st == CPU_OFFLINE ||
		    (st == CPU_NOT_READ && t->cpus[cpu].present && !t->cpus[cpu].online);
	}
}

void
interval_free(struct interval *iv)
{
	free(iv->cores);
	free(iv->threads);
	free(iv->packages);
	free(iv->scratch);
	memset(iv, 0, sizeof *iv);
}

/* "package 0, core 3 (cpus 3,51): counters reprogrammed by another
 * program": the core named by its package's and its own id, as every view
 * and output names it. */
void
interval_describe(struct interval *iv, const struct topo_core *tc, enum reason r, bool fallback)
{
	char cpus[64];
	size_t len = 0;
	unsigned i;
	const char *fmt = fallback ? N_("package %u, core %u (cpus %s): %s; its split is shown as a bound") :
	    N_("package %u, core %u (cpus %s): %s");

	cpus[0] = '\0';
	for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT && len < sizeof cpus; i++)
		len += (size_t)snprintf(cpus + len, sizeof cpus - len, "%s%u", i ? "," : "",
		    tc->cpus[i]);
	snprintf(iv->reason, sizeof iv->reason, _(fmt), tc->package, tc->core_id, cpus,
	    _(metrics_reason_text(r)));
	snprintf(iv->reason_c, sizeof iv->reason_c, fmt, tc->package, tc->core_id, cpus,
	    metrics_reason_text(r));
}

void
metrics_compute(const struct metrics_ctx *c, const struct sample *prev,
    const struct sample *cur, struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	unsigned cpu, ci;

	iv->time = cur->time;
	iv->wall = cur->wall;
	iv->dt = prev != NULL ? cur->time - prev->time : 0.0;
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
			interval_describe(iv, &t->cores[ci], cf->reason != R_NONE ? cf->reason : cf->fallback,
			    cf->reason == R_NONE);
		}
	}
	interval_stopped(iv);
	aggregate_all(c, iv);
}
