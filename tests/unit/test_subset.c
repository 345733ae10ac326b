/* test_subset.c: metrics_aggregate_subset() on a hand-filled interval of a
 * synthetic 2-package x 2-core x 2-thread machine. topology_synthetic
 * numbers thread 0 of every core first, then thread 1 (+4), so the cores
 * are 0:{0,4} 1:{1,5} (package 0) and 2:{2,6} 3:{3,7} (package 1). The
 * arithmetic is in the comments. */
#include "unit/testutil.h"

#include <string.h>

#include "metrics/metrics.h"

struct rig {
	struct machine m;
	struct interval iv;
	struct cpulist cpus;
};

/* Core ci: an exact split with these four fractions over its interval of
 * `tsc` ticks (thread 0's dTSC). The threads' reference ticks follow from
 * the split (thread 0 is active in t0_only + both, thread 1 in t1_only +
 * both); `inst` instructions are retired, half by each thread. */
static void
core_exact(struct rig *r, unsigned ci, double n, double t0, double t1, double b,
    double tsc, double inst, double ghz, double cpi)
{
	const struct topo_core *tc = &r->m.topo.cores[ci];
	struct core_fig *cf = &r->iv.cores[ci];
	struct thread_fig *th0 = &r->iv.threads[tc->cpus[0]];
	struct thread_fig *th1 = &r->iv.threads[tc->cpus[1]];

	cf->index = ci;
	cf->reason = R_NONE;
	cf->selected = true;
	cf->split = SPLIT_ANY;
	cf->exact = true;
	cf->neither = val_exact(n);
	cf->t0_only = val_exact(t0);
	cf->t1_only = val_exact(t1);
	cf->both = val_exact(b);
	cf->util = val_exact(1.0 - n);
	cf->active_threads = val_exact((t0 + t1 + 2.0 * b) / (1.0 - n));
	cf->ghz = val_exact(ghz);
	cf->cpi = val_exact(cpi);
	th0->d_tsc = th1->d_tsc = (uint64_t)tsc;
	th0->d_ref = (uint64_t)((t0 + b) * tsc + 0.5);
	th1->d_ref = (uint64_t)((t1 + b) * tsc + 0.5);
	th0->d_inst = th1->d_inst = (uint64_t)(inst / 2.0);
}

/* The job's CPUs: the list `text` (cpulist syntax). Per core (x 1e9):
 *   core  split n/t0/t1/b     T   ref (t0+b + t1+b) x T   inst  GHz  CPI
 *   0     0.9/0.1/0/0         5   0.5 + 0   = 0.5         0.5   1    9
 *   1     0.5/0.2/0.1/0.2     1   0.4 + 0.3 = 0.7         1     2    1
 *   2     0.1/0.1/0.2/0.6     3   2.1 + 2.4 = 4.5         2     3    2
 *   3     as core 0
 * Cores 0 and 3 are nearly idle with a high CPI: counted by mistake, they
 * would pull neither up, GHz down and CPI up. */
static void
rig_init(struct rig *r, const char *text)
{
	struct errmsg e;

	memset(r, 0, sizeof *r);
	topology_synthetic(&r->m.topo, 2, 2, 2);
	interval_init(&r->iv, &r->m);
	assert_int_equal(cpulist_parse(text, &r->cpus, &e), 0);
	core_exact(r, 0, 0.9, 0.1, 0.0, 0.0, 5e9, 0.5e9, 1.0, 9.0);
	core_exact(r, 1, 0.5, 0.2, 0.1, 0.2, 1e9, 1e9, 2.0, 1.0);
	core_exact(r, 2, 0.1, 0.1, 0.2, 0.6, 3e9, 2e9, 3.0, 2.0);
	core_exact(r, 3, 0.9, 0.1, 0.0, 0.0, 5e9, 0.5e9, 1.0, 9.0);
}

static void
rig_free(struct rig *r)
{
	cpulist_free(&r->cpus);
	interval_free(&r->iv);
	topology_free(&r->m.topo);
}

static void
test_layout(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "1");
	assert_int_equal(r.m.topo.ncores, 4);
	assert_int_equal(r.m.topo.cores[1].cpus[0], 1);
	assert_int_equal(r.m.topo.cores[1].cpus[1], 5);
	assert_int_equal(r.m.topo.cores[2].cpus[1], 6);
	rig_free(&r);
}

