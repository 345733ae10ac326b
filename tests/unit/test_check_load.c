/* test_check_load.c: httop --check's load is real on any Linux. A thread
 * busy in [0, 0.5) of every 5 ms period on one CPU must show as half busy
 * in its own account, in its own CPU time (CLOCK_THREAD_CPUTIME_ID) and in
 * the kernel's idle time for that CPU (/proc/stat).
 *
 * Other processes share the CPUs of a test machine: o, the share other
 * work takes of the CPU, is measured for 0.5 s before and after the load.
 * The load's own account (its windows and its time in them, by the clock)
 * does not depend on other work and is always judged. Its CPU time is
 * judged when other work took less than 3% of its busy time: as root the
 * test makes the load thread SCHED_FIFO, so that other processes cannot
 * take its CPU inside a window (the load's code is the same; it only
 * keeps the measurement from the other tests). That /proc/stat counts the
 * windows as busy is always judged (in a window the load or other work
 * runs, never nothing); that the CPU is idle in the rest only on a quiet
 * CPU (o at most 5% before and after), in the least busy half second of
 * the load (other work comes in bursts that samples around the load
 * miss; the quietest block is the one it touched least). Until then the
 * test waits for a quieter moment (looking every 0.5 s, which
 * costs nothing, 20 s at most in all) and tries again, three times; then
 * those parts are skipped with the reason: a busy machine cannot show an
 * idle CPU's accounting, and failing then would be spurious.
 *
 * Plain TAP, not cmocka: cmocka prints a skipped test as "not ok", which
 * the TAP driver counts as a failure. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/cases.h"
#include "check/load.h"
#include "check/procstat.h"
#include "util/clock.h"

#define PERIOD 0.005
#define LOAD_S 3.0
#define BLOCK_S 0.5
#define QUIET_S 0.5
#define ATTEMPTS 3
#define QUIET_WAIT_S 20.0

static double quiet_budget = QUIET_WAIT_S;

static int tap_n, tap_failed;

/* One TAP line; a failure says why on the lines after it. */
static bool
tap(bool ok, const char *what, const char *why, ...)
{
	va_list ap;

	printf("%s %d - %s\n", ok ? "ok" : "not ok", ++tap_n, what);
	if (!ok) {
		tap_failed++;
		printf("# ");
		va_start(ap, why);
		vprintf(why, ap);
		va_end(ap);
		printf("\n");
	}
	return ok;
}

/* |a - b| <= tol, both values said when not. */
static bool
near(const char *what, double a, double b, double tol)
{
	return tap(fabs(a - b) <= tol, what, "%.6f, expected %.6f +- %.6f", a, b, tol);
}

