/* test_msr_safe.c: the msr-safe backend (src/source/msr/msr_io_safe.c) under
 * the real msr engine, with ioctl(2) replaced by a fake of msr-safe's
 * batch device that records every request and answers as the module does
 * (msr_safe.h: the allowlist stage refuses the whole batch, per op; a run
 * fills msrdata). Per-CPU devices are plain sparse files through a path
 * template, as the msr tests use them. Also: the struct layout and ioctl
 * number, and the shipped allowlist against every group's plans.
 *
 * Machine: hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml + cpuid/nhm-ep-e5520-1cpu
 * (group nhm): 16 CPUs, 8 cores, core c = CPUs c and c+8. Its plan
 * (plan.c): slots TSC 0x10, FIXED_CTR0-2 0x309-0x30B on every thread, PMC0
 * 0xC1 (REF_P:ANY) on thread 0 only; writes FIXED_CTR_CTRL 0x38D = 0x333
 * (mask 0xFFF) everywhere, PERFEVTSEL0 0x186 = 0x0063013C (mask ~0) on
 * thread 0, PERF_GLOBAL_CTRL 0x38F = 0x700000001 (mask the same) everywhere.
 * One refresh reads 8 CPUs x 5 + 8 CPUs x 4 = 72 registers. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "machine/machine.h"
#include "plan/plan.h"
#include "source/msr/msr_safe.h"
#include "source/sources.h"

#define NHM_XML   "hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml"
#define NHM_CPUID "cpuid/nhm-ep-e5520-1cpu.cpuid.txt"
#define MAXOPS    128
#define NALLOW    16

/* The fake batch device. */
struct fake {
	unsigned calls;
	unsigned long req;
	uint32_t numops, version;
	struct msr_safe_op sent[MAXOPS];   /* the last request as it arrived */
	int fail_errno;                    /* whole-call failure (ENOTTY...) */
	int offline_cpu;                   /* -1: none */
	uint32_t allow[NALLOW];            /* the allowlist */
	uint64_t wmask[NALLOW];
	unsigned nallow;
};

/* The value a run puts in an op: which call, which CPU, which MSR. */
static uint64_t
fake_value(unsigned call, unsigned cpu, uint32_t msr)
{
	return (uint64_t)call << 40 | (uint64_t)cpu << 32 | msr;
}

static int
fake_allowed(const struct fake *f, uint32_t msr, uint64_t *wmask)
{
	unsigned i;

	for (i = 0; i < f->nallow; i++) {
		if (f->allow[i] == msr) {
			*wmask = f->wmask[i];
			return 1;
		}
	}
	return 0;
}

static int
fake_ioctl(int fd, unsigned long req, void *arg, void *ctx)
{
	struct fake *f = ctx;
	struct msr_safe_batch *b = arg;
	unsigned i;
	int first = 0;

	assert_true(fd >= 0);
	f->calls++;
	f->req = req;
	f->numops = b->numops;
	f->version = b->version;
	assert_true(b->numops <= MAXOPS);
	memcpy(f->sent, b->ops, b->numops * sizeof *b->ops);
	if (f->fail_errno != 0) {
		errno = f->fail_errno;
		return -1;
	}
	for (i = 0; i < b->numops; i++) {
		struct msr_safe_op *op = &b->ops[i];

		op->err = 0;
		if ((int)op->cpu == f->offline_cpu)
			op->err = -ENXIO;
		else if (!fake_allowed(f, op->msr, &op->wmask))
			op->err = -EACCES;
		if (op->err != 0 && first == 0)
			first = op->err;
	}
	if (first != 0) {
		errno = -first;
		return -1;
	}
	for (i = 0; i < b->numops; i++)
		b->ops[i].msrdata = fake_value(f->calls, b->ops[i].cpu, b->ops[i].msr);
	return 0;
}

/* Every MSR the nhm plans use, with the bits they write (see the top). */
static void
fake_allow_nhm(struct fake *f)
{
	static const uint32_t msr[] = { 0x10, 0xC1, 0xCE, 0x186, 0x309, 0x30A, 0x30B, 0x38D,
	    0x38F };
	static const uint64_t mask[] = { 0, 0, 0, ~0ull, 0, 0, 0, 0xFFF, 0x700000001ull };
	unsigned i;

	memset(f, 0, sizeof *f);
	f->offline_cpu = -1;
	for (i = 0; i < sizeof msr / sizeof msr[0]; i++) {
		f->allow[i] = msr[i];
		f->wmask[i] = mask[i];
	}
	f->nallow = i;
}

