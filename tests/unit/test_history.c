/* test_history.c: averaging windows (metrics/history.c) on a synthetic
 * Skylake-SP: windows equal the single interval over the same span, wraps
 * inside a window, invalid intervals left out, the whole run, the ring
 * limit. The arithmetic is in the comments. */
#include "unit/testutil.h"

#include <string.h>

#include "metrics/history.h"
#include "metrics/metrics.h"
#include "source/sched/sched_source.h"
#include "util/cpulist.h"

#define D 2100000000ull      /* TSC ticks per interval: 1 s at 2.1 GHz */
#define SCALE 84ull          /* TSC ticks per REF_XCLK:ANY count */
#define NS 8                 /* samples kept by the rig */

/* The rig's plan with the scheduler's job slot (time in TSC ticks): the
 * job ran whenever a thread of core 0 did. */
static bool with_job;

/* What core 0 does in one interval (TSC ticks, counts); thread 1 runs at
 * the base clock with IPC 1 (cyc1 = inst1 = ref1). Core 1 is idle. */
struct step {
	uint64_t ref0, ref1, any, cyc0, inst0;
};

struct rig {
	struct machine m;
	struct plan p;
	struct metrics_ctx c;
	struct sample s[NS];
	unsigned n;                     /* samples taken */
	uint64_t start;                 /* every counter's first value */
	uint64_t cum[4][SLOT_NKINDS];   /* true totals per CPU and kind */
	struct interval last, win, direct;
	struct history *h;
};

/* 1 package, 2 cores, HT: core 0 = cpus 0,2, core 1 = cpus 1,3. Base
 * ratio 21 (2.1 GHz), crystal ratio 168/2 = 84: plan SKX, scale 84. */
