/* test_msr_groups.c: the msr engine over the simulator's PMU for every
 * counter-plan group, on real topologies and CPUID dumps: the exact
 * register contents it programs on thread-0 and other-thread CPUs, that it
 * leaves other programs' bits alone, how many accesses program and one
 * refresh make, the split metrics_compute gets against the simulator's
 * truth, and that restore puts every register back on every CPU.
 *
 * Fixtures (tests/fixtures, PROVENANCE.md there; machine = topology +
 * CPUID dump):
 *   nhm-wsm  hwloc/wsm-ep-x5650-2s-6c-ht.x86.xml + cpuid/wsm-ep-x5667-2s-4c-ht
 *            24 CPUs, 12 cores, siblings n and n+12; model 0x2C
 *   nhm-nhm  hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml + cpuid/nhm-ep-e5520-1cpu
 *            16 CPUs, 8 cores (n, n+8); model 0x1A
 *   snb      hwloc/snb-ep-e5-2650-2s-8c-ht.xml + cpuid/snb-ep-e5-2687w-1cpu
 *            32 CPUs, 16 cores (n, n+16); model 0x2D
 *   bdw      hwloc/bdw-ep-e5-2650lv4-2s-14c-ht.x86.xml + cpuid/bdw-e-i7-6950x
 *            56 CPUs, 28 cores (n, n+28); model 0x4F
 *   skx      hwloc/skx-8168-2s-24c-ht.v1.xml + cpuid/skx-8180-2s-28c-ht
 *            96 CPUs, 48 cores (n, n+48); model 0x55
 *   clx      hwloc/clx-6230-2s-20c-ht.x86.xml + cpuid/clx-5215-1s-10c-ht
 *            80 CPUs, 40 cores (n, n+40); model 0x55
 *   icx      hwloc/spr-max9462-2s-32c-ht.xml + cpuid/icx-d-1718t-1s-4c-ht
 *            128 CPUs, 64 cores (n, n+64); model 0x6C; 4 fixed counters
 *            (no Ice Lake server topology exists among the fixtures)
 *   spr      hwloc/spr-max9460-2s-40c-ht.x86.xml + cpuid/spr-w7-2475x-1s-20c-ht
 *            160 CPUs, 80 cores (n, n+80); model 0x8F; 4 fixed counters
 *   knl      hwloc/knl-7250-68c-4t-flat-quadrant.xml, no dump: identity
 *            from the topology (model 0x57); 272 CPUs, 68 cores x 4 threads
 *   zen2     hwloc/zen2-epyc7742-2s-64c-smt.xml + cpuid/zen2-epyc7742-2s-64c-smt
 *            256 CPUs, 128 cores
 *   zen3     hwloc/zen3-epyc7763-2s-64c-nosmt.x86.xml + cpuid/zen3-epyc7713-1s-64c-smt
 *            128 CPUs, 128 cores of one thread (SMT off: no split at all)
 *   zen4     hwloc/zen4-epyc9654-2s-96c-smt.x86.xml + cpuid/zen4-epyc9124-1s-16c-smt
 *            384 CPUs, 192 cores
 *   unknown  hwloc/rpl-i7-1370p-6p8e-hybrid.x86.xml + cpuid/adl-s-i9-12900k-8p8e
 *            (hybrid, model 0x97: no group) 20 CPUs: 6 P-cores {2n, 2n+1}
 *            and 8 E-cores of one thread (CPUs 12..19)
 *
 * Expected PERFEVTSEL0 values, from IA32_PERFEVTSELx (event 7:0, umask
 * 15:8, USR 16, OS 17, ANY 21, EN 22; doc/hardware.md section 3) and the event tables
 * (intel/perfmon NHM-EP NehalemEP_core.json: CPU_CLK_UNHALTED.REF_P =
 * 0x3C/0x01; SNB..SKX REF_XCLK = 0x3C/0x01; ICX/SPR ONE_THREAD_ACTIVE =
 * 0x3C/0x02, "r023C" in perf's raw form):
 *   REF_P/REF_XCLK:ANY  0x3C | 0x01<<8 | 0x10000 | 0x20000 | 0x200000 | 0x400000
 *                     = 0x0063013C (McCalpin's value on the Xeon 8160)
 *   ONE_THREAD_ACTIVE   0x3C | 0x02<<8 | 0x10000 | 0x20000 | 0x400000
 *                     = 0x0043023C
 *
 * Foreign values poked on every CPU before httop starts (another program's,
 * none of them "busy" for httop's check):
 *   PERF_GLOBAL_CTRL = 0x2 (PMC1 enabled: outside httop's mask 0x700000001)
 *   PERFEVTSEL1 = 0x0043003C (someone's PMC1 event, EN set: not httop's)
 *   FIXED_CTR_CTRL = 0x888 (the PMI bits of fixed 0-2, no enable bit, so not
 *     busy; inside the mask 0xFFF, so it reads 0x333 while httop runs), plus
 *     field 3 = 0x3 (OS+USR of fixed counter 3, outside the mask) where the
 *     CPU has 4 fixed counters: 0x3888 -> 0x3333. The simulator models three
 *     fixed counters only, so a thin io below keeps field 3 itself (as the
 *     CPU would) and refuses it where the CPU has no fourth counter.
 *   PERFEVTSEL0 = 0x3C (event without EN) where httop writes it; where it
 *     does not (KNL, unknown), 0x0043003C: someone counting on PMC0, which
 *     httop does not use there, so it must neither refuse nor touch it
 *   AMD: HWCR = 0x40000000 (bit 30, IRPerfCount on, as the kernel sets it)
 *
 * Accesses (hand counted; P = present CPUs, P0 = thread-0 CPUs):
 *   program writes = P (FIXED_CTR_CTRL) + P0 or P (PERFEVTSEL0) + P (GLOBAL);
 *   program reads = the same registers' old values + MSR_PLATFORM_INFO once
 *   (Intel only); refresh reads = 4 slots x P (+ PMC0 x P0 or x P).
 */
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

