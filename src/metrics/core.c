/* core.c: one core's interval: read states, deltas, the invariants, the
 * four-way split (exact or a bound) and the core figures.
 *
 * Tolerance (httop.1, VALIDITY): counts of one interval may disagree by
 * tol = rel * T + abs * scale TSC ticks, T being thread 0's dTSC: the
 * threads are read one after the other (skew) and reference counts move in
 * steps of `scale` ticks. Beyond it the core is invalid and shows nothing;
 * within it shares are clamped to [0,1], renormalised, and the largest
 * clamp is reported as `inconsistency`.
 *
 * Core cycles while active: siblings share one clock, so the cycles per
 * TSC tick while active are sum(cycles) / sum(ref) over the threads, and
 *     core cycles = (ticks any thread was active) * sum(cycles) / sum(ref).
 * Core CPI = core cycles / sum(instructions); issue utilisation =
 * sum(instructions) / (core cycles * issue width) (corestat: doc/hardware.md section 2). */
#include "config.h"
#include "metrics/internal.h"

#include <string.h>

/* What one thread's counters did over the interval. */
struct tcounts {
	unsigned cpu;
	uint64_t tsc, inst, cyc, ref, any, ota, steal;
	bool has_any, has_ota, has_steal;
	uint64_t job, jboth, jalone, jshared;   /* the job's (sched, a job) */
	bool has_job;
};

/* Every slot's delta on the thread at SMT position `thread` (0 for the
 * slots it does not read), once. */
static void
thread_deltas(const struct plan *p, const struct sample *prev, const struct sample *cur,
    unsigned cpu, unsigned thread, struct slot_deltas *sd)
{
	const uint64_t *a = sample_row_c(prev, cpu), *b = sample_row_c(cur, cpu);
	unsigned s;

	sd->read = sd->still = 0;
	for (s = 0; s < p->nslots && s < PLAN_MAX_SLOTS; s++) {
		sd->d[s] = 0;
		if (!plan_slot_on_thread(&p->slots[s], thread))
			continue;
		sd->read |= 1u << s;
		sd->d[s] = counter_delta(a[s], b[s], p->slots[s].width);
		if (sd->d[s] == 0)
			sd->still |= 1u << s;
	}
}

/* The delta of kind k from the thread's deltas; false if not read. */
static bool
kind_delta(const struct metrics_ctx *c, const struct slot_deltas *sd, enum slot_kind k,
    uint64_t *d)
{
	int s = c->slot[k];

	*d = 0;
	if (s < 0 || !((sd->read >> s) & 1u))
		return false;
	*d = sd->d[s];
	return true;
}

/* The 64-bit TSC does not wrap (centuries at any clock): a smaller value
 * than before means the samples are out of order (a recording spliced or
 * replayed with jumps) or the machine was reset. Taken mod 2^64 it would
 * look like an interval of centuries with every share near 0. */
static bool
tsc_backwards(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    const struct topo_core *tc, unsigned n)
{
	int s = c->slot[SLOT_TSC];
	unsigned i;

	if (s < 0 || c->plan->slots[s].width < 64)
		return false;
	for (i = 0; i < n; i++)
		if (sample_row_c(cur, tc->cpus[i])[s] < sample_row_c(prev, tc->cpus[i])[s])
			return true;
	return false;
}

/* Every figure absent, for `r`. */
void
core_blank(struct core_fig *cf, enum reason r)
{
	cf->neither = cf->t0_only = cf->t1_only = cf->both = val_absent(r);
	cf->util = cf->active_threads = cf->issue_util = val_absent(r);
	cf->cpi = cf->ghz = val_absent(r);
	cf->job_both = cf->job_alone = cf->job_shared = cf->job_none = val_absent(r);
}

/* The figures computing left absent without saying why get `r`. */
static void
core_why(struct core_fig *cf, enum reason r)
{
	struct val *v[] = { &cf->neither, &cf->t0_only, &cf->t1_only, &cf->both, &cf->util,
	    &cf->active_threads, &cf->issue_util, &cf->cpi, &cf->ghz, &cf->job_both,
	    &cf->job_alone, &cf->job_shared, &cf->job_none };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		if (v[i]->kind == V_NONE && v[i]->why == R_NONE)
			v[i]->why = r;
}

static void
core_reset(struct core_fig *cf, unsigned ci)
{
	memset(cf, 0, sizeof *cf);
	cf->index = ci;
	cf->reason = R_NONE;
	cf->fallback = R_NONE;
	cf->selected = true;
	cf->split = SPLIT_NONE;
	core_blank(cf, R_NONE);
}

