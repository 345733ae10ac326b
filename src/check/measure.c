/* measure.c: the figures of one case on one core, and the rows that judge
 * them (measure.h). Every expectation and tolerance is worked out here
 * from the case, the load's own account and the reads' timing; httop(1),
 * CHECK, says the same in words. */
#include "config.h"
#include "check/measure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

/* A load that wakes this late, on average, as a fraction of the period, is
 * not running the schedule (another task holds its CPU). */
#define CHECK_LATE_MAX 0.05

static double
extra_ghz(const struct sample *prev, const struct sample *cur, unsigned cpu,
    const struct check_extra_slots *x, double base_hz)
{
	uint64_t a, m;

	if (x == NULL || x->aperf < 0 || x->mperf < 0 || base_hz <= 0.0 ||
	    (unsigned)x->aperf >= cur->nslots || (unsigned)x->mperf >= cur->nslots)
		return 0.0;
	/* 64-bit counters that start far from wrapping. */
	a = counter_delta(sample_row_c(prev, cpu)[x->aperf], sample_row_c(cur, cpu)[x->aperf], 64);
	m = counter_delta(sample_row_c(prev, cpu)[x->mperf], sample_row_c(cur, cpu)[x->mperf], 64);
	return m > 0 ? (double)a / (double)m * base_hz / 1e9 : 0.0;
}

void
check_meas_from_interval(struct check_meas *m, const struct interval *iv,
    const struct metrics_ctx *mc, const struct topology *t, unsigned core,
    const struct sample *prev, const struct sample *cur, const struct check_extra_slots *x)
{
	const struct core_fig *cf = &iv->cores[core];
	const struct topo_core *tc = &t->cores[core];
	unsigned i;

	m->core = core;
	m->nthreads = tc->nthreads;
	m->reason = cf->reason;
	m->fallback = cf->fallback;
	m->share[CHECK_NEITHER] = cf->neither;
	m->share[CHECK_T0_ONLY] = cf->t0_only;
	m->share[CHECK_T1_ONLY] = cf->t1_only;
	m->share[CHECK_BOTH] = cf->both;
	m->dt = iv->dt;
	m->base_hz = mc->base_hz;
	m->has_cycles = mc->slot[SLOT_CYCLES] >= 0;
	m->has_inst = mc->slot[SLOT_INST] >= 0;
	m->inst_may_be_off = m->has_inst && mc->plan->slots[mc->slot[SLOT_INST]].msr == MSR_AMD_IRPERF;
	m->split_given = tc->nthreads == 2 && mc->plan->split != SPLIT_NONE;
	for (i = 0; i < 2; i++) {
		struct check_thread_meas *tm = &m->t[i];
		const struct thread_fig *tf;

		if (i >= tc->nthreads || tc->cpus[i] >= iv->max_cpu) {
			tm->reason = R_UNAVAILABLE;
			tm->util = tm->cpi = tm->ghz = val_none();
			continue;
		}
		tf = &iv->threads[tc->cpus[i]];
		tm->cpu = tc->cpus[i];
		tm->reason = tf->reason;
		tm->util = tf->util;
		tm->cpi = tf->cpi;
		tm->ghz = tf->ghz;
		tm->d_inst = tf->d_inst;
		tm->d_tsc = tf->d_tsc;
		tm->offline = (prev != NULL && tm->cpu < prev->max_cpu &&
		    prev->state[tm->cpu] == CPU_OFFLINE) ||
		    (cur != NULL && tm->cpu < cur->max_cpu && cur->state[tm->cpu] == CPU_OFFLINE);
		tm->has_aperf = x != NULL && x->aperf >= 0 && x->mperf >= 0;
		tm->aperf_ghz = tf->reason == R_NONE ?
		    extra_ghz(prev, cur, tm->cpu, x, mc->base_hz) : 0.0;
	}
}

double
check_loop_ghz(uint64_t iterations, double busy_s)
{
	if (busy_s <= 0.0 || iterations == 0)
		return 0.0;
	return (double)iterations * CHECK_LOOP_CHAIN_CYCLES / busy_s / 1e9;
}