#define INTERVAL_S 1.0     /* one refresh per simulated second */
#define NINTERVALS 3
#define SPLIT_TOL  0.005   /* exact figures: 0.5% of the interval */
/* Bounds must hold the truth. The truth is taken at thread 0's TSC read;
 * the other counters of the core are read a few 1-us accesses later, so up
 * to ~1e-5 of a 1 s interval separates them (measured: <= 1e-5). */
#define BOUND_SLACK 0.0001

#define FOREIGN_GLOBAL  0x2ull
#define FOREIGN_SEL1    0x0043003Cull
#define HWCR_IRPERF     0x40000000ull

struct gcase {
	const char *name;
	const char *xml;
	const char *cpuid;              /* NULL: identity from the topology */
	enum uarch_group group;
	enum split_method split;
	unsigned ncpus;                 /* present CPUs */
	bool amd;
	/* Intel registers: foreign value, then what httop leaves there */
	uint64_t fctrl_foreign, fctrl_run;
	uint64_t sel0_foreign, sel0_t0, sel0_t1;   /* t1: every other SMT position */
	uint64_t global_run;
	/* accesses */
	uint64_t prog_writes, prog_reads, refresh_reads;
};

static struct gcase cases[] = {   /* not const: cmocka's state is void * */
	/* 24 + 12 + 24 = 60 writes; 61 reads; 24*4 + 12 = 108 per refresh */
	{ "nhm-wsm", "hwloc/wsm-ep-x5650-2s-6c-ht.x86.xml", "cpuid/wsm-ep-x5667-2s-4c-ht.cpuid.txt",
	  UARCH_NHM, SPLIT_ANY, 24, false, 0x888, 0x333, 0x3C, 0x0063013C, 0x3C,
	  0x700000003ull, 60, 61, 108 },
	/* 16 + 8 + 16 = 40; 41; 16*4 + 8 = 72 */
	{ "nhm-nhm", "hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml", "cpuid/nhm-ep-e5520-1cpu.cpuid.txt",
	  UARCH_NHM, SPLIT_ANY, 16, false, 0x888, 0x333, 0x3C, 0x0063013C, 0x3C,
	  0x700000003ull, 40, 41, 72 },
	/* 32 + 16 + 32 = 80; 81; 32*4 + 16 = 144 */
	{ "snb", "hwloc/snb-ep-e5-2650-2s-8c-ht.xml", "cpuid/snb-ep-e5-2687w-1cpu.cpuid.txt",
	  UARCH_SNB, SPLIT_ANY, 32, false, 0x888, 0x333, 0x3C, 0x0063013C, 0x3C,
	  0x700000003ull, 80, 81, 144 },
	/* 56 + 28 + 56 = 140; 141; 56*4 + 28 = 252 */
	{ "bdw", "hwloc/bdw-ep-e5-2650lv4-2s-14c-ht.x86.xml", "cpuid/bdw-e-i7-6950x-1s-10c-ht.cpuid.txt",
	  UARCH_SNB, SPLIT_ANY, 56, false, 0x888, 0x333, 0x3C, 0x0063013C, 0x3C,
	  0x700000003ull, 140, 141, 252 },
	/* 96 + 48 + 96 = 240; 241; 96*4 + 48 = 432 */
	{ "skx", "hwloc/skx-8168-2s-24c-ht.v1.xml", "cpuid/skx-8180-2s-28c-ht.cpuid.txt",
	  UARCH_SKX, SPLIT_ANY, 96, false, 0x888, 0x333, 0x3C, 0x0063013C, 0x3C,
	  0x700000003ull, 240, 241, 432 },
	/* 80 + 40 + 80 = 200; 201; 80*4 + 40 = 360 */
	{ "clx", "hwloc/clx-6230-2s-20c-ht.x86.xml", "cpuid/clx-5215-1s-10c-ht.cpuid.txt",
	  UARCH_SKX, SPLIT_ANY, 80, false, 0x888, 0x333, 0x3C, 0x0063013C, 0x3C,
	  0x700000003ull, 200, 201, 360 },
	/* 128 x 3 = 384; 385; 128*5 = 640 */
	{ "icx", "hwloc/spr-max9462-2s-32c-ht.xml", "cpuid/icx-d-1718t-1s-4c-ht.cpuid.txt",
	  UARCH_ICX, SPLIT_OTA, 128, false, 0x3888, 0x3333, 0x3C, 0x0043023C, 0x0043023C,
	  0x700000003ull, 384, 385, 640 },
	/* 160 x 3 = 480; 481; 160*5 = 800 */
	{ "spr", "hwloc/spr-max9460-2s-40c-ht.x86.xml", "cpuid/spr-w7-2475x-1s-20c-ht.cpuid.txt",
	  UARCH_ICX, SPLIT_OTA, 160, false, 0x3888, 0x3333, 0x3C, 0x0043023C, 0x0043023C,
	  0x700000003ull, 480, 481, 800 },
	/* 272 x 2 = 544 (no PERFEVTSEL0); 545; 272*4 = 1088 */
	{ "knl", "hwloc/knl-7250-68c-4t-flat-quadrant.xml", NULL,
	  UARCH_KNL, SPLIT_BOUND, 272, false, 0x888, 0x333, 0x0043003C, 0x0043003C, 0x0043003C,
	  0x700000002ull, 544, 545, 1088 },
	/* AMD: no writes, no reads at program; 256*4 = 1024 */
	{ "zen2", "hwloc/zen2-epyc7742-2s-64c-smt.xml", "cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt",
	  UARCH_ZEN, SPLIT_BOUND, 256, true, 0, 0, 0, 0, 0, 0, 0, 0, 1024 },
	/* 128*4 = 512 */
	{ "zen3", "hwloc/zen3-epyc7763-2s-64c-nosmt.x86.xml", "cpuid/zen3-epyc7713-1s-64c-smt.cpuid.txt",
	  UARCH_ZEN, SPLIT_NONE, 128, true, 0, 0, 0, 0, 0, 0, 0, 0, 512 },
	/* 384*4 = 1536 */
	{ "zen4", "hwloc/zen4-epyc9654-2s-96c-smt.x86.xml", "cpuid/zen4-epyc9124-1s-16c-smt.cpuid.txt",
	  UARCH_ZEN, SPLIT_BOUND, 384, true, 0, 0, 0, 0, 0, 0, 0, 0, 1536 },
	/* 20 x 2 = 40; 41; 20*4 = 80 */
	{ "unknown", "hwloc/rpl-i7-1370p-6p8e-hybrid.x86.xml", "cpuid/adl-s-i9-12900k-8p8e.cpuid.txt",
	  UARCH_UNKNOWN, SPLIT_BOUND, 20, false, 0x888, 0x333, 0x0043003C, 0x0043003C, 0x0043003C,
	  0x700000002ull, 40, 41, 80 },
};

