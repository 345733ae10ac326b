/* test_stopped.c: a counter that stands still while its partner advances
 * (metrics/stopped.c, httop.1 VALIDITY): the plan's partner and control
 * tables, the thresholds worked out by hand, and what metrics_compute()
 * makes of a stopped counter on hand-made samples: which figures go
 * absent with R_STOPPED, which stay, and how the interval is flagged. */
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

/* One package of `ncores` cores of `smt` threads: core k = {k, k + ncores}. */
static void
rig_init(struct rig *r, unsigned ncores, unsigned smt, enum uarch_group g,
    enum cpu_vendor v, int family, int model, unsigned base_ratio)
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
	sample_init(&r->a, r->m.topo.max_cpu, r->p.nslots, r->m.topo.ncores, false);
	sample_init(&r->b, r->m.topo.max_cpu, r->p.nslots, r->m.topo.ncores, false);
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

static void
put(struct rig *r, unsigned cpu, enum slot_kind k, uint64_t d)
{
	int s = plan_slot_index(&r->p, k);

	assert_true(s >= 0);
	sample_row(&r->b, cpu)[s] = BASE + d;
}

static void
thread(struct rig *r, unsigned cpu, uint64_t tsc, uint64_t inst, uint64_t cyc, uint64_t ref)
{
	put(r, cpu, SLOT_TSC, tsc);
	put(r, cpu, SLOT_INST, inst);
	put(r, cpu, SLOT_CYCLES, cyc);
	put(r, cpu, SLOT_REF, ref);
}

/* Is partner entry (slot kind a, partner kind b, rule) in the plan? */
static bool
has_partner(const struct plan *p, enum slot_kind a, enum slot_kind b, enum partner_rule rule)
{
	unsigned k;

	for (k = 0; k < p->npartners; k++)
		if (p->slots[p->partners[k].slot].kind == a &&
		    p->slots[p->partners[k].partner].kind == b && p->partners[k].rule == rule)
			return true;
	return false;
}

/* The control entry of kind k on register msr, or NULL. */
static const struct plan_control *
control(const struct plan *p, enum slot_kind k, uint32_t msr)
{
	unsigned i;

	for (i = 0; i < p->ncontrols; i++)
		if (p->slots[p->controls[i].slot].kind == k && p->controls[i].msr == msr)
			return &p->controls[i];
	return NULL;
}

/* SKX: TSC, fixed 0-2, PMC0 = REF_XCLK:ANY on thread 0. Partners: each of
 * instructions, core and reference cycles vouches for the other two; the
 * AnyThread count by every thread's reference cycles. Controls: fixed
 * counter i has FIXED_CTR_CTRL bits 0x3 << 4i and GLOBAL_CTRL bit 32 + i,
 * PMC0 its PERFEVTSEL0 EN|USR|OS (0x430000) and GLOBAL_CTRL bit 0, all of
 * them bits the plan writes. Zen: IRPerfCount's HWCR bit 30, not httop's. */
