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

#include "conflict.h"
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
rig_setup(struct rig *r, enum conflict_policy p)
{
	char xml[4096];
	struct scenario sc;

	memset(r, 0, sizeof *r);
	snprintf(xml, sizeof xml, "%s", fixture(SKX_XML));
	if (machine_load(&r->m, xml, fixture(SKX_CPUID), &r->e) != 0)
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

/* The real node: the trace converted from the fixture (as test_realtrace
 * does) and replayed. Intervals 1..17 are clean; between samples 17 and
 * 18 another agent rewrote PMC1 (REF_XCLK:ANY) on all 96 CPUs and
 * flagged every core, and from 18 on PMC1 counts something else, so every
 * later interval stays flagged: one note in 58 intervals. Sample 18 ends
 * at walltime 1532379499 s + 434509 us, sample 0 at 1532379481 s + 80968
 * us: 18 + 0.353541 = 18.353541 s, printed 18.4. A replay has no
 * registers; --on-conflict exit stops there. */
static void
replay_run(enum conflict_policy p, unsigned *nnotes, unsigned *at, char *first, size_t len)
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
	*at = 0;
	assert_int_equal(source_read(s, &smp[0], &e), 0);
	while (source_read(s, &smp[k ^ 1], &e) == 0) {
		metrics_compute(&mc, &smp[k], &smp[k ^ 1], &iv);
		k ^= 1;
		n++;
		assert_int_equal(conflict_handle(c, s, &iv, &act, note, sizeof note, &e), 0);
		if (act == CONFLICT_NONE)
			continue;
		fprintf(stderr, "# note at %u: %s\n", n, note);
		if ((*nnotes)++ == 0) {
			*at = n;
			snprintf(first, len, "%s", note);
		}
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

static void
test_replay_stampede2(void **state)
{
	char first[512];
	unsigned nnotes, at;

	(void)state;
	replay_run(CONFLICT_REPORT, &nnotes, &at, first, sizeof first);
	assert_int_equal(nnotes, 1);
	assert_int_equal(at, 18);               /* interval 17 -> 18 */
	assert_string_equal(first, REPLAY_NOTE
	    "these cores stay invalid while it lasts (--on-conflict report)");

	replay_run(CONFLICT_EXIT, &nnotes, &at, first, sizeof first);
	assert_int_equal(nnotes, 1);
	assert_int_equal(at, 18);
	assert_string_equal(first, REPLAY_NOTE "httop stops (--on-conflict exit)");
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
		cmocka_unit_test(test_replay_stampede2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
