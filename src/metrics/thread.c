/* thread.c: per-thread figures from the fixed counters (Intel) or
 * APERF/MPERF/IRPerfCount (AMD), doc/hardware.md section 2. Every figure
 * that cannot be computed is absent with the reason it cannot. */
#include "config.h"
#include "metrics/internal.h"

void
thread_blank(struct thread_fig *t, enum reason r)
{
	t->reason = r;
	t->util = t->cpi = t->nominal_cpi = val_absent(r);
	t->ghz = t->net_ghz = t->ipc = t->steal = t->job_util = val_absent(r);
	t->gips = val_absent(r);
}

static bool
has(const struct metrics_ctx *c, enum slot_kind k)
{
	return c->slot[k] >= 0;
}

/* A ratio num / den of counters, times `scale`: absent when a counter is
 * missing from the plan, stopped, the scale (base clock) unknown, or the
 * denominator zero, in that order. */
static struct val
ratio(const struct metrics_ctx *c, const struct thread_fig *t, enum slot_kind nk,
    enum slot_kind dk, double num, double den, double scale, enum reason zero)
{
	if (!has(c, nk) || !has(c, dk))
		return val_absent(missing_reason(c));
	if (t->stopped & (KIND_BIT(nk) | KIND_BIT(dk)))
		return val_absent(R_STOPPED);
	if (scale <= 0.0)
		return val_absent(R_NO_BASE);
	if (den <= 0.0)
		return val_absent(zero);
	return val_exact(num / den * scale);
}

/* The job's share of the thread's interval: only the scheduler's record
 * with a watched job has it (its slot); never the CPU's utilisation in
 * its place. */
static void
thread_job(const struct metrics_ctx *c, struct thread_fig *t)
{
	double tsc = (double)t->d_tsc, job = (double)t->d_job;

	t->job_s = c->plan->clock_hz > 0.0 ? job / c->plan->clock_hz : 0.0;
	if (!has(c, SLOT_JOB) || c->plan->clock_hz <= 0.0)
		t->job_util = val_absent(R_NO_JOB);
	else if (t->has_job)
		t->job_util = ratio(c, t, SLOT_JOB, SLOT_TSC, job > tsc ? tsc : job, tsc, 1.0,
		    R_NO_TIME);
	else
		t->job_util = val_absent(R_READ_ERROR);
}

void
thread_figures(const struct metrics_ctx *c, struct thread_fig *t)
{
	double tsc = (double)t->d_tsc, inst = (double)t->d_inst;
	double cyc = (double)t->d_cyc, ref = (double)t->d_ref, steal = (double)t->d_steal;
	double base_ghz = c->base_hz / 1e9;

	/* Every figure is set below (or by the blank): no blank first. */
	t->reason = R_NONE;
	if (t->d_tsc == 0) {
		thread_blank(t, R_NO_TIME);
		return;
	}
	/* Read skew can put ref a hair above the TSC; the core checks decide
	 * whether that is within tolerance. */
	t->util = ratio(c, t, SLOT_REF, SLOT_TSC, ref > tsc ? tsc : ref, tsc, 1.0, R_NO_TIME);
	t->cpi = ratio(c, t, SLOT_CYCLES, SLOT_INST, cyc, inst, 1.0, R_NO_INST);
	t->nominal_cpi = ratio(c, t, SLOT_TSC, SLOT_INST, tsc, inst, 1.0, R_NO_INST);
	t->ghz = ratio(c, t, SLOT_CYCLES, SLOT_REF, cyc, ref, base_ghz, R_NOT_HALTED_ZERO);
	t->net_ghz = ratio(c, t, SLOT_CYCLES, SLOT_TSC, cyc, tsc, base_ghz, R_NOT_HALTED_ZERO);
	t->ipc = ratio(c, t, SLOT_INST, SLOT_CYCLES, inst, cyc, 1.0, R_NOT_HALTED_ZERO);
	/* Instructions per second of the whole interval (halted time
	 * included), in billions: dinst / dTSC x base = IPC x net GHz. */
	t->gips = ratio(c, t, SLOT_INST, SLOT_TSC, inst, tsc, base_ghz, R_NO_TIME);
	/* Steal time: only a source that reads it (procstat) has it; a
	 * reading's rounding to the tick may put it a hair above the
	 * interval, as the busy time. */
	if (!has(c, SLOT_STEAL))
		t->steal = val_absent(R_NO_STEAL);
	else if (t->has_steal)
		t->steal = ratio(c, t, SLOT_STEAL, SLOT_TSC, steal > tsc ? tsc : steal, tsc, 1.0,
		    R_NO_TIME);
	else
		t->steal = val_absent(R_READ_ERROR);
	thread_job(c, t);
}

enum reason
metrics_thread_reason(const struct metrics_ctx *c, const struct thread_fig *t,
    const struct val *v)
{
	(void)c;
	if (t->reason != R_NONE)
		return t->reason;
	if (v->kind != V_NONE)
		return R_NONE;
	return v->why != R_NONE ? v->why : R_UNAVAILABLE;
}
