/* test_perf_source.c: the perf_event source (src/source/perf/perf_source.c)
 * driven through a fake kernel (a perf_sys whose counts, times, files and
 * errors the test chooses), then against the real kernel of this machine.
 *
 * Machines (tests/fixtures):
 * - SKX: hwloc/skx-6140-2s-18c-ht.x86.xml + cpuid/skx-6154-2s-18c-ht.cpuid.txt:
 *   36 cores, 72 CPUs, thread 0 of every core is CPU 0..35, thread 1 is
 *   36..71 (core 0 = {0, 36}). Base 3.0 GHz (CPUID 16H: 3000 MHz), so a
 *   derived TSC is 3 ticks per ns. Machine plan (plan.c): TSC, fixed 0-2
 *   on every thread, REF_XCLK:ANY on PMC0 of thread 0, split "any".
 * - ICX: cpuid/icx-d-1718t-1s-4c-ht.cpuid.txt (family 6 model 0x6C) on a
 *   synthetic 1 package x 4 cores x 2 threads topology: ONE_THREAD_ACTIVE
 *   on every thread.
 *
 * Event encodings the source must ask for (perf_event_open(2),
 * linux/perf_event.h): instructions = HARDWARE/1, cycles = HARDWARE/0,
 * ref-cycles = HARDWARE/9; REF_XCLK:ANY = RAW 0x3C | 0x01 << 8 | 1 << 21 =
 * 0x20013C; ONE_THREAD_ACTIVE = RAW 0x023C; msr/tsc = the msr PMU's type
 * (the fake says 9) with config 0 ("event=0x00" in sysfs). */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "unit/testutil.h"
#include "util/clock.h"

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "out/batch.h"
#include "plan/plan.h"
#include "source/perf/perf_source.h"
#include "source/sources.h"

#define SKX_XML   "hwloc/skx-6140-2s-18c-ht.x86.xml"
#define SKX_CPUID "cpuid/skx-6154-2s-18c-ht.cpuid.txt"
#define ICX_CPUID "cpuid/icx-d-1718t-1s-4c-ht.cpuid.txt"

#define MSR_TYPE 9u
#define FAKE_MAX_EV 1024
#define FAKE_MAX_CPU 128
#define FD0 100

/* ---- the fake kernel ---- */

struct fake_ev {
	bool live;
	int cpu;
	uint32_t type;
	uint64_t config;
	int leader;          /* fd of the group leader; its own fd for a leader */
	bool pinned;
	uint64_t value;
};

struct fake {
	struct perf_sys sys;
	struct fake_ev ev[FAKE_MAX_EV];
	int nev;
	const char *paranoid;    /* file contents; NULL: ENOENT */
	const char *msr_type;
	const char *msr_tsc;
	int err_hw;              /* errno for every HARDWARE open, 0: fine */
	int err_any;             /* errno for RAW with AnyThread */
	int err_raw;             /* errno for every RAW */
	int err_all;             /* errno for every open */
	int fail_cpu, fail_cpu_err; /* open on fail_cpu gives this errno */
	int max_live;            /* EMFILE beyond this many open fds (0: no limit) */
	int read_cpu, read_ret;  /* read on read_cpu's leader returns this (-errno or 0) */
	unsigned priv;           /* PERF_PRIV_* the process holds */
	uint64_t en[FAKE_MAX_CPU], run[FAKE_MAX_CPU];
	unsigned nreads, nlive;
};

static struct fake *
fk(struct perf_sys *s)
{
	return (struct fake *)s;
}

static int
f_open(struct perf_sys *s, const struct perf_event_attr *a, int cpu, int group_fd)
{
	struct fake *f = fk(s);
	struct fake_ev *ev;
	int fd;

	if (f->err_all)
		return -f->err_all;
	if (cpu == f->fail_cpu && f->fail_cpu_err)
		return -f->fail_cpu_err;
	if (a->type == PERF_TYPE_HARDWARE && f->err_hw)
		return -f->err_hw;
	if (a->type == PERF_TYPE_RAW && f->err_raw)
		return -f->err_raw;
	if (a->type == PERF_TYPE_RAW && (a->config & (1u << 21)) && f->err_any)
		return -f->err_any;
	if (a->type == MSR_TYPE && f->msr_type == NULL)
		return -ENOENT;
	if (f->max_live && (int)f->nlive >= f->max_live)
		return -EMFILE;
	if (a->read_format != (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING) || a->size != sizeof *a)
		return -EINVAL;
	if (group_fd >= 0 && (group_fd < FD0 || !f->ev[group_fd - FD0].live ||
	    f->ev[group_fd - FD0].cpu != cpu))
		return -EINVAL;
	if (a->pinned && group_fd >= 0)
		return -EINVAL;   /* only a leader may be pinned */
	assert_true(f->nev < FAKE_MAX_EV);
	fd = FD0 + f->nev;
	ev = &f->ev[f->nev++];
	ev->live = true;
	ev->cpu = cpu;
	ev->type = a->type;
	ev->config = a->config;
	ev->leader = group_fd >= 0 ? group_fd : fd;
	ev->pinned = a->pinned;
	ev->value = 0;
	f->nlive++;
	/* A new group starts from zero time. */
	if (group_fd < 0 && cpu < FAKE_MAX_CPU)
		f->en[cpu] = f->run[cpu] = 0;
	return fd;
}

