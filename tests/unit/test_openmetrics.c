/* test_openmetrics.c: the openmetrics and summary formats and the
 * --textfile writer on one hand-built interval, with the values worked out
 * by hand below. (The strict grammar check of whole expositions is
 * tests/cli/om_check.py, run by test_node_exporter.sh.)
 *
 * The machine, host name  a"b\c  plus a byte 0xff (not UTF-8; not a host
 * name httop takes, hostname.h, but the writers must still be safe):
 *   package 0: core 0 (CPUs 0,2), core 1 (CPUs 1,3)
 *   package 1: core 0 (CPU 4 only), core 1 (CPUs 5,6, offline),
 *              core 2 (CPUs 7,8, outside --cpus)
 * The label value of the host is  a\"b\\c\\xff  (the stray byte written
 * \xff, as the summary shows it, then quote and backslashes escaped).
 *
 * Core 0/0, exact: N = 0.1, A = 0.2, B = 0.3, C = 0.4; util = 0.9;
 *   CPI 1.25; 2.1 GHz = 2100000000 Hz.
 * Core 0/1, a bound from u0 = 0.5, u1 = 0.6:
 *   C in [max(0, 0.5 + 0.6 - 1), min(0.5, 0.6)] = [0.1, 0.5]
 *   A = u0 - C in [0, 0.4], B = u1 - C in [0.1, 0.5],
 *   N = 1 - u0 - u1 + C in [0, 0.4]; util = 1 - N in [0.6, 1].
 *   Each share is two samples, bound="lower" and bound="upper".
 * Core 1/0 has one thread: no share samples at all.
 * Core 1/1 is offline: httop_core_valid 0 and no figures.
 * Core 1/2 is not selected: no sample of any kind.
 * CPU 0: util 0.6, CPI 1.25, nominal CPI = 1.25 / 0.6 = 2.08333333333,
 *   2.1 GHz, net 2.1 * 0.6 = 1.26 GHz = 1260000000 Hz, IPC 1 / 1.25 = 0.8.
 * Node: util 0.7, both of busy 0.5, threads [1.2, 1.8], CPI absent.
 *   Summary: util 70.0, both/busy 50.0, threads 1.20-1.80, CPI "-".
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "metrics/figures.h"
#include "out/batch.h"
#include "out/textfile.h"

#define NCORES 5
#define MAXCPU 9

struct fixture {
	struct machine m;
	struct plan p;
	struct topo_core cores[NCORES];
	struct topo_cpu cpus[MAXCPU];
	struct core_fig cf[NCORES];
	struct thread_fig tf[MAXCPU];
	struct agg_fig pk[2];
	struct interval iv;
};

static void
add_core(struct fixture *f, unsigned i, unsigned pkg, unsigned core_id, unsigned n,
    unsigned c0, unsigned c1)
{
	struct topo_core *c = &f->cores[i];
	unsigned t;

	c->package = pkg;
	c->core_id = core_id;
	c->index = i;
	c->nthreads = n;
	c->cpus[0] = c0;
	c->cpus[1] = c1;
	for (t = 0; t < n; t++) {
		struct topo_cpu *p = &f->cpus[c->cpus[t]];

		p->present = true;
		p->online = true;
		p->core = i;
		p->thread = t;
		p->package = pkg;
	}
}

static struct fixture *
build(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct topology *t = &f->m.topo;
	unsigned i;

	add_core(f, 0, 0, 0, 2, 0, 2);
	add_core(f, 1, 0, 1, 2, 1, 3);
	add_core(f, 2, 1, 0, 1, 4, 0);
	add_core(f, 3, 1, 1, 2, 5, 6);
	add_core(f, 4, 1, 2, 2, 7, 8);
	t->npackages = 2;
	t->ncores = NCORES;
	t->ncpus = MAXCPU;
	t->max_cpu = MAXCPU;
	t->max_smt = 2;
	t->cores = f->cores;
	t->cpus = f->cpus;
	snprintf(f->m.hostname, sizeof f->m.hostname, "a\"b\\c\xff");
	f->m.group = UARCH_SKX;
	f->p.group = UARCH_SKX;
	f->p.split = SPLIT_ANY;
	f->p.scale = 84;

	for (i = 0; i < NCORES; i++) {
		f->cf[i].index = i;
		f->cf[i].selected = true;
	}
	f->cf[0].exact = true;
	f->cf[0].neither = val_exact(0.1);
	f->cf[0].t0_only = val_exact(0.2);
	f->cf[0].t1_only = val_exact(0.3);
	f->cf[0].both = val_exact(0.4);
	f->cf[0].util = val_exact(0.9);
	f->cf[0].active_threads = val_exact(1.3 / 0.9);
	f->cf[0].cpi = val_exact(1.25);
	f->cf[0].ghz = val_exact(2.1);
	f->cf[1].neither = val_bound(0.0, 0.4);
	f->cf[1].t0_only = val_bound(0.0, 0.4);
	f->cf[1].t1_only = val_bound(0.1, 0.5);
	f->cf[1].both = val_bound(0.1, 0.5);
	f->cf[1].util = val_bound(0.6, 1.0);
	/* A number that is not finite is never written. */
	f->cf[1].inconsistency = NAN;
	f->cf[1].cpi = val_exact(INFINITY);
	f->cf[2].exact = true;
	f->cf[2].both = val_exact(0.25);
	f->cf[2].util = val_exact(0.5);
	f->cf[3].reason = R_OFFLINE;
	f->cf[4].selected = false;
	f->cf[4].reason = R_NOT_SELECTED;

	for (i = 0; i < MAXCPU; i++)
		f->tf[i].cpu = i;
	f->tf[0].util = val_exact(0.6);
	f->tf[0].cpi = val_exact(1.25);
	f->tf[0].nominal_cpi = val_exact(1.25 / 0.6);
	f->tf[0].ghz = val_exact(2.1);
	f->tf[0].net_ghz = val_exact(2.1 * 0.6);
	f->tf[0].ipc = val_exact(0.8);
	f->tf[1].ghz = val_bound(1.0, 2.0);
	/* CPU 2's instructions and core cycles stopped by another program:
	 * no CPI or IPC sample, one counter_stopped sample per counter. */
	f->tf[2].util = val_exact(0.5);
	f->tf[2].cpi = val_absent(R_STOPPED);
	f->tf[2].ipc = val_absent(R_STOPPED);
	f->tf[2].stopped = KIND_BIT(SLOT_INST) | KIND_BIT(SLOT_CYCLES);
	f->tf[5].reason = R_OFFLINE;
	f->tf[6].reason = R_OFFLINE;
	f->tf[7].reason = R_NOT_SELECTED;
	f->tf[8].reason = R_NOT_SELECTED;

	f->pk[0].ncores = 2;
	f->pk[0].nvalid = 2;
	f->pk[0].util = val_exact(0.9);
	f->pk[1].ncores = 2;
	f->pk[1].nvalid = 1;
	f->pk[1].util = val_exact(0.5);

	f->iv.time = 2.0;
	f->iv.dt = 1.0;
	f->iv.wall = 1732480000.25;
	f->iv.valid = false;
	snprintf(f->iv.reason, sizeof f->iv.reason, "core 1 (cpus 5,6): offline");
	snprintf(f->iv.reason_c, sizeof f->iv.reason_c, "core 1 (cpus 5,6): offline");
	f->iv.ncores = NCORES;
	f->iv.max_cpu = MAXCPU;
	f->iv.npackages = 2;
	f->iv.cores = f->cf;
	f->iv.threads = f->tf;
	f->iv.packages = f->pk;
	f->iv.node.ncores = 4;
	f->iv.node.nvalid = 3;
	f->iv.node.util = val_exact(0.7);
	f->iv.node.both_of_busy = val_exact(0.5);
	f->iv.node.active_threads = val_bound(1.2, 1.8);
	return f;
}