/* The worst read state of the core's CPUs, as a reason. */
static enum reason
read_reason(const struct topology *t, const struct topo_core *tc, const struct sample *prev,
    const struct sample *cur)
{
	enum reason r = R_NONE;
	unsigned th;

	for (th = 0; th < tc->nthreads; th++) {
		unsigned cpu = tc->cpus[th];
		int s1 = cur->state[cpu], s0 = prev != NULL ? prev->state[cpu] : CPU_NOT_READ;

		if (s0 == CPU_OFFLINE || s1 == CPU_OFFLINE ||
		    (s1 == CPU_NOT_READ && cpu < t->max_cpu && !t->cpus[cpu].online))
			return R_OFFLINE;
		if (s1 == CPU_LOST && r == R_NONE)
			r = R_LOST;
		if (s0 == CPU_READ_ERROR || s1 == CPU_READ_ERROR || s1 == CPU_NOT_READ)
			r = R_READ_ERROR;
		else if (s0 == CPU_NOT_READ && r == R_NONE)
			r = R_FIRST;
	}
	return r;
}

static double
dmax(double a, double b)
{
	return a > b ? a : b;
}

static double
dmin(double a, double b)
{
	return a < b ? a : b;
}

/* The invariants of section VALIDITY; R_NONE or why the core is invalid.
 * *threads_ok stays true when only the programmable counter is wrong: the
 * fixed counters, and so the per-thread figures, are still right (another
 * tool reprogramming the PMCs usually leaves them alone). */
static enum reason
check(const struct metrics_ctx *c, const struct tcounts *tk, unsigned n, double tol,
    double *mismatch, bool *threads_ok)
{
	double T = (double)tk[0].tsc, S = (double)c->plan->scale;
	double base = c->base_hz > 0.0 ? c->base_hz : 1e9;
	double max_cyc_per_tick = METRICS_MAX_HZ / base;
	unsigned i;

	*mismatch = 0.0;
	*threads_ok = false;
	for (i = 0; i < n; i++) {
		double tsc = (double)tk[i].tsc, ref = (double)tk[i].ref;
		double cyc = (double)tk[i].cyc, inst = (double)tk[i].inst;

		if (tk[i].tsc == 0)
			return R_NO_TIME;
		if (ref > tsc + tol)
			return R_REPROGRAMMED;
		/* A clock above the ceiling, or more instructions than the
		 * fastest core retires: a counter was set behind our back. */
		if (cyc > max_cyc_per_tick * (ref + tol) ||
		    inst > METRICS_MAX_IPC * max_cyc_per_tick * (tsc + tol))
			return R_REPROGRAMMED;
	}
	*threads_ok = true;
	for (i = 0; i < n; i++)
		if (tk[i].tsc > tk[0].tsc + tol || tk[i].tsc + tol < tk[0].tsc)
			return R_SKEW;
	if (n == 2 && tk[0].has_any && S > 0.0) {
		double any = (double)tk[0].any * S;
		double r0 = (double)tk[0].ref, r1 = (double)tk[1].ref;

		double excess = dmax(any - dmin(T, r0 + r1), dmax(r0, r1) - any) - tol;

		/* A little beyond the tolerance is read skew (e.g. the first
		 * interval after programming); far beyond it, the counter is not
		 * counting what httop programmed. */
		if (excess > METRICS_SKEW_LIMIT * T)
			return R_REPROGRAMMED;
		if (excess > 0.0)
			return R_SKEW;
	}
	if (n == 2 && tk[0].has_ota && tk[1].has_ota && S > 0.0) {
		double a = (double)tk[0].ota * S, b = (double)tk[1].ota * S;
		double r0 = (double)tk[0].ref, r1 = (double)tk[1].ref;
		double c0 = r0 - a, c1 = r1 - b;

		if (a > r0 + tol || b > r1 + tol)
			return R_REPROGRAMMED;
		*mismatch = (c0 > c1 ? c0 - c1 : c1 - c0) / T;
		if (c0 > c1 + tol || c1 > c0 + tol)
			return R_SKEW;
	}
	return R_NONE;
}

/* The split, the utilisation and the mean active threads. */
static void
split_core(const struct metrics_ctx *c, const struct tcounts *tk, unsigned n,
    enum split_method m, struct core_fig *cf)
{
	double T = (double)tk[0].tsc, S = (double)c->plan->scale;
	double f[4], lo[4], hi[4], umax = 0.0, usum = 0.0;
	unsigned i;

