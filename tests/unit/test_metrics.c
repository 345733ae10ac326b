/* test_metrics.c: metrics_compute() on hand-made samples of synthetic
 * machines: per-thread figures, the exact splits (AnyThread, OTA), the
 * bounds (Zen, KNL), the invariants and the aggregates. The arithmetic is
 * in the comments. */
#include "unit/testutil.h"

#include <string.h>

#include "metrics/metrics.h"

#define BASE 123456789ull   /* every counter starts here in the first sample */

struct rig {
	struct machine m;
	struct plan p;
	struct metrics_ctx c;
	struct sample a, b;
	struct interval iv;
};

static void
rig_init(struct rig *r, unsigned ncores, unsigned smt, enum uarch_group g,
    enum cpu_vendor v, int family, int model, unsigned base_ratio, bool truth)
{
	unsigned cpu, s;

	memset(r, 0, sizeof *r);
	topology_synthetic(&r->m.topo, 1, ncores, smt);
	r->m.id.vendor = v;
	r->m.id.family = family;
	r->m.id.model = model;
	r->m.id.base_ratio = base_ratio;
	r->m.id.tsc_num = 168;           /* crystal ratio 84 */
	r->m.id.tsc_den = 2;
	r->m.group = g;
	plan_for_machine(&r->p, &r->m);
	metrics_ctx_init(&r->c, &r->m, &r->p);
	sample_init(&r->a, r->m.topo.max_cpu, r->p.nslots, r->m.topo.ncores, truth);
	sample_init(&r->b, r->m.topo.max_cpu, r->p.nslots, r->m.topo.ncores, truth);
	r->a.time = 10.0;
	r->b.time = 11.0;
	for (cpu = 0; cpu < r->m.topo.max_cpu; cpu++) {
		r->a.state[cpu] = r->b.state[cpu] = CPU_READ_OK;
		for (s = 0; s < r->p.nslots; s++)
			sample_row(&r->a, cpu)[s] = sample_row(&r->b, cpu)[s] = BASE;
	}
	interval_init(&r->iv, &r->m);
}

static void
rig_free(struct rig *r)
{
	interval_free(&r->iv);
	sample_free(&r->a);
	sample_free(&r->b);
	topology_free(&r->m.topo);
}

/* Counter k of `cpu` advances by d over the interval. */
static void
put(struct rig *r, unsigned cpu, enum slot_kind k, uint64_t d)
{
	int s = plan_slot_index(&r->p, k);

	assert_true(s >= 0);
	sample_row(&r->b, cpu)[s] = BASE + d;
}

/* One thread: TSC, instructions, cycles, reference ticks. */
static void
thread(struct rig *r, unsigned cpu, uint64_t tsc, uint64_t inst, uint64_t cyc, uint64_t ref)
{
	put(r, cpu, SLOT_TSC, tsc);
	put(r, cpu, SLOT_INST, inst);
	put(r, cpu, SLOT_CYCLES, cyc);
	put(r, cpu, SLOT_REF, ref);
}

static void
assert_val(struct val v, enum vkind kind, double lo, double hi, double tol)
{
	assert_int_equal(v.kind, kind);
	if (kind == V_EXACT)
		assert_near(v.v, lo, tol);
	if (kind != V_NONE) {
		assert_near(v.lo, lo, tol);
		assert_near(v.hi, hi, tol);
	}
}

/* Synthetic Xeon 8160-like: 1 package, 2 cores, HT: core 0 = cpus 0,2,
 * core 1 = cpus 1,3; T = 2.1e9 ticks (1 s at 2.1 GHz), scale 84.
 * Core 0 is meant to be N .2, A .3, B .2, C .3:
 *   ref0 = A + C = .6 T = 1.26e9, ref1 = B + C = .5 T = 1.05e9,
 *   any  = A + B + C = .8 T = 1.68e9 ticks = 20,000,000 counts of 84.
 * Core 1: thread 0 busy all the time, thread 1 idle:
 *   ref0 = T, ref1 = 0, any = T = 25,000,000 counts -> A = 1. */
static void
skx_setup(struct rig *r, bool truth)
{
	rig_init(r, 2, 2, UARCH_SKX, CPU_VENDOR_INTEL, 6, 0x55, 21, truth);
	assert_int_equal(r->p.scale, 84);
	assert_near(r->c.base_hz, 2.1e9, 1.0);
	assert_int_equal(r->c.issue_width, 4);
	/* thread 0 of core 0 at 2.6 GHz: cyc = 1.26e9 x 2.6/2.1 = 1.56e9 */
	thread(r, 0, 2100000000ull, 1560000000ull, 1560000000ull, 1260000000ull);
	/* thread 1 of core 0: the task's hand-made thread (see test_thread) */
	thread(r, 2, 2100000000ull, 2600000000ull, 1300000000ull, 1050000000ull);
	put(r, 0, SLOT_ANY, 20000000ull);
	/* core 1: thread 0 at 2.1 GHz, IPC 1; thread 1 halted */
	thread(r, 1, 2100000000ull, 2100000000ull, 2100000000ull, 2100000000ull);
	thread(r, 3, 2100000000ull, 0, 0, 0);
	put(r, 1, SLOT_ANY, 25000000ull);
}

