/* totals.c: running totals of the exact figures since the start, and the
 * time they do not cover (totals.h). */
#include "config.h"
#include "metrics/totals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void
totals_init(struct totals *tt, const struct topology *t)
{
	unsigned i, n = 0, last = 0;

	memset(tt, 0, sizeof *tt);
	tt->t = t;
	tt->pkg_of = xcalloc(t->ncores + 1, sizeof *tt->pkg_of);
	tt->cores = xcalloc(t->ncores + 1, sizeof *tt->cores);
	tt->core_seen = xcalloc(t->ncores + 1, sizeof *tt->core_seen);
	tt->threads = xcalloc(t->max_cpu + 1, sizeof *tt->threads);
	tt->thread_seen = xcalloc(t->max_cpu + 1, sizeof *tt->thread_seen);
	tt->packages = xcalloc(t->npackages + 1, sizeof *tt->packages);
	/* interval.packages[] follows the packages in topology order; the
	 * cores are sorted by package, so each new package id starts one. */
	for (i = 0; i < t->ncores; i++) {
		if (i == 0 || t->cores[i].package != last) {
			last = t->cores[i].package;
			n++;
		}
		tt->pkg_of[i] = n - 1;
	}
}

void
totals_free(struct totals *tt)
{
	free(tt->pkg_of);
	free(tt->cores);
	free(tt->core_seen);
	free(tt->threads);
	free(tt->thread_seen);
	free(tt->packages);
	memset(tt, 0, sizeof *tt);
}

/* The four shares, when each is exact. */
static bool
exact_split(const struct topo_core *tc, const struct core_fig *c, double s[4])
{
	const struct val *v[4] = { &c->neither, &c->t0_only, &c->t1_only, &c->both };
	unsigned k;

	if (tc->nthreads != 2 || c->reason != R_NONE || !c->exact)
		return false;
	for (k = 0; k < 4; k++) {
		if (v[k]->kind != V_EXACT || !isfinite(v[k]->v))
			return false;
		s[k] = v[k]->v;
	}
	return true;
}

static void
add_core(struct totals *tt, unsigned ci, const struct core_fig *c, double dt)
{
	const struct topo_core *tc = &tt->t->cores[ci];
	struct totals_set *sets[3] = { &tt->cores[ci], NULL, &tt->node };
	bool shown = c->selected && c->reason != R_NOT_SELECTED;
	double s[4];
	unsigned k, j;

	if (shown)
		tt->core_seen[ci] = true;
	if (!tt->core_seen[ci])
		return;
	if (tt->pkg_of[ci] < tt->t->npackages)
		sets[1] = &tt->packages[tt->pkg_of[ci]];
	for (j = 0; j < 3; j++) {
		if (sets[j] == NULL)
			continue;
		if (shown && exact_split(tc, c, s)) {
			for (k = 0; k < 4; k++)
				sets[j]->state[k] += s[k] * dt;
		} else {
			sets[j]->uncovered += dt;
		}
	}
}

/* The thread's raw counts into its sets: every counter that did not stand
 * still (another program stopped it), the split counter where it was used. */
static void
add_counts(struct totals_set *const *sets, size_t n, const struct thread_fig *th)
{
	const struct { enum total_count c; enum slot_kind k; uint64_t d; } m[4] = {
		{ TC_INST, SLOT_INST, th->d_inst }, { TC_CYCLES, SLOT_CYCLES, th->d_cyc },
		{ TC_REF, SLOT_REF, th->d_ref }, { TC_TSC, SLOT_TSC, th->d_tsc },
	};
	size_t j, i;

	for (j = 0; j < n; j++) {
		if (sets[j] == NULL)
			continue;
		for (i = 0; i < 4; i++)
			if (!(th->stopped & KIND_BIT(m[i].k)))
				sets[j]->counts[m[i].c] += m[i].d;
		if (th->has_split) {
			sets[j]->counts[TC_SPLIT] += th->d_split;
			sets[j]->has_split = true;
		}
	}
}

static void
add_thread(struct totals *tt, unsigned cpu, const struct thread_fig *th, double dt)
{
	const struct topo_cpu *tc = &tt->t->cpus[cpu];
	struct totals_set *sets[3] = { &tt->threads[cpu], NULL, &tt->node };
	bool shown = tc->present && th->reason != R_NOT_SELECTED;
	bool busy = shown && th->reason == R_NONE && th->util.kind == V_EXACT &&
	    isfinite(th->util.v);
	unsigned j;

	if (shown)
		tt->thread_seen[cpu] = true;
	if (!tt->thread_seen[cpu] || tc->core >= tt->t->ncores)
		return;
	if (tt->pkg_of[tc->core] < tt->t->npackages)
		sets[1] = &tt->packages[tt->pkg_of[tc->core]];
	if (shown && th->reason == R_NONE) {
		struct totals_set *all[4] = { sets[0], &tt->cores[tc->core], sets[1], sets[2] };

		add_counts(all, 4, th);
	}
	for (j = 0; j < 3; j++) {
		if (sets[j] == NULL)
			continue;
		if (busy)
			sets[j]->busy += th->util.v * dt;
		else
			sets[j]->thread_uncovered += dt;
	}
}

/* The job's counters: each shown core's exact job split times dt, and
 * the job's CPU seconds of the interval, or its dt uncovered. */
static void
add_job(struct totals *tt, const struct interval *iv, double dt)
{
	unsigned i;

	for (i = 0; i < iv->ncores && i < tt->t->ncores; i++) {
		const struct core_fig *c = &iv->cores[i];

		if (!c->selected || c->reason != R_NONE || c->job_both.kind != V_EXACT ||
		    c->job_alone.kind != V_EXACT || c->job_shared.kind != V_EXACT)
			continue;
		tt->node.job_state[0] += c->job_both.v * dt;
		tt->node.job_state[1] += c->job_alone.v * dt;
		tt->node.job_state[2] += c->job_shared.v * dt;
	}
	if (iv->node.cpu_s.kind == V_EXACT && isfinite(iv->node.cpu_s.v))
		tt->node.job_cpu += iv->node.cpu_s.v;
	else
		tt->node.job_uncovered += dt;
}

void
totals_add(struct totals *tt, const struct interval *iv)
{
	const struct topology *t = tt->t;
	double dt = iv->dt;
	unsigned i;

	if (!isfinite(iv->time) || !isfinite(dt) || dt <= 0.0 ||
	    (tt->started && iv->time <= tt->last_time))
		return;
	tt->started = true;
	tt->last_time = iv->time;
	for (i = 0; i < iv->ncores && i < t->ncores; i++)
		add_core(tt, i, &iv->cores[i], dt);
	for (i = 0; i < iv->max_cpu && i < t->max_cpu; i++)
		add_thread(tt, i, &iv->threads[i], dt);
	add_job(tt, iv, dt);
}