/* `n` intervals in format `fmt`; header: the summary's header line. */
static char *
render(struct fixture *f, enum out_format fmt, int n, bool header)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct batch *b;
	struct errmsg e;
	int i;

	assert_non_null(fp);
	b = batch_new(fmt, fp, &f->m, &f->p, "sim");
	if (!header)
		batch_set_header(b, false);
	for (i = 0; i < n; i++)
		assert_int_equal(batch_write(b, &f->iv, &e), 0);
	assert_int_equal(batch_end(b, &e), 0);
	batch_free(b);
	fclose(fp);
	if (getenv("TEST_OUT_SHOW") != NULL)
		fprintf(stderr, "%s", buf);
	return buf;
}

/* The whole line `line` is in `text`. */
static bool
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
		p++;
	}
	return false;
}

#define LINE(text, l) do { \
	if (!has_line((text), (l))) \
		fail_msg("missing line: %s", (l)); \
} while (0)

static size_t
count(const char *text, const char *what)
{
	size_t n = 0;
	const char *p = text;

	while ((p = strstr(p, what)) != NULL) {
		n++;
		p++;
	}
	return n;
}

#define H "host=\"a\\\"b\\\\c\\\\xff\""
/* Every OpenMetrics sample's timestamp: the interval's wall time. */
#define TS " 1732480000.250000"

/* The table's gauge families at a level (metrics/figures.c): the counts
 * below add them to the families no row makes, so a new row changes no
 * count here. */
