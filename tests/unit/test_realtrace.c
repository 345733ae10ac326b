/* test_realtrace.c: real counter data from a TACC Stampede2 node (2 x Xeon
 * Platinum 8160, 96 logical processors; tests/fixtures/real/
 * stampede2-c591-803, BSD-3-Clause, J. D. McCalpin), converted with
 * httop-ppc2trace and replayed through the same metrics code as a live run.
 *
 * Numbering on this node: lprocs 0-23 socket 0 thread 0, 24-47 socket 1
 * thread 0, 48-71 socket 0 thread 1, 72-95 socket 1 thread 1; core n holds
 * lprocs n and n + 48. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "unit/testutil.h"

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "trace/trace.h"

#define NCPU 96
#define NSAMPLES 59
#define PPC "real/stampede2-c591-803/c591-803.perfcounts.lua"

static char tmpdir[256];
static struct machine m;
static struct plan plan;
static struct sample s[NSAMPLES];
static unsigned nsamples;

static const char *
converter(void)
{
	static char buf[512];
	const char *b = getenv("HTTOP_BUILDDIR");

	snprintf(buf, sizeof buf, "%s/tools/httop-ppc2trace", b ? b : ".");
	return buf;
}

/* Run the converter with `args`; its stderr goes to tmpdir/err. */
static int
convert(const char *args, const char *out)
{
	char cmd[16384];
	int rc;

	snprintf(cmd, sizeof cmd, "'%s' %s > '%s' 2> '%s/err'", converter(), args, out, tmpdir);
	rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static const char *
stderr_text(void)
{
	static char buf[1024];
	char path[300];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof path, "%s/err", tmpdir);
	fp = fopen(path, "r");
	buf[0] = '\0';
	if (fp != NULL) {
		n = fread(buf, 1, sizeof buf - 1, fp);
		buf[n] = '\0';
		fclose(fp);
	}
	return buf;
}

