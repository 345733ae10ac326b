/* thread.c: per-thread figures from the fixed counters (Intel) or
 * APERF/MPERF/IRPerfCount (AMD), doc/hardware.md section 2. */
#include "config.h"
#include "metrics/internal.h"

void
thread_blank(struct thread_fig *t, enum reason r)
{
	t->reason = r;
	t->util = t->cpi = t->nominal_cpi = val_none();
	t->ghz = t->net_ghz = t->ipc = val_none();
}

static bool
has(const struct metrics_ctx *c, enum slot_kind k)
{
	return c->slot[k] >= 0;
}

void
thread_figures(const struct metrics_ctx *c, struct thread_fig *t)
{
	double tsc = (double)t->d_tsc, inst = (double)t->d_inst;
	double cyc = (double)t->d_cyc, ref = (double)t->d_ref;
	double base_ghz = c->base_hz / 1e9;

	thread_blank(t, R_NONE);
	if (t->d_tsc == 0) {
		t->reason = R_NO_TIME;
		return;
	}
	if (has(c, SLOT_REF)) {
		double u = ref / tsc;

		/* Read skew can put ref a hair above the TSC; the core checks
		 * decide whether that is within tolerance. */
		t->util = val_exact(u > 1.0 ? 1.0 : u);
	}
	if (has(c, SLOT_INST) && t->d_inst != 0) {
		t->nominal_cpi = val_exact(tsc / inst);
		if (has(c, SLOT_CYCLES))
			t->cpi = val_exact(cyc / inst);
	}
	if (has(c, SLOT_CYCLES) && base_ghz > 0.0) {
		t->net_ghz = val_exact(cyc / tsc * base_ghz);
		if (has(c, SLOT_REF) && t->d_ref != 0)
			t->ghz = val_exact(cyc / ref * base_ghz);
	}
	if (has(c, SLOT_INST) && has(c, SLOT_CYCLES) && t->d_cyc != 0)
		t->ipc = val_exact(inst / cyc);
}

enum reason
metrics_thread_reason(const struct metrics_ctx *c, const struct thread_fig *t,
    const struct val *v)
{
	if (t->reason != R_NONE)
		return t->reason;
	if (v->kind != V_NONE)
		return R_NONE;
	if (v == &t->util)
		return R_UNAVAILABLE;
	if (v == &t->cpi || v == &t->nominal_cpi) {
		if (!has(c, SLOT_INST) || (v == &t->cpi && !has(c, SLOT_CYCLES)))
			return R_UNAVAILABLE;
		return R_NO_INST;
	}
	if (v == &t->ipc) {
		if (!has(c, SLOT_INST) || !has(c, SLOT_CYCLES))
			return R_UNAVAILABLE;
		return R_NOT_HALTED_ZERO;
	}
	if (v == &t->ghz || v == &t->net_ghz) {
		if (!has(c, SLOT_CYCLES) || (v == &t->ghz && !has(c, SLOT_REF)))
			return R_UNAVAILABLE;
		if (c->base_hz <= 0.0)
			return R_NO_BASE;
		return R_NOT_HALTED_ZERO;
	}
	return R_UNAVAILABLE;
}
