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

#include "util/clock.h"
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
	assert_non_null(strstr(e.text, "is neither a cgroup v2 directory (no cgroup.controllers) "
	    "nor a v1 cpuset (no cpuset.cpus)"));
	snprintf(arg, sizeof arg, "%s", at("nowhere"));
	assert_null(job_watch_new(NULL, 0, arg, at("proc"), &e));
	assert_non_null(strstr(e.text, "no such cgroup: looked for /sys/fs/cgroup/tmp/"));
	/* A relative path is taken under /sys/fs/cgroup, and under its
	 * hybrid and v1 places: the message names every one. */
	assert_null(job_watch_new(NULL, 0, "no/such/httop-test/cgroup", NULL, &e));
	assert_non_null(strstr(e.text, "/sys/fs/cgroup/no/such/httop-test/cgroup"));
	assert_non_null(strstr(e.text, "/sys/fs/cgroup/unified/no/such/httop-test/cgroup"));
}

/* Re-read once and show the CPUs of a watch on cgroup `arg` in the fake
 * cgroup mount `mnt` (under the test's directory). */
static const char *
cg_cpus(const char *mnt, const char *arg, struct errmsg *e)
{
	static char out[256];
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	char note[128], root_path[PATH_MAX * 2], proc[PATH_MAX * 2], cg[PATH_MAX * 2];

	snprintf(cg, sizeof cg, "%s", arg);       /* at() reuses its buffer */
	snprintf(root_path, sizeof root_path, "%s", at(mnt));
	snprintf(proc, sizeof proc, "%s", at("proc"));
	w = job_watch_new_at(NULL, 0, cg, proc, root_path, e);
	if (w == NULL)
		return NULL;
	assert_int_equal(job_watch_update(w, 16, &cpus, note, sizeof note), 1);
	snprintf(out, sizeof out, "%s", show(&cpus));
	job_watch_free(w);
	cpulist_free(&cpus);
	return out;
}

#define assert_cg(mnt, arg, want) do { \
	const char *got_ = cg_cpus(mnt, arg, &e); \
	if (got_ == NULL) \
		fail_msg("--cgroup %s in %s: %s", arg, mnt, e.text); \
	assert_string_equal(got_, want); \
} while (0)

/* Slurm sites on cgroup v1 and on the hybrid layout (systemd's v2 at
 * unified/, the controllers in v1 hierarchies), faked as directory trees:
 *   v1/cpuset/slurm/uid_1000/job_42: cpuset.cpus 8-11, cpuset.effective_cpus
 *     8-9 (the effective set is the one the job runs on)
 *   v1/cpuset/slurm/uid_1000/job_43: only cpuset.cpus 12-13 (a kernel
 *     before cpuset.effective_cpus)
 *   v1/cpu,cpuacct/slurm/uid_1000/job_42: another controller, no cpuset
 *   v1b/cpuset,cpu/job_5: cpuset mounted together with cpu: 3
 *   hy/unified/system.slice/slurmstepd.scope/job_7: v2 without the cpuset
 *     controller; hy/cpuset/system.slice/slurmstepd.scope/job_7: 1-2
 *   hy/unified/app.slice/x: v2 with cpuset (not bound to v1 here): 4
 *   hy/unified/user.slice/u: v2 without cpuset, and no v1 cpuset for it */
