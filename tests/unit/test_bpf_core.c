/* test_bpf_core.c: the bpf source's arithmetic (src/source/bpf/bpf_core.h:
 * what the kernel program does at each switch and httop at each read),
 * with switches worked out by hand. It builds without libbpf: the header
 * is the program's and httop's alike. */
#include "unit/testutil.h"

#include <string.h>

#include "source/bpf/bpf_core.h"

static void
core2(struct bpf_core *c, __u64 t0)
{
	memset(c, 0, sizeof *c);
	c->nthreads = 2;
	c->at = t0;
}

/* Two threads from t=100, idle and unknown:
 *   110 t0 busy            [100,110) nothing busy
 *   130 t1 busy            [110,130) t0 only: 20
 *   150 t0 idle            [130,150) both: 20
 *   175 t1 idle            [150,175) t1 only: 25
 *   read at 200            [175,200) neither: 25
 * ref0 = 20 + 20 = 40, ref1 = 20 + 25 = 45, any = 65, all (both) = 20;
 * neither = 100 - 65 = 35 (10 + 25); t0 only = ref0 - all = 20,
 * t1 only = ref1 - all = 25. */
static void
test_split(void **state)
{
	struct bpf_core c;

	(void)state;
	core2(&c, 100);
	bpf_core_switch(&c, 0, 110, 1, 0);
	bpf_core_switch(&c, 1, 130, 1, 0);
	bpf_core_switch(&c, 0, 150, 0, 0);
	bpf_core_switch(&c, 1, 175, 0, 0);
	bpf_core_advance(&c, 200);
	assert_int_equal(c.at, 200);
	assert_int_equal(c.ref[0], 40);
	assert_int_equal(c.ref[1], 45);
	assert_int_equal(c.any, 65);
	assert_int_equal(c.all, 20);
	assert_int_equal(200 - 100 - c.any, 35);
	assert_int_equal(c.ref[0] - c.all, 20);
	assert_int_equal(c.ref[1] - c.all, 25);
	assert_int_equal(c.known, 3);
	assert_int_equal(c.switches, 4);
}

/* A sibling's switch took the lock first with a later clock reading
 * (at = 150); this one's reading, 140, counts as 150: nothing is counted
 * twice or backwards. t0 busy from 100: at 150, ref0 = 50; t1's switch
 * at "140" makes it busy from 150; at 160 both for 10. */
static void
test_late_reading(void **state)
{
	struct bpf_core c;

	(void)state;
	core2(&c, 100);
	c.busy = 1;
	bpf_core_advance(&c, 150);
	bpf_core_switch(&c, 1, 140, 1, 0);
	assert_int_equal(c.at, 150);
	bpf_core_advance(&c, 160);
	assert_int_equal(c.ref[0], 60);
	assert_int_equal(c.ref[1], 10);
	assert_int_equal(c.all, 10);
	assert_int_equal(c.any, 60);
}

/* The job's split, two threads from 0:
 *   0  t0 runs the job's           [0,10)  alone (t1 idle): 10
 *   10 t1 runs a stranger          [10,30) shared: 20
 *   30 t1 runs the job's           [30,45) both: 15
 *   45 t0 idle                     [45,60) alone (t1's, t0 idle): 15
 *   60 t1 idle                     [60,70) none
 *   read at 70
 * job_ns0 = 10 + 20 + 15 = 45, job_ns1 = 15 + 15 = 30; both + alone +
 * shared = 60 = the time some thread ran the job's; job_ns0 + job_ns1 =
 * 2 both + alone + shared = 30 + 25 + 20 = 75. */