#define NCASES (sizeof cases / sizeof cases[0])

/* The registers compared before and after: every control register httop
 * could write, and the foreign PMC1 select. */
static const uint32_t intel_regs[] = {
	MSR_PERFEVTSEL0, MSR_PERFEVTSEL0 + 1, MSR_PERFEVTSEL0 + 2, MSR_PERFEVTSEL0 + 3,
	MSR_FIXED_CTR_CTRL, MSR_PERF_GLOBAL_CTRL,
};
static const uint32_t amd_regs[] = { MSR_AMD_HWCR };

/* The io under the engine: the simulator's, plus FIXED_CTR_CTRL bits 15:12
 * (fixed counter 3, Ice Lake and later) kept beside the simulator, which
 * models three fixed counters, and each core's truth at its first read. */
#define FIELD3 0xF000ull

struct field3_io {
	struct msr_io io;
	struct msr_io *inner;
	bool has_field3;
	uint64_t *hi;              /* per CPU */
	unsigned max_cpu;
	/* The truth of each core when its thread 0's TSC is read: the
	 * interval the counters cover, to within a few accesses. */
	struct vpmu *v;
	const struct topology *topo;
	uint64_t *truth;           /* ncores x 4 */
};

static int
f3_open(struct msr_io *io, unsigned cpu, struct errmsg *e)
{
	struct field3_io *f = (struct field3_io *)io;

	return f->inner->open_cpu(f->inner, cpu, e);
}

