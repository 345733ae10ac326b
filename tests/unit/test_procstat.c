/* test_procstat.c: the procstat source (src/source/procstat/procstat_source.c)
 * over a /proc/stat written by the test, and the figures the metrics make of
 * its plan.
 *
 * Machine: topology_synthetic(1, 2, 2): cores {0, 2} and {1, 3}. USER_HZ
 * 100: a tick is 10 ms = 10,000 us, the plan's scale (both counts are in
 * microseconds).
 *
 * A cpu line: user nice system idle iowait irq softirq steal guest
 * guest_nice. Busy = user + nice + system + irq + softirq; guest is in user
 * already, steal is not this CPU running. So "cpu0 100 2 30 900 40 5 6 70
 * 11 0" is 100 + 2 + 30 + 5 + 6 = 143 ticks = 1,430,000 us. */
#include "config.h"

#include "unit/testutil.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "source/sources.h"

#define TICK 10000ull

static char path[64];

static void
write_stat(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int
setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof path, "/tmp/httop-procstat.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void
machine4(struct machine *m)
{
	memset(m, 0, sizeof *m);
	topology_synthetic(&m->topo, 1, 2, 2);
}

#define HEAD "cpu  400 8 120 3600 160 20 24 280 44 0\n"
#define TAIL "intr 12345 1 2 3\nctxt 99\nbtime 1700000000\n"

static double fake_now;

static double
fake_clock(void)
{
	return fake_now;
}

/* Busy per CPU: the time less the growth of idle + iowait + steal (the
 * fields idle 4th, iowait 5th, steal 8th), from 0 at the first read; TSC
 * the same on every CPU; a CPU without a line is offline, and back once
 * its line is, its count going on from where it was. Reads at 0.5, 1.5,
 * 2.5 and 3.5 s after open, USER_HZ 100 (a tick: 10,000 us):
 *   cpu0: idle+iowait+steal 1010 -> 1060 ticks in 1 s: busy 0.5 s;
 *         then -> 1160: idle the whole second, busy stays 0.5 s;
 *   cpu1: idle all the time: 0;
 *   cpu2: gone in the second read; back in the third at 1000, then 1060:
 *         busy 0.4 s of the fourth read's second;
 *   cpu3: idle +101 ticks in 100 (the file's rounding): would go back to
 *         -1 tick, keeps 0; then +98: 2.5 s - 2.03 s - 0.47 s = 1 tick. */
static void
test_read(void **state)
{
	struct machine m;
	struct plan p;
	struct errmsg e;
	struct sample s;
	struct source *src;

	(void)state;
	machine4(&m);
	write_stat(HEAD
	    "cpu0 100 2 30 900 40 5 6 70 11 0\n"
	    "cpu1 0 0 0 1000 0 0 0 0 0 0\n"
	    "cpu2 50 0 0 950 0 0 0 0 0 0\n"
	    "cpu3 1 1 1 1 1 1 1 1 1 1\n" TAIL);
	src = procstat_source_new(&m, &p, path, 100, &e);
	assert_non_null(src);
	fake_now = 10.0;
	procstat_source_set_clock(src, fake_clock);
	assert_string_equal(src->name, "procstat");
	assert_int_equal(p.nslots, 3);
	assert_int_equal(p.slots[0].kind, SLOT_TSC);
	assert_int_equal(p.slots[1].kind, SLOT_REF);
	assert_int_equal(p.slots[2].kind, SLOT_STEAL);
	assert_int_equal(p.split, SPLIT_BOUND);
	assert_int_equal(p.scale, TICK);
	assert_int_equal(p.nwrites, 0);
	assert_non_null(plan_meaning(&p));
	assert_int_equal(source_program(src, &p, false, &e), 0);
	sample_init(&s, 4, p.nslots, m.topo.ncores, false);
	fake_now = 10.5;
	assert_int_equal(source_read(src, &s, &e), 0);
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		assert_int_equal(s.state[cpu], CPU_READ_OK);
		assert_int_equal(sample_row(&s, cpu)[0], 500000);
		assert_int_equal(sample_row(&s, cpu)[1], 0);
	}

	/* CPU 2 goes offline: its line is gone. */
	write_stat(HEAD
	    "cpu0 200 2 30 950 40 5 6 70 11 0\n"
	    "cpu1 0 0 0 1100 0 0 0 0 0 0\n"
	    "cpu3 1 1 1 102 1 1 1 1 1 1\n" TAIL);
	fake_now = 11.5;
	assert_int_equal(source_read(src, &s, &e), 0);
	assert_int_equal(s.state[2], CPU_OFFLINE);
	assert_int_equal(s.state[0], CPU_READ_OK);
	assert_int_equal(sample_row(&s, 0)[0], 1500000);
	assert_int_equal(sample_row(&s, 0)[1], 50 * TICK);
	assert_int_equal(sample_row(&s, 1)[1], 0);
	assert_int_equal(sample_row(&s, 3)[1], 0);

	/* Back: its count goes on from where it was. */
	write_stat(HEAD
	    "cpu0 200 2 30 1050 40 5 6 70 11 0\n"
	    "cpu1 0 0 0 1200 0 0 0 0 0 0\n"
	    "cpu2 60 0 0 1000 0 0 0 0 0 0\n"
	    "cpu3 1 1 1 200 1 1 1 1 1 1\n" TAIL);
	fake_now = 12.5;
	assert_int_equal(source_read(src, &s, &e), 0);
	assert_int_equal(s.state[2], CPU_READ_OK);
	assert_int_equal(sample_row(&s, 0)[1], 50 * TICK);
	assert_int_equal(sample_row(&s, 2)[1], 0);
	assert_int_equal(sample_row(&s, 3)[1], 1 * TICK);

	write_stat(HEAD
	    "cpu0 200 2 30 1150 40 5 6 70 11 0\n"
	    "cpu1 0 0 0 1300 0 0 0 0 0 0\n"
	    "cpu2 100 0 0 1060 0 0 0 0 0 0\n"
	    "cpu3 1 1 1 300 1 1 1 1 1 1\n" TAIL);
	fake_now = 13.5;
	assert_int_equal(source_read(src, &s, &e), 0);
	assert_int_equal(sample_row(&s, 2)[0], 3500000);
	assert_int_equal(sample_row(&s, 2)[1], 40 * TICK);
	assert_int_equal(sample_row(&s, 3)[1], 1 * TICK);

	/* CPU 0 went offline and came back between two reads: its line is
	 * there both times, but no column grew in the second that passed
	 * (100 ticks unaccounted, over a quarter of the interval): this read is
	 * offline, and the time away is not busy. CPU 2 busy 0.6 s by its
	 * busy columns, idle 0.4 s: all accounted for, not away. */
	write_stat(HEAD
	    "cpu0 200 2 30 1150 40 5 6 70 11 0\n"
	    "cpu1 0 0 0 1400 0 0 0 0 0 0\n"
	    "cpu2 160 0 0 1100 0 0 0 0 0 0\n"
	    "cpu3 1 1 1 400 1 1 1 1 1 1\n" TAIL);
	fake_now = 14.5;
	assert_int_equal(source_read(src, &s, &e), 0);
	assert_int_equal(s.state[0], CPU_OFFLINE);
	assert_int_equal(s.state[2], CPU_READ_OK);
	assert_int_equal(sample_row(&s, 2)[1], 100 * TICK);
	write_stat(HEAD
	    "cpu0 200 2 30 1250 40 5 6 70 11 0\n"
	    "cpu1 0 0 0 1500 0 0 0 0 0 0\n"
	    "cpu2 160 0 0 1200 0 0 0 0 0 0\n"
	    "cpu3 1 1 1 500 1 1 1 1 1 1\n" TAIL);
	fake_now = 15.5;
	assert_int_equal(source_read(src, &s, &e), 0);
	assert_int_equal(s.state[0], CPU_READ_OK);
	assert_int_equal(sample_row(&s, 0)[1], 50 * TICK);
	sample_free(&s);
	source_close(src);
	machine_free(&m);
}

