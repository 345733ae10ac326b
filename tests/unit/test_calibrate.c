/* test_calibrate.c: the scale calibration: the pure ratio and the whole
 * calibrate_scale() against a scripted source. */
#include "unit/testutil.h"

#include <string.h>

#include "source/calibrate.h"

static void
test_ratio(void **state)
{
	char note[160];

	(void)state;
	/* 8,400,000 / 100,000 = 84 exactly, as the table says */
	assert_int_equal(calibrate_ratio(8400000, 100000, note, sizeof note, 84), 84);
	assert_string_equal(note, "measured 84, table 84");
	/* 2,100,000 / 100,000 = 21: the hardware wins */
	assert_int_equal(calibrate_ratio(2100000, 100000, note, sizeof note, 84), 21);
	assert_string_equal(note, "measured 21 but table says 84: using 21");
	/* 8,390,000 / 100,000 = 83.9: 0.1 from 84, within 2% (1.68) */
	assert_int_equal(calibrate_ratio(8390000, 100000, note, sizeof note, 84), 84);
	/* 999 reference counts are too few */
	assert_int_equal(calibrate_ratio(83916, 999, note, sizeof note, 84), 0);
	assert_string_equal(note, "too little activity: using table value 84");
	/* 150,000 / 100,000 = 1.5: 0.5 from 2, beyond 2% of 2 (0.04) */
	assert_int_equal(calibrate_ratio(150000, 100000, note, sizeof note, 1), 0);
	assert_non_null(strstr(note, "not an integer"));
	/* 8,130,000 / 100,000 = 81.3: 3.2% from the table's 84, and 0.3 from
	 * 81, more than 0.1: not an integer, so the table stays */
	assert_int_equal(calibrate_ratio(8130000, 100000, note, sizeof note, 84), 0);
	assert_string_equal(note, "measured 81.300, not an integer: using table value 84");
	/* 2,130,000 / 100,000 = 21.3: 0.3 from 21, not a measured 21 */
	assert_int_equal(calibrate_ratio(2130000, 100000, note, sizeof note, 84), 0);
	/* 2,105,000 / 100,000 = 21.05: within 0.1 of 21, the hardware wins */
	assert_int_equal(calibrate_ratio(2105000, 100000, note, sizeof note, 84), 21);
	/* no table value: 1,000,000 / 50,000 = 20 */
	assert_int_equal(calibrate_ratio(1000000, 50000, note, sizeof note, 0), 20);
	assert_string_equal(note, "measured 20 (no table value)");
}

/* A scripted source: the second read has advanced fixed counter 2 by
 * `ratio` x 50,000 and REFX by 50,000 on every thread-0 CPU. */
struct fake {
	unsigned ratio;
	int reads;
	int programs;
	double advanced;
};

static int
fake_program(struct source *s, const struct plan *p, bool force, struct errmsg *e)
{
	struct fake *f = s->priv;

	(void)force;
	(void)e;
	assert_int_equal(plan_slot_index(p, SLOT_REFX), 4);
	f->programs++;
	return 0;
}

static int
fake_read(struct source *s, struct sample *out, struct errmsg *e)
{
	struct fake *f = s->priv;
	unsigned cpu;

	(void)e;
	for (cpu = 0; cpu < out->max_cpu; cpu++) {
		uint64_t *row = sample_row(out, cpu);
		uint64_t k = (uint64_t)f->reads;

		out->state[cpu] = CPU_READ_OK;
		row[0] = 1000 + k * 2100000000ull;                 /* TSC */
		row[3] = 7 + k * 50000ull * f->ratio;              /* fixed 2 */
		row[4] = 0xFFFFFFFFFFF0ull + k * 50000ull;         /* REFX, wraps */
	}
	f->reads++;
	return 0;
}

static void
fake_advance(struct source *s, double seconds)
{
	((struct fake *)s->priv)->advanced += seconds;
}

static const struct source_ops fake_ops = {
	.program = fake_program,
	.read = fake_read,
	.advance = fake_advance,
};

static void
skx_machine(struct machine *m)
{
	memset(m, 0, sizeof *m);
	topology_synthetic(&m->topo, 1, 2, 2);
	m->id.vendor = CPU_VENDOR_INTEL;
	m->id.family = 6;
	m->id.model = 0x55;
	m->id.tsc_num = 168;
	m->id.tsc_den = 2;
	m->id.base_ratio = 21;
	m->group = UARCH_SKX;
}

static void
run(unsigned ratio, unsigned want, const char *note)
{
	struct machine m;
	struct plan p;
	struct fake f = { .ratio = ratio };
	struct source src = { .ops = &fake_ops, .priv = &f, .virtual_clock = true };
	struct errmsg e = { "" };

	skx_machine(&m);
	src.m = &m;
	plan_for_machine(&p, &m);
	assert_int_equal(calibrate_scale(&src, &p, &m, 0.25, &e), 0);
	assert_int_equal(f.programs, 1);
	assert_int_equal(f.reads, 2);
	assert_near(f.advanced, 0.25, 0.0);
	assert_int_equal(p.scale, want);
	assert_true(p.scale_measured);
	assert_string_equal(p.scale_note, note);
	topology_free(&m.topo);
}

static void
test_scale(void **state)
{
	(void)state;
	/* 2 thread-0 CPUs x 50,000 REFX (across a 48-bit wrap) against
	 * 2 x 84 x 50,000 fixed-2 ticks: 8,400,000 / 100,000 = 84 */
	run(84, 84, "measured 84, table 84");
	/* a part whose event ticks at the 100 MHz clock: 21 */
	run(21, 21, "measured 21 but table says 84: using 21");
}

static void
test_no_calibration(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f = { .ratio = 84 };
	struct source src = { .ops = &fake_ops, .priv = &f, .virtual_clock = true };
	struct errmsg e = { "" };

	(void)state;
	skx_machine(&m);
	m.id.model = 0x8F;            /* Sapphire Rapids: no REF_XCLK to compare */
	m.group = UARCH_ICX;
	plan_for_machine(&p, &m);
	assert_int_equal(calibrate_scale(&src, &p, &m, 0.25, &e), 0);
	assert_int_equal(f.programs, 0);
	assert_int_equal(p.scale, 84);
	assert_false(p.scale_measured);
	assert_non_null(strstr(p.scale_note, "using table value 84"));
	topology_free(&m.topo);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_no_calibration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
