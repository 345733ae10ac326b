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
	uint64_t tsc, inst, cyc, ref, any, ota;
	bool has_any, has_ota;
};

static bool
slot_delta(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    unsigned cpu, unsigned thread, enum slot_kind k, uint64_t *d)
{
	int s = c->slot[k];
	const struct plan_slot *ps;

	*d = 0;
	if (s < 0)
		return false;
	ps = &c->plan->slots[s];
	if (!plan_slot_on_thread(ps, thread))
		return false;
	*d = counter_delta(sample_row_c(prev, cpu)[s], sample_row_c(cur, cpu)[s], ps->width);
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

static void
core_reset(struct core_fig *cf, unsigned ci)
{
	memset(cf, 0, sizeof *cf);
	cf->index = ci;
	cf->reason = R_NONE;
	cf->fallback = R_NONE;
	cf->selected = true;
	cf->split = SPLIT_NONE;
	cf->neither = cf->t0_only = cf->t1_only = cf->both = val_none();
	cf->util = cf->active_threads = cf->issue_util = val_none();
	cf->cpi = cf->ghz = val_none();
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
		if (busy > 0.0)
			cf->active_threads = val_exact((f[1] + f[2] + 2.0 * f[3]) / busy);
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
	if (c->slot[SLOT_REF] < 0)
		return;
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

	if (c->slot[SLOT_CYCLES] < 0 || c->slot[SLOT_REF] < 0)
		return;
	for (i = 0; i < n; i++) {
		cyc += (double)tk[i].cyc;
		ref += (double)tk[i].ref;
		inst += (double)tk[i].inst;
	}
	if (ref <= 0.0 || cf->util.kind == V_NONE)
		return;
	per_tick = cyc / ref;
	if (c->base_hz > 0.0)
		cf->ghz = val_exact(per_tick * c->base_hz / 1e9);
	lo = cf->util.lo * T * per_tick;   /* core cycles while active */
	hi = cf->util.hi * T * per_tick;
	if (c->slot[SLOT_INST] < 0 || inst <= 0.0)
		return;
	cf->cpi = cf->util.kind == V_EXACT ? val_exact(lo / inst) : val_bound(lo / inst, hi / inst);
	if (c->issue_width == 0 || lo <= 0.0)
		return;
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

void
core_compute(const struct metrics_ctx *c, const struct sample *prev, const struct sample *cur,
    unsigned ci, struct interval *iv)
{
	const struct topology *t = &c->m->topo;
	const struct topo_core *tc = &t->cores[ci];
	struct core_fig *cf = &iv->cores[ci];
	struct tcounts tk[TOPO_MAX_SMT];
	unsigned n = tc->nthreads > TOPO_MAX_SMT ? TOPO_MAX_SMT : tc->nthreads, i;
	bool selected = false;
	double tol, mismatch;
	bool threads_ok;
	enum reason r;

	core_reset(cf, ci);
	for (i = 0; i < n; i++)
		if (cur->state[tc->cpus[i]] != CPU_NOT_READ)
			selected = true;
	if (!selected || n == 0) {
		cf->selected = false;
		cf->reason = R_NOT_SELECTED;
		return;
	}
	r = read_reason(t, tc, prev, cur);
	if (r == R_NONE && c->slot[SLOT_TSC] < 0)
		r = R_UNAVAILABLE;
	if (r == R_NONE && tsc_backwards(c, prev, cur, tc, n))
		r = R_TIME_BACK;
	if (r != R_NONE) {
		cf->reason = r;
		for (i = 0; i < n; i++)
			thread_blank(&iv->threads[tc->cpus[i]], r);
		return;
	}

	for (i = 0; i < n; i++) {
		struct tcounts *k = &tk[i];
		struct thread_fig *tf = &iv->threads[tc->cpus[i]];

		k->cpu = tc->cpus[i];
		slot_delta(c, prev, cur, k->cpu, i, SLOT_TSC, &k->tsc);
		slot_delta(c, prev, cur, k->cpu, i, SLOT_INST, &k->inst);
		slot_delta(c, prev, cur, k->cpu, i, SLOT_CYCLES, &k->cyc);
		slot_delta(c, prev, cur, k->cpu, i, SLOT_REF, &k->ref);
		k->has_any = slot_delta(c, prev, cur, k->cpu, i, SLOT_ANY, &k->any);
		k->has_ota = slot_delta(c, prev, cur, k->cpu, i, SLOT_OTA, &k->ota);
		tf->d_tsc = k->tsc;
		tf->d_inst = k->inst;
		tf->d_cyc = k->cyc;
		tf->d_ref = k->ref;
		thread_figures(c, tf);
		/* Multiplexed counts (perf): estimates, marked as such. */
		tf->scaled = cur->scaled != NULL && cur->scaled[k->cpu] != 0;
		cf->scaled = cf->scaled || tf->scaled;
	}

	tol = c->tol.rel * (double)tk[0].tsc +
	    (double)c->tol.abs_ticks_per_scale * (double)(c->plan->scale ? c->plan->scale : 1);
	r = check(c, tk, n, tol, &mismatch, &threads_ok);
	/* Only a plan with an exact split has one to fall back from. */
	if (r != R_NONE && threads_ok && n == 2 &&
	    (c->plan->split == SPLIT_ANY || c->plan->split == SPLIT_OTA) &&
	    tk[0].tsc > 0 && tk[1].tsc > 0) {
		/* Only the split's own counter failed: the fixed counters still
		 * bound the split; show that, and say why it is not exact. */
		cf->fallback = r;
		split_core(c, tk, n, SPLIT_BOUND, cf);
		core_rates(c, tk, n, cf);
		core_truth(prev, cur, ci, (double)tk[0].tsc, cf);
		return;
	}
	if (r != R_NONE) {
		cf->reason = r;
		if (!threads_ok)
			for (i = 0; i < n; i++)
				thread_blank(&iv->threads[tc->cpus[i]], r);
		return;
	}
	split_core(c, tk, n, c->plan->split, cf);
	if (mismatch > cf->inconsistency)
		cf->inconsistency = mismatch;
	core_rates(c, tk, n, cf);
	core_truth(prev, cur, ci, (double)tk[0].tsc, cf);
}
