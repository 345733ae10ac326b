/* test_msr_source.c: the msr engine over the simulator's PMU (no FUSE):
 * exact register contents after program() and after restore, the busy
 * refusal, --force, save-once across two plans, one read per slot per CPU
 * per refresh, offline CPUs, read and write errors, the emergency restore;
 * and the file backend over ordinary files.
 *
 * Machines (tests/fixtures):
 * - SKX: hwloc/skx-6140-2s-18c-ht.x86.xml + cpuid/skx-6154-2s-18c-ht.cpuid.txt:
 *   36 cores, 72 CPUs; thread 0 of every core is CPU 0..35, thread 1 is
 *   CPU 36..71 (core 0 = {0, 36}). Plan writes (plan.c): FIXED_CTR_CTRL
 *   0x333 (mask 0xFFF) on all, PERFEVTSEL0 0x0063013C on thread 0 (event
 *   0x3C, umask 0x01, USR 0x10000 + OS 0x20000 + ANY 0x200000 + EN 0x400000),
 *   PERF_GLOBAL_CTRL |= 0x700000001 on all. Slots: TSC, fixed 0-2 on all,
 *   PMC0 on thread 0.
 * - SPR: hwloc/spr-max9460-2s-40c-ht.x86.xml + cpuid/spr-w9-3475x-1s-36c-ht
 *   (a Sapphire Rapids W9 dump: same family 6 model 0x8F as the Max 9460):
 *   80 cores, 160 CPUs. PERFEVTSEL0 0x0043023C on every thread
 *   (ONE_THREAD_ACTIVE: umask 0x02, USR+OS+EN, no ANY bit 21). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit/testutil.h"
#include "util/clock.h"

#include "machine/machine.h"
#include "plan/plan.h"
#include "source/msr/msr_io.h"
#include "sim/scenario.h"
#include "source/sources.h"
#include "sim/sim.h"
#include "sim/vpmu.h"

#define SKX_XML   "hwloc/skx-6140-2s-18c-ht.x86.xml"
#define SKX_CPUID "cpuid/skx-6154-2s-18c-ht.cpuid.txt"
#define SPR_XML   "hwloc/spr-max9460-2s-40c-ht.x86.xml"
#define SPR_CPUID "cpuid/spr-w9-3475x-1s-36c-ht.cpuid.txt"

/* A test io over the vpmu io that can make the Nth write fail. */
struct failing_io {
	struct msr_io io;
	struct msr_io *inner;
	long fail_at;        /* write number (1-based) that fails with EIO; 0 none */
	long nwr;
};

static int
f_open(struct msr_io *io, unsigned cpu, struct errmsg *e)
{
	struct failing_io *f = (struct failing_io *)io;

	return f->inner->open_cpu(f->inner, cpu, e);
}

static int
f_rd(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *v)
{
	struct failing_io *f = (struct failing_io *)io;

	io->nreads++;
	return f->inner->rd(f->inner, cpu, msr, v);
}

static int
f_wr(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t v)
{
	struct failing_io *f = (struct failing_io *)io;

	io->nwrites++;
	if (++f->nwr == f->fail_at)
		return -EIO;
	return f->inner->wr(f->inner, cpu, msr, v);
}

static int
f_wr_async(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t v)
{
	struct failing_io *f = (struct failing_io *)io;

	io->nwrites++;
	return f->inner->wr_async(f->inner, cpu, msr, v);
}

static void
f_close(struct msr_io *io, unsigned cpu)
{
	struct failing_io *f = (struct failing_io *)io;

	f->inner->close_cpu(f->inner, cpu);
}

static void
f_destroy(struct msr_io *io)
{
	struct failing_io *f = (struct failing_io *)io;

	f->inner->destroy(f->inner);
	free(f);
}

struct env {
	struct machine m;
	struct vpmu *v;
	struct source *s;
	struct plan plan;
	struct sample smp;
	struct failing_io *fio;   /* the io the engine owns */
	struct errmsg e;
};