static int
om_rows(enum fig_level l)
{
	size_t n;

	(void)figures_of(l, FIG_OM, &n);
	return (int)n;
}

static void
test_openmetrics_values(void **state)
{
	struct fixture *f = build();
	char *out;
	size_t len;
	int n;

	(void)state;
	/* The raw counts of CPU 0 (core 0/0, thread 0) and CPU 2 (its
	 * sibling, whose instructions and cycles stood still: not added). */
	f->iv.threads[0].d_inst = 1000;
	f->iv.threads[0].d_cyc = 1500;
	f->iv.threads[0].d_ref = 1800;
	f->iv.threads[0].d_tsc = 3000;
	f->iv.threads[0].d_split = 2400;
	f->iv.threads[0].has_split = true;
	f->iv.threads[2].d_inst = 7;
	f->iv.threads[2].d_cyc = 7;
	f->iv.threads[2].d_ref = 600;
	f->iv.threads[2].d_tsc = 3000;
	out = render(f, FMT_OPENMETRICS, 1, true);
	len = strlen(out);
	/* Metadata. */
	LINE(out, "# TYPE httop_core_share_ratio gauge");
	LINE(out, "# UNIT httop_core_share_ratio ratio");
	LINE(out, "# UNIT httop_thread_frequency_hertz hertz");
	LINE(out, "# UNIT httop_interval_seconds seconds");
	LINE(out, "# TYPE httop_source info");
	LINE(out, "httop_source_info{" H ",source=\"sim\",group=\"skx\",split=\"any\"} 1" TS);
	/* The interval and the node. */
	LINE(out, "httop_interval_seconds{" H "} 1" TS);
	LINE(out, "httop_interval_valid{" H "} 0" TS);
	LINE(out, "httop_node_cores{" H "} 4" TS);
	LINE(out, "httop_node_valid_cores{" H "} 3" TS);
	LINE(out, "httop_node_exact{" H "} 0" TS);
	LINE(out, "httop_node_utilization_ratio{" H "} 0.7" TS);
	LINE(out, "httop_node_both_of_busy_ratio{" H "} 0.5" TS);
	LINE(out, "httop_node_active_threads{" H ",bound=\"lower\"} 1.2" TS);
	LINE(out, "httop_node_active_threads{" H ",bound=\"upper\"} 1.8" TS);
	assert_null(strstr(out, "httop_node_cpi{"));
	LINE(out, "httop_package_valid_cores{" H ",package=\"1\"} 1" TS);
	LINE(out, "httop_package_utilization_ratio{" H ",package=\"0\"} 0.9" TS);
	/* Core 0/0, exact. */
	LINE(out, "httop_core_share_ratio{" H ",package=\"0\",core=\"0\",state=\"neither\"} 0.1" TS);
	LINE(out, "httop_core_share_ratio{" H ",package=\"0\",core=\"0\",state=\"t0_only\"} 0.2" TS);
	LINE(out, "httop_core_share_ratio{" H ",package=\"0\",core=\"0\",state=\"t1_only\"} 0.3" TS);
	LINE(out, "httop_core_share_ratio{" H ",package=\"0\",core=\"0\",state=\"both\"} 0.4" TS);
	LINE(out, "httop_core_frequency_hertz{" H ",package=\"0\",core=\"0\"} 2100000000" TS);
	LINE(out, "httop_core_cpi{" H ",package=\"0\",core=\"0\"} 1.25" TS);
	LINE(out, "httop_core_exact{" H ",package=\"0\",core=\"0\"} 1" TS);
	LINE(out, "httop_core_inconsistency_ratio{" H ",package=\"0\",core=\"0\"} 0" TS);
	/* Core 0/1, the bound. */
	LINE(out, "httop_core_share_ratio{" H ",package=\"0\",core=\"1\",state=\"both\",bound=\"lower\"} 0.1" TS);
	LINE(out, "httop_core_share_ratio{" H ",package=\"0\",core=\"1\",state=\"both\",bound=\"upper\"} 0.5" TS);
	LINE(out, "httop_core_share_ratio{" H ",package=\"0\",core=\"1\",state=\"neither\",bound=\"upper\"} 0.4" TS);
	LINE(out, "httop_core_utilization_ratio{" H ",package=\"0\",core=\"1\",bound=\"lower\"} 0.6" TS);
	LINE(out, "httop_core_exact{" H ",package=\"0\",core=\"1\"} 0" TS);
	assert_null(strstr(out, "httop_core_share_ratio{" H ",package=\"0\",core=\"1\",state=\"both\"} "));
	assert_null(strstr(out, "httop_core_cpi{" H ",package=\"0\",core=\"1\""));
	assert_null(strstr(out, "httop_core_inconsistency_ratio{" H ",package=\"0\",core=\"1\""));
	/* Core 1/0: one thread, no split. */
	LINE(out, "httop_core_utilization_ratio{" H ",package=\"1\",core=\"0\"} 0.5" TS);
	assert_null(strstr(out, "package=\"1\",core=\"0\",state="));
	/* Core 1/1 offline; core 1/2 and its CPUs left out. */
	LINE(out, "httop_core_valid{" H ",package=\"1\",core=\"1\"} 0" TS);
	assert_null(strstr(out, "httop_core_exact{" H ",package=\"1\",core=\"1\"}"));
	assert_null(strstr(out, "core=\"2\""));
	assert_null(strstr(out, "cpu=\"7\""));
	/* Threads. */
	LINE(out, "httop_thread_utilization_ratio{" H ",package=\"0\",core=\"0\",cpu=\"0\",thread=\"0\"} 0.6" TS);
	LINE(out, "httop_thread_nominal_cpi{" H ",package=\"0\",core=\"0\",cpu=\"0\",thread=\"0\"} 2.08333333333" TS);
	LINE(out, "httop_thread_net_frequency_hertz{" H ",package=\"0\",core=\"0\",cpu=\"0\",thread=\"0\"} 1260000000" TS);
	LINE(out, "httop_thread_ipc{" H ",package=\"0\",core=\"0\",cpu=\"0\",thread=\"0\"} 0.8" TS);
	LINE(out, "httop_thread_frequency_hertz{" H ",package=\"0\",core=\"1\",cpu=\"1\",thread=\"0\",bound=\"upper\"} 2000000000" TS);
	LINE(out, "httop_thread_valid{" H ",package=\"0\",core=\"0\",cpu=\"2\",thread=\"1\"} 1" TS);
	LINE(out, "httop_thread_valid{" H ",package=\"1\",core=\"1\",cpu=\"6\",thread=\"1\"} 0" TS);
	/* Raw counts: integers, counters; summed over the core's threads and
	 * the node's (CPU 2's instructions and cycles stopped: 0 added). */
	LINE(out, "# TYPE httop_thread_instructions counter");
	LINE(out, "httop_thread_instructions_total{" H ",package=\"0\",core=\"0\",cpu=\"0\",thread=\"0\"} 1000" TS);
	LINE(out, "httop_thread_cycles_total{" H ",package=\"0\",core=\"0\",cpu=\"0\",thread=\"0\"} 1500" TS);
	LINE(out, "httop_thread_any_thread_cycles_total{" H ",package=\"0\",core=\"0\",cpu=\"0\",thread=\"0\"} 2400" TS);
	LINE(out, "httop_thread_instructions_total{" H ",package=\"0\",core=\"0\",cpu=\"2\",thread=\"1\"} 0" TS);
	LINE(out, "httop_core_instructions_total{" H ",package=\"0\",core=\"0\"} 1000" TS);
	LINE(out, "httop_core_reference_cycles_total{" H ",package=\"0\",core=\"0\"} 2400" TS);
	LINE(out, "httop_core_tsc_cycles_total{" H ",package=\"0\",core=\"0\"} 6000" TS);
	LINE(out, "httop_node_cycles_total{" H "} 1500" TS);
	LINE(out, "httop_node_any_thread_cycles_total{" H "} 2400" TS);
	assert_null(strstr(out, "one_thread_active"));
	/* Nothing that is not a number; one EOF, last. */
	assert_null(strstr(out, "nan\n"));
	assert_null(strstr(out, "inf\n"));
	assert_null(strstr(out, "} nan"));
	assert_null(strstr(out, "} inf"));
	assert_null(strstr(out, "} -inf"));
	assert_int_equal(count(out, "# EOF"), 1);
	assert_true(len > 6 && strcmp(out + len - 6, "# EOF\n") == 0);
	/* Every family once: 2 interval, 14 + 4 node, 14 + 4 package, 13 + 2
	 * core, 10 + 2 thread (gauges + counters; the job's five, four and
	 * one among the gauges), 5 counts at each of the four levels (4 + the
	 * AnyThread count of this plan), 1 info: 86 as the table stood when
	 * this was written, its gauges 11 (node, package), 10 (core), 8
	 * (thread) of them. */
	n = 2 + 2 * (om_rows(FIG_AGG) + 3 + 4) + om_rows(FIG_CORE) + 3 + 2 +
	    om_rows(FIG_THREAD) + 2 + 2 + 4 * 5 + 1;
	assert_int_equal(count(out, "# TYPE "), n);
	assert_int_equal(count(out, "# HELP "), n);
	/* CPU 2's two stopped counters, nobody else's. */
	LINE(out, "httop_thread_counter_stopped{" H ",package=\"0\",core=\"0\",cpu=\"2\",thread=\"1\","
	    "counter=\"inst\"} 1" TS);
	LINE(out, "httop_thread_counter_stopped{" H ",package=\"0\",core=\"0\",cpu=\"2\",thread=\"1\","
	    "counter=\"cycles\"} 1" TS);
	assert_int_equal(count(out, "httop_thread_counter_stopped{"), 2);
	assert_null(strstr(out, "httop_thread_ipc{" H ",package=\"0\",core=\"0\",cpu=\"2\""));
	free(out);
	free(f);
}

