/* test_job.c: job watching over a fake /proc tree and fake cgroup
 * directories in a temporary directory, and once over the real /proc with
 * the test's own PID. */
#define _GNU_SOURCE
#include "unit/testutil.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "watch/job.h"

static char root[PATH_MAX];   /* the temporary directory */

/* Write `text` to root/rel, creating the directories on the way. */
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

static void
rm(const char *rel)
{
	char cmd[PATH_MAX * 2];

	snprintf(cmd, sizeof cmd, "rm -rf '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static const char *
at(const char *rel)
{
	static char path[PATH_MAX * 2];

	snprintf(path, sizeof path, "%s/%s", root, rel);
	return path;
}

/* A task status file as the kernel writes it (the lines around the two
 * read are there so the parser has to find them). */
static void
task(const char *rel, char state, const char *cpus)
{
	char text[512];

	snprintf(text, sizeof text,
	    "Name:\tsleep\nUmask:\t0022\nState:\t%c (%s)\nTgid:\t100\n"
	    "Cpus_allowed:\tff\nCpus_allowed_list:\t%s\nMems_allowed_list:\t0\n",
	    state, state == 'Z' ? "zombie" : "sleeping", cpus);
	put(rel, text);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/test_job.XXXXXX");
	assert_non_null(mkdtemp(root));
	/* pid 100: two threads, 0-1 and 4,6-7. pid 200: one thread on 2.
	 * pid 300: a zombie. */
	task("proc/100/status", 'S', "0-1");
	task("proc/100/task/100/status", 'S', "0-1");
	task("proc/100/task/101/status", 'R', "4,6-7");
	task("proc/200/status", 'S', "2");
	task("proc/200/task/200/status", 'S', "2");
	task("proc/300/status", 'Z', "0-7");
	task("proc/300/task/300/status", 'Z', "0-7");
	/* A Slurm-like cgroup with the cpuset controller, a step below it
	 * without, and a plain directory. */
	put("cg/job_7/cgroup.controllers", "cpuset cpu memory\n");
	put("cg/job_7/cpuset.cpus.effective", "3,5-6\n");
	put("cg/job_7/step_0/cgroup.controllers", "cpu memory\n");
	put("plain/file", "x\n");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

/* The members of `l` as "0,1,4" for readable failures. */
static const char *
show(const struct cpulist *l)
{
	static char buf[256];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < l->n; i++)
		if (l->has[i])
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%zu",
			    len ? "," : "", i);
	return buf;
}

/* Two PIDs: the union of all their threads' lists, 0-1 + 4,6-7 + 2. Then
 * thread 101 ends, then pid 200, then pid 100 turns zombie. */
static void
test_pids(void **state)
{
	const pid_t pids[] = { 100, 200 };
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[256];

	(void)state;
	w = job_watch_new(pids, 2, NULL, at("proc"), &e);
	assert_non_null(w);
	assert_string_equal(job_watch_label(w), "pid 100, 200");

	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 2);
	assert_int_equal(cpus.n, 8);
	assert_string_equal(show(&cpus), "0,1,2,4,6,7");
	assert_string_equal(note, "");

	rm("proc/100/task/101");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 2);
	assert_string_equal(show(&cpus), "0,1,2");

	rm("proc/200");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 1);
	assert_string_equal(show(&cpus), "0,1");
	assert_string_equal(note, "pid 200 has ended");
	/* The note stays while the PID is gone. */
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 1);
	assert_string_equal(note, "pid 200 has ended");

	task("proc/100/task/100/status", 'Z', "0-1");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 0);
	assert_string_equal(show(&cpus), "");
	assert_string_equal(note, "pid 100 has ended; pid 200 has ended");
	job_watch_free(w);
	cpulist_free(&cpus);
}

/* CPUs at or past max_cpu are not on the machine: dropped. The list is
 * resized when max_cpu changes. */
static void
test_beyond_machine(void **state)
{
	const pid_t pid = 400;
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[64];

	(void)state;
	task("proc/400/status", 'S', "1,3-100");
	task("proc/400/task/400/status", 'S', "1,3-100");
	w = job_watch_new(&pid, 1, NULL, at("proc"), &e);
	assert_non_null(w);
	assert_int_equal(job_watch_update(w, 5, &cpus, note, sizeof note), 1);
	assert_int_equal(cpus.n, 5);
	assert_string_equal(show(&cpus), "1,3,4");
	assert_int_equal(job_watch_update(w, 2, &cpus, note, sizeof note), 1);
	assert_int_equal(cpus.n, 2);
	assert_string_equal(show(&cpus), "1");
	job_watch_free(w);
	cpulist_free(&cpus);
}

/* A topology without CPUs (max_cpu 0): the list is still allocated, so
 * clearing it never hands memset a null pointer (undefined even for 0
 * bytes), and the job keeps running with no CPU to show. */
static void
test_no_cpus(void **state)
{
	const pid_t pid = 410;
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[64];

	(void)state;
	task("proc/410/status", 'S', "1,3");
	task("proc/410/task/410/status", 'S', "1,3");
	w = job_watch_new(&pid, 1, NULL, at("proc"), &e);
	assert_non_null(w);
	assert_int_equal(job_watch_update(w, 0, &cpus, note, sizeof note), 1);
	assert_int_equal(cpus.n, 0);
	assert_non_null(cpus.has);
	assert_int_equal(cpulist_count(&cpus), 0);
	job_watch_free(w);
	cpulist_free(&cpus);
}