/* fixture() returns a static buffer: copy the first path. */
static int
load(struct machine *m, const char *xml, const char *cpuid, struct errmsg *e)
{
	char x[4096];

	snprintf(x, sizeof x, "%s", fixture(xml));
	return machine_load(m, x, fixture(cpuid), e);
}

static void
env_setup(struct env *t, const char *xml, const char *cpuid, const char *scen)
{
	struct scenario sc;
	struct failing_io *f;

	memset(t, 0, sizeof *t);
	if (load(&t->m, xml, cpuid, &t->e) != 0)
		fail_msg("machine_load: %s", t->e.text);
	if (scenario_resolve(&sc, scen, &t->m.topo, &t->e) != 0)
		fail_msg("scenario: %s", t->e.text);
	t->v = vpmu_new(&t->m, &sc, 1);
	scenario_free(&sc);
	assert_non_null(t->v);
	f = calloc(1, sizeof *f);
	assert_non_null(f);
	f->inner = msr_io_vpmu_new(t->v);
	f->io.open_cpu = f_open;
	f->io.rd = f_rd;
	f->io.wr = f_wr;
	f->io.wr_async = f_wr_async;
	f->io.close_cpu = f_close;
	f->io.destroy = f_destroy;
	t->fio = f;
	t->s = msr_source_new(&t->m, &f->io, "msr", &t->e);
	if (t->s == NULL)
		fail_msg("msr_source_new: %s", t->e.text);
	plan_for_machine(&t->plan, &t->m);
	sample_init(&t->smp, t->m.topo.max_cpu, t->plan.nslots, t->m.topo.ncores, false);
}

static void
env_teardown(struct env *t)
{
	source_close(t->s);
	vpmu_free(t->v);
	sample_free(&t->smp);
	machine_free(&t->m);
}

static uint64_t
reg(struct env *t, unsigned cpu, uint32_t msr)
{
	uint64_t v = 0xdeadull;

	assert_int_equal(vpmu_rdmsr(t->v, cpu, msr, &v), 0);
	return v;
}

static void
counts(struct env *t, uint64_t *r, uint64_t *w)
{
	msr_source_io_counts(t->s, r, w);
}

/* SKX: exact contents after program, and after restore. Pre-set, not busy
 * (outside busy_mask): CPU 1 FIXED_CTR_CTRL = 0x8 (PMI bit of fixed 0: in
 * the write mask 0xFFF, so it becomes 0x333 and comes back as 0x8), CPU 2
 * PERF_GLOBAL_CTRL = 0x2 (PMC1 enabled by someone: outside our mask, so it
 * reads 0x2 | 0x700000001 = 0x700000003 and comes back as 0x2). */
static void
test_skx_program_restore(void **state)
{
	struct env t;
	uint64_t r, w, r0, w0;
	unsigned cpu;

	(void)state;
	env_setup(&t, SKX_XML, SKX_CPUID, "idle");
	vpmu_poke(t.v, 1, MSR_FIXED_CTR_CTRL, 0x8);
	vpmu_poke(t.v, 2, MSR_PERF_GLOBAL_CTRL, 0x2);
	counts(&t, &r0, &w0);
	assert_int_equal(w0, 0);
	if (source_program(t.s, &t.plan, false, &t.e) != 0)
		fail_msg("program: %s", t.e.text);
	for (cpu = 0; cpu < 72; cpu++) {
		bool t0 = cpu < 36;

		assert_int_equal(reg(&t, cpu, MSR_FIXED_CTR_CTRL), 0x333);
		assert_int_equal(reg(&t, cpu, MSR_PERF_GLOBAL_CTRL),
		    cpu == 2 ? 0x700000003ull : 0x700000001ull);
		assert_int_equal(reg(&t, cpu, MSR_PERFEVTSEL0), t0 ? 0x0063013Cull : 0);
	}
	/* Writes: 72 FIXED_CTR_CTRL + 36 PERFEVTSEL0 + 72 GLOBAL_CTRL = 180.
	 * Reads: the same 180 old values + MSR_PLATFORM_INFO once = 181. */
	counts(&t, &r, &w);
	assert_int_equal(w, 180);
	assert_int_equal(r, 181);
	assert_int_equal(vpmu_writes(t.v), 180);

	assert_int_equal(source_restore(t.s, &t.e), 0);
	for (cpu = 0; cpu < 72; cpu++) {
		assert_int_equal(reg(&t, cpu, MSR_FIXED_CTR_CTRL), cpu == 1 ? 0x8 : 0);
		assert_int_equal(reg(&t, cpu, MSR_PERF_GLOBAL_CTRL), cpu == 2 ? 0x2 : 0);
		assert_int_equal(reg(&t, cpu, MSR_PERFEVTSEL0), 0);
	}
	counts(&t, &r, &w);
	assert_int_equal(w, 360);
	/* Idempotent: a second restore writes nothing. */
	assert_int_equal(source_restore(t.s, &t.e), 0);
	counts(&t, &r, &w);
	assert_int_equal(w, 360);
	env_teardown(&t);
}