	if (m == SPLIT_ANY && (!tk[0].has_any || S <= 0.0))
		m = SPLIT_BOUND;
	if (m == SPLIT_OTA && (n < 2 || !tk[0].has_ota || !tk[1].has_ota || S <= 0.0))
		m = SPLIT_BOUND;
	if (n != 2)
		m = SPLIT_NONE;
	if (m == SPLIT_NONE)
		cf->neither = cf->t0_only = cf->t1_only = cf->both = val_absent(R_NO_SPLIT);

	if (m == SPLIT_ANY || m == SPLIT_OTA) {
		double r0 = (double)tk[0].ref, r1 = (double)tk[1].ref, busy, mism;

		if (m == SPLIT_ANY)
			split_from_any(T, r0, r1, (double)tk[0].any * S, f, &cf->inconsistency);
		else
			split_from_ota(T, r0, r1, (double)tk[0].ota * S, (double)tk[1].ota * S, f,
			    &cf->inconsistency, &mism);
		cf->split = m;
		cf->exact = true;
		cf->neither = val_exact(f[0]);
		cf->t0_only = val_exact(f[1]);
		cf->t1_only = val_exact(f[2]);
		cf->both = val_exact(f[3]);
		busy = 1.0 - f[0];
		cf->util = val_exact(busy);
		cf->active_threads = busy > 0.0 ? val_exact((f[1] + f[2] + 2.0 * f[3]) / busy) :
		    val_absent(R_NOT_HALTED_ZERO);
		return;
	}

	for (i = 0; i < n; i++) {
		double u = (double)tk[i].ref / T;

		u = u > 1.0 ? 1.0 : u;
		umax = dmax(umax, u);
		usum += u;
	}
	if (m == SPLIT_BOUND) {
		/* Each thread's utilisation over its own dTSC: right even when
		 * the siblings were read some way apart. */
		split_bound((double)tk[0].ref / T, (double)tk[1].ref / (double)tk[1].tsc, lo, hi);
		cf->split = SPLIT_BOUND;
		cf->neither = val_tight(lo[0], hi[0]);
		cf->t0_only = val_tight(lo[1], hi[1]);
		cf->t1_only = val_tight(lo[2], hi[2]);
		cf->both = val_tight(lo[3], hi[3]);
		/* A thread idle or busy all the time leaves no doubt. */
		cf->exact = cf->both.kind == V_EXACT;
	}
	if (c->slot[SLOT_REF] < 0) {
		core_why(cf, R_UNAVAILABLE);
		return;
	}
	cf->active_threads = val_absent(R_NOT_HALTED_ZERO);
	if (n == 1) {
		cf->util = val_exact(umax);
		if (umax > 0.0)
			cf->active_threads = val_exact(1.0);
		return;
	}
	/* Busy at least as long as the busiest thread, at most all of them
	 * one after the other. */
	cf->util = val_tight(umax, dmin(1.0, usum));
	if (umax > 0.0)
		cf->active_threads = val_tight(usum / dmin(1.0, usum), usum / umax);
}

/* Frequency, CPI and issue utilisation of the core. */
static void
core_rates(const struct metrics_ctx *c, const struct tcounts *tk, unsigned n,
    struct core_fig *cf)
{
	double cyc = 0, ref = 0, inst = 0, T = (double)tk[0].tsc, per_tick, lo, hi;
	unsigned i;

