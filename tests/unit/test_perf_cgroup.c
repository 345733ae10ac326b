/* test_perf_cgroup.c: a cgroup's own counts from perf's cgroup events
 * (src/source/perf/perf_cgroup.c), issue 33:
 * - through a fake kernel: what is asked for (the cgroup directory's
 *   descriptor as the pid, each CPU, the events' type and config: 
 *   instructions = HARDWARE/1, cycles = HARDWARE/0, ref-cycles =
 *   HARDWARE/9, task-clock = SOFTWARE/1, linux/perf_event.h; one group per
 *   CPU, the first event leading), a refusal said with its errno's text,
 *   the CPU and the event, every descriptor opened closed again, the
 *   group reads summed and scaled;
 * - against this machine's kernel (root, a cgroup v2 tree mounted): the
 *   hardware events' refusal where there are none (a virtual machine), and
 *   the software task clock of a cgroup made here, holding a busy loop
 *   pinned to CPU 0 beside a stranger's busy loop on the same CPU outside
 *   the cgroup: the count is the loop's own CPU time (its utime + stime
 *   from /proc, within 20% and 30 ms), nearer it than the two loops'
 *   time together, and under 0.8 of the wall time (the CPU's whole time
 *   is the two loops'). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit/testutil.h"
#include "source/perf/perf_cgroup.h"
#include "util/clock.h"

/* ---- the fake kernel ---------------------------------------------------- */

#define MAXOPEN 32

struct call {
	uint32_t type;
	uint64_t config, read_format;
	int cgroup_fd, cpu, group_fd, fd;
};

struct fake {
	struct perf_sys sys;
	struct call c[MAXOPEN];
	unsigned n, nclosed;
	int refuse_cpu;            /* -1: none */
	unsigned refuse_at;        /* the event's place in the group */
	int refuse_err;
	uint64_t rd[3 + PERF_CG_MAX];   /* what each group read gives */
};

static int
f_open_cgroup(struct perf_sys *s, const struct perf_event_attr *a, int cgroup_fd, int cpu,
    int group_fd)
{
	struct fake *f = (struct fake *)s;
	struct call *c;
	unsigned place = 0, i;

	for (i = 0; i < f->n; i++)
		if (f->c[i].cpu == cpu)
			place++;
	if (cpu == f->refuse_cpu && place == f->refuse_at)
		return -f->refuse_err;
	assert_true(f->n < MAXOPEN);
	c = &f->c[f->n];
	c->type = a->type;
	c->config = a->config;
	c->read_format = a->read_format;
	c->cgroup_fd = cgroup_fd;
	c->cpu = cpu;
	c->group_fd = group_fd;
	c->fd = 100 + (int)f->n;
	f->n++;
	return c->fd;
}

static ssize_t
f_read(struct perf_sys *s, int fd, void *buf, size_t len)
{
	struct fake *f = (struct fake *)s;
	size_t n = (3 + f->rd[0]) * sizeof f->rd[0];

	(void)fd;
	if (n > len)
		return -ENOSPC;
	memcpy(buf, f->rd, n);
	return (ssize_t)n;
}

static void
f_close(struct perf_sys *s, int fd)
{
	(void)fd;
	((struct fake *)s)->nclosed++;
}

static void
fake_init(struct fake *f)
{
	memset(f, 0, sizeof *f);
	f->sys.open_cgroup = f_open_cgroup;
	f->sys.read = f_read;
	f->sys.close = f_close;
	f->refuse_cpu = -1;
}

static void
cpus_of(struct cpulist *l, const char *text)
{
	struct errmsg e;

	assert_int_equal(cpulist_parse(text, l, &e), 0);
}

static const enum perf_cg_event hw[] = { PERF_CG_INST, PERF_CG_CYCLES, PERF_CG_REF };

/* CPUs 0 and 2 of a list "0,2": two groups of three, the cgroup's
 * directory as the pid of each open, the leader first, the members in its
 * group, every event counting the group's times. */
static void
test_open_asks(void **state)
{
	struct fake f;
	struct cpulist cpus;
	struct perf_cgroup *pc;
	struct errmsg e;
	struct stat want, got;
	char fdpath[64];
	static const uint64_t cfg[] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
	    PERF_COUNT_HW_REF_CPU_CYCLES };
	unsigned i;

	(void)state;
	fake_init(&f);
	cpus_of(&cpus, "0,2");
	pc = perf_cgroup_open(&f.sys, "/tmp", &cpus, hw, 3, &e);
	assert_non_null(pc);
	assert_int_equal(f.n, 6);
	assert_int_equal(stat("/tmp", &want), 0);
	for (i = 0; i < 6; i++) {
		const struct call *c = &f.c[i];

		/* The descriptor given is the cgroup directory's. */
		snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", c->cgroup_fd);
		assert_int_equal(stat(fdpath, &got), 0);
		assert_true(got.st_ino == want.st_ino && got.st_dev == want.st_dev);
		assert_int_equal(c->cpu, i < 3 ? 0 : 2);
		assert_int_equal(c->type, PERF_TYPE_HARDWARE);
		assert_true(c->config == cfg[i % 3]);
		assert_true(c->read_format == (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		    PERF_FORMAT_TOTAL_TIME_RUNNING));
		assert_int_equal(c->group_fd, i % 3 == 0 ? -1 : f.c[i - i % 3].fd);
	}
	perf_cgroup_close(pc);
	assert_int_equal(f.nclosed, 6);
	cpulist_free(&cpus);
}