struct t {
	char dir[64];
	char tmpl[128];
	char batch[128];
	struct machine m;
	struct plan plan;
	struct source *s;
	struct sample smp;
	struct errmsg e;
	struct fake f;
};

/* 16 per-CPU files of 0x400 bytes (every Intel MSR used is below it) and
 * a batch "device" file. */
static void
setup_files(struct t *t)
{
	char path[256];
	unsigned cpu;
	int fd;

	snprintf(t->dir, sizeof t->dir, "/tmp/test_msr_safe.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	for (cpu = 0; cpu < 16; cpu++) {
		snprintf(path, sizeof path, "%s/%u", t->dir, cpu);
		assert_int_equal(mkdir(path, 0700), 0);
		snprintf(path, sizeof path, "%s/%u/msr_safe", t->dir, cpu);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, 0x400), 0);
		close(fd);
	}
	snprintf(t->tmpl, sizeof t->tmpl, "%s/%%u/msr_safe", t->dir);
	snprintf(t->batch, sizeof t->batch, "%s/msr_batch", t->dir);
	fd = open(t->batch, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static void
cleanup_files(struct t *t)
{
	char path[256];
	unsigned cpu;

	for (cpu = 0; cpu < 16; cpu++) {
		snprintf(path, sizeof path, "%s/%u/msr_safe", t->dir, cpu);
		unlink(path);
		snprintf(path, sizeof path, "%s/%u", t->dir, cpu);
		rmdir(path);
	}
	unlink(t->batch);
	rmdir(t->dir);
}

static uint64_t
file_reg(const struct t *t, unsigned cpu, uint32_t msr)
{
	char path[256];
	uint64_t v = 0xdeadbeef;
	int fd;

	snprintf(path, sizeof path, "%s/%u/msr_safe", t->dir, cpu);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &v, sizeof v, msr), (ssize_t)sizeof v);
	close(fd);
	return v;
}

static void
load(struct t *t)
{
	char xml[4096];

	memset(t, 0, sizeof *t);
	setup_files(t);
	snprintf(xml, sizeof xml, "%s", fixture(NHM_XML));
	if (machine_load(&t->m, xml, fixture(NHM_CPUID), &t->e) != 0)
		fail_msg("machine_load: %s", t->e.text);
	assert_int_equal(t->m.group, UARCH_NHM);
	assert_int_equal(t->m.topo.max_cpu, 16);
	plan_for_machine(&t->plan, &t->m);
	fake_allow_nhm(&t->f);
}

static void
unload(struct t *t)
{
	if (t->s != NULL)
		source_close(t->s);
	if (t->smp.state != NULL)
		sample_free(&t->smp);
	machine_free(&t->m);
	cleanup_files(t);
}

/* Open the source over the fake and program the plan. */
static void
open_program(struct t *t)
{
	struct msr_io *io = msr_io_safe_new_test(t->tmpl, t->batch, t->m.topo.max_cpu,
	    fake_ioctl, &t->f);

	t->s = msr_safe_source_new(&t->m, io, &t->e);
	if (t->s == NULL)
		fail_msg("msr_safe_source_new: %s", t->e.text);
	assert_string_equal(t->s->name, "msr-safe");
	if (source_program(t->s, &t->plan, false, &t->e) != 0)
		fail_msg("program: %s", t->e.text);
	sample_init(&t->smp, t->m.topo.max_cpu, t->plan.nslots, t->m.topo.ncores, false);
}

/* The kernel's layout (msr_safe.h in LLNL/msr-safe): op = u16 cpu, u16
 * isrdmsr, s32 err, u32 msr, (4 bytes padding), u64 msrdata, u64 wmask =
 * 32 bytes; array = u32 numops, u32 version, pointer = 16 bytes.
 * _IOWR('c', 0xA2, 16 bytes) = dir 3 << 30 | 16 << 16 | 0x63 << 8 | 0xA2
 * = 0xC0000000 + 0x00100000 + 0x6300 + 0xA2 = 0xC01063A2. Version 2.0.0 =
 * 2 << 16 = 0x20000. */