	if (c->slot[SLOT_CYCLES] < 0 || c->slot[SLOT_REF] < 0) {
		cf->ghz = cf->cpi = cf->issue_util = val_absent(missing_reason(c));
		return;
	}
	for (i = 0; i < n; i++) {
		cyc += (double)tk[i].cyc;
		ref += (double)tk[i].ref;
		inst += (double)tk[i].inst;
	}
	if (cf->util.kind == V_NONE) {
		cf->ghz = cf->cpi = cf->issue_util = cf->util;
		return;
	}
	if (ref <= 0.0) {
		cf->ghz = cf->cpi = cf->issue_util = val_absent(R_NOT_HALTED_ZERO);
		return;
	}
	per_tick = cyc / ref;
	cf->ghz = c->base_hz > 0.0 ? val_exact(per_tick * c->base_hz / 1e9) : val_absent(R_NO_BASE);
	lo = cf->util.lo * T * per_tick;   /* core cycles while active */
	hi = cf->util.hi * T * per_tick;
	if (c->slot[SLOT_INST] < 0 || inst <= 0.0) {
		cf->cpi = cf->issue_util = val_absent(c->slot[SLOT_INST] < 0 ? R_UNAVAILABLE : R_NO_INST);
		return;
	}
	cf->cpi = cf->util.kind == V_EXACT ? val_exact(lo / inst) : val_bound(lo / inst, hi / inst);
	if (c->issue_width == 0 || lo <= 0.0) {
		cf->issue_util = val_absent(c->issue_width == 0 ? R_UNAVAILABLE : R_NOT_HALTED_ZERO);
		return;
	}
	if (cf->util.kind == V_EXACT)
		cf->issue_util = val_exact(inst / (lo * c->issue_width));
	else
		cf->issue_util = val_bound(inst / (hi * c->issue_width), inst / (lo * c->issue_width));
}

static void
core_truth(const struct sample *prev, const struct sample *cur, unsigned ci, double T,
    struct core_fig *cf)
{
	int k;

	if (prev == NULL || prev->truth == NULL || cur->truth == NULL || ci >= cur->ncores ||
	    ci >= prev->ncores || T <= 0.0)
		return;
	cf->has_truth = true;
	for (k = 0; k < 4; k++)
		cf->truth[k] = (double)(cur->truth[ci * 4 + k] - prev->truth[ci * 4 + k]) / T;
}

/* The TSC rate for the stop thresholds: the base clock when known, else
 * what the TSC did over the interval's wall time, else the highest clock
 * httop believes (the largest threshold: the fewest calls). */
static double
tsc_rate(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    uint64_t dtsc)
{
	double dt = prev != NULL ? cur->time - prev->time : 0.0;

	if (c->base_hz > 0.0)
		return c->base_hz;
	if (dt > 0.0 && dtsc > 0)
		return (double)dtsc / dt;
	return METRICS_MAX_HZ;
}

/* Each thread's stopped counters (thread_fig.stopped), from the plan's
 * partners over this interval, with what the caller knew stopped before.
 * Only a thread with a read counter still (delta 0) can have one. */
static void
find_stopped(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    const struct topo_core *tc, unsigned n, const struct slot_deltas *sd, uint64_t dtsc,
    struct interval *iv)
{
	double hz = 0.0, skew = c->tol.rel * (double)dtsc;
	unsigned i, moved = 0, notsc = c->slot[SLOT_TSC] >= 0 ? ~(1u << c->slot[SLOT_TSC]) : ~0u;

	/* A core halted all along (nothing but its TSC moved) is the common
	 * idle case: no partner advanced, so nothing can have stopped. */
	for (i = 0; i < n; i++)
		moved |= sd[i].read & ~sd[i].still & notsc;
	for (i = 0; i < n; i++) {
		unsigned cpu = tc->cpus[i];

		iv->threads[cpu].stopped = 0;
		if ((sd[i].still & notsc) != 0 && moved != 0) {
			if (hz == 0.0)
				hz = tsc_rate(c, prev, cur, dtsc);
			iv->threads[cpu].stopped = metrics_stopped_kinds(c->plan, sd, n, i, hz, skew);
		}
		if (c->stopped_in != NULL)
			iv->threads[cpu].stopped |= c->stopped_in[cpu];
	}
}

/* A core's figures from a stopped counter: absent with R_STOPPED. */
static void
core_stopped(struct core_fig *cf)
{
	if (cf->stopped & (KIND_BIT(SLOT_INST) | KIND_BIT(SLOT_CYCLES)))
		cf->cpi = cf->issue_util = val_absent(R_STOPPED);
	if (cf->stopped & KIND_BIT(SLOT_CYCLES))
		cf->ghz = val_absent(R_STOPPED);
}

/* The core's threads lose their figures to reason r (their stopped
 * counters are moot then). */
static void
core_invalid(struct interval *iv, const struct topo_core *tc, unsigned n, enum reason r,
    bool threads)
{
	struct core_fig *cf = &iv->cores[tc->index];
	unsigned i;

	cf->reason = r;
	core_blank(cf, r);
	if (!threads)
		return;
	cf->stopped = 0;
	for (i = 0; i < n; i++) {
		thread_blank(&iv->threads[tc->cpus[i]], r);
		iv->threads[tc->cpus[i]].stopped = 0;
	}
}

