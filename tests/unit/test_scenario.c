/* test_scenario.c: built-in scenarios and the scenario file parser. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "machine/machine.h"
#include "sim/scenario.h"
#include "sim/vpmu.h"

#define SEC 2100000000ull       /* ticks per second at 2.1 GHz */

/* Thread 0 of every core first, then thread 1: CPU n and n + ncores share
 * core n, as Linux numbers Intel servers. */
static void
hand_machine(struct machine *m, unsigned npkg, unsigned cpp, unsigned smt)
{
	struct topology *t = &m->topo;
	unsigned nc = npkg * cpp, c, j;

	memset(m, 0, sizeof *m);
	t->npackages = t->ndies = t->nl3 = npkg;
	t->ncores = nc;
	t->ncpus = t->max_cpu = nc * smt;
	t->max_smt = smt;
	t->cores = calloc(nc, sizeof *t->cores);
	t->cpus = calloc(t->max_cpu, sizeof *t->cpus);
	for (c = 0; c < nc; c++) {
		t->cores[c].package = c / cpp;
		t->cores[c].core_id = c % cpp;
		t->cores[c].index = c;
		t->cores[c].nthreads = smt;
		for (j = 0; j < smt; j++) {
			t->cores[c].cpus[j] = c + j * nc;
			t->cpus[c + j * nc] = (struct topo_cpu){ true, true, c, j, c / cpp };
		}
	}
	m->group = UARCH_SKX;
	m->id.vendor = CPU_VENDOR_INTEL;
	m->id.crystal_hz = 25000000;
	m->id.tsc_num = 168;
	m->id.tsc_den = 2;
	m->id.base_ratio = 21;
}