/* Rows are added through this, which stops at the end of the array. */
struct rows {
	struct check_row *r;
	unsigned n, max;
};

static struct check_row *
add(struct rows *rs, enum check_family f, const char *figure, const char *basis, int thread)
{
	struct check_row *r;

	if (rs->n >= rs->max)
		return NULL;
	r = &rs->r[rs->n++];
	memset(r, 0, sizeof *r);
	r->family = f;
	r->figure = figure;
	r->basis = basis;
	r->thread = thread;
	r->reason = R_NONE;
	return r;
}

static void
set_exact(struct check_row *r, double v, struct val m, double tol)
{
	r->expect = CE_EXACT;
	r->lo = r->hi = v;
	r->measured = m;
	r->tol = tol;
}

/* The mean error of a thread's window edges in one period, s: how late it
 * woke, how far it ran over, and the kernel's way into idle. Nothing where
 * the source plays the schedule (its edges are exact) or where the window
 * has no edges. */
static double
edge_error(const struct check_case *c, const struct check_meas *m, unsigned th)
{
	const struct check_load_meas *l = &m->t[th].load;

	if (!check_window_has_edges(&c->w[th]) || !l->ran)
		return 0.0;
	return l->late_s + l->over_s + CHECK_IDLE_ENTRY_S;
}

/* What the kernel saw thread th's CPU held for: busy, and where the
 * source counts a stolen moment as the task's (sched), the steal too.
 * Else other work hidden in the steal goes unseen: a VM's host took 52%
 * of a CPU, /proc/stat said 20% busy, the scheduler 59% where the load ran
 * 50%. */
static double
os_held(const struct check_load_meas *l, const struct check_context *x)
{
	return l->os_busy + (!x->steal_hidden && l->steal_known ? l->os_steal : 0.0);
}

/* With a source that counts any task (any_task), the share of thread
 * th's CPU the kernel saw busy beyond the load's window: other work, which
 * that source counts as the thread's. */
static double
other_work(const struct check_case *c, const struct check_meas *m,
    const struct check_context *x, unsigned th)
{
	const struct check_load_meas *l = &m->t[th].load;
	double extra;

	if (!x->any_task || th >= m->nthreads || !l->os_known)
		return 0.0;
	/* /proc/stat's idle column (procstat.c) is exact on a tickless
	 * kernel, short tasks between ticks included, but printed in whole
	 * ticks: two readings' difference is off by less than one tick;
	 * two are allowed. Interrupts on an idle CPU are busy there and idle
	 * for the scheduler: they only make `extra` larger. */
	extra = os_held(l, x) - check_window_len(&c->w[th]);
	return (extra > 0.0 ? extra : 0.0) + x->os_granularity;
}

/* The share of thread th's CPU a hypervisor took, where the source does
 * not see the thread run then: its figures are short by as much. */
static double
stolen(const struct check_meas *m, const struct check_context *x, unsigned th)
{
	const struct check_load_meas *l = &m->t[th].load;

	if (!x->steal_hidden || th >= m->nthreads || !l->steal_known)
		return 0.0;
	return l->os_steal;
}

/* The tolerance of a share (th < 0: it rests on both threads) or of
 * thread th's utilisation against what the loads ran (m->ran), in its
 * parts: the source's floor, the window's ends, the bursts' edges, and
 * where the source counts any task, /proc/stat's ticks and the other
 * work it saw beyond what the loads ran; the steal the source cannot
 * see. */
static double
ran_tol(const struct check_meas *m, const struct check_context *x, int th,
    struct check_tol_parts *p)
{
	const struct check_ran *r = &m->ran;
	unsigned k, lo = th < 0 ? 0 : (unsigned)th, hi = th < 0 ? 2 : (unsigned)th + 1, edges = 0;

	memset(p, 0, sizeof *p);
	p->has = true;
	for (k = lo; k < hi && k < m->nthreads && k < 2; k++) {
		const struct check_load_meas *l = &m->t[k].load;

		edges += r->edges[k];
		if (x->floor_per_thread || k == lo)
			p->floor += x->src_floor;
		p->steal += stolen(m, x, k);
		if (x->any_task && l->os_known) {
			p->granularity += x->os_granularity;
			p->other_work += fmax(0.0, os_held(l, x) - r->util[k]);
		}
	}
	(void)check_tol_ran(r->read_err, edges, r->to - r->from, p);
	return check_tol_parts_sum(p);
}