static void
test_tables(void **state)
{
	struct rig r;
	const struct plan_control *k;

	(void)state;
	rig_init(&r, 2, 2, UARCH_SKX, CPU_VENDOR_INTEL, 6, 0x55, 21);
	assert_int_equal(r.p.npartners, 7);
	assert_true(has_partner(&r.p, SLOT_INST, SLOT_CYCLES, PARTNER_SAME));
	assert_true(has_partner(&r.p, SLOT_INST, SLOT_REF, PARTNER_SAME));
	assert_true(has_partner(&r.p, SLOT_CYCLES, SLOT_REF, PARTNER_SAME));
	assert_true(has_partner(&r.p, SLOT_CYCLES, SLOT_INST, PARTNER_SAME));
	assert_true(has_partner(&r.p, SLOT_REF, SLOT_CYCLES, PARTNER_SAME));
	assert_true(has_partner(&r.p, SLOT_REF, SLOT_INST, PARTNER_SAME));
	assert_true(has_partner(&r.p, SLOT_ANY, SLOT_REF, PARTNER_CORE));
	assert_int_equal(r.p.ncontrols, 8);
	k = control(&r.p, SLOT_INST, MSR_FIXED_CTR_CTRL);
	assert_non_null(k);
	assert_int_equal(k->bits, 0x3);
	assert_true(k->owned);
	assert_string_equal(k->what, "fixed counter 0: OS, USR");
	k = control(&r.p, SLOT_REF, MSR_FIXED_CTR_CTRL);
	assert_int_equal(k->bits, 0x300);
	k = control(&r.p, SLOT_CYCLES, MSR_PERF_GLOBAL_CTRL);
	assert_int_equal(k->bits, 1ull << 33);
	assert_true(k->owned);
	k = control(&r.p, SLOT_ANY, MSR_PERFEVTSEL0);
	assert_int_equal(k->bits, 0x430000);
	assert_true(k->owned);
	k = control(&r.p, SLOT_ANY, MSR_PERF_GLOBAL_CTRL);
	assert_int_equal(k->bits, 1);
	rig_free(&r);

	/* ICX: ONE_THREAD_ACTIVE on every thread, partnered by the time its
	 * thread ran longer than the sibling. */
	rig_init(&r, 2, 2, UARCH_ICX, CPU_VENDOR_INTEL, 6, 0x6A, 21);
	assert_true(has_partner(&r.p, SLOT_OTA, SLOT_REF, PARTNER_ALONE));
	rig_free(&r);

	rig_init(&r, 1, 2, UARCH_ZEN, CPU_VENDOR_AMD, 0x17, 0x31, 22);
	assert_int_equal(r.p.npartners, 6);
	assert_int_equal(r.p.ncontrols, 1);
	k = control(&r.p, SLOT_INST, MSR_AMD_HWCR);
	assert_non_null(k);
	assert_int_equal(k->bits, 1ull << 30);
	assert_false(k->owned);
	assert_string_equal(k->what, "IRPerfEn");
	rig_free(&r);
}

/* The thresholds, by hand (METRICS_STOP_WINDOW = 20 us):
 *   core cycles     20e-6 x 10e9 + 2              =   200,002
 *   instructions    20e-6 x 16 x 10e9 + 2         = 3,200,002
 *   reference       20e-6 x 2.1e9 + 2 x 84        =    42,168
 *                   20e-6 x 2.2e9 + 2 x 1         =    44,002 (Zen, S 1)
 *   AnyThread       20e-6 x 2.1e9 / 84 + 2        =       502 counts */
static void
test_thresholds(void **state)
{
	(void)state;
	assert_near(metrics_stop_threshold(SLOT_CYCLES, 2.1e9, 84), 200002.0, 1e-6);
	assert_near(metrics_stop_threshold(SLOT_INST, 2.1e9, 84), 3200002.0, 1e-6);
	assert_near(metrics_stop_threshold(SLOT_REF, 2.1e9, 84), 42168.0, 1e-6);
	assert_near(metrics_stop_threshold(SLOT_REF, 2.2e9, 1), 44002.0, 1e-6);
	assert_near(metrics_stop_threshold(SLOT_ANY, 2.1e9, 84), 502.0, 1e-6);
}

/* metrics_stopped_kinds at the edges, SKX plan, one thread (slots 0-4 =
 * TSC, INST, CYCLES, REF, ANY; ANY read on thread 0 only). */
static void
test_edges(void **state)
{
	struct rig r;
	struct slot_deltas t[2];
	unsigned i;

	(void)state;
	rig_init(&r, 1, 2, UARCH_SKX, CPU_VENDOR_INTEL, 6, 0x55, 21);
	memset(t, 0, sizeof t);
	for (i = 0; i < 2; i++) {
		t[i].read = 0xF | (i == 0 ? 0x10 : 0);
		t[i].d[0] = 2100000000ull;
	}
	/* Halted all the time: everything still, nothing stopped. */
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 0, 2.1e9, 0.0), 0);
	/* Reference cycles exactly at the threshold: not yet. */
	t[0].d[3] = 42168;
	t[0].d[4] = 600;
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 0, 2.1e9, 0.0), 0);
	/* One tick more: instructions and core cycles stood still while the
	 * thread ran 20 us. */
	t[0].d[3] = 42169;
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 0, 2.1e9, 0.0),
	    KIND_BIT(SLOT_INST) | KIND_BIT(SLOT_CYCLES));
	/* Core cycles 200,002 (at the threshold) with the reference clock
	 * below its own: nothing; 200,003: instructions stopped. */
	t[0].d[3] = 40000;
	t[0].d[2] = 200002;
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 0, 2.1e9, 0.0), 0);
	t[0].d[2] = 200003;
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 0, 2.1e9, 0.0), KIND_BIT(SLOT_INST));
	/* Instructions 3,200,003 with both clocks still: both stopped. */
	memset(t[0].d + 1, 0, 4 * sizeof t[0].d[0]);
	t[0].d[1] = 3200003;
	t[0].d[4] = 600;
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 0, 2.1e9, 0.0),
	    KIND_BIT(SLOT_CYCLES) | KIND_BIT(SLOT_REF));
	/* AnyThread still while only the sibling ran: its reference cycles
	 * must pass 42,168 + the sibling skew (here 10,000 ticks). */
	memset(t[0].d + 1, 0, 4 * sizeof t[0].d[0]);
	t[1].d[1] = 1000000;
	t[1].d[2] = 1000000;
	t[1].d[3] = 52168;
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 0, 2.1e9, 10000.0), 0);
	t[1].d[3] = 52169;
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 0, 2.1e9, 10000.0), KIND_BIT(SLOT_ANY));
	/* ... and it is thread 0's alone: thread 1 does not read it. */
	assert_int_equal(metrics_stopped_kinds(&r.p, t, 2, 1, 2.1e9, 10000.0), 0);
	rig_free(&r);
}

