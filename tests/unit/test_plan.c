/* test_plan.c: the counter plans per group (plan/plan.c): exactly which
 * registers get which values, on which threads, and what is read back. */
#include "unit/testutil.h"

#include <string.h>

#include "plan/plan.h"

static void
intel_machine(struct machine *m, int model, enum uarch_group g, unsigned smt)
{
	memset(m, 0, sizeof *m);
	topology_synthetic(&m->topo, 1, 2, smt);
	m->id.vendor = CPU_VENDOR_INTEL;
	m->id.family = 6;
	m->id.model = model;
	m->id.gp_width = 48;
	m->id.fixed_width = 48;
	m->group = g;
}

static void
test_skx(void **state)
{
	struct machine m;
	struct plan p;
	const struct plan_write *w;

	(void)state;
	/* Xeon 8160: CPUID 15H EBX/EAX = 168/2 = 84 = 4 x 21 */
	intel_machine(&m, 0x55, UARCH_SKX, 2);
	m.id.tsc_num = 168;
	m.id.tsc_den = 2;
	m.id.base_ratio = 21;
	assert_int_equal(uarch_group_of(&m.id), UARCH_SKX);
	plan_for_machine(&p, &m);
	assert_int_equal(p.split, SPLIT_ANY);
	assert_int_equal(p.scale_expected, 84);
	assert_int_equal(p.scale, 84);
	assert_false(p.scale_measured);

	assert_int_equal(p.nwrites, 3);
	w = &p.writes[0];
	assert_int_equal(w->msr, 0x38D);
	assert_int_equal(w->value, 0x333);
	assert_int_equal(w->mask, 0xFFF);
	assert_int_equal(w->busy_mask, 0x333);
	assert_int_equal(w->thread_mask, THREAD_ALL);
	/* McCalpin's value on the 8160: 0x3C | 0x01 << 8 | USR | OS | ANY | EN */
	w = &p.writes[1];
	assert_int_equal(w->msr, 0x186);
	assert_int_equal(w->value, 0x0063013C);
	assert_int_equal(w->mask, ~0ull);
	assert_int_equal(w->busy_mask, 1u << 22);
	assert_int_equal(w->thread_mask, THREAD_0);
	assert_non_null(strstr(w->what, "ANY"));
	/* bits 32-34 (fixed 0-2) and bit 0 (PMC0) */
	w = &p.writes[2];
	assert_int_equal(w->msr, 0x38F);
	assert_int_equal(w->value, 0x700000001ull);
	assert_int_equal(w->mask, 0x700000001ull);
	assert_int_equal(w->busy_mask, 0);

	assert_int_equal(p.nslots, 5);
	assert_int_equal(p.slots[0].kind, SLOT_TSC);
	assert_int_equal(p.slots[0].msr, 0x10);
	assert_int_equal(p.slots[0].width, 64);
	assert_int_equal(p.slots[1].msr, 0x309);
	assert_int_equal(p.slots[2].msr, 0x30A);
	assert_int_equal(p.slots[3].msr, 0x30B);
	assert_int_equal(p.slots[3].kind, SLOT_REF);
	assert_int_equal(p.slots[4].kind, SLOT_ANY);
	assert_int_equal(p.slots[4].msr, 0xC1);
	assert_int_equal(p.slots[4].width, 48);
	assert_true(plan_slot_on_thread(&p.slots[4], 0));
	assert_false(plan_slot_on_thread(&p.slots[4], 1));
	assert_true(plan_slot_on_thread(&p.slots[3], 1));
	assert_int_equal(plan_slot_index(&p, SLOT_ANY), 4);
	assert_int_equal(plan_slot_index(&p, SLOT_OTA), -1);

	/* no CPUID 15H: 4 x base ratio 21 = 84, and the note says so */
	m.id.tsc_num = m.id.tsc_den = 0;
	plan_for_machine(&p, &m);
	assert_int_equal(p.scale, 84);
	assert_non_null(strstr(p.scale_note, "15H missing"));
	topology_free(&m.topo);
}

static void
test_skx_calibration(void **state)
{
	struct machine m;
	struct plan p, cal;

	(void)state;
	intel_machine(&m, 0x55, UARCH_SKX, 2);
	m.id.tsc_num = 168;
	m.id.tsc_den = 2;
	plan_for_machine(&p, &m);
	assert_true(plan_calibration(&cal, &p, &m));
	assert_int_equal(cal.nslots, 5);
	assert_int_equal(cal.slots[4].kind, SLOT_REFX);
	assert_int_equal(cal.slots[4].thread_mask, THREAD_0);
	assert_int_equal(cal.nwrites, 3);
	/* REF_XCLK without ANY: 0x0063013C - (1 << 21) = 0x0043013C */
	assert_int_equal(cal.writes[1].msr, 0x186);
	assert_int_equal(cal.writes[1].value, 0x0043013C);
	assert_int_equal(cal.writes[1].thread_mask, THREAD_0);
	assert_int_equal(cal.writes[2].value, 0x700000001ull);
	topology_free(&m.topo);
}