/* Convert the whole file once and keep every sample. */
static int
setup(void **state)
{
	char args[8192], out[300];
	struct trace_reader *tr;
	struct errmsg e;
	int rc;

	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_realtrace.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	snprintf(out, sizeof out, "%s/c591-803.trace", tmpdir);
	snprintf(args, sizeof args, "--sockets 2 --smt 2 '%s'", fixture(PPC));
	if (convert(args, out) != 0) {
		fprintf(stderr, "# converter failed: %s\n", stderr_text());
		return -1;
	}
	if ((tr = trace_open(out, &m, &plan, &e)) == NULL) {
		fprintf(stderr, "# %s\n", e.text);
		return -1;
	}
	for (nsamples = 0; nsamples < NSAMPLES; nsamples++) {
		sample_init(&s[nsamples], m.topo.max_cpu, plan.nslots, m.topo.ncores, false);
		if ((rc = trace_next(tr, &s[nsamples], &e)) != 0) {
			sample_free(&s[nsamples]);
			break;
		}
	}
	trace_close(tr);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[400];
	unsigned i;

	(void)state;
	for (i = 0; i < nsamples; i++)
		sample_free(&s[i]);
	machine_free(&m);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* What the converter made of the file's header. */
static void
test_header(void **state)
{
	(void)state;
	assert_int_equal(nsamples, NSAMPLES);         /* tsc[0] .. tsc[58] */
	assert_string_equal(m.hostname, "c591-803");
	assert_int_equal(m.topo.ncpus, NCPU);
	assert_int_equal(m.topo.ncores, 48);
	assert_int_equal(m.topo.npackages, 2);
	assert_int_equal(m.topo.cpus[48].core, m.topo.cpus[0].core);
	assert_int_equal(m.topo.cpus[48].thread, 1);
	assert_int_equal(m.topo.cpus[24].package, 1);
	assert_int_equal(m.topo.cpus[71].package, 0);
	assert_int_equal(m.group, UARCH_SKX);
	assert_int_equal(plan.split, SPLIT_ANY);
	assert_int_equal(plan.scale, 84);              /* 4 x TSC_ratio 21 */
	assert_false(plan.scale_measured);
	assert_int_equal(m.id.base_ratio, 21);
	assert_int_equal(plan.nslots, 5);
	assert_int_equal(plan.slots[4].kind, SLOT_ANY);
	assert_int_equal(plan.slots[4].msr, 0xC2);     /* PMC1 = 0xC1 + 1 */
	assert_int_equal(plan.nwrites, 6);
	assert_int_equal(plan.writes[3].msr, 0x187);
	assert_int_equal(plan.writes[3].value, 0x0063013C);
	/* sample 1: walltime 1532379482 s 105437 us - 1532379481 s 80968 us */
	assert_near(s[1].time, 1.024469, 1e-9);
	/* tsc[0] = 25370245187777968 on every CPU */
	assert_int_equal(sample_row(&s[0], 95)[0], 25370245187777968ull);
}

/* The author's post-processing of samples 19 to 51 (output_samples_19-51.txt)
 * prints per lproc AvgGHz = dCore/dRef x 2.1 and IPC = dInst/dCore with 3
 * decimals, and the cumulative deltas. By hand, lproc 0: dInst 9,560,010,846,
 * dCore 82,596,863,286, dRef 67,757,046,588 -> GHz 82596863286/67757046588
 * x 2.1 = 2.55993 (printed 2.560), IPC 0.115743 (printed 0.116); lproc 2:
 * 2151874891 / 26201460668 = 0.082128 (printed 0.082); lproc 48: dInst 0
 * (the counter froze after sample 18), GHz 2261917659/1857047052 x 2.1 =
 * 2.55786 (printed 2.558), IPC 0.000. That 0.000 is an artefact: the
 * counter was stopped (see test_stopped), so httop gives no IPC for
 * lproc 48, nor for the other lprocs whose dInst is 0 over 19 -> 51 (all of
 * 48-95 but 50), and says why: R_STOPPED.
 *
 * Every core's split is invalid over 19 -> 51 (the programmable counter was
 * reprogrammed, see test_reprogrammed) and the metrics blank a reprogrammed
 * core's threads, so the per-thread figures are taken with the plan's fixed
 * counters alone (slots 0-3: TSC, INST, CYCLES, REF), which are what the
 * author used too. */
static void
test_ghz_ipc_19_51(void **state)
{
	struct plan fixed = plan;
	struct metrics_ctx c;
	struct interval iv;
	char line[256], ev[64];
	unsigned socket, thread, lp, nrows = 0, ndeltas = 0, nstopped = 0;
	unsigned long long elapsed, total;
	double ghz, stalled, ipc;
	FILE *fp;

	(void)state;
	assert_int_equal(plan.slots[0].kind, SLOT_TSC);
	assert_int_equal(plan.slots[3].kind, SLOT_REF);
	fixed.nslots = 4;
	fixed.split = SPLIT_BOUND;
	metrics_ctx_init(&c, &m, &fixed);
	interval_init(&iv, &m);
	metrics_compute(&c, &s[19], &s[51], &iv);

	fp = fopen(fixture("real/stampede2-c591-803/output_samples_19-51.txt"), "r");
	assert_non_null(fp);
	while (fgets(line, sizeof line, fp) != NULL) {
		const struct thread_fig *t;

		if (sscanf(line, "Lproc %u Elapsed_TSC %llu Event %63s TotalDelta %llu", &lp,
		    &elapsed, ev, &total) == 4) {
			/* The deltas first: exact integers. */
			assert_true(lp < NCPU);
			t = &iv.threads[lp];
			if (strcmp(ev, "Inst_Retired.Any") == 0)
				assert_int_equal(t->d_inst, total);
			else if (strcmp(ev, "CPU_CLK_Unhalted.Core") == 0)
				assert_int_equal(t->d_cyc, total);
			else if (strcmp(ev, "CPU_CLK_Unhalted.Ref") == 0)
				assert_int_equal(t->d_ref, total);
			else
				fail_msg("unknown event %s", ev);
			ndeltas++;
			continue;
		}
		if (sscanf(line, "%u %u %u %lf %lf %lf", &socket, &thread, &lp, &ghz, &stalled,
		    &ipc) != 6)
			continue;
		/* Compare by lproc number: the socket/thread labels are the
		 * author's post-processing assumption (0, 2, 4 ... as socket 0). */
		assert_true(lp < NCPU);
		t = &iv.threads[lp];
		if (t->reason != R_NONE || t->ghz.kind != V_EXACT)
			fail_msg("lproc %u: no figures (reason %s)", lp,
			    metrics_reason_code(t->reason));
		assert_near(t->ghz.v, ghz, 0.0005 + 1e-9);
		if (t->d_inst == 0) {
			/* The author's 0.000 for a stopped counter. */
			assert_near(ipc, 0.0, 0.0);
			assert_true(lp >= 48 && lp != 50);
			assert_int_equal(t->ipc.kind, V_NONE);
			assert_int_equal(t->ipc.why, R_STOPPED);
			assert_int_equal(t->cpi.why, R_STOPPED);
			nstopped++;
		} else {
			assert_int_equal(t->ipc.kind, V_EXACT);
			assert_near(t->ipc.v, ipc, 0.0005 + 1e-9);
		}
		nrows++;
	}
	fclose(fp);
	assert_int_equal(nrows, NCPU);
	assert_int_equal(ndeltas, 3 * NCPU);
	assert_int_equal(nstopped, 47);
	assert_near(iv.threads[0].ghz.v, 82596863286.0 / 67757046588.0 * 2.1, 1e-12);
	assert_int_equal(iv.threads[48].ipc.kind, V_NONE);
	assert_int_equal(iv.threads[48].stopped, KIND_BIT(SLOT_INST));
	interval_free(&iv);
}

/* The four shares, worked out independently (python3 over the .lua file,
 * exact integers; S = 84 TSC ticks per REF_XCLK count):
 *   N = dTSC - any, A = any - ref1, B = any - ref0, C = ref0 + ref1 - any,
 *   any = 84 x dPMC1 of thread 0, shares = / dTSC (tsc[S+1] - tsc[S]).
 * core 0 (lprocs 0, 48), samples 0 -> 1: dTSC 2,146,267,282, ref0 61,854,660,
 *   ref1 33,128,760, dPMC1 977,497 -> any 82,109,748: N 2,064,157,534,
 *   A 48,980,988, B 20,255,088, C 12,873,672 -> 0.9617429997, 0.0228214763,
 *   0.0094373558, 0.0059981681 (0.6% of the time both threads active).
 * core 0, 1 -> 2: dTSC 2,132,752,354, ref0 24,428,124, ref1 13,420,260,
 *   dPMC1 430,977 -> any 36,202,068: 0.9830256579, 0.0106818815,
 *   0.0055205397, 0.0007719208.
 * core 45 (lprocs 45, 93), 2 -> 3: dTSC 2,133,681,942, ref0 494,760,
 *   ref1 36,137,724, dPMC1 435,785 -> any 36,605,940: 0.9828437691,
 *   0.0002194404, 0.0169243500, 0.0000124405.
 * core 45, 15 -> 16: dTSC 2,137,057,958, ref0 543,312, ref1 36,117,228,
 *   dPMC1 431,729 -> any 36,265,236: 0.9830302983, 0.0000692578,
 *   0.0167154680, 0.0001849758.
 * core 1 (lprocs 1, 49), 2 -> 3: dTSC 2,133,681,942, ref0 2,877,336,
 *   ref1 885,612, dPMC1 36,616 -> any 3,075,744: 0.9985584806,
 *   0.0010264566, 0.0000929886, 0.0003220742. */
static const struct {
	unsigned cpu0, from;
	double f[4];
} shares[] = {
	{ 0, 0, { 0.9617429997, 0.0228214763, 0.0094373558, 0.0059981681 } },
	{ 0, 1, { 0.9830256579, 0.0106818815, 0.0055205397, 0.0007719208 } },
	{ 45, 2, { 0.9828437691, 0.0002194404, 0.0169243500, 0.0000124405 } },
	{ 45, 15, { 0.9830302983, 0.0000692578, 0.0167154680, 0.0001849758 } },
	{ 1, 2, { 0.9985584806, 0.0010264566, 0.0000929886, 0.0003220742 } },
};

static void
test_shares_by_hand(void **state)
{
	struct metrics_ctx c;
	struct interval iv;
	unsigned i, core;

	(void)state;
	metrics_ctx_init(&c, &m, &plan);
	interval_init(&iv, &m);
	for (i = 0; i < sizeof shares / sizeof shares[0]; i++) {
		const struct core_fig *k;

		metrics_compute(&c, &s[shares[i].from], &s[shares[i].from + 1], &iv);
		core = m.topo.cpus[shares[i].cpu0].core;
		k = &iv.cores[core];
		assert_int_equal(m.topo.cores[core].cpus[1], shares[i].cpu0 + 48);
		if (k->reason != R_NONE)
			fail_msg("core of cpu %u, %u -> %u: %s", shares[i].cpu0, shares[i].from,
			    shares[i].from + 1, metrics_reason_code(k->reason));
		assert_true(k->exact);
		assert_near(k->neither.v, shares[i].f[0], 1e-6);
		assert_near(k->t0_only.v, shares[i].f[1], 1e-6);
		assert_near(k->t1_only.v, shares[i].f[2], 1e-6);
		assert_near(k->both.v, shares[i].f[3], 1e-6);
	}
	interval_free(&iv);
}

/* Between samples 17 and 18 another agent rewrote the counters: PMC1
 * (REF_XCLK:ANY) on all 96 CPUs, from 2^47 + 161,919 .. 13,140,813 down to
 * 2^47 + 125 .. 87,862, and fixed counter 0 (instructions) on 93 of them,
 * down to 2^47 + 249,584 .. 128,899,302; fixed counters 1 and 2 kept
 * counting. Taken modulo 2^48 these deltas are ~2^48: impossible, so every
 * core is R_REPROGRAMMED. From sample 18 on, PMC1 no longer counts
 * REF_XCLK:ANY at all (thread-0 CPUs, 100% busy with STREAM, count ~13.7k
 * per second where the crystal gives 25M; thread-1 CPUs are frozen), so the
 * split stays invalid (any x 84 far below ref) in every later interval.
 * Interval 16 -> 17, before it, is valid for every core. */
static void
test_reprogrammed(void **state)
{
	struct metrics_ctx c;
	struct interval iv;
	unsigned k, cpu, ninst = 0;
	const uint64_t two47 = 1ull << 47;

	(void)state;
	for (cpu = 0; cpu < NCPU; cpu++) {
		uint64_t a17 = sample_row(&s[17], cpu)[4], a18 = sample_row(&s[18], cpu)[4];

		assert_true(a18 < a17);
		assert_true(a18 >= two47 && a18 <= two47 + 87862);
		if (sample_row(&s[18], cpu)[1] < sample_row(&s[17], cpu)[1])
			ninst++;
		assert_true(sample_row(&s[18], cpu)[2] > sample_row(&s[17], cpu)[2]);
		assert_true(sample_row(&s[18], cpu)[3] > sample_row(&s[17], cpu)[3]);
	}
	assert_int_equal(ninst, 93);

	metrics_ctx_init(&c, &m, &plan);
	interval_init(&iv, &m);
	metrics_compute(&c, &s[16], &s[17], &iv);
	for (k = 0; k < m.topo.ncores; k++)
		if (iv.cores[k].reason != R_NONE)
			fail_msg("16 -> 17: core %u: %s", k, metrics_reason_code(iv.cores[k].reason));
	assert_true(iv.valid);

	/* 17 -> 18: detected on every core. Where a thread's fixed counter 0
	 * was reset too, the core shows nothing; where only PMC1 changed, the
	 * split falls back to the bound from the fixed counters. */
	metrics_compute(&c, &s[17], &s[18], &iv);
	for (k = 0; k < m.topo.ncores; k++)
		if (iv.cores[k].reason != R_REPROGRAMMED && iv.cores[k].fallback != R_REPROGRAMMED)
			fail_msg("17 -> 18: core %u not flagged", k);
	assert_false(iv.valid);
	assert_non_null(strstr(iv.reason, "reprogrammed by another program"));

	/* From 18 on PMC1 no longer counts REF_XCLK:ANY, but the fixed
	 * counters are sound: every core gives the bound, flagged. Core 0
	 * (lprocs 0, 48) over 18 -> 19, by hand from the .lua file (python):
	 * dTSC 2119616286, ref0 2117021424, ref1 247094652: u0 = .998775787,
	 * u1 = .116575181, C in [u0 + u1 - 1, u1] = [.115350968, .116575181] */
	metrics_compute(&c, &s[18], &s[19], &iv);
	for (k = 0; k < m.topo.ncores; k++) {
		assert_int_equal(iv.cores[k].reason, R_NONE);
		assert_int_equal(iv.cores[k].fallback, R_REPROGRAMMED);
		assert_false(iv.cores[k].exact);
	}
	assert_false(iv.valid);
	assert_int_equal(iv.cores[0].both.kind, V_BOUND);
	assert_near(iv.cores[0].both.lo, 0.115350968, 1e-9);
	assert_near(iv.cores[0].both.hi, 0.116575181, 1e-9);
	/* 19 -> 51, core 0: dTSC 67793720532, ref0 67757046588, ref1
	 * 1857047052: u0 = .999459036, u1 = .027392612, C in [.026851648,
	 * .027392612] */
	metrics_compute(&c, &s[19], &s[51], &iv);
	for (k = 0; k < m.topo.ncores; k++)
		assert_int_equal(iv.cores[k].fallback, R_REPROGRAMMED);
	assert_near(iv.cores[0].both.lo, 0.026851648, 1e-9);
	assert_near(iv.cores[0].both.hi, 0.027392612, 1e-9);
	interval_free(&iv);
}

/* Another program stopped Inst_Retired.Any (fixed counter 0): from
 * sample 18 it stands still on 48 of the 96 CPUs while both unhalted
 * clocks go on, and from 52 on all 96; PMC1 (REF_XCLK:ANY) stands still on
 * CPU 2 from 27 and on every thread-0 CPU from 52. Found with python3 over
 * the .lua file (exact integers): the CPUs whose fixed counter 0 delta is
 * 0, interval by interval (interval i = sample i -> i + 1):
 *   0-16  none (the smallest delta of a moving one is 16,493)
 *   17    none: every counter was rewritten (deltas near 2^48: reprogrammed)
 *   18-25 48-95           26 48-49,51-95 (CPU 50 counts again)
 *   27-50 2,48-49,51-95   51 2,49,51-95 (CPU 48 counts again)
 *   52-57 0-95
 * Each of them ran: the smallest reference-cycle delta of a stopped one is
 * 169,932 ticks (interval 56, 81 us at 2.1 GHz), over the 42,168 of the
 * threshold (20 us x 2.1e9 + 2 x 84); the smallest core-cycle delta is
 * 202,687. PMC1's delta is 0 on CPU 2 in 27-51 and on CPUs 0-47 in 52-57
 * (thread 1's copy is not used by httop). A CPU's CPI and IPC are absent
 * with R_STOPPED exactly when it is listed; the others keep theirs. */
static const struct {
	unsigned from, to;          /* intervals, inclusive */
	const char *inst;           /* CPUs with instructions stopped */
	const char *any;            /* thread-0 CPUs with AnyThread stopped */
} stops[] = {
	{ 0, 17, "", "" },
	{ 18, 25, "48-95", "" },
	{ 26, 26, "48-49,51-95", "" },
	{ 27, 50, "2,48-49,51-95", "2" },
	{ 51, 51, "2,49,51-95", "2" },
	{ 52, 57, "0-95", "0-47" },
};

static void
test_stopped(void **state)
{
	struct metrics_ctx c;
	struct interval iv;
	struct cpulist inst, any;
	struct errmsg e;
	unsigned i, k, cpu, nthreads = 0;
	char want[256];

	(void)state;
	metrics_ctx_init(&c, &m, &plan);
	interval_init(&iv, &m);
	/* The plan read from the trace knows the partners. */
	assert_true(plan.npartners >= 7);
	for (k = 0; k < sizeof stops / sizeof stops[0]; k++) {
		memset(&inst, 0, sizeof inst);
		memset(&any, 0, sizeof any);
		if (stops[k].inst[0] != '\0')
			assert_int_equal(cpulist_parse(stops[k].inst, &inst, &e), 0);
		if (stops[k].any[0] != '\0')
			assert_int_equal(cpulist_parse(stops[k].any, &any, &e), 0);
		for (i = stops[k].from; i <= stops[k].to; i++) {
			metrics_compute(&c, &s[i], &s[i + 1], &iv);
			for (cpu = 0; cpu < NCPU; cpu++) {
				const struct thread_fig *t = &iv.threads[cpu];
				const struct core_fig *cf = &iv.cores[m.topo.cpus[cpu].core];
				bool is = cpulist_has(&inst, cpu), a = cpulist_has(&any, cpu);

				if (is != ((t->stopped & KIND_BIT(SLOT_INST)) != 0) ||
				    a != ((t->stopped & KIND_BIT(SLOT_ANY)) != 0))
					fail_msg("interval %u, CPU %u: stopped 0x%x", i, cpu, t->stopped);
				if (is) {
					assert_int_equal(t->reason, R_NONE);
					assert_int_equal(t->cpi.kind, V_NONE);
					assert_int_equal(t->cpi.why, R_STOPPED);
					assert_int_equal(t->ipc.kind, V_NONE);
					assert_int_equal(t->ipc.why, R_STOPPED);
					assert_int_equal(t->nominal_cpi.why, R_STOPPED);
					/* the clocks still give the frequency */
					assert_int_equal(t->ghz.kind, V_EXACT);
					assert_int_equal(t->util.kind, V_EXACT);
					assert_int_equal(cf->cpi.why, R_STOPPED);
					nthreads++;
				} else if (t->reason == R_NONE) {
					assert_int_equal(t->cpi.kind, V_EXACT);
					assert_int_equal(t->ipc.kind, V_EXACT);
				} else {
					/* 17: the rewrite itself */
					assert_int_equal(i, 17);
					assert_int_equal(t->reason, R_REPROGRAMMED);
				}
				if (a)
					assert_int_equal(cf->fallback, R_STOPPED);
			}
			if (i <= 17) {
				/* (some are invalid for sibling skew, 17 for the
				 * rewrite, none for a stopped counter) */
				assert_int_equal(iv.stopped, 0);
				assert_null(strstr(iv.reason_c, "stopped"));
			} else {
				assert_false(iv.valid);
				snprintf(want, sizeof want, "counter stopped: instructions retired on "
				    "CPUs %s%s%s%s", stops[k].inst, any.n ? "; AnyThread reference "
				    "cycles on " : "", any.n ? (strchr(stops[k].any, '-') ? "CPUs " :
				    "CPU ") : "", stops[k].any);
				if (strstr(iv.reason_c, want) == NULL)
					fail_msg("interval %u: '%s' lacks '%s'", i, iv.reason_c, want);
			}
		}
		cpulist_free(&inst);
		cpulist_free(&any);
	}
	/* 8 x 48 + 47 + 24 x 48 + 47 + 6 x 96: the 2,206 thread-intervals
	 * shown before as valid with IPC 0 */
	assert_int_equal(nthreads, 2206);
	assert_int_equal(nthreads, 8 * 48 + 47 + 24 * 48 + 47 + 6 * 96);
	/* The node has no CPI when part of it is unknown. */
	metrics_compute(&c, &s[20], &s[21], &iv);
	assert_int_equal(iv.node.cpi.kind, V_NONE);
	assert_int_equal(iv.node.cpi.why, R_STOPPED);
	assert_int_equal(iv.node.ghz.kind, V_EXACT);
	interval_free(&iv);
}

/* The converter refuses to guess the topology, and names a bad line. */
static void
test_converter_errors(void **state)
{
	char args[8192], in[300], out[300], cmd[8192];

	(void)state;
	snprintf(out, sizeof out, "%s/x.trace", tmpdir);
	snprintf(args, sizeof args, "'%s'", fixture(PPC));
	assert_int_equal(convert(args, out), 1);
	assert_non_null(strstr(stderr_text(), "does not record the topology: give --topology"));

	/* The first 120 lines, then garbage at line 121. */
	snprintf(in, sizeof in, "%s/bad.lua", tmpdir);
	snprintf(cmd, sizeof cmd, "head -120 '%s' > '%s' && echo 'this is not lua' >> '%s'",
	    fixture(PPC), in, in);
	assert_int_equal(system(cmd), 0);
	snprintf(args, sizeof args, "--sockets 2 --smt 2 --perfevtsel '%s' '%s'",
	    fixture("real/stampede2-c591-803/core_msr_perfevtsel.input"), in);
	assert_int_equal(convert(args, out), 1);
	assert_non_null(strstr(stderr_text(), "bad.lua:121: not an assignment"));

	/* No perfevtsel beside it. */
	snprintf(args, sizeof args, "--sockets 2 --smt 2 '%s'", in);
	assert_int_equal(convert(args, out), 1);
	assert_non_null(strstr(stderr_text(), "give --perfevtsel FILE"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_ghz_ipc_19_51),
		cmocka_unit_test(test_shares_by_hand),
		cmocka_unit_test(test_reprogrammed),
		cmocka_unit_test(test_stopped),
		cmocka_unit_test(test_converter_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