/* SKX, core 0 = {0, 2}, core 1 = {1, 3}, T = 2.1e9 (1 s at 2.1 GHz).
 * CPU 2's instructions stand still while it runs 1.3e9 core cycles over
 * 1.05e9 reference ticks (50%): CPI, nominal CPI and IPC are absent with
 * R_STOPPED; utilisation .5, GHz 1.3/1.05 x 2.1 = 2.6 and net GHz 1.3 stay.
 * Core 0 (ref0 1.26e9, ref1 1.05e9, any 20,000,000 x 84 = 1.68e9) keeps its
 * exact split (.2 .3 .2 .3) and GHz (1.56 + 1.3)/(1.26 + 1.05) x 2.1 = 2.6,
 * but has no CPI or issue utilisation; nor has the node, whose CPI would
 * otherwise be core 1's alone. CPU 3, halted (all zero), is a valid idle
 * thread. The interval is invalid, naming the counter and CPU 2. */
static void
test_inst_stopped(void **state)
{
	struct rig r;
	const struct thread_fig *t;
	const struct core_fig *cf;

	(void)state;
	rig_init(&r, 2, 2, UARCH_SKX, CPU_VENDOR_INTEL, 6, 0x55, 21);
	thread(&r, 0, 2100000000ull, 1560000000ull, 1560000000ull, 1260000000ull);
	thread(&r, 2, 2100000000ull, 0, 1300000000ull, 1050000000ull);
	put(&r, 0, SLOT_ANY, 20000000ull);
	thread(&r, 1, 2100000000ull, 2100000000ull, 2100000000ull, 2100000000ull);
	thread(&r, 3, 2100000000ull, 0, 0, 0);
	put(&r, 1, SLOT_ANY, 25000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);

	t = &r.iv.threads[2];
	assert_int_equal(t->reason, R_NONE);
	assert_int_equal(t->stopped, KIND_BIT(SLOT_INST));
	assert_int_equal(t->cpi.kind, V_NONE);
	assert_int_equal(t->cpi.why, R_STOPPED);
	assert_int_equal(t->nominal_cpi.why, R_STOPPED);
	assert_int_equal(t->ipc.kind, V_NONE);
	assert_int_equal(t->ipc.why, R_STOPPED);
	assert_int_equal(metrics_thread_reason(&r.c, t, &t->ipc), R_STOPPED);
	assert_near(t->util.v, 0.5, 1e-12);
	assert_near(t->ghz.v, 2.6, 1e-9);
	assert_near(t->net_ghz.v, 1.3, 1e-9);

	t = &r.iv.threads[3];
	assert_int_equal(t->stopped, 0);
	assert_int_equal(t->cpi.why, R_NO_INST);
	assert_int_equal(t->ipc.why, R_NOT_HALTED_ZERO);
	assert_int_equal(t->ghz.why, R_NOT_HALTED_ZERO);

	cf = &r.iv.cores[0];
	assert_int_equal(cf->reason, R_NONE);
	assert_int_equal(cf->fallback, R_NONE);
	assert_true(cf->exact);
	assert_near(cf->both.v, 0.3, 1e-12);
	assert_near(cf->ghz.v, 2.6, 1e-9);
	assert_int_equal(cf->cpi.why, R_STOPPED);
	assert_int_equal(cf->issue_util.why, R_STOPPED);
	assert_int_equal(r.iv.cores[1].cpi.kind, V_EXACT);
	assert_int_equal(r.iv.node.cpi.kind, V_NONE);
	assert_int_equal(r.iv.node.cpi.why, R_STOPPED);
	assert_int_equal(r.iv.node.ghz.kind, V_EXACT);
	assert_int_equal(r.iv.node.nvalid, 2);

	assert_false(r.iv.valid);
	assert_int_equal(r.iv.stopped, KIND_BIT(SLOT_INST));
	assert_string_equal(r.iv.reason_c, "counter stopped: instructions retired on CPU 2");
	rig_free(&r);
}