static void
test_icx_spr(void **state)
{
	struct machine m;
	struct plan p, cal;
	unsigned i;

	(void)state;
	/* Sapphire Rapids (model 0x8F), 15H 176/2 = 88 */
	intel_machine(&m, 0x8F, UARCH_ICX, 2);
	m.id.tsc_num = 176;
	m.id.tsc_den = 2;
	m.id.anythread_deprecated = true;
	plan_for_machine(&p, &m);
	assert_int_equal(p.split, SPLIT_OTA);
	assert_int_equal(p.scale, 88);
	assert_int_equal(plan_slot_index(&p, SLOT_ANY), -1);
	assert_int_equal(plan_slot_index(&p, SLOT_OTA), 4);
	assert_int_equal(p.slots[4].thread_mask, THREAD_ALL);
	assert_int_equal(p.nwrites, 3);
	/* ONE_THREAD_ACTIVE: 0x3C | 0x02 << 8 | USR | OS | EN = 0x0043023C */
	assert_int_equal(p.writes[1].msr, 0x186);
	assert_int_equal(p.writes[1].value, 0x0043023C);
	assert_int_equal(p.writes[1].thread_mask, THREAD_ALL);
	/* no AnyThread anywhere: bit 21 of PERFEVTSEL, 0x4 of each fixed field */
	for (i = 0; i < p.nwrites; i++) {
		if (p.writes[i].msr == MSR_PERFEVTSEL0)
			assert_int_equal(p.writes[i].value & EVTSEL_ANY, 0);
		if (p.writes[i].msr == MSR_FIXED_CTR_CTRL)
			assert_int_equal(p.writes[i].value & 0x444, 0);
	}
	/* 0x3C/0x01 is REF_TSC_P on SPR: nothing to calibrate against */
	assert_false(plan_calibration(&cal, &p, &m));

	/* Ice Lake-SP (0x6A) still has REF_XCLK on 0x3C/0x01 */
	m.id.model = 0x6A;
	plan_for_machine(&p, &m);
	assert_int_equal(p.split, SPLIT_OTA);
	assert_true(plan_calibration(&cal, &p, &m));
	assert_int_equal(cal.writes[1].value, 0x0043013C);
	topology_free(&m.topo);
}

static void
test_nhm_snb(void **state)
{
	struct machine m;
	struct plan p;

	(void)state;
	/* Nehalem: REF_P (0x3C/0x01) + ANY, table scale 1 */
	intel_machine(&m, 0x1A, UARCH_NHM, 2);
	plan_for_machine(&p, &m);
	assert_int_equal(p.scale, 1);
	assert_int_equal(p.writes[1].value, 0x0063013C);
	assert_int_equal(p.split, SPLIT_ANY);
	topology_free(&m.topo);
	/* Sandy Bridge-EP E5-2680: 100 MHz XCLK, scale = base ratio 27 */
	intel_machine(&m, 0x2D, UARCH_SNB, 2);
	m.id.base_ratio = 27;
	plan_for_machine(&p, &m);
	assert_int_equal(p.scale, 27);
	assert_int_equal(p.writes[1].value, 0x0063013C);
	topology_free(&m.topo);
}

static void
test_knl_zen_unknown(void **state)
{
	struct machine m;
	struct plan p, cal;

	(void)state;
	intel_machine(&m, 0x57, UARCH_KNL, 4);
	plan_for_machine(&p, &m);
	assert_int_equal(p.nslots, 4);
	assert_int_equal(p.nwrites, 2);
	assert_int_equal(p.writes[0].msr, 0x38D);
	assert_int_equal(p.writes[1].msr, 0x38F);
	assert_int_equal(p.writes[1].value, 0x700000000ull);
	assert_int_equal(p.split, SPLIT_BOUND);
	assert_non_null(strstr(p.summary, "AnyThread"));
	assert_false(plan_calibration(&cal, &p, &m));
	topology_free(&m.topo);

	/* Zen: nothing written; TSC, IRPerfCount, APERF, MPERF read */
	intel_machine(&m, 0x31, UARCH_ZEN, 2);
	m.id.vendor = CPU_VENDOR_AMD;
	m.id.family = 0x17;
	plan_for_machine(&p, &m);
	assert_int_equal(p.nwrites, 0);
	assert_int_equal(p.nslots, 4);
	assert_int_equal(p.slots[plan_slot_index(&p, SLOT_INST)].msr, 0xC00000E9u);
	assert_int_equal(p.slots[plan_slot_index(&p, SLOT_CYCLES)].msr, 0xE8);
	assert_int_equal(p.slots[plan_slot_index(&p, SLOT_REF)].msr, 0xE7);
	assert_int_equal(p.split, SPLIT_BOUND);
	topology_free(&m.topo);

	/* unknown Intel without SMT: fixed counters, no split */
	intel_machine(&m, 0x01, UARCH_UNKNOWN, 1);
	plan_for_machine(&p, &m);
	assert_int_equal(p.split, SPLIT_NONE);
	assert_int_equal(p.nslots, 4);
	assert_int_equal(plan_slot_index(&p, SLOT_ANY), -1);
	topology_free(&m.topo);
	/* ... and with 2 threads per core: the bound */
	intel_machine(&m, 0x01, UARCH_UNKNOWN, 2);
	plan_for_machine(&p, &m);
	assert_int_equal(p.split, SPLIT_BOUND);
	topology_free(&m.topo);
}

