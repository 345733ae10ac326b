/* test_source_kinds.c: the table of sources (src/source/kinds.c): every
 * kind has one row whose name parses back to it, auto's steps are
 * 1, 2, ... in the order httop(1) gives (msr-safe, msr, perf, bpf,
 * sched, procstat), the lists --help and --source's error print, and the
 * properties that replaced the comparisons of kinds (app/open.c,
 * cli/options.c, app/mode_check.c) hold for the kinds they were asked of. */
#include "unit/testutil.h"

#include <string.h>

#include "source/kinds.h"

static void
test_rows(void **state)
{
	const struct source_kind_row *rows;
	enum source_kind k, back;
	size_t n, i, seen = 0;

	(void)state;
	rows = source_kind_rows(&n);
	assert_int_equal(n, SRC_NKINDS);
	for (k = SRC_AUTO; k < SRC_NKINDS; k++) {
		for (i = 0; i < n; i++)
			seen += rows[i].kind == k;
		assert_int_equal(source_kind_row(k)->kind, k);
		assert_int_equal(source_kind_parse(source_kind_name(k), &back), 0);
		assert_int_equal(back, k);
		assert_non_null(source_kind_row(k)->figures);
		assert_non_null(source_kind_row(k)->needs);
	}
	assert_int_equal(seen, SRC_NKINDS);
	assert_int_equal(source_kind_parse("bogus", &back), -1);
	assert_int_equal(source_kind_parse("", &back), -1);
	assert_int_equal(source_kind_parse("MSR", &back), -1);
}

static void
test_auto_order(void **state)
{
	static const enum source_kind want[] = { SRC_MSR_SAFE, SRC_MSR, SRC_PERF, SRC_BPF,
	    SRC_SCHED, SRC_PROCSTAT };
	unsigned step;

	(void)state;
	for (step = 1; step <= 6; step++)
		assert_int_equal(source_kind_auto_step(step)->kind, want[step - 1]);
	assert_null(source_kind_auto_step(7));
	assert_null(source_kind_auto_step(0));
}

static void
test_lists(void **state)
{
	char buf[200];

	(void)state;
	source_kind_list(buf, sizeof buf);
	assert_string_equal(buf, "auto, msr, msr-safe, perf, bpf, sched, procstat, sim or replay");
	source_kind_auto_list(buf, sizeof buf, 1, false);
	assert_string_equal(buf, "msr-safe, msr, perf, bpf, sched, then procstat");
	source_kind_auto_list(buf, sizeof buf, 4, true);
	assert_string_equal(buf, "bpf, sched, procstat");
	source_kind_auto_list(buf, sizeof buf, 5, true);
	assert_string_equal(buf, "sched, procstat");
	source_kind_auto_list(buf, sizeof buf, 6, true);
	assert_string_equal(buf, "procstat");
	source_kind_list(buf, 12);
	assert_string_equal(buf, "auto, msr, ");
}

/* Each property is true exactly for the kinds the code compared before. */
static void
test_properties(void **state)
{
	enum source_kind k;

	(void)state;
	for (k = SRC_AUTO; k < SRC_NKINDS; k++) {
		const struct source_kind_row *r = source_kind_row(k);

		assert_int_equal(r->this_machine, k != SRC_REPLAY && k != SRC_SIM);
		assert_int_equal(r->msr_devices, k == SRC_AUTO || k == SRC_MSR);
		assert_int_equal(r->writes_msrs, k == SRC_AUTO || k == SRC_MSR ||
		    k == SRC_MSR_SAFE);
		assert_int_equal(r->declares_topology, k == SRC_BPF || k == SRC_SCHED ||
		    k == SRC_PROCSTAT);
		assert_int_equal(r->simulated, k == SRC_SIM);
		assert_int_equal(r->trace, k == SRC_REPLAY);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_auto_order),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_properties),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