static void
test_cgroup_layouts(void **state)
{
	struct errmsg e;
	const char *got;

	(void)state;
	put("v1/cpuset/cpuset.cpus", "0-15\n");
	put("v1/cpuset/slurm/uid_1000/job_42/cpuset.cpus", "8-11\n");
	put("v1/cpuset/slurm/uid_1000/job_42/cpuset.effective_cpus", "8-9\n");
	put("v1/cpuset/slurm/uid_1000/job_42/tasks", "");
	put("v1/cpuset/slurm/uid_1000/job_43/cpuset.cpus", "12-13\n");
	put("v1/cpu,cpuacct/slurm/uid_1000/job_42/cpu.shares", "1024\n");
	put("v1b/cpuset,cpu/job_5/cpuset.cpus", "3\n");
	put("hy/unified/cgroup.controllers", "");
	put("hy/unified/system.slice/slurmstepd.scope/job_7/cgroup.controllers", "");
	put("hy/cpuset/system.slice/slurmstepd.scope/job_7/cpuset.effective_cpus", "1-2\n");
	put("hy/unified/app.slice/cgroup.controllers", "cpuset\n");
	put("hy/unified/app.slice/x/cgroup.controllers", "cpuset\n");
	put("hy/unified/app.slice/x/cpuset.cpus.effective", "4\n");
	put("hy/unified/user.slice/u/cgroup.controllers", "");

	/* v1: as the "N:cpuset:" line of /proc/PID/cgroup gives it, and
	 * relative, and absolute */
	got = cg_cpus("v1", "/slurm/uid_1000/job_42", &e);
	assert_non_null(got);
	assert_string_equal(got, "8,9");
	assert_cg("v1", "slurm/uid_1000/job_43", "12,13");
	assert_cg("v1", at("v1/cpuset/slurm/uid_1000/job_42"), "8,9");
	/* the hierarchy named in the path */
	assert_cg("v1", "cpuset/slurm/uid_1000/job_43", "12,13");
	assert_cg("v1b", "/job_5", "3");
	/* hybrid: the "0::" path is in unified/ without cpuset; the cpuset
	 * hierarchy has the same path */
	assert_cg("hy", "/system.slice/slurmstepd.scope/job_7", "1,2");
	assert_cg("hy", "/app.slice/x", "4");
	/* no cpuset anywhere for it: said, with the directory found */
	assert_null(cg_cpus("hy", "/user.slice/u", &e));
	assert_non_null(strstr(e.text, "no cpuset for it"));
	assert_non_null(strstr(e.text, "hy/unified/user.slice/u is a cgroup v2 directory, but "
	    "neither it nor a parent has cpuset.cpus.effective"));
	/* not there at all: every place looked at is named */
	assert_null(cg_cpus("hy", "/slurm/job_9", &e));
	assert_non_null(strstr(e.text, "no such cgroup: looked for "));
	assert_non_null(strstr(e.text, "hy/slurm/job_9, "));
	assert_non_null(strstr(e.text, "hy/unified/slurm/job_9"));
	assert_non_null(strstr(e.text, " and "));
	assert_non_null(strstr(e.text, "hy/cpuset/slurm/job_9"));
	rm("v1");
	rm("v1b");
	rm("hy");
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

/* A /proc/N/stat line: the parent comes after the name, which may hold
 * blanks and parentheses. */
static void
stat_file(unsigned pid, unsigned ppid)
{
	char rel[64], text[160];

	snprintf(rel, sizeof rel, "proc/%u/stat", pid);
	snprintf(text, sizeof text, "%u (a (b) c) S %u %u %u 0 -1 4194304\n", pid, ppid, pid, pid);
	put(rel, text);
}

/* Followed without the kernel's children lists (the fake /proc has no
 * "self"): every process whose parent is watched joins at the next
 * update, a grandchild one update later (its parent was not watched yet
 * when the scan began). No note for a process that ends: only the count
 * says when nothing is left. */
static void
test_follow_scan(void **state)
{
	const pid_t pid = 500;
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[256];

	(void)state;
	task("proc/500/status", 'S', "0");
	task("proc/500/task/500/status", 'S', "0");
	stat_file(500, 1);
	task("proc/501/status", 'S', "1");
	task("proc/501/task/501/status", 'S', "1");
	stat_file(501, 500);
	task("proc/502/status", 'S', "2-3");
	task("proc/502/task/502/status", 'S', "2-3");
	stat_file(502, 501);
	/* Not a descendant: its parent is 1. */
	task("proc/503/status", 'S', "7");
	task("proc/503/task/503/status", 'S', "7");
	stat_file(503, 1);
	w = job_watch_new(&pid, 1, NULL, at("proc"), &e);
	assert_non_null(w);
	job_watch_follow(w);
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 2);
	assert_string_equal(show(&cpus), "0,1");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 3);
	assert_string_equal(show(&cpus), "0,1,2,3");
	/* The parent ends: its children stay watched (reparented). */
	rm("proc/500");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 2);
	assert_string_equal(show(&cpus), "1,2,3");
	assert_string_equal(note, "");
	rm("proc/501");
	rm("proc/502");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 0);
	assert_string_equal(show(&cpus), "");
	assert_string_equal(note, "");
	rm("proc/503");
	job_watch_free(w);
	cpulist_free(&cpus);
}

/* Followed with the kernel's children lists (/proc/PID/task/TID/children,
 * switched on by a "self" entry for this process): a child and its own
 * child join in the same update. */
