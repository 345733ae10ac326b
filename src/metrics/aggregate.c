/* aggregate.c: averages over the valid cores of a package and of the node.
 * Each figure is weighted by what it is a share of, so that the aggregate
 * is the same ratio taken over the sums:
 *   shares, util     by the core's interval T (thread 0's dTSC);
 *   ghz              by its reference ticks sum(dref): sum(dcyc)/sum(dref);
 *   cpi              by its instructions: sum(core cycles)/sum(dinst);
 *   active_threads   sum(dref) / sum(busy ticks), busy = util x T.
 * A T weight would let a nearly idle core's CPI count as much as a busy
 * one's. An average of exact values is exact; with any bound among them
 * the lower and upper ends are averaged separately, which bounds it. */
#include "config.h"
#include "metrics/internal.h"

#include <string.h>

struct vacc {
	double w, lo, hi;
	bool exact;
	/* Why a valid core's figure was absent (the first such), and whether
	 * one was for a stopped counter: then the aggregate, which would
	 * leave that core's part out unseen, is absent too. */
	enum reason why;
	bool stopped;
};

enum { A_NEITHER, A_T0, A_T1, A_BOTH, A_UTIL, A_GHZ, A_CPI, A_JBOTH, A_JALONE, A_JSHARED,
	A_JNONE, A_N };

/* Mean active threads: thread-ticks over busy ticks, busy being bounded
 * when util is: the ratio lies between num/busy_hi and num/busy_lo. */
struct actacc {
	double num, busy_lo, busy_hi;
	bool exact;
};

struct acc {
	unsigned ncores, nvalid;
	enum reason first;         /* the first invalid core's reason */
	bool exact;
	struct vacc v[A_N];
	struct actacc act;
	double job_ticks;          /* the job's time on the threads, s */
	double job_unc;            /* thread-seconds job_ticks does not cover */
	/* A part (metrics_combine) without cpu_s: its threads and interval
	 * unknown, the sum has no upper end and is absent with this. */
	enum reason job_gap;
	bool job_any;              /* a thread had the job's time */
	enum reason job_why;       /* else why not */
};

static void
acc_reset(struct acc *a)
{
	int k;

	memset(a, 0, sizeof *a);
	a->exact = true;
	for (k = 0; k < A_N; k++)
		a->v[k].exact = true;
	a->act.exact = true;
}

static void
vacc_add(struct vacc *a, struct val v, double w)
{
	if (v.kind == V_NONE) {
		if (a->why == R_NONE)
			a->why = v.why;
		a->stopped = a->stopped || v.why == R_STOPPED;
		return;
	}
	if (w <= 0.0)
		return;
	a->w += w;
	a->lo += w * v.lo;
	a->hi += w * v.hi;
	if (v.kind != V_EXACT)
		a->exact = false;
}

static struct val
vacc_val(const struct vacc *a, enum reason none)
{
	if (a->stopped)
		return val_absent(R_STOPPED);
	if (a->w <= 0.0)
		return val_absent(a->why != R_NONE ? a->why : none);
	if (a->exact)
		return val_exact(a->lo / a->w);
	return val_bound(a->lo / a->w, a->hi / a->w);
}

/* active = thread-ticks / busy, so thread-ticks = active.lo x util.hi x T
 * for a bound (usum / util.hi x util.hi) as for an exact value. */
static void
actacc_add(struct actacc *a, const struct core_fig *cf, double T)
{
	if (cf->active_threads.kind == V_NONE || cf->util.kind == V_NONE || T <= 0.0)
		return;
	a->num += cf->active_threads.lo * cf->util.hi * T;
	a->busy_lo += cf->util.lo * T;
	a->busy_hi += cf->util.hi * T;
	if (cf->active_threads.kind != V_EXACT || cf->util.kind != V_EXACT)
		a->exact = false;
}

static struct val
actacc_val(const struct actacc *a, enum reason none)
{
	if (a->busy_lo <= 0.0 || a->busy_hi <= 0.0)
		return val_absent(none);
	if (a->exact)
		return val_exact(a->num / a->busy_hi);
	return val_bound(a->num / a->busy_hi, a->num / a->busy_lo);
}

/* The job's split of core tc, weighted by its T, and its threads' job
 * seconds (cpu_s, a sum): a thread without job_util leaves the whole
 * interval uncovered, one with adds what its window left out. */
static void
acc_job(struct acc *a, const struct interval *iv, const struct topo_core *tc,
    const struct core_fig *cf, double w)
{
	unsigned i;

	vacc_add(&a->v[A_JBOTH], cf->job_both, w);
	vacc_add(&a->v[A_JALONE], cf->job_alone, w);
	vacc_add(&a->v[A_JSHARED], cf->job_shared, w);
	vacc_add(&a->v[A_JNONE], cf->job_none, w);
	for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT; i++) {
		const struct thread_fig *t;

		if (tc->cpus[i] >= iv->max_cpu)
			continue;
		t = &iv->threads[tc->cpus[i]];
		if (t->job_util.kind == V_NONE) {
			if (a->job_why == R_NONE)
				a->job_why = t->job_util.why;
			a->job_unc += iv->dt > 0.0 ? iv->dt : 0.0;
			continue;
		}
		a->job_ticks += t->job_s;
		a->job_unc += t->job_unc_s;
		a->job_any = true;
	}
}