static void
test_abi(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct msr_safe_op, cpu), 0);
	assert_int_equal(offsetof(struct msr_safe_op, isrdmsr), 2);
	assert_int_equal(offsetof(struct msr_safe_op, err), 4);
	assert_int_equal(offsetof(struct msr_safe_op, msr), 8);
	assert_int_equal(offsetof(struct msr_safe_op, msrdata), 16);
	assert_int_equal(offsetof(struct msr_safe_op, wmask), 24);
	assert_int_equal(sizeof(struct msr_safe_op), 32);
	assert_int_equal(offsetof(struct msr_safe_batch, numops), 0);
	assert_int_equal(offsetof(struct msr_safe_batch, version), 4);
	assert_int_equal(offsetof(struct msr_safe_batch, ops), 8);
	assert_int_equal(sizeof(struct msr_safe_batch), 16);
	assert_int_equal((unsigned long)MSR_SAFE_IOC_BATCH, 0xC01063A2ul);
	assert_int_equal(MSR_SAFE_VERSION, 0x20000);
}

/* The i-th read of a refresh, by hand: core c (0..7) = CPU c then c+8;
 * thread 0 reads 0x10 0x309 0x30A 0x30B 0xC1, thread 1 the first four. */
static void
expected_op(unsigned i, unsigned *cpu, uint32_t *msr)
{
	static const uint32_t t0[] = { 0x10, 0x309, 0x30A, 0x30B, 0xC1 };
	unsigned core = i / 9, k = i % 9;

	if (k < 5) {
		*cpu = core;
		*msr = t0[k];
	} else {
		*cpu = core + 8;
		*msr = t0[k - 5];
	}
}

static void
test_batch_refresh(void **state)
{
	struct t t;
	uint64_t reads = 0, writes = 0;
	unsigned i, cpu;
	uint32_t msr;

	(void)state;
	load(&t);
	open_program(&t);
	/* The allowlist check: one batch of the 9 nhm MSRs on CPU 0, sorted. */
	assert_int_equal(t.f.calls, 1);
	assert_int_equal(t.f.numops, 9);
	assert_int_equal(t.f.sent[0].msr, 0x10);
	assert_int_equal(t.f.sent[8].msr, 0x38F);
	assert_int_equal(t.f.sent[8].cpu, 0);
	assert_int_equal(t.f.sent[8].wmask, 0);

	/* Writes went through the per-CPU devices. In a plain file the 8
	 * bytes at 0x38D and at 0x38F overlap, and 0x38F is written last, so
	 * only the low 16 bits read back at 0x38D are FIXED_CTR_CTRL's. */
	assert_int_equal(file_reg(&t, 0, 0x186), 0x0063013C);
	assert_int_equal(file_reg(&t, 0, 0x38D) & 0xFFFF, 0x333);
	assert_int_equal(file_reg(&t, 0, 0x38F), 0x700000001ull);
	assert_int_equal(file_reg(&t, 8, 0x186), 0);      /* thread 1: not written */
	assert_int_equal(file_reg(&t, 8, 0x38D) & 0xFFFF, 0x333);
	assert_int_equal(file_reg(&t, 15, 0x38F), 0x700000001ull);

	msr_source_io_counts(t.s, &reads, &writes);
	/* 16 x 2 + 8 = 40 writes (FIXED_CTR_CTRL, GLOBAL_CTRL, thread-0 SEL0). */
	assert_int_equal(writes, 40);

	/* Refresh 1 = ioctl call 2: 72 reads, core by core. */
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	assert_int_equal(t.f.calls, 2);
	assert_int_equal(t.f.req, 0xC01063A2ul);
	assert_int_equal(t.f.version, 0x20000);
	assert_int_equal(t.f.numops, 72);
	for (i = 0; i < 72; i++) {
		expected_op(i, &cpu, &msr);
		assert_int_equal(t.f.sent[i].cpu, cpu);
		assert_int_equal(t.f.sent[i].msr, msr);
		assert_int_equal(t.f.sent[i].isrdmsr, 1);
		assert_int_equal(t.f.sent[i].wmask, 0);
		assert_int_equal(t.f.sent[i].err, 0);
		assert_int_equal(t.f.sent[i].msrdata, 0);
	}
	/* The sample holds what the batch returned: slot 0 TSC, slot 4 PMC0. */
	for (cpu = 0; cpu < 16; cpu++)
		assert_int_equal(t.smp.state[cpu], CPU_READ_OK);
	assert_int_equal(sample_row(&t.smp, 0)[0], fake_value(2, 0, 0x10));
	assert_int_equal(sample_row(&t.smp, 3)[4], fake_value(2, 3, 0xC1));
	assert_int_equal(sample_row(&t.smp, 11)[3], fake_value(2, 11, 0x30B));

	/* Refresh 2: exactly one more ioctl, fresh values. */
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	assert_int_equal(t.f.calls, 3);
	assert_int_equal(sample_row(&t.smp, 7)[1], fake_value(3, 7, 0x309));

	/* Restore: every register back to its saved 0. */
	assert_int_equal(source_restore(t.s, &t.e), 0);
	assert_int_equal(file_reg(&t, 0, 0x186), 0);
	assert_int_equal(file_reg(&t, 0, 0x38D), 0);
	assert_int_equal(file_reg(&t, 15, 0x38F), 0);
	unload(&t);
}