static int
f3_rd(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *v)
{
	struct field3_io *f = (struct field3_io *)io;
	int rc;

	io->nreads++;
	rc = f->inner->rd(f->inner, cpu, msr, v);
	if (rc == 0 && msr == MSR_FIXED_CTR_CTRL && cpu < f->max_cpu)
		*v |= f->hi[cpu];
	if (rc == 0 && msr == MSR_TSC && cpu < f->max_cpu && f->topo->cpus[cpu].thread == 0) {
		unsigned core = f->topo->cpus[cpu].core;

		vpmu_truth(f->v, core, &f->truth[(size_t)core * 4]);
	}
	return rc;
}

static int
f3_write(struct field3_io *f, unsigned cpu, uint32_t msr, uint64_t v, bool async)
{
	int rc;

	if (msr == MSR_FIXED_CTR_CTRL && cpu < f->max_cpu) {
		if ((v & FIELD3) != 0 && !f->has_field3)
			return -EIO;    /* #GP: no fourth fixed counter */
		rc = async ? f->inner->wr_async(f->inner, cpu, msr, v & ~FIELD3) :
		    f->inner->wr(f->inner, cpu, msr, v & ~FIELD3);
		if (rc == 0)
			f->hi[cpu] = v & FIELD3;
		return rc;
	}
	return async ? f->inner->wr_async(f->inner, cpu, msr, v) :
	    f->inner->wr(f->inner, cpu, msr, v);
}

static int
f3_wr(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t v)
{
	io->nwrites++;
	return f3_write((struct field3_io *)io, cpu, msr, v, false);
}

static int
f3_wr_async(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t v)
{
	io->nwrites++;
	return f3_write((struct field3_io *)io, cpu, msr, v, true);
}

static void
f3_close(struct msr_io *io, unsigned cpu)
{
	struct field3_io *f = (struct field3_io *)io;

	f->inner->close_cpu(f->inner, cpu);
}

static void
f3_destroy(struct msr_io *io)
{
	struct field3_io *f = (struct field3_io *)io;

	f->inner->destroy(f->inner);
	free(f->hi);
	free(f->truth);
	free(f);
}

