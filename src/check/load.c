/* load.c: the check's load threads (load.h).
 *
 * A thread sleeps until its window with clock_nanosleep(TIMER_ABSTIME) on
 * CLOCK_MONOTONIC, so its CPU halts in between, and spins in the loop
 * until the window ends. Those sleeps are the load's idle time, not waits
 * for an event: the program's one wait stays evloop_wait() in the calling
 * thread, which gets every ending signal (the threads block them) and stops
 * the load with load_stop(), a period and a block later at most.
 *
 * The loop (x86-64): eight 64-bit multiplies of one register by another,
 * each taking the previous product, and LOOP to go round:
 *
 *     1:  imul %m, %x      (8 times)
 *         loop 1b          (rcx -= 1, jump while it is not 0)
 *
 * That is 9 instructions an iteration (LOOP is one instruction and fuses
 * with nothing, unlike a dec/jnz pair that some counters may count as one).
 * A 64-bit IMUL has a latency of at least 3 cycles on every x86-64 core
 * httop knows (3 on Intel since Nehalem and on AMD Zen, more on Xeon Phi),
 * and each multiply needs the product before it, across iterations too, so
 * an iteration takes at least 24 cycles however wide the core is or what
 * its sibling runs (one multiply every 3 cycles per thread leaves the
 * multiplier free for the other). Hence: instructions retired >= 9 x
 * iterations, core cycles >= 24 x iterations, CPI >= 24 / 9.
 *
 * Each thread records the bursts it ran (load.h, struct load_burst): its
 * first clock reading after it woke and its last before it slept, and
 * sched_getcpu() at the start. The record is an array sized at the start
 * (two bursts a period over the span asked for), written by the thread
 * alone and read only after the join, so it needs no lock and no
 * allocation while the load runs; a burst that does not fit marks the
 * record not whole (the check then uses the schedule). */
#include "config.h"
#include "check/load.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

bool
load_loop_known(void)
{
#if defined(__x86_64__)
	return true;
#else
	return false;
#endif
}

uint64_t
load_loop(uint64_t x, uint64_t n)
{
#if defined(__x86_64__)
	uint64_t m = 0x9E3779B97F4A7C15ull;

	if (n == 0)
		return x;
	__asm__ volatile(
	    "1:\n\t"
	    "imulq %[m], %[x]\n\t"
	    "imulq %[m], %[x]\n\t"
	    "imulq %[m], %[x]\n\t"
	    "imulq %[m], %[x]\n\t"
	    "imulq %[m], %[x]\n\t"
	    "imulq %[m], %[x]\n\t"
	    "imulq %[m], %[x]\n\t"
	    "imulq %[m], %[x]\n\t"
	    "loop 1b\n\t"
	    : [x] "+r"(x), [n] "+c"(n)
	    : [m] "r"(m)
	    : "cc");
	return x;
#else
	/* Elsewhere a chain of multiplies too, but the compiler chooses the
	 * instructions: the check then does not use their count. */
	volatile uint64_t m = 0x9E3779B97F4A7C15ull;

	for (; n > 0; n--)
		x *= m;
	return x;
#endif
}

static void
sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static uint64_t
ns(double s)
{
	return s > 0.0 ? (uint64_t)llround(s * 1e9) : 0;
}

static void
bump(_Atomic uint64_t *a, uint64_t by)
{
	/* One writer: a relaxed add is enough for the readers' snapshots. */
	atomic_fetch_add_explicit(a, by, memory_order_relaxed);
}

static bool
stopping(const struct load *l)
{
	return atomic_load_explicit(&l->stop, memory_order_relaxed);
}

/* Is the thread off its CPU (load.h, `moved`)? Said once, then it stops.
 * sched_getcpu() reads the CPU the kernel keeps for the thread (rseq or
 * the vDSO): a few instructions, within the loop's allowance. */
static bool
moved(struct load_thread *t)
{
	int cpu;

	if (atomic_load_explicit(&t->moved, memory_order_relaxed))
		return true;
	if ((cpu = sched_getcpu()) < 0 || (unsigned)cpu == t->cpu)
		return false;
	atomic_store(&t->moved, true);
	return true;
}

/* Spin in the loop from `now` until `until`, the stop, or a move off the
 * CPU; returns the time it stopped. */
static double
spin(struct load_thread *t, double now, double until, uint64_t *x)
{
	double t2;

	while (now < until && !stopping(t->owner) && !moved(t)) {
		*x = load_loop(*x, LOAD_BLOCK);
		t2 = clock_mono();
		bump(&t->iterations, LOAD_BLOCK);
		bump(&t->busy_ns, ns(t2 - now));
		now = t2;
	}
	return now;
}

/* Keep the burst [start, end) that began on `cpu` (of no length where
 * the thread woke after its window: the source sees the wake-up). */
static void
record(struct load_thread *t, double start, double end, int cpu)
{
	if (end < start)
		return;
	if (t->nbursts >= t->capbursts) {
		t->full = true;
		return;
	}
	t->bursts[t->nbursts++] = (struct load_burst){ start, end, cpu };
}