/* A stream (no -n): each interval a complete exposition that starts with
 * the source's info family and ends "# EOF", each family once in it. */
static void
test_openmetrics_per_interval(void **state)
{
	struct fixture *f = build();
	char *out = render(f, FMT_OPENMETRICS, 3, true);
	size_t len = strlen(out);

	(void)state;
	assert_int_equal(count(out, "# EOF\n"), 3);
	assert_int_equal(count(out, "# EOF\n# TYPE httop_source info\n"), 2);
	assert_true(len > 6 && strcmp(out + len - 6, "# EOF\n") == 0);
	assert_int_equal(count(out, "# TYPE httop_source info\n"), 3);
	assert_true(strncmp(out, "# TYPE httop_source info\n", 25) == 0);
	assert_int_equal(count(out, "# TYPE httop_core_share_ratio gauge\n"), 3);
	free(out);
	free(f);
}

/* The families one interval's exposition has (its "# TYPE" lines). */
static int
families_of_one(struct fixture *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct batch *b = batch_new(FMT_OPENMETRICS, fp, &f->m, &f->p, "sim");
	struct errmsg e;
	int n;

	assert_int_equal(batch_write(b, &f->iv, &e), 0);
	assert_int_equal(batch_end(b, &e), 0);
	batch_free(b);
	fclose(fp);
	n = count(buf, "# TYPE ");
	free(buf);
	return n;
}