/* The reference clock stopped on CPU 2 (cycles 1.3e9, instructions
 * 2.6e9, ref 0): no utilisation, so core 0 has no figures (R_STOPPED) and
 * is out of the aggregates; CPU 2 keeps CPI 1.3/2.6 = .5, IPC 2 and net
 * GHz 1.3 from the counters that ran. Core cycles stopped on CPU 1 (ref
 * 2.1e9, cycles 0): core 1 keeps its split but has no GHz or CPI. */
static void
test_clocks_stopped(void **state)
{
	struct rig r;
	const struct thread_fig *t;

	(void)state;
	rig_init(&r, 2, 2, UARCH_SKX, CPU_VENDOR_INTEL, 6, 0x55, 21);
	thread(&r, 0, 2100000000ull, 1560000000ull, 1560000000ull, 1260000000ull);
	thread(&r, 2, 2100000000ull, 2600000000ull, 1300000000ull, 0);
	put(&r, 0, SLOT_ANY, 20000000ull);
	thread(&r, 1, 2100000000ull, 2100000000ull, 0, 2100000000ull);
	thread(&r, 3, 2100000000ull, 0, 0, 0);
	put(&r, 1, SLOT_ANY, 25000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);

	t = &r.iv.threads[2];
	assert_int_equal(t->stopped, KIND_BIT(SLOT_REF));
	assert_int_equal(t->util.why, R_STOPPED);
	assert_int_equal(t->ghz.why, R_STOPPED);
	assert_near(t->cpi.v, 0.5, 1e-12);
	assert_near(t->ipc.v, 2.0, 1e-12);
	assert_near(t->net_ghz.v, 1.3, 1e-9);
	assert_int_equal(r.iv.cores[0].reason, R_STOPPED);
	assert_int_equal(r.iv.cores[0].both.why, R_STOPPED);

	t = &r.iv.threads[1];
	assert_int_equal(t->stopped, KIND_BIT(SLOT_CYCLES));
	assert_int_equal(t->ipc.why, R_STOPPED);
	assert_int_equal(t->ghz.why, R_STOPPED);
	assert_int_equal(t->net_ghz.why, R_STOPPED);
	assert_near(t->util.v, 1.0, 1e-12);
	assert_near(t->nominal_cpi.v, 1.0, 1e-12);
	assert_int_equal(r.iv.cores[1].reason, R_NONE);
	assert_near(r.iv.cores[1].t0_only.v, 1.0, 1e-12);
	assert_int_equal(r.iv.cores[1].ghz.why, R_STOPPED);
	assert_int_equal(r.iv.cores[1].cpi.why, R_STOPPED);

	assert_int_equal(r.iv.node.ncores, 2);
	assert_int_equal(r.iv.node.nvalid, 1);
	assert_int_equal(r.iv.node.ghz.why, R_STOPPED);
	assert_string_equal(r.iv.reason_c, "counter stopped: core cycles on CPU 1; reference "
	    "cycles on CPU 2");
	rig_free(&r);
}

/* AnyThread stopped (0) on core 0 while its threads ran: the split falls
 * back to the bound from u0 = .6, u1 = .5: both in [.1, .5]; the thread
 * figures stay. Before this rule the same counts were "reprogrammed"
 * (any below max(ref) by far more than the tolerance). */