/* SPR (ICX group): OTA on every thread, no ANY bit. Writes: 160 x 3 = 480. */
static void
test_spr_program_restore(void **state)
{
	struct env t;
	uint64_t r, w;
	unsigned cpu;

	(void)state;
	env_setup(&t, SPR_XML, SPR_CPUID, "idle");
	assert_int_equal(t.m.group, UARCH_ICX);
	if (source_program(t.s, &t.plan, false, &t.e) != 0)
		fail_msg("program: %s", t.e.text);
	for (cpu = 0; cpu < 160; cpu++) {
		uint64_t sel = reg(&t, cpu, MSR_PERFEVTSEL0);

		assert_int_equal(sel, 0x0043023Cull);
		assert_int_equal(sel & EVTSEL_ANY, 0);
		assert_int_equal(reg(&t, cpu, MSR_FIXED_CTR_CTRL), 0x333);
		assert_int_equal(reg(&t, cpu, MSR_PERF_GLOBAL_CTRL), 0x700000001ull);
	}
	counts(&t, &r, &w);
	assert_int_equal(w, 480);
	/* One refresh: 5 slots on each of 160 CPUs = 800 reads, no write;
	 * the sample carries the wall-clock time of the read. */
	{
		double before = clock_wall(), after;

		assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
		after = clock_wall();
		assert_true(t.smp.wall >= before && t.smp.wall <= after);
	}
	{
		uint64_t r2, w2;

		counts(&t, &r2, &w2);
		assert_int_equal(r2 - r, 800);
		assert_int_equal(w2, w);
	}
	assert_int_equal(source_restore(t.s, &t.e), 0);
	for (cpu = 0; cpu < 160; cpu++) {
		assert_int_equal(reg(&t, cpu, MSR_PERFEVTSEL0), 0);
		assert_int_equal(reg(&t, cpu, MSR_FIXED_CTR_CTRL), 0);
		assert_int_equal(reg(&t, cpu, MSR_PERF_GLOBAL_CTRL), 0);
	}
	env_teardown(&t);
}

/* Busy: another program has PERFEVTSEL0 enabled (EN, bit 22 = 0x400000) on
 * CPUs 3, 5, 7, 9, 11 and 13: refused, nothing written, the message names
 * the first four and "and 2 more". With force the counters are taken and
 * the other program's value comes back at restore. */
