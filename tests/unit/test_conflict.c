/* test_conflict.c: --on-conflict. Another program rewrites the PMU under
 * the msr engine (over the simulator's PMU, in-process), and the real
 * Stampede2 trace replays the reprogramming its node saw at sample 17.
 *
 * Machine: hwloc/skx-6140-2s-18c-ht.x86.xml + cpuid/skx-6154-2s-18c-ht:
 * 36 cores, 72 CPUs, core n = {n, n + 36}. The plan writes (plan.c)
 * FIXED_CTR_CTRL 0x333 and PERF_GLOBAL_CTRL bits 0x700000001 on every CPU
 * and PERFEVTSEL0 = 0x63013c (REF_XCLK with AnyThread) on thread 0, so a
 * read-back of the plan's registers is 3 reads on CPUs 0-35 and 2 on
 * CPUs 36-71: 36 x 3 + 36 x 2 = 180 reads.
 *
 * "Another program" does what perf or a site monitor does: PERFEVTSEL0 =
 * 0x43003c (event 0x3C umask 0, core cycles, USR|OS|EN) and PMC0 = 0 on
 * every CPU. Scenario "busy": every thread always active, so from then on
 * PMC0 counts ~GHz core cycles where httop expects the 25 MHz crystal, and
 * every core's split is flagged reprogrammed in every interval.
 *
 * The engine's clock is real time; the notes print the interval's end, so
 * the tests set iv.time to the interval number (1.0, 2.0, ...). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "run/conflict.h"
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
#define PPC       "real/stampede2-c591-803/c591-803.perfcounts.lua"
#define FOREIGN   0x43003cull

struct rig {
	struct machine m;
	struct vpmu *v;
	struct source *s;
	struct plan plan;
	struct metrics_ctx mc;
	struct sample smp[2];
	unsigned newest;
	struct interval iv;
	struct conflict_state *c;
	unsigned n;                 /* intervals so far */
	char note[512];
	struct errmsg e;
};

static void
rig_setup_on(struct rig *r, enum conflict_policy p, const char *xmlname, const char *cpuid)
{
	char xml[4096];
	struct scenario sc;

	memset(r, 0, sizeof *r);
	snprintf(xml, sizeof xml, "%s", fixture(xmlname));
	if (machine_load(&r->m, xml, fixture(cpuid), &r->e) != 0)
		fail_msg("machine_load: %s", r->e.text);
	if (scenario_resolve(&sc, "busy", &r->m.topo, &r->e) != 0)
		fail_msg("scenario: %s", r->e.text);
	r->v = vpmu_new(&r->m, &sc, 1);
	scenario_free(&sc);
	assert_non_null(r->v);
	r->s = msr_source_new(&r->m, msr_io_vpmu_new(r->v), "msr", &r->e);
	if (r->s == NULL)
		fail_msg("msr_source_new: %s", r->e.text);
	plan_for_machine(&r->plan, &r->m);
	if (source_program(r->s, &r->plan, false, &r->e) != 0)
		fail_msg("program: %s", r->e.text);
	sample_init(&r->smp[0], r->m.topo.max_cpu, r->plan.nslots, r->m.topo.ncores, false);
	sample_init(&r->smp[1], r->m.topo.max_cpu, r->plan.nslots, r->m.topo.ncores, false);
	metrics_ctx_init(&r->mc, &r->m, &r->plan);
	interval_init(&r->iv, &r->m);
	r->c = conflict_new(p);
	assert_int_equal(source_read(r->s, &r->smp[0], &r->e), 0);
}

static void
rig_setup(struct rig *r, enum conflict_policy p)
{
	rig_setup_on(r, p, SKX_XML, SKX_CPUID);
}

static void
rig_teardown(struct rig *r)
{
	conflict_free(r->c);
	source_close(r->s);
	vpmu_free(r->v);
	sample_free(&r->smp[0]);
	sample_free(&r->smp[1]);
	interval_free(&r->iv);
	machine_free(&r->m);
}

/* One second of virtual time, one refresh, the interval, the policy. */
static int
step(struct rig *r, enum conflict_action *act)
{
	unsigned prev = r->newest;

	vpmu_advance(r->v, (uint64_t)vpmu_tsc_hz(r->v));
	r->newest ^= 1;
	assert_int_equal(source_read(r->s, &r->smp[r->newest], &r->e), 0);
	metrics_compute(&r->mc, &r->smp[prev], &r->smp[r->newest], &r->iv);
	r->iv.time = ++r->n;
	return conflict_handle(r->c, r->s, &r->iv, act, r->note, sizeof r->note, &r->e);
}

