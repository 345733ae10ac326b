/* test_hotplug.c: the msr engine when a CPU goes offline mid-run and comes
 * back, and what it tells a batch backend (msr-safe's batch device).
 *
 * Machine: hwloc/skx-6140-2s-18c-ht.x86.xml + cpuid/skx-6154-2s-18c-ht:
 * 72 CPUs, core n = {n, n + 36}. The SKX plan reads TSC, fixed 0-2 on
 * every CPU and PMC0 on thread 0: 5 reads on CPUs 0-35, 4 on 36-71, 324 per
 * refresh, in core order with a core's threads back to back (0, 36, 1,
 * 37, ...). It writes FIXED_CTR_CTRL 0x333, PERFEVTSEL0 0x63013c (thread 0)
 * and PERF_GLOBAL_CTRL |= 0x700000001. Scenario "busy". */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "unit/testutil.h"

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "source/msr/msr_io.h"
#include "sim/scenario.h"
#include "source/sources.h"
#include "sim/sim.h"
#include "sim/vpmu.h"

#define SKX_XML   "hwloc/skx-6140-2s-18c-ht.x86.xml"
#define SKX_CPUID "cpuid/skx-6154-2s-18c-ht.cpuid.txt"

/* The vpmu io with batch hooks that record what the engine announces. */
struct batch_io {
	struct msr_io io;
	struct msr_io *inner;
	unsigned nplans, nops;
	struct msr_op first[4];
	bool has_cpu5;
};

static int
b_open(struct msr_io *io, unsigned cpu, struct errmsg *e)
{
	return ((struct batch_io *)io)->inner->open_cpu(((struct batch_io *)io)->inner, cpu, e);
}

static int
b_rd(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *v)
{
	io->nreads++;
	return ((struct batch_io *)io)->inner->rd(((struct batch_io *)io)->inner, cpu, msr, v);
}

static int
b_wr(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t v)
{
	io->nwrites++;
	return ((struct batch_io *)io)->inner->wr(((struct batch_io *)io)->inner, cpu, msr, v);
}

static void
b_close(struct msr_io *io, unsigned cpu)
{
	((struct batch_io *)io)->inner->close_cpu(((struct batch_io *)io)->inner, cpu);
}

static int
b_plan(struct msr_io *io, const struct msr_op *ops, unsigned n, struct errmsg *e)
{
	struct batch_io *b = (struct batch_io *)io;
	unsigned k;

	(void)e;
	b->nplans++;
	b->nops = n;
	memcpy(b->first, ops, (n < 4 ? n : 4) * sizeof *ops);
	b->has_cpu5 = false;
	for (k = 0; k < n; k++)
		if (ops[k].cpu == 5)
			b->has_cpu5 = true;
	return 0;
}

static int
b_fetch(struct msr_io *io)
{
	io->nbatches++;
	return 0;
}

static void
b_destroy(struct msr_io *io)
{
	struct batch_io *b = (struct batch_io *)io;

	b->inner->destroy(b->inner);
	free(b);
}

struct rig {
	struct machine m;
	struct vpmu *v;
	struct batch_io *b;
	struct source *s;
	struct plan plan;
	struct metrics_ctx mc;
	struct sample smp[2];
	unsigned newest;
	struct interval iv;
	struct errmsg e;
};

static void
rig_setup(struct rig *r)
{
	char xml[4096];
	struct scenario sc;
	struct batch_io *b;

	memset(r, 0, sizeof *r);
	snprintf(xml, sizeof xml, "%s", fixture(SKX_XML));
	if (machine_load(&r->m, xml, fixture(SKX_CPUID), &r->e) != 0)
		fail_msg("machine_load: %s", r->e.text);
	if (scenario_resolve(&sc, "busy", &r->m.topo, &r->e) != 0)
		fail_msg("scenario: %s", r->e.text);
	r->v = vpmu_new(&r->m, &sc, 1);
	scenario_free(&sc);
	b = calloc(1, sizeof *b);
	assert_non_null(b);
	b->inner = msr_io_vpmu_new(r->v);
	b->io.open_cpu = b_open;
	b->io.rd = b_rd;
	b->io.wr = b_wr;
	b->io.wr_async = b_wr;
	b->io.close_cpu = b_close;
	b->io.batch_plan = b_plan;
	b->io.batch_fetch = b_fetch;
	b->io.destroy = b_destroy;
	r->b = b;
	r->s = msr_source_new(&r->m, &b->io, "msr", &r->e);
	if (r->s == NULL)
		fail_msg("msr_source_new: %s", r->e.text);
	plan_for_machine(&r->plan, &r->m);
	sample_init(&r->smp[0], r->m.topo.max_cpu, r->plan.nslots, r->m.topo.ncores, false);
	sample_init(&r->smp[1], r->m.topo.max_cpu, r->plan.nslots, r->m.topo.ncores, false);
	metrics_ctx_init(&r->mc, &r->m, &r->plan);
	interval_init(&r->iv, &r->m);
}

