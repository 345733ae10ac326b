/* aggregate.c: time-weighted averages over the valid cores of a package and
 * of the node. Weights are the cores' intervals T (thread 0's dTSC). An
 * average of exact values is exact; with any bound among them the lower
 * and upper ends are averaged separately, which bounds the average. */
#include "config.h"
#include "metrics/internal.h"

#include <string.h>

struct vacc {
	double w, lo, hi;
	bool exact;
};

enum { A_NEITHER, A_T0, A_T1, A_BOTH, A_UTIL, A_ACTIVE, A_GHZ, A_CPI, A_N };

struct acc {
	unsigned ncores, nvalid;
	bool exact;
	struct vacc v[A_N];
};

static void
acc_reset(struct acc *a)
{
	int k;

	memset(a, 0, sizeof *a);
	a->exact = true;
	for (k = 0; k < A_N; k++)
		a->v[k].exact = true;
}

static void
vacc_add(struct vacc *a, struct val v, double w)
{
	if (v.kind == V_NONE || w <= 0.0)
		return;
	a->w += w;
	a->lo += w * v.lo;
	a->hi += w * v.hi;
	if (v.kind != V_EXACT)
		a->exact = false;
}

static struct val
vacc_val(const struct vacc *a)
{
	if (a->w <= 0.0)
		return val_none();
	if (a->exact)
		return val_exact(a->lo / a->w);
	return val_bound(a->lo / a->w, a->hi / a->w);
}

static void
acc_add(struct acc *a, const struct core_fig *cf, double w)
{
	if (!cf->selected)
		return;
	a->ncores++;
	if (cf->reason != R_NONE)
		return;
	a->nvalid++;
	if (cf->split != SPLIT_NONE && !cf->exact)
		a->exact = false;
	vacc_add(&a->v[A_NEITHER], cf->neither, w);
	vacc_add(&a->v[A_T0], cf->t0_only, w);
	vacc_add(&a->v[A_T1], cf->t1_only, w);
	vacc_add(&a->v[A_BOTH], cf->both, w);
	vacc_add(&a->v[A_UTIL], cf->util, w);
	vacc_add(&a->v[A_ACTIVE], cf->active_threads, w);
	vacc_add(&a->v[A_GHZ], cf->ghz, w);
	vacc_add(&a->v[A_CPI], cf->cpi, w);
}

static double
mid(struct val v)
{
	return (v.lo + v.hi) / 2.0;
}

static void
acc_store(const struct acc *a, struct agg_fig *g)
{
	double busy;

	memset(g, 0, sizeof *g);
	g->ncores = a->ncores;
	g->nvalid = a->nvalid;
	g->neither = vacc_val(&a->v[A_NEITHER]);
	g->t0_only = vacc_val(&a->v[A_T0]);
	g->t1_only = vacc_val(&a->v[A_T1]);
	g->both = vacc_val(&a->v[A_BOTH]);
	g->util = vacc_val(&a->v[A_UTIL]);
	g->active_threads = vacc_val(&a->v[A_ACTIVE]);
	g->ghz = vacc_val(&a->v[A_GHZ]);
	g->cpi = vacc_val(&a->v[A_CPI]);
	g->exact = a->exact && g->both.kind == V_EXACT;
	/* Share of busy core time with both threads active; from the middle
	 * of the bounds when the split is only bounded, 0 when never busy. */
	g->both_of_busy = 0.0;
	if (g->both.kind != V_NONE && g->neither.kind != V_NONE) {
		busy = 1.0 - mid(g->neither);
		if (busy > 0.0) {
			g->both_of_busy = mid(g->both) / busy;
			if (g->both_of_busy > 1.0)
				g->both_of_busy = 1.0;
		}
	}
}

void
aggregate_all(const struct metrics_ctx *c, struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	struct acc node, pkg;
	unsigned ci, p = 0;

	acc_reset(&node);
	acc_reset(&pkg);
	for (ci = 0; ci < t->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];
		const struct core_fig *cf = &iv->cores[ci];
		double w = 0.0;

		/* Cores come ordered by package: a new package id starts the
		 * next entry of iv->packages. */
		if (ci > 0 && tc->package != t->cores[ci - 1].package) {
			if (p < iv->npackages)
				acc_store(&pkg, &iv->packages[p]);
			p++;
			acc_reset(&pkg);
		}
		if (tc->nthreads > 0)
			w = (double)iv->threads[tc->cpus[0]].d_tsc;
		acc_add(&pkg, cf, w);
		acc_add(&node, cf, w);
	}
	if (t->ncores > 0 && p < iv->npackages)
		acc_store(&pkg, &iv->packages[p]);
	acc_store(&node, &iv->node);
}