static ssize_t
f_read(struct perf_sys *s, int fd, void *buf, size_t len)
{
	struct fake *f = fk(s);
	uint64_t *w = buf;
	struct fake_ev *l = &f->ev[fd - FD0];
	size_t n = 0;
	int i;

	f->nreads++;
	assert_true(l->live && l->leader == fd);
	if (l->cpu == f->read_cpu && f->read_ret <= 0 && f->read_cpu >= 0) {
		int r = f->read_ret;

		f->read_cpu = -1;
		return r;
	}
	for (i = 0; i < f->nev; i++)
		if (f->ev[i].live && f->ev[i].leader == fd)
			n++;
	assert_true((3 + n) * 8 <= len);
	w[0] = n;
	w[1] = f->en[l->cpu];
	w[2] = f->run[l->cpu];
	n = 3;
	/* Leader first, then members in the order they were opened. */
	for (i = 0; i < f->nev; i++)
		if (f->ev[i].live && f->ev[i].leader == fd)
			w[n++] = f->ev[i].value;
	return (ssize_t)(n * 8);
}

static void
f_close(struct perf_sys *s, int fd)
{
	struct fake *f = fk(s);

	assert_true(f->ev[fd - FD0].live);
	f->ev[fd - FD0].live = false;
	f->nlive--;
}

static int
f_read_file(struct perf_sys *s, const char *path, char *buf, size_t len)
{
	struct fake *f = fk(s);
	const char *v = NULL;

	if (strcmp(path, "/proc/sys/kernel/perf_event_paranoid") == 0)
		v = f->paranoid;
	else if (strcmp(path, "/sys/bus/event_source/devices/msr/type") == 0)
		v = f->msr_type;
	else if (strcmp(path, "/sys/bus/event_source/devices/msr/events/tsc") == 0)
		v = f->msr_type != NULL ? f->msr_tsc : NULL;
	if (v == NULL)
		return -ENOENT;
	snprintf(buf, len, "%s", v);
	return 0;
}

static void
f_destroy(struct perf_sys *s)
{
	(void)s;   /* the test owns it */
}

static unsigned
f_privilege(struct perf_sys *s)
{
	return fk(s)->priv;
}

static void
fake_init(struct fake *f)
{
	memset(f, 0, sizeof *f);
	f->sys.open = f_open;
	f->sys.read = f_read;
	f->sys.close = f_close;
	f->sys.read_file = f_read_file;
	f->sys.privilege = f_privilege;
	f->sys.destroy = f_destroy;
	f->paranoid = "0";
	f->msr_type = "9";
	f->msr_tsc = "event=0x00";
	f->fail_cpu = -1;
	f->read_cpu = -1;
}

/* The live event of this cpu, type and config. */
static struct fake_ev *
fake_find(struct fake *f, int cpu, uint32_t type, uint64_t config)
{
	int i;

	for (i = 0; i < f->nev; i++)
		if (f->ev[i].live && f->ev[i].cpu == cpu && f->ev[i].type == type &&
		    f->ev[i].config == config)
			return &f->ev[i];
	return NULL;
}

static void
fake_set(struct fake *f, int cpu, uint32_t type, uint64_t config, uint64_t v)
{
	struct fake_ev *ev = fake_find(f, cpu, type, config);

	assert_non_null(ev);
	ev->value = v;
}

/* tsc, instructions, cycles, ref-cycles, AnyThread (thread 0 only). */
static void
fake_counts(struct fake *f, int cpu, uint64_t en, uint64_t run, uint64_t tsc, uint64_t inst,
    uint64_t cyc, uint64_t ref, uint64_t any)
{
	f->en[cpu] = en;
	f->run[cpu] = run;
	fake_set(f, cpu, MSR_TYPE, 0, tsc);
	fake_set(f, cpu, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, inst);
	fake_set(f, cpu, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, cyc);
	fake_set(f, cpu, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, ref);
	if (fake_find(f, cpu, PERF_TYPE_RAW, 0x20013C) != NULL)
		fake_set(f, cpu, PERF_TYPE_RAW, 0x20013C, any);
}

/* Every other CPU: enabled and running for the same time. */
static void
fake_tick_all(struct fake *f, uint64_t en)
{
	int c;

	for (c = 0; c < FAKE_MAX_CPU; c++)
		f->en[c] = f->run[c] = en;
}

/* ---- helpers ---- */

static void
load_skx(struct machine *m)
{
	struct errmsg e = { "" };
	char xml[4096];

	/* fixture() has one static buffer. */
	snprintf(xml, sizeof xml, "%s", fixture(SKX_XML));
	memset(m, 0, sizeof *m);
	if (machine_load(m, xml, fixture(SKX_CPUID), &e) != 0)
		fail_msg("%s", e.text);
	assert_int_equal(m->group, UARCH_SKX);
	assert_int_equal(m->topo.max_cpu, 72);
}

static struct source *
open_ok(struct machine *m, struct plan *p, struct fake *f)
{
	struct errmsg e = { "" };
	struct source *s = perf_source_new(m, p, &f->sys, false, &e);

	if (s == NULL)
		fail_msg("perf_source_new: %s", e.text);
	return s;
}

static void
program_ok(struct source *s, const struct plan *p)
{
	struct errmsg e = { "" };

	if (source_program(s, p, false, &e) != 0)
		fail_msg("program: %s", e.text);
}

static void
read_ok(struct source *s, struct sample *out)
{
	struct errmsg e = { "" };
	double before = clock_wall();

	if (source_read(s, out, &e) != 0)
		fail_msg("read: %s", e.text);
	/* Every read carries its wall-clock time. */
	assert_true(out->wall >= before && out->wall <= clock_wall());
}

