/* test_jobtask.c: the job's tasks (src/watch/jobtask.c) over a fake /proc
 * in a temporary directory: by ancestry and by cgroup, each process read
 * once, threads answered by their process, forks and exits applied, a
 * process moved into or out of the job's cgroup read again once per
 * interval (job_tasks_tick), the table's deletions with many
 * entries, and the scheduler's record's callbacks over the cache
 * (job_tasks_sched_job). */
#define _GNU_SOURCE
#include "unit/testutil.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/sched/sched_merge.h"
#include "watch/jobtask.h"

static char root[PATH_MAX];

static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	char *p;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A process: its stat line (a command with a space and a parenthesis, as
 * the parser must take them) and its cgroup file. */
static void
proc(unsigned pid, unsigned ppid, const char *cgroup)
{
	char rel[64], text[512];

	snprintf(rel, sizeof rel, "%u/stat", pid);
	snprintf(text, sizeof text, "%u (a b) c) S %u %u %u 0 -1 4194560 100 0 0 0\n",
	    pid, ppid, pid, pid);
	put(rel, text);
	snprintf(rel, sizeof rel, "%u/cgroup", pid);
	snprintf(text, sizeof text, "12:cpuset:/\n0::%s\n", cgroup);
	put(rel, text);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/test_jobtask.XXXXXX");
	assert_non_null(mkdtemp(root));
	/* 1 -> 10 (the job's root) -> 11 -> 12; 1 -> 20 -> 21; 1 -> 30
	 * (another job, cgroup /job/30x, a name that starts like /job/3). */
	proc(1, 0, "/init.scope");
	proc(10, 1, "/job/3");
	proc(11, 10, "/job/3/step_0");
	proc(12, 11, "/job/3/step_0/task_0");
	proc(20, 1, "/user.slice");
	proc(21, 20, "/user.slice");
	proc(30, 1, "/job/30x");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void
test_ancestry(void **state)
{
	pid_t roots[] = { 10 };
	struct job_tasks *jt = job_tasks_new(root, roots, 1, NULL);
	struct job_tasks_stats st;

	(void)state;
	assert_non_null(jt);
	assert_true(job_tasks_is(jt, 12, 12));      /* 12 -> 11 -> 10: read 12, 11 */
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 2);
	assert_true(job_tasks_is(jt, 12, 1200));    /* a thread of 12: no read */
	assert_true(job_tasks_is(jt, 11, 11));
	assert_true(job_tasks_is(jt, 10, 10));
	assert_false(job_tasks_is(jt, 21, 21));     /* 21 -> 20 -> 1: read 21, 20 */
	assert_false(job_tasks_is(jt, 20, 2001));
	assert_false(job_tasks_is(jt, 0, 0));       /* idle */
	assert_false(job_tasks_is(jt, 1, 1));
	/* Each asked again: from the cache. */
	for (int i = 0; i < 100; i++) {
		assert_true(job_tasks_is(jt, 12, 12));
		assert_false(job_tasks_is(jt, 21, 21));
	}
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 4);
	assert_int_equal(st.unresolved, 0);
	/* A process gone before it was read: not the job's, said. */
	assert_false(job_tasks_is(jt, 99, 99));
	job_tasks_stats(jt, &st);
	assert_int_equal(st.unresolved, 1);
	job_tasks_free(jt);
}

static void
test_cgroup(void **state)
{
	struct job_tasks *jt = job_tasks_new(root, NULL, 0, "/job/3/");
	struct job_tasks_stats st;

	(void)state;
	assert_non_null(jt);
	assert_true(job_tasks_is(jt, 10, 10));
	assert_true(job_tasks_is(jt, 12, 12));      /* below the job's cgroup */
	assert_true(job_tasks_is(jt, 12, 1201));
	assert_false(job_tasks_is(jt, 30, 30));     /* /job/30x is not below /job/3 */
	assert_false(job_tasks_is(jt, 20, 20));
	assert_false(job_tasks_is(jt, 1, 1));
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 5);         /* 10, 12, 30, 20, 1 */
	job_tasks_free(jt);
	/* "/" and a relative path are refused; so is ancestry without roots. */
	assert_null(job_tasks_new(root, NULL, 0, "/"));
	assert_null(job_tasks_new(root, NULL, 0, "job/3"));
	assert_null(job_tasks_new(root, NULL, 0, NULL));
}

/* A process moved into the job's cgroup, then out (Slurm's and systemd's
 * way: fork, then move): within an interval its answer holds (no read per
 * switch); after a tick it is read again, once for the process and its
 * threads. By ancestry a tick reads nothing. */
