/* test_check_load.c: httop --check's load is real on any Linux. A thread
 * busy in [0, 0.5) of every 5 ms period on one CPU must show as half busy
 * in its own account, in its own CPU time (CLOCK_THREAD_CPUTIME_ID) and in
 * the kernel's idle time for that CPU (/proc/stat).
 *
 * Other processes share the CPUs of a test machine. The kernel's busy
 * share of the CPU is then 0.5 + 0.5 x o, where o is the share other work
 * takes of a CPU when the load sleeps: o is measured for 0.5 s before and
 * after the load, and the expectation and its tolerance follow from it.
 * When other work leaves too little idle time to see the load (o above
 * 0.3, or o moving by more than 0.1) or takes the load's CPU from it
 * (more than 3% of its busy time), the attempt is repeated twice and then
 * the test is skipped with the reason: a busy machine cannot show an idle
 * CPU's accounting, and failing then would be spurious. */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "unit/testutil.h"

#include "check/cases.h"
#include "check/load.h"
#include "check/procstat.h"
#include "util/clock.h"

#define PERIOD 0.005
#define LOAD_S 2.0
#define QUIET_S 0.5
#define ATTEMPTS 3

static const struct check_case half_alone = {
	"test", "thread 0 busy in [0, 0.5)", { { 0.0, 0.5 }, { 0.0, 0.0 } }
};