static const struct check_case half_alone = {
	"test", "thread 0 busy in [0, 0.5)", { { 0.0, 0.5 }, { 0.0, 0.0 } }, NULL
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

/* The loop does eight multiplies an iteration: three iterations from 1
 * give m^24 (mod 2^64); none leaves x alone. */
static void
test_loop(void)
{
	uint64_t m = 0x9E3779B97F4A7C15ull, x = 1;
	int i;

	for (i = 0; i < 24; i++)
		x *= m;
	tap(load_loop(1, 3) == x && load_loop(7, 0) == 7,
	    "the loop: 3 iterations from 1 give m^24, 0 iterations nothing", "wrong product");
}

/* The CPUs this process may run on, the first two. */
static unsigned
allowed(unsigned cpus[2])
{
	cpu_set_t set;
	unsigned c, n = 0;

	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 0;
	for (c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

/* Stopping ends a thread busy all the time and one asleep in its window
 * within a period and a block, not at the end of anything longer. */
static void
test_stop_prompt(void)
{
	struct load ld;
	struct errmsg e;
	unsigned cpus[2] = { 0, 0 }, n = allowed(cpus);
	double t0, took;

	if (load_start(&ld, check_case_find("t0"), cpus, n, PERIOD, 0.0, 1.0, &e) != 0) {
		tap(false, "load_start", "%s", e.text);
		load_free(&ld);
		return;
	}
	nap(0.05);
	t0 = clock_mono();
	load_stop(&ld);
	took = clock_mono() - t0;
	load_free(&ld);
	/* Not a timing (make check asserts no wall time): a load that missed
	 * the stop would run on forever; 10 s is a did-it-end guard, 50 times
	 * the most a loaded machine's join took. The time is printed. */
	printf("# load_stop took %.3f s\n", took);
	tap(took < 10.0, "load_stop returns (guard: 10 s)", "it took %.3f s", took);
}

/* A thread the kernel moves off its CPU (as it does to every task pinned
 * to a CPU that goes offline; here its affinity is changed instead)
 * says so and stops: its loop no longer runs, anywhere. Busy all the
 * time (case t0) and in windows (half_alone). */
static void
test_moved(const struct check_case *cs, const char *what)
{
	struct load ld;
	struct load_counts k0, k1;
	struct errmsg e;
	unsigned cpus[2] = { 0, 0 }, n = allowed(cpus);
	cpu_set_t other;
	double t0;
	bool ok;

	if (n < 2) {
		printf("ok %d # SKIP one CPU allowed: no other CPU to move the load to\n", ++tap_n);
		return;
	}
	if (load_start(&ld, cs, cpus, 1, PERIOD, 0.0, 3.0, &e) != 0) {
		tap(false, what, "load_start: %s", e.text);
		load_free(&ld);
		return;
	}
	nap(0.03);
	CPU_ZERO(&other);
	CPU_SET(cpus[1], &other);
	(void)pthread_setaffinity_np(ld.th[0].tid, sizeof other, &other);
	/* A busy CPU may keep it waiting to run there: a guard of 20 s. */
	t0 = clock_mono();
	do {
		nap(0.01);
		load_counts(&ld, 0, &k0);
	} while (!k0.moved && clock_mono() - t0 < 20.0);
	nap(0.05);
	load_counts(&ld, 0, &k1);
	ok = k0.moved && k1.iterations == k0.iterations && k1.windows == k0.windows;
	tap(ok, what, "moved %d, iterations %llu then %llu", (int)k0.moved,
	    (unsigned long long)k0.iterations, (unsigned long long)k1.iterations);
	load_stop(&ld);
	load_free(&ld);
}

/* The CPU the least busy over `s`, among those allowed, and its share. */
static unsigned
quiet_cpu(struct procstat *a, struct procstat *b, double s, double *busy)
{
	cpu_set_t set;
	struct errmsg e;
	unsigned c, best = 0;
	double u, lo = 2.0;

	if (sched_getaffinity(0, sizeof set, &set) != 0 || procstat_read(a, &e) != 0)
		exit(99);
	nap(s);
	if (procstat_read(b, &e) != 0)
		exit(99);
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
	double os_steal;          /* ... and the hypervisor's (steal), busy neither */
	double os_min;            /* ... in its least busy block */
	double span;              /* the load's life: first period to stop, s */
	double cpu_s, busy_s;     /* the thread's CPU time and time in its loop */
	double edges;             /* mean lateness + overrun of a window, s */
	uint64_t windows;
	bool fifo;                /* the load thread ran SCHED_FIFO */
	/* Its record of bursts (load_bursts): how many, whole, their time
	 * in all, and whether each lay in order, on its CPU, in the load's
	 * life. */
	size_t nbursts;
	bool whole, ordered;
	double bursts_s;
	double blocks;            /* blocks of the loop it ran */
};

/* The bursts the thread recorded. */
static void
bursts_account(struct attempt *at, const struct load *ld)
{
	const struct load_burst *b = load_bursts(ld, 0, &at->nbursts, &at->whole);
	double prev = ld->epoch;
	size_t i;

	at->bursts_s = 0.0;
	at->ordered = true;
	for (i = 0; i < at->nbursts; i++) {
		at->ordered &= b[i].start >= prev && b[i].end >= b[i].start &&
		    b[i].cpu == (int)at->cpu;
		prev = b[i].end;
		at->bursts_s += b[i].end - b[i].start;
	}
}

static double
busy_over(struct procstat *a, struct procstat *b, unsigned cpu, double s)
{
	struct errmsg e;

	if (procstat_read(a, &e) != 0)
		exit(99);
	nap(s);
	if (procstat_read(b, &e) != 0)
		exit(99);
	return procstat_busy(a, b, cpu, procstat_hz());
}

/* Wait until a CPU is quiet enough, at most QUIET_WAIT_S; then the load
 * on it. */
static bool
one_attempt(struct attempt *at, unsigned max_cpu)
{
	struct procstat a, b;
	struct load ld;
	struct load_counts k;
	struct errmsg e;
	struct sched_param sp = { .sched_priority = 1 };
	double t_stop;
	int i;

	procstat_init(&a, max_cpu);
	procstat_init(&b, max_cpu);
	at->cpu = quiet_cpu(&a, &b, QUIET_S, &at->o0);
	while (at->o0 > 0.05 && quiet_budget > 0.0) {
		at->cpu = quiet_cpu(&a, &b, QUIET_S, &at->o0);
		quiet_budget -= QUIET_S;
	}
	/* A small start delay: the policy is set before the first window. */
	if (load_start(&ld, &half_alone, &at->cpu, 1, PERIOD, 0.02, LOAD_S + 1.0, &e) != 0) {
		printf("# %s\n", e.text);
		load_free(&ld);
		return false;
	}
	at->fifo = pthread_setschedparam(ld.th[0].tid, SCHED_FIFO, &sp) == 0;
	/* The kernel's view from the first period on, for LOAD_S in all and
	 * in blocks of BLOCK_S: the least busy block is the one other work
	 * touched least. */
	nap(ld.epoch - clock_mono());
	at->os_busy = at->os_steal = 0.0;
	at->os_min = 1.0;
	for (i = 0; i < LOAD_S / BLOCK_S; i++) {
		double u = busy_over(&a, &b, at->cpu, BLOCK_S);

		at->os_busy += u / (LOAD_S / BLOCK_S);
		at->os_steal += procstat_steal(&a, &b, at->cpu, procstat_hz()) / (LOAD_S / BLOCK_S);
		at->os_min = fmin(at->os_min, u);
	}
	load_stop(&ld);
	t_stop = clock_mono();
	load_counts(&ld, 0, &k);
	at->span = t_stop - ld.epoch;
	at->cpu_s = (double)k.cpu_ns / 1e9;
	at->busy_s = (double)k.busy_ns / 1e9;
	at->windows = k.windows;
	at->edges = k.windows ? (double)(k.late_ns + k.over_ns) / 1e9 / (double)k.windows : 0.0;
	at->blocks = (double)k.iterations / LOAD_BLOCK;
	bursts_account(at, &ld);
	load_free(&ld);
	at->o1 = busy_over(&a, &b, at->cpu, QUIET_S);
	procstat_free(&a);
	procstat_free(&b);
	return true;
}

/* Why this attempt cannot judge how idle the kernel saw the CPU in the
 * load's sleeping half, or NULL. */
static const char *
os_too_busy(const struct attempt *at)
{
	static char why[200];

	if (at->o0 <= 0.05 && at->o1 <= 0.05)
		return NULL;
	snprintf(why, sizeof why, "CPU %u was %.0f%% and %.0f%% busy with other work before "
	    "and after the load", at->cpu, 100 * at->o0, 100 * at->o1);
	return why;
}

/* Why this attempt cannot judge the thread's CPU time, or NULL. */
static const char *
cpu_taken(const struct attempt *at)
{
	static char why[200];

	if (at->cpu_s >= 0.97 * at->busy_s)
		return NULL;
	snprintf(why, sizeof why, "other work took %.0f%% of the load's busy time on CPU %u",
	    100 * (1 - at->cpu_s / at->busy_s), at->cpu);
	return why;
}

#define HALF_TESTS 7

static void
skip_tap(const char *why)
{
	printf("ok %d # SKIP this machine is too busy to show it: %s\n", ++tap_n, why);
}

static void
test_half_busy(void)
{
	struct attempt at;
	const char *os = "no attempt", *cpu = "no attempt";
	unsigned i;
	double edge, tol, ticks;

	for (i = 0; i < ATTEMPTS; i++) {
		if (!one_attempt(&at, CPU_SETSIZE)) {
			for (i = 0; i < HALF_TESTS; i++)
				tap(false, "the load starts", "see above");
			return;
		}
		os = os_too_busy(&at);
		cpu = cpu_taken(&at);
		if (os == NULL && cpu == NULL)
			break;
		printf("# attempt %u: %s\n", i + 1, os != NULL ? os : cpu);
	}
	printf("# CPU %u%s: other work %.1f%% / %.1f%%, kernel busy %.2f%% (steal %.2f%%, least "
	    "%.2f%%), own account %.2f%%, CPU time %.2f%%, %llu windows, edges %.1f us\n", at.cpu,
	    at.fifo ? " (SCHED_FIFO)" : "", 100 * at.o0, 100 * at.o1, 100 * at.os_busy,
	    100 * at.os_steal,
	    100 * at.os_min, 100 * at.busy_s / at.span,
	    100 * at.cpu_s / at.span, (unsigned long long)at.windows, 1e6 * at.edges);
	/* Its record of bursts: whole, one for each window it began (one
	 * of no length where it woke after the window), in order on its
	 * CPU, and their time in all is its time in the loop: both sum the
	 * same clock readings, the loop's in ns per block, rounded: half a
	 * ns a block at most, and a ns a burst for the sum's own rounding. */
	tap(at.whole && at.ordered && at.nbursts == at.windows,
	    "the load's record: a burst per window, in order, on its CPU",
	    "whole %d, ordered %d, %zu bursts, %llu windows", (int)at.whole, (int)at.ordered,
	    at.nbursts, (unsigned long long)at.windows);
	near("the load's record: its bursts' time is its time in the loop", at.bursts_s,
	    at.busy_s, 0.5e-9 * at.blocks + 1e-9 * (double)at.nbursts + 1e-9);
	/* About one window a period: the load kept to its schedule (where
	 * other work took its CPU, windows can pass unbegun: CI's distcheck
	 * under a VM's steal). */
	if (cpu != NULL)
		skip_tap(cpu);
	else
		near("a window every 5 ms", (double)at.windows, at.span / PERIOD, 2.0);
	/* Its own account: each window moves by its mean lateness and overrun
	 * (edge / period of the share), the last window may be cut (period /
	 * span); 0.5% for the clock reads between blocks. */
	edge = at.edges / PERIOD;
	tol = edge + PERIOD / at.span + 0.005;
	near("the load's own account: busy half the time", at.busy_s / at.span, 0.5, tol);
	/* Its CPU time: the same, plus 1% for the kernel's work to wake and
	 * put it to sleep, which its CPU time includes and its account does
	 * not. */
	if (cpu != NULL)
		skip_tap(cpu);
	else
		near("its CPU time (CLOCK_THREAD_CPUTIME_ID): half the time", at.cpu_s / at.span,
		    0.5, tol + 0.01);
	/* The kernel's busy share: the load's half, whatever else runs (in
	 * its windows either it or other work runs: never idle), less the
	 * edges and two ticks of /proc/stat (1/HZ s each over LOAD_S). */
	ticks = 2.0 / ((double)procstat_hz() * LOAD_S);
	/* Where other work (or the hypervisor, steal: /proc/stat counts
	 * neither busy nor idle) took the load's time, as the CPU-time check
	 * found, the windows' busy share says nothing of the load either. */
	if (cpu != NULL)
		skip_tap(cpu);
	else
		/* (time the hypervisor took from the load's windows, steal, is
		 * in neither the busy nor the idle columns: added back) */
		tap(at.os_busy + at.os_steal >= 0.5 - tol - ticks,
		    "/proc/stat: the load's windows count as busy (steal added back)",
		    "%.6f + steal %.6f < 0.5 - %.6f", at.os_busy, at.os_steal, tol + ticks);
	/* ... and idle in the rest: in the least busy half second, which
	 * other work touched least, no more than the load's half and the
	 * edges, two ticks over BLOCK_S and what other work took before and
	 * after. Judged only on a quiet CPU (o at most 5% before and after):
	 * other work comes in bursts that samples around the load miss. */
	if (os != NULL)
		skip_tap(os);
	else
		tap(at.os_min <= 0.5 + tol + 2.0 / ((double)procstat_hz() * BLOCK_S) + 0.01 +
		    fmax(at.o0, at.o1), "/proc/stat: idle in the load's sleeping half",
		    "the least busy half second was %.4f", at.os_min);
}

int
main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%d\n", 4 + HALF_TESTS);
	test_loop();
	test_stop_prompt();
	test_moved(check_case_find("t0"), "moved off its CPU while busy: says so, its loop stops");
	test_moved(&half_alone, "moved off its CPU in its windows: says so, its loop stops");
	test_half_busy();
	return tap_failed > 0;
}
