/* subset.c: the aggregate over the cores a watched job may run on, for the
 * header's job summary, and an interval narrowed to those cores, for the
 * batch formats and the summary of a command's run. A core counts if any of
 * its CPUs is in the job's list: the job shares that core's time with
 * whatever runs on its sibling, and the split is a property of the whole
 * core. */
#include "config.h"
#include "metrics/internal.h"

static bool
core_in_list(const struct topo_core *tc, const void *arg)
{
	const struct cpulist *cpus = arg;
	unsigned k;

	for (k = 0; k < tc->nthreads; k++)
		if (cpulist_has(cpus, tc->cpus[k]))
			return true;
	return false;
}

void
metrics_aggregate_subset(const struct interval *iv, const struct topology *t,
    const struct cpulist *cpus, struct agg_fig *out)
{
	aggregate_over(iv, t, core_in_list, cpus, out);
}

struct in_package {
	const struct cpulist *cpus;
	unsigned package;
};

static bool
core_in_package(const struct topo_core *tc, const void *arg)
{
	const struct in_package *a = arg;

	return tc->package == a->package && core_in_list(tc, a->cpus);
}

void
metrics_aggregate_subset_package(const struct interval *iv, const struct topology *t,
    const struct cpulist *cpus, unsigned package, struct agg_fig *out)
{
	struct in_package a = { cpus, package };

	aggregate_over(iv, t, core_in_package, &a, out);
}

void
metrics_restrict(const struct metrics_ctx *c, const struct cpulist *cpus, struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	unsigned ci, k;

	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];
		struct core_fig *cf = &iv->cores[ci];

		if (!cf->selected || core_in_list(tc, cpus))
			continue;
		/* As a core --cpus left out: no figures, no weight, not in the
		 * validity, and left out of an averaging history's sums. */
		cf->selected = false;
		cf->reason = R_NOT_SELECTED;
		cf->fallback = R_NONE;
		for (k = 0; k < tc->nthreads && k < TOPO_MAX_SMT; k++)
			if (tc->cpus[k] < iv->max_cpu)
				thread_blank(&iv->threads[tc->cpus[k]], R_NOT_SELECTED);
	}
	interval_judge(c, iv);
}

/* The job's figures of core ci and its threads: from `from` (the
 * scheduler's record's interval), or absent with `why` when from is NULL. */
static void
job_core(const struct topo_core *tc, unsigned ci, const struct interval *from, enum reason why,
    struct interval *iv)
{
	struct core_fig *cf = &iv->cores[ci];
	unsigned k;

	if (from != NULL && ci < from->ncores) {
		const struct core_fig *fc = &from->cores[ci];

		cf->job_both = fc->job_both;
		cf->job_alone = fc->job_alone;
		cf->job_shared = fc->job_shared;
		cf->job_none = fc->job_none;
	} else {
		cf->job_both = cf->job_alone = cf->job_shared = cf->job_none = val_absent(why);
	}
	for (k = 0; k < tc->nthreads && k < TOPO_MAX_SMT; k++) {
		unsigned cpu = tc->cpus[k];
		struct thread_fig *t;

		if (cpu >= iv->max_cpu)
			continue;
		t = &iv->threads[cpu];
		if (from != NULL && cpu < from->max_cpu) {
			t->job_util = from->threads[cpu].job_util;
			t->job_s = from->threads[cpu].job_s;
			t->job_unc_s = from->threads[cpu].job_unc_s;
			t->d_job = from->threads[cpu].d_job;
			t->has_job = from->threads[cpu].has_job;
		} else {
			t->job_util = val_absent(why);
			t->job_s = 0.0;
			t->job_unc_s = 0.0;
			t->d_job = 0;
			t->has_job = false;
		}
	}
}

/* metrics.h */
void
metrics_take_job(const struct metrics_ctx *c, const struct interval *from, enum reason why,
    struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	unsigned ci;

	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct core_fig *cf = &iv->cores[ci];

		/* A core without figures keeps its reason for all of them. */
		if (cf->selected && cf->reason == R_NONE)
			job_core(&t->cores[ci], ci, from, why, iv);
	}
	interval_judge(c, iv);
}

/* metrics.h */
void
metrics_job_rates(const struct metrics_ctx *c, const uint64_t *d, enum reason why,
    struct interval *iv)
{
	if (d == NULL) {
		iv->job_cpi = iv->job_ghz = val_absent(why);
		return;
	}
	iv->job_cpi = d[0] > 0 ? val_exact((double)d[1] / (double)d[0]) : val_absent(R_NO_INST);
	if (c->base_hz <= 0.0)
		iv->job_ghz = val_absent(R_NO_BASE);
	else if (d[2] == 0)
		iv->job_ghz = val_absent(R_NOT_HALTED_ZERO);
	else
		iv->job_ghz = val_exact((double)d[1] / (double)d[2] * c->base_hz / 1e9);
}