/* A row expected as the loads ran it, the case's value beside it. */
static void
set_ran(struct check_row *r, double ran, double sched, struct val m,
    const struct check_tol_parts *p)
{
	set_exact(r, ran, m, check_tol_parts_sum(p));
	r->has_schedule = true;
	r->schedule = sched;
	r->parts = *p;
}

static void
rows_split(struct rows *rs, const struct check_case *c, const struct check_meas *m,
    const struct check_context *x)
{
	static const char *const fig[4] = { "neither", "t0_only", "t1_only", "both" };
	struct check_tol_parts parts;
	double want[4], tol;
	unsigned k;

	if (!m->split_given)
		return;
	check_case_shares(c, want);
	if (m->ran.known) {
		(void)ran_tol(m, x, -1, &parts);
		for (k = 0; k < 4; k++) {
			struct check_row *r = add(rs, CF_SPLIT, fig[k], "loads", -1);

			if (r == NULL)
				return;
			set_ran(r, m->ran.share[k], want[k], m->share[k], &parts);
			r->reason = m->reason;
		}
		return;
	}
	tol = check_tol_share(&x->timing, edge_error(c, m, 0) + edge_error(c, m, 1)) +
	    other_work(c, m, x, 0) + other_work(c, m, x, 1) + stolen(m, x, 0) + stolen(m, x, 1);
	for (k = 0; k < 4; k++) {
		struct check_row *r = add(rs, CF_SPLIT, fig[k], "schedule", -1);

		if (r == NULL)
			return;
		set_exact(r, want[k], m->share[k], tol);
		r->reason = m->reason;
	}
}

/* Instructions and CPI from the loop (CL_THREADS): the loop retired
 * CHECK_LOOP_INST instructions an iteration, and its multiplies wait for
 * each other for CHECK_LOOP_CHAIN_CYCLES cycles at least. */
static void
rows_loop(struct rows *rs, const struct check_meas *m, unsigned th)
{
	const struct check_thread_meas *tm = &m->t[th];
	const struct check_load_meas *l = &tm->load;
	struct check_row *r;

	if (!l->ran || !l->loop_known || !m->has_inst)
		return;
	if ((r = add(rs, CF_INST, "instructions", "loop", (int)th)) == NULL)
		return;
	r->expect = CE_RANGE;
	r->lo = (double)l->iter_lo * CHECK_LOOP_INST;
	r->hi = (double)l->iter_hi * CHECK_LOOP_INST * (1.0 + CHECK_INST_ALLOWANCE);
	r->measured = tm->reason == R_NONE ? val_exact((double)tm->d_inst) : val_none();
	r->reason = tm->reason;
	r->tol = 0.0;
	if (tm->d_inst == 0 || (r = add(rs, CF_CPI, "cpi", "loop", (int)th)) == NULL)
		return;
	/* cycles >= chain x iterations, so CPI >= chain x iterations / instructions. */
	r->expect = CE_AT_LEAST;
	r->lo = (double)l->iter_lo * CHECK_LOOP_CHAIN_CYCLES / (double)tm->d_inst;
	r->measured = tm->cpi;
	r->reason = tm->reason;
	r->tol = r->lo * CHECK_TOL_FLOOR;
}

/* Instructions and CPI of a busy thread: from the loop, or the
 * simulator's IPC. */
static void
rows_inst(struct rows *rs, const struct check_meas *m, const struct check_context *x,
    unsigned th)
{
	const struct check_thread_meas *tm = &m->t[th];
	struct check_row *r;

	/* A counter that is off has nothing to check (measure.h). */
	if (!m->has_inst || (m->inst_may_be_off && tm->reason == R_NONE && tm->d_inst == 0))
		return;
	if (x->mode == CL_THREADS) {
		rows_loop(rs, m, th);
	} else if (x->mode == CL_SIM && (r = add(rs, CF_CPI, "cpi", "simulator", (int)th)) != NULL) {
		set_exact(r, x->sim_cpi, tm->cpi, x->sim_cpi * check_tol_rate(&x->timing));
		r->reason = tm->reason;
	}
}

