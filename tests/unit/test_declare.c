/* test_declare.c: machine_declare_here(), --topology FILE as a
 * declaration of which of this machine's CPUs share a core (the sched and
 * procstat sources). The file's CPUs placed in a core must be exactly the
 * online CPUs given; the first that differs is named with both lists.
 *
 * The topology is topology_synthetic(1, 2, 2): one package of two cores
 * of two threads, numbered as Linux does, thread 0 of every core first:
 * core 0 = CPUs 0,2 and core 1 = CPUs 1,3, so the file's CPUs are 0-3. */
#include "config.h"

#include "unit/testutil.h"

#include <string.h>

#include "machine/machine.h"

static void
synthetic(struct machine *m)
{
	memset(m, 0, sizeof *m);
	topology_synthetic(&m->topo, 1, 2, 2);
}

static void
online(struct cpulist *l, const char *text)
{
	struct errmsg e;

	assert_int_equal(cpulist_parse(text, l, &e), 0);
}

/* The same CPUs: accepted, the identity from the dump, m->declared set. */
static void
test_same_cpus(void **state)
{
	struct machine m;
	struct cpulist l;
	struct errmsg e;

	(void)state;
	synthetic(&m);
	online(&l, "0-3");
	assert_int_equal(machine_declare_here(&m, &l, NULL, "four.xml",
	    fixture("cpuid/skx-6154-2s-18c-ht.cpuid.txt"), &e), 0);
	assert_true(m.declared);
	/* The dump was loaded by machine_load in a run; here the identity
	 * is left as it was (zeroed), not replaced by the live CPU's. */
	assert_int_equal(m.topo.cores[0].cpus[1], 2);
	cpulist_free(&l);
	machine_free(&m);
}

/* This machine has CPUs 0-5 online: CPU 4 is missing from the file. */
static void
test_cpu_missing_from_file(void **state)
{
	struct machine m;
	struct cpulist l;
	struct errmsg e;

	(void)state;
	synthetic(&m);
	online(&l, "0-5");
	assert_int_equal(machine_declare_here(&m, &l, NULL, "four.xml", NULL, &e), -1);
	assert_false(m.declared);
	assert_non_null(strstr(e.text, "--topology four.xml: CPU 4 is online on this machine but "
	    "not in the file"));
	assert_non_null(strstr(e.text, "its CPUs (0-3) must be this machine's online CPUs (0-5)"));
	cpulist_free(&l);
	machine_free(&m);
}

/* Only CPUs 0 and 1 online here (a 2-CPU VM): CPU 2 of the file does not
 * exist here. */
static void
test_cpu_not_here(void **state)
{
	struct machine m;
	struct cpulist l;
	struct errmsg e;

	(void)state;
	synthetic(&m);
	online(&l, "0-1");
	assert_int_equal(machine_declare_here(&m, &l, NULL, "four.xml", NULL, &e), -1);
	assert_non_null(strstr(e.text, "--topology four.xml: CPU 2 of the file is not an online "
	    "CPU of this machine"));
	assert_non_null(strstr(e.text, "(0-3)"));
	assert_non_null(strstr(e.text, "(0-1)"));
	cpulist_free(&l);
	machine_free(&m);
}

/* A hole: CPU 1 offline here while the file has it in core 1: refused
 * unless this machine has it present (hot-unplugged). */
static void
test_offline_here(void **state)
{
	struct machine m;
	struct cpulist l, p;
	struct errmsg e;

	(void)state;
	synthetic(&m);
	online(&l, "0,2-3");
	assert_int_equal(machine_declare_here(&m, &l, NULL, "four.xml", NULL, &e), -1);
	assert_non_null(strstr(e.text, "CPU 1 of the file is not an online CPU"));
	machine_free(&m);
	/* Present here but not online either: still no CPU of this machine
	 * to read. */
	synthetic(&m);
	online(&p, "0,2-3");
	assert_int_equal(machine_declare_here(&m, &l, &p, "four.xml", NULL, &e), -1);
	assert_non_null(strstr(e.text, "CPU 1 of the file is not an online CPU"));
	cpulist_free(&p);
	machine_free(&m);
	/* Present (hot-unplugged): declared, kept in core 1, offline until
	 * it comes back; the others online. */
	synthetic(&m);
	online(&p, "0-3");
	assert_int_equal(machine_declare_here(&m, &l, &p, "four.xml",
	    fixture("cpuid/skx-6154-2s-18c-ht.cpuid.txt"), &e), 0);
	assert_true(m.declared);
	assert_false(m.topo.cpus[1].online);
	assert_true(m.topo.cpus[1].present);
	assert_int_equal(m.topo.cpus[1].core, 1);
	assert_int_equal(m.topo.cores[1].cpus[0], 1);
	assert_true(m.topo.cpus[0].online && m.topo.cpus[2].online && m.topo.cpus[3].online);
	cpulist_free(&p);
	cpulist_free(&l);
	machine_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_cpus),
		cmocka_unit_test(test_cpu_missing_from_file),
		cmocka_unit_test(test_cpu_not_here),
		cmocka_unit_test(test_offline_here),
	};

	return cmocka_run_group_tests_name("declare", tests, NULL, NULL);
}