static void
test_thread(void **state)
{
	struct rig r;
	const struct thread_fig *t;

	(void)state;
	skx_setup(&r, false);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	/* dTSC 2.1e9, dref 1.05e9, dcyc 1.3e9, dinst 2.6e9, base 2.1 GHz:
	 * util 1.05/2.1 = .5; CPI 1.3/2.6 = .5; nominal CPI 2.1/2.6 =
	 * 0.807692308; GHz 1.3/1.05 x 2.1 = 2.6; net 1.3/2.1 x 2.1 = 1.3;
	 * IPC 2.6/1.3 = 2 */
	t = &r.iv.threads[2];
	assert_int_equal(t->reason, R_NONE);
	assert_int_equal(t->d_tsc, 2100000000ull);
	assert_val(t->util, V_EXACT, 0.5, 0.5, 1e-12);
	assert_val(t->cpi, V_EXACT, 0.5, 0.5, 1e-12);
	assert_val(t->nominal_cpi, V_EXACT, 0.807692308, 0.807692308, 1e-9);
	assert_val(t->ghz, V_EXACT, 2.6, 2.6, 1e-9);
	assert_val(t->net_ghz, V_EXACT, 1.3, 1.3, 1e-9);
	assert_val(t->ipc, V_EXACT, 2.0, 2.0, 1e-12);
	/* the halted thread: no instructions, never active */
	t = &r.iv.threads[3];
	assert_int_equal(t->reason, R_NONE);
	assert_val(t->util, V_EXACT, 0.0, 0.0, 0.0);
	assert_int_equal(t->cpi.kind, V_NONE);
	assert_int_equal(metrics_thread_reason(&r.c, t, &t->cpi), R_NO_INST);
	assert_int_equal(metrics_thread_reason(&r.c, t, &t->ghz), R_NOT_HALTED_ZERO);
	assert_int_equal(metrics_thread_reason(&r.c, t, &t->util), R_NONE);
	assert_val(t->net_ghz, V_EXACT, 0.0, 0.0, 0.0);
	rig_free(&r);
}

/* The thread's instruction rate, GIPS = dinst / dTSC x base: billions of
 * instructions retired per second of the interval (halted time
 * included), = IPC x net GHz. skx_setup's 1 s interval (dTSC 2.1e9 at a
 * base of 2.1 GHz):
 *   CPU 2: dinst 2.6e9 -> 2.6e9 / 2.1e9 x 2.1 = 2.6 (IPC 2 x net 1.3)
 *   CPU 0: dinst 1.56e9 -> 1.56 (IPC 1 x net 1.56)
 *   CPU 1: dinst 2.1e9 -> 2.1
 *   CPU 3: halted, no instruction -> 0, a value (the interval had time)
 * Then CPU 2's instructions stand still while its cycles advance (another
 * program stopped the counter): absent, the same reason as its CPI
 * (stopped); and no base clock: absent no-base, as net GHz. */
static void
test_gips(void **state)
{
	struct rig r;
	const struct thread_fig *t;

	(void)state;
	skx_setup(&r, false);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	t = &r.iv.threads[2];
	assert_val(t->gips, V_EXACT, 2.6, 2.6, 1e-12);
	assert_near(t->gips.v, t->ipc.v * t->net_ghz.v, 1e-12);
	assert_val(r.iv.threads[0].gips, V_EXACT, 1.56, 1.56, 1e-12);
	assert_val(r.iv.threads[1].gips, V_EXACT, 2.1, 2.1, 1e-12);
	assert_val(r.iv.threads[3].gips, V_EXACT, 0.0, 0.0, 0.0);
	assert_int_equal(metrics_thread_reason(&r.c, &r.iv.threads[3], &r.iv.threads[3].gips),
	    R_NONE);
	rig_free(&r);

	skx_setup(&r, false);
	thread(&r, 2, 2100000000ull, 0, 1300000000ull, 1050000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	t = &r.iv.threads[2];
	assert_int_equal(t->stopped, KIND_BIT(SLOT_INST));
	assert_int_equal(t->gips.kind, V_NONE);
	assert_int_equal(t->gips.why, R_STOPPED);
	assert_int_equal(t->gips.why, t->cpi.why);
	assert_val(r.iv.threads[0].gips, V_EXACT, 1.56, 1.56, 1e-12);
	rig_free(&r);

	skx_setup(&r, false);
	r.c.base_hz = 0.0;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.threads[2].gips.kind, V_NONE);
	assert_int_equal(r.iv.threads[2].gips.why, R_NO_BASE);
	assert_int_equal(r.iv.threads[2].net_ghz.why, R_NO_BASE);
	rig_free(&r);
}