static const char *
open_fails(struct machine *m, struct fake *f)
{
	static struct errmsg e;
	struct plan p;

	memset(&e, 0, sizeof e);
	assert_null(perf_source_new(m, &p, &f->sys, false, &e));
	assert_int_equal(f->nlive, 0);
	return e.text;
}

/* open_fails under --source auto, where the msr source failed first. */
static const char *
open_fails_auto(struct machine *m, struct fake *f)
{
	static struct errmsg e;
	struct plan p;

	memset(&e, 0, sizeof e);
	assert_null(perf_source_new(m, &p, &f->sys, true, &e));
	assert_int_equal(f->nlive, 0);
	return e.text;
}

/* Does the JSON record starting at `start` (up to the next `next`) hold
 * `what`? */
static bool
record_has(const char *json, const char *start, const char *next, const char *what)
{
	const char *a = strstr(json, start), *b, *w;

	assert_non_null(a);
	b = strstr(a + strlen(start), next);
	w = strstr(a, what);
	return w != NULL && (b == NULL || w < b);
}

/* ---- tests ---- */

/* The plan on SKX with everything allowed: the machine's slots, 64 bits,
 * no writes; one group per CPU led by the pinned instructions event. */
static void
test_plan_skx(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct fake_ev *lead, *tsc;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	s = open_ok(&m, &p, &f);
	assert_int_equal(f.nlive, 0);   /* probes are closed again */
	assert_int_equal(p.nwrites, 0);
	assert_int_equal(p.split, SPLIT_ANY);
	assert_int_equal(p.nslots, 5);
	assert_int_equal(p.slots[0].kind, SLOT_TSC);
	assert_int_equal(p.slots[4].kind, SLOT_ANY);
	assert_int_equal(p.slots[4].thread_mask, THREAD_0);
	assert_int_equal(p.slots[1].width, 64);
	assert_string_equal(p.summary, "skx via perf: AnyThread raw 0x20013c on thread 0; "
	    "TSC from msr/tsc");
	assert_string_equal(s->name, "perf");
	/* --force has nothing to take over here, and the source says why. */
	assert_string_equal(s->force_moot, "the kernel shares the counters between programs");
	assert_string_equal(s->detail, "perf_event_open, perf_event_paranoid 0");
	program_ok(s, &p);
	/* 36 thread-0 CPUs x 5 events + 36 thread-1 CPUs x 4 events. */
	assert_int_equal(f.nlive, 36 * 5 + 36 * 4);
	lead = fake_find(&f, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	tsc = fake_find(&f, 0, MSR_TYPE, 0);
	assert_non_null(lead);
	assert_non_null(tsc);
	assert_true(lead->pinned);
	assert_int_equal(lead->leader, FD0 + (int)(lead - f.ev));
	assert_int_equal(tsc->leader, lead->leader);
	assert_false(tsc->pinned);
	assert_non_null(fake_find(&f, 0, PERF_TYPE_RAW, 0x20013C));
	assert_null(fake_find(&f, 36, PERF_TYPE_RAW, 0x20013C));
	/* The same plan again: nothing reopened. */
	program_ok(s, &p);
	assert_int_equal(f.nev, 6 + 324);   /* 6 probes, then the groups */
	source_close(s);
	assert_int_equal(f.nlive, 0);
	machine_free(&m);
}

/* Two refreshes give the exact deltas, one read() per CPU per refresh.
 * CPU 0 (thread 0 of core 0) and CPU 36 (its sibling), all counts from
 * the group's start at zero:
 *            en(ns)   tsc      inst     cycles   ref      any
 *   read 1   1e6      3.0e6    1.5e6    2.4e6    1.8e6    20000
 *   read 2   2e6      6.0e6    2.0e6    4.0e6    3.0e6    40000
 * CPU 0 row after read 2 = the read-2 counts; delta = 3e6, 5e5, 1.6e6,
 * 1.2e6, 20000. CPU 36 has no AnyThread slot: its column 4 stays 0. */
static void
test_two_refreshes(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct sample a, b;
	const uint64_t *r;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	s = open_ok(&m, &p, &f);
	program_ok(s, &p);
	sample_init(&a, 72, p.nslots, m.topo.ncores, false);
	sample_init(&b, 72, p.nslots, m.topo.ncores, false);
	fake_tick_all(&f, 1000000);
	fake_counts(&f, 0, 1000000, 1000000, 3000000, 1500000, 2400000, 1800000, 20000);
	fake_counts(&f, 36, 1000000, 1000000, 3000000, 100000, 300000, 300000, 0);
	read_ok(s, &a);
	fake_tick_all(&f, 2000000);
	fake_counts(&f, 0, 2000000, 2000000, 6000000, 2000000, 4000000, 3000000, 40000);
	fake_counts(&f, 36, 2000000, 2000000, 6000000, 700000, 1500000, 1500000, 0);
	read_ok(s, &b);
	assert_int_equal(f.nreads, 2 * 72);
	r = sample_row_c(&a, 0);
	assert_int_equal(r[0], 3000000);
	assert_int_equal(r[4], 20000);
	r = sample_row_c(&b, 0);
	assert_int_equal(r[0] - sample_row_c(&a, 0)[0], 3000000);
	assert_int_equal(r[1] - sample_row_c(&a, 0)[1], 500000);
	assert_int_equal(r[2] - sample_row_c(&a, 0)[2], 1600000);
	assert_int_equal(r[3] - sample_row_c(&a, 0)[3], 1200000);
	assert_int_equal(r[4] - sample_row_c(&a, 0)[4], 20000);
	r = sample_row_c(&b, 36);
	assert_int_equal(r[1], 700000);
	assert_int_equal(r[3], 1500000);
	assert_int_equal(r[4], 0);
	assert_int_equal(b.state[0], CPU_READ_OK);
	assert_int_equal(b.state[36], CPU_READ_OK);
	assert_int_equal(b.scaled[0], 0);
	assert_int_equal(b.seq, 1);
	sample_free(&a);
	sample_free(&b);
	source_close(s);
	machine_free(&m);
}

/* Multiplexing: CPU 0's group ran 0.5e6 of the 1e6 ns of the second
 * interval, so its raw deltas (tsc 1.5e6, inst 250000, cycles 800000,
 * ref 600000, any 10000) are doubled: 3e6, 5e5, 1.6e6, 1.2e6, 20000,
 * and CPU 0 is marked scaled. CPU 36 ran all the time: exact.
 * The metrics then mark thread 0, core 0 and the interval scaled, and
 * the JSON says "scaled":true on them. Core 0's split with the table
 * scale S = 120 (3.0 GHz TSC / 25 MHz crystal, CPUID 15H of the 6154
 * dump): T = 3e6, ref0 = 1.2e6, ref1 = 1.5e6 (CPU 36), any = 20000 x 120
 * = 2.4e6 ticks:
 *   both = ref0 + ref1 - any = 0.3e6 -> 0.1
 *   t0   = any - ref1 = 0.9e6 -> 0.3,  t1 = any - ref0 = 1.2e6 -> 0.4
 *   neither = T - any = 0.6e6 -> 0.2. */
static void
test_multiplexed(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct sample a, b;
	struct metrics_ctx mc;
	struct interval iv;
	const uint64_t *r0, *r1;
	char *json = NULL;
	size_t jlen = 0;
	FILE *fp;
	struct batch *out;
	struct errmsg e = { "" };

	(void)state;
	load_skx(&m);
	fake_init(&f);
	s = open_ok(&m, &p, &f);
	program_ok(s, &p);
	assert_int_equal(p.scale, 120);
	sample_init(&a, 72, p.nslots, m.topo.ncores, false);
	sample_init(&b, 72, p.nslots, m.topo.ncores, false);
	fake_tick_all(&f, 1000000);
	fake_counts(&f, 0, 1000000, 1000000, 3000000, 1500000, 2400000, 1800000, 20000);
	fake_counts(&f, 36, 1000000, 1000000, 3000000, 100000, 300000, 300000, 0);
	read_ok(s, &a);
	fake_tick_all(&f, 2000000);
	fake_counts(&f, 0, 2000000, 1500000, 4500000, 1750000, 3200000, 2400000, 30000);
	fake_counts(&f, 36, 2000000, 2000000, 6000000, 700000, 1800000, 1800000, 0);
	read_ok(s, &b);
	r0 = sample_row_c(&a, 0);
	r1 = sample_row_c(&b, 0);
	assert_int_equal(r1[0] - r0[0], 3000000);
	assert_int_equal(r1[1] - r0[1], 500000);
	assert_int_equal(r1[2] - r0[2], 1600000);
	assert_int_equal(r1[3] - r0[3], 1200000);
	assert_int_equal(r1[4] - r0[4], 20000);
	assert_int_equal(b.scaled[0], 1);
	assert_int_equal(b.scaled[36], 0);
	assert_int_equal(a.scaled[0], 0);

	metrics_ctx_init(&mc, &m, &p);
	interval_init(&iv, &m);
	metrics_compute(&mc, &a, &b, &iv);
	assert_true(iv.threads[0].scaled);
	assert_false(iv.threads[36].scaled);
	assert_true(iv.cores[0].scaled);
	assert_false(iv.cores[1].scaled);
	assert_true(iv.scaled);
	assert_int_equal(iv.cores[0].reason, R_NONE);
	assert_true(iv.cores[0].exact);
	assert_near(iv.cores[0].both.v, 0.1, 1e-9);
	assert_near(iv.cores[0].t0_only.v, 0.3, 1e-9);
	assert_near(iv.cores[0].t1_only.v, 0.4, 1e-9);
	assert_near(iv.cores[0].neither.v, 0.2, 1e-9);

	fp = open_memstream(&json, &jlen);
	assert_non_null(fp);
	out = batch_new(FMT_JSON, fp, &m, &p, "perf");
	assert_int_equal(batch_write(out, &iv, &e), 0);
	batch_free(out);
	fclose(fp);
	/* Core 0 and thread 0 say so; core 1 and thread 36 do not. */
	assert_true(record_has(json, "\"cpus\":[0,36]", "\"cpus\":[", "\"scaled\":true"));
	assert_false(record_has(json, "\"cpus\":[1,37]", "\"cpus\":[", "\"scaled\":true"));
	assert_true(record_has(json, "{\"cpu\":0,", "{\"cpu\":", "\"scaled\":true"));
	assert_false(record_has(json, "{\"cpu\":36,", "{\"cpu\":", "\"scaled\":true"));
	free(json);
	interval_free(&iv);
	sample_free(&a);
	sample_free(&b);
	source_close(s);
	machine_free(&m);
}

/* kernel.perf_event_paranoid 3 (Debian's "no perf for users"): every
 * open is EACCES. Who refused says the message (issue 35, 8): the sysctl
 * for a user (the fix: the sysctl, root, or CAP_PERFMON as an ambient
 * capability); for httop installed set-ID or with file capabilities, the
 * sysctl and httop itself, which gave that privilege up before opening
 * the events (a file capability is no fix); with CAP_PERFMON held, or the
 * sysctl allowing, a security module. */
static void
test_paranoid(void **state)
{
	struct machine m;
	struct fake f;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	f.paranoid = "3";
	f.err_all = EACCES;
	assert_string_equal(open_fails(&m, &f),
	    "perf_event_open refused to count on CPU 0 (EACCES): kernel.perf_event_paranoid is 3 "
	    "and CPU-wide events need 0 or less without CAP_PERFMON; run 'sysctl "
	    "kernel.perf_event_paranoid=0' as root, or run httop as root or with CAP_PERFMON as "
	    "an ambient capability (setpriv --inh-caps +perfmon --ambient-caps +perfmon), not a "
	    "file capability, or use --source msr");
	/* setcap cap_perfmon+ep httop: the capability was given up. */
	fake_init(&f);
	f.paranoid = "2";
	f.err_all = EACCES;
	f.priv = PERF_PRIV_GAINED;
	assert_string_equal(open_fails(&m, &f),
	    "perf_event_open refused to count on CPU 0 (EACCES): kernel.perf_event_paranoid is 2, "
	    "which allows CPU-wide events only with CAP_PERFMON, and httop, installed set-ID or "
	    "with file capabilities, gives its privilege up before it opens them (httop(1), "
	    "PRIVILEGE); run 'sysctl kernel.perf_event_paranoid=0' as root, or run httop as root, "
	    "or use --source msr");
	f.paranoid = NULL;
	assert_string_equal(open_fails(&m, &f),
	    "perf_event_open refused to count on CPU 0 (EACCES): kernel.perf_event_paranoid could "
	    "not be read and CPU-wide events need it at 0 or less without CAP_PERFMON, which "
	    "httop, installed set-ID or with file capabilities, gives up before it opens them "
	    "(httop(1), PRIVILEGE); run 'sysctl kernel.perf_event_paranoid=0' as root, or run "
	    "httop as root, or use --source msr");
	/* CAP_PERFMON held (root, an ambient capability): not the sysctl. */
	fake_init(&f);
	f.paranoid = "2";
	f.err_all = EACCES;
	f.priv = PERF_PRIV_CAP;
	assert_string_equal(open_fails(&m, &f),
	    "perf_event_open refused to count on CPU 0 (EACCES) although httop holds CAP_PERFMON "
	    "or CAP_SYS_ADMIN, so kernel.perf_event_paranoid is not the cause: a security module "
	    "(SELinux, AppArmor) or lockdown forbids it; ask the administrator, or use --source "
	    "msr");
	/* Allowed by the sysctl but refused anyway: a security module. */
	fake_init(&f);
	f.paranoid = "-1";
	f.err_all = EPERM;
	assert_string_equal(open_fails(&m, &f),
	    "perf_event_open refused to count on CPU 0 (EPERM) although kernel.perf_event_paranoid "
	    "is -1: a security module (SELinux, AppArmor) or lockdown forbids it; ask the "
	    "administrator, or use --source msr");
	machine_free(&m);
}

/* A VM without a virtual PMU: no hardware event exists (ENOENT). */
static void
test_no_hardware(void **state)
{
	struct machine m;
	struct fake f;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	f.err_hw = ENOENT;
	f.err_raw = ENOENT;
	assert_string_equal(open_fails(&m, &f),
	    "no hardware performance events: this machine (a VM without a virtual PMU?) has no "
	    "'instructions' event for perf_event_open (ENOENT); run httop on the node itself, use "
	    "--source msr where the msr module is, or --source sched for the scheduler's split "
	    "without counters");
	machine_free(&m);
}

/* Under --source auto the msr source has failed already (its note says
 * why): no message sends the user back to it. Each says what helps perf
 * (the sysctl, CAP_PERFMON, the administrator, stopping the other
 * program, a virtual PMU), or, where only msr could do, to see what was
 * said of msr. */
static void
test_after_msr(void **state)
{
	struct machine m;
	struct fake f;
	const char *t;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	f.paranoid = "3";
	f.err_all = EACCES;
	assert_string_equal(open_fails_auto(&m, &f),
	    "perf_event_open refused to count on CPU 0 (EACCES): kernel.perf_event_paranoid is 3 "
	    "and CPU-wide events need 0 or less without CAP_PERFMON; run 'sysctl "
	    "kernel.perf_event_paranoid=0' as root, or run httop as root or with CAP_PERFMON as "
	    "an ambient capability (setpriv --inh-caps +perfmon --ambient-caps +perfmon), not a "
	    "file capability");
	fake_init(&f);
	f.paranoid = NULL;
	f.err_all = EACCES;
	assert_string_equal(open_fails_auto(&m, &f),
	    "perf_event_open refused to count on CPU 0 (EACCES): kernel.perf_event_paranoid could "
	    "not be read and CPU-wide events need it at 0 or less without CAP_PERFMON; run "
	    "'sysctl kernel.perf_event_paranoid=0' as root, or run httop as root or with "
	    "CAP_PERFMON as an ambient capability (setpriv --inh-caps +perfmon --ambient-caps "
	    "+perfmon), not a file capability");
	fake_init(&f);
	f.paranoid = "-1";
	f.err_all = EPERM;
	assert_string_equal(open_fails_auto(&m, &f),
	    "perf_event_open refused to count on CPU 0 (EPERM) although kernel.perf_event_paranoid "
	    "is -1: a security module (SELinux, AppArmor) or lockdown forbids it; ask the "
	    "administrator");
	fake_init(&f);
	f.err_all = EBUSY;
	assert_string_equal(open_fails_auto(&m, &f),
	    "the PMU of CPU 0 is held exclusively by another program (EBUSY); stop it (perf, "
	    "likwid, a site monitor)");
	fake_init(&f);
	f.err_hw = ENOENT;
	f.err_raw = ENOENT;
	assert_string_equal(open_fails_auto(&m, &f),
	    "no hardware performance events: this machine (a VM without a virtual PMU?) has no "
	    "'instructions' event for perf_event_open (ENOENT); give the VM a virtual PMU, or run "
	    "httop on the node itself");
	fake_init(&f);
	f.err_hw = EINVAL;
	t = open_fails_auto(&m, &f);
	assert_string_equal(t, "perf_event_open cannot count instructions on CPU 0 (EINVAL); this "
	    "kernel or CPU does not offer it, and only the msr source could read it: see what "
	    "--source auto said of msr");
	/* The same with --source perf: msr is the way out. */
	assert_string_equal(open_fails(&m, &f), "perf_event_open cannot count instructions on "
	    "CPU 0 (EINVAL); this kernel or CPU does not offer it: use --source msr");
	machine_free(&m);
}

/* No msr PMU: TSC ticks = time_enabled x 3.0 GHz. en 2,000,000 ns ->
 * 6,000,000 ticks; then 3,500,001 ns (+1,500,001) -> +4,500,003. */
static void
test_tsc_derived(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct sample a;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	f.msr_type = NULL;
	s = open_ok(&m, &p, &f);
	assert_string_equal(p.summary, "skx via perf: AnyThread raw 0x20013c on thread 0; "
	    "TSC = time_enabled x 3.000 GHz");
	program_ok(s, &p);
	assert_int_equal(f.nlive, 36 * 4 + 36 * 3);   /* no TSC event */
	sample_init(&a, 72, p.nslots, m.topo.ncores, false);
	fake_tick_all(&f, 2000000);
	read_ok(s, &a);
	assert_int_equal(sample_row_c(&a, 0)[0], 6000000);
	assert_int_equal(sample_row_c(&a, 71)[0], 6000000);
	fake_tick_all(&f, 3500001);
	read_ok(s, &a);
	assert_int_equal(sample_row_c(&a, 0)[0], 6000000 + 4500003);
	sample_free(&a);
	source_close(s);
	machine_free(&m);
}

/* A msr/tsc member that does not advance (seen on this VM when the group
 * leader is a software event) is replaced by the derived TSC: 1e6 ns ->
 * 3e6 ticks, whatever the member said. */
static void
test_tsc_stuck(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct sample a;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	s = open_ok(&m, &p, &f);
	program_ok(s, &p);
	sample_init(&a, 72, p.nslots, m.topo.ncores, false);
	fake_tick_all(&f, 1000000);
	read_ok(s, &a);
	assert_int_equal(sample_row_c(&a, 5)[0], 3000000);
	fake_tick_all(&f, 2000000);
	fake_set(&f, 5, MSR_TYPE, 0, 123);   /* ignored from now on */
	read_ok(s, &a);
	assert_int_equal(sample_row_c(&a, 5)[0], 6000000);
	sample_free(&a);
	source_close(s);
	machine_free(&m);
}

/* AnyThread refused. SKX has ONE_THREAD_ACTIVE: used on every thread.
 * Every raw event refused: the split is a bound. Both say so. */
static void
test_anythread_refused(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	f.paranoid = "1";
	f.err_any = EACCES;
	s = open_ok(&m, &p, &f);
	assert_int_equal(p.split, SPLIT_OTA);
	assert_int_equal(p.nslots, 5);
	assert_int_equal(p.slots[4].kind, SLOT_OTA);
	assert_int_equal(p.slots[4].thread_mask, THREAD_ALL);
	assert_string_equal(p.summary, "skx via perf: AnyThread refused (EACCES, needs paranoid "
	    "<= 0 or CAP_PERFMON): ONE_THREAD_ACTIVE per thread; TSC from msr/tsc");
	program_ok(s, &p);
	assert_non_null(fake_find(&f, 36, PERF_TYPE_RAW, 0x023C));
	source_close(s);

	fake_init(&f);
	f.err_raw = EINVAL;
	s = open_ok(&m, &p, &f);
	assert_int_equal(p.split, SPLIT_BOUND);
	assert_int_equal(p.nslots, 4);
	assert_int_equal(plan_slot_index(&p, SLOT_ANY), -1);
	assert_int_equal(plan_slot_index(&p, SLOT_OTA), -1);
	assert_string_equal(p.summary, "skx via perf: AnyThread refused (EINVAL, not offered by "
	    "CPU or kernel): split is a bound; TSC from msr/tsc");
	source_close(s);
	machine_free(&m);
}

/* Ice Lake-D: ONE_THREAD_ACTIVE (raw 0x23C) on every thread. */
static void
test_icx(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct errmsg e = { "" };
	int cpu;

	(void)state;
	memset(&m, 0, sizeof m);
	topology_synthetic(&m.topo, 1, 4, 2);
	if (identity_load(&m.id, fixture(ICX_CPUID), &e) != 0)
		fail_msg("%s", e.text);
	m.group = uarch_group_of(&m.id);
	assert_int_equal(m.group, UARCH_ICX);
	fake_init(&f);
	s = open_ok(&m, &p, &f);
	assert_int_equal(p.split, SPLIT_OTA);
	assert_int_equal(p.slots[plan_slot_index(&p, SLOT_OTA)].thread_mask, THREAD_ALL);
	assert_string_equal(p.summary, "icx via perf: ONE_THREAD_ACTIVE raw 0x23c per thread; "
	    "TSC from msr/tsc");
	program_ok(s, &p);
	for (cpu = 0; cpu < 8; cpu++)
		assert_non_null(fake_find(&f, cpu, PERF_TYPE_RAW, 0x023C));
	assert_null(fake_find(&f, 0, PERF_TYPE_RAW, 0x20013C));
	source_close(s);
	machine_free(&m);
}

/* EMFILE while opening: 100 descriptors allowed, 5 per thread-0 CPU, so
 * CPU 20's first event is the 101st. Everything opened is closed. The
 * limit to suggest: 72 CPUs x 5 events + 64 = 424. */
static void
test_emfile(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct errmsg e = { "" };

	(void)state;
	load_skx(&m);
	fake_init(&f);
	s = open_ok(&m, &p, &f);
	f.max_live = 100;
	assert_int_equal(source_program(s, &p, false, &e), -1);
	assert_string_equal(e.text, "too many open files on CPU 20 (EMFILE): perf needs one "
	    "descriptor per event per CPU (72 CPUs x 5 events); raise the limit with 'ulimit -n "
	    "424' or read fewer CPUs with --cpus");
	assert_int_equal(f.nlive, 0);
	source_close(s);
	machine_free(&m);
}

/* CPU 5 cannot be opened (ENODEV: offline); CPU 7's read says ENXIO: both
 * offline. CPU 7 is reopened on the next read (still reported offline:
 * its new group has no interval yet) and is back on the one after. */
static void
test_offline(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct sample a;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	s = open_ok(&m, &p, &f);
	f.fail_cpu = 5;
	f.fail_cpu_err = ENODEV;
	program_ok(s, &p);
	sample_init(&a, 72, p.nslots, m.topo.ncores, false);
	fake_tick_all(&f, 1000000);
	f.read_cpu = 7;
	f.read_ret = -ENXIO;
	read_ok(s, &a);
	assert_int_equal(a.state[5], CPU_OFFLINE);
	assert_int_equal(a.state[7], CPU_OFFLINE);
	assert_int_equal(a.err[7], ENXIO);
	assert_int_equal(a.state[6], CPU_READ_OK);
	/* The sample says so; the machine description stays as loaded. */
	assert_true(m.topo.cpus[7].online);
	assert_null(fake_find(&f, 7, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS));
	fake_tick_all(&f, 2000000);
	read_ok(s, &a);
	assert_int_equal(a.state[7], CPU_OFFLINE);
	assert_non_null(fake_find(&f, 7, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS));
	fake_tick_all(&f, 3000000);
	f.en[7] = f.run[7] = 1000;
	read_ok(s, &a);
	assert_int_equal(a.state[7], CPU_READ_OK);
	assert_true(m.topo.cpus[7].online);
	assert_int_equal(a.state[5], CPU_OFFLINE);
	sample_free(&a);
	source_close(s);
	machine_free(&m);
}

/* time_running did not move (the group never got the PMU): a read error
 * (EBUSY) for that interval. A pinned group that lost the PMU reads as
 * end-of-file: a read error, and the group is reopened unpinned. */
static void
test_not_running(void **state)
{
	struct machine m;
	struct plan p;
	struct fake f;
	struct source *s;
	struct sample a;
	struct fake_ev *lead;

	(void)state;
	load_skx(&m);
	fake_init(&f);
	s = open_ok(&m, &p, &f);
	program_ok(s, &p);
	sample_init(&a, 72, p.nslots, m.topo.ncores, false);
	fake_tick_all(&f, 1000000);
	read_ok(s, &a);
	fake_tick_all(&f, 2000000);
	f.run[3] = 1000000;
	f.read_cpu = 2;
	f.read_ret = 0;
	read_ok(s, &a);
	assert_int_equal(a.state[3], CPU_READ_ERROR);
	assert_int_equal(a.err[3], EBUSY);
	assert_int_equal(a.state[2], CPU_READ_ERROR);
	assert_int_equal(a.err[2], EBUSY);
	assert_int_equal(a.state[4], CPU_READ_OK);
	lead = fake_find(&f, 2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	assert_non_null(lead);
	assert_false(lead->pinned);
	assert_true(fake_find(&f, 4, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)->pinned);
	/* Both come back on the next interval. */
	fake_tick_all(&f, 3000000);
	f.en[2] = f.run[2] = 1000000;
	f.run[3] = 2000000;
	read_ok(s, &a);
	assert_int_equal(a.state[2], CPU_READ_OK);
	assert_int_equal(a.state[3], CPU_READ_OK);
	sample_free(&a);
	source_close(s);
	machine_free(&m);
}

/* ---- the real kernel ---- */

static bool
have_hw_pmu(void)
{
	return access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
	    access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0;
}

static bool
may_count_cpus(void)
{
	FILE *fp = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (fp != NULL) {
		if (fscanf(fp, "%d", &v) != 1)
			v = 2;
		fclose(fp);
	}
	return geteuid() == 0 || v <= 0;
}

/* On a machine without a hardware PMU (this VM), httop says so. */
static void
test_real_no_hardware(void **state)
{
	struct machine m;
	struct plan p;
	struct errmsg e = { "" };
	struct source *s;

	(void)state;
	if (have_hw_pmu() || !may_count_cpus())
		skip_because("this machine has a hardware PMU, or perf_event_paranoid "
		    "keeps a user from counting CPUs");
	memset(&m, 0, sizeof m);
	if (machine_load(&m, NULL, NULL, &e) != 0)
		fail_msg("%s", e.text);
	s = perf_source_open(&m, &p, false, &e);
	assert_null(s);
	assert_string_equal(e.text, "no hardware performance events: this machine (a VM without "
	    "a virtual PMU?) has no 'instructions' event for perf_event_open (ENOENT); run httop "
	    "on the node itself, use --source msr where the msr module is, or --source sched for "
	    "the scheduler's split without counters");
	machine_free(&m);
}

/* The real syscalls with every hardware or raw event swapped for the
 * software cpu-clock (which this VM has): real groups, real group reads,
 * real time_enabled. The msr/tsc member, if the kernel has one, is kept;
 * it reads 0 next to a software leader here, so the TSC comes out derived. */
struct swap_sys {
	struct perf_sys sys;
	struct perf_sys *real;
	unsigned nopen;
};

static int
swap_open(struct perf_sys *s, const struct perf_event_attr *a, int cpu, int group_fd)
{
	struct swap_sys *w = (struct swap_sys *)s;
	struct perf_event_attr b = *a;

	if (b.type == PERF_TYPE_HARDWARE || b.type == PERF_TYPE_RAW) {
		b.type = PERF_TYPE_SOFTWARE;
		b.config = PERF_COUNT_SW_CPU_CLOCK;
	}
	w->nopen++;
	return w->real->open(w->real, &b, cpu, group_fd);
}

static ssize_t
swap_read(struct perf_sys *s, int fd, void *buf, size_t len)
{
	struct swap_sys *w = (struct swap_sys *)s;

	return w->real->read(w->real, fd, buf, len);
}

static void
swap_close(struct perf_sys *s, int fd)
{
	struct swap_sys *w = (struct swap_sys *)s;

	w->real->close(w->real, fd);
}

static int
swap_read_file(struct perf_sys *s, const char *path, char *buf, size_t len)
{
	struct swap_sys *w = (struct swap_sys *)s;

	return w->real->read_file(w->real, path, buf, len);
}

static void
swap_destroy(struct perf_sys *s)
{
	struct swap_sys *w = (struct swap_sys *)s;

	w->real->destroy(w->real);
}

static void
test_real_software(void **state)
{
	struct machine m;
	struct plan p;
	struct errmsg e = { "" };
	struct swap_sys w;
	struct source *s;
	struct sample a, b;
	struct timespec ts = { 0, 5000000 };
	unsigned cpu, nok = 0;
	int i_inst, i_tsc;

	(void)state;
	if (!may_count_cpus())
		skip_because("perf_event_paranoid keeps a user from counting CPUs");
	memset(&m, 0, sizeof m);
	if (machine_load(&m, NULL, NULL, &e) != 0)
		fail_msg("%s", e.text);
	if (identity_tsc_hz(&m.id) <= 0.0) {
		/* A VM's brand string may not say; any base works here. */
		m.id.base_ratio = 20;
		m.id.base_src = BASE_USER;
	}
	memset(&w, 0, sizeof w);
	w.sys.open = swap_open;
	w.sys.read = swap_read;
	w.sys.close = swap_close;
	w.sys.read_file = swap_read_file;
	w.sys.destroy = swap_destroy;
	w.real = perf_sys_real(NULL);
	s = perf_source_new(&m, &p, &w.sys, false, &e);
	if (s == NULL)
		fail_msg("%s", e.text);
	program_ok(s, &p);
	i_inst = plan_slot_index(&p, SLOT_INST);
	i_tsc = plan_slot_index(&p, SLOT_TSC);
	assert_true(i_inst >= 0 && i_tsc >= 0);
	sample_init(&a, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	sample_init(&b, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	read_ok(s, &a);
	nanosleep(&ts, NULL);
	read_ok(s, &b);
	for (cpu = 0; cpu < m.topo.max_cpu; cpu++) {
		if (!m.topo.cpus[cpu].present || !m.topo.cpus[cpu].online)
			continue;
		assert_int_equal(b.state[cpu], CPU_READ_OK);
		/* cpu-clock counts ns; the TSC advances at any rate. */
		assert_true(sample_row_c(&b, cpu)[i_inst] > sample_row_c(&a, cpu)[i_inst]);
		assert_true(sample_row_c(&b, cpu)[i_tsc] > sample_row_c(&a, cpu)[i_tsc]);
		nok++;
	}
	assert_true(nok > 0);
	sample_free(&a);
	sample_free(&b);
	source_close(s);
	machine_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_skx),
		cmocka_unit_test(test_two_refreshes),
		cmocka_unit_test(test_multiplexed),
		cmocka_unit_test(test_paranoid),
		cmocka_unit_test(test_no_hardware),
		cmocka_unit_test(test_after_msr),
		cmocka_unit_test(test_tsc_derived),
		cmocka_unit_test(test_tsc_stuck),
		cmocka_unit_test(test_anythread_refused),
		cmocka_unit_test(test_icx),
		cmocka_unit_test(test_emfile),
		cmocka_unit_test(test_offline),
		cmocka_unit_test(test_not_running),
		cmocka_unit_test(test_real_no_hardware),
		cmocka_unit_test(test_real_software),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