/* A selected core without figures: none of its threads' job time over
 * the interval is counted. */
static void
acc_uncovered(struct acc *a, const struct interval *iv, const struct topo_core *tc)
{
	unsigned i;

	for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT; i++)
		if (tc->cpus[i] < iv->max_cpu)
			a->job_unc += iv->dt > 0.0 ? iv->dt : 0.0;
}

/* The weights of core tc: w its T, ref and inst its threads' summed dref
 * and dinst. */
static void
acc_add(struct acc *a, const struct interval *iv, const struct topo_core *tc,
    const struct core_fig *cf)
{
	double w = 0.0, ref = 0.0, inst = 0.0;
	unsigned i;

	if (tc->nthreads > 0 && tc->cpus[0] < iv->max_cpu)
		w = (double)iv->threads[tc->cpus[0]].d_tsc;
	for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT; i++) {
		if (tc->cpus[i] >= iv->max_cpu)
			continue;
		ref += (double)iv->threads[tc->cpus[i]].d_ref;
		inst += (double)iv->threads[tc->cpus[i]].d_inst;
	}
	if (!cf->selected)
		return;
	a->ncores++;
	if (cf->reason != R_NONE) {
		if (a->first == R_NONE)
			a->first = cf->reason;
		acc_uncovered(a, iv, tc);
		return;
	}
	a->nvalid++;
	if (cf->split != SPLIT_NONE && !cf->exact)
		a->exact = false;
	vacc_add(&a->v[A_NEITHER], cf->neither, w);
	vacc_add(&a->v[A_T0], cf->t0_only, w);
	vacc_add(&a->v[A_T1], cf->t1_only, w);
	vacc_add(&a->v[A_BOTH], cf->both, w);
	vacc_add(&a->v[A_UTIL], cf->util, w);
	actacc_add(&a->act, cf, w);
	vacc_add(&a->v[A_GHZ], cf->ghz, ref);
	vacc_add(&a->v[A_CPI], cf->cpi, inst);
	acc_job(a, iv, tc, cf, w);
}

static void
acc_store(const struct acc *a, struct agg_fig *g)
{
	/* Why a figure with nothing to average is absent: no valid core (the
	 * first invalid one's reason), or no core at all. */
	enum reason none = a->nvalid > 0 ? R_NOT_HALTED_ZERO : a->first != R_NONE ? a->first :
	    R_NOT_SELECTED;
	double busy;

	memset(g, 0, sizeof *g);
	g->ncores = a->ncores;
	g->nvalid = a->nvalid;
	g->neither = vacc_val(&a->v[A_NEITHER], none);
	g->t0_only = vacc_val(&a->v[A_T0], none);
	g->t1_only = vacc_val(&a->v[A_T1], none);
	g->both = vacc_val(&a->v[A_BOTH], none);
	g->util = vacc_val(&a->v[A_UTIL], none);
	g->active_threads = actacc_val(&a->act, none);
	g->ghz = vacc_val(&a->v[A_GHZ], none);
	g->cpi = vacc_val(&a->v[A_CPI], none);
	g->job_both = vacc_val(&a->v[A_JBOTH], none);
	g->job_alone = vacc_val(&a->v[A_JALONE], none);
	g->job_shared = vacc_val(&a->v[A_JSHARED], none);
	g->job_none = vacc_val(&a->v[A_JNONE], none);
	/* Exact only when every selected thread's job time was counted over
	 * the whole interval; else lo what was, hi lo plus the rest. */
	g->cpu_s = !a->job_any ? val_absent(a->job_why != R_NONE ? a->job_why : none) :
	    a->job_gap != R_NONE ? val_absent(a->job_gap) :
	    a->job_unc > 0.0 ? val_bound(a->job_ticks, a->job_ticks + a->job_unc) :
	    val_exact(a->job_ticks);
	g->exact = a->exact && g->both.kind == V_EXACT;
	/* Share of busy core time with both threads active. C / (u0 + u1 - C)
	 * grows with C, and a bound's low (high) ends of both and neither
	 * belong to the same C, so the ends map to the ends. */
	g->both_of_busy = val_absent(g->both.kind == V_NONE ? g->both.why : g->neither.kind == V_NONE ?
	    g->neither.why : R_NOT_HALTED_ZERO);
	if (g->both.kind != V_NONE && g->neither.kind != V_NONE) {
		double lo, hi;

		busy = 1.0 - g->neither.lo;
		lo = busy > 0.0 ? g->both.lo / busy : -1.0;
		busy = 1.0 - g->neither.hi;
		hi = busy > 0.0 ? g->both.hi / busy : -1.0;
		if (lo >= 0.0 && hi >= 0.0) {
			lo = lo > 1.0 ? 1.0 : lo;
			hi = hi > 1.0 ? 1.0 : hi;
			g->both_of_busy = g->both.kind == V_EXACT ? val_exact(lo) : val_bound(lo, hi);
		}
	}
}