static void
takeover(struct rig *r)
{
	unsigned cpu;

	for (cpu = 0; cpu < 72; cpu++) {
		vpmu_poke(r->v, cpu, MSR_PERFEVTSEL0, FOREIGN);
		vpmu_poke(r->v, cpu, MSR_PMC0, 0);
	}
}

static uint64_t
reg(struct rig *r, unsigned cpu, uint32_t msr)
{
	uint64_t v = 0xdeadull;

	assert_int_equal(vpmu_rdmsr(r->v, cpu, msr, &v), 0);
	return v;
}

static void
io_counts(struct rig *r, uint64_t *rd, uint64_t *wr)
{
	msr_source_io_counts(r->s, rd, wr);
}

static void
test_policy_names(void **state)
{
	enum conflict_policy p = CONFLICT_EXIT;

	(void)state;
	assert_int_equal(conflict_policy_parse("report", &p), 0);
	assert_int_equal(p, CONFLICT_REPORT);
	assert_int_equal(conflict_policy_parse("reclaim", &p), 0);
	assert_int_equal(p, CONFLICT_RECLAIM);
	assert_int_equal(conflict_policy_parse("exit", &p), 0);
	assert_int_equal(p, CONFLICT_EXIT);
	assert_int_equal(conflict_policy_parse("Exit", &p), -1);
	assert_int_equal(conflict_policy_parse("", &p), -1);
	assert_int_equal(conflict_policy_parse(NULL, &p), -1);
	assert_int_equal(p, CONFLICT_EXIT);
	assert_string_equal(conflict_policy_name(CONFLICT_REPORT), "report");
	assert_string_equal(conflict_policy_name(CONFLICT_RECLAIM), "reclaim");
	assert_string_equal(conflict_policy_name(CONFLICT_EXIT), "exit");
}

#define REPORT_NOTE "2.0 s: counts impossible for the programmed events on CPUs 0-71: " \
	"another program changed PERFEVTSEL0 0x63013c -> 0x43003c on CPUs 0-35; " \
	"these cores stay invalid while it lasts (--on-conflict report)"

/* report: interval 1 is clean and reads nothing extra; the takeover shows
 * in interval 2, which costs one read-back (180 reads, no write) and one
 * note; intervals 3 and 4 are still invalid but quiet and read nothing
 * more than the counters. */
static void
test_report(void **state)
{
	struct rig r;
	enum conflict_action act;
	uint64_t rd0, wr0, rd, wr;

	(void)state;
	rig_setup(&r, CONFLICT_REPORT);
	assert_int_equal(step(&r, &act), 0);
	assert_true(r.iv.valid);
	assert_int_equal(act, CONFLICT_NONE);
	assert_string_equal(r.note, "");

	takeover(&r);
	io_counts(&r, &rd0, &wr0);
	vpmu_advance(r.v, (uint64_t)vpmu_tsc_hz(r.v));
	r.newest ^= 1;
	assert_int_equal(source_read(r.s, &r.smp[r.newest], &r.e), 0);
	metrics_compute(&r.mc, &r.smp[r.newest ^ 1], &r.smp[r.newest], &r.iv);
	r.iv.time = ++r.n;
	assert_false(r.iv.valid);
	assert_int_equal(r.iv.cores[0].fallback, R_REPROGRAMMED);
	io_counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 324);        /* the refresh alone */
	rd0 = rd;
	assert_int_equal(conflict_handle(r.c, r.s, &r.iv, &act, r.note, sizeof r.note, &r.e), 0);
	assert_int_equal(act, CONFLICT_NOTED);
	assert_string_equal(r.note, REPORT_NOTE);
	io_counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 180);
	assert_int_equal(wr, wr0);
	assert_int_equal(reg(&r, 0, MSR_PERFEVTSEL0), FOREIGN);

	io_counts(&r, &rd0, &wr0);
	assert_int_equal(step(&r, &act), 0);
	assert_false(r.iv.valid);
	assert_int_equal(act, CONFLICT_NONE);
	assert_int_equal(step(&r, &act), 0);
	assert_int_equal(act, CONFLICT_NONE);
	io_counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 2 * 324);
	assert_int_equal(wr, wr0);

	/* At the end httop's own registers are put back as saved before its
	 * first write (0); PERFEVTSEL0 of CPUs 0-35 belongs to the other
	 * program now and keeps its value, and restore says so. */
	assert_int_equal(source_restore(r.s, &r.e), 0);
	assert_int_equal(reg(&r, 0, MSR_PERFEVTSEL0), FOREIGN);
	assert_int_equal(reg(&r, 35, MSR_PERFEVTSEL0), FOREIGN);
	assert_string_equal(r.s->restore_left, "PERFEVTSEL0 on CPUs 0-35");
	assert_int_equal(reg(&r, 35, MSR_FIXED_CTR_CTRL), 0);
	assert_int_equal(reg(&r, 71, MSR_PERF_GLOBAL_CTRL), 0);
	rig_teardown(&r);
}