static void
rows_thread(struct rows *rs, const struct check_case *c, const struct check_meas *m,
    const struct check_context *x, unsigned th)
{
	const struct check_thread_meas *tm = &m->t[th];
	double len = check_window_len(&c->w[th]), rate = check_tol_rate(&x->timing), v;
	struct check_row *r;

	if (th >= m->nthreads || th >= 2)
		return;
	if ((r = add(rs, CF_UTIL, "util", m->ran.known ? "loads" : "schedule", (int)th)) == NULL)
		return;
	if (m->ran.known) {
		struct check_tol_parts parts;

		(void)ran_tol(m, x, (int)th, &parts);
		set_ran(r, m->ran.util[th], len, tm->util, &parts);
	} else {
		set_exact(r, len, tm->util, check_tol_share(&x->timing, edge_error(c, m, th)) +
		    other_work(c, m, x, th) + stolen(m, x, th));
	}
	r->reason = tm->reason;
	if (len <= 0.0)
		return;
	rows_inst(rs, m, x, th);
	if (m->base_hz <= 0.0 || !m->has_cycles)
		return;
	if (x->mode == CL_SIM && (r = add(rs, CF_GHZ, "ghz", "simulator", (int)th)) != NULL) {
		set_exact(r, x->sim_ghz, tm->ghz, x->sim_ghz * rate);
		r->reason = tm->reason;
	}
	if (tm->has_aperf && tm->aperf_ghz > 0.0 &&
	    (r = add(rs, CF_GHZ, "ghz", "aperf_mperf", (int)th)) != NULL) {
		set_exact(r, tm->aperf_ghz, tm->ghz, tm->aperf_ghz * rate);
		r->reason = tm->reason;
	}
	v = check_loop_ghz(tm->load.iter_lo, tm->load.busy_s);
	if (x->mode == CL_THREADS && tm->load.loop_known && v > 0.0 &&
	    (r = add(rs, CF_GHZ, "ghz", "loop", (int)th)) != NULL) {
		r->expect = CE_AT_LEAST;
		r->lo = v;
		r->measured = tm->ghz;
		r->reason = tm->reason;
		r->tol = v * rate;
	}
}

/* The TSC over the nominal clock against the interval's length by the
 * clock the samples are timed with: the nominal clock behind every GHz. */
static void
rows_clock(struct rows *rs, const struct check_meas *m, const struct check_context *x)
{
	const struct check_thread_meas *tm = &m->t[0];
	struct check_row *r;

	if (x->no_tsc || m->base_hz <= 0.0 || m->dt <= 0.0 ||
	    (r = add(rs, CF_CLOCK, "tsc_rate", "clock", 0)) == NULL)
		return;
	set_exact(r, 1.0, tm->reason == R_NONE && tm->d_tsc > 0 ?
	    val_exact((double)tm->d_tsc / m->base_hz / m->dt) : val_none(), check_tol_rate(&x->timing));
	r->reason = tm->reason;
}