static void
test_any_stopped(void **state)
{
	struct rig r;
	const struct core_fig *cf;

	(void)state;
	rig_init(&r, 2, 2, UARCH_SKX, CPU_VENDOR_INTEL, 6, 0x55, 21);
	thread(&r, 0, 2100000000ull, 1560000000ull, 1560000000ull, 1260000000ull);
	thread(&r, 2, 2100000000ull, 2600000000ull, 1300000000ull, 1050000000ull);
	thread(&r, 1, 2100000000ull, 2100000000ull, 2100000000ull, 2100000000ull);
	thread(&r, 3, 2100000000ull, 0, 0, 0);
	put(&r, 1, SLOT_ANY, 25000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	cf = &r.iv.cores[0];
	assert_int_equal(cf->reason, R_NONE);
	assert_int_equal(cf->fallback, R_STOPPED);
	assert_int_equal(cf->stopped, KIND_BIT(SLOT_ANY));
	assert_false(cf->exact);
	assert_int_equal(cf->both.kind, V_BOUND);
	assert_near(cf->both.lo, 0.1, 1e-12);
	assert_near(cf->both.hi, 0.5, 1e-12);
	assert_near(cf->ghz.v, 2.6, 1e-9);
	assert_int_equal(cf->cpi.kind, V_BOUND);
	assert_int_equal(r.iv.threads[0].cpi.kind, V_EXACT);
	assert_string_equal(r.iv.reason_c, "counter stopped: AnyThread reference cycles on CPU 0");
	rig_free(&r);
}

/* ICX, ONE_THREAD_ACTIVE (S = 84). Core 0: both threads ran exactly
 * together (ref0 = ref1 = 1.05e9), so ota0 = ota1 = 0 is right: valid,
 * exact, both = .5. Core 1: thread 0 ran 1.26e9 ticks, thread 1 1.05e9;
 * ota1 = 0 is right, but ota0 = 0 is not (thread 0 ran alone for at least
 * 0.21e9 ticks, far over 42,168 + 0.005 x 2.1e9 = 10,542,168): stopped,
 * the split is the bound. */
static void
test_ota_stopped(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 2, 2, UARCH_ICX, CPU_VENDOR_INTEL, 6, 0x6A, 21);
	thread(&r, 0, 2100000000ull, 1050000000ull, 1050000000ull, 1050000000ull);
	thread(&r, 2, 2100000000ull, 1050000000ull, 1050000000ull, 1050000000ull);
	thread(&r, 1, 2100000000ull, 1260000000ull, 1260000000ull, 1260000000ull);
	thread(&r, 3, 2100000000ull, 1050000000ull, 1050000000ull, 1050000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	assert_int_equal(r.iv.cores[0].stopped, 0);
	assert_int_equal(r.iv.cores[0].fallback, R_NONE);
	assert_true(r.iv.cores[0].exact);
	assert_near(r.iv.cores[0].both.v, 0.5, 1e-12);
	assert_int_equal(r.iv.threads[1].stopped, KIND_BIT(SLOT_OTA));
	assert_int_equal(r.iv.threads[3].stopped, 0);
	assert_int_equal(r.iv.cores[1].fallback, R_STOPPED);
	assert_false(r.iv.cores[1].exact);
	rig_free(&r);
}

/* Zen with IRPerfCount off (HWCR bit 30 clear: it never counts) and no
 * known base clock: CPI and IPC absent, counter stopped; GHz absent, base
 * unknown; the stop threshold takes the TSC rate from the interval
 * (2.2e9 ticks in 1 s). Every absent figure has its reason. */
static void
test_zen_irperf_off(void **state)
{
	struct rig r;
	const struct thread_fig *t;

	(void)state;
	rig_init(&r, 1, 2, UARCH_ZEN, CPU_VENDOR_AMD, 0x17, 0x31, 0);
	thread(&r, 0, 2200000000ull, 0, 1980000000ull, 1980000000ull);
	thread(&r, 1, 2200000000ull, 0, 1760000000ull, 1760000000ull);
	metrics_compute(&r.c, &r.a, &r.b, &r.iv);
	t = &r.iv.threads[0];
	assert_int_equal(t->reason, R_NONE);
	assert_int_equal(t->stopped, KIND_BIT(SLOT_INST));
	assert_int_equal(t->ipc.why, R_STOPPED);
	assert_int_equal(t->cpi.why, R_STOPPED);
	assert_int_equal(t->ghz.why, R_NO_BASE);
	assert_int_equal(t->net_ghz.why, R_NO_BASE);
	assert_near(t->util.v, 0.9, 1e-12);
	assert_int_equal(r.iv.cores[0].ghz.why, R_NO_BASE);
	assert_int_equal(r.iv.cores[0].cpi.why, R_STOPPED);
	assert_string_equal(r.iv.reason_c, "counter stopped: instructions retired on CPUs 0-1");
	rig_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_inst_stopped),
		cmocka_unit_test(test_clocks_stopped),
		cmocka_unit_test(test_any_stopped),
		cmocka_unit_test(test_ota_stopped),
		cmocka_unit_test(test_zen_irperf_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