/* The kernel refuses CPU 2's cycles (ENOENT, as a virtual machine without
 * hardware events does): no events, the reason with the errno's text, the
 * CPU and the event, and the four opened before it closed. */
static void
test_refused(void **state)
{
	struct fake f;
	struct cpulist cpus;
	struct errmsg e;
	char want[256];

	(void)state;
	fake_init(&f);
	f.refuse_cpu = 2;
	f.refuse_at = 1;
	f.refuse_err = ENOENT;
	cpus_of(&cpus, "0,2");
	assert_null(perf_cgroup_open(&f.sys, "/tmp", &cpus, hw, 3, &e));
	snprintf(want, sizeof want, "cgroup events refused: %s (CPU 2, cycles)", strerror(ENOENT));
	assert_string_equal(e.text, want);
	assert_int_equal(f.n, 4);
	assert_int_equal(f.nclosed, 4);
	/* A kernel without the operation: EOPNOTSUPP. */
	f.sys.open_cgroup = NULL;
	assert_null(perf_cgroup_open(&f.sys, "/tmp", &cpus, hw, 3, &e));
	assert_non_null(strstr(e.text, strerror(EOPNOTSUPP)));
	/* A directory that is not there: said with its path. */
	f.sys.open_cgroup = f_open_cgroup;
	f.refuse_cpu = -1;
	assert_null(perf_cgroup_open(&f.sys, "/nonexistent-cgroup", &cpus, hw, 3, &e));
	assert_non_null(strstr(e.text, "/nonexistent-cgroup"));
	cpulist_free(&cpus);
}

/* The reads: each group {nr 3, enabled, running, inst, cycles, ref}.
 * Counted all the time (enabled = running = 1000): two CPUs sum to 2 x
 * (500, 1000, 800). Running half the time (500 of 1000): each count x 2,
 * scaled. Enabled but never running: no count, an error. */
static void
test_read(void **state)
{
	struct fake f;
	struct cpulist cpus;
	struct perf_cgroup *pc;
	struct errmsg e;
	uint64_t sum[3];
	bool scaled;

	(void)state;
	fake_init(&f);
	cpus_of(&cpus, "0-1");
	pc = perf_cgroup_open(&f.sys, "/tmp", &cpus, hw, 3, &e);
	assert_non_null(pc);
	f.rd[0] = 3;
	f.rd[1] = 1000;
	f.rd[2] = 1000;
	f.rd[3] = 500;
	f.rd[4] = 1000;
	f.rd[5] = 800;
	assert_int_equal(perf_cgroup_read(pc, sum, &scaled, &e), 0);
	assert_false(scaled);
	assert_true(sum[0] == 1000 && sum[1] == 2000 && sum[2] == 1600);
	f.rd[2] = 500;
	assert_int_equal(perf_cgroup_read(pc, sum, &scaled, &e), 0);
	assert_true(scaled);
	assert_true(sum[0] == 2000 && sum[1] == 4000 && sum[2] == 3200);
	f.rd[2] = 0;
	assert_int_equal(perf_cgroup_read(pc, sum, &scaled, &e), -1);
	assert_non_null(strstr(e.text, "never counted"));
	perf_cgroup_close(pc);
	cpulist_free(&cpus);
}

/* ---- this machine's kernel ------------------------------------------------ */

static const char *cg_root = "/sys/fs/cgroup";

/* The cgroup v2 tree (the first cgroup2 mount: /sys/fs/cgroup, or
 * /sys/fs/cgroup/unified on a hybrid systemd machine), as root. */
static bool
cgroup2_here(char *root, size_t rlen, char *why, size_t len)
{
	char dev[256], dir[256], type[64], path[300];
	FILE *fp;
	bool found = false;

	if (geteuid() != 0) {
		snprintf(why, len, "not root: a cgroup cannot be made");
		return false;
	}
	if ((fp = fopen("/proc/self/mounts", "re")) == NULL) {
		snprintf(why, len, "no /proc/self/mounts");
		return false;
	}
	while (!found && fscanf(fp, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3)
		found = strcmp(type, "cgroup2") == 0;
	fclose(fp);
	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	if (!found || access(path, W_OK) != 0) {
		snprintf(why, len, "no writable cgroup v2 tree mounted");
		return false;
	}
	snprintf(root, rlen, "%s", dir);
	return true;
}

static pid_t
busy_child(const char *procs)
{
	pid_t p = fork();

	if (p == 0) {
		cpu_set_t set;
		FILE *fp;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0)
			_exit(2);
		if (procs != NULL) {
			if ((fp = fopen(procs, "w")) == NULL)
				_exit(3);
			fprintf(fp, "%d\n", (int)getpid());
			if (fclose(fp) != 0)
				_exit(3);
		}
		for (;;)
			;
	}
	return p;
}