static struct field3_io *
field3_io_new(struct vpmu *v, const struct topology *topo, bool has_field3)
{
	struct field3_io *f = calloc(1, sizeof *f);

	assert_non_null(f);
	f->inner = msr_io_vpmu_new(v);
	f->has_field3 = has_field3;
	f->max_cpu = topo->max_cpu;
	f->hi = calloc(topo->max_cpu ? topo->max_cpu : 1, sizeof *f->hi);
	f->v = v;
	f->topo = topo;
	f->truth = calloc((size_t)topo->ncores * 4 + 1, sizeof *f->truth);
	assert_non_null(f->hi);
	assert_non_null(f->truth);
	f->io.open_cpu = f3_open;
	f->io.rd = f3_rd;
	f->io.wr = f3_wr;
	f->io.wr_async = f3_wr_async;
	f->io.close_cpu = f3_close;
	f->io.destroy = f3_destroy;
	return f;
}

struct genv {
	const struct gcase *gc;
	struct machine m;
	struct vpmu *v;
	struct field3_io *f3;       /* owned by the source */
	struct source *s;
	struct plan plan;
	struct sample prev, cur;
	struct errmsg e;
	uint64_t *before;           /* saved[cpu * nregs + r] */
	double worst;               /* largest |exact - truth| or distance outside a bound */
	unsigned nchecked;          /* core-intervals compared with the truth */
	unsigned ntight;            /* of those, bound splits whose ends met: exact */
	const uint32_t *regs;
	unsigned nregs;
};

static uint64_t
reg(struct genv *t, unsigned cpu, uint32_t msr)
{
	uint64_t v = 0xdeadull;
	int rc = vpmu_rdmsr(t->v, cpu, msr, &v);

	if (rc != 0)
		fail_msg("%s: rdmsr cpu %u msr 0x%x: %d", t->gc->name, cpu, (unsigned)msr, rc);
	if (msr == MSR_FIXED_CTR_CTRL)
		v |= t->f3->hi[cpu];
	return v;
}

static void
genv_setup(struct genv *t, const struct gcase *gc)
{
	char xml[4096], cpuid[4096];
	struct scenario sc;
	double hz;

	memset(t, 0, sizeof *t);
	t->gc = gc;
	snprintf(xml, sizeof xml, "%s", fixture(gc->xml));
	if (gc->cpuid != NULL)
		snprintf(cpuid, sizeof cpuid, "%s", fixture(gc->cpuid));
	if (machine_load(&t->m, xml, gc->cpuid != NULL ? cpuid : NULL, &t->e) != 0)
		fail_msg("%s: machine_load: %s", gc->name, t->e.text);
	if (t->m.group != gc->group)
		fail_msg("%s: group %s, expected %s", gc->name, uarch_group_name(t->m.group),
		    uarch_group_name(gc->group));
	if (scenario_resolve(&sc, "demo", &t->m.topo, &t->e) != 0)
		fail_msg("%s: scenario: %s", gc->name, t->e.text);
	t->v = vpmu_new(&t->m, &sc, 7);
	scenario_free(&sc);
	assert_non_null(t->v);
	/* An access is an IPI: 1 us each, as in the sim source, so the reads
	 * of one refresh are spread out in time. */
	hz = vpmu_tsc_hz(t->v);
	vpmu_set_access_cost(t->v, (uint64_t)(hz * 1e-6 + 0.5));
	t->f3 = field3_io_new(t->v, &t->m.topo, (gc->fctrl_foreign & FIELD3) != 0);
	t->s = msr_source_new(&t->m, &t->f3->io, "msr", &t->e);
	if (t->s == NULL)
		fail_msg("%s: msr_source_new: %s", gc->name, t->e.text);
	plan_for_machine(&t->plan, &t->m);
	sample_init(&t->prev, t->m.topo.max_cpu, t->plan.nslots, t->m.topo.ncores, true);
	sample_init(&t->cur, t->m.topo.max_cpu, t->plan.nslots, t->m.topo.ncores, true);
	t->regs = gc->amd ? amd_regs : intel_regs;
	t->nregs = gc->amd ? 1 : (unsigned)(sizeof intel_regs / sizeof intel_regs[0]);
	t->before = calloc((size_t)t->m.topo.max_cpu * t->nregs, sizeof *t->before);
	assert_non_null(t->before);
}

static void
genv_teardown(struct genv *t)
{
	source_close(t->s);
	vpmu_free(t->v);
	sample_free(&t->prev);
	sample_free(&t->cur);
	machine_free(&t->m);
	free(t->before);
}

