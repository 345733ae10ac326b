/* test_sched_job.c: the job's figures in the scheduler source's merge
 * (src/source/sched/sched_merge.c: sched_core_record_job, count_job), with
 * records worked out by hand; the records' process IDs and perf's task
 * records (fork, exit) as the kernel lays them out. */
#include "unit/testutil.h"

#include <linux/perf_event.h>
#include <string.h>

#include "source/sched/sched_merge.h"

/* A fake job: a set of task IDs, a child of a member becomes one. */
struct fake {
	uint32_t member[16];
	unsigned n;
	unsigned asked;
	unsigned exited;
};

static bool
fake_is(void *ctx, uint32_t pid, uint32_t tid)
{
	struct fake *f = ctx;
	unsigned i;

	(void)pid;
	f->asked++;
	for (i = 0; i < f->n; i++)
		if (f->member[i] == tid)
			return tid != 0;
	return false;
}

static void
fake_fork(void *ctx, uint32_t ppid, uint32_t pid, uint32_t tid)
{
	struct fake *f = ctx;

	(void)pid;
	if (fake_is(ctx, ppid, ppid) && f->n < 16)
		f->member[f->n++] = tid;
}

static void
fake_exit(void *ctx, uint32_t pid, uint32_t tid)
{
	(void)pid;
	(void)tid;
	((struct fake *)ctx)->exited++;
}

/* One core, two threads, from 0; the job's tasks 100 and 101 (process
 * 100), a stranger 200. Records (ns):
 *   0   thread 0: in 100 after idle         thread 1: out 200 -> idle
 *   10  thread 1: in 200 after idle
 *   20  thread 1: out 200 -> 101, then in 101 after 200
 *   35  thread 0: out 100 -> idle
 *   40  thread 1: out 101 -> idle
 * cut at 50. Working:
 *   [0,10)  t0 job, t1 idle        alone  10
 *   [10,20) t0 job, t1 stranger    shared 10
 *   [20,35) t0 job, t1 job         both   15
 *   [35,40) t0 idle, t1 job        alone   5
 *   [40,50) nothing                none   10
 * both 15, alone 15, shared 10, none 10: shares .3 + .3 + .2 + .2 = 1.
 * job_util: t0 [0,35) = 35 -> .7; t1 [20,40) = 20 -> .4; the job's CPU
 * time 35 + 20 = 55 ns = 2 x both + alone + shared = 30 + 15 + 10. */
static void
test_job_split(void **state)
{
	struct fake f = { { 100, 101 }, 2, 0, 0 };
	struct sched_job j = { fake_is, fake_fork, fake_exit, &f, NULL, NULL };
	struct sched_core c;
	uint64_t none;

	(void)state;
	sched_core_init(&c, 2, 0);
	sched_core_set_job(&c, &j);
	sched_core_record_job(&c, 0, 0, false, 100, 100, 0, 0);
	sched_core_record_job(&c, 1, 0, true, 200, 200, 0, 0);
	sched_core_record_job(&c, 1, 10, false, 200, 200, 0, 0);
	sched_core_record_job(&c, 1, 20, true, 200, 200, 100, 101);
	sched_core_record_job(&c, 1, 20, false, 100, 101, 200, 200);
	sched_core_record_job(&c, 0, 35, true, 100, 100, 0, 0);
	sched_core_record_job(&c, 1, 40, true, 100, 101, 0, 0);
	sched_core_advance(&c, 50);
	assert_int_equal(c.job_both, 15);
	assert_int_equal(c.job_alone, 15);
	assert_int_equal(c.job_shared, 10);
	none = 50 - c.job_both - c.job_alone - c.job_shared;
	assert_int_equal(none, 10);
	assert_int_equal(c.t[0].job_ns, 35);
	assert_int_equal(c.t[1].job_ns, 20);
	assert_int_equal(c.t[0].job_ns + c.t[1].job_ns,
	    2 * c.job_both + c.job_alone + c.job_shared);
	/* The other counts are the same as without a job. */
	assert_int_equal(c.t[0].ref, 35);
	assert_int_equal(c.t[1].ref, 30);
	assert_int_equal(c.any, 40);
}