static void
test_busy_and_force(void **state)
{
	static const unsigned busy[] = { 3, 5, 7, 9, 11, 13 };
	struct env t;
	uint64_t r, w;
	size_t i;

	(void)state;
	env_setup(&t, SKX_XML, SKX_CPUID, "idle");
	for (i = 0; i < 6; i++)
		vpmu_poke(t.v, busy[i], MSR_PERFEVTSEL0, 0x43003c);
	assert_int_equal(source_program(t.s, &t.plan, false, &t.e), -1);
	assert_non_null(strstr(t.e.text, "cpu 3 PERFEVTSEL0=0x43003c"));
	assert_non_null(strstr(t.e.text, "cpu 9 PERFEVTSEL0=0x43003c"));
	assert_null(strstr(t.e.text, "cpu 11 "));
	assert_non_null(strstr(t.e.text, "and 2 more"));
	assert_non_null(strstr(t.e.text, "--force"));
	counts(&t, &r, &w);
	assert_int_equal(w, 0);
	assert_int_equal(vpmu_writes(t.v), 0);
	assert_int_equal(reg(&t, 0, MSR_FIXED_CTR_CTRL), 0);

	if (source_program(t.s, &t.plan, true, &t.e) != 0)
		fail_msg("program --force: %s", t.e.text);
	assert_int_equal(reg(&t, 3, MSR_PERFEVTSEL0), 0x0063013Cull);
	assert_int_equal(source_restore(t.s, &t.e), 0);
	for (i = 0; i < 6; i++)
		assert_int_equal(reg(&t, busy[i], MSR_PERFEVTSEL0), 0x43003c);
	assert_int_equal(reg(&t, 4, MSR_PERFEVTSEL0), 0);
	env_teardown(&t);
}

/* Calibration plan, then the main plan: the registers are saved once, with
 * the values from before the calibration. CPU 0 FIXED_CTR_CTRL starts at
 * 0x8; after both plans it is 0x333, after restore 0x8 again (not the
 * calibration's 0x333). PERFEVTSEL0 on CPU 0: 0x43013C (REF_XCLK, no ANY)
 * after calibration, 0x63013C after the main plan, 0 after restore. The
 * main plan writes 180 more times but reads no old value: 181 reads in all. */
static void
test_two_plans_save_once(void **state)
{
	struct env t;
	struct plan cal;
	uint64_t r, w;

	(void)state;
	env_setup(&t, SKX_XML, SKX_CPUID, "idle");
	vpmu_poke(t.v, 0, MSR_FIXED_CTR_CTRL, 0x8);
	assert_true(plan_calibration(&cal, &t.plan, &t.m));
	if (source_program(t.s, &cal, false, &t.e) != 0)
		fail_msg("program calibration: %s", t.e.text);
	assert_int_equal(reg(&t, 0, MSR_PERFEVTSEL0), 0x0043013Cull);
	if (source_program(t.s, &t.plan, false, &t.e) != 0)
		fail_msg("program main: %s", t.e.text);
	assert_int_equal(reg(&t, 0, MSR_PERFEVTSEL0), 0x0063013Cull);
	counts(&t, &r, &w);
	assert_int_equal(r, 181);
	assert_int_equal(w, 360);
	assert_int_equal(source_restore(t.s, &t.e), 0);
	assert_int_equal(reg(&t, 0, MSR_FIXED_CTR_CTRL), 0x8);
	assert_int_equal(reg(&t, 0, MSR_PERFEVTSEL0), 0);
	assert_int_equal(reg(&t, 40, MSR_PERF_GLOBAL_CTRL), 0);
	env_teardown(&t);
}

/* Reads: SKX has 4 slots on all 72 CPUs + PMC0 on 36 = 324 reads per
 * refresh and no write. CPU 5 (thread 0) goes offline: its first read
 * fails with ENXIO and the rest of its slots are skipped, so 324 - 4 = 320
 * reads; it is CPU_OFFLINE and the others are read. Back online: OK again,
 * after the engine reopened it and read back its 3 plan registers
 * (FIXED_CTR_CTRL, PERFEVTSEL0, PERF_GLOBAL_CTRL): the simulated PMU kept
 * httop's values, so nothing is written. An EIO on CPU 7 marks it
 * CPU_READ_ERROR with errno EIO (1 read instead of 5), only for that
 * refresh: 324 - 4 + 3 = 323 reads. */