static void
nap(double s)
{
	struct timespec ts;

	if (s <= 0.0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void
test_loop(void **state)
{
	uint64_t m = 0x9E3779B97F4A7C15ull, x = 1;
	int i;

	(void)state;
	/* Three iterations of eight multiplies: m^24 (mod 2^64). */
	for (i = 0; i < 24; i++)
		x *= m;
	assert_true(load_loop(1, 3) == x);
	assert_true(load_loop(7, 0) == 7);
}

/* Stopping ends a thread busy all the time and one asleep in its window
 * within a period and a block, not at the end of anything longer. */
static void
test_stop_prompt(void **state)
{
	struct load ld;
	struct errmsg e;
	cpu_set_t set;
	unsigned cpus[2] = { 0, 0 }, n = 0, c;
	double t0;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
	for (c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	assert_int_equal(load_start(&ld, check_case_find("t0"), cpus, n, PERIOD, 0.0, &e), 0);
	nap(0.05);
	t0 = clock_mono();
	load_stop(&ld);
	/* A generous 0.2 s: on a loaded machine the join itself waits for the
	 * scheduler. */
	assert_true(clock_mono() - t0 < 0.2);
}

/* One CPU, the one the least busy over QUIET_S, among those allowed. */
static unsigned
quiet_cpu(struct procstat *a, struct procstat *b, double *busy)
{
	cpu_set_t set;
	unsigned c, best = 0;
	double u, lo = 2.0;

	assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
	for (c = 0; c < a->n && c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set) || (u = procstat_busy(a, b, c, procstat_hz())) < 0.0)
			continue;
		if (u < lo) {
			lo = u;
			best = c;
		}
	}
	*busy = lo;
	return best;
}

struct attempt {
	unsigned cpu;
	double o0, o1;            /* other work's share before and after */
	double os_busy;           /* the kernel's busy share under the load */
	double span;              /* the load's life: first period to stop, s */
	double cpu_s, busy_s;     /* the thread's CPU time and time in its loop */
	double edges;             /* mean lateness + overrun of a window, s */
	uint64_t windows;
};

static double
busy_over(struct procstat *a, struct procstat *b, unsigned cpu, double s)
{
	struct errmsg e;

	assert_int_equal(procstat_read(a, &e), 0);
	nap(s);
	assert_int_equal(procstat_read(b, &e), 0);
	return procstat_busy(a, b, cpu, procstat_hz());
}

static void
one_attempt(struct attempt *at, unsigned max_cpu)
{
	struct procstat a, b;
	struct load ld;
	struct load_counts k;
	struct errmsg e;
	double t_stop;

	procstat_init(&a, max_cpu);
	procstat_init(&b, max_cpu);
	busy_over(&a, &b, 0, QUIET_S);
	at->cpu = quiet_cpu(&a, &b, &at->o0);
	assert_int_equal(load_start(&ld, &half_alone, &at->cpu, 1, PERIOD, 0.0, &e), 0);
	/* The kernel's view from the first period on, for LOAD_S. */
	nap(ld.epoch - clock_mono());
	at->os_busy = busy_over(&a, &b, at->cpu, LOAD_S);
	load_stop(&ld);
	t_stop = clock_mono();
	load_counts(&ld, 0, &k);
	at->span = t_stop - ld.epoch;
	at->cpu_s = (double)k.cpu_ns / 1e9;
	at->busy_s = (double)k.busy_ns / 1e9;
	at->windows = k.windows;
	at->edges = k.windows ? (double)(k.late_ns + k.over_ns) / 1e9 / (double)k.windows : 0.0;
	at->o1 = busy_over(&a, &b, at->cpu, QUIET_S);
	procstat_free(&a);
	procstat_free(&b);
}

/* Why this attempt cannot judge the load, or NULL. */
static const char *
too_busy(const struct attempt *at)
{
	static char why[200];

	if (at->o0 > 0.3 || at->o1 > 0.3 || fabs(at->o0 - at->o1) > 0.1)
		snprintf(why, sizeof why, "CPU %u was %.0f%% and %.0f%% busy with other work before "
		    "and after the load", at->cpu, 100 * at->o0, 100 * at->o1);
	else if (at->cpu_s < 0.97 * at->busy_s)
		snprintf(why, sizeof why, "other work took %.0f%% of the load's busy time on CPU %u",
		    100 * (1 - at->cpu_s / at->busy_s), at->cpu);
	else
		return NULL;
	return why;
}

static void
test_half_busy(void **state)
{
	struct attempt at;
	const char *why = NULL;
	unsigned i, max_cpu = CPU_SETSIZE;
	double edge, tol, o, want;

	(void)state;
	for (i = 0; i < ATTEMPTS; i++) {
		one_attempt(&at, max_cpu);
		if ((why = too_busy(&at)) == NULL)
			break;
		printf("# attempt %u: %s\n", i + 1, why);
	}
	printf("# CPU %u: other work %.1f%% / %.1f%%, kernel busy %.2f%%, own account %.2f%%, "
	    "CPU time %.2f%%, %llu windows, edges %.1f us\n", at.cpu, 100 * at.o0, 100 * at.o1,
	    100 * at.os_busy, 100 * at.busy_s / at.span, 100 * at.cpu_s / at.span,
	    (unsigned long long)at.windows, 1e6 * at.edges);
	if (why != NULL) {
		printf("# skipped: this machine is too busy to show one CPU's idle time: %s\n", why);
		skip();
	}
	/* About one window a period: the load kept to its schedule. */
	assert_true(fabs((double)at.windows - at.span / PERIOD) <= 2.0);
	/* Its own account: each window moves by its mean lateness and overrun
	 * (edge / period of the share), the last window may be cut (period /
	 * span); 0.5% for the clock reads between blocks. */
	edge = at.edges / PERIOD;
	tol = edge + PERIOD / at.span + 0.005;
	assert_near(at.busy_s / at.span, 0.5, tol);
	/* Its CPU time: the same, plus 1% for the kernel's work to wake and
	 * put it to sleep, which its CPU time includes and its account does
	 * not. */
	assert_near(at.cpu_s / at.span, 0.5, tol + 0.01);
	/* The kernel's busy share: 0.5 of the load and the other work's
	 * share o of the other half; the tolerance adds the ticks of
	 * /proc/stat (two of 1/HZ s over LOAD_S) and the change of o. */
	o = (at.o0 + at.o1) / 2;
	want = 0.5 + 0.5 * o;
	tol += 2.0 / ((double)procstat_hz() * LOAD_S) + 0.5 * fabs(at.o0 - at.o1) + 0.01;
	assert_near(at.os_busy, want, tol);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_stop_prompt),
		cmocka_unit_test(test_half_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