/* Why the figures cannot test httop, if they cannot. */
static void
disturbance(const struct check_case *c, const struct check_meas *m,
    const struct check_context *x, struct check_disturbance *d)
{
	unsigned th;

	memset(d, 0, sizeof *d);
	/* A CPU that went away (or was not back) tested nothing: whatever
	 * else the figures show follows from that. */
	for (th = 0; th < 2 && th < m->nthreads; th++) {
		if (m->t[th].offline || m->t[th].load.offline) {
			d->kind = CD_OFFLINE;
			d->cpu = m->t[th].cpu;
			return;
		}
	}
	if (m->reason == R_REPROGRAMMED || m->fallback == R_REPROGRAMMED) {
		d->kind = CD_REPROGRAMMED;
		return;
	}
	/* The scheduler source lost records, or tasks that write none ran
	 * longer than it may count as idle (its note names them): the
	 * figures are absent, not wrong. */
	if (m->reason == R_LOST) {
		d->kind = CD_LOST;
		return;
	}
	if (x->mode != CL_THREADS)
		return;
	for (th = 0; th < 2 && th < m->nthreads; th++) {
		const struct check_load_meas *l = &m->t[th].load;
		double want, tol;

		/* Against what the load ran: lateness only moved its windows,
		 * which the record has; other work is what the kernel saw
		 * beyond it, by more than the source's floor, the window's
		 * ends, the bursts' edges and two ticks. */
		if (m->ran.known) {
			struct check_tol_parts p;

			memset(&p, 0, sizeof p);
			want = m->ran.util[th];
			tol = x->src_floor + check_tol_ran(m->ran.read_err, m->ran.edges[th],
			    m->ran.to - m->ran.from, &p) + x->os_granularity;
		} else {
			want = check_window_len(&c->w[th]);
			tol = check_tol_share(&x->timing, edge_error(c, m, th)) + x->os_granularity;
		}
		d->cpu = m->t[th].cpu;
		if (!m->ran.known && l->ran && l->late_s > CHECK_LATE_MAX * x->timing.period) {
			d->kind = CD_LATE;
			d->value = l->late_s;
			return;
		}
		if (l->os_known && os_held(l, x) - want > tol) {
			d->kind = CD_OTHER_WORK;
			d->value = os_held(l, x);
			d->want = want;
			return;
		}
		if (stolen(m, x, th) > CHECK_STEAL_MAX) {
			d->kind = CD_STEAL;
			d->value = stolen(m, x, th);
			return;
		}
	}
	d->cpu = 0;
}

static const char *
same(const char *s)
{
	return s;
}

void
check_disturbance_text(const struct check_disturbance *d, const char *(*tr)(const char *),
    char *buf, size_t len)
{
	if (tr == NULL)
		tr = same;
	switch (d->kind) {
	case CD_NONE:
		snprintf(buf, len, "%s", "");
		break;
	case CD_REPROGRAMMED:
		snprintf(buf, len, "%s", tr(N_("another program reprogrammed the counters during "
		    "the case")));
		break;
	case CD_LATE:
		snprintf(buf, len, tr(N_("the load on CPU %u woke %.0f us late on average: it could "
		    "not keep to its schedule")), d->cpu, d->value * 1e6);
		break;
	case CD_LOST:
		/* No "see the note": the note is the source's, and the
		 * case's note line follows where it said anything. */
		snprintf(buf, len, "%s", tr(N_("the source could not follow every context switch "
		    "of the core during the case (records lost, or tasks that write no records of "
		    "their own ran too long)")));
		break;
	case CD_STEAL:
		snprintf(buf, len, tr(N_("the hypervisor took %.1f%% of CPU %u's time (steal), in "
		    "which the source could not see the load run")), 100.0 * d->value, d->cpu);
		break;
	case CD_OFFLINE:
		snprintf(buf, len, tr(N_("CPU %u was offline for some of the case (CPU hotplug): "
		    "what was measured there tests nothing")), d->cpu);
		break;
	case CD_OTHER_WORK:
		snprintf(buf, len, tr(N_("CPU %u was %.1f%% busy by the kernel's count where the load "
		    "made it %.1f%%: other work ran on it")), d->cpu, 100.0 * d->value,
		    100.0 * d->want);
		break;
	}
}

unsigned
check_rows(const struct check_case *c, const struct check_meas *m,
    const struct check_context *x, struct check_row *rows, unsigned max,
    struct check_disturbance *d)
{
	struct rows rs = { rows, 0, max };
	unsigned i;

	rows_split(&rs, c, m, x);
	rows_thread(&rs, c, m, x, 0);
	rows_thread(&rs, c, m, x, 1);
	rows_clock(&rs, m, x);
	disturbance(c, m, x, d);
	for (i = 0; i < rs.n; i++) {
		check_row_judge(&rows[i]);
		if (d->kind != CD_NONE)
			check_row_disturbed(&rows[i]);
	}
	return rs.n;
}