/* Why the core has no figures at all this interval (not read, not
 * selected, time backwards), or R_NONE. Sets cf->selected. */
static enum reason
core_unusable(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    const struct topo_core *tc, unsigned n, struct core_fig *cf)
{
	const struct topology *t = &c->m->topo;
	bool selected = false;
	enum reason r;
	unsigned i;

	for (i = 0; i < n; i++)
		if (cur->state[tc->cpus[i]] != CPU_NOT_READ)
			selected = true;
	if (!selected || n == 0) {
		cf->selected = false;
		return R_NOT_SELECTED;
	}
	r = read_reason(t, tc, prev, cur);
	if (r == R_NONE && c->slot[SLOT_TSC] < 0)
		r = R_UNAVAILABLE;
	/* Samples out of order: their counters, or their times (a trace's
	 * time= edited or spliced: the interval would be shown negative or
	 * empty beside figures of the counters' own time). */
	if (r == R_NONE && (tsc_backwards(c, prev, cur, tc, n) || !(cur->time > prev->time)))
		r = R_TIME_BACK;
	return r;
}

/* Each thread's counter deltas, by kind. */
static void
core_counts(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    const struct topo_core *tc, unsigned n, struct slot_deltas *sd, struct tcounts *tk)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct tcounts *k = &tk[i];

		k->cpu = tc->cpus[i];
		thread_deltas(c->plan, prev, cur, k->cpu, i, &sd[i]);
		kind_delta(c, &sd[i], SLOT_TSC, &k->tsc);
		kind_delta(c, &sd[i], SLOT_INST, &k->inst);
		kind_delta(c, &sd[i], SLOT_CYCLES, &k->cyc);
		kind_delta(c, &sd[i], SLOT_REF, &k->ref);
		k->has_any = kind_delta(c, &sd[i], SLOT_ANY, &k->any);
		k->has_ota = kind_delta(c, &sd[i], SLOT_OTA, &k->ota);
		k->has_steal = kind_delta(c, &sd[i], SLOT_STEAL, &k->steal);
		k->has_job = kind_delta(c, &sd[i], SLOT_JOB, &k->job);
		kind_delta(c, &sd[i], SLOT_JOB_BOTH, &k->jboth);
		kind_delta(c, &sd[i], SLOT_JOB_ALONE, &k->jalone);
		kind_delta(c, &sd[i], SLOT_JOB_SHARED, &k->jshared);
	}
}

/* The split counter's count is not the split's (it stood still or was
 * reprogrammed): the threads keep none (thread_fig.has_split). */
static void
no_split_count(struct interval *iv, const struct topo_core *tc, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		iv->threads[tc->cpus[i]].has_split = false;
}

/* The threads' own figures. Returns true when a split counter stopped:
 * it is then not used (the split is the bound from the utilisations, as
 * for a reprogrammed one). */
static bool
core_threads(const struct metrics_ctx *c, const struct sample *cur, const struct topo_core *tc,
    unsigned n, struct tcounts *tk, struct interval *iv)
{
	struct core_fig *cf = &iv->cores[tc->index];
	bool split_stopped = false;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct thread_fig *tf = &iv->threads[tc->cpus[i]];

		tf->d_tsc = tk[i].tsc;
		tf->d_inst = tk[i].inst;
		tf->d_cyc = tk[i].cyc;
		tf->d_ref = tk[i].ref;
		tf->d_steal = tk[i].steal;
		tf->has_steal = tk[i].has_steal;
		tf->d_job = tk[i].job;
		tf->has_job = tk[i].has_job;
		tf->has_split = tk[i].has_any || tk[i].has_ota;
		/* The split counters count in steps of `scale` TSC ticks. */
		tf->d_split = (tk[i].has_any ? tk[i].any : tk[i].has_ota ? tk[i].ota : 0) *
		    (uint64_t)(c->plan->scale != 0 ? c->plan->scale : 1);
		thread_figures(c, tf);
		/* Multiplexed counts (perf): estimates, marked as such. */
		tf->scaled = cur->scaled != NULL && cur->scaled[tk[i].cpu] != 0;
		cf->scaled = cf->scaled || tf->scaled;
		cf->stopped |= tf->stopped;
		if (tf->stopped & (KIND_BIT(SLOT_ANY) | KIND_BIT(SLOT_OTA)))
			split_stopped = true;
	}
	if (split_stopped) {
		for (i = 0; i < n; i++)
			tk[i].has_any = tk[i].has_ota = false;
		no_split_count(iv, tc, n);
	}
	return split_stopped;
}

