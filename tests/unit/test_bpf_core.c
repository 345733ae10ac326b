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
	bpf_core_init(c, 2, t0);
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
 * sibling that counted past the moment placed (at = 50 > t_in 20): 20 ->
 * 50, counted as the agent's, is recounted as the loop's from the log
 * (bpf_core_settle): job 80, nothing unknown (before: job 50, 30 ns
 * unknown, the interval's figures absent). */
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
	bpf_core_settle(&c, 0);
	bpf_core_advance(&c, 100);
	assert_int_equal(c.job_ns[0], 80);
	assert_int_equal(c.unk[0], 0);
	assert_int_equal(c.job_alone, 30);    /* [20,50): t1 idle */
	assert_int_equal(c.job_shared, 50);   /* [50,100): t1 a stranger */
	assert_int_equal(c.recounted, 1);

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

/* Issue 37 under load: the job's loop on t0 came on unseen (out of the
 * agent) while its sibling t1 switched often, which counted the core past
 * that moment with t0 as the agent's. Two threads from 0:
 *   10  t0: the agent comes on (seen)
 *   20  t1: a stranger (busy)
 *   30  t0: the agent leaves, the loop comes on: not seen
 *   40  t1: a task of the job
 *   60  t1: idle
 *   70  t1: a stranger
 *   100 t0: the loop leaves (seen; idle after): the loop came on at 30
 *       (its run time); the core counted to 70 with t0 the agent's
 *   read at 120
 * By hand, segment by segment (t0, t1):
 *   [10,20) agent, idle: -          [20,30) agent, stranger: -
 *   [30,40) loop, stranger: shared 10   [40,60) loop, job: both 20
 *   [60,70) loop, idle: alone 10     [70,100) loop, stranger: shared 30
 *   [100,120) idle, stranger: -
 * ref0 = 90, ref1 = 10 + 20 + 20 ... = [20,60) + [70,120) = 90; any =
 * [10,120) = 110; all = [20,60) + [70,100) = 70; job_ns0 = 70, job_ns1 =
 * 20; both 20, alone 10, shared 40 (job_ns0 + job_ns1 = 2 both + alone +
 * shared = 90); nothing unknown. Before the fix: [30,70) stayed the
 * agent's (job_ns0 30, shared 20 + 30, both 0) and 40 ns unknown. httop
 * reading before the program recounted recounts its copy alike. */
static void
test_unseen_busy_sibling(void **state)
{
	struct bpf_core c, copy;

	(void)state;
	core2(&c, 0);
	bpf_core_switch(&c, 0, 10, 1, 0);
	c.since[0] = c.at;
	bpf_core_switch(&c, 1, 20, 1, 0);
	bpf_core_switch(&c, 1, 40, 1, 1);
	bpf_core_switch(&c, 1, 60, 0, 0);
	bpf_core_switch(&c, 1, 70, 1, 0);
	bpf_core_unseen(&c, 0, 30, 100, 1, 1);
	bpf_core_switch(&c, 0, 100, 0, 0);
	copy = c;
	bpf_core_settle(&c, 0);
	bpf_core_settle(&copy, 0);
	bpf_core_advance(&c, 120);
	bpf_core_advance(&copy, 120);
	assert_memory_equal(&c, &copy, sizeof c);
	assert_int_equal(c.ref[0], 90);
	assert_int_equal(c.ref[1], 90);
	assert_int_equal(c.any, 110);
	assert_int_equal(c.all, 70);
	assert_int_equal(c.job_ns[0], 70);
	assert_int_equal(c.job_ns[1], 20);
	assert_int_equal(c.job_both, 20);
	assert_int_equal(c.job_alone, 10);
	assert_int_equal(c.job_shared, 40);
	assert_int_equal(c.unk[0], 0);
	assert_int_equal(c.unk[1], 0);
	/* settled once: a second call recounts nothing */
	bpf_core_settle(&c, 0);
	assert_int_equal(c.job_ns[0], 70);
	assert_int_equal(c.recounted, 1);
}

/* The log does not reach back to the moment placed: t0 the agent's from
 * 10, the loop on unseen at 20; t1 changed state BPF_CORE_LOG + 9 times,
 * at 30, 31, ... (busy, idle, ...), the last at L + 38 (L = BPF_CORE_LOG);
 * the loop leaves at L + 48. The log (L slots, the placement's and the
 * switch out's own among them) holds t1's changes from 41 on: [41, L + 38]
 * is recounted as the loop's, [20,41) stays the agent's and is unknown
 * (21 ns, said by httop's read). job_ns0 = L + 48 - 41 = L + 7. */
static void
test_unseen_log_short(void **state)
{
	struct bpf_core c;
	unsigned k, n = BPF_CORE_LOG + 9;

	(void)state;
	core2(&c, 0);
	bpf_core_switch(&c, 0, 10, 1, 0);
	c.since[0] = c.at;
	for (k = 0; k < n; k++)
		bpf_core_switch(&c, 1, 30 + k, !(k & 1), 0);
	assert_int_equal(c.at, BPF_CORE_LOG + 38);
	bpf_core_unseen(&c, 0, 20, BPF_CORE_LOG + 48, 1, 1);
	bpf_core_switch(&c, 0, BPF_CORE_LOG + 48, 0, 0);
	bpf_core_settle(&c, 0);
	assert_int_equal(c.job_ns[0], BPF_CORE_LOG + 7);
	assert_int_equal(c.unk[0], 21);
	assert_int_equal(c.job_ns[0] + c.job_ns[1], 2 * c.job_both + c.job_alone + c.job_shared);
	assert_int_equal(c.ref[0], BPF_CORE_LOG + 38);
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
		cmocka_unit_test(test_unseen_busy_sibling),
		cmocka_unit_test(test_unseen_log_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