static uint64_t
mask_of(unsigned w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static void
rig_init(struct rig *r, uint64_t start, double max_seconds, double min_delay)
{
	unsigned i, cpu;

	memset(r, 0, sizeof *r);
	topology_synthetic(&r->m.topo, 1, 2, 2);
	r->m.id.vendor = CPU_VENDOR_INTEL;
	r->m.id.family = 6;
	r->m.id.model = 0x55;
	r->m.id.base_ratio = 21;
	r->m.id.tsc_num = 168;
	r->m.id.tsc_den = 2;
	r->m.group = UARCH_SKX;
	plan_for_machine(&r->p, &r->m);
	assert_int_equal(r->p.scale, SCALE);
	assert_int_equal(r->p.split, SPLIT_ANY);
	if (with_job) {
		struct plan_slot *s = &r->p.slots[r->p.nslots++];

		memset(s, 0, sizeof *s);
		s->kind = SLOT_JOB;
		s->thread_mask = THREAD_ALL;
		s->width = 64;
		plan_link(&r->p);
		r->p.clock_hz = (double)D;
	}
	metrics_ctx_init(&r->c, &r->m, &r->p);
	for (i = 0; i < NS; i++)
		sample_init(&r->s[i], r->m.topo.max_cpu, r->p.nslots, r->m.topo.ncores, false);
	interval_init(&r->last, &r->m);
	interval_init(&r->win, &r->m);
	interval_init(&r->direct, &r->m);
	r->start = start;
	/* the first read, at t = 10 s */
	for (cpu = 0; cpu < 4; cpu++) {
		r->s[0].state[cpu] = CPU_READ_OK;
		for (i = 0; i < r->p.nslots; i++)
			sample_row(&r->s[0], cpu)[i] = start & mask_of(r->p.slots[i].width);
	}
	r->s[0].time = 10.0;
	r->n = 1;
	r->h = history_new(&r->m, &r->p, max_seconds, min_delay);
}

static void
rig_free(struct rig *r)
{
	unsigned i;

	history_free(r->h);
	interval_free(&r->last);
	interval_free(&r->win);
	interval_free(&r->direct);
	for (i = 0; i < NS; i++)
		sample_free(&r->s[i]);
	topology_free(&r->m.topo);
}

static void
add(struct rig *r, unsigned cpu, enum slot_kind k, uint64_t d)
{
	r->cum[cpu][k] += d;
}

/* One refresh, 1 s after the last: the counts of `st` for core 0, core 1
 * idle; the sample holds (start + total) modulo each slot's width. */
static void
step(struct rig *r, const struct step *st)
{
	struct sample *prev = &r->s[(r->n - 1) % NS], *cur = &r->s[r->n % NS];
	unsigned cpu, i;

	for (cpu = 0; cpu < 4; cpu++)
		add(r, cpu, SLOT_TSC, D);
	add(r, 0, SLOT_REF, st->ref0);
	add(r, 0, SLOT_CYCLES, st->cyc0);
	add(r, 0, SLOT_INST, st->inst0);
	add(r, 0, SLOT_ANY, st->any / SCALE);
	add(r, 2, SLOT_REF, st->ref1);
	add(r, 2, SLOT_CYCLES, st->ref1);
	add(r, 2, SLOT_INST, st->ref1);
	add(r, 0, SLOT_JOB, st->ref0);
	add(r, 2, SLOT_JOB, st->ref1);
	for (cpu = 0; cpu < 4; cpu++) {
		cur->state[cpu] = CPU_READ_OK;
		for (i = 0; i < r->p.nslots; i++) {
			sample_row(cur, cpu)[i] = (r->start + r->cum[cpu][r->p.slots[i].kind]) &
			    mask_of(r->p.slots[i].width);
		}
	}
	cur->time = prev->time + 1.0;
	metrics_compute(&r->c, prev, cur, &r->last);
	history_add(r->h, prev, cur, &r->last);
	r->n++;
}

static void
assert_val(struct val v, enum vkind kind, double x, double tol)
{
	assert_int_equal(v.kind, kind);
	if (kind == V_EXACT)
		assert_near(v.v, x, tol);
}

static void
assert_same_val(struct val a, struct val b)
{
	assert_int_equal(a.kind, b.kind);
	assert_near(a.lo, b.lo, 1e-12);
	assert_near(a.hi, b.hi, 1e-12);
}

/* Core 0 over three intervals (D each):
 *   1: ref0 = ref1 = .5D, any = .75D: C = .25D, A = .25D, B = .25D, N = .25D
 *      cyc0 = 1.2e9, inst0 = 0.6e9
 *   2: ref0 = D, ref1 = 0, any = D: A = D; cyc0 = 2.1e9, inst0 = 2.1e9
 *   3: idle: N = D
 * All three (3D): ref0 = 1.5D, ref1 = .5D, any = 1.75D:
 *   C = 1.5 + .5 - 1.75 = .25D -> both 1/12; A = 1.5 - .25 = 1.25D -> 5/12;
 *   B = .5 - .25 = .25D -> 1/12; N = 3 - 1.75 = 1.25D -> 5/12.
 * Thread 0: cyc 3.3e9, ref 3.15e9, inst 2.7e9, TSC 6.3e9:
 *   util .5, CPI 3.3/2.7 = 1.222222, nominal CPI 6.3/2.7 = 2.333333,
 *   GHz 3.3/3.15 x 2.1 = 2.2, net 3.3/6.3 x 2.1 = 1.1, IPC 2.7/3.3 = .818182. */
static const struct step three[3] = {
	{ D / 2, D / 2, D / 4 * 3, 1200000000ull, 600000000ull },
	{ D, 0, D, D, D },
	{ 0, 0, 0, 0, 0 },
};

static void
check_three(const struct interval *iv)
{
	const struct core_fig *cf = &iv->cores[0];
	const struct thread_fig *t = &iv->threads[0];

	assert_int_equal(cf->reason, R_NONE);
	assert_true(cf->exact);
	assert_val(cf->both, V_EXACT, 1.0 / 12, 1e-9);
	assert_val(cf->t0_only, V_EXACT, 5.0 / 12, 1e-9);
	assert_val(cf->t1_only, V_EXACT, 1.0 / 12, 1e-9);
	assert_val(cf->neither, V_EXACT, 5.0 / 12, 1e-9);
	assert_int_equal(t->d_tsc, 3 * D);
	assert_val(t->util, V_EXACT, 0.5, 1e-12);
	assert_val(t->cpi, V_EXACT, 3.3 / 2.7, 1e-9);
	assert_val(t->nominal_cpi, V_EXACT, 6.3 / 2.7, 1e-9);
	assert_val(t->ghz, V_EXACT, 2.2, 1e-9);
	assert_val(t->net_ghz, V_EXACT, 1.1, 1e-9);
	assert_val(t->ipc, V_EXACT, 2.7 / 3.3, 1e-9);
	/* core 1 idle all along */
	assert_int_equal(iv->cores[1].reason, R_NONE);
	assert_val(iv->cores[1].neither, V_EXACT, 1.0, 1e-12);
	/* node: two cores of equal weight 3D: neither (5/12 + 1)/2 = 17/24 */
	assert_val(iv->node.neither, V_EXACT, 17.0 / 24, 1e-9);
}

static void
test_window_equals_interval(void **state)
{
	struct rig r;
	double sec;
	unsigned i;

	(void)state;
	rig_init(&r, 123456789ull, 10.0, 1.0);
	/* nothing yet: 0 s, every core waiting for its first interval */
	sec = history_compute(r.h, &r.c, AVG_WINDOW, 3.0, &r.win);
	assert_near(sec, 0.0, 0.0);
	assert_int_equal(r.win.cores[0].reason, R_FIRST);
	for (i = 0; i < 3; i++)
		step(&r, &three[i]);
	/* the 3 s window spans samples 0..3 (t = 10..13) */
	sec = history_compute(r.h, &r.c, AVG_WINDOW, 3.0, &r.win);
	assert_near(sec, 3.0, 1e-12);
	assert_near(r.win.dt, 3.0, 1e-12);
	check_three(&r.win);
	/* the same as metrics over sample 0 -> sample 3 directly */
	metrics_compute(&r.c, &r.s[0], &r.s[3], &r.direct);
	check_three(&r.direct);
	assert_same_val(r.win.node.both, r.direct.node.both);
	assert_same_val(r.win.node.util, r.direct.node.util);
	assert_same_val(r.win.node.cpi, r.direct.node.cpi);
	assert_same_val(r.win.cores[0].cpi, r.direct.cores[0].cpi);
	/* the whole run is the same span */
	sec = history_compute(r.h, &r.c, AVG_RUN, 0.0, &r.win);
	assert_near(sec, 3.0, 1e-12);
	check_three(&r.win);
	/* a 2 s window: intervals 2 and 3 (2D): ref0 = D, ref1 = 0, any = D:
	 * A = .5, N = .5 */
	sec = history_compute(r.h, &r.c, AVG_WINDOW, 2.0, &r.win);
	assert_near(sec, 2.0, 1e-12);
	assert_val(r.win.cores[0].t0_only, V_EXACT, 0.5, 1e-9);
	assert_val(r.win.cores[0].neither, V_EXACT, 0.5, 1e-9);
	/* the last interval: idle core 0 */
	sec = history_compute(r.h, &r.c, AVG_LAST, 0.0, &r.win);
	assert_near(sec, 1.0, 1e-12);
	assert_val(r.win.cores[0].neither, V_EXACT, 1.0, 1e-9);
	rig_free(&r);
}

/* The same three intervals with every 48-bit counter starting 1e9 below
 * its wrap (2^48 - 1e9): the reference and cycle counters of both threads
 * pass 2^48 in interval 1 (ref0 = ref1 = 1.05e9 > 1e9), thread 0's
 * instruction counter in interval 2 (0.6e9 + 2.1e9). Thread 0's REF ends
 * at 2^48 - 1e9 + 3.15e9 - 2^48 = 2.15e9. The figures are those of
 * check_three. */
static void
test_wrap(void **state)
{
	struct rig r;
	unsigned i;

	(void)state;
	rig_init(&r, (1ull << 48) - 1000000000ull, 10.0, 1.0);
	for (i = 0; i < 3; i++)
		step(&r, &three[i]);
	assert_int_equal(sample_row(&r.s[3], 0)[plan_slot_index(&r.p, SLOT_REF)], 2150000000ull);
	history_compute(r.h, &r.c, AVG_WINDOW, 3.0, &r.win);
	check_three(&r.win);
	rig_free(&r);
}

/* A 25-bit split counter (2^25 = 33,554,432 counts) wraps twice over the
 * three intervals: any counts 18,750,000 + 25,000,000 + 0 = 43,750,000.
 * One difference over the span sees one wrap at most and gets it wrong;
 * the history adds each interval's own wrapped delta and does not. */
static void
test_two_wraps(void **state)
{
	struct rig r;
	int a;
	unsigned i;

	(void)state;
	rig_init(&r, 123456789ull, 10.0, 1.0);
	a = plan_slot_index(&r.p, SLOT_ANY);
	r.p.slots[a].width = 25;
	history_free(r.h);
	r.h = history_new(&r.m, &r.p, 10.0, 1.0);
	r.s[0].v[0 * r.p.nslots + (unsigned)a] = 123456789ull & ((1ull << 25) - 1);
	for (i = 0; i < 3; i++)
		step(&r, &three[i]);
	history_compute(r.h, &r.c, AVG_WINDOW, 3.0, &r.win);
	check_three(&r.win);
	/* direct: any = 43,750,000 - 33,554,432 = 10,195,568 counts, too few
	 * for ref0 = 1.5D: the core is rejected */
	metrics_compute(&r.c, &r.s[0], &r.s[3], &r.direct);
	assert_true(r.direct.cores[0].reason != R_NONE || r.direct.cores[0].fallback != R_NONE);
	rig_free(&r);
}

/* Interval 2 of core 0 is impossible (cyc0 = 100 x ref0: 105 GHz), so the
 * core is invalid there and that interval is left out. Intervals 1 and 3
 * (2D): ref0 = ref1 = .5D, any = .75D -> C = A = B = .25D, N = 1.25D:
 * both = t0 = t1 = .125, neither = .625. Core 1 keeps all 3D (idle).
 * Node neither, weighted by each core's valid time: (2 x .625 + 3 x 1) / 5
 * = .85. */
static void
test_invalid_left_out(void **state)
{
	struct rig r;
	struct step bad = { D / 2, D / 2, D / 4 * 3, 100 * (D / 2), D / 2 };
	double sec;

	(void)state;
	rig_init(&r, 123456789ull, 10.0, 1.0);
	step(&r, &three[0]);
	step(&r, &bad);
	assert_int_equal(r.last.cores[0].reason, R_REPROGRAMMED);
	step(&r, &three[2]);
	sec = history_compute(r.h, &r.c, AVG_WINDOW, 10.0, &r.win);
	assert_near(sec, 3.0, 1e-12);
	assert_int_equal(r.win.cores[0].reason, R_NONE);
	assert_true(r.win.valid);
	assert_int_equal(r.win.threads[0].d_tsc, 2 * D);
	assert_int_equal(r.win.threads[1].d_tsc, 3 * D);
	assert_val(r.win.cores[0].both, V_EXACT, 0.125, 1e-9);
	assert_val(r.win.cores[0].t0_only, V_EXACT, 0.125, 1e-9);
	assert_val(r.win.cores[0].t1_only, V_EXACT, 0.125, 1e-9);
	assert_val(r.win.cores[0].neither, V_EXACT, 0.625, 1e-9);
	assert_val(r.win.node.neither, V_EXACT, 0.85, 1e-9);
	/* The 1 s window of the bad interval alone: nothing valid, and the
	 * reason is the interval's own, not "TSC did not advance". A second
	 * bad interval makes it the last one. */
	step(&r, &bad);
	history_compute(r.h, &r.c, AVG_LAST, 0.0, &r.win);
	assert_int_equal(r.win.cores[0].reason, R_REPROGRAMMED);
	assert_int_equal(r.win.threads[2].reason, R_REPROGRAMMED);
	assert_int_equal(r.win.threads[0].util.kind, V_NONE);
	assert_false(r.win.valid);
	assert_non_null(strstr(r.win.reason, "package 0, core 0 (cpus 0,2)"));
	assert_int_equal(r.win.cores[1].reason, R_NONE);
	rig_free(&r);
}

/* The job's CPU seconds over a window are a sum: where a core of the job
 * was invalid in an interval of the window, that interval's job time is
 * missing from it (the core's figures cover its valid time), so the sum
 * is a bound, not a smaller exact number. Interval 1: the job ran .5D on
 * each thread of core 0 (1 s in all); interval 2 (core 0 invalid, as
 * above) 1 s more, not counted; interval 3 idle. Interval 2 alone: core 0's
 * two threads not counted for 1 s, core 1 counted 0: [0, 2]. The whole
 * run: 1 s counted, core 0's two threads 1 s each not: [1, 3]; the last
 * interval alone: exactly 0 s. */
static void
test_job_cpu_left_out(void **state)
{
	struct rig r;
	struct step bad = { D / 2, D / 2, D / 4 * 3, 100 * (D / 2), D / 2 };

	(void)state;
	with_job = true;
	rig_init(&r, 123456789ull, 10.0, 1.0);
	step(&r, &three[0]);
	assert_val(r.last.node.cpu_s, V_EXACT, 1.0, 1e-12);
	step(&r, &bad);
	assert_int_equal(r.last.node.cpu_s.kind, V_BOUND);
	assert_near(r.last.node.cpu_s.lo, 0.0, 1e-12);
	assert_near(r.last.node.cpu_s.hi, 2.0, 1e-12);
	step(&r, &three[2]);
	history_compute(r.h, &r.c, AVG_RUN, 0.0, &r.win);
	assert_true(r.win.valid);
	assert_int_equal(r.win.cores[0].reason, R_NONE);
	assert_int_equal(r.win.node.cpu_s.kind, V_BOUND);
	assert_near(r.win.node.cpu_s.lo, 1.0, 1e-9);
	assert_near(r.win.node.cpu_s.hi, 3.0, 1e-9);
	history_compute(r.h, &r.c, AVG_LAST, 0.0, &r.win);
	assert_val(r.win.node.cpu_s, V_EXACT, 0.0, 1e-12);
	rig_free(&r);
	with_job = false;
}

/* Ring limit: history_new(2 s, 1 s) keeps 2/1 + 2 = 4 (+1) = 5 snapshots,
 * so after 6 intervals a 10 s window covers the last 4 s; AVG_RUN still
 * covers all 6 s from its zero start. Six intervals of step 1 (any = .75D,
 * ref0 = ref1 = .5D): both = .25 in every window. */
static void
test_run_and_ring(void **state)
{
	struct rig r;
	double sec;
	unsigned i;

	(void)state;
	rig_init(&r, 5ull, 2.0, 1.0);
	for (i = 0; i < 6; i++)
		step(&r, &three[0]);
	sec = history_compute(r.h, &r.c, AVG_WINDOW, 10.0, &r.win);
	assert_near(sec, 4.0, 1e-12);
	assert_int_equal(r.win.threads[0].d_tsc, 4 * D);
	assert_val(r.win.cores[0].both, V_EXACT, 0.25, 1e-9);
	sec = history_compute(r.h, &r.c, AVG_RUN, 0.0, &r.win);
	assert_near(sec, 6.0, 1e-12);
	assert_near(r.win.time, 16.0, 1e-12);
	assert_int_equal(r.win.threads[0].d_tsc, 6 * D);
	assert_val(r.win.cores[0].both, V_EXACT, 0.25, 1e-9);
	assert_val(r.win.cores[0].neither, V_EXACT, 0.25, 1e-9);
	rig_free(&r);
}

/* A core on its fallback (the ANY count is 3% of D short of ref0, more
 * than the .5% tolerance, less than the 5% reprogramming limit: skew):
 * its fixed counters are added, its ANY count is not. Intervals:
 *   1: valid, any = .75D, ref0 = ref1 = .5D;
 *   2: fallback: ref0 = ref1 = .5D, any = .47D (< max(ref0, ref1)).
 * Window (2D): thread figures cover 2D (util .5 each), the ANY sum is
 * .75D against ref0 = ref1 = D: short by .25D = 12.5% of 2D, beyond the
 * skew limit: the window shows the utilisation bound, flagged. Bound
 * from u0 = u1 = .5: both in [0, .5]. */
static void
test_fallback(void **state)
{
	struct rig r;
	struct step skew = { D / 2, D / 2, 987000000ull, D / 2, D / 2 };

	(void)state;
	rig_init(&r, 77ull, 10.0, 1.0);
	step(&r, &three[0]);
	step(&r, &skew);
	assert_int_equal(r.last.cores[0].reason, R_NONE);
	assert_int_not_equal(r.last.cores[0].fallback, R_NONE);
	history_compute(r.h, &r.c, AVG_WINDOW, 10.0, &r.win);
	assert_int_equal(r.win.threads[0].d_tsc, 2 * D);
	assert_val(r.win.threads[0].util, V_EXACT, 0.5, 1e-12);
	assert_val(r.win.threads[2].util, V_EXACT, 0.5, 1e-12);
	assert_int_equal(r.win.cores[0].reason, R_NONE);
	assert_int_not_equal(r.win.cores[0].fallback, R_NONE);
	assert_false(r.win.cores[0].exact);
	assert_int_equal(r.win.cores[0].both.kind, V_BOUND);
	assert_near(r.win.cores[0].both.lo, 0.0, 1e-12);
	assert_near(r.win.cores[0].both.hi, 0.5, 1e-12);
	rig_free(&r);
}

/* Thread 0's instructions stopped in the middle interval (ref0 = cyc0 = D,
 * inst0 = 0): over a window that reaches back to it, its CPI, nominal CPI
 * and IPC are absent (R_STOPPED), since the sum lacks what was never
 * counted; the clocks' figures cover the whole window. Three intervals
 * (3D): ref0 = .5D + D + .5D = 2D, util 2/3; cyc0 = 1.2e9 + 2.1e9 +
 * 1.2e9 = 4.5e9, GHz 4.5e9/4.2e9 x 2.1 = 2.25. A window of the last
 * second only sees interval 3: CPI 1.2e9/0.6e9 = 2. */
static void
test_stopped_window(void **state)
{
	struct rig r;
	struct step stop = { D, 0, D, D, 0 };

	(void)state;
	rig_init(&r, 77ull, 10.0, 1.0);
	step(&r, &three[0]);
	step(&r, &stop);
	assert_int_equal(r.last.threads[0].stopped, KIND_BIT(SLOT_INST));
	step(&r, &three[0]);
	assert_int_equal(r.last.threads[0].stopped, 0);

	history_compute(r.h, &r.c, AVG_WINDOW, 10.0, &r.win);
	assert_int_equal(r.win.threads[0].d_tsc, 3 * D);
	assert_int_equal(r.win.threads[0].stopped, KIND_BIT(SLOT_INST));
	assert_int_equal(r.win.threads[0].cpi.why, R_STOPPED);
	assert_int_equal(r.win.threads[0].ipc.why, R_STOPPED);
	assert_int_equal(r.win.threads[0].nominal_cpi.why, R_STOPPED);
	assert_val(r.win.threads[0].util, V_EXACT, 2.0 / 3.0, 1e-12);
	assert_val(r.win.threads[0].ghz, V_EXACT, 2.25, 1e-9);
	assert_int_equal(r.win.cores[0].cpi.why, R_STOPPED);
	assert_false(r.win.valid);

	history_compute(r.h, &r.c, AVG_RUN, 0.0, &r.win);
	assert_int_equal(r.win.threads[0].ipc.why, R_STOPPED);

	history_compute(r.h, &r.c, AVG_WINDOW, 1.0, &r.win);
	assert_int_equal(r.win.threads[0].d_tsc, D);
	assert_int_equal(r.win.threads[0].stopped, 0);
	assert_val(r.win.threads[0].cpi, V_EXACT, 2.0, 1e-12);
	rig_free(&r);
}

/* The job's cpu_s (the scheduler's plan with the job's slots, clock 1 GHz:
 * nanoseconds) on 1 package of 2 cores, HT: core 0 = cpus 0,2, core 1 =
 * cpus 1,3. Every 1 s interval each thread is busy .5 s (any .75 s), and
 * the job ran cpu 0 .4 s, cpu 2 .2 s (core 0: .6 s), cpu 1 .1 s, cpu 3
 * .3 s (core 1: .4 s): an exact cpu_s of 1 s. Intervals 1 2 3, core 1's
 * records lost in 2 (cpu 3 CPU_LOST at its end):
 *   interval 2 alone: core 0's .6 s counted, core 1's 2 threads x 1 s
 *     not: the bound [.6, 2.6] (exact .6 before: too small, called exact);
 *   interval 3 (after the loss: valid again): exact 1;
 *   the run, 3 s: core 0 3 x .6 = 1.8, core 1 2 x .4 = .8 counted, core 1
 *     left out 1 s x 2 threads: [2.6, 4.6];
 *   the last 2 s (intervals 2, 3): 1.2 + .4 = 1.6, [1.6, 3.6];
 *   the last 1 s: exact 1.
 * metrics_combine adds the parts' ends: exact 1 and [2.6, 4.6] give
 * [3.6, 5.6]; a part of cores without cpu_s makes the sum absent with
 * its reason (its threads and interval are not known: no upper end). */
struct jrig {
	struct machine m;
	struct plan p;
	struct metrics_ctx c;
	struct sample s[2];
	unsigned n;
	uint64_t cum[4][SLOT_NKINDS];
	struct interval iv, win;
	struct history *h;
};

static void
jstep(struct jrig *r, int lost_cpu)
{
	static const uint64_t job[4] = { 400000000ull, 100000000ull, 200000000ull, 300000000ull };
	struct sample *prev = &r->s[(r->n + 1) % 2], *cur = &r->s[r->n % 2];
	unsigned cpu, i;

	for (cpu = 0; cpu < 4; cpu++) {
		r->cum[cpu][SLOT_TSC] += 1000000000ull;
		r->cum[cpu][SLOT_REF] += 500000000ull;
		r->cum[cpu][SLOT_JOB] += job[cpu];
		if (cpu < 2)
			r->cum[cpu][SLOT_ANY] += 750000000ull;
		cur->state[cpu] = (int)cpu == lost_cpu ? CPU_LOST : CPU_READ_OK;
		for (i = 0; i < r->p.nslots; i++)
			sample_row(cur, cpu)[i] = r->cum[cpu][r->p.slots[i].kind];
	}
	cur->time = 10.0 + r->n;
	metrics_compute(&r->c, prev, cur, &r->iv);
	history_add(r->h, prev, cur, &r->iv);
	r->n++;
}

static void
assert_bound(struct val v, double lo, double hi)
{
	assert_int_equal(v.kind, V_BOUND);
	assert_near(v.lo, lo, 1e-9);
	assert_near(v.hi, hi, 1e-9);
}

static void
test_job_cpu_bound(void **state)
{
	struct jrig r;
	struct agg_fig parts[2], out;
	struct agg_weights w[2];
	unsigned cpu, i;

	(void)state;
	memset(&r, 0, sizeof r);
	topology_synthetic(&r.m.topo, 1, 2, 2);
	r.m.group = UARCH_UNKNOWN;
	sched_plan(&r.p, &r.m);
	sched_plan_job(&r.p);
	metrics_ctx_init(&r.c, &r.m, &r.p);
	for (i = 0; i < 2; i++)
		sample_init(&r.s[i], r.m.topo.max_cpu, r.p.nslots, r.m.topo.ncores, false);
	interval_init(&r.iv, &r.m);
	interval_init(&r.win, &r.m);
	r.h = history_new(&r.m, &r.p, 10.0, 1.0);
	/* The first read at t = 10 s: every counter 0. */
	for (cpu = 0; cpu < 4; cpu++)
		r.s[0].state[cpu] = CPU_READ_OK;
	r.s[0].time = 10.0;
	r.n = 1;

	jstep(&r, -1);
	assert_true(r.iv.valid);
	assert_val(r.iv.node.cpu_s, V_EXACT, 1.0, 1e-9);
	jstep(&r, 3);
	assert_int_equal(r.iv.cores[1].reason, R_LOST);
	assert_int_equal(r.iv.cores[0].reason, R_NONE);
	assert_bound(r.iv.node.cpu_s, 0.6, 2.6);
	assert_bound(r.iv.packages[0].cpu_s, 0.6, 2.6);
	jstep(&r, -1);
	assert_int_equal(r.iv.cores[1].reason, R_NONE);
	assert_val(r.iv.node.cpu_s, V_EXACT, 1.0, 1e-9);

	assert_near(history_compute(r.h, &r.c, AVG_RUN, 0.0, &r.win), 3.0, 1e-12);
	assert_int_equal(r.win.cores[1].reason, R_NONE);
	assert_int_equal(r.win.threads[1].d_tsc, 2000000000ull);
	assert_near(r.win.threads[3].job_unc_s, 1.0, 1e-12);
	assert_near(r.win.threads[0].job_unc_s, 0.0, 0.0);
	assert_bound(r.win.node.cpu_s, 2.6, 4.6);
	assert_near(history_compute(r.h, &r.c, AVG_WINDOW, 2.0, &r.win), 2.0, 1e-12);
	assert_bound(r.win.node.cpu_s, 1.6, 3.6);
	assert_near(history_compute(r.h, &r.c, AVG_WINDOW, 1.0, &r.win), 1.0, 1e-12);
	assert_val(r.win.node.cpu_s, V_EXACT, 1.0, 1e-9);
	/* The whole run narrowed to core 0 (a command's CPUs): no time left
	 * out, exact 1.8. */
	history_compute(r.h, &r.c, AVG_RUN, 0.0, &r.win);
	{
		struct cpulist only0;
		struct errmsg e;

		assert_int_equal(cpulist_parse("0", &only0, &e), 0);
		metrics_restrict(&r.c, &only0, &r.win);
		cpulist_free(&only0);
	}
	assert_val(r.win.node.cpu_s, V_EXACT, 1.8, 1e-9);

	memset(parts, 0, sizeof parts);
	memset(w, 0, sizeof w);
	parts[0].ncores = parts[0].nvalid = 2;
	parts[0].cpu_s = val_exact(1.0);
	parts[1].ncores = parts[1].nvalid = 2;
	parts[1].cpu_s = val_bound(2.6, 4.6);
	metrics_combine(parts, w, 2, &out);
	assert_bound(out.cpu_s, 3.6, 5.6);
	parts[1].nvalid = 0;
	parts[1].cpu_s = val_absent(R_LOST);
	metrics_combine(parts, w, 2, &out);
	assert_int_equal(out.cpu_s.kind, V_NONE);
	assert_int_equal(out.cpu_s.why, R_LOST);

	history_free(r.h);
	interval_free(&r.iv);
	interval_free(&r.win);
	for (i = 0; i < 2; i++)
		sample_free(&r.s[i]);
	topology_free(&r.m.topo);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_equals_interval),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_two_wraps),
		cmocka_unit_test(test_invalid_left_out),
		cmocka_unit_test(test_job_cpu_left_out),
		cmocka_unit_test(test_run_and_ring),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_stopped_window),
		cmocka_unit_test(test_job_cpu_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