/* Another program's settings on every present CPU. */
static void
poke_foreign(struct genv *t)
{
	const struct gcase *gc = t->gc;
	unsigned cpu;

	for (cpu = 0; cpu < t->m.topo.max_cpu; cpu++) {
		if (!t->m.topo.cpus[cpu].present)
			continue;
		if (gc->amd) {
			vpmu_poke(t->v, cpu, MSR_AMD_HWCR, HWCR_IRPERF);
			continue;
		}
		vpmu_poke(t->v, cpu, MSR_PERF_GLOBAL_CTRL, FOREIGN_GLOBAL);
		vpmu_poke(t->v, cpu, MSR_PERFEVTSEL0 + 1, FOREIGN_SEL1);
		vpmu_poke(t->v, cpu, MSR_FIXED_CTR_CTRL, gc->fctrl_foreign & ~FIELD3);
		t->f3->hi[cpu] = gc->fctrl_foreign & FIELD3;
		vpmu_poke(t->v, cpu, MSR_PERFEVTSEL0, gc->sel0_foreign);
	}
}

static void
snapshot(struct genv *t)
{
	unsigned cpu, r, np = 0;

	for (cpu = 0; cpu < t->m.topo.max_cpu; cpu++) {
		if (!t->m.topo.cpus[cpu].present)
			continue;
		np++;
		for (r = 0; r < t->nregs; r++)
			t->before[(size_t)cpu * t->nregs + r] = reg(t, cpu, t->regs[r]);
	}
	assert_int_equal(np, t->gc->ncpus);
}

/* The foreign values took (the vpmu keeps only bits the CPU has). */
static void
check_foreign_now(struct genv *t, const char *when)
{
	const struct gcase *gc = t->gc;
	unsigned cpu;

	for (cpu = 0; cpu < t->m.topo.max_cpu; cpu++) {
		if (!t->m.topo.cpus[cpu].present)
			continue;
		if (gc->amd) {
			if (reg(t, cpu, MSR_AMD_HWCR) != HWCR_IRPERF)
				fail_msg("%s %s: cpu %u HWCR changed", gc->name, when, cpu);
			continue;
		}
		if (reg(t, cpu, MSR_PERF_GLOBAL_CTRL) != FOREIGN_GLOBAL ||
		    reg(t, cpu, MSR_PERFEVTSEL0 + 1) != FOREIGN_SEL1 ||
		    reg(t, cpu, MSR_FIXED_CTR_CTRL) != gc->fctrl_foreign ||
		    reg(t, cpu, MSR_PERFEVTSEL0) != gc->sel0_foreign)
			fail_msg("%s %s: cpu %u: GLOBAL 0x%llx SEL1 0x%llx FIXED 0x%llx SEL0 0x%llx",
			    gc->name, when, cpu,
			    (unsigned long long)reg(t, cpu, MSR_PERF_GLOBAL_CTRL),
			    (unsigned long long)reg(t, cpu, MSR_PERFEVTSEL0 + 1),
			    (unsigned long long)reg(t, cpu, MSR_FIXED_CTR_CTRL),
			    (unsigned long long)reg(t, cpu, MSR_PERFEVTSEL0));
	}
}

/* What program() must have left on every CPU. */
static void
check_programmed(struct genv *t)
{
	const struct gcase *gc = t->gc;
	unsigned cpu, nt0 = 0, nt1 = 0;

	if (gc->amd) {
		check_foreign_now(t, "programmed");   /* ZEN writes nothing */
		return;
	}
	for (cpu = 0; cpu < t->m.topo.max_cpu; cpu++) {
		const struct topo_cpu *tc = &t->m.topo.cpus[cpu];
		uint64_t sel0, want0;

		if (!tc->present)
			continue;
		if (tc->thread == 0)
			nt0++;
		else
			nt1++;
		want0 = tc->thread == 0 ? gc->sel0_t0 : gc->sel0_t1;
		sel0 = reg(t, cpu, MSR_PERFEVTSEL0);
		if (sel0 != want0)
			fail_msg("%s: cpu %u (thread %u) PERFEVTSEL0 0x%llx, expected 0x%llx", gc->name,
			    cpu, tc->thread, (unsigned long long)sel0, (unsigned long long)want0);
		assert_int_equal(reg(t, cpu, MSR_FIXED_CTR_CTRL), gc->fctrl_run);
		assert_int_equal(reg(t, cpu, MSR_PERF_GLOBAL_CTRL), gc->global_run);
		/* PMC1's select and PERFEVTSEL2/3 are not httop's */
		assert_int_equal(reg(t, cpu, MSR_PERFEVTSEL0 + 1), FOREIGN_SEL1);
		assert_int_equal(reg(t, cpu, MSR_PERFEVTSEL0 + 2), 0);
		assert_int_equal(reg(t, cpu, MSR_PERFEVTSEL0 + 3), 0);
	}
	/* both kinds of CPU were checked */
	assert_true(nt0 > 0 && nt1 > 0);
}