/* CPUs 1 (thread 0 of core 1) and 6 (thread 1 of core 2): cores 1 and 2.
 * Shares and util weighted by T (1 and 3, total 4):
 *   neither (0.5*1 + 0.1*3)/4 = 0.8/4 = 0.2
 *   t0      (0.2*1 + 0.1*3)/4 = 0.5/4 = 0.125
 *   t1      (0.1*1 + 0.2*3)/4 = 0.7/4 = 0.175
 *   both    (0.2*1 + 0.6*3)/4 = 2.0/4 = 0.5      (sum 1)
 *   util    (0.5*1 + 0.9*3)/4 = 3.2/4 = 0.8
 * active threads: thread-ticks over busy ticks = (0.7 + 4.5)/(0.5 + 2.7)
 *   = 5.2/3.2 = 1.625
 * GHz weighted by reference ticks: (2*0.7 + 3*4.5)/5.2 = 14.9/5.2
 *   = 2.865384615
 * CPI weighted by instructions: (1*1 + 2*2)/3 = 5/3
 * both of busy 0.5 / (1 - 0.2) = 0.625 */
static void
test_two_cores_exact(void **state)
{
	struct agg_fig g;
	struct rig r;

	(void)state;
	rig_init(&r, "1,6");
	metrics_aggregate_subset(&r.iv, &r.m.topo, &r.cpus, &g);
	assert_int_equal(g.ncores, 2);
	assert_int_equal(g.nvalid, 2);
	assert_true(g.exact);
	assert_int_equal(g.neither.kind, V_EXACT);
	assert_near(g.neither.v, 0.2, 1e-12);
	assert_near(g.t0_only.v, 0.125, 1e-12);
	assert_near(g.t1_only.v, 0.175, 1e-12);
	assert_near(g.both.v, 0.5, 1e-12);
	assert_near(g.util.v, 0.8, 1e-12);
	assert_near(g.active_threads.v, 1.625, 1e-12);
	assert_near(g.ghz.v, 14.9 / 5.2, 1e-12);
	assert_near(g.cpi.v, 5.0 / 3.0, 1e-12);
	assert_int_equal(g.both_of_busy.kind, V_EXACT);
	assert_near(g.both_of_busy.v, 0.625, 1e-12);
	rig_free(&r);
}

/* Both threads of one core in the list count that core once: CPUs 1,5
 * give core 1 alone: neither 0.5, both 0.2, both of busy 0.2/0.5 = 0.4. */
static void
test_one_core_once(void **state)
{
	struct agg_fig g;
	struct rig r;

	(void)state;
	rig_init(&r, "1,5");
	metrics_aggregate_subset(&r.iv, &r.m.topo, &r.cpus, &g);
	assert_int_equal(g.ncores, 1);
	assert_near(g.neither.v, 0.5, 1e-12);
	assert_near(g.both.v, 0.2, 1e-12);
	assert_near(g.both_of_busy.v, 0.4, 1e-12);
	rig_free(&r);
}

/* Core 2 only bounded: neither [0.1, 0.3], t0 [0, 0.2], t1 [0.1, 0.3],
 * both [0.4, 0.6]. The ends are averaged separately:
 *   neither lo (0.5 + 0.1*3)/4 = 0.2,   hi (0.5 + 0.3*3)/4 = 0.35
 *   both    lo (0.2 + 0.4*3)/4 = 0.35,  hi (0.2 + 0.6*3)/4 = 0.5
 *   both of busy from the middles: 0.425 / (1 - 0.275) = 0.586206897 */
static void
test_bound(void **state)
{
	struct core_fig *cf;
	struct agg_fig g;
	struct rig r;

	(void)state;
	rig_init(&r, "1,6");
	cf = &r.iv.cores[2];
	cf->split = SPLIT_BOUND;
	cf->exact = false;
	cf->neither = val_bound(0.1, 0.3);
	cf->t0_only = val_bound(0.0, 0.2);
	cf->t1_only = val_bound(0.1, 0.3);
	cf->both = val_bound(0.4, 0.6);
	metrics_aggregate_subset(&r.iv, &r.m.topo, &r.cpus, &g);
	assert_false(g.exact);
	assert_int_equal(g.neither.kind, V_BOUND);
	assert_near(g.neither.lo, 0.2, 1e-12);
	assert_near(g.neither.hi, 0.35, 1e-12);
	assert_int_equal(g.both.kind, V_BOUND);
	assert_near(g.both.lo, 0.35, 1e-12);
	assert_near(g.both.hi, 0.5, 1e-12);
	/* both / busy at the low ends: .35 / (1 - .2) = .4375; at the high
	 * ends: .5 / (1 - .35) = .769230769 (C and N move together) */
	assert_int_equal(g.both_of_busy.kind, V_BOUND);
	assert_near(g.both_of_busy.lo, 0.4375, 1e-12);
	assert_near(g.both_of_busy.hi, 0.5 / 0.65, 1e-12);
	rig_free(&r);
}