/* CPU 9 (core 1, thread 1) offline: the module refuses the whole batch
 * (ENXIO on its 4 ops); the rest run in a second call of 72 - 4 = 68. */
static void
test_offline_cpu(void **state)
{
	struct t t;

	(void)state;
	load(&t);
	open_program(&t);
	t.f.offline_cpu = 9;
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	assert_int_equal(t.f.calls, 1 + 2);
	assert_int_equal(t.f.numops, 68);
	assert_int_equal(t.smp.state[9], CPU_OFFLINE);
	assert_int_equal(t.smp.state[1], CPU_READ_OK);
	assert_int_equal(t.smp.state[10], CPU_READ_OK);
	/* The retried ops were the third call: CPU 10 is core 2's thread 1. */
	assert_int_equal(sample_row(&t.smp, 10)[0], fake_value(3, 10, 0x10));
	unload(&t);
}

/* An allowlist changed mid-run to drop FIXED_CTR1 (0x30A): every CPU's
 * read of it fails with EACCES, so every CPU is a read error (EACCES),
 * from one refused call and one retry of 72 - 16 = 56 ops. */
static void
test_denied_midrun(void **state)
{
	struct t t;

	(void)state;
	load(&t);
	open_program(&t);
	t.f.allow[5] = 0x999;   /* 0x30A gone */
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	assert_int_equal(t.f.calls, 3);
	assert_int_equal(t.f.numops, 56);
	assert_int_equal(t.smp.state[0], CPU_READ_ERROR);
	assert_int_equal(t.smp.err[0], EACCES);
	assert_int_equal(t.smp.state[15], CPU_READ_ERROR);
	unload(&t);
}

/* Opening with an allowlist that lacks PERF_GLOBAL_CTRL (httop writes
 * bits 0x700000001 of it): refused before anything is written, with the
 * line to add; nothing written to any file. */
static void
test_denied_at_open(void **state)
{
	struct t t;
	struct msr_io *io;

	(void)state;
	load(&t);
	t.f.nallow = 8;          /* drops the last entry, 0x38F */
	io = msr_io_safe_new_test(t.tmpl, t.batch, 16, fake_ioctl, &t.f);
	t.s = msr_safe_source_new(&t.m, io, &t.e);
	assert_null(t.s);
	assert_non_null(strstr(t.e.text, "lacks MSR 0x38F (PERF_GLOBAL_CTRL)"));
	assert_non_null(strstr(t.e.text, "'0x0000038F 0x0000000700000001'"));
	assert_non_null(strstr(t.e.text, "/dev/cpu/msr_allowlist"));
	assert_int_equal(file_reg(&t, 0, 0x38F), 0);
	unload(&t);
}

/* PERFEVTSEL0 listed with write mask 0xFFFFFFFF only: httop writes the
 * whole register (mask ~0), so it says which line to use instead. */