static void
test_reads(void **state)
{
	struct env t;
	uint64_t r0, w0, r, w;
	unsigned cpu;

	(void)state;
	env_setup(&t, SKX_XML, SKX_CPUID, "busy");
	if (source_program(t.s, &t.plan, false, &t.e) != 0)
		fail_msg("program: %s", t.e.text);
	counts(&t, &r0, &w0);
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	counts(&t, &r, &w);
	assert_int_equal(r - r0, 324);
	assert_int_equal(w, w0);
	assert_int_equal(t.smp.seq, 0);
	for (cpu = 0; cpu < 72; cpu++)
		assert_int_equal(t.smp.state[cpu], CPU_READ_OK);
	/* Thread 1 CPUs do not read PMC0 (slot 4): it stays 0. */
	assert_int_equal(sample_row(&t.smp, 40)[4], 0);

	vpmu_set_online(t.v, 5, false);
	r0 = r;
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	counts(&t, &r, &w);
	assert_int_equal(r - r0, 320);
	assert_int_equal(t.smp.seq, 1);
	assert_int_equal(t.smp.state[5], CPU_OFFLINE);
	assert_int_equal(t.smp.state[41], CPU_READ_OK);
	/* The sample says so; the machine description stays as loaded. */
	assert_true(t.m.topo.cpus[5].online);

	vpmu_set_online(t.v, 5, true);
	vpmu_fail_next(t.v, 7, EIO);
	r0 = r;
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	counts(&t, &r, &w);
	assert_int_equal(r - r0, 323);
	assert_int_equal(t.smp.state[5], CPU_READ_OK);
	assert_true(t.m.topo.cpus[5].online);
	assert_int_equal(t.smp.state[7], CPU_READ_ERROR);
	assert_int_equal(t.smp.err[7], EIO);

	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	assert_int_equal(t.smp.state[7], CPU_READ_OK);
	assert_int_equal(t.smp.seq, 3);
	assert_int_equal(w, w0);
	env_teardown(&t);
}

/* A write fails half way (the 50th of 180: CPU order 0.., 3 writes on
 * thread-0 CPUs, so CPUs 0..15 are done (48 writes), CPU 16 got FIXED_CTR_CTRL
 * and its PERFEVTSEL0 fails): program fails naming the register and CPU,
 * and everything written is back to its old value. */
static void
test_write_error_restores(void **state)
{
	struct env t;
	unsigned cpu;

	(void)state;
	env_setup(&t, SKX_XML, SKX_CPUID, "idle");
	vpmu_poke(t.v, 0, MSR_FIXED_CTR_CTRL, 0x8);
	t.fio->fail_at = 50;
	assert_int_equal(source_program(t.s, &t.plan, false, &t.e), -1);
	assert_non_null(strstr(t.e.text, "PERFEVTSEL0 on CPU 16"));
	for (cpu = 0; cpu < 72; cpu++) {
		assert_int_equal(reg(&t, cpu, MSR_FIXED_CTR_CTRL), cpu == 0 ? 0x8 : 0);
		assert_int_equal(reg(&t, cpu, MSR_PERFEVTSEL0), 0);
		assert_int_equal(reg(&t, cpu, MSR_PERF_GLOBAL_CTRL), 0);
	}
	env_teardown(&t);
}

/* Emergency restore puts everything back with the async write, and the
 * normal restore after it has nothing left to do. */
static void
test_emergency_restore(void **state)
{
	struct env t;
	uint64_t r, w;
	unsigned cpu;

	(void)state;
	env_setup(&t, SKX_XML, SKX_CPUID, "idle");
	vpmu_poke(t.v, 3, MSR_PERF_GLOBAL_CTRL, 0x2);
	if (source_program(t.s, &t.plan, false, &t.e) != 0)
		fail_msg("program: %s", t.e.text);
	source_emergency_restore(t.s);
	for (cpu = 0; cpu < 72; cpu++) {
		assert_int_equal(reg(&t, cpu, MSR_FIXED_CTR_CTRL), 0);
		assert_int_equal(reg(&t, cpu, MSR_PERFEVTSEL0), 0);
		assert_int_equal(reg(&t, cpu, MSR_PERF_GLOBAL_CTRL), cpu == 3 ? 0x2 : 0);
	}
	counts(&t, &r, &w);
	assert_int_equal(w, 360);
	assert_int_equal(source_restore(t.s, &t.e), 0);
	counts(&t, &r, &w);
	assert_int_equal(w, 360);
	env_teardown(&t);
}

