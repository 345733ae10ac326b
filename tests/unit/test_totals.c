/* test_totals.c: the running totals behind the Prometheus counters
 * (metrics/totals.h), over hand-built intervals with the values worked out
 * below. One package, cores 0 (CPUs 0, 2) and 1 (CPUs 1, 3).
 *
 * A: time 1, 1 s. Core 0 exact N .5, A .25, B 0, C .25; core 1 outside the
 *    watched job (not selected). CPU 0 util .5, CPU 2 .25.
 *    core 0 states .5 .25 0 .25; core 1 not counted yet (no series).
 *    CPU 0 busy .5, CPU 2 busy .25; CPUs 1, 3 not counted.
 * B: time 3, 2 s. Core 0 exact C 1 (both busy); core 1 in the job, its
 *    split a bound. CPUs 0, 2 util 1; CPU 1 .5; CPU 3 valid but util absent.
 *    core 0 states .5 .25 0 2.25; core 1 uncovered 2.
 *    CPU 0 busy 2.5, CPU 2 2.25, CPU 1 1, CPU 3 uncovered 2.
 * C: time 4, 1 s. Core 0 offline; core 1 out of the job again (counted:
 *    uncovered). CPUs 0, 2 offline, 1, 3 not selected: uncovered +1 each.
 *    core 0 uncovered 1 (its states + uncovered = 4 s, all of A to C);
 *    core 1 uncovered 3 (B and C); node states .5 .25 0 2.25, uncovered 4.
 *    busy: 2.5, 2.25, 1 and 0: node 5.75; uncovered 1 + 1 + 1 + 3 = 6.
 * Then C again (the same end: a whole-run record), an interval of 0 s and
 * one whose time is not a number: nothing changes. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "unit/testutil.h"

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "metrics/totals.h"

static void
split(struct core_fig *c, double n, double a, double b, double both)
{
	c->selected = true;
	c->reason = R_NONE;
	c->exact = true;
	c->neither = val_exact(n);
	c->t0_only = val_exact(a);
	c->t1_only = val_exact(b);
	c->both = val_exact(both);
}

static void
thread(struct interval *iv, unsigned cpu, enum reason r, double util)
{
	memset(&iv->threads[cpu], 0, sizeof iv->threads[cpu]);
	iv->threads[cpu].cpu = cpu;
	iv->threads[cpu].reason = r;
	iv->threads[cpu].util = isnan(util) ? val_absent(R_STOPPED) : val_exact(util);
}

static void
unselect(struct core_fig *c)
{
	memset(c, 0, sizeof *c);
	c->reason = R_NOT_SELECTED;
}

#define NEAR(a, b) assert_near((a), (b), 1e-12)

static void
test_totals(void **state)
{
	struct machine m;
	struct interval iv;
	struct totals tt;
	const struct totals_set *n = &tt.node;

	(void)state;
	memset(&m, 0, sizeof m);
	topology_synthetic(&m.topo, 1, 2, 2);
	assert_int_equal(m.topo.cores[0].cpus[1], 2);
	interval_init(&iv, &m);
	totals_init(&tt, &m.topo);

	/* A */
	iv.time = 1.0;
	iv.dt = 1.0;
	split(&iv.cores[0], 0.5, 0.25, 0.0, 0.25);
	unselect(&iv.cores[1]);
	thread(&iv, 0, R_NONE, 0.5);
	thread(&iv, 2, R_NONE, 0.25);
	thread(&iv, 1, R_NOT_SELECTED, 0.0);
	thread(&iv, 3, R_NOT_SELECTED, 0.0);
	totals_add(&tt, &iv);
	NEAR(tt.cores[0].state[0], 0.5);
	NEAR(tt.cores[0].state[3], 0.25);
	assert_true(tt.core_seen[0] && !tt.core_seen[1]);
	assert_true(tt.thread_seen[0] && !tt.thread_seen[1]);
	NEAR(n->state[1], 0.25);

	/* B */
	iv.time = 3.0;
	iv.dt = 2.0;
	split(&iv.cores[0], 0.0, 0.0, 0.0, 1.0);
	split(&iv.cores[1], 0.0, 0.0, 0.0, 0.0);
	iv.cores[1].exact = false;
	iv.cores[1].both = val_bound(0.0, 0.5);
	thread(&iv, 0, R_NONE, 1.0);
	thread(&iv, 2, R_NONE, 1.0);
	thread(&iv, 1, R_NONE, 0.5);
	thread(&iv, 3, R_NONE, NAN);
	totals_add(&tt, &iv);
	NEAR(tt.cores[0].state[3], 2.25);
	NEAR(tt.cores[1].uncovered, 2.0);
	NEAR(tt.cores[1].state[0], 0.0);
	NEAR(tt.threads[0].busy, 2.5);
	NEAR(tt.threads[3].thread_uncovered, 2.0);

	/* C, then C again, 0 s, and no time */
	iv.time = 4.0;
	iv.dt = 1.0;
	iv.cores[0].reason = R_OFFLINE;
	unselect(&iv.cores[1]);
	thread(&iv, 0, R_OFFLINE, NAN);
	thread(&iv, 2, R_OFFLINE, NAN);
	thread(&iv, 1, R_NOT_SELECTED, 0.0);
	thread(&iv, 3, R_NOT_SELECTED, 0.0);
	totals_add(&tt, &iv);
	totals_add(&tt, &iv);
	iv.time = 5.0;
	iv.dt = 0.0;
	totals_add(&tt, &iv);
	iv.time = NAN;
	iv.dt = 1.0;
	totals_add(&tt, &iv);

	NEAR(tt.cores[0].state[0], 0.5);
	NEAR(tt.cores[0].state[1], 0.25);
	NEAR(tt.cores[0].state[2], 0.0);
	NEAR(tt.cores[0].state[3], 2.25);
	NEAR(tt.cores[0].uncovered, 1.0);
	NEAR(tt.cores[1].uncovered, 3.0);
	NEAR(n->state[0] + n->state[1] + n->state[2] + n->state[3], 3.0);
	NEAR(n->state[3], 2.25);
	NEAR(n->uncovered, 4.0);
	NEAR(tt.packages[0].uncovered, 4.0);
	NEAR(tt.threads[0].busy, 2.5);
	NEAR(tt.threads[0].thread_uncovered, 1.0);
	NEAR(tt.threads[2].busy, 2.25);
	NEAR(tt.threads[1].busy, 1.0);
	NEAR(tt.threads[1].thread_uncovered, 1.0);
	NEAR(tt.threads[3].busy, 0.0);
	NEAR(tt.threads[3].thread_uncovered, 3.0);
	NEAR(n->busy, 5.75);
	NEAR(n->thread_uncovered, 6.0);
	NEAR(tt.packages[0].busy, 5.75);

	totals_free(&tt);
	interval_free(&iv);
	topology_free(&m.topo);
}

