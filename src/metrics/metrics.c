/* metrics.c: what computing an interval stands on: the context set up
 * once, an interval's storage, its offline CPUs and the description of its
 * first bad core. The computing itself is compute.c's. */
#include "config.h"
#include "metrics/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpulist.h"
#include "util/i18n.h"
#include "util/xalloc.h"

void
metrics_ctx_init(struct metrics_ctx *c, const struct machine *m, const struct plan *p)
{
	int k;

	memset(c, 0, sizeof *c);
	c->m = m;
	c->plan = p;
	/* The rate of the TSC slot: the processor's TSC, or the plan's own
	 * clock (the scheduler's nanoseconds). */
	c->base_hz = p->clock_hz > 0.0 ? p->clock_hz : identity_tsc_hz(&m->id);
	c->issue_width = uarch_issue_width(m->group, &m->id);
	c->tol.rel = 0.005;
	c->tol.abs_ticks_per_scale = 2;
	for (k = 0; k < SLOT_NKINDS; k++)
		c->slot[k] = plan_slot_index(p, (enum slot_kind)k);
	c->missing = p->nslots > 0 && c->slot[SLOT_INST] < 0 && c->slot[SLOT_CYCLES] < 0 ?
	    R_NOT_COUNTED : R_UNAVAILABLE;
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
	iv->job_cpi = iv->job_ghz = val_absent(R_NO_CGROUP_EVENTS);
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

/* Core cf's reason as interval_describe takes it: the reason, or the
 * fallback when the core is on its bound. */
static enum reason
core_said(const struct core_fig *cf, bool *fallback)
{
	*fallback = cf->reason == R_NONE;
	return cf->reason != R_NONE ? cf->reason : cf->fallback;
}

void
interval_describe_core(struct interval *iv, const struct topology *t, unsigned first)
{
	bool fb, fb2, *has = iv->scratch;
	enum reason r = core_said(&iv->cores[first], &fb);
	unsigned ci, i, nsel = 0, nsame = 0;
	char cpus[160];
	const char *fmt;

	memset(has, 0, iv->max_cpu * sizeof *has);
	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];

		if (!iv->cores[ci].selected)
			continue;
		nsel++;
		if (core_said(&iv->cores[ci], &fb2) != r || fb2 != fb)
			continue;
		nsame++;
		for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT; i++)
			if (tc->cpus[i] < iv->max_cpu)
				has[tc->cpus[i]] = true;
	}
	if (nsame < 2) {
		interval_describe(iv, &t->cores[first], r, fb);
		return;
	}
	cpus[0] = '\0';
	cpulist_append(cpus, sizeof cpus, has, iv->max_cpu);
	if (nsame == nsel)
		fmt = fb ? N_("all %u cores (cpus %s): %s; their split is shown as a bound") :
		    N_("all %u cores (cpus %s): %s");
	else
		fmt = fb ? N_("%u cores (cpus %s): %s; their split is shown as a bound") :
		    N_("%u cores (cpus %s): %s");
	snprintf(iv->reason, sizeof iv->reason, _(fmt), nsame, cpus, _(metrics_reason_text(r)));
	snprintf(iv->reason_c, sizeof iv->reason_c, fmt, nsame, cpus, metrics_reason_text(r));
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