/* With -n N: one exposition, each family's header once, under it each
 * series' N samples one after the other in time order, one "# EOF". */
static void
test_openmetrics_one_exposition(void **state)
{
	struct fixture *f = build();
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct batch *b = batch_new(FMT_OPENMETRICS, fp, &f->m, &f->p, "sim");
	struct errmsg e;
	const char *p;
	int i;

	(void)state;
	batch_set_one_exposition(b, true);
	for (i = 0; i < 3; i++) {
		f->iv.time += 1.0;
		f->iv.wall += 1.0;
		assert_int_equal(batch_write(b, &f->iv, &e), 0);
	}
	assert_int_equal(len, 0);       /* nothing before the end */
	assert_int_equal(batch_end(b, &e), 0);
	batch_free(b);
	fclose(fp);
	assert_int_equal(count(buf, "# EOF\n"), 1);
	assert_true(len > 6 && strcmp(buf + len - 6, "# EOF\n") == 0);
	assert_int_equal(count(buf, "# TYPE httop_source info\n"), 1);
	assert_int_equal(count(buf, "# TYPE httop_core_share_ratio gauge\n"), 1);
	/* as many families as one interval's exposition has (the table's) */
	assert_int_equal(count(buf, "# TYPE "), families_of_one(f));
	/* the node's cores: three samples in a row, right after its header */
	p = strstr(buf, "# HELP httop_node_cores ");
	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	for (i = 0; i < 3; i++) {
		assert_true(strncmp(p, "httop_node_cores{" H "} ", strlen("httop_node_cores{" H "} ")) == 0);
		p = strchr(p, '\n') + 1;
	}
	assert_true(p[0] == '#');
	free(buf);
	free(f);
}

/* The node exporter's variant: Prometheus text format, no UNIT, no EOF,
 * the info family as a gauge. */
static void
test_prometheus_variant(void **state)
{
	struct fixture *f = build();
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct batch *b = batch_new(FMT_OPENMETRICS, fp, &f->m, &f->p, "sim");

	(void)state;
	out_prom_write(b, &f->iv, false);
	batch_free(b);
	fclose(fp);
	assert_null(strstr(buf, "# UNIT"));
	assert_null(strstr(buf, "# EOF"));
	assert_null(strstr(buf, " info\n"));
	LINE(buf, "# TYPE httop_source_info gauge");
	LINE(buf, "# HELP httop_core_share_ratio Share of the interval with neither SMT thread, "
	    "thread 0 only, thread 1 only or both active (label state).");
	LINE(buf, "httop_core_share_ratio{" H ",package=\"0\",core=\"0\",state=\"both\"} 0.4");
	/* A counter family is named as its samples, with _total; no sample
	 * has a timestamp (the textfile collector refuses them). */
	LINE(buf, "# TYPE httop_core_state_seconds_total counter");
	LINE(buf, "httop_core_state_seconds_total{" H ",package=\"0\",core=\"0\",state=\"both\"} 0.4");
	assert_null(strstr(buf, "1732480000"));
	assert_true(len > 0 && buf[len - 1] == '\n');
	free(buf);
	free(f);
}