static void
rig_teardown(struct rig *r)
{
	source_close(r->s);
	vpmu_free(r->v);
	sample_free(&r->smp[0]);
	sample_free(&r->smp[1]);
	interval_free(&r->iv);
	machine_free(&r->m);
}

/* One second, one refresh, the interval. */
static void
step(struct rig *r)
{
	unsigned prev = r->newest;

	vpmu_advance(r->v, (uint64_t)vpmu_tsc_hz(r->v));
	r->newest ^= 1;
	assert_int_equal(source_read(r->s, &r->smp[r->newest], &r->e), 0);
	metrics_compute(&r->mc, &r->smp[prev], &r->smp[r->newest], &r->iv);
}

static uint64_t
reg(struct rig *r, unsigned cpu, uint32_t msr)
{
	uint64_t v = 0xdeadull;

	assert_int_equal(vpmu_rdmsr(r->v, cpu, msr, &v), 0);
	return v;
}

static void
counts(struct rig *r, uint64_t *rd, uint64_t *wr)
{
	msr_source_io_counts(r->s, rd, wr);
}

/* The batch is announced once per program with the refresh's 324 reads
 * in its order (CPU 0: TSC 0x10 first, then fixed 0 0x309, ...; CPU 36
 * after CPU 0's five), and fetched once per refresh; steady state reads
 * 324 and writes nothing. */
static void
test_batch_announce(void **state)
{
	struct rig r;
	uint64_t rd0, wr0, rd, wr;

	(void)state;
	rig_setup(&r);
	if (source_program(r.s, &r.plan, false, &r.e) != 0)
		fail_msg("program: %s", r.e.text);
	assert_int_equal(r.b->nplans, 1);
	assert_int_equal(r.b->nops, 324);
	assert_int_equal(r.b->first[0].cpu, 0);
	assert_int_equal(r.b->first[0].msr, MSR_TSC);
	assert_int_equal(r.b->first[1].msr, MSR_FIXED_CTR0);
	assert_int_equal(r.b->io.nbatches, 0);
	assert_int_equal(source_read(r.s, &r.smp[0], &r.e), 0);
	counts(&r, &rd0, &wr0);
	step(&r);
	step(&r);
	counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 2 * 324);
	assert_int_equal(wr, wr0);
	assert_int_equal(r.b->io.nbatches, 3);
	assert_int_equal(r.b->nplans, 1);
	assert_true(r.iv.valid);
	rig_teardown(&r);
}

/* CPU 5 (core 5 = {5, 41}) goes offline. Refresh 2: its first read fails
 * (ENXIO), the engine closes it: 324 - 4 = 320 reads, core 5 offline, the
 * other 35 cores valid. Refresh 3: one open attempt (fails), no read of
 * CPU 5: 319 reads; the batch was announced again without CPU 5 (319
 * ops). It comes back with its PMU reset to 0 (as after power-on): refresh
 * 4 opens it, reads its 3 plan registers, saves the 0s and writes 0x333,
 * 0x63013c and 0x700000001: 324 + 3 = 327 reads, 3 writes; the interval
 * 3 -> 4 is still offline (it began offline), 4 -> 5 is valid. restore()
 * puts the re-saved 0s back on CPU 5 and 0 elsewhere. */