static void *
thread_main(void *arg)
{
	struct load_thread *t = arg;
	struct load *l = t->owner;
	double P = l->period, now, ws, we, t0;
	uint64_t x = 1, k;
	struct timespec cpu;
	int on;

	/* The default timer slack (50 us) would move every window's start. */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	/* Named, so that top, ps and the tests tell it from httop's own. */
	(void)prctl(PR_SET_NAME, (unsigned long)"httop-load", 0UL, 0UL, 0UL);
	if (check_window_len(&t->w) >= 1.0) {
		sleep_until(l->epoch);
		on = sched_getcpu();
		t0 = clock_mono();
		record(t, t0, spin(t, t0, INFINITY, &x), on);
	}
	for (k = 0; check_window_len(&t->w) < 1.0 && !stopping(l) && !moved(t); k++) {
		ws = l->epoch + ((double)k + t->w.start) * P;
		we = l->epoch + ((double)k + t->w.end) * P;
		now = clock_mono();
		if (now < ws) {
			sleep_until(ws);
			now = clock_mono();
		}
		if (stopping(l) || moved(t))
			break;
		/* A window missed altogether counts as late by its length. */
		bump(&t->windows, 1);
		bump(&t->late_ns, ns((now < we ? now : we) - ws));
		on = sched_getcpu();
		t0 = now;
		now = spin(t, now, we, &x);
		record(t, t0, now, on);
		if (!stopping(l) && !moved(t))
			bump(&t->over_ns, ns(now - we));
	}
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
		atomic_store(&t->cpu_ns, (uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec);
	t->sink = x;   /* the loop's result, kept so it is computed */
	return NULL;
}

static int
start_one(struct load *l, unsigned i, struct errmsg *e)
{
	struct load_thread *t = &l->th[i];
	pthread_attr_t attr;
	cpu_set_t set;
	sigset_t block, old;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (pthread_attr_init(&attr) != 0)
		return errmsg_set(e, _("cannot start the check's load: out of resources"));
	rc = pthread_attr_setaffinity_np(&attr, sizeof set, &set);
	/* The threads never take an ending signal: the waiting thread must. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigaddset(&block, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (rc == 0)
		rc = pthread_create(&t->tid, &attr, thread_main, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return errmsg_set(e, _("cannot run the check's load on CPU %u: %s; the check needs "
		    "that CPU in httop's CPU set (see taskset(1) and the job's cgroup)"), t->cpu,
		    strerror(rc));
	t->started = true;
	return 0;
}

int
load_start(struct load *l, const struct check_case *c, const unsigned *cpus, unsigned n,
    double period, double delay, double span, struct errmsg *e)
{
	/* A burst a period at most, or two where the kernel cut one (a
	 * thread moved stops); a few more for the ends. */
	size_t cap = period > 0.0 && span > 0.0 ? (size_t)ceil(2.0 * span / period) + 16 : 16;
	unsigned i;

	memset(l, 0, sizeof *l);
	atomic_init(&l->stop, false);
	l->period = period;
	/* Periods start on multiples of the period: both threads agree. */
	l->epoch = ceil((clock_mono() + delay) / period) * period;
	l->n = n > 2 ? 2 : n;
	for (i = 0; i < l->n; i++) {
		struct load_thread *t = &l->th[i];

		t->owner = l;
		t->w = c->w[i];
		t->cpu = cpus[i];
		atomic_init(&t->iterations, 0);
		atomic_init(&t->busy_ns, 0);
		atomic_init(&t->windows, 0);
		atomic_init(&t->late_ns, 0);
		atomic_init(&t->over_ns, 0);
		atomic_init(&t->cpu_ns, 0);
		atomic_init(&t->moved, false);
		if (check_window_len(&t->w) <= 0.0)
			continue;
		t->bursts = xcalloc(cap, sizeof *t->bursts);
		t->capbursts = cap;
		if (start_one(l, i, e) != 0) {
			load_stop(l);
			return -1;
		}
	}
	return 0;
}

void
load_counts(struct load *l, unsigned i, struct load_counts *out)
{
	struct load_thread *t = &l->th[i];

	memset(out, 0, sizeof *out);
	if (i >= l->n)
		return;
	out->iterations = atomic_load_explicit(&t->iterations, memory_order_relaxed);
	out->busy_ns = atomic_load_explicit(&t->busy_ns, memory_order_relaxed);
	out->windows = atomic_load_explicit(&t->windows, memory_order_relaxed);
	out->late_ns = atomic_load_explicit(&t->late_ns, memory_order_relaxed);
	out->over_ns = atomic_load_explicit(&t->over_ns, memory_order_relaxed);
	out->cpu_ns = atomic_load(&t->cpu_ns);
	out->moved = atomic_load(&t->moved);
}

void
load_stop(struct load *l)
{
	unsigned i;

	atomic_store(&l->stop, true);
	for (i = 0; i < l->n; i++) {
		if (l->th[i].started)
			pthread_join(l->th[i].tid, NULL);
		l->th[i].started = false;
	}
}

const struct load_burst *
load_bursts(const struct load *l, unsigned i, size_t *n, bool *whole)
{
	*n = 0;
	*whole = true;
	if (i >= l->n || l->th[i].bursts == NULL)
		return NULL;
	*n = l->th[i].nbursts;
	*whole = !l->th[i].full;
	return l->th[i].bursts;
}

void
load_free(struct load *l)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		free(l->th[i].bursts);
		l->th[i].bursts = NULL;
		l->th[i].nbursts = l->th[i].capbursts = 0;
	}
}