static void
test_names(void **state)
{
	unsigned k;

	(void)state;
	for (k = 0; k < SLOT_NKINDS; k++)
		assert_int_equal(slot_kind_parse(slot_kind_name((enum slot_kind)k)), k);
	assert_string_equal(slot_kind_name(SLOT_OTA), "ota");
	assert_int_equal(slot_kind_parse("bogus"), SLOT_NKINDS);
	assert_string_equal(split_method_name(SPLIT_ANY), "any");
	assert_string_equal(split_method_name(SPLIT_BOUND), "bound");
}

/* The split's name says what it rests on: the scheduler's exact split is
 * "sched", not the counters' AnyThread "any"; the tick accounting's bounds
 * "ticks"; a counter plan's the method's. Parsing takes both spellings,
 * the old ones implying no basis. */
static void
test_split_names(void **state)
{
	struct plan p;
	enum split_method m;
	enum plan_basis b;

	(void)state;
	memset(&p, 0, sizeof p);
	p.split = SPLIT_ANY;
	assert_string_equal(plan_split_name(&p), "any");
	p.basis = PLAN_BASIS_SCHED;
	assert_string_equal(plan_split_name(&p), "sched");
	p.split = SPLIT_NONE;   /* one thread per core: no split, whatever the basis */
	assert_string_equal(plan_split_name(&p), "none");
	p.basis = PLAN_BASIS_TICKS;
	p.split = SPLIT_BOUND;
	assert_string_equal(plan_split_name(&p), "ticks");
	p.basis = PLAN_BASIS_COUNTERS;
	assert_string_equal(plan_split_name(&p), "bound");
	p.split = SPLIT_OTA;
	assert_string_equal(plan_split_name(&p), "ota");

	assert_int_equal(plan_split_parse("sched", &m, &b), 0);
	assert_int_equal(m, SPLIT_ANY);
	assert_int_equal(b, PLAN_BASIS_SCHED);
	assert_int_equal(plan_split_parse("ticks", &m, &b), 0);
	assert_int_equal(m, SPLIT_BOUND);
	assert_int_equal(b, PLAN_BASIS_TICKS);
	assert_int_equal(plan_split_parse("any", &m, &b), 0);
	assert_int_equal(m, SPLIT_ANY);
	assert_int_equal(b, PLAN_NBASES);
	assert_int_equal(plan_split_parse("bound", &m, &b), 0);
	assert_int_equal(m, SPLIT_BOUND);
	assert_int_equal(b, PLAN_NBASES);
	assert_int_equal(plan_split_parse("none", &m, &b), 0);
	assert_int_equal(m, SPLIT_NONE);
	assert_int_equal(plan_split_parse("scheduler", &m, &b), -1);
	assert_int_equal(plan_split_parse("", &m, &b), -1);
}

/* What a plan without registers says it reads (the Topology view's Plan
 * rows): the sched and bpf sources share the plan of the scheduler's
 * switches (sched_plan), so its readings name neither source's own way of
 * getting them. The bpf source's Plan rows said "a CPU-wide perf software
 * event, dummy with context_switch, one ring buffer per CPU", which is the
 * sched source's alone (bpf adds the times up in the kernel); the plan's
 * summary says which. */
static void
test_sched_readings(void **state)
{
	static const char *const alone[] = { "perf", "ring", "dummy", "eBPF", "records" };
	static const enum slot_kind kinds[] = { SLOT_TSC, SLOT_REF, SLOT_ANY };
	struct plan p;
	unsigned i, k;

	(void)state;
	memset(&p, 0, sizeof p);
	p.basis = PLAN_BASIS_SCHED;
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		struct plan_slot s = { .kind = kinds[k] };
		const char *what = plan_slot_reading(&p, &s);

		assert_non_null(what);
		for (i = 0; i < sizeof alone / sizeof alone[0]; i++)
			if (strstr(what, alone[i]) != NULL)
				fail_msg("slot %s: \"%s\" names \"%s\"", slot_kind_name(kinds[k]),
				    what, alone[i]);
	}
	/* Still what it counts: busy time of the CPU, of the core. */
	{
		struct plan_slot ref = { .kind = SLOT_REF }, any = { .kind = SLOT_ANY };

		assert_non_null(strstr(plan_slot_reading(&p, &ref), "context switches"));
		assert_non_null(strstr(plan_slot_reading(&p, &any), "any thread of the core"));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skx),
		cmocka_unit_test(test_split_names),
		cmocka_unit_test(test_skx_calibration),
		cmocka_unit_test(test_icx_spr),
		cmocka_unit_test(test_nhm_snb),
		cmocka_unit_test(test_knl_zen_unknown),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sched_readings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