/* Without a job nothing is asked and nothing counted; a thread whose
 * state was not known takes the task before from its first record: out
 * 100 -> idle at 30 on thread 0 (unknown from 0) says the job ran
 * [0,30); one thread on the core (no sibling): alone 30, none 20 at 50. */
static void
test_job_gap_and_none(void **state)
{
	struct fake f = { { 100 }, 1, 0, 0 };
	struct sched_job j = { fake_is, NULL, NULL, &f, NULL, NULL };
	struct sched_core c;

	(void)state;
	sched_core_init(&c, 2, 0);
	sched_core_record_job(&c, 0, 30, true, 100, 100, 0, 0);
	sched_core_advance(&c, 50);
	assert_int_equal(f.asked, 0);
	assert_int_equal(c.job_alone + c.job_both + c.job_shared + c.t[0].job_ns, 0);
	assert_int_equal(c.t[0].ref, 30);

	sched_core_init(&c, 1, 0);
	sched_core_set_job(&c, &j);
	sched_core_record_job(&c, 0, 30, true, 100, 100, 0, 0);
	sched_core_advance(&c, 50);
	assert_int_equal(c.job_alone, 30);
	assert_int_equal(c.job_both + c.job_shared, 0);
	assert_int_equal(c.t[0].job_ns, 30);
	/* asked twice: the gap's task (100) and the next (idle) */
	assert_int_equal(f.asked, 2);
}

/* A task moved into the job's cgroup while on a CPU: at the cut the job
 * is told a new interval begins and the tasks on the CPUs are asked again,
 * their answer counting from the cut, not before. Thread 0 runs the
 * stranger 300 from 0, thread 1 is idle; 300 becomes the job's (moved in)
 * before the cut at 50; thread 0 switches to idle at 90: the job ran
 * [50,90) = 40 ns, alone; only thread 0's task is asked at the tick. */
static void
test_job_tick(void **state)
{
	struct fake f = { { 100 }, 1, 0, 0 };
	struct sched_job j = { fake_is, NULL, NULL, &f, NULL, NULL };
	struct sched_core c;
	unsigned asked;

	(void)state;
	sched_core_init(&c, 2, 0);
	sched_core_set_job(&c, &j);
	sched_core_record_job(&c, 0, 0, false, 300, 300, 0, 0);
	sched_core_record_job(&c, 1, 0, true, 200, 200, 0, 0);
	f.member[f.n++] = 300;
	sched_core_advance(&c, 50);
	assert_int_equal(c.t[0].job_ns, 0);         /* asked at 0: not yet */
	asked = f.asked;
	sched_core_job_tick(&c);
	assert_int_equal(f.asked, asked + 1);
	sched_core_record_job(&c, 0, 90, true, 300, 300, 0, 0);
	sched_core_advance(&c, 100);
	assert_int_equal(c.t[0].job_ns, 40);
	assert_int_equal(c.job_alone, 40);
	assert_int_equal(c.t[1].job_ns + c.job_both + c.job_shared, 0);
	/* Without a job the tick asks nothing. */
	sched_core_set_job(&c, NULL);
	asked = f.asked;
	sched_core_job_tick(&c);
	assert_int_equal(f.asked, asked);
}

static void
put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof v);
}

static void
put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, sizeof v);
}

/* A switch record with both tasks' process IDs: header, next_prev_pid,
 * next_prev_tid, sample_id {pid, tid, time}. */
static void
put_switch(unsigned char *ring, uint64_t *head, bool out, uint32_t pid, uint32_t tid,
    uint32_t opid, uint32_t other, uint64_t t)
{
	unsigned char *rec = ring + *head;
	uint16_t misc = out ? PERF_RECORD_MISC_SWITCH_OUT : 0, size = 32;

	memset(rec, 0, 32);
	put32(rec, PERF_RECORD_SWITCH_CPU_WIDE);
	memcpy(rec + 4, &misc, 2);
	memcpy(rec + 6, &size, 2);
	put32(rec + 8, opid);
	put32(rec + 12, other);
	put32(rec + 16, pid);
	put32(rec + 20, tid);
	put64(rec + 24, t);
	*head += 32;
}