static void
test_follow_children(void **state)
{
	const pid_t pid = 600;
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[256], rel[96];

	(void)state;
	snprintf(rel, sizeof rel, "proc/self/task/%ld/children", (long)getpid());
	put(rel, "");
	task("proc/600/status", 'S', "0");
	task("proc/600/task/600/status", 'S', "0");
	put("proc/600/task/600/children", "601 ");
	task("proc/601/status", 'S', "5");
	task("proc/601/task/601/status", 'S', "5");
	task("proc/601/task/611/status", 'S', "6");
	put("proc/601/task/611/children", "602 ");
	task("proc/602/status", 'S', "4");
	task("proc/602/task/602/status", 'S', "4");
	w = job_watch_new(&pid, 1, NULL, at("proc"), &e);
	assert_non_null(w);
	job_watch_follow(w);
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 3);
	assert_string_equal(show(&cpus), "0,4,5,6");
	job_watch_free(w);
	cpulist_free(&cpus);
	rm("proc/self");
	rm("proc/600");
	rm("proc/601");
	rm("proc/602");
}

/* A Slurm job's label: "ID (USER, NAME, ELAPSED)", the name escaped for
 * the terminal; at its end one note, "job ID has ended", instead of
 * which cgroup went. 3725 s = 1:02:05; 90061 s = 1-01:01:01. */
static void
test_job_label(void **state)
{
	struct cpulist cpus = { 0, NULL };
	struct job_watch *w;
	struct errmsg e;
	char note[256];

	(void)state;
	put("cg/job_8/cgroup.controllers", "cpuset\n");
	put("cg/job_8/cpuset.cpus.effective", "1\n");
	w = job_watch_new(NULL, 0, at("cg/job_8"), at("proc"), &e);
	assert_non_null(w);
	job_watch_set_job(w, "42_3", "alice", "run\x1b[2J 7", clock_mono() - 3725.2);
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 1);
	assert_string_equal(job_watch_label(w), "42_3 (alice, run\\x1b[2J 7, 1:02:05)");
	assert_string_equal(note, "");
	job_watch_set_job(w, "42_3", "alice", "run", clock_mono() - 90061.5);
	job_watch_update(w, 8, &cpus, note, sizeof note);
	assert_string_equal(job_watch_label(w), "42_3 (alice, run, 1-01:01:01)");
	rm("cg/job_8");
	assert_int_equal(job_watch_update(w, 8, &cpus, note, sizeof note), 0);
	assert_string_equal(note, "job 42_3 has ended");
	job_watch_free(w);
	cpulist_free(&cpus);
}

/* What names the job in the outputs: a PID as given is kind "pid"; the
 * same PID as a command httop started is kind "command" with the
 * command's name, its id and pid still the PID. A name too long for the
 * field is cut where a character ends: 125 a's and "\xc3\xa9" (e acute,
 * 2 bytes) are 127 bytes and fit the 128 whole; 126 a's and it are 128,
 * and the cut at 127 would split it: 126 a's alone. */
static void
test_command_ident(void **state)
{
	const pid_t pid = 420;
	struct job_ident id;
	struct job_watch *w;
	struct errmsg e;
	char name[160];

	(void)state;
	task("proc/420/status", 'S', "0");
	task("proc/420/task/420/status", 'S', "0");
	w = job_watch_new(&pid, 1, NULL, at("proc"), &e);
	assert_non_null(w);
	job_watch_ident(w, &id);
	assert_string_equal(id.kind, "pid");
	assert_string_equal(id.id, "420");
	assert_string_equal(id.name, "");
	job_watch_set_command(w, "./my \"run\"");
	job_watch_ident(w, &id);
	assert_string_equal(id.kind, "command");
	assert_string_equal(id.id, "420");
	assert_string_equal(id.pid, "420");
	assert_string_equal(id.name, "./my \"run\"");
	assert_string_equal(id.user, "");
	assert_string_equal(id.cgroup, "");

	memset(name, 'a', 125);
	strcpy(name + 125, "\xc3\xa9");
	job_watch_set_command(w, name);
	job_watch_ident(w, &id);
	assert_int_equal(strlen(id.name), 127);
	assert_string_equal(id.name, name);
	memset(name, 'a', 126);
	strcpy(name + 126, "\xc3\xa9");
	job_watch_set_command(w, name);
	job_watch_ident(w, &id);
	assert_int_equal(strlen(id.name), 126);
	assert_int_equal(strspn(id.name, "a"), 126);
	job_watch_free(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pids),
		cmocka_unit_test(test_beyond_machine),
		cmocka_unit_test(test_no_cpus),
		cmocka_unit_test(test_command_ident),
		cmocka_unit_test(test_pid_errors),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_cgroup_errors),
		cmocka_unit_test(test_cgroup_layouts),
		cmocka_unit_test(test_live_self),
		cmocka_unit_test(test_follow_scan),
		cmocka_unit_test(test_follow_children),
		cmocka_unit_test(test_job_label),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