static void
test_offline_and_back(void **state)
{
	struct rig r;
	uint64_t rd0, wr0, rd, wr;
	unsigned cpu;

	(void)state;
	rig_setup(&r);
	if (source_program(r.s, &r.plan, false, &r.e) != 0)
		fail_msg("program: %s", r.e.text);
	assert_int_equal(source_read(r.s, &r.smp[0], &r.e), 0);
	step(&r);
	assert_true(r.iv.valid);

	vpmu_set_online(r.v, 5, false);
	counts(&r, &rd0, &wr0);
	step(&r);
	counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 320);
	assert_int_equal(r.smp[r.newest].state[5], CPU_OFFLINE);
	assert_int_equal(r.smp[r.newest].state[41], CPU_READ_OK);
	assert_int_equal(r.iv.cores[r.m.topo.cpus[5].core].reason, R_OFFLINE);
	assert_int_equal(r.iv.node.nvalid, 35);
	/* Offline in the interval; the machine description is not changed. */
	assert_true(r.iv.threads[5].offline);
	assert_true(r.m.topo.cpus[5].online);

	rd0 = rd;
	step(&r);
	counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 319);
	assert_int_equal(wr, wr0);
	assert_int_equal(r.b->nplans, 2);
	assert_int_equal(r.b->nops, 319);
	assert_false(r.b->has_cpu5);
	assert_int_equal(r.iv.node.nvalid, 35);

	vpmu_poke(r.v, 5, MSR_FIXED_CTR_CTRL, 0);
	vpmu_poke(r.v, 5, MSR_PERFEVTSEL0, 0);
	vpmu_poke(r.v, 5, MSR_PERF_GLOBAL_CTRL, 0);
	vpmu_set_online(r.v, 5, true);
	rd0 = rd;
	step(&r);
	counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 327);
	assert_int_equal(wr - wr0, 3);
	assert_int_equal(reg(&r, 5, MSR_FIXED_CTR_CTRL), 0x333);
	assert_int_equal(reg(&r, 5, MSR_PERFEVTSEL0), 0x63013c);
	assert_int_equal(reg(&r, 5, MSR_PERF_GLOBAL_CTRL), 0x700000001);
	assert_int_equal(r.smp[r.newest].state[5], CPU_READ_OK);
	assert_true(r.m.topo.cpus[5].online);
	assert_int_equal(r.iv.cores[r.m.topo.cpus[5].core].reason, R_OFFLINE);
	assert_int_equal(r.b->nplans, 3);
	assert_int_equal(r.b->nops, 324);
	assert_true(r.b->has_cpu5);

	step(&r);
	if (!r.iv.valid)
		fail_msg("after the return: %s", r.iv.reason);
	assert_int_equal(r.iv.node.nvalid, 36);

	assert_int_equal(source_restore(r.s, &r.e), 0);
	for (cpu = 0; cpu < 72; cpu++) {
		assert_int_equal(reg(&r, cpu, MSR_FIXED_CTR_CTRL), 0);
		assert_int_equal(reg(&r, cpu, MSR_PERF_GLOBAL_CTRL), 0);
	}
	assert_int_equal(reg(&r, 5, MSR_PERFEVTSEL0), 0);
	rig_teardown(&r);
}

/* Offline at exit: nothing to restore there (it comes back reset), and
 * that is not an error; the other CPUs are restored. */
static void
test_offline_at_exit(void **state)
{
	struct rig r;

	(void)state;
	rig_setup(&r);
	if (source_program(r.s, &r.plan, false, &r.e) != 0)
		fail_msg("program: %s", r.e.text);
	assert_int_equal(source_read(r.s, &r.smp[0], &r.e), 0);
	vpmu_set_online(r.v, 7, false);
	step(&r);
	assert_int_equal(r.iv.cores[r.m.topo.cpus[7].core].reason, R_OFFLINE);
	assert_int_equal(source_restore(r.s, &r.e), 0);
	assert_int_equal(reg(&r, 0, MSR_PERFEVTSEL0), 0);
	assert_int_equal(reg(&r, 43, MSR_FIXED_CTR_CTRL), 0);
	rig_teardown(&r);
}

/* It came back with another program's event in PERFEVTSEL0 (EN set) and
 * httop had no --force: nothing is written there, the CPU is a read error
 * (EBUSY), and restore leaves the other program's value; FIXED_CTR_CTRL
 * still held httop's 0x333 and gets its saved 0 back. */
static void
test_back_busy(void **state)
{
	struct rig r;
	uint64_t wr0, wr;

	(void)state;
	rig_setup(&r);
	if (source_program(r.s, &r.plan, false, &r.e) != 0)
		fail_msg("program: %s", r.e.text);
	assert_int_equal(source_read(r.s, &r.smp[0], &r.e), 0);
	vpmu_set_online(r.v, 2, false);
	step(&r);
	vpmu_poke(r.v, 2, MSR_PERFEVTSEL0, 0x43003c);
	vpmu_set_online(r.v, 2, true);
	counts(&r, NULL, &wr0);
	step(&r);
	counts(&r, NULL, &wr);
	assert_int_equal(wr, wr0);
	assert_int_equal(r.smp[r.newest].state[2], CPU_READ_ERROR);
	assert_int_equal(r.smp[r.newest].err[2], EBUSY);
	assert_int_equal(source_restore(r.s, &r.e), 0);
	assert_int_equal(reg(&r, 2, MSR_PERFEVTSEL0), 0x43003c);
	assert_int_equal(reg(&r, 2, MSR_FIXED_CTR_CTRL), 0);
	assert_int_equal(reg(&r, 3, MSR_PERFEVTSEL0), 0);
	rig_teardown(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_announce),
		cmocka_unit_test(test_offline_and_back),
		cmocka_unit_test(test_offline_at_exit),
		cmocka_unit_test(test_back_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