static void
test_summary(void **state)
{
	struct fixture *f = build();
	char *out = render(f, FMT_SUMMARY, 2, true);
	char *quiet;
	const char *row;

	(void)state;
	/* The header once, then a line per interval (the same interval twice
	 * here). host is padded to 16, time 10 wide, the Unix time 14 (to the
	 * millisecond), valid 5, figures 11, then what the figures are of. */
	row = "a\"b\\c\\xff" "             2.000 1732480000.250     0        70.0        50.0"
	    "   1.20-1.80           -           - node  core 1 (cpus 5,6): offline\n";
	assert_int_equal(count(out, "\n"), 3);
	assert_true(strncmp(out, "host ", 5) == 0);
	assert_non_null(strstr(out, "util%"));
	assert_int_equal(count(out, row), 2);
	quiet = render(f, FMT_SUMMARY, 2, false);
	assert_int_equal(count(quiet, "\n"), 2);
	assert_true(strncmp(quiet, row, strlen(row)) == 0);
	/* A valid interval has no reason; exact threads print one number. */
	f->iv.valid = true;
	f->iv.node.active_threads = val_exact(1.25);
	free(quiet);
	quiet = render(f, FMT_SUMMARY, 1, false);
	assert_string_equal(quiet, "a\"b\\c\\xff" "             2.000 1732480000.250     1        70.0"
	    "        50.0        1.25           -           - node\n");
	/* A wall time not known (a replayed trace without one): a dash. */
	f->iv.wall = 0.0;
	free(quiet);
	quiet = render(f, FMT_SUMMARY, 1, false);
	assert_string_equal(quiet, "a\"b\\c\\xff" "             2.000              -     1        70.0"
	    "        50.0        1.25           -           - node\n");
	free(quiet);
	free(out);
	free(f);
}

/* The counters: running totals of the exact figures times the interval's
 * length, the rest of the time uncovered (metrics/totals.h). Intervals at
 * time 2 and 3, each 1 s long with the fixture's figures, then the time-3
 * interval again (as a command's whole-run record repeats the last time):
 * it adds nothing, and has no timestamps.
 *   core 0/0, exact .1 .2 .3 .4: states .2 .4 .6 .8 s, uncovered 0;
 *   core 0/1, a bound: states 0, uncovered 2; core 1/0, one thread: no
 *   state series, uncovered 2; core 1/1 offline: states 0, uncovered 2;
 *   core 1/2 never selected: no series at all.
 *   package 0: .2 .4 .6 .8, uncovered 2; package 1: 0, uncovered 4;
 *   node: .2 .4 .6 .8, uncovered 6 (three cores x 2 s).
 *   CPU 0 util .6: busy 1.2; CPU 2 util .5: busy 1; CPUs 1, 3, 4 (no util)
 *   and 5, 6 (offline): uncovered 2 each; CPUs 7, 8: no series.
 *   package 0 (CPUs 0-3): busy 2.2, uncovered 4; package 1: busy 0,
 *   uncovered 6; node: busy 2.2, uncovered 10. */
static void
test_openmetrics_counters(void **state)
{
	struct fixture *f = build();
	char *out = NULL, *last;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	struct batch *b = batch_new(FMT_OPENMETRICS, fp, &f->m, &f->p, "sim");
	struct errmsg e;
	double times[3] = { 2.0, 3.0, 3.0 };
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		f->iv.time = times[i];
		f->iv.wall = 1732480000.25 + times[i];
		assert_int_equal(batch_write(b, &f->iv, &e), 0);
	}
	assert_int_equal(batch_end(b, &e), 0);
	batch_free(b);
	fclose(fp);
	/* The last exposition only: it ends when the one before does, so it
	 * has no timestamps (the same ones with other values would be
	 * duplicate samples); the one before has them. */
	last = strstr(out, "# TYPE httop_source info\n");
	last = strstr(last + 1, "# TYPE httop_source info\n");
	last = strstr(last + 1, "# TYPE httop_source info\n");
	assert_non_null(last);
	assert_null(strstr(last, " 1732480003.25"));
	LINE(out, "httop_node_uncovered_seconds_total{" H "} 6 1732480003.250000");