/* Read into `out`, with each core's truth as its first TSC read saw it. */
static void
refresh(struct genv *t, struct sample *out)
{
	if (source_read(t->s, out, &t->e) != 0)
		fail_msg("%s: read: %s", t->gc->name, t->e.text);
	memcpy(out->truth, t->f3->truth, (size_t)t->m.topo.ncores * 4 * sizeof *out->truth);
	out->time = (double)vpmu_now(t->v) / vpmu_tsc_hz(t->v);
}

static void
near_truth(struct genv *t, unsigned ci, const char *what, const struct val *v, double truth)
{
	double d;

	if (v->kind == V_EXACT) {
		d = v->v > truth ? v->v - truth : truth - v->v;
		if (d > t->worst)
			t->worst = d;
		if (d > SPLIT_TOL)
			fail_msg("%s core %u %s: %.6f, truth %.6f", t->gc->name, ci, what, v->v, truth);
	} else if (v->kind == V_BOUND) {
		d = truth < v->lo ? v->lo - truth : truth > v->hi ? truth - v->hi : 0.0;
		if (d > t->worst)
			t->worst = d;
		if (truth < v->lo - BOUND_SLACK || truth > v->hi + BOUND_SLACK)
			fail_msg("%s core %u %s: [%.6f, %.6f], truth %.6f", t->gc->name, ci, what,
			    v->lo, v->hi, truth);
	} else {
		fail_msg("%s core %u %s: no value", t->gc->name, ci, what);
	}
}

/* One interval's cores against the simulator's truth. */
static void
check_interval(struct genv *t, const struct interval *iv)
{
	const struct gcase *gc = t->gc;
	unsigned ci, n2 = 0;

	if (!iv->valid)
		fail_msg("%s: interval invalid: %s", gc->name, iv->reason);
	for (ci = 0; ci < iv->ncores; ci++) {
		const struct core_fig *cf = &iv->cores[ci];
		unsigned n = t->m.topo.cores[ci].nthreads;

		assert_int_equal(cf->reason, R_NONE);
		assert_int_equal(cf->fallback, R_NONE);
		assert_true(cf->has_truth);
		t->nchecked++;
		if (n == 2) {
			n2++;
			assert_int_equal(cf->split, gc->split);
			/* A bound split is exact when its ends meet (a thread idle or
			 * busy all the time); near_truth then holds it to SPLIT_TOL. */
			assert_int_equal(cf->exact, gc->split == SPLIT_ANY || gc->split == SPLIT_OTA ||
			    cf->both.kind == V_EXACT);
			if (gc->split == SPLIT_BOUND && cf->exact)
				t->ntight++;
			near_truth(t, ci, "neither", &cf->neither, cf->truth[0]);
			near_truth(t, ci, "t0 only", &cf->t0_only, cf->truth[1]);
			near_truth(t, ci, "t1 only", &cf->t1_only, cf->truth[2]);
			near_truth(t, ci, "both", &cf->both, cf->truth[3]);
			near_truth(t, ci, "util", &cf->util, 1.0 - cf->truth[0]);
		} else {
			/* 1 or 4 threads: no split; truth[1] is "any thread active" */
			assert_int_equal(cf->split, SPLIT_NONE);
			assert_int_equal(cf->neither.kind, V_NONE);
			near_truth(t, ci, "util", &cf->util, cf->truth[1]);
		}
	}
	if (gc->split == SPLIT_NONE || gc->group == UARCH_KNL)
		assert_int_equal(n2, 0);
	else
		assert_true(n2 > 0);
}