/* Steal time: each CPU's steal column (8th), in microseconds in slot
 * STEAL, and the thread's steal share = its growth / the interval. Two
 * reads 1 s apart (100 ticks of 10 ms), fields user nice system idle
 * iowait irq softirq steal:
 *   cpu0: user 100 -> 140, idle 800 -> 830, steal 30 -> 60: steal
 *         +30 ticks = 0.3 s: 0.3 of the interval; busy = 100 - (30 + 30)
 *         = 40 ticks: util 0.4 (0.4 + 0.3 steal + 0.3 idle = 1);
 *   cpu1: idle +100, steal 0 -> 0: steal 0, util 0;
 *   cpu2: user 200 -> 248, idle 500 -> 540, steal 100 -> 112: steal
 *         0.12, busy 100 - 52 = 48 ticks: util 0.48;
 *   cpu3: idle 900 -> 999, steal 7 -> 8: steal 0.01, busy 0.
 * Slot STEAL of the first read: 30, 0, 100, 7 ticks = 300,000, 0,
 * 1,000,000 and 70,000 us. A plan without the slot (an older httop's
 * procstat trace, or any source but procstat): steal absent, no-steal. */
static void
test_steal(void **state)
{
	struct machine m;
	struct plan p, old;
	struct errmsg e;
	struct sample a, b;
	struct source *src;
	struct metrics_ctx mc;
	struct interval iv;
	static const double steal[4] = { 0.3, 0.0, 0.12, 0.01 };
	static const double util[4] = { 0.4, 0.0, 0.48, 0.0 };

	(void)state;
	machine4(&m);
	write_stat(HEAD
	    "cpu0 100 0 50 800 0 0 0 30 0 0\n"
	    "cpu1 0 0 0 1000 0 0 0 0 0 0\n"
	    "cpu2 200 0 0 500 0 0 0 100 0 0\n"
	    "cpu3 50 0 0 900 0 0 0 7 0 0\n" TAIL);
	src = procstat_source_new(&m, &p, path, 100, &e);
	assert_non_null(src);
	fake_now = 10.0;
	procstat_source_set_clock(src, fake_clock);
	assert_int_equal(source_program(src, &p, false, &e), 0);
	sample_init(&a, 4, p.nslots, m.topo.ncores, false);
	sample_init(&b, 4, p.nslots, m.topo.ncores, false);
	fake_now = 10.5;
	assert_int_equal(source_read(src, &a, &e), 0);
	assert_int_equal(sample_row(&a, 0)[2], 300000);
	assert_int_equal(sample_row(&a, 1)[2], 0);
	assert_int_equal(sample_row(&a, 2)[2], 1000000);
	assert_int_equal(sample_row(&a, 3)[2], 70000);
	write_stat(HEAD
	    "cpu0 140 0 50 830 0 0 0 60 0 0\n"
	    "cpu1 0 0 0 1100 0 0 0 0 0 0\n"
	    "cpu2 248 0 0 540 0 0 0 112 0 0\n"
	    "cpu3 50 0 0 999 0 0 0 8 0 0\n" TAIL);
	fake_now = 11.5;
	assert_int_equal(source_read(src, &b, &e), 0);
	metrics_ctx_init(&mc, &m, &p);
	interval_init(&iv, &m);
	metrics_compute(&mc, &a, &b, &iv);
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		assert_int_equal(iv.threads[cpu].steal.kind, V_EXACT);
		assert_near(iv.threads[cpu].steal.v, steal[cpu], 1e-12);
		assert_near(iv.threads[cpu].util.v, util[cpu], 1e-12);
	}
	/* without the slot */
	old = p;
	old.nslots = 2;
	plan_link(&old);
	metrics_ctx_init(&mc, &m, &old);
	metrics_compute(&mc, &a, &b, &iv);
	assert_int_equal(iv.threads[0].steal.kind, V_NONE);
	assert_int_equal(iv.threads[0].steal.why, R_NO_STEAL);
	assert_near(iv.threads[0].util.v, 0.4, 1e-12);
	interval_free(&iv);
	sample_free(&a);
	sample_free(&b);
	source_close(src);
	machine_free(&m);
}