/* An invalid core is counted in ncores but not in the figures: with core
 * 2 skewed only core 1 is left (neither 0.5, GHz 2, CPI 1, both of busy
 * 0.2/0.5 = 0.4). A core
 * outside --cpus (not selected) is not counted at all. */
static void
test_invalid_and_unselected(void **state)
{
	struct agg_fig g;
	struct rig r;

	(void)state;
	rig_init(&r, "1,6");
	r.iv.cores[2].reason = R_SKEW;
	metrics_aggregate_subset(&r.iv, &r.m.topo, &r.cpus, &g);
	assert_int_equal(g.ncores, 2);
	assert_int_equal(g.nvalid, 1);
	assert_near(g.neither.v, 0.5, 1e-12);
	assert_near(g.ghz.v, 2.0, 1e-12);
	assert_near(g.cpi.v, 1.0, 1e-12);
	assert_near(g.both_of_busy.v, 0.4, 1e-12);

	r.iv.cores[2].selected = false;
	metrics_aggregate_subset(&r.iv, &r.m.topo, &r.cpus, &g);
	assert_int_equal(g.ncores, 1);
	assert_int_equal(g.nvalid, 1);
	rig_free(&r);
}

/* No core of the machine in the list (CPU 9 is past the 8 CPUs): nothing
 * to average: every figure absent, no NaN, both of busy 0. */
static void
test_empty(void **state)
{
	struct agg_fig g;
	struct rig r;

	(void)state;
	rig_init(&r, "9");
	metrics_aggregate_subset(&r.iv, &r.m.topo, &r.cpus, &g);
	assert_int_equal(g.ncores, 0);
	assert_int_equal(g.neither.kind, V_NONE);
	assert_int_equal(g.both.kind, V_NONE);
	assert_int_equal(g.ghz.kind, V_NONE);
	assert_int_equal(g.both_of_busy.kind, V_NONE);
	rig_free(&r);
}

/* Every CPU: all four cores, T weights 5,1,3,5 (total 14):
 *   neither (0.9*5 + 0.5*1 + 0.1*3 + 0.9*5)/14 = 9.8/14 = 0.7
 *   both    (0.2*1 + 0.6*3)/14 = 2/14
 *   both of busy (2/14) / 0.3 = 10/21 = 0.476190476
 *   GHz (1*0.5 + 2*0.7 + 3*4.5 + 1*0.5)/6.2 = 15.9/6.2 = 2.564516129
 *   CPI (9*0.5 + 1*1 + 2*2 + 9*0.5)/4 = 14/4 = 3.5 */
static void
test_all(void **state)
{
	struct agg_fig g;
	struct rig r;

	(void)state;
	rig_init(&r, "0-7");
	metrics_aggregate_subset(&r.iv, &r.m.topo, &r.cpus, &g);
	assert_int_equal(g.ncores, 4);
	assert_near(g.neither.v, 0.7, 1e-12);
	assert_near(g.both.v, 2.0 / 14.0, 1e-12);
	assert_near(g.both_of_busy.v, 10.0 / 21.0, 1e-12);
	assert_near(g.ghz.v, 15.9 / 6.2, 1e-12);
	assert_near(g.cpi.v, 3.5, 1e-12);
	rig_free(&r);
}

/* The job's part of each package: CPUs 1 and 6 are core 1 (package 0)
 * and core 2 (package 1), so each package's line is that one core's
 * figures, not the package's (package 0 over cores 0 and 1 would have
 * neither (0.9 x 5 + 0.5 x 1)/6 = 0.833). Core 1: neither .5, t0 .2, t1
 * .1, both .2, util .5, active .7/.5 = 1.4, GHz 2, CPI 1; core 2: .1, .1,
 * .2, .6, util .9, active 4.5/2.7 = 1.666667, GHz 3, CPI 2. A package
 * without a job core has no figures and no core. */
static void
test_per_package(void **state)
{
	struct agg_fig g;
	struct rig r;

	(void)state;
	rig_init(&r, "1,6");
	metrics_aggregate_subset_package(&r.iv, &r.m.topo, &r.cpus, 0, &g);
	assert_int_equal(g.ncores, 1);
	assert_int_equal(g.nvalid, 1);
	assert_near(g.neither.v, 0.5, 1e-12);
	assert_near(g.t0_only.v, 0.2, 1e-12);
	assert_near(g.t1_only.v, 0.1, 1e-12);
	assert_near(g.both.v, 0.2, 1e-12);
	assert_near(g.util.v, 0.5, 1e-12);
	assert_near(g.active_threads.v, 1.4, 1e-12);
	assert_near(g.ghz.v, 2.0, 1e-12);
	assert_near(g.cpi.v, 1.0, 1e-12);
	metrics_aggregate_subset_package(&r.iv, &r.m.topo, &r.cpus, 1, &g);
	assert_int_equal(g.ncores, 1);
	assert_near(g.neither.v, 0.1, 1e-12);
	assert_near(g.both.v, 0.6, 1e-12);
	assert_near(g.util.v, 0.9, 1e-12);
	assert_near(g.active_threads.v, 4.5 / 2.7, 1e-9);
	assert_near(g.ghz.v, 3.0, 1e-12);
	assert_near(g.cpi.v, 2.0, 1e-12);
	rig_free(&r);

	rig_init(&r, "1");
	metrics_aggregate_subset_package(&r.iv, &r.m.topo, &r.cpus, 1, &g);
	assert_int_equal(g.ncores, 0);
	assert_int_equal(g.util.kind, V_NONE);
	assert_int_equal(g.util.why, R_NOT_SELECTED);
	rig_free(&r);
}