static void
run_case(const struct gcase *gc)
{
	struct genv t;
	struct metrics_ctx mc;
	struct interval iv;
	uint64_t r0, w0, r1, w1;
	unsigned k, cpu, r;

	genv_setup(&t, gc);
	assert_int_equal(t.plan.split, gc->split);
	poke_foreign(&t);
	check_foreign_now(&t, "before");
	snapshot(&t);

	msr_source_io_counts(t.s, &r0, &w0);
	assert_int_equal(r0, 0);
	assert_int_equal(w0, 0);
	if (source_program(t.s, &t.plan, false, &t.e) != 0)
		fail_msg("%s: program: %s", gc->name, t.e.text);
	msr_source_io_counts(t.s, &r0, &w0);
	assert_int_equal(w0, gc->prog_writes);
	assert_int_equal(r0, gc->prog_reads);
	assert_int_equal(vpmu_writes(t.v), gc->prog_writes);
	check_programmed(&t);

	/* One refresh: exactly one read per slot per CPU, no write. */
	refresh(&t, &t.prev);
	msr_source_io_counts(t.s, &r1, &w1);
	assert_int_equal(r1 - r0, gc->refresh_reads);
	assert_int_equal(w1, w0);
	for (cpu = 0; cpu < t.m.topo.max_cpu; cpu++)
		if (t.m.topo.cpus[cpu].present)
			assert_int_equal(t.prev.state[cpu], CPU_READ_OK);

	metrics_ctx_init(&mc, &t.m, &t.plan);
	interval_init(&iv, &t.m);
	for (k = 0; k < NINTERVALS; k++) {
		vpmu_advance(t.v, (uint64_t)(INTERVAL_S * vpmu_tsc_hz(t.v) + 0.5));
		refresh(&t, &t.cur);
		metrics_compute(&mc, &t.prev, &t.cur, &iv);
		check_interval(&t, &iv);
		sample_copy(&t.prev, &t.cur);
	}
	interval_free(&iv);
	print_message("# %s: %s split, %u core-intervals (%u bounds closed to a value), worst "
	    "distance from the truth %.6f\n", gc->name, split_method_name(gc->split), t.nchecked,
	    t.ntight, t.worst);
	msr_source_io_counts(t.s, &r1, &w1);
	assert_int_equal(r1 - r0, (NINTERVALS + 1) * gc->refresh_reads);
	assert_int_equal(w1, gc->prog_writes);

	/* Restore: every register back on every CPU, one write per write. */
	assert_int_equal(source_restore(t.s, &t.e), 0);
	for (cpu = 0; cpu < t.m.topo.max_cpu; cpu++) {
		if (!t.m.topo.cpus[cpu].present)
			continue;
		for (r = 0; r < t.nregs; r++) {
			uint64_t now = reg(&t, cpu, t.regs[r]);

			if (now != t.before[(size_t)cpu * t.nregs + r])
				fail_msg("%s: cpu %u msr 0x%x is 0x%llx after restore, was 0x%llx",
				    gc->name, cpu, (unsigned)t.regs[r], (unsigned long long)now,
				    (unsigned long long)t.before[(size_t)cpu * t.nregs + r]);
		}
	}
	check_foreign_now(&t, "restored");
	msr_source_io_counts(t.s, &r1, &w1);
	assert_int_equal(w1, 2 * gc->prog_writes);
	assert_int_equal(vpmu_writes(t.v), 2 * gc->prog_writes);
	assert_int_equal(source_restore(t.s, &t.e), 0);   /* idempotent */
	msr_source_io_counts(t.s, &r1, &w1);
	assert_int_equal(w1, 2 * gc->prog_writes);
	genv_teardown(&t);
}

static void
test_group(void **state)
{
	run_case(*state);
}

int
main(void)
{
	struct CMUnitTest tests[NCASES];
	size_t i;

	for (i = 0; i < NCASES; i++) {
		tests[i].name = cases[i].name;
		tests[i].test_func = test_group;
		tests[i].setup_func = NULL;
		tests[i].teardown_func = NULL;
		tests[i].initial_state = &cases[i];
	}
	return _cmocka_run_group_tests("msr_groups", tests, NCASES, NULL, NULL);
}