/* The job's split of the core's interval T (thread 0's): the counts of
 * the merge (src/source/sched/sched_merge.c) over T, none the rest, so the four
 * sum to 1. Absent without the job's slots (R_NO_JOB) and on a core of
 * one thread (R_NO_SPLIT: no sibling to share it with; its job_util
 * says it all). */
static void
core_job(const struct metrics_ctx *c, const struct tcounts *tk, unsigned n, struct core_fig *cf)
{
	double T = (double)tk[0].tsc, b, a, s, rest;

	if (c->slot[SLOT_JOB_BOTH] < 0 || !tk[0].has_job) {
		cf->job_both = cf->job_alone = cf->job_shared = cf->job_none = val_absent(R_NO_JOB);
		return;
	}
	if (n < 2 || T <= 0.0) {
		cf->job_both = cf->job_alone = cf->job_shared = cf->job_none =
		    val_absent(n < 2 ? R_NO_SPLIT : R_NO_TIME);
		return;
	}
	b = (double)tk[0].jboth / T;
	a = (double)tk[0].jalone / T;
	s = (double)tk[0].jshared / T;
	rest = 1.0 - b - a - s;
	cf->job_both = val_exact(b);
	cf->job_alone = val_exact(a);
	cf->job_shared = val_exact(s);
	cf->job_none = val_exact(rest > 0.0 ? rest : 0.0);
}

/* The core's split and rates by `method`, its stopped counters and the
 * simulator's truth. */
static void
core_figures(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    const struct tcounts *tk, unsigned n, enum split_method method, struct core_fig *cf)
{
	split_core(c, tk, n, method, cf);
	core_rates(c, tk, n, cf);
	core_stopped(cf);
	core_truth(prev, cur, cf->index, (double)tk[0].tsc, cf);
	core_job(c, tk, n, cf);
}

void
core_compute(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    unsigned ci, struct interval *iv)
{
	const struct topo_core *tc = &c->m->topo.cores[ci];
	struct core_fig *cf = &iv->cores[ci];
	struct tcounts tk[TOPO_MAX_SMT];
	struct slot_deltas sd[TOPO_MAX_SMT];
	unsigned n = tc->nthreads > TOPO_MAX_SMT ? TOPO_MAX_SMT : tc->nthreads;
	bool exact_plan, split_stopped, threads_ok;
	double tol, mismatch;
	enum reason r;

	core_reset(cf, ci);
	r = core_unusable(c, prev, cur, tc, n, cf);
	if (r != R_NONE) {
		core_invalid(iv, tc, r == R_NOT_SELECTED ? 0 : n, r, r != R_NOT_SELECTED);
		return;
	}
	core_counts(c, prev, cur, tc, n, sd, tk);
	find_stopped(c, prev, cur, tc, n, sd, tk[0].tsc, iv);
	split_stopped = core_threads(c, cur, tc, n, tk, iv);
	/* Without a reference clock there is no utilisation, so no split and
	 * no core figure; the threads keep what the other counters give. */
	if (cf->stopped & KIND_BIT(SLOT_REF)) {
		core_invalid(iv, tc, n, R_STOPPED, false);
		return;
	}

	tol = c->tol.rel * (double)tk[0].tsc +
	    (double)c->tol.abs_ticks_per_scale * (double)(c->plan->scale ? c->plan->scale : 1);
	r = check(c, tk, n, tol, &mismatch, &threads_ok);
	/* Only a plan with an exact split has one to fall back from. */
	exact_plan = n == 2 && (c->plan->split == SPLIT_ANY || c->plan->split == SPLIT_OTA);
	if (r != R_NONE && threads_ok && exact_plan && tk[0].tsc > 0 && tk[1].tsc > 0) {
		/* Only the split's own counter failed: the fixed counters still
		 * bound the split; show that, and say why it is not exact. */
		cf->fallback = r;
		no_split_count(iv, tc, n);
		core_figures(c, prev, cur, tk, n, SPLIT_BOUND, cf);
		return;
	}
	if (r != R_NONE) {
		core_invalid(iv, tc, n, r, !threads_ok);
		return;
	}
	if (split_stopped && exact_plan)
		cf->fallback = R_STOPPED;
	core_figures(c, prev, cur, tk, n, c->plan->split, cf);
	if (mismatch > cf->inconsistency)
		cf->inconsistency = mismatch;
}