/* reclaim: the read-back writes PERFEVTSEL0 back on CPUs 0-35 (36 writes)
 * and the very next interval is valid again (the vpmu's accesses take no
 * time, so nothing counted the foreign event in between). A second
 * takeover is a new incident: a second note and 36 more writes. */
static void
test_reclaim(void **state)
{
	struct rig r;
	enum conflict_action act;
	uint64_t rd0, wr0, rd, wr;
	unsigned cpu;

	(void)state;
	rig_setup(&r, CONFLICT_RECLAIM);
	assert_int_equal(step(&r, &act), 0);
	takeover(&r);
	io_counts(&r, &rd0, &wr0);
	assert_int_equal(step(&r, &act), 0);
	assert_int_equal(act, CONFLICT_NOTED);
	assert_string_equal(r.note, "2.0 s: counts impossible for the programmed events on "
	    "CPUs 0-71: another program changed PERFEVTSEL0 0x63013c -> 0x43003c on CPUs 0-35; "
	    "httop wrote its settings back (--on-conflict reclaim)");
	io_counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 324 + 180);
	assert_int_equal(wr - wr0, 36);
	for (cpu = 0; cpu < 36; cpu++)
		assert_int_equal(reg(&r, cpu, MSR_PERFEVTSEL0), 0x63013c);
	assert_int_equal(reg(&r, 40, MSR_PERFEVTSEL0), FOREIGN);   /* not httop's */

	assert_int_equal(step(&r, &act), 0);
	if (!r.iv.valid)
		fail_msg("interval 3 after reclaim: %s", r.iv.reason);
	assert_int_equal(act, CONFLICT_NONE);
	assert_int_equal(step(&r, &act), 0);
	assert_true(r.iv.valid);

	takeover(&r);
	io_counts(&r, &rd0, &wr0);
	assert_int_equal(step(&r, &act), 0);
	assert_int_equal(act, CONFLICT_NOTED);
	assert_non_null(strstr(r.note, "5.0 s: "));
	io_counts(&r, &rd, &wr);
	assert_int_equal(wr - wr0, 36);
	rig_teardown(&r);
}

/* exit: the note, CONFLICT_STOP, and every register httop saved that is
 * still httop's is back at once: 180 saved, less PERFEVTSEL0 of CPUs 0-35,
 * which the other program took: 144 restore writes. PERFEVTSEL0 of thread
 * 1 CPUs was never httop's: it keeps the other program's value too. */