static void
test_simple_builtins(void **state)
{
	struct machine m;
	struct scenario sc;
	struct errmsg e;
	unsigned i;

	(void)state;
	hand_machine(&m, 1, 2, 2);       /* cores 0, 1 = CPUs {0, 2}, {1, 3} */

	assert_int_equal(scenario_builtin(&sc, "idle", &m.topo, &e), 0);
	assert_string_equal(sc.name, "idle");
	assert_int_equal(sc.max_cpu, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(sc.cpu[i].kind, ACT_IDLE);
	scenario_free(&sc);

	assert_int_equal(scenario_builtin(&sc, "busy", &m.topo, &e), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(sc.cpu[i].kind, ACT_BUSY);
	scenario_free(&sc);

	assert_int_equal(scenario_builtin(&sc, "both", &m.topo, &e), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(sc.cpu[i].kind, ACT_BUSY);
	scenario_free(&sc);

	assert_int_equal(scenario_builtin(&sc, "one-per-core", &m.topo, &e), 0);
	assert_int_equal(sc.cpu[0].kind, ACT_BUSY);
	assert_int_equal(sc.cpu[1].kind, ACT_BUSY);
	assert_int_equal(sc.cpu[2].kind, ACT_IDLE);
	assert_int_equal(sc.cpu[3].kind, ACT_IDLE);
	scenario_free(&sc);

	/* alternate: 20 ms period, each thread half of it, t1 shifted by half */
	assert_int_equal(scenario_builtin(&sc, "alternate", &m.topo, &e), 0);
	assert_int_equal(sc.cpu[0].kind, ACT_DUTY);
	assert_near(sc.cpu[0].period_s, 0.02, 1e-12);
	assert_near(sc.cpu[0].duty, 0.5, 1e-12);
	assert_near(sc.cpu[0].phase, 0.0, 1e-12);
	assert_near(sc.cpu[2].phase, 0.5, 1e-12);
	scenario_free(&sc);

	assert_int_equal(scenario_builtin(&sc, "bursts", &m.topo, &e), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(sc.cpu[i].kind, ACT_BURSTS);
		/* 3 ms on, 4.5 ms off: 3 / 7.5 = 40% active */
		assert_near(sc.cpu[i].on_s / (sc.cpu[i].on_s + sc.cpu[i].off_s), 0.4, 1e-12);
	}
	scenario_free(&sc);

	assert_int_equal(scenario_builtin(&sc, "nosuch", &m.topo, &e), -1);
	assert_non_null(strstr(e.text, "nosuch"));
	machine_free(&m);
}

/* alternate through the vpmu: period 20 ms = 42,000,000 ticks, t0 active
 * the first 21,000,000, t1 the second: over 1 s, A = B = 1.05e9, C = N = 0. */
static void
test_alternate_truth(void **state)
{
	struct machine m;
	struct scenario sc;
	struct errmsg e;
	struct vpmu *v;
	uint64_t tr[4];

	(void)state;
	hand_machine(&m, 1, 2, 2);
	assert_int_equal(scenario_resolve(&sc, "alternate", &m.topo, &e), 0);
	v = vpmu_new(&m, &sc, 1);
	vpmu_advance(v, SEC);
	vpmu_truth(v, 1, tr);
	assert_int_equal(tr[0], 0);
	assert_int_equal(tr[1], 1050000000ull);
	assert_int_equal(tr[2], 1050000000ull);
	assert_int_equal(tr[3], 0);
	vpmu_free(v);
	scenario_free(&sc);
	machine_free(&m);
}

/* demo on the demo machine's shape (2 x 18 x 2): over 4 s (two phase
 * lengths), every category is the largest share of some core, cores
 * differ, the four parts sum to the time, and clocks and IPCs stay in
 * 2.0..3.4 GHz and 0.3..2.5. */
static void
test_demo(void **state)
{
	struct machine m;
	struct scenario sc;
	struct errmsg e;
	struct vpmu *v;
	uint64_t tr[4], first[4];
	bool top[4] = { false, false, false, false }, differ = false;
	unsigned c, k, best, i;
	double gmin = 99, gmax = 0, imin = 99, imax = 0;

	(void)state;
	hand_machine(&m, 2, 18, 2);
	assert_int_equal(scenario_builtin(&sc, "demo", &m.topo, &e), 0);
	for (i = 0; i < sc.max_cpu; i++) {
		const struct activity *a = &sc.cpu[i];

		if (a->kind == ACT_IDLE)
			continue;
		if (a->ghz < gmin) gmin = a->ghz;
		if (a->ghz > gmax) gmax = a->ghz;
		if (a->ipc < imin) imin = a->ipc;
		if (a->ipc > imax) imax = a->ipc;
	}
	assert_near(gmin, 2.0, 1e-9);
	assert_near(gmax, 3.4, 1e-9);
	assert_true(imin >= 0.3 - 1e-9 && imax <= 2.5 + 1e-9);

	v = vpmu_new(&m, &sc, 1);
	vpmu_advance(v, 4 * SEC);
	for (c = 0; c < m.topo.ncores; c++) {
		vpmu_truth(v, c, tr);
		assert_int_equal(tr[0] + tr[1] + tr[2] + tr[3], 4 * SEC);
		best = 0;
		for (k = 1; k < 4; k++)
			if (tr[k] > tr[best])
				best = k;
		top[best] = true;
		if (c == 0)
			memcpy(first, tr, sizeof first);
		else if (memcmp(first, tr, sizeof tr) != 0)
			differ = true;
	}
	for (k = 0; k < 4; k++)
		assert_true(top[k]);
	assert_true(differ);
	vpmu_free(v);
	scenario_free(&sc);
	machine_free(&m);
}

/* The shipped demo machine (data/demo-skx.*, copies of the fixtures): a
 * 3.0 GHz Gold 6154 identity (CPUID 16H base 3000 MHz, 15H ratio 240/2 =
 * S 120) on the 2 x 18 x 2 Gold 6140 topology. Core 4 runs the staggered
 * pattern: period 20 ms = 60,000,000 ticks, each thread on 60% =
 * 36,000,000, thread 1 shifted by half = 30,000,000. Per period: both in
 * [0, 6e6) and [3e7, 3.6e7) = 1.2e7 (0.2); t0 alone 3.6e7 - 1.2e7 = 2.4e7
 * (0.4); t1 alone 0.4; never neither. 4 s = 200 whole periods of 1.2e10
 * ticks: A = B = 4.8e9, C = 2.4e9, N = 0, exactly. */
static void
test_demo_machine(void **state)
{
	struct machine m;
	struct scenario sc;
	struct errmsg e = { "" };
	struct vpmu *v;
	uint64_t tr[4];
	char xml[4096];

	(void)state;
	/* srcfile() returns a static buffer: keep the first path */
	snprintf(xml, sizeof xml, "%s", srcfile("data/demo-skx.xml"));
	if (machine_load(&m, xml, srcfile("data/demo-skx.cpuid"), &e) != 0)
		fail_msg("%s", e.text);
	assert_int_equal(m.topo.ncores, 36);
	assert_int_equal(m.topo.max_cpu, 72);
	assert_int_equal(scenario_resolve(&sc, "demo", &m.topo, &e), 0);
	v = vpmu_new(&m, &sc, 1);
	assert_true(vpmu_tsc_hz(v) == 3e9);
	assert_int_equal(vpmu_ref_scale(v), 120);
	vpmu_advance(v, 4 * 3000000000ull);
	vpmu_truth(v, 4, tr);
	assert_int_equal(tr[0], 0);
	assert_int_equal(tr[1], 4800000000ull);
	assert_int_equal(tr[2], 4800000000ull);
	assert_int_equal(tr[3], 2400000000ull);
	vpmu_free(v);
	scenario_free(&sc);
	machine_free(&m);
}

/* Write `text` to a temporary file; its name goes in path. */
static void
tmpfile_with(char *path, size_t n, const char *text)
{
	int fd;

	snprintf(path, n, "/tmp/test_scenario.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* A good file: default, cpus, thread-of-cores, override, units, phases. */
static void
test_good_file(void **state)
{
	static const char text[] =
	    "httop-scenario 1\n"
	    "# comment line\n"
	    "\n"
	    "default bursts on=2ms off=8ms ipc=0.5   # trailing comment\n"
	    "cpus 0-1 busy ghz=3.0 ipc=2\n"
	    "thread 1 of cores 0 duty duty=25% period=20ms phase=0.5 ghz=2.4\n"
	    "cpus 1 idle\n"
	    "cpus 1,200-300 idle\n"
	    "thread 1 of cores 1 phases len=2s ipc=1.5 busy / idle / duty duty=0.3\n";
	struct machine m;
	struct scenario sc;
	struct errmsg e = { "" };
	char path[64];
	const struct activity *a;

	(void)state;
	hand_machine(&m, 1, 2, 2);
	tmpfile_with(path, sizeof path, text);
	assert_int_equal(scenario_load(&sc, path, &m.topo, &e), 0);
	assert_int_equal(sc.cpu[0].kind, ACT_BUSY);
	assert_near(sc.cpu[0].ghz, 3.0, 1e-12);
	assert_near(sc.cpu[0].ipc, 2.0, 1e-12);
	assert_int_equal(sc.cpu[1].kind, ACT_IDLE);          /* later line wins */
	a = &sc.cpu[2];                                       /* thread 1 of core 0 */
	assert_int_equal(a->kind, ACT_DUTY);
	assert_near(a->duty, 0.25, 1e-12);
	assert_near(a->period_s, 0.02, 1e-12);
	assert_near(a->phase, 0.5, 1e-12);
	assert_near(a->ghz, 2.4, 1e-12);
	assert_near(a->ipc, 1.0, 1e-12);                      /* the default IPC */
	a = &sc.cpu[3];                                       /* thread 1 of core 1 */
	assert_int_equal(a->kind, ACT_PHASES);
	assert_near(a->phase_len_s, 2.0, 1e-12);
	assert_int_equal(a->nphases, 3);
	assert_int_equal(a->phases[0].kind, ACT_BUSY);
	assert_near(a->phases[0].ipc, 1.5, 1e-12);            /* from the phases line */
	assert_int_equal(a->phases[1].kind, ACT_IDLE);
	assert_int_equal(a->phases[2].kind, ACT_DUTY);
	assert_near(a->phases[2].duty, 0.3, 1e-12);
	scenario_free(&sc);
	unlink(path);

	/* without other lines, default covers every CPU */
	tmpfile_with(path, sizeof path, "httop-scenario 1\ndefault bursts on=2ms off=8ms\n");
	assert_int_equal(scenario_load(&sc, path, &m.topo, &e), 0);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(sc.cpu[i].kind, ACT_BURSTS);
		assert_near(sc.cpu[i].off_s, 0.008, 1e-12);
	}
	scenario_free(&sc);
	unlink(path);
	machine_free(&m);
}

/* The shipped example loads on the demo machine's shape. */
static void
test_example_file(void **state)
{
	struct machine m;
	struct scenario sc;
	struct errmsg e = { "" };

	(void)state;
	hand_machine(&m, 2, 18, 2);
	if (scenario_load(&sc, srcfile("data/scenarios/example.scn"), &m.topo, &e) != 0)
		fail_msg("%s", e.text);
	assert_string_equal(sc.name, "example.scn");
	/* thread 0 of core 0 = CPU 0: busy at 2.2 GHz, IPC 0.4 */
	assert_int_equal(sc.cpu[0].kind, ACT_BUSY);
	assert_near(sc.cpu[0].ghz, 2.2, 1e-12);
	assert_near(sc.cpu[0].ipc, 0.4, 1e-12);
	assert_int_equal(sc.cpu[36].kind, ACT_IDLE);
	assert_int_equal(sc.cpu[35].kind, ACT_BUSY);         /* overrides the idle line */
	assert_int_equal(sc.cpu[30].kind, ACT_IDLE);
	assert_int_equal(sc.cpu[20].kind, ACT_PHASES);
	assert_int_equal(sc.cpu[17].kind, ACT_BURSTS);       /* the default */
	assert_near(sc.cpu[17].on_s, 0.001, 1e-12);
	assert_near(sc.cpu[17].off_s, 0.02, 1e-12);
	scenario_free(&sc);
	/* and on a 1 x 2 x 2 machine, where most numbers are skipped */
	machine_free(&m);
	hand_machine(&m, 1, 2, 2);
	assert_int_equal(scenario_resolve(&sc, srcfile("data/scenarios/example.scn"), &m.topo, &e), 0);
	assert_int_equal(sc.cpu[0].kind, ACT_BUSY);
	scenario_free(&sc);
	machine_free(&m);
}

/* Each malformed file fails with "PATH:LINE:" and says what is wrong. */
static void
expect_error(const char *text, unsigned line, const char *what)
{
	struct machine m;
	struct scenario sc;
	struct errmsg e = { "" };
	char path[64], where[96];

	hand_machine(&m, 1, 2, 2);
	tmpfile_with(path, sizeof path, text);
	assert_int_equal(scenario_load(&sc, path, &m.topo, &e), -1);
	snprintf(where, sizeof where, "%s:%u: ", path, line);
	if (strncmp(e.text, where, strlen(where)) != 0 || strstr(e.text, what) == NULL)
		fail_msg("got '%s', expected '%s...%s'", e.text, where, what);
	unlink(path);
	machine_free(&m);
}

static void
test_bad_files(void **state)
{
	(void)state;
	expect_error("httop-scenario 1\n# ok\ncpus 0 duty dutty=0.5\n", 3, "unknown key 'dutty'");
	expect_error("httop-scenario 1\ncpus 3-1 busy\n", 2, "the range '3-1' runs backwards");
	expect_error("httop-scenario 1\ncpus x busy\n", 2, "malformed CPU list");
	expect_error("httop-scenario 1\n\n\ncpus 0 duty duty=1.5\n", 4, "duty must be");
	expect_error("httop-scenario 1\ncpus 0 sleep\n", 2, "unknown activity 'sleep'");
	expect_error("httop-scenario 2\n", 1, "version");
	expect_error("cpus 0 busy\n", 1, "first line");
	expect_error("httop-scenario 1\nthread 5 of cores 0 busy\n", 2, "thread number");
	expect_error("httop-scenario 1\nthread 0 cores 0 busy\n", 2, "thread N of cores");
	expect_error("httop-scenario 1\ncpus 0 busy ghz=0\n", 2, "ghz");
	expect_error("httop-scenario 1\ncpus 0 bursts on=3parsecs\n", 2, "bad time");
	expect_error("httop-scenario 1\ncpus 0 idle ipc=1\n", 2, "unknown key 'ipc'");
	expect_error("httop-scenario 1\ncpus 0 busy extra\n", 2, "unexpected 'extra'");
	expect_error("httop-scenario 1\ncpus 0 phases busy / phases idle\n", 2, "nested");
	expect_error("httop-scenario 1\ncpus 0 phases busy / idle / busy / idle / busy\n", 2,
	    "more than 4 phases");
	expect_error("httop-scenario 1\ncpus 0\n", 2, "missing activity");
	expect_error("httop-scenario 1\nprocessors 0 busy\n", 2, "unknown line start");
	expect_error("httop-scenario 1\ncapid6\n", 2, "'capid6' takes one word");
	expect_error("httop-scenario 1\ncapid6 0xff\ncapid6 0xff\n", 3, "second 'capid6'");
	expect_error("httop-scenario 1\ncapid6 0x1,zz\n", 2, "capid6: '0x1,zz' is not a list");
	expect_error("httop-scenario 1\ncapid6 0xf0000000\n", 2, "enables no tile");
	/* a control byte in a bad word is quoted escaped */
	expect_error("httop-scenario 1\ncpus 0 busy \033[2J\n", 2, "unexpected '\\x1b[2J'");
}

/* A capid6 line: the simulated machine's CAPID6 per package, kept in the
 * scenario (the sim source gives it to the machine for the die grid);
 * bits 31:28 of the register as setpci prints it are dropped. */
static void
test_capid6_line(void **state)
{
	struct machine m;
	struct scenario sc;
	struct errmsg e = { "" };
	char path[64];

	(void)state;
	hand_machine(&m, 2, 2, 2);
	tmpfile_with(path, sizeof path, "httop-scenario 1\ncapid6 0x0adb56dd,f76dabb6\n"
	    "default busy\n");
	if (scenario_load(&sc, path, &m.topo, &e) != 0)
		fail_msg("%s", e.text);
	assert_int_equal(sc.capid6.n, 2);
	assert_int_equal(sc.capid6.v[0], 0x0adb56dd);
	assert_int_equal(sc.capid6.v[1], 0x076dabb6);
	assert_int_equal(sc.capid6.origin, CAPID6_FROM_SCENARIO);
	assert_int_equal(sc.cpu[0].kind, ACT_BUSY);
	scenario_free(&sc);
	unlink(path);
	/* the built-ins give none */
	assert_int_equal(scenario_builtin(&sc, "busy", &m.topo, &e), 0);
	assert_int_equal(sc.capid6.n, 0);
	scenario_free(&sc);
	machine_free(&m);
}

static void
test_missing_file(void **state)
{
	struct machine m;
	struct scenario sc;
	struct errmsg e = { "" };

	(void)state;
	hand_machine(&m, 1, 2, 2);
	assert_int_equal(scenario_resolve(&sc, "/nonexistent/x.scn", &m.topo, &e), -1);
	assert_non_null(strstr(e.text, "/nonexistent/x.scn"));
	assert_non_null(strstr(e.text, "built-in"));
	machine_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple_builtins),
		cmocka_unit_test(test_alternate_truth),
		cmocka_unit_test(test_demo),
		cmocka_unit_test(test_demo_machine),
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_example_file),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_capid6_line),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