static void
test_pid_errors(void **state)
{
	const pid_t gone = 999, zombie = 300, ok_then_gone[] = { 400, 999 };
	struct errmsg e;

	(void)state;
	assert_null(job_watch_new(&gone, 1, NULL, at("proc"), &e));
	assert_non_null(strstr(e.text, "--pid 999: no such process"));
	assert_null(job_watch_new(&zombie, 1, NULL, at("proc"), &e));
	assert_non_null(strstr(e.text, "--pid 300: the process has already ended"));
	assert_null(job_watch_new(ok_then_gone, 2, NULL, at("proc"), &e));
	assert_non_null(strstr(e.text, "--pid 999"));
}

/* The cgroup's cpuset.cpus.effective (3,5-6), given absolute; a step
 * without the cpuset controller runs on its parent's CPUs; the cgroup
 * goes away at the end of the job. */
static void
test_cgroup(void **state)
{
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[256];
	char arg[PATH_MAX * 2];

	(void)state;
	snprintf(arg, sizeof arg, "%s", at("cg/job_7"));
	w = job_watch_new(NULL, 0, arg, at("proc"), &e);
	assert_non_null(w);
	assert_string_equal(job_watch_label(w), arg);
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 1);
	assert_string_equal(show(&cpus), "3,5,6");
	/* The cpuset changes (the job grew): re-read each time. */
	put("cg/job_7/cpuset.cpus.effective", "0-7\n");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 1);
	assert_string_equal(show(&cpus), "0,1,2,3,4,5,6,7");
	put("cg/job_7/cpuset.cpus.effective", "3,5-6\n");
	job_watch_free(w);

	snprintf(arg, sizeof arg, "%s", at("cg/job_7/step_0"));
	w = job_watch_new(NULL, 0, arg, at("proc"), &e);
	assert_non_null(w);
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 1);
	assert_string_equal(show(&cpus), "3,5,6");

	rm("cg/job_7");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 0);
	assert_string_equal(show(&cpus), "");
	assert_non_null(strstr(note, "has gone"));
	job_watch_free(w);
	cpulist_free(&cpus);
	put("cg/job_7/cgroup.controllers", "cpuset cpu memory\n");
	put("cg/job_7/cpuset.cpus.effective", "3,5-6\n");
}

/* A PID and a cgroup together: the union, 0-2 + 3,5-6. */
static void
test_union(void **state)
{
	const pid_t pid = 500;
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[256];
	char arg[PATH_MAX * 2];

	(void)state;
	task("proc/500/status", 'S', "0-2");
	task("proc/500/task/500/status", 'S', "0-2");
	snprintf(arg, sizeof arg, "%s", at("cg/job_7"));
	w = job_watch_new(&pid, 1, arg, at("proc"), &e);
	assert_non_null(w);
	assert_non_null(strstr(job_watch_label(w), "pid 500, /"));
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 2);
	assert_string_equal(show(&cpus), "0,1,2,3,5,6");
	job_watch_free(w);
	cpulist_free(&cpus);
}

static void
test_cgroup_errors(void **state)
{
	struct errmsg e;
	char arg[PATH_MAX * 2];

	(void)state;
	snprintf(arg, sizeof arg, "%s", at("plain"));
	assert_null(job_watch_new(NULL, 0, arg, at("proc"), &e));
	assert_non_null(strstr(e.text, "is not a cgroup v2 directory"));
	snprintf(arg, sizeof arg, "%s", at("nowhere"));
	assert_null(job_watch_new(NULL, 0, arg, at("proc"), &e));
	assert_non_null(strstr(e.text, "no such directory"));
	/* A relative path is taken under /sys/fs/cgroup. */
	assert_null(job_watch_new(NULL, 0, "no/such/httop-test/cgroup", NULL, &e));
	assert_non_null(strstr(e.text, "/sys/fs/cgroup/no/such/httop-test/cgroup"));
}

/* The real /proc and this process: its CPUs are those sched_getaffinity
 * gives (every thread here has the same affinity). */
static void
test_live_self(void **state)
{
	pid_t self = getpid();
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[64];
	cpu_set_t set;
	unsigned cpu;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
	w = job_watch_new(&self, 1, NULL, NULL, &e);
	assert_non_null(w);
	assert_int_equal(job_watch_update(w, CPU_SETSIZE, &cpus, note, sizeof note), 1);
	assert_string_equal(note, "");
	assert_int_equal(cpulist_count(&cpus), (size_t)CPU_COUNT(&set));
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (cpulist_has(&cpus, cpu) != (CPU_ISSET(cpu, &set) != 0))
			fail_msg("cpu %u: job list %d, affinity %d", cpu, cpulist_has(&cpus, cpu),
			    CPU_ISSET(cpu, &set) != 0);
	job_watch_free(w);
	cpulist_free(&cpus);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pids),
		cmocka_unit_test(test_beyond_machine),
		cmocka_unit_test(test_no_cpus),
		cmocka_unit_test(test_pid_errors),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_cgroup_errors),
		cmocka_unit_test(test_live_self),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