static void
test_short_mask(void **state)
{
	struct t t;
	struct msr_io *io;

	(void)state;
	load(&t);
	t.f.wmask[3] = 0xFFFFFFFFull;
	io = msr_io_safe_new_test(t.tmpl, t.batch, 16, fake_ioctl, &t.f);
	t.s = msr_safe_source_new(&t.m, io, &t.e);
	assert_null(t.s);
	assert_non_null(strstr(t.e.text, "write bits 0xFFFFFFFF of MSR 0x186 (PERFEVTSEL0)"));
	assert_non_null(strstr(t.e.text, "'0x00000186 0xFFFFFFFFFFFFFFFF'"));
	unload(&t);
}

/* The module answers ENOTTY (not a batch device): that refresh and every
 * later one read the per-CPU files, and no further ioctl is made. The
 * files hold 0 for the counters. */
static void
test_enotty_fallback(void **state)
{
	struct t t;

	(void)state;
	load(&t);
	open_program(&t);
	t.f.fail_errno = ENOTTY;
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	assert_int_equal(t.f.calls, 2);
	assert_int_equal(t.smp.state[0], CPU_READ_OK);
	assert_int_equal(sample_row(&t.smp, 0)[0], 0);
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	assert_int_equal(t.f.calls, 2);
	unload(&t);
}

/* No batch device at all: reads and the allowlist check go CPU by CPU
 * (the files answer every read), and the detail says why. */
static void
test_no_batch_device(void **state)
{
	struct t t;
	struct msr_io *io;

	(void)state;
	load(&t);
	unlink(t.batch);
	io = msr_io_safe_new_test(t.tmpl, t.batch, 16, fake_ioctl, &t.f);
	t.s = msr_safe_source_new(&t.m, io, &t.e);
	if (t.s == NULL)
		fail_msg("%s", t.e.text);
	assert_non_null(strstr(t.s->detail, "reading CPU by CPU"));
	assert_int_equal(source_program(t.s, &t.plan, false, &t.e), 0);
	sample_init(&t.smp, 16, t.plan.nslots, t.m.topo.ncores, false);
	assert_int_equal(source_read(t.s, &t.smp, &t.e), 0);
	assert_int_equal(t.f.calls, 0);
	assert_int_equal(t.smp.state[5], CPU_READ_OK);
	unload(&t);
}

/* A missing per-CPU device names msr-safe, not the msr driver. */
static void
test_missing_device(void **state)
{
	struct t t;
	struct msr_io *io;
	char tmpl[160];

	(void)state;
	load(&t);
	snprintf(tmpl, sizeof tmpl, "%s/none/%%u/msr_safe", t.dir);
	io = msr_io_safe_new_test(tmpl, t.batch, 16, fake_ioctl, &t.f);
	t.s = msr_safe_source_new(&t.m, io, &t.e);
	assert_null(t.s);
	assert_non_null(strstr(t.e.text, "none/0/msr_safe does not exist"));
	assert_non_null(strstr(t.e.text, "--msr-safe-path"));
	unload(&t);
}

/* data/msr-safe/allowlist against every group's plans on real machines.
 * The union worked out from plan.c (reads: mask 0):
 *   0x10 TSC, 0xC1 PMC0, 0xCE PLATFORM_INFO (Intel), 0xE7 MPERF, 0xE8
 *   APERF (zen), 0x309-0x30B fixed counters, 0xC00000E9 IRPerfCount (zen);
 *   writes: 0x186 PERFEVTSEL0 ~0 (nhm/snb/skx/icx and calibration),
 *   0x38D FIXED_CTR_CTRL 0xFFF, 0x38F GLOBAL_CTRL 0x700000000 | 0x1
 *   (PMC0 where a plan uses it) = 0x700000001. 12 entries. */