/* The job's counters (--source sched with a job): its CPU seconds are the
 * intervals' cpu_s summed, the first and the last, partial, included;
 * an interval without cpu_s (not valid: records lost) adds its seconds
 * to job_uncovered instead, so that a short counter says why. Core 0's
 * job split adds its core-seconds where exact.
 * F: time 1, 0.5 s, cpu_s 0.4, core 0 job both .2 alone .3 shared .1.
 * G: time 1.5, 0.5 s, not valid: cpu_s absent, core 0 read error.
 * H: time 1.75, 0.25 s (the last, partial), cpu_s 0.1, core 0 shared .4.
 * Then H again (the whole-run record): nothing changes.
 * job_cpu .5, job_uncovered .5; job_state .1 .15 .05 + .1 = .15.
 * I: time 2, 0.25 s, cpu_s a bound [.05, .3] (a core's records lost): as
 * G, nothing to job_cpu, its .25 s to job_uncovered (.75). */
static void
test_totals_job(void **state)
{
	struct machine m;
	struct interval iv;
	struct totals tt;
	const struct totals_set *n = &tt.node;

	(void)state;
	memset(&m, 0, sizeof m);
	topology_synthetic(&m.topo, 1, 2, 2);
	interval_init(&iv, &m);
	totals_init(&tt, &m.topo);
	unselect(&iv.cores[1]);

	iv.time = 1.0;
	iv.dt = 0.5;
	split(&iv.cores[0], 0.0, 0.0, 0.0, 1.0);
	iv.cores[0].job_both = val_exact(0.2);
	iv.cores[0].job_alone = val_exact(0.3);
	iv.cores[0].job_shared = val_exact(0.1);
	iv.cores[0].job_none = val_exact(0.4);
	iv.node.cpu_s = val_exact(0.4);
	totals_add(&tt, &iv);

	iv.time = 1.5;
	iv.cores[0].reason = R_READ_ERROR;
	iv.cores[0].job_both = iv.cores[0].job_alone = iv.cores[0].job_shared =
	    iv.cores[0].job_none = val_absent(R_READ_ERROR);
	iv.node.cpu_s = val_absent(R_READ_ERROR);
	totals_add(&tt, &iv);
	NEAR(n->job_cpu, 0.4);
	NEAR(n->job_uncovered, 0.5);

	iv.time = 1.75;
	iv.dt = 0.25;
	split(&iv.cores[0], 0.0, 0.0, 0.0, 1.0);
	iv.cores[0].job_both = val_exact(0.0);
	iv.cores[0].job_alone = val_exact(0.0);
	iv.cores[0].job_shared = val_exact(0.4);
	iv.cores[0].job_none = val_exact(0.6);
	iv.node.cpu_s = val_exact(0.1);
	totals_add(&tt, &iv);
	totals_add(&tt, &iv);

	NEAR(n->job_cpu, 0.5);
	NEAR(n->job_uncovered, 0.5);
	NEAR(n->job_state[0], 0.1);
	NEAR(n->job_state[1], 0.15);
	NEAR(n->job_state[2], 0.15);

	iv.time = 2.0;
	iv.node.cpu_s = val_bound(0.05, 0.3);
	totals_add(&tt, &iv);
	NEAR(n->job_cpu, 0.5);
	NEAR(n->job_uncovered, 0.75);

	totals_free(&tt);
	interval_free(&iv);
	topology_free(&m.topo);
}