/* PERF_RECORD_FORK or _EXIT: header, pid, ppid, tid, ptid, time, then the
 * sample_id (the parent's IDs). */
static void
put_task(unsigned char *ring, uint64_t *head, uint32_t type, uint32_t pid, uint32_t ppid,
    uint32_t tid, uint64_t t)
{
	unsigned char *rec = ring + *head;
	uint16_t size = 48;

	memset(rec, 0, 48);
	put32(rec, type);
	memcpy(rec + 6, &size, 2);
	put32(rec + 8, pid);
	put32(rec + 12, ppid);
	put32(rec + 16, tid);
	put32(rec + 20, ppid);
	put64(rec + 24, t);
	put32(rec + 32, ppid);
	put32(rec + 36, ppid);
	put64(rec + 40, t);
	*head += 48;
}

static void
test_job_parse(void **state)
{
	unsigned char ring[128];
	uint64_t head = 0;
	struct sched_rec r;

	(void)state;
	put_switch(ring, &head, true, 100, 101, 200, 201, 5000);
	assert_int_equal(sched_rec_parse(ring, 32, &r), 0);
	assert_int_equal(r.kind, SCHED_REC_SWITCH);
	assert_int_equal(r.pid, 100);
	assert_int_equal(r.tid, 101);
	assert_int_equal(r.other_pid, 200);
	assert_int_equal(r.other, 201);
	put_task(ring, &head, PERF_RECORD_FORK, 300, 100, 301, 6000);
	assert_int_equal(sched_rec_parse(ring + 32, 48, &r), 0);
	assert_int_equal(r.kind, SCHED_REC_FORK);
	assert_int_equal(r.task_pid, 300);
	assert_int_equal(r.task_tid, 301);
	assert_int_equal(r.ppid, 100);
	assert_int_equal(r.time, 6000);
	/* too short for its body */
	assert_int_equal(sched_rec_parse(ring + 32, 40, &r), -1);
}

/* The job forks a child onto the sibling: ring 0 has the job's 100 on
 * from 0 (thread 0 known busy with it) and the fork of 300 by 100 at
 * 1000; ring 1 has 300 in (after idle) at 2000 and out -> idle at 3000,
 * then the child's exit at 3000. Cut at 4000: both [2000,3000) = 1000,
 * alone [0,2000) and [3000,4000) = 3000; the child counted as the job's
 * from its fork record, not asked of /proc. */
static void
test_job_fork_ring(void **state)
{
	unsigned char ring0[256], ring1[256];
	struct fake f = { { 100 }, 1, 0, 0 };
	struct sched_job j = { fake_is, fake_fork, fake_exit, &f, NULL, NULL };
	struct sched_ring r[2];
	struct sched_core c;
	uint64_t lost = 0;

	(void)state;
	memset(r, 0, sizeof r);
	r[0].data = ring0;
	r[1].data = ring1;
	r[0].dsize = r[1].dsize = 256;
	put_task(ring0, &r[0].head, PERF_RECORD_FORK, 300, 100, 300, 1000);
	put_switch(ring1, &r[1].head, false, 300, 300, 0, 0, 2000);
	put_switch(ring1, &r[1].head, true, 300, 300, 0, 0, 3000);
	put_task(ring1, &r[1].head, PERF_RECORD_EXIT, 300, 100, 300, 3000);
	sched_core_init(&c, 2, 0);
	sched_core_set_job(&c, &j);
	c.t[0].known = c.t[0].busy = c.t[0].job = true;
	c.t[1].known = true;
	assert_int_equal(sched_drain(&c, r, 4000, &lost), 4);
	assert_int_equal(f.n, 2);
	assert_int_equal(f.member[1], 300);
	assert_int_equal(f.exited, 1);
	assert_int_equal(c.job_both, 1000);
	assert_int_equal(c.job_alone, 3000);
	assert_int_equal(c.job_shared, 0);
	assert_int_equal(c.t[0].job_ns, 4000);
	assert_int_equal(c.t[1].job_ns, 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_split),
		cmocka_unit_test(test_job_gap_and_none),
		cmocka_unit_test(test_job_tick),
		cmocka_unit_test(test_job_parse),
		cmocka_unit_test(test_job_fork_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