static void
test_skx(void **state)
{
	struct rig r;
	const struct core_fig *cf;
	const struct agg_fig *g;

	(void)state;
	skx_setup(&r, true);
	/* truth of core 0 in ticks: .2 .3 .2 .3 of 2.1e9 */
	r.b.truth[0] = 420000000ull;
	r.b.truth[1] = 630000000ull;
	r.b.truth[2] = 420000000ull;
	r.b.truth[3] = 630000000ull;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_true(r.iv.valid);
	assert_string_equal(r.iv.reason, "");
	assert_near(r.iv.dt, 1.0, 1e-12);

	cf = &r.iv.cores[0];
	assert_int_equal(cf->reason, R_NONE);
	assert_int_equal(cf->split, SPLIT_ANY);
	assert_true(cf->exact);
	assert_val(cf->neither, V_EXACT, 0.2, 0.2, 1e-12);
	assert_val(cf->t0_only, V_EXACT, 0.3, 0.3, 1e-12);
	assert_val(cf->t1_only, V_EXACT, 0.2, 0.2, 1e-12);
	assert_val(cf->both, V_EXACT, 0.3, 0.3, 1e-12);
	assert_near(cf->inconsistency, 0.0, 1e-12);
	/* util = any/T = .8; active = (ref0 + ref1)/any = 2.31/1.68 = 1.375 */
	assert_val(cf->util, V_EXACT, 0.8, 0.8, 1e-12);
	assert_val(cf->active_threads, V_EXACT, 1.375, 1.375, 1e-12);
	/* both threads at 2.6 GHz: (1.56 + 1.3)/(1.26 + 1.05) x 2.1 = 2.6.
	 * Core cycles = 1.68e9 ticks x 2.6/2.1 = 2.08e9; instructions
	 * 1.56e9 + 2.6e9 = 4.16e9: CPI 2.08/4.16 = .5, issue utilisation
	 * 4.16/(2.08 x 4) = .5 */
	assert_val(cf->ghz, V_EXACT, 2.6, 2.6, 1e-9);
	assert_val(cf->cpi, V_EXACT, 0.5, 0.5, 1e-9);
	assert_val(cf->issue_util, V_EXACT, 0.5, 0.5, 1e-9);
	assert_true(cf->has_truth);
	assert_near(cf->truth[0], 0.2, 1e-12);
	assert_near(cf->truth[3], 0.3, 1e-12);

	/* core 1: A = 1, util 1, one thread active, 2.1 GHz, CPI 1 */
	cf = &r.iv.cores[1];
	assert_int_equal(cf->reason, R_NONE);
	assert_val(cf->neither, V_EXACT, 0.0, 0.0, 1e-12);
	assert_val(cf->t0_only, V_EXACT, 1.0, 1.0, 1e-12);
	assert_val(cf->both, V_EXACT, 0.0, 0.0, 1e-12);
	assert_val(cf->active_threads, V_EXACT, 1.0, 1.0, 1e-12);
	assert_val(cf->ghz, V_EXACT, 2.1, 2.1, 1e-9);
	assert_val(cf->cpi, V_EXACT, 1.0, 1.0, 1e-9);

	/* node = package 0. Shares and util by time, equal T: neither
	 * (.2 + 0)/2 = .1, t0 (.3 + 1)/2 = .65, t1 .1, both .15, util
	 * (.8 + 1)/2 = .9. The rest are ratios of sums:
	 * active = sum(dref)/sum(busy) = (2.31 + 2.1)/(1.68 + 2.1) = 4.41/3.78
	 *        = 1.166666667 (not the mean of 1.375 and 1: core 1 is busy
	 *        longer);
	 * GHz = sum(dcyc)/sum(dref) x 2.1 = (2.86 + 2.1)/4.41 x 2.1 = 2.361904762;
	 * CPI = sum(core cycles)/sum(dinst) = (2.08 + 2.1)/(4.16 + 2.1)
	 *     = 4.18/6.26 = 0.667731629;
	 * both of busy .15/.9 = 0.166666667 */
	g = &r.iv.node;
	assert_int_equal(g->ncores, 2);
	assert_int_equal(g->nvalid, 2);
	assert_true(g->exact);
	assert_val(g->neither, V_EXACT, 0.1, 0.1, 1e-12);
	assert_val(g->t0_only, V_EXACT, 0.65, 0.65, 1e-12);
	assert_val(g->t1_only, V_EXACT, 0.1, 0.1, 1e-12);
	assert_val(g->both, V_EXACT, 0.15, 0.15, 1e-12);
	assert_val(g->util, V_EXACT, 0.9, 0.9, 1e-12);
	assert_val(g->active_threads, V_EXACT, 1.166666667, 1.166666667, 1e-9);
	assert_val(g->ghz, V_EXACT, 2.361904762, 2.361904762, 1e-9);
	assert_val(g->cpi, V_EXACT, 0.667731629, 0.667731629, 1e-9);
	assert_int_equal(g->both_of_busy.kind, V_EXACT);
	assert_near(g->both_of_busy.v, 0.166666667, 1e-9);
	assert_int_equal(r.iv.npackages, 1);
	assert_val(r.iv.packages[0].both, V_EXACT, 0.15, 0.15, 1e-12);
	assert_int_equal(r.iv.packages[0].ncores, 2);
	rig_free(&r);
}