static void
test_moved(void **state)
{
	struct job_tasks *jt = job_tasks_new(root, NULL, 0, "/job/3");
	pid_t roots[] = { 10 };
	struct job_tasks_stats st;

	(void)state;
	assert_false(job_tasks_is(jt, 21, 21));
	assert_false(job_tasks_is(jt, 21, 2101));
	proc(21, 20, "/job/3/step_1");
	assert_false(job_tasks_is(jt, 21, 21));     /* this interval: as read */
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 1);
	job_tasks_tick(jt);
	assert_true(job_tasks_is(jt, 21, 2101));    /* read again: moved in */
	assert_true(job_tasks_is(jt, 21, 21));
	assert_true(job_tasks_is(jt, 21, 2101));
	job_tasks_fork(jt, 21, 60, 60);             /* a child of the moved */
	assert_true(job_tasks_is(jt, 60, 60));
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 2);
	assert_int_equal(st.rereads, 1);
	job_tasks_tick(jt);
	job_tasks_tick(jt);                         /* nothing asked: no read */
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 2);
	proc(21, 20, "/user.slice");
	job_tasks_tick(jt);
	assert_false(job_tasks_is(jt, 21, 21));     /* moved out */
	assert_false(job_tasks_is(jt, 21, 2101));
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 3);
	assert_int_equal(st.rereads, 2);
	job_tasks_free(jt);

	jt = job_tasks_new(root, roots, 1, NULL);
	assert_false(job_tasks_is(jt, 21, 21));     /* reads 21, 20 */
	job_tasks_tick(jt);
	assert_false(job_tasks_is(jt, 21, 21));
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 2);
	assert_int_equal(st.rereads, 0);
	job_tasks_free(jt);
}

static void
test_fork_exit(void **state)
{
	pid_t roots[] = { 10 };
	struct job_tasks *jt = job_tasks_new(root, roots, 1, NULL);
	struct job_tasks_stats st;

	(void)state;
	assert_true(job_tasks_is(jt, 10, 10));      /* a root: no read */
	assert_false(job_tasks_is(jt, 20, 20));     /* read 20 */
	/* 10 forks 40, whose parent then ends: 40 is reparented to 1 in
	 * /proc (not written here: it is not there at all), yet the fork
	 * record said whose it is. */
	job_tasks_fork(jt, 10, 40, 40);
	job_tasks_fork(jt, 40, 40, 4001);           /* a thread of 40 */
	job_tasks_fork(jt, 20, 50, 50);             /* a stranger's child */
	job_tasks_fork(jt, 77, 78, 78);             /* an unknown parent: left */
	assert_true(job_tasks_is(jt, 40, 40));
	assert_true(job_tasks_is(jt, 40, 4001));
	assert_false(job_tasks_is(jt, 50, 50));
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 1);
	assert_int_equal(st.forks, 3);
	/* 40's thread ends and its ID comes back as a stranger's thread (of
	 * 20): read again, not the job's. */
	job_tasks_exit(jt, 40, 4001);
	assert_false(job_tasks_is(jt, 20, 4001));
	job_tasks_free(jt);
}

/* Many entries in and out: every answer stays right across growth and
 * the back-shifted deletions. */
static void
test_table(void **state)
{
	pid_t roots[] = { 10 };
	struct job_tasks *jt = job_tasks_new(root, roots, 1, NULL);
	struct job_tasks_stats st;
	uint32_t t;

	(void)state;
	assert_true(job_tasks_is(jt, 10, 10));
	assert_false(job_tasks_is(jt, 20, 20));
	for (t = 100; t < 20100; t++)
		job_tasks_fork(jt, t % 2 ? 10 : 20, t % 2 ? 10 : 20, t);
	for (t = 100; t < 20100; t += 3)
		job_tasks_exit(jt, t % 2 ? 10 : 20, t);
	job_tasks_stats(jt, &st);
	assert_int_equal(st.entries, 3 + 20000 - 6667);   /* 10, 20, 1 and the threads */
	for (t = 100; t < 20100; t++) {
		if ((t - 100) % 3 == 0)
			continue;
		assert_int_equal(job_tasks_is(jt, t % 2 ? 10 : 20, t), t % 2 == 1);
	}
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 1);         /* 20 only: all else cached */
	job_tasks_free(jt);
}

/* The callbacks of struct sched_job that job_tasks_sched_job fills ask
 * the cache itself (its counts move as with direct calls); the job's
 * cgroup directory, set by the caller, stays. */
static void
test_sched_job(void **state)
{
	struct job_tasks *jt = job_tasks_new(root, NULL, 0, "/job/3");
	struct sched_job j = { 0 };
	struct job_tasks_stats st;

	(void)state;
	j.cgroup_dir = "/sys/fs/cgroup/job/3";
	job_tasks_sched_job(jt, &j);
	assert_ptr_equal(j.ctx, jt);
	assert_string_equal(j.cgroup_dir, "/sys/fs/cgroup/job/3");
	assert_true(j.is(j.ctx, 12, 12));           /* read 12 */
	assert_false(j.is(j.ctx, 20, 20));          /* read 20 */
	j.fork(j.ctx, 12, 60, 60);                  /* 12's child: the job's */
	assert_true(j.is(j.ctx, 60, 60));
	job_tasks_stats(jt, &st);
	assert_int_equal(st.lookups, 3);
	assert_int_equal(st.proc_reads, 2);
	assert_int_equal(st.forks, 1);
	assert_int_equal(st.entries, 3);
	j.exit(j.ctx, 60, 60);
	job_tasks_stats(jt, &st);
	assert_int_equal(st.entries, 2);
	j.tick(j.ctx);
	assert_true(j.is(j.ctx, 12, 12));           /* a new interval: read again */
	job_tasks_stats(jt, &st);
	assert_int_equal(st.proc_reads, 3);
	assert_int_equal(st.rereads, 1);
	job_tasks_free(jt);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ancestry),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_moved),
		cmocka_unit_test(test_fork_exit),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_sched_job),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