/* More CPUs than the buffer was sized for (the cpu lines outgrow it):
 * read whole all the same. A file with no cpu line is refused. */
static void
test_long_file(void **state)
{
	struct machine m;
	struct plan p;
	struct errmsg e;
	struct sample s;
	struct source *src;
	char *text, *q;
	size_t i, cap = 1 << 20;

	(void)state;
	machine4(&m);
	text = malloc(cap);
	assert_non_null(text);
	q = text + sprintf(text, HEAD);
	/* A long first line pushes the cpu lines past 4096 + 4 x 256 bytes. */
	for (i = 0; i < 700; i++)
		q += sprintf(q, "cpu%zu 0 0 0 0 0 0 0 0 0 0\n", 1000 + i);
	q += sprintf(q, "cpu3 7 0 0 1 0 0 0 0 0 0\n");
	sprintf(q, TAIL);
	write_stat(text);
	src = procstat_source_new(&m, &p, path, 100, &e);
	assert_non_null(src);
	sample_init(&s, 4, p.nslots, m.topo.ncores, false);
	assert_int_equal(source_program(src, &p, false, &e), 0);
	assert_int_equal(source_read(src, &s, &e), 0);
	assert_int_equal(s.state[3], CPU_READ_OK);
	/* Read, and found: its count starts at 0. */
	assert_int_equal(sample_row(&s, 3)[1], 0);
	assert_int_equal(s.state[0], CPU_OFFLINE);
	sample_free(&s);
	source_close(src);

	write_stat("intr 1 2 3\n");
	assert_null(procstat_source_new(&m, &p, path, 100, &e));
	assert_non_null(strstr(e.text, "has no line for any CPU"));
	free(text);
	machine_free(&m);
}