static void
test_skx_skew(void **state)
{
	struct rig r;
	const struct core_fig *cf;

	(void)state;
	skx_setup(&r, false);
	/* core 0 with any read a little late: ref0 1.26e9, ref1 .42e9,
	 * any 20,025,000 x 84 = 1.6821e9 (within tol = .005 x 2.1e9 + 2 x 84
	 * = 10,500,168 of ref0 + ref1 = 1.68e9). Fractions of 2.1e9:
	 * N = .4179/2.1 = .199, A = 1.2621/2.1 = .601, B = .4221/2.1 = .201,
	 * C = -.0021/2.1 = -.001 -> clamped to 0 (inconsistency .001), the
	 * rest / 1.001: N 0.198801199, A 0.600399600, B 0.200799201 */
	thread(&r, 2, 2100000000ull, 420000000ull, 420000000ull, 420000000ull);
	put(&r, 0, SLOT_ANY, 20025000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	cf = &r.iv.cores[0];
	assert_int_equal(cf->reason, R_NONE);
	assert_val(cf->neither, V_EXACT, 0.198801199, 0.198801199, 1e-9);
	assert_val(cf->t0_only, V_EXACT, 0.600399600, 0.600399600, 1e-9);
	assert_val(cf->t1_only, V_EXACT, 0.200799201, 0.200799201, 1e-9);
	assert_val(cf->both, V_EXACT, 0.0, 0.0, 0.0);
	assert_near(cf->inconsistency, 0.001, 1e-12);
	rig_free(&r);
}

static void
test_icx(void **state)
{
	struct rig r;
	const struct core_fig *cf;

	(void)state;
	rig_init(&r, 2, 2, UARCH_ICX, CPU_VENDOR_INTEL, 6, 0x6A, 21, false);
	assert_int_equal(r.p.split, SPLIT_OTA);
	/* core 0 again N .2 A .3 B .2 C .3 with T 2.1e9, scale 84:
	 * OTA0 = A = .63e9 ticks = 7,500,000; OTA1 = B = .42e9 = 5,000,000;
	 * C = ref0 - A = 1.26e9 - .63e9 = .63e9 = ref1 - B (1.05 - .42) */
	thread(&r, 0, 2100000000ull, 1560000000ull, 1560000000ull, 1260000000ull);
	thread(&r, 2, 2100000000ull, 2600000000ull, 1300000000ull, 1050000000ull);
	put(&r, 0, SLOT_OTA, 7500000ull);
	put(&r, 2, SLOT_OTA, 5000000ull);
	/* core 1: both threads busy all the time: OTA 0 on both, C = 1 */
	thread(&r, 1, 2100000000ull, 2100000000ull, 2100000000ull, 2100000000ull);
	thread(&r, 3, 2100000000ull, 2100000000ull, 2100000000ull, 2100000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_true(r.iv.valid);
	cf = &r.iv.cores[0];
	assert_int_equal(cf->split, SPLIT_OTA);
	assert_val(cf->neither, V_EXACT, 0.2, 0.2, 1e-12);
	assert_val(cf->t0_only, V_EXACT, 0.3, 0.3, 1e-12);
	assert_val(cf->t1_only, V_EXACT, 0.2, 0.2, 1e-12);
	assert_val(cf->both, V_EXACT, 0.3, 0.3, 1e-12);
	assert_val(cf->active_threads, V_EXACT, 1.375, 1.375, 1e-12);
	cf = &r.iv.cores[1];
	assert_val(cf->both, V_EXACT, 1.0, 1.0, 1e-12);
	assert_val(cf->active_threads, V_EXACT, 2.0, 2.0, 1e-12);
	/* Ice Lake-SP is 5-wide: 4.2e9 instructions / (2.1e9 cycles x 5) = .4 */
	assert_val(cf->issue_util, V_EXACT, 0.4, 0.4, 1e-9);

	/* OTA1 of core 0 off by 2% of T (5,500,000 counts = .462e9 ticks):
	 * C from thread 1 = 1.05e9 - .462e9 = .588e9 vs .63e9 from thread 0,
	 * 42e6 apart > tol 10.5e6: the split cannot be trusted */
	put(&r, 2, SLOT_OTA, 5500000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	/* The fixed counters are sound, so the core falls back to the bound
	 * from u0 = A+C = .6, u1 = B+C = .5: C in [.6+.5-1, min] = [.1, .5],
	 * A = u0-C in [.1, .5], B = u1-C in [0, .4], N = 1-u0-u1+C in [0, .4].
	 * The core is valid (a labelled bound); the interval is not. */
	assert_int_equal(r.iv.cores[0].reason, R_NONE);
	assert_int_equal(r.iv.cores[0].fallback, R_SKEW);
	assert_false(r.iv.cores[0].exact);
	assert_val(r.iv.cores[0].both, V_BOUND, 0.1, 0.5, 1e-12);
	assert_val(r.iv.cores[0].t0_only, V_BOUND, 0.1, 0.5, 1e-12);
	assert_val(r.iv.cores[0].t1_only, V_BOUND, 0.0, 0.4, 1e-12);
	assert_val(r.iv.cores[0].neither, V_BOUND, 0.0, 0.4, 1e-12);
	assert_false(r.iv.valid);
	rig_free(&r);
}

static void
test_reprogrammed(void **state)
{
	struct rig r;
	int s;

	(void)state;
	skx_setup(&r, false);
	/* another program reset PMC0 on cpu 0: 10^9 before, 500 after; the
	 * 48-bit delta is 281473976711156 counts, x 84 far beyond T */
	s = plan_slot_index(&r.p, SLOT_ANY);
	sample_row(&r.a, 0)[s] = 1000000000ull;
	sample_row(&r.b, 0)[s] = 500;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_false(r.iv.valid);
	/* the fixed counters are sane: per-thread figures stay (util .6 and
	 * .5), and the split falls back to their bound: C in [.1, .5] */
	assert_int_equal(r.iv.cores[0].reason, R_NONE);
	assert_int_equal(r.iv.cores[0].fallback, R_REPROGRAMMED);
	assert_val(r.iv.cores[0].both, V_BOUND, 0.1, 0.5, 1e-12);
	assert_int_equal(r.iv.threads[0].reason, R_NONE);
	assert_val(r.iv.threads[0].util, V_EXACT, 0.6, 0.6, 1e-12);
	assert_string_equal(r.iv.reason,
	    "package 0, core 0 (cpus 0,2): counters reprogrammed by another program; "
	    "its split is shown as a bound");
	/* a fixed counter reset too (instructions 10^9 -> 500: the 48-bit
	 * delta is impossible at any clock): now nothing can be trusted */
	s = plan_slot_index(&r.p, SLOT_INST);
	sample_row(&r.a, 0)[s] = 1000000000ull;
	sample_row(&r.b, 0)[s] = 500;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.cores[0].reason, R_REPROGRAMMED);
	assert_int_equal(r.iv.cores[0].both.kind, V_NONE);
	assert_int_equal(r.iv.threads[0].reason, R_REPROGRAMMED);
	assert_string_equal(r.iv.reason,
	    "package 0, core 0 (cpus 0,2): counters reprogrammed by another program");
	/* core 1 is unaffected; the node averages the valid core only */
	assert_int_equal(r.iv.cores[1].reason, R_NONE);
	assert_int_equal(r.iv.node.ncores, 2);
	assert_int_equal(r.iv.node.nvalid, 1);
	assert_val(r.iv.node.t0_only, V_EXACT, 1.0, 1.0, 1e-12);

	rig_free(&r);

	/* a fixed counter 2 that ran ahead of the TSC is impossible too */
	skx_setup(&r, false);
	put(&r, 2, SLOT_REF, 2200000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.cores[0].reason, R_REPROGRAMMED);
	assert_int_equal(r.iv.threads[2].reason, R_REPROGRAMMED);
	assert_int_equal(r.iv.threads[2].util.kind, V_NONE);
	rig_free(&r);
}

static void
test_states(void **state)
{
	struct rig r;

	(void)state;
	skx_setup(&r, false);
	/* cpu 3 went offline */
	r.b.state[3] = CPU_OFFLINE;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_false(r.iv.valid);
	assert_int_equal(r.iv.cores[0].reason, R_NONE);
	assert_int_equal(r.iv.cores[1].reason, R_OFFLINE);
	assert_int_equal(r.iv.threads[1].reason, R_OFFLINE);
	assert_string_equal(r.iv.reason, "package 0, core 1 (cpus 1,3): a CPU of the core is offline");

	/* a read error */
	r.b.state[3] = CPU_READ_ERROR;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.cores[1].reason, R_READ_ERROR);

	/* core 1 not selected (--cpus 0,2): valid, core 1 left out */
	r.a.state[1] = r.a.state[3] = r.b.state[1] = r.b.state[3] = CPU_NOT_READ;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_true(r.iv.valid);
	assert_false(r.iv.cores[1].selected);
	assert_int_equal(r.iv.cores[1].reason, R_NOT_SELECTED);
	assert_int_equal(r.iv.threads[3].reason, R_NOT_SELECTED);
	assert_int_equal(r.iv.node.ncores, 1);
	assert_val(r.iv.node.both, V_EXACT, 0.3, 0.3, 1e-12);
	/* Too short: the one selected core is named, as before. */
	metrics_too_short(&r.c, &r.iv);
	assert_string_equal(r.iv.reason_c,
	    "package 0, core 0 (cpus 0,2): too short to measure (under 0.05 s)");

	/* no previous sample */
	metrics_compute(&r.c, NULL, &r.b, &r.iv);
	assert_false(r.iv.valid);
	assert_int_equal(r.iv.cores[0].reason, R_FIRST);
	/* Too short (httop -- true): every selected core is, and the reason
	 * says so rather than naming core 0 alone. */
	r.a.state[1] = r.a.state[3] = r.b.state[1] = r.b.state[3] = CPU_READ_OK;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_true(r.iv.valid);
	metrics_too_short(&r.c, &r.iv);
	assert_false(r.iv.valid);
	assert_int_equal(r.iv.cores[1].reason, R_TOO_SHORT);
	assert_string_equal(r.iv.reason_c, "all 2 cores (cpus 0-3): too short to measure (under 0.05 s)");

	/* sibling TSCs 1% apart: beyond tol (0.5% + 168 ticks) */
	r.a.state[1] = r.a.state[3] = r.b.state[1] = r.b.state[3] = CPU_READ_OK;
	put(&r, 2, SLOT_TSC, 2121000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.cores[0].reason, R_NONE);
	assert_int_equal(r.iv.cores[0].fallback, R_SKEW);
	/* per-thread figures of a skewed read are still right, and the bound
	 * uses each thread's own dTSC: u1 = 1.05/2.121 = .495049505, so
	 * C in [.6 + .495049505 - 1, .495049505] */
	assert_int_equal(r.iv.threads[2].reason, R_NONE);
	assert_val(r.iv.cores[0].both, V_BOUND, 0.095049505, 0.495049505, 1e-9);

	/* The samples swapped (a recording replayed out of order): every TSC
	 * goes back by 2.1e9 (2.121e9 on cpu 2). Taken mod 2^64 that would be
	 * an interval of about 2^64 ticks with every share near 0; instead
	 * every core is invalid, time-backwards, and its threads blank. */
	metrics_compute(&r.c, &r.b, &r.a, &r.iv);
	assert_false(r.iv.valid);
	assert_int_equal(r.iv.cores[0].reason, R_TIME_BACK);
	assert_int_equal(r.iv.cores[1].reason, R_TIME_BACK);
	assert_int_equal(r.iv.threads[0].reason, R_TIME_BACK);
	assert_int_equal(r.iv.threads[3].reason, R_TIME_BACK);
	assert_int_equal(r.iv.threads[0].util.kind, V_NONE);
	assert_int_equal(r.iv.node.nvalid, 0);
	assert_near(r.iv.dt, -1.0, 1e-12);
	/* Both cores have it: both are named, not core 0 alone. */
	assert_string_equal(r.iv.reason_c,
	    "all 2 cores (cpus 0-3): time went backwards (samples out of order: their time stamp counters or times)");
	assert_string_equal(metrics_reason_code(R_TIME_BACK), "time-backwards");
	/* Only one thread's TSC back (cpu 3: its read came from another
	 * sample): still the whole core. */
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.cores[1].reason, R_NONE);
	sample_row(&r.b, 3)[plan_slot_index(&r.p, SLOT_TSC)] = BASE - 1;
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.cores[1].reason, R_TIME_BACK);
	assert_int_equal(r.iv.cores[0].reason, R_NONE);
	rig_free(&r);
}