void
aggregate_all(const struct metrics_ctx *c, struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	struct acc node, pkg;
	unsigned ci, p = 0;
	bool one = true;

	/* One package: the node's sums are its, added in the same order. */
	for (ci = 1; ci < t->ncores && one; ci++)
		one = t->cores[ci].package == t->cores[0].package;
	acc_reset(&node);
	acc_reset(&pkg);
	for (ci = 0; ci < t->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];
		const struct core_fig *cf = &iv->cores[ci];

		/* Cores come ordered by package: a new package id starts the
		 * next entry of iv->packages. */
		if (ci > 0 && tc->package != t->cores[ci - 1].package) {
			if (p < iv->npackages)
				acc_store(&pkg, &iv->packages[p]);
			p++;
			acc_reset(&pkg);
		}
		acc_add(&pkg, iv, tc, cf);
		if (!one)
			acc_add(&node, iv, tc, cf);
	}
	if (t->ncores > 0 && p < iv->npackages)
		acc_store(&pkg, &iv->packages[p]);
	acc_store(one ? &pkg : &node, &iv->node);
}

void
metrics_node_weights(const struct interval *iv, const struct topology *t,
    struct agg_weights *w)
{
	unsigned ci, i;

	memset(w, 0, sizeof *w);
	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];
		const struct core_fig *cf = &iv->cores[ci];

		if (!cf->selected || cf->reason != R_NONE)
			continue;
		if (tc->nthreads > 0 && tc->cpus[0] < iv->max_cpu)
			w->time += (double)iv->threads[tc->cpus[0]].d_tsc;
		for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT; i++) {
			if (tc->cpus[i] >= iv->max_cpu)
				continue;
			w->ref += (double)iv->threads[tc->cpus[i]].d_ref;
			w->inst += (double)iv->threads[tc->cpus[i]].d_inst;
		}
	}
}

/* A part (a node's aggregate) is added as a core is, with its summed
 * weights: shares and util by time, GHz by reference ticks, CPI by
 * instructions, active threads through busy time. */
void
metrics_combine(const struct agg_fig *parts, const struct agg_weights *w, size_t n,
    struct agg_fig *out)
{
	struct acc a;
	struct core_fig cf;
	size_t i;

	acc_reset(&a);
	for (i = 0; i < n; i++) {
		const struct agg_fig *p = &parts[i];

		a.ncores += p->ncores;
		if (p->ncores > 0 && p->cpu_s.kind == V_NONE && a.job_gap == R_NONE)
			a.job_gap = p->cpu_s.why != R_NONE ? p->cpu_s.why : R_READ_ERROR;
		if (p->nvalid == 0) {
			if (a.first == R_NONE && p->ncores > 0)
				a.first = p->util.kind == V_NONE && p->util.why != R_NONE ? p->util.why :
				    R_READ_ERROR;
			continue;
		}
		a.nvalid += p->nvalid;
		if (!p->exact)
			a.exact = false;
		vacc_add(&a.v[A_NEITHER], p->neither, w[i].time);
		vacc_add(&a.v[A_T0], p->t0_only, w[i].time);
		vacc_add(&a.v[A_T1], p->t1_only, w[i].time);
		vacc_add(&a.v[A_BOTH], p->both, w[i].time);
		vacc_add(&a.v[A_UTIL], p->util, w[i].time);
		memset(&cf, 0, sizeof cf);
		cf.active_threads = p->active_threads;
		cf.util = p->util;
		actacc_add(&a.act, &cf, w[i].time);
		vacc_add(&a.v[A_GHZ], p->ghz, w[i].ref);
		vacc_add(&a.v[A_CPI], p->cpi, w[i].inst);
		vacc_add(&a.v[A_JBOTH], p->job_both, w[i].time);
		vacc_add(&a.v[A_JALONE], p->job_alone, w[i].time);
		vacc_add(&a.v[A_JSHARED], p->job_shared, w[i].time);
		vacc_add(&a.v[A_JNONE], p->job_none, w[i].time);
		if (p->cpu_s.kind != V_NONE) {
			a.job_ticks += p->cpu_s.lo;   /* seconds add up */
			a.job_unc += p->cpu_s.hi - p->cpu_s.lo;
			a.job_any = true;
		} else if (a.job_why == R_NONE) {
			a.job_why = p->cpu_s.why;
		}
	}
	acc_store(&a, out);
}

void
aggregate_over(const struct interval *iv, const struct topology *t,
    bool (*keep)(const struct topo_core *tc, const void *arg), const void *arg,
    struct agg_fig *out)
{
	struct acc a;
	unsigned ci;

	acc_reset(&a);
	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];

		if (!keep(tc, arg))
			continue;
		acc_add(&a, iv, tc, &iv->cores[ci]);
	}
	acc_store(&a, out);
}