/* The process's time on a CPU, seconds: /proc/PID/schedstat's first
 * field (nanoseconds; utime + stime are ticks, sampled: 10 ms steps). */
static double
cpu_seconds(pid_t p)
{
	char path[64];
	unsigned long long ns;
	FILE *fp;
	int n;

	snprintf(path, sizeof path, "/proc/%d/schedstat", (int)p);
	if ((fp = fopen(path, "re")) == NULL)
		return -1.0;
	n = fscanf(fp, "%llu", &ns);
	fclose(fp);
	return n == 1 ? (double)ns / 1e9 : -1.0;
}

/* Whether pid is in the cgroup (its cgroup.procs lists it). */
static bool
in_cgroup(const char *procs, pid_t pid)
{
	FILE *fp = fopen(procs, "re");
	int p;
	bool found = false;

	if (fp == NULL)
		return false;
	while (!found && fscanf(fp, "%d", &p) == 1)
		found = p == (int)pid;
	fclose(fp);
	return found;
}

static void
stop(pid_t p)
{
	if (p > 0) {
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
	}
}

/* Where the machine has no hardware events the cgroup's refusal names
 * the errno and the event; where it has them they open. */
static void
test_real_hardware(void **state)
{
	struct perf_sys *sys = perf_sys_real(NULL);
	struct cpulist cpus;
	struct perf_cgroup *pc;
	struct errmsg e;

	(void)state;
	cpus_of(&cpus, "0");
	pc = perf_cgroup_open(sys, cg_root, &cpus, hw, 3, &e);
	if (pc != NULL) {
		printf("# this machine has hardware cgroup events: they opened\n");
		perf_cgroup_close(pc);
	} else {
		printf("# %s\n", e.text);
		assert_non_null(strstr(e.text, "cgroup events refused: "));
		assert_non_null(strstr(e.text, "(CPU 0, "));
	}
	cpulist_free(&cpus);
	sys->destroy(sys);
}

static void
test_real_task_clock(void **state)
{
	static const enum perf_cg_event tc[] = { PERF_CG_TASK_CLOCK };
	struct perf_sys *sys;
	struct cpulist cpus;
	struct perf_cgroup *pc;
	struct errmsg e;
	char why[128], root[256], dir[300], procs[320];
	pid_t mine, stranger;
	uint64_t a, b;
	double c0, c1, s0, s1, t0, t1, own, other, counted, wall;
	bool scaled;

	(void)state;
	if (!cgroup2_here(root, sizeof root, why, sizeof why))
		skip_because(why);
	snprintf(dir, sizeof dir, "%s/httop-test-cg-%d", root, (int)getpid());
	if (mkdir(dir, 0755) != 0)
		skip_because("cannot make a cgroup in the cgroup v2 tree");
	snprintf(procs, sizeof procs, "%s/cgroup.procs", dir);
	sys = perf_sys_real(NULL);
	cpus_of(&cpus, "0");
	mine = busy_child(procs);
	stranger = busy_child(NULL);
	/* Let the child move itself in (at most 5 s on a busy machine). */
	for (int i = 0; i < 500 && !in_cgroup(procs, mine); i++)
		usleep(10000);
	if (!in_cgroup(procs, mine)) {
		stop(mine);
		stop(stranger);
		rmdir(dir);
		fail_msg("the loop did not move itself into %s in 5 s", dir);
	}
	pc = perf_cgroup_open(sys, dir, &cpus, tc, 1, &e);
	if (pc == NULL) {
		stop(mine);
		stop(stranger);
		rmdir(dir);
		printf("# %s\n", e.text);
		fail_msg("task-clock cgroup event: %s", e.text);
	}
	assert_int_equal(perf_cgroup_read(pc, &a, &scaled, &e), 0);
	c0 = cpu_seconds(mine);
	s0 = cpu_seconds(stranger);
	t0 = clock_mono();
	usleep(600000);
	assert_int_equal(perf_cgroup_read(pc, &b, &scaled, &e), 0);
	c1 = cpu_seconds(mine);
	s1 = cpu_seconds(stranger);
	t1 = clock_mono();
	perf_cgroup_close(pc);
	stop(mine);
	stop(stranger);
	rmdir(dir);
	own = c1 - c0;
	other = s1 - s0;
	counted = (double)(b - a) / 1e9;
	wall = t1 - t0;
	printf("# cgroup task-clock %.3f s, the loop's own CPU time %.3f s, the stranger's "
	    "%.3f s, wall %.3f s\n", counted, own, other, wall);
	assert_true(c0 >= 0.0 && c1 >= 0.0 && s0 >= 0.0 && s1 >= 0.0);
	/* Nearer the loop's own time than the two loops' together. */
	assert_true(fabs(counted - own) < fabs(counted - own - other));
	/* The loop's own time, not the stranger's beside it. */
	assert_true(counted <= own * 1.2 + 0.03 && counted >= own * 0.8 - 0.03);
	assert_true(counted < 0.8 * wall);
	cpulist_free(&cpus);
	sys->destroy(sys);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_asks),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_real_hardware),
		cmocka_unit_test(test_real_task_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