#define TS3 ""
	LINE(last, "# TYPE httop_core_state_seconds counter");
	LINE(last, "# UNIT httop_core_state_seconds seconds");
	LINE(last, "# TYPE httop_thread_busy_seconds counter");
	LINE(last, "httop_core_state_seconds_total{" H ",package=\"0\",core=\"0\",state=\"neither\"} 0.2" TS3);
	LINE(last, "httop_core_state_seconds_total{" H ",package=\"0\",core=\"0\",state=\"t0_only\"} 0.4" TS3);
	LINE(last, "httop_core_state_seconds_total{" H ",package=\"0\",core=\"0\",state=\"t1_only\"} 0.6" TS3);
	LINE(last, "httop_core_state_seconds_total{" H ",package=\"0\",core=\"0\",state=\"both\"} 0.8" TS3);
	LINE(last, "httop_core_uncovered_seconds_total{" H ",package=\"0\",core=\"0\"} 0" TS3);
	LINE(last, "httop_core_state_seconds_total{" H ",package=\"0\",core=\"1\",state=\"both\"} 0" TS3);
	LINE(last, "httop_core_uncovered_seconds_total{" H ",package=\"0\",core=\"1\"} 2" TS3);
	assert_null(strstr(last, "httop_core_state_seconds_total{" H ",package=\"1\",core=\"0\""));
	LINE(last, "httop_core_uncovered_seconds_total{" H ",package=\"1\",core=\"0\"} 2" TS3);
	LINE(last, "httop_core_state_seconds_total{" H ",package=\"1\",core=\"1\",state=\"neither\"} 0" TS3);
	LINE(last, "httop_core_uncovered_seconds_total{" H ",package=\"1\",core=\"1\"} 2" TS3);
	assert_null(strstr(last, "core=\"2\""));
	LINE(last, "httop_package_state_seconds_total{" H ",package=\"0\",state=\"both\"} 0.8" TS3);
	LINE(last, "httop_package_uncovered_seconds_total{" H ",package=\"0\"} 2" TS3);
	LINE(last, "httop_package_uncovered_seconds_total{" H ",package=\"1\"} 4" TS3);
	LINE(last, "httop_package_thread_busy_seconds_total{" H ",package=\"0\"} 2.2" TS3);
	LINE(last, "httop_package_thread_uncovered_seconds_total{" H ",package=\"0\"} 4" TS3);
	LINE(last, "httop_package_thread_busy_seconds_total{" H ",package=\"1\"} 0" TS3);
	LINE(last, "httop_package_thread_uncovered_seconds_total{" H ",package=\"1\"} 6" TS3);
	LINE(last, "httop_node_state_seconds_total{" H ",state=\"neither\"} 0.2" TS3);
	LINE(last, "httop_node_state_seconds_total{" H ",state=\"t1_only\"} 0.6" TS3);
	LINE(last, "httop_node_uncovered_seconds_total{" H "} 6" TS3);
	LINE(last, "httop_node_thread_busy_seconds_total{" H "} 2.2" TS3);
	LINE(last, "httop_node_thread_uncovered_seconds_total{" H "} 10" TS3);
	LINE(last, "httop_thread_busy_seconds_total{" H ",package=\"0\",core=\"0\",cpu=\"0\",thread=\"0\"} 1.2" TS3);
	LINE(last, "httop_thread_busy_seconds_total{" H ",package=\"0\",core=\"0\",cpu=\"2\",thread=\"1\"} 1" TS3);
	LINE(last, "httop_thread_uncovered_seconds_total{" H ",package=\"0\",core=\"0\",cpu=\"2\",thread=\"1\"} 0" TS3);
	LINE(last, "httop_thread_uncovered_seconds_total{" H ",package=\"1\",core=\"1\",cpu=\"6\",thread=\"1\"} 2" TS3);
	LINE(last, "httop_thread_busy_seconds_total{" H ",package=\"1\",core=\"0\",cpu=\"4\",thread=\"0\"} 0" TS3);
	assert_null(strstr(last, "cpu=\"7\""));
	free(out);
	free(f);
}

/* --level, --textfile-level: each level has the families of the levels
 * above it, counted by their TYPE lines: info 1, interval 2 and node 13
 * always; package 13, core 11, thread 10 from their level on. */