static void
counts(struct interval *iv, unsigned cpu, enum reason r, uint64_t inst, uint64_t cyc,
    uint64_t ref, uint64_t tsc)
{
	thread(iv, cpu, r, 0.5);
	iv->threads[cpu].d_inst = inst;
	iv->threads[cpu].d_cyc = cyc;
	iv->threads[cpu].d_ref = ref;
	iv->threads[cpu].d_tsc = tsc;
}

/* The raw counts: each thread's own, summed over its core, package and the
 * node, from the intervals in which the thread has figures, each counter
 * unless it stood still (stopped), the split counter only where used.
 * Cores 0 (CPUs 0, 2) and 1 (CPUs 1, 3), one package.
 * D: CPU 0 inst 100 cyc 200 ref 300 tsc 1000, any 500 (has_split);
 *    CPU 2 inst 10 cyc 20 ref 30 tsc 1000; CPU 1 inst 7 cyc 8 ref 9
 *    tsc 1000 but its instructions stopped (inst not added); CPU 3 not
 *    selected (nothing).
 * E: CPU 0 inst 1 cyc 2 ref 3 tsc 4, the split counter not used; CPU 2
 *    offline (nothing); CPU 1 inst 5 cyc 6 ref 7 tsc 8; CPU 3 reprogrammed (no figures).
 * CPU 0: inst 101, cyc 202, ref 303, tsc 1004, split 500.
 * Core 0: inst 111, cyc 222, ref 333, tsc 2004, split 500.
 * Core 1: inst 5, cyc 14, ref 16, tsc 1008, no split count.
 * Node = package 0: inst 116, cyc 236, ref 349, tsc 3012, split 500. */