/* Two samples by hand, 1 s apart (1e6 us); the metrics of the plan:
 * core {0, 2}: CPU 0 busy 50 ticks (u0 = 0.5), CPU 2 30 ticks (u1 = 0.3):
 *   both in [max(0, 0.5 + 0.3 - 1), min(0.5, 0.3)] = [0, 0.3],
 *   t0 only = u0 - both in [0.2, 0.5], t1 only = u1 - both in [0, 0.3],
 *   neither = 1 - u0 - u1 + both in [0.2, 0.5]; util in [0.5, 0.8].
 * core {1, 3}: CPU 1 busy 101 ticks in 100 (a tick more than the
 *   interval, as the tick accounting gives): within the tolerance of two
 *   ticks, so valid, u = 1 (clamped); CPU 3 idle: t0 only exactly 1.
 * CPI and GHz absent: not-counted. */
static void
test_figures(void **state)
{
	struct machine m;
	struct plan p;
	struct metrics_ctx mc;
	struct sample a, b;
	struct interval iv;
	const struct core_fig *c0, *c1;

	(void)state;
	machine4(&m);
	procstat_plan(&p, &m, 100);
	sample_init(&a, 4, p.nslots, m.topo.ncores, false);
	sample_init(&b, 4, p.nslots, m.topo.ncores, false);
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		sample_row(&a, cpu)[0] = 5000000ull;
		sample_row(&b, cpu)[0] = 6000000ull;
		sample_row(&a, cpu)[1] = 1000 * TICK;
		a.state[cpu] = b.state[cpu] = CPU_READ_OK;
	}
	a.time = 5.0;
	b.time = 6.0;
	sample_row(&b, 0)[1] = 1050 * TICK;
	sample_row(&b, 2)[1] = 1030 * TICK;
	sample_row(&b, 1)[1] = 1101 * TICK;
	sample_row(&b, 3)[1] = 1000 * TICK;
	metrics_ctx_init(&mc, &m, &p);
	interval_init(&iv, &m);
	metrics_compute(&mc, &a, &b, &iv);
	assert_true(iv.valid);
	c0 = &iv.cores[0];
	assert_int_equal(c0->split, SPLIT_BOUND);
	assert_int_equal(c0->both.kind, V_BOUND);
	assert_near(c0->both.lo, 0.0, 1e-9);
	assert_near(c0->both.hi, 0.3, 1e-9);
	assert_near(c0->t0_only.lo, 0.2, 1e-9);
	assert_near(c0->t0_only.hi, 0.5, 1e-9);
	assert_near(c0->t1_only.lo, 0.0, 1e-9);
	assert_near(c0->t1_only.hi, 0.3, 1e-9);
	assert_near(c0->neither.lo, 0.2, 1e-9);
	assert_near(c0->neither.hi, 0.5, 1e-9);
	assert_int_equal(c0->util.kind, V_BOUND);
	assert_near(c0->util.lo, 0.5, 1e-9);
	assert_near(c0->util.hi, 0.8, 1e-9);
	assert_int_equal(c0->cpi.kind, V_NONE);
	assert_int_equal(c0->cpi.why, R_NOT_COUNTED);
	assert_int_equal(c0->ghz.why, R_NOT_COUNTED);
	assert_near(iv.threads[0].util.v, 0.5, 1e-9);
	assert_int_equal(iv.threads[0].cpi.why, R_NOT_COUNTED);
	c1 = &iv.cores[1];
	assert_int_equal(c1->reason, R_NONE);
	assert_near(iv.threads[1].util.v, 1.0, 1e-9);
	assert_int_equal(c1->t0_only.kind, V_EXACT);
	assert_near(c1->t0_only.v, 1.0, 1e-9);
	assert_string_equal(metrics_reason_code(R_NOT_COUNTED), "not-counted");

	/* Three ticks more than the interval is past the tolerance. */
	sample_row(&b, 1)[1] = 1103 * TICK;
	metrics_compute(&mc, &a, &b, &iv);
	assert_false(iv.valid);
	interval_free(&iv);
	sample_free(&a);
	sample_free(&b);
	machine_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_steal, setup, teardown),
		cmocka_unit_test(test_figures),
	};

	return cmocka_run_group_tests_name("procstat", tests, NULL, NULL);
}