/* metrics_restrict: the interval narrowed to the job's cores, as the batch
 * formats and a command's summary see it. Cores 0 and 3 are skewed
 * (invalid), so the whole interval is invalid; narrowed to CPUs 1 and 6
 * (cores 1 and 2, both valid) it is valid, the others are unselected with
 * their threads, and the aggregates are those of the two cores:
 *   node       as test_two_cores_exact: neither 0.2, both 0.5, both of
 *              busy 0.625, GHz 14.9/5.2, CPI 5/3
 *   package 0  core 1 alone: neither 0.5, both 0.2, both of busy 0.4
 *   package 1  core 2 alone: neither 0.1, both 0.6, both of busy
 *              0.6 / 0.9 = 0.666666667
 * Narrowed to CPUs 0,1 instead, skewed core 0 is kept: invalid, and the
 * reason names it. */
static void
test_restrict(void **state)
{
	struct metrics_ctx c;
	struct rig r;

	(void)state;
	rig_init(&r, "1,6");
	memset(&c, 0, sizeof c);
	c.m = &r.m;
	r.iv.cores[0].reason = R_SKEW;
	r.iv.cores[3].reason = R_SKEW;
	metrics_restrict(&c, &r.cpus, &r.iv);
	assert_true(r.iv.valid);
	assert_string_equal(r.iv.reason, "");
	assert_false(r.iv.cores[0].selected);
	assert_int_equal(r.iv.cores[0].reason, R_NOT_SELECTED);
	assert_false(r.iv.cores[3].selected);
	assert_true(r.iv.cores[1].selected);
	assert_true(r.iv.cores[2].selected);
	assert_int_equal(r.iv.threads[0].reason, R_NOT_SELECTED);
	assert_int_equal(r.iv.threads[4].reason, R_NOT_SELECTED);
	assert_int_equal(r.iv.threads[7].util.kind, V_NONE);
	assert_int_equal(r.iv.threads[1].reason, R_NONE);
	assert_int_equal(r.iv.node.ncores, 2);
	assert_near(r.iv.node.neither.v, 0.2, 1e-12);
	assert_near(r.iv.node.both.v, 0.5, 1e-12);
	assert_near(r.iv.node.both_of_busy.v, 0.625, 1e-12);
	assert_near(r.iv.node.ghz.v, 14.9 / 5.2, 1e-12);
	assert_near(r.iv.node.cpi.v, 5.0 / 3.0, 1e-12);
	assert_int_equal(r.iv.packages[0].ncores, 1);
	assert_near(r.iv.packages[0].neither.v, 0.5, 1e-12);
	assert_near(r.iv.packages[0].both_of_busy.v, 0.4, 1e-12);
	assert_int_equal(r.iv.packages[1].ncores, 1);
	assert_near(r.iv.packages[1].neither.v, 0.1, 1e-12);
	assert_near(r.iv.packages[1].both_of_busy.v, 0.6 / 0.9, 1e-12);
	rig_free(&r);

	rig_init(&r, "0,1");
	memset(&c, 0, sizeof c);
	c.m = &r.m;
	r.iv.cores[0].reason = R_SKEW;
	r.iv.cores[3].reason = R_SKEW;
	metrics_restrict(&c, &r.cpus, &r.iv);
	assert_false(r.iv.valid);
	assert_non_null(strstr(r.iv.reason, "package 0, core 0 (cpus 0,4)"));
	assert_int_equal(r.iv.node.ncores, 2);
	assert_int_equal(r.iv.node.nvalid, 1);
	/* Core 1 alone in the figures. */
	assert_near(r.iv.node.both_of_busy.v, 0.4, 1e-12);
	rig_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_two_cores_exact),
		cmocka_unit_test(test_one_core_once),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_invalid_and_unselected),
		cmocka_unit_test(test_restrict),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_per_package),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