static void
test_zen(void **state)
{
	struct rig r;
	const struct core_fig *cf;

	(void)state;
	/* Zen 2, 1 core x 2 threads, base 2.2 GHz: T = 2.2e9.
	 * u0 = .9 (MPERF 1.98e9), u1 = .8 (MPERF 1.76e9):
	 * C in [.7, .8], A in [.1, .2], B in [0, .1], N in [0, .1];
	 * busy in [max u, min(1, u0 + u1)] = [.9, 1];
	 * active threads = 1.7 T / busy in [1.7/1, 1.7/.9] = [1.7, 1.888888889] */
	rig_init(&r, 1, 2, UARCH_ZEN, CPU_VENDOR_AMD, 0x17, 0x31, 22, false);
	assert_int_equal(r.p.nwrites, 0);
	thread(&r, 0, 2200000000ull, 1980000000ull, 1980000000ull, 1980000000ull);
	thread(&r, 1, 2200000000ull, 1760000000ull, 1760000000ull, 1760000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	cf = &r.iv.cores[0];
	assert_int_equal(cf->reason, R_NONE);
	assert_int_equal(cf->split, SPLIT_BOUND);
	assert_false(cf->exact);
	assert_val(cf->both, V_BOUND, 0.7, 0.8, 1e-12);
	assert_val(cf->t0_only, V_BOUND, 0.1, 0.2, 1e-12);
	assert_val(cf->t1_only, V_BOUND, 0.0, 0.1, 1e-12);
	assert_val(cf->neither, V_BOUND, 0.0, 0.1, 1e-12);
	assert_val(cf->util, V_BOUND, 0.9, 1.0, 1e-12);
	assert_val(cf->active_threads, V_BOUND, 1.7, 1.888888889, 1e-9);
	/* APERF = MPERF: 2.2 GHz */
	assert_val(cf->ghz, V_EXACT, 2.2, 2.2, 1e-9);
	/* aggregates of a bound are bounds */
	assert_false(r.iv.node.exact);
	assert_val(r.iv.node.both, V_BOUND, 0.7, 0.8, 1e-12);

	/* Thread 1 idle (MPERF 0), u0 = .6: the bounds close.
	 * C in [max(0, .6 + 0 - 1), min(.6, 0)] = [0, 0]: C = 0, A = .6,
	 * B = 0, N = .4, busy in [.6, min(1, .6)]: .6, active threads
	 * .6 T / .6 T = 1: every figure exact, and so the core. */
	thread(&r, 0, 2200000000ull, 1320000000ull, 1320000000ull, 1320000000ull);
	thread(&r, 1, 2200000000ull, 0, 0, 0);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	cf = &r.iv.cores[0];
	assert_int_equal(cf->split, SPLIT_BOUND);
	assert_true(cf->exact);
	assert_val(cf->both, V_EXACT, 0.0, 0.0, 1e-12);
	assert_val(cf->t0_only, V_EXACT, 0.6, 0.6, 1e-12);
	assert_val(cf->t1_only, V_EXACT, 0.0, 0.0, 1e-12);
	assert_val(cf->neither, V_EXACT, 0.4, 0.4, 1e-12);
	assert_val(cf->util, V_EXACT, 0.6, 0.6, 1e-12);
	assert_val(cf->active_threads, V_EXACT, 1.0, 1.0, 1e-12);
	assert_true(r.iv.node.exact);

	/* Thread 0 busy all the time (MPERF = TSC), u1 = .3:
	 * C in [1 + .3 - 1, min(1, .3)] = [.3, .3]: C = .3, A = .7, B = 0,
	 * N = 0; busy 1; active threads 1.3. */
	thread(&r, 0, 2200000000ull, 2200000000ull, 2200000000ull, 2200000000ull);
	thread(&r, 1, 2200000000ull, 660000000ull, 660000000ull, 660000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	cf = &r.iv.cores[0];
	assert_true(cf->exact);
	assert_val(cf->both, V_EXACT, 0.3, 0.3, 1e-12);
	assert_val(cf->t0_only, V_EXACT, 0.7, 0.7, 1e-12);
	assert_val(cf->t1_only, V_EXACT, 0.0, 0.0, 1e-12);
	assert_val(cf->neither, V_EXACT, 0.0, 0.0, 1e-12);
	assert_val(cf->active_threads, V_EXACT, 1.3, 1.3, 1e-12);
	rig_free(&r);
}

static void
test_knl(void **state)
{
	struct rig r;
	const struct core_fig *cf;

	(void)state;
	/* Xeon Phi 7250 (1.4 GHz), one core of 4 threads, T = 1.4e9:
	 * u = .5, .25, 0, 0 (ref .7e9, .35e9, 0, 0), cycles = ref.
	 * util in [max u, min(1, sum u)] = [.5, .75]; active threads =
	 * sum ref / busy in [.75/.75, .75/.5] = [1, 1.5]; no 4-way split.
	 * Core cycles in [.5, .75] x 1.4e9 = [.7e9, 1.05e9]; instructions
	 * 1.05e9: CPI in [.666666667, 1]; 2-wide issue: [1.05/2.1, 1.05/1.4]
	 * = [.5, .75] */
	rig_init(&r, 1, 4, UARCH_KNL, CPU_VENDOR_INTEL, 6, 0x57, 14, false);
	thread(&r, 0, 1400000000ull, 700000000ull, 700000000ull, 700000000ull);
	thread(&r, 1, 1400000000ull, 350000000ull, 350000000ull, 350000000ull);
	thread(&r, 2, 1400000000ull, 0, 0, 0);
	thread(&r, 3, 1400000000ull, 0, 0, 0);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	cf = &r.iv.cores[0];
	assert_int_equal(cf->reason, R_NONE);
	assert_int_equal(cf->split, SPLIT_NONE);
	assert_int_equal(cf->both.kind, V_NONE);
	assert_val(cf->util, V_BOUND, 0.5, 0.75, 1e-12);
	assert_val(cf->active_threads, V_BOUND, 1.0, 1.5, 1e-12);
	assert_val(cf->ghz, V_EXACT, 1.4, 1.4, 1e-9);
	assert_val(cf->cpi, V_BOUND, 0.666666667, 1.0, 1e-9);
	assert_val(cf->issue_util, V_BOUND, 0.5, 0.75, 1e-9);
	assert_true(r.iv.valid);
	assert_int_equal(r.iv.node.both.kind, V_NONE);
	assert_val(r.iv.node.util, V_BOUND, 0.5, 0.75, 1e-12);
	/* node active threads = sum ref / busy, busy in [.7e9, 1.05e9]:
	 * [1.05/1.05, 1.05/.7] = [1, 1.5]; node CPI by instructions = the
	 * core's [.666666667, 1] */
	assert_val(r.iv.node.active_threads, V_BOUND, 1.0, 1.5, 1e-12);
	assert_val(r.iv.node.cpi, V_BOUND, 0.666666667, 1.0, 1e-9);
	rig_free(&r);
}

/* A plan without a split (an unknown CPU whose cores do not all have two
 * threads) must not grow one: sibling TSCs 1% apart make a 2-thread core
 * invalid (skew), not a "fallback" bound the plan never promised. */
static void
test_none_plan_skew(void **state)
{
	struct rig r;
	const struct core_fig *cf;

	(void)state;
	rig_init(&r, 1, 2, UARCH_UNKNOWN, CPU_VENDOR_INTEL, 6, 0x99, 20, false);
	r.p.split = SPLIT_NONE;
	/* T = 2e9, tol = .005 x 2e9 + 2 = 10,000,002; thread 1's dTSC is
	 * 2.02e9, 20e6 away: skew */
	thread(&r, 0, 2000000000ull, 1000000000ull, 1000000000ull, 1000000000ull);
	thread(&r, 1, 2020000000ull, 1000000000ull, 1000000000ull, 1000000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	cf = &r.iv.cores[0];
	assert_int_equal(cf->fallback, R_NONE);
	assert_int_equal(cf->reason, R_SKEW);
	assert_int_equal(cf->split, SPLIT_NONE);
	assert_int_equal(cf->both.kind, V_NONE);
	assert_false(r.iv.valid);
	assert_string_equal(r.iv.reason, "package 0, core 0 (cpus 0,1): sibling threads read too far apart");
	rig_free(&r);
}

/* The real Stampede2 node (fixtures/real/stampede2-c591-803, PROVENANCE.md):
 * 2 x Xeon 8160, 24 cores each, HT; LP n and n+48 are siblings, exactly the
 * numbering of topology_synthetic(2, 24, 2). PMC1 held REF_XCLK:ANY
 * (0x0063013c), so its counts go into our SLOT_ANY. */
#define REAL_NS  59
#define REAL_NLP 96

struct real {
	uint64_t tsc[REAL_NS];
	uint64_t v[REAL_NS][REAL_NLP][4];   /* inst, cycles, ref, any */
};

static void
real_load(struct real *d)
{
	const char *path = fixture("real/stampede2-c591-803/c591-803.perfcounts.lua");
	FILE *f = fopen(path, "r");
	char line[256], ev[64];
	unsigned lp, s;
	unsigned long long v;

	if (f == NULL)
		fail_msg("cannot open %s", path);
	memset(d, 0, sizeof *d);
	while (fgets(line, sizeof line, f) != NULL) {
		int k = -1;

		if (sscanf(line, "tsc[%u] = %llu", &s, &v) == 2) {
			if (s < REAL_NS)
				d->tsc[s] = v;
			continue;
		}
		if (sscanf(line, "core_fixed_counts[%u][\"%63[^\"]\"][%u] = %llu", &lp, ev, &s,
		    &v) == 4) {
			if (strcmp(ev, "Inst_Retired.Any") == 0)
				k = 0;
			else if (strcmp(ev, "CPU_CLK_Unhalted.Core") == 0)
				k = 1;
			else if (strcmp(ev, "CPU_CLK_Unhalted.Ref") == 0)
				k = 2;
		} else if (sscanf(line, "core_counts[%u][\"%63[^\"]\"][%u] = %llu", &lp, ev, &s,
		    &v) == 4 && strcmp(ev, "CPU_CLK_UNHALTED.REF_XCLK") == 0) {
			k = 3;
		}
		if (k >= 0 && lp < REAL_NLP && s < REAL_NS)
			d->v[s][lp][k] = v;
	}
	fclose(f);
	assert_int_equal(d->tsc[0], 25370245187777968ull);
}

static void
real_sample(const struct real *d, const struct plan *p, unsigned s, struct sample *out)
{
	static const enum slot_kind kinds[4] = { SLOT_INST, SLOT_CYCLES, SLOT_REF, SLOT_ANY };
	unsigned lp, k;

	out->time = s;
	for (lp = 0; lp < REAL_NLP; lp++) {
		out->state[lp] = CPU_READ_OK;
		sample_row(out, lp)[plan_slot_index(p, SLOT_TSC)] = d->tsc[s];
		for (k = 0; k < 4; k++)
			sample_row(out, lp)[plan_slot_index(p, kinds[k])] = d->v[s][lp][k];
	}
}

static void
test_real_stampede2(void **state)
{
	static struct real d;
	struct machine m;
	struct plan p;
	struct metrics_ctx c;
	struct sample a, b;
	struct interval iv;
	const struct core_fig *cf;
	const struct thread_fig *t;
	unsigned s;

	(void)state;
	real_load(&d);
	memset(&m, 0, sizeof m);
	topology_synthetic(&m.topo, 2, 24, 2);
	m.id.vendor = CPU_VENDOR_INTEL;
	m.id.family = 6;
	m.id.model = 0x55;
	m.id.base_ratio = 21;            /* TSC_ratio = 21 in the file */
	m.id.tsc_num = 168;
	m.id.tsc_den = 2;
	m.group = UARCH_SKX;
	plan_for_machine(&p, &m);
	metrics_ctx_init(&c, &m, &p);
	sample_init(&a, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	sample_init(&b, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	interval_init(&iv, &m);

	/* before the other agent came (samples 1..17), with scale 84, every
	 * core of every interval passes the invariants: the AnyThread count
	 * sits between max(ref0, ref1) and min(T, ref0 + ref1) within tol */
	for (s = 1; s < 17; s++) {
		real_sample(&d, &p, s, &a);
		real_sample(&d, &p, s + 1, &b);
		metrics_compute(&c, &a, &b, &iv);
		if (!iv.valid)
			fail_msg("interval %u -> %u: %s", s, s + 1, iv.reason);
		assert_int_equal(iv.node.nvalid, 48);
		assert_true(iv.node.exact);
	}

	/* samples 15 -> 16, core 0 (LPs 0 and 48): T = 2,137,057,958,
	 * ref0 = 2,606,856, ref1 = 621,684, any = 32,050 x 84 = 2,692,200.
	 * N = (T - any)/T = 0.998740231, A = (any - ref1)/T = 0.000968863,
	 * B = (any - ref0)/T = 0.0000399353, C = (ref0 + ref1 - any)/T =
	 * 0.000250971, active threads = 3,228,540 / 2,692,200 = 1.199219969 */
	real_sample(&d, &p, 15, &a);
	real_sample(&d, &p, 16, &b);
	metrics_compute(&c, &a, &b, &iv);
	cf = &iv.cores[0];
	assert_int_equal(cf->reason, R_NONE);
	assert_val(cf->neither, V_EXACT, 0.998740231, 0.998740231, 1e-9);
	assert_val(cf->t0_only, V_EXACT, 0.000968863, 0.000968863, 1e-9);
	assert_val(cf->t1_only, V_EXACT, 0.0000399353, 0.0000399353, 1e-10);
	assert_val(cf->both, V_EXACT, 0.000250971, 0.000250971, 1e-9);
	assert_val(cf->active_threads, V_EXACT, 1.199219969, 1.199219969, 1e-9);
	assert_near(cf->inconsistency, 0.0, 0.0);

	/* 17 -> 18: PMC1 was set back (140737490783594 -> 140737488443190)
	 * on every LP, and so was fixed counter 0 (LP 0: 140747561746149 ->
	 * 140737617254630; doc/hardware.md section 6: the early notes said
	 * the fixed counters stayed sane, the data say otherwise): every core and its threads are invalid */
	real_sample(&d, &p, 17, &a);
	real_sample(&d, &p, 18, &b);
	metrics_compute(&c, &a, &b, &iv);
	assert_false(iv.valid);
	assert_int_equal(iv.node.nvalid, 0);
	assert_int_equal(iv.cores[0].reason, R_REPROGRAMMED);
	assert_string_equal(iv.reason,
	    "all 48 cores (cpus 0-95): counters reprogrammed by another program");
	assert_int_equal(iv.threads[0].reason, R_REPROGRAMMED);

	/* samples 19 -> 51 against McCalpin's own output_samples_19-51.txt:
	 * LP 0 Inst 9,560,010,846, Core 82,596,863,286, Ref 67,757,046,588:
	 * GHz 82596863286/67757046588 x 2.1 = 2.559931721 (he prints 2.560),
	 * IPC 9560010846/82596863286 = 0.115743025 (he prints 0.116) */
	real_sample(&d, &p, 19, &a);
	real_sample(&d, &p, 51, &b);
	metrics_compute(&c, &a, &b, &iv);
	t = &iv.threads[0];
	assert_int_equal(t->reason, R_NONE);
	assert_int_equal(t->d_inst, 9560010846ull);
	assert_int_equal(t->d_cyc, 82596863286ull);
	assert_int_equal(t->d_ref, 67757046588ull);
	assert_val(t->ghz, V_EXACT, 2.559931721, 2.559931721, 1e-9);
	assert_val(t->ipc, V_EXACT, 0.115743025, 0.115743025, 1e-9);

	interval_free(&iv);
	sample_free(&a);
	sample_free(&b);
	topology_free(&m.topo);
}

/* The job's own CPI and GHz from its cgroup's counts (metrics_job_rates),
 * on the SKX rig (TSC 2.1 GHz): 1e9 instructions, 1.5e9 cycles, 1.05e9
 * reference cycles: CPI 1.5e9 / 1e9 = 1.5, GHz 1.5e9 / 1.05e9 x 2.1 =
 * 3.0. No instructions: CPI absent no-inst; no reference cycles: GHz
 * absent never-active; no counts: both absent with the reason given.
 * metrics_compute leaves them absent no-cgroup-events. And the job's
 * figures taken from no record (metrics_take_job, NULL): absent with the
 * reason given on every valid core, its threads and the node's cpu_s. */
static void
test_job_rates(void **state)
{
	struct rig r;
	uint64_t d[3] = { 1000000000ull, 1500000000ull, 1050000000ull };
	unsigned cpu;

	(void)state;
	skx_setup(&r, true);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.job_cpi.kind, V_NONE);
	assert_int_equal(r.iv.job_cpi.why, R_NO_CGROUP_EVENTS);
	assert_int_equal(r.iv.job_ghz.why, R_NO_CGROUP_EVENTS);
	assert_near(r.c.base_hz, 2.1e9, 1.0);
	metrics_job_rates(&r.c, d, R_NONE, &r.iv);
	assert_val(r.iv.job_cpi, V_EXACT, 1.5, 1.5, 1e-12);
	assert_val(r.iv.job_ghz, V_EXACT, 3.0, 3.0, 1e-9);
	d[0] = 0;
	d[2] = 0;
	metrics_job_rates(&r.c, d, R_NONE, &r.iv);
	assert_int_equal(r.iv.job_cpi.why, R_NO_INST);
	assert_int_equal(r.iv.job_ghz.why, R_NOT_HALTED_ZERO);
	metrics_job_rates(&r.c, NULL, R_READ_ERROR, &r.iv);
	assert_int_equal(r.iv.job_cpi.why, R_READ_ERROR);
	assert_int_equal(r.iv.job_ghz.why, R_READ_ERROR);
	assert_string_equal(metrics_reason_code(R_NO_CGROUP_EVENTS), "no-cgroup-events");

	metrics_take_job(&r.c, NULL, R_NO_RECORD, &r.iv);
	assert_int_equal(r.iv.cores[0].reason, R_NONE);
	assert_int_equal(r.iv.cores[0].job_both.why, R_NO_RECORD);
	assert_int_equal(r.iv.cores[0].job_none.why, R_NO_RECORD);
	for (cpu = 0; cpu < r.iv.max_cpu; cpu++)
		if (r.iv.threads[cpu].reason == R_NONE)
			assert_int_equal(r.iv.threads[cpu].job_util.why, R_NO_RECORD);
	assert_int_equal(r.iv.node.cpu_s.kind, V_NONE);
	assert_int_equal(r.iv.node.cpu_s.why, R_NO_RECORD);
	assert_int_equal(r.iv.node.job_both.why, R_NO_RECORD);
	assert_string_equal(metrics_reason_code(R_NO_RECORD), "no-record");
	rig_free(&r);
}

/* The job's CPU seconds (cpu_s) are a sum over its cores' threads: with a
 * core without figures (records lost on it) a sum over the others would
 * be short by whatever the job ran there, shown as exact ("CPU 0.00 s"
 * for a command that used 2 s). The SKX rig's 2 cores, each of its 4
 * threads 0.5 s of the job's: 2 s; core 1 lost: a bound, [1, 3]. */
static void
test_job_cpu_gap(void **state)
{
	struct rig r;
	struct interval from;
	unsigned cpu;

	(void)state;
	skx_setup(&r, false);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	interval_init(&from, &r.m);
	metrics_compute(&r.c, &r.a, &r.b, &from);
	for (cpu = 0; cpu < from.max_cpu; cpu++) {
		from.threads[cpu].job_util = val_exact(0.5 / 1.0);
		from.threads[cpu].job_s = 0.5;
		from.threads[cpu].has_job = true;
	}
	metrics_take_job(&r.c, &from, R_NONE, &r.iv);
	assert_val(r.iv.node.cpu_s, V_EXACT, 2.0, 2.0, 1e-12);

	r.iv.cores[1].reason = R_LOST;
	metrics_take_job(&r.c, &from, R_NONE, &r.iv);
	assert_false(r.iv.valid);
	assert_int_equal(r.iv.node.nvalid, 1);
	/* core 0's two threads counted (1 s), core 1's two not for the
	 * interval's 1 s: a bound [1, 1 + 2] */
	assert_int_equal(r.iv.node.cpu_s.kind, V_BOUND);
	assert_near(r.iv.node.cpu_s.lo, 1.0, 1e-12);
	assert_near(r.iv.node.cpu_s.hi, 3.0, 1e-12);
	assert_int_equal(r.iv.packages[0].cpu_s.kind, V_BOUND);
	interval_free(&from);
	rig_free(&r);
}

static void
test_reasons(void **state)
{
	int r;

	(void)state;
	for (r = 0; r < R_NREASONS; r++) {
		assert_true(strlen(metrics_reason_text((enum reason)r)) > 0);
		assert_true(strlen(metrics_reason_code((enum reason)r)) > 0);
	}
	assert_string_equal(metrics_reason_code(R_REPROGRAMMED), "reprogrammed");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread),
		cmocka_unit_test(test_job_cpu_gap),
		cmocka_unit_test(test_gips),
		cmocka_unit_test(test_skx),
		cmocka_unit_test(test_skx_skew),
		cmocka_unit_test(test_icx),
		cmocka_unit_test(test_reprogrammed),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_zen),
		cmocka_unit_test(test_knl),
		cmocka_unit_test(test_none_plan_skew),
		cmocka_unit_test(test_real_stampede2),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_job_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