static const struct {
	const char *xml, *cpuid;
} machines[] = {
	{ "hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml", "cpuid/nhm-ep-e5520-1cpu.cpuid.txt" },
	{ "hwloc/snb-ep-e5-2650-2s-8c-ht.xml", "cpuid/snb-ep-e5-2687w-1cpu.cpuid.txt" },
	{ "hwloc/skx-6140-2s-18c-ht.x86.xml", "cpuid/skx-6154-2s-18c-ht.cpuid.txt" },
	{ "hwloc/spr-max9462-2s-32c-ht.xml", "cpuid/icx-d-1718t-1s-4c-ht.cpuid.txt" },
	{ "hwloc/spr-max9460-2s-40c-ht.x86.xml", "cpuid/spr-w7-2475x-1s-20c-ht.cpuid.txt" },
	{ "hwloc/knl-7250-68c-4t-flat-quadrant.xml", NULL },
	{ "hwloc/zen2-epyc7742-2s-64c-smt.xml", "cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt" },
	{ "hwloc/rpl-i7-1370p-6p8e-hybrid.x86.xml", "cpuid/adl-s-i9-12900k-8p8e.cpuid.txt" },
};

static void
test_allowlist_file(void **state)
{
	static const uint32_t want_msr[] = { 0x10, 0xC1, 0xCE, 0xE7, 0xE8, 0x186, 0x309, 0x30A,
	    0x30B, 0x38D, 0x38F, 0xC00000E9u };
	static const uint64_t want_mask[] = { 0, 0, 0, 0, 0, ~0ull, 0, 0, 0, 0xFFF,
	    0x700000001ull, 0 };
	uint32_t file_msr[32], un_msr[32];
	uint64_t file_mask[32], un_mask[32];
	unsigned nfile = 0, nun = 0, i, j, k;
	char line[256], xml[4096];
	FILE *fp;

	(void)state;
	/* The file: "0xADDR 0xMASK", '#' comments, as msr-safe parses it. */
	fp = fopen(srcfile("data/msr-safe/allowlist"), "r");
	assert_non_null(fp);
	while (fgets(line, sizeof line, fp) != NULL) {
		unsigned long long a, mk;
		char *p = line;

		assert_non_null(strchr(line, '\n'));   /* msr-safe needs the newline */
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n')
			continue;
		assert_int_equal(sscanf(p, "0x%llx 0x%llx", &a, &mk), 2);
		assert_true(nfile < 32);
		for (j = 0; j < nfile; j++)
			assert_true(file_msr[j] != a);       /* a duplicate fails the load */
		file_msr[nfile] = (uint32_t)a;
		file_mask[nfile++] = mk;
	}
	fclose(fp);

	/* The union over the groups, through msr_safe_needs(). */
	for (k = 0; k < sizeof machines / sizeof machines[0]; k++) {
		struct machine m;
		struct msr_need need[MSR_SAFE_MAX_NEEDS];
		struct errmsg e;
		unsigned n;

		snprintf(xml, sizeof xml, "%s", fixture(machines[k].xml));
		if (machine_load(&m, xml, machines[k].cpuid ? fixture(machines[k].cpuid) : NULL,
		    &e) != 0)
			fail_msg("%s: %s", machines[k].xml, e.text);
		n = msr_safe_needs(&m, need, MSR_SAFE_MAX_NEEDS);
		for (i = 0; i < n; i++) {
			for (j = 0; j < nun && un_msr[j] != need[i].msr; j++)
				;
			if (j == nun) {
				un_msr[nun] = need[i].msr;
				un_mask[nun++] = 0;
			}
			un_mask[j] |= need[i].wmask;
		}
		machine_free(&m);
	}
	assert_int_equal(nun, 12);
	assert_int_equal(nfile, 12);
	for (i = 0; i < 12; i++) {
		for (j = 0; j < nun && un_msr[j] != want_msr[i]; j++)
			;
		assert_true(j < nun);
		assert_int_equal(un_mask[j], want_mask[i]);
		for (j = 0; j < nfile && file_msr[j] != want_msr[i]; j++)
			;
		if (j == nfile)
			fail_msg("allowlist lacks 0x%X", want_msr[i]);
		assert_int_equal(file_mask[j], want_mask[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abi),
		cmocka_unit_test(test_batch_refresh),
		cmocka_unit_test(test_offline_cpu),
		cmocka_unit_test(test_denied_midrun),
		cmocka_unit_test(test_denied_at_open),
		cmocka_unit_test(test_short_mask),
		cmocka_unit_test(test_enotty_fallback),
		cmocka_unit_test(test_no_batch_device),
		cmocka_unit_test(test_missing_device),
		cmocka_unit_test(test_allowlist_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