static void
test_openmetrics_levels(void **state)
{
	static const struct {
		enum out_level level;
		bool package, core, thread;
	} want[] = {
		{ OUT_LEVEL_NODE, false, false, false },
		{ OUT_LEVEL_PACKAGE, true, false, false },
		{ OUT_LEVEL_CORE, true, true, false },
		{ OUT_LEVEL_THREAD, true, true, true },
	};
	struct fixture *f = build();
	enum out_level l;
	size_t i;

	(void)state;
	assert_int_equal(out_level_parse("node", &l), 0);
	assert_int_equal(l, OUT_LEVEL_NODE);
	assert_int_equal(out_level_parse("thread", &l), 0);
	assert_int_equal(l, OUT_LEVEL_THREAD);
	assert_int_equal(out_level_parse("cores", &l), -1);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		char *out = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&out, &len);
		struct batch *b = batch_new(FMT_OPENMETRICS, fp, &f->m, &f->p, "sim");
		struct errmsg e;

		batch_set_level(b, want[i].level);
		assert_int_equal(batch_write(b, &f->iv, &e), 0);
		batch_free(b);
		fclose(fp);
		assert_non_null(strstr(out, "\nhttop_node_state_seconds_total{"));
		assert_non_null(strstr(out, "\nhttop_interval_seconds{"));
		assert_int_equal(strstr(out, "\nhttop_package_") != NULL, want[i].package);
		assert_int_equal(strstr(out, "\nhttop_core_") != NULL, want[i].core);
		assert_int_equal(strstr(out, "\nhttop_thread_") != NULL, want[i].thread);
		/* node 23, core 20, thread 17 with the table's 11, 10, 8
		 * gauges (om_rows) */
		assert_int_equal(count(out, "# TYPE "), 1 + 2 + (om_rows(FIG_AGG) + 12) *
		    (1 + want[i].package) + (om_rows(FIG_CORE) + 10) * want[i].core +
		    (om_rows(FIG_THREAD) + 9) * want[i].thread);
		free(out);
	}
	free(f);
}

/* Names in dir other than "." and ".."; returns how many, the first in
 * `first`. */
static int
list_dir(const char *dir, char *first, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	first[0] = '\0';
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n++ == 0)
			snprintf(first, len, "%s", e->d_name);
	}
	closedir(d);
	return n;
}

static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, (1 << 16) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void
test_textfile(void **state)
{
	struct fixture *f = build();
	char dir[] = "/tmp/test_openmetrics.XXXXXX", path[256], name[256], stale[256];
	char planted[256], target[256];
	struct textfile *t;
	struct errmsg e;
	struct stat st;
	char *text;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* A temporary file of a process that does not exist (pid 2^22 + 1 is
	 * above Linux's PID_MAX_LIMIT) is removed at open. */
	snprintf(stale, sizeof stale, "%s/.httop.prom.4194305.0", dir);
	fd = open(stale, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	/* A symlink planted at the next temporary name is neither followed
	 * nor removed: the writer takes another name. */
	snprintf(target, sizeof target, "%s/target", dir);
	snprintf(planted, sizeof planted, "%s/.httop.prom.%ld.1", dir, (long)getpid());
	assert_int_equal(symlink(target, planted), 0);

	t = textfile_open(dir, &f->m, &f->p, "sim", &e);
	assert_non_null(t);
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(textfile_write(t, &f->iv, &e), 0);
	f->iv.node.nvalid = 2;
	assert_int_equal(textfile_write(t, &f->iv, &e), 0);
	snprintf(path, sizeof path, "%s/httop.prom", dir);
	text = slurp(path);
	LINE(text, "httop_node_valid_cores{" H "} 2");
	assert_null(strstr(text, "# EOF"));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	free(text);
	/* Only httop.prom and the planted link; the link's target untouched. */
	assert_int_equal(lstat(planted, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(access(target, F_OK), -1);
	assert_int_equal(unlink(planted), 0);
	assert_int_equal(list_dir(dir, name, sizeof name), 1);
	assert_string_equal(name, "httop.prom");

	/* A rename that fails (a directory holds the name) leaves no
	 * temporary file and says why. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(textfile_write(t, &f->iv, &e), -1);
	assert_non_null(strstr(e.text, "--textfile"));
	assert_non_null(strstr(e.text, "rename"));
	assert_int_equal(list_dir(dir, name, sizeof name), 1);
	assert_string_equal(name, "httop.prom");
	textfile_free(t);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(rmdir(dir), 0);

	/* A directory that does not exist: named, with the fix. */
	assert_null(textfile_open(dir, &f->m, &f->p, "sim", &e));
	assert_non_null(strstr(e.text, dir));
	assert_non_null(strstr(e.text, "textfile.directory"));
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openmetrics_values),
		cmocka_unit_test(test_openmetrics_per_interval),
		cmocka_unit_test(test_openmetrics_one_exposition),
		cmocka_unit_test(test_openmetrics_counters),
		cmocka_unit_test(test_openmetrics_levels),
		cmocka_unit_test(test_prometheus_variant),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_textfile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