/* The sim source: the same engine with a virtual clock and ground truth.
 * advance(0.5) then a read: time is 0.5 s plus the access cost of the
 * reads so far (1 us each), so within [0.5, 0.51]. */
static void
test_sim_source(void **state)
{
	struct machine m;
	struct errmsg e;
	struct plan p;
	struct sample s;
	struct source *src;
	uint64_t r, w;

	(void)state;
	if (load(&m, SKX_XML, SKX_CPUID, &e) != 0)
		fail_msg("machine_load: %s", e.text);
	src = sim_source_new(&m, "busy", 1, &e);
	if (src == NULL)
		fail_msg("sim_source_new: %s", e.text);
	assert_true(src->virtual_clock);
	assert_string_equal(src->name, "sim");
	plan_for_machine(&p, &m);
	sample_init(&s, m.topo.max_cpu, p.nslots, m.topo.ncores, true);
	if (source_program(src, &p, false, &e) != 0)
		fail_msg("program: %s", e.text);
	source_advance(src, 0.5);
	assert_int_equal(source_read(src, &s, &e), 0);
	assert_true(s.time >= 0.5 && s.time < 0.51);
	/* busy: both threads always active, so all the time is "both". */
	assert_int_equal(s.truth[0] + s.truth[1] + s.truth[2], 0);
	assert_true(s.truth[3] > 0);
	msr_source_io_counts(src, &r, &w);
	assert_int_equal(w, 180);
	source_close(src);
	sample_free(&s);
	machine_free(&m);
}

/* The file backend over ordinary files: pread at offset = MSR index, even
 * 0xC00000E9 (above 2^31); a short read (past the end of a file) is EIO;
 * open errors name the path. */
static void
test_file_backend(void **state)
{
	char dir[] = "/tmp/test_msr_XXXXXX", path[256], tmpl[256];
	struct msr_io *io;
	struct errmsg e;
	uint64_t v = 0x1122334455667788ull, got = 0;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/1", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/1/msr", dir);
	fd = open(path, O_CREAT | O_RDWR, 0600);
	assert_true(fd >= 0);
	close(fd);
	snprintf(tmpl, sizeof tmpl, "%s/%%u/msr", dir);

	io = msr_io_file_new(tmpl, 4);
	assert_int_equal(io->open_cpu(io, 1, &e), 0);
	assert_int_equal(io->wr(io, 1, MSR_AMD_IRPERF, v), 0);
	assert_int_equal(io->rd(io, 1, MSR_AMD_IRPERF, &got), 0);
	assert_true(got == v);
	assert_int_equal(io->rd(io, 1, 0xC00000F0u, &got), -EIO);   /* past the end */
	assert_int_equal(io->nreads, 2);
	assert_int_equal(io->nwrites, 1);
	{
		struct stat st;

		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, 0xC00000E9ll + 8);
	}
	assert_int_equal(io->open_cpu(io, 2, &e), -ENOENT);
	assert_non_null(strstr(e.text, "/2/msr does not exist"));
	assert_non_null(strstr(e.text, "--msr-path"));
	io->destroy(io);

	io = msr_io_file_new("/tmp/no-cpu-number", 4);
	assert_int_equal(io->open_cpu(io, 0, &e), -EINVAL);
	assert_non_null(strstr(e.text, "%u"));
	io->destroy(io);

	unlink(path);
	snprintf(path, sizeof path, "%s/1", dir);
	rmdir(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skx_program_restore),
		cmocka_unit_test(test_spr_program_restore),
		cmocka_unit_test(test_busy_and_force),
		cmocka_unit_test(test_two_plans_save_once),
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_write_error_restores),
		cmocka_unit_test(test_emergency_restore),
		cmocka_unit_test(test_sim_source),
		cmocka_unit_test(test_file_backend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