static void
test_totals_counts(void **state)
{
	struct machine m;
	struct interval iv;
	struct totals tt;

	(void)state;
	memset(&m, 0, sizeof m);
	topology_synthetic(&m.topo, 1, 2, 2);
	interval_init(&iv, &m);
	totals_init(&tt, &m.topo);

	/* D */
	iv.time = 1.0;
	iv.dt = 1.0;
	split(&iv.cores[0], 0.5, 0.25, 0.0, 0.25);
	split(&iv.cores[1], 0.5, 0.25, 0.0, 0.25);
	counts(&iv, 0, R_NONE, 100, 200, 300, 1000);
	iv.threads[0].d_split = 500;
	iv.threads[0].has_split = true;
	counts(&iv, 2, R_NONE, 10, 20, 30, 1000);
	counts(&iv, 1, R_NONE, 7, 8, 9, 1000);
	iv.threads[1].stopped = KIND_BIT(SLOT_INST);
	counts(&iv, 3, R_NOT_SELECTED, 70, 80, 90, 1000);
	totals_add(&tt, &iv);

	/* E */
	iv.time = 2.0;
	counts(&iv, 0, R_NONE, 1, 2, 3, 4);
	iv.threads[0].d_split = 99;
	iv.threads[0].has_split = false;
	counts(&iv, 2, R_OFFLINE, 50, 50, 50, 50);
	counts(&iv, 1, R_NONE, 5, 6, 7, 8);
	counts(&iv, 3, R_REPROGRAMMED, 60, 60, 60, 60);
	totals_add(&tt, &iv);

	assert_int_equal(tt.threads[0].counts[TC_INST], 101);
	assert_int_equal(tt.threads[0].counts[TC_CYCLES], 202);
	assert_int_equal(tt.threads[0].counts[TC_REF], 303);
	assert_int_equal(tt.threads[0].counts[TC_TSC], 1004);
	assert_int_equal(tt.threads[0].counts[TC_SPLIT], 500);
	assert_true(tt.threads[0].has_split && !tt.threads[2].has_split);
	assert_int_equal(tt.threads[1].counts[TC_INST], 5);
	assert_int_equal(tt.threads[3].counts[TC_TSC], 0);
	assert_int_equal(tt.cores[0].counts[TC_INST], 111);
	assert_int_equal(tt.cores[0].counts[TC_CYCLES], 222);
	assert_int_equal(tt.cores[0].counts[TC_REF], 333);
	assert_int_equal(tt.cores[0].counts[TC_TSC], 2004);
	assert_int_equal(tt.cores[0].counts[TC_SPLIT], 500);
	assert_int_equal(tt.cores[1].counts[TC_INST], 5);
	assert_int_equal(tt.cores[1].counts[TC_CYCLES], 14);
	assert_int_equal(tt.cores[1].counts[TC_REF], 16);
	assert_int_equal(tt.cores[1].counts[TC_TSC], 1008);
	assert_false(tt.cores[1].has_split);
	assert_int_equal(tt.node.counts[TC_INST], 116);
	assert_int_equal(tt.node.counts[TC_CYCLES], 236);
	assert_int_equal(tt.node.counts[TC_REF], 349);
	assert_int_equal(tt.node.counts[TC_TSC], 3012);
	assert_int_equal(tt.node.counts[TC_SPLIT], 500);
	assert_int_equal(tt.packages[0].counts[TC_TSC], 3012);

	totals_free(&tt);
	interval_free(&iv);
	topology_free(&m.topo);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_totals_counts),
		cmocka_unit_test(test_totals_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