static void
test_job(void **state)
{
	struct bpf_core c;

	(void)state;
	core2(&c, 0);
	bpf_core_switch(&c, 0, 0, 1, 1);
	bpf_core_switch(&c, 1, 10, 1, 0);
	bpf_core_switch(&c, 1, 30, 1, 1);
	bpf_core_switch(&c, 0, 45, 0, 0);
	bpf_core_switch(&c, 1, 60, 0, 1);   /* idle: never the job's */
	bpf_core_advance(&c, 70);
	assert_int_equal(c.job_alone, 25);
	assert_int_equal(c.job_shared, 20);
	assert_int_equal(c.job_both, 15);
	assert_int_equal(c.job_ns[0], 45);
	assert_int_equal(c.job_ns[1], 30);
	assert_int_equal(c.job_ns[0] + c.job_ns[1], 2 * c.job_both + c.job_alone + c.job_shared);
	assert_int_equal(c.job, 0);
	assert_int_equal(c.ref[1], 50);
}

/* A switch out of a task the kernel runs no program for (issue 37: the
 * VM's agent): one thread (t0 of two, t1 idle) from 0:
 *   0   the job's loop comes on (seen)       [0,10)  job: 10
 *   10  the agent comes on (seen: the loop's switch out)
 *   12  the agent leaves, the loop comes on: not seen
 *   100 the loop leaves (seen): the task leaving is not the agent, so
 *       12 -> 100 was the loop's: placed at 12 by its run time (88)
 * busy 100; job 10 + 88 = 98; nothing unknown. Before the fix the agent's
 * state stayed until 100: job 10. */
static void
test_unseen_placed(void **state)
{
	struct bpf_core c;

	(void)state;
	core2(&c, 0);
	bpf_core_switch(&c, 0, 0, 1, 1);
	c.since[0] = 0;
	bpf_core_switch(&c, 0, 10, 1, 0);   /* the agent */
	c.since[0] = 10;
	bpf_core_unseen(&c, 0, 12, 100, 1, 1);
	bpf_core_switch(&c, 0, 100, 0, 0);
	assert_int_equal(c.ref[0], 100);
	assert_int_equal(c.job_ns[0], 98);
	assert_int_equal(c.job_alone, 98);
	assert_int_equal(c.unk[0], 0);
	assert_int_equal(c.unseen, 1);
}

/* The same where the task found has no run time of its own to place it
 * (t_in 0: real-time, idle): 10 -> 100 counted as the task found (the
 * loop's), and those 90 ns are unknown (the agent's 2 among them). A
 * sibling that counted past the moment placed (at = 50 > t_in 20) leaves
 * 20 -> 50 as counted, and unknown: 30. */
static void
test_unseen_unknown(void **state)
{
	struct bpf_core c;

	(void)state;
	core2(&c, 0);
	bpf_core_switch(&c, 0, 10, 1, 0);
	c.since[0] = 10;
	bpf_core_unseen(&c, 0, 0, 100, 1, 1);
	bpf_core_advance(&c, 100);
	assert_int_equal(c.job_ns[0], 90);
	assert_int_equal(c.unk[0], 90);

	core2(&c, 0);
	bpf_core_switch(&c, 0, 10, 1, 0);
	c.since[0] = 10;
	bpf_core_switch(&c, 1, 50, 1, 0);
	bpf_core_unseen(&c, 0, 20, 100, 1, 1);
	bpf_core_advance(&c, 100);
	assert_int_equal(c.job_ns[0], 50);
	assert_int_equal(c.unk[0], 30);

	/* The same where the task found was in the same state (busy, not
	 * the job's) as the one seen: nothing was counted wrong, unk 0. */
	core2(&c, 0);
	bpf_core_switch(&c, 0, 10, 1, 0);
	c.since[0] = 10;
	bpf_core_switch(&c, 1, 50, 1, 0);
	bpf_core_unseen(&c, 0, 0, 100, 1, 0);
	bpf_core_advance(&c, 100);
	assert_int_equal(c.ref[0], 90);
	assert_int_equal(c.unk[0], 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_late_reading),
		cmocka_unit_test(test_job),
		cmocka_unit_test(test_unseen_placed),
		cmocka_unit_test(test_unseen_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