static void
test_exit(void **state)
{
	struct rig r;
	enum conflict_action act;
	uint64_t wr0, wr;

	(void)state;
	rig_setup(&r, CONFLICT_EXIT);
	assert_int_equal(step(&r, &act), 0);
	takeover(&r);
	io_counts(&r, NULL, &wr0);
	assert_int_equal(step(&r, &act), 0);
	assert_int_equal(act, CONFLICT_STOP);
	assert_non_null(strstr(r.note, "2.0 s: counts impossible for the programmed events on "
	    "CPUs 0-71: another program changed PERFEVTSEL0 0x63013c -> 0x43003c on CPUs 0-35; "
	    "httop restored the registers and stops (--on-conflict exit)"));
	io_counts(&r, NULL, &wr);
	assert_int_equal(wr - wr0, 180 - 36);
	assert_int_equal(reg(&r, 0, MSR_PERFEVTSEL0), FOREIGN);
	assert_string_equal(r.s->restore_left, "PERFEVTSEL0 on CPUs 0-35");
	assert_int_equal(reg(&r, 0, MSR_FIXED_CTR_CTRL), 0);
	assert_int_equal(reg(&r, 36, MSR_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(reg(&r, 40, MSR_PERFEVTSEL0), FOREIGN);
	rig_teardown(&r);
}

/* Only a counter was written (PMC0 of CPU 3 set to 1000): core 3 = {3, 39}
 * is flagged once, the read-back (3 + 2 = 5 reads) finds httop's settings
 * intact, and the next interval is valid. (Set to 0, the busy core's PMC0
 * would count back to exactly its old value in the 1 s step: a delta of 0
 * while the reference clocks ran, which is a stopped counter's, not an
 * impossible count.) */
static void
test_counter_only(void **state)
{
	struct rig r;
	enum conflict_action act;
	uint64_t rd0, wr0, rd, wr;

	(void)state;
	rig_setup(&r, CONFLICT_RECLAIM);
	assert_int_equal(step(&r, &act), 0);
	vpmu_poke(r.v, 3, MSR_PMC0, 1000);
	io_counts(&r, &rd0, &wr0);
	assert_int_equal(step(&r, &act), 0);
	assert_int_equal(act, CONFLICT_NOTED);
	assert_string_equal(r.note, "2.0 s: counts impossible for the programmed events on "
	    "CPUs 3,39: httop's registers still hold its settings: another program wrote a "
	    "counter; nothing to write back (--on-conflict reclaim)");
	io_counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 324 + 5);
	assert_int_equal(wr, wr0);
	assert_int_equal(step(&r, &act), 0);
	assert_true(r.iv.valid);
	assert_int_equal(act, CONFLICT_NONE);
	rig_teardown(&r);
}

/* Another program stops fixed counter 0 (instructions retired) on CPUs
 * 4-7 by clearing its enable bits: FIXED_CTR_CTRL 0x333 -> 0x330. Busy
 * scenario: the threads run all the time, so the next interval has their
 * instructions still while the clocks run a full second: stopped. The
 * note comes from reading FIXED_CTR_CTRL and PERF_GLOBAL_CTRL once on
 * CPUs 4-7 (8 reads); their siblings 40-43 are untouched. A second stop,
 * of fixed counter 1 on CPU 9 only, names its CPU instead of "all of
 * them" (test_stopped_two). */
#define STOP_HEAD "2.0 s: counter stopped: instructions retired on CPUs 4-7: another " \
	"program cleared FIXED_CTR_CTRL 0x3 (fixed counter 0: OS, USR) on all of them; "

static void
stop_fixed0(struct rig *r)
{
	unsigned cpu;

	for (cpu = 4; cpu <= 7; cpu++)
		vpmu_poke(r->v, cpu, MSR_FIXED_CTR_CTRL, 0x330);
}

/* The interval after the stop, on every policy. */
static void
stopped_interval(struct rig *r, enum conflict_action *act, const char *tail)
{
	char want[512];
	uint64_t rd0, wr0, rd, wr;

	assert_int_equal(step(r, act), 0);
	assert_true(r->iv.valid);
	stop_fixed0(r);
	io_counts(r, &rd0, &wr0);
	assert_int_equal(step(r, act), 0);
	assert_int_not_equal(*act, CONFLICT_NONE);
	snprintf(want, sizeof want, "%s%s", STOP_HEAD, tail);
	assert_string_equal(r->note, want);
	assert_false(r->iv.valid);
	assert_string_equal(r->iv.reason_c, "counter stopped: instructions retired on CPUs 4-7");
	assert_int_equal(r->iv.threads[4].stopped, KIND_BIT(SLOT_INST));
	assert_int_equal(r->iv.threads[4].cpi.why, R_STOPPED);
	assert_int_equal(r->iv.threads[4].ipc.why, R_STOPPED);
	assert_int_equal(r->iv.threads[4].ghz.kind, V_EXACT);
	assert_int_equal(r->iv.threads[40].ipc.kind, V_EXACT);
	assert_int_equal(r->iv.cores[r->m.topo.cpus[4].core].cpi.why, R_STOPPED);
	assert_true(r->iv.cores[r->m.topo.cpus[4].core].exact);
	io_counts(r, &rd, &wr);
	/* the refresh, then FIXED_CTR_CTRL and GLOBAL_CTRL on 4 CPUs; under
	 * reclaim the check's read-back of the 3 registers of CPUs 4-7 and
	 * the 4 writes of FIXED_CTR_CTRL */
	if (strstr(tail, "reclaim") != NULL) {
		assert_int_equal(rd - rd0, 324 + 8 + 12);
		assert_int_equal(wr - wr0, 4);
	} else if (strstr(tail, "report") != NULL) {
		assert_int_equal(rd - rd0, 324 + 8);
		assert_int_equal(wr - wr0, 0);
	}
}

static void
test_stopped_report(void **state)
{
	struct rig r;
	enum conflict_action act;

	(void)state;
	rig_setup(&r, CONFLICT_REPORT);
	stopped_interval(&r, &act, "its figures stay absent while it lasts (--on-conflict report)");
	assert_int_equal(act, CONFLICT_NOTED);
	assert_int_equal(reg(&r, 4, MSR_FIXED_CTR_CTRL), 0x330);
	/* Still stopped: the same incident, no new note. */
	assert_int_equal(step(&r, &act), 0);
	assert_false(r.iv.valid);
	assert_int_equal(act, CONFLICT_NONE);
	/* The register is the other program's now: left as it set it. */
	assert_int_equal(source_restore(r.s, &r.e), 0);
	assert_string_equal(r.s->restore_left, "FIXED_CTR_CTRL on CPUs 4-7");
	assert_int_equal(reg(&r, 4, MSR_FIXED_CTR_CTRL), 0x330);
	assert_int_equal(reg(&r, 8, MSR_FIXED_CTR_CTRL), 0);
	rig_teardown(&r);
}

static void
test_stopped_reclaim(void **state)
{
	struct rig r;
	enum conflict_action act;

	(void)state;
	rig_setup(&r, CONFLICT_RECLAIM);
	stopped_interval(&r, &act, "httop set its bits again (--on-conflict reclaim)");
	assert_int_equal(act, CONFLICT_NOTED);
	assert_int_equal(reg(&r, 4, MSR_FIXED_CTR_CTRL), 0x333);
	assert_int_equal(reg(&r, 7, MSR_FIXED_CTR_CTRL), 0x333);
	/* The counter runs again from the write-back on: the next interval
	 * has instructions, and is valid. */
	assert_int_equal(step(&r, &act), 0);
	assert_true(r.iv.valid);
	assert_int_equal(act, CONFLICT_NONE);
	assert_int_equal(r.iv.threads[4].ipc.kind, V_EXACT);
	assert_int_equal(source_restore(r.s, &r.e), 0);
	assert_string_equal(r.s->restore_left, "");
	assert_int_equal(reg(&r, 4, MSR_FIXED_CTR_CTRL), 0);
	rig_teardown(&r);
}

static void
test_stopped_exit(void **state)
{
	struct rig r;
	enum conflict_action act;

	(void)state;
	rig_setup(&r, CONFLICT_EXIT);
	stopped_interval(&r, &act, "httop restored the registers and stops (--on-conflict exit)");
	assert_int_equal(act, CONFLICT_STOP);
	assert_string_equal(r.s->restore_left, "FIXED_CTR_CTRL on CPUs 4-7");
	assert_int_equal(reg(&r, 8, MSR_FIXED_CTR_CTRL), 0);
	rig_teardown(&r);
}

/* Two counters at once: fixed counter 0 on CPUs 4-7 (FIXED_CTR_CTRL
 * 0x330) and, through PERF_GLOBAL_CTRL bit 33, fixed counter 1 on CPU 9
 * (0x700000001 -> 0x500000001: core cycles stand still while the
 * reference cycles run). Each group names its CPUs. */
static void
test_stopped_two(void **state)
{
	struct rig r;
	enum conflict_action act;

	(void)state;
	rig_setup(&r, CONFLICT_REPORT);
	assert_int_equal(step(&r, &act), 0);
	stop_fixed0(&r);
	vpmu_poke(r.v, 9, MSR_PERF_GLOBAL_CTRL, reg(&r, 9, MSR_PERF_GLOBAL_CTRL) & ~(1ull << 33));
	assert_int_equal(step(&r, &act), 0);
	assert_int_equal(act, CONFLICT_NOTED);
	assert_string_equal(r.note, "2.0 s: counter stopped: instructions retired on CPUs 4-7; "
	    "core cycles on CPU 9: another program cleared FIXED_CTR_CTRL 0x3 (fixed counter "
	    "0: OS, USR) on CPUs 4-7, PERF_GLOBAL_CTRL 0x200000000 (fixed counter 1) on CPU 9; "
	    "its figures stay absent while it lasts (--on-conflict report)");
	assert_int_equal(r.iv.threads[9].stopped, KIND_BIT(SLOT_CYCLES));
	assert_int_equal(r.iv.threads[9].ghz.why, R_STOPPED);
	assert_int_equal(r.iv.threads[9].util.kind, V_EXACT);
	assert_string_equal(r.iv.reason_c, "counter stopped: instructions retired on CPUs 4-7; "
	    "core cycles on CPU 9");
	rig_teardown(&r);
}

/* AMD: IRPerfCount counts only while HWCR bit 30 (IRPerfEn) is set; the
 * simulator starts with HWCR 0, as a kernel that never set it. So from the
 * first interval every thread's instructions stand still while APERF and
 * MPERF run: CPI and IPC absent (stopped), and the note reads HWCR once on
 * each of the 256 CPUs and says the bit is clear and not httop's. Once
 * the bit is set, the next interval is valid with an IPC. Base clock
 * unknown (no ratio on AMD): GHz absent, no-base. */
static void
test_stopped_amd(void **state)
{
	struct rig r;
	enum conflict_action act;
	uint64_t rd0, wr0, rd, wr;
	unsigned cpu;

	(void)state;
	rig_setup_on(&r, CONFLICT_RECLAIM, "hwloc/zen2-epyc7742-2s-64c-smt.xml",
	    "cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt");
	assert_int_equal(r.m.topo.max_cpu, 256);
	io_counts(&r, &rd0, &wr0);
	assert_int_equal(step(&r, &act), 0);
	assert_int_equal(act, CONFLICT_NOTED);
	assert_string_equal(r.note, "1.0 s: counter stopped: instructions retired on CPUs 0-255: "
	    "HWCR 0x40000000 (IRPerfEn) on all of them is clear; httop does not set it; nothing "
	    "of httop's to set again (--on-conflict reclaim)");
	io_counts(&r, &rd, &wr);
	assert_int_equal(rd - rd0, 256 * 4 + 256);
	assert_int_equal(wr, wr0);
	assert_int_equal(r.iv.threads[9].ipc.why, R_STOPPED);
	assert_int_equal(r.iv.threads[9].cpi.why, R_STOPPED);
	assert_int_equal(r.iv.threads[9].ghz.why, R_NO_BASE);
	assert_int_equal(r.iv.threads[9].util.kind, V_EXACT);

	for (cpu = 0; cpu < 256; cpu++)
		vpmu_poke(r.v, cpu, MSR_AMD_HWCR, 1ull << 30);
	assert_int_equal(step(&r, &act), 0);
	assert_int_equal(act, CONFLICT_NONE);
	assert_true(r.iv.valid);
	assert_int_equal(r.iv.threads[9].ipc.kind, V_EXACT);
	rig_teardown(&r);
}

/* The real node: the trace converted from the fixture (as test_realtrace
 * does) and replayed. Intervals 1..17 are clean; between samples 17 and
 * 18 another agent rewrote PMC1 (REF_XCLK:ANY) on all 96 CPUs and
 * flagged every core, and from 18 on PMC1 counts something else, so every
 * later interval stays flagged: one note in 58 intervals. Sample 18 ends
 * at walltime 1532379499 s + 434509 us, sample 0 at 1532379481 s + 80968
 * us: 18 + 0.353541 = 18.353541 s, printed 18.4. A replay has no
 * registers; --on-conflict exit stops there. */
#define MAXNOTES 8

static void
replay_run(enum conflict_policy p, unsigned *nnotes, unsigned *at, char notes[][512])
{
	char dir[] = "/tmp/test_conflict.XXXXXX", out[300], cmd[8192], note[512];
	const char *b = getenv("HTTOP_BUILDDIR");
	struct machine m;
	struct plan plan;
	struct sample smp[2];
	struct interval iv;
	struct metrics_ctx mc;
	struct conflict_state *c;
	struct source *s;
	struct errmsg e;
	enum conflict_action act;
	unsigned k = 0, n = 0;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof out, "%s/c591-803.trace", dir);
	snprintf(cmd, sizeof cmd, "'%s/tools/httop-ppc2trace' --sockets 2 --smt 2 '%s' > '%s'",
	    b ? b : ".", fixture(PPC), out);
	assert_int_equal(system(cmd), 0);
	memset(&m, 0, sizeof m);
	if ((s = replay_source_new(out, &m, &plan, &e)) == NULL)
		fail_msg("replay: %s", e.text);
	assert_false(source_can_check(s));
	sample_init(&smp[0], m.topo.max_cpu, plan.nslots, m.topo.ncores, false);
	sample_init(&smp[1], m.topo.max_cpu, plan.nslots, m.topo.ncores, false);
	metrics_ctx_init(&mc, &m, &plan);
	interval_init(&iv, &m);
	c = conflict_new(p);
	*nnotes = 0;
	assert_int_equal(source_read(s, &smp[0], &e), 0);
	while (source_read(s, &smp[k ^ 1], &e) == 0) {
		metrics_compute(&mc, &smp[k], &smp[k ^ 1], &iv);
		k ^= 1;
		n++;
		assert_int_equal(conflict_handle(c, s, &iv, &act, note, sizeof note, &e), 0);
		if (act == CONFLICT_NONE)
			continue;
		fprintf(stderr, "# note at %u: %s\n", n, note);
		if (*nnotes < MAXNOTES) {
			at[*nnotes] = n;
			snprintf(notes[*nnotes], 512, "%s", note);
		}
		(*nnotes)++;
		if (act == CONFLICT_STOP)
			break;
	}
	if (p != CONFLICT_EXIT)
		assert_int_equal(n, 58);
	conflict_free(c);
	interval_free(&iv);
	sample_free(&smp[0]);
	sample_free(&smp[1]);
	source_close(s);
	machine_free(&m);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

#define REPLAY_NOTE "18.4 s: counts impossible for the programmed events on CPUs 0-95: " \
	"another program reprogrammed the PMU; registers not available in a replay; "

/* The stopped counters (see test_realtrace's test_stopped) are notes of
 * their own, one per CPU that starts standing still: instructions on CPUs
 * 48-95 from interval 18 (ending at 19.365 s); CPU 2 from 27 (CPU 50 ran
 * again in 26); the rest of the node from 52 (CPU 48 ran in 51). */
static void
test_replay_stampede2(void **state)
{
	char notes[MAXNOTES][512];
	unsigned nnotes, at[MAXNOTES];

	(void)state;
	replay_run(CONFLICT_REPORT, &nnotes, at, notes);
	assert_int_equal(nnotes, 4);
	assert_int_equal(at[0], 18);               /* interval 17 -> 18 */
	assert_string_equal(notes[0], REPLAY_NOTE
	    "these cores stay invalid while it lasts (--on-conflict report)");
	assert_int_equal(at[1], 19);               /* interval 18 -> 19 */
	assert_string_equal(notes[1], "19.4 s: counter stopped: instructions retired on CPUs "
	    "48-95: registers not available in a replay; its figures stay absent while it "
	    "lasts (--on-conflict report)");
	assert_int_equal(at[2], 28);
	assert_string_equal(notes[2], "28.5 s: counter stopped: instructions retired on CPU 2; "
	    "AnyThread reference cycles on CPU 2: registers not available in a replay; its "
	    "figures stay absent while it lasts (--on-conflict report)");
	assert_int_equal(at[3], 53);
	assert_string_equal(notes[3], "53.7 s: counter stopped: instructions retired on CPUs "
	    "0-1,3-48,50; AnyThread reference cycles on CPUs 0-1,3-47: registers not "
	    "available in a replay; its figures stay absent while it lasts (--on-conflict "
	    "report)");

	replay_run(CONFLICT_EXIT, &nnotes, at, notes);
	assert_int_equal(nnotes, 1);
	assert_int_equal(at[0], 18);
	assert_string_equal(notes[0], REPLAY_NOTE "httop stops (--on-conflict exit)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_names),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_reclaim),
		cmocka_unit_test(test_exit),
		cmocka_unit_test(test_counter_only),
		cmocka_unit_test(test_stopped_report),
		cmocka_unit_test(test_stopped_reclaim),
		cmocka_unit_test(test_stopped_exit),
		cmocka_unit_test(test_stopped_two),
		cmocka_unit_test(test_stopped_amd),
		cmocka_unit_test(test_replay_stampede2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
