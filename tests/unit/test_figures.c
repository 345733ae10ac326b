/* test_figures.c: the table of figures (metrics/figures.h) against the
 * formats it drives, row by row:
 * - every row at every level written by json.c (full and compact) and
 *   read back by cluster/nodeiv.c gives the value written: exact, a
 *   bound, or absent with its reason, in turn by row and level;
 * - the CSV header holds each row's three columns, once, and nothing but
 *   them and the fixed columns;
 * - the OpenMetrics output has each row's family at each level where it
 *   is (the shares of the split: one family, share_ratio);
 * - the table's orders are each level's 1..n;
 * - what each source's plan can give (figure_read, figure_unread_why):
 *   the scheduler's and /proc/stat's plans no CPI or GHz, a node's plan
 *   by its basis.
 *
 * The machine: one package, cores 0 (CPUs 0,2) and 1 (CPUs 1,3), every
 * object valid. The value of row i at level l (k = i + l):
 *   k % 3 == 0: exact, 1 % 3: a bound, 2 % 3: absent (R_STOPPED);
 *   a share or fraction 0.01 * (i + 1) + 0.1 * l (bound: that + 0.05),
 *   a ratio 1.25 + 0.5 * i, a frequency 2 + 0.125 * i (bound: + 0.5):
 *   each written exactly at its precision (10 decimals, 6 digits). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "unit/testutil.h"

#include "cluster/jsonl.h"
#include "cluster/nodeiv.h"
#include "metrics/figures.h"
#include "out/batch.h"
#include "source/sched/sched_source.h"
#include "source/sources.h"

#define NCORES 2
#define MAXCPU 4

struct fixture {
	struct machine m;
	struct plan p;
	struct topo_core cores[NCORES];
	struct topo_cpu cpus[MAXCPU];
	struct core_fig cf[NCORES];
	struct thread_fig tf[MAXCPU];
	struct agg_fig pk[1];
	struct interval iv;
};

static struct val
value_of(const struct figure *f, size_t i, unsigned l)
{
	double x = fig_is_frac(f) ? 0.01 * (double)(i + 1) + 0.1 * l :
	    f->kind == FIG_GHZ ? 2.0 + 0.125 * (double)i : 1.25 + 0.5 * (double)i;
	double w = fig_is_frac(f) ? 0.05 : 0.5;

	switch ((i + l) % 3) {
	case 0:
		return val_exact(x);
	case 1:
		return val_bound(x, x + w);
	default:
		return val_absent(R_STOPPED);
	}
}

/* Every row of the table at every level of obj set. */
static void
fill(void *obj, enum fig_level l)
{
	size_t i;

	for (i = 0; i < nfigures; i++)
		if (figures[i].at[l].json != 0 || figures[i].at[l].om != 0)
			*fig_val_w(&figures[i], l, obj) = value_of(&figures[i], i, l);
}

static void
add_core(struct fixture *f, unsigned i, unsigned c0, unsigned c1)
{
	struct topo_core *c = &f->cores[i];
	unsigned t;

	c->package = 0;
	c->core_id = i;
	c->index = i;
	c->nthreads = 2;
	c->cpus[0] = c0;
	c->cpus[1] = c1;
	for (t = 0; t < 2; t++) {
		struct topo_cpu *p = &f->cpus[c->cpus[t]];

		p->present = true;
		p->online = true;
		p->core = i;
		p->thread = t;
		p->package = 0;
	}
}

static struct fixture *
build(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct topology *t = &f->m.topo;
	unsigned i;

	assert_non_null(f);
	add_core(f, 0, 0, 2);
	add_core(f, 1, 1, 3);
	t->npackages = 1;
	t->ncores = NCORES;
	t->ncpus = MAXCPU;
	t->max_cpu = MAXCPU;
	t->max_smt = 2;
	t->cores = f->cores;
	t->cpus = f->cpus;
	snprintf(f->m.hostname, sizeof f->m.hostname, "h");
	f->m.group = UARCH_SKX;
	f->p.group = UARCH_SKX;
	f->p.split = SPLIT_ANY;
	f->p.scale = 84;
	for (i = 0; i < NCORES; i++) {
		f->cf[i].index = i;
		f->cf[i].selected = true;
		f->cf[i].split = SPLIT_ANY;
		fill(&f->cf[i], FIG_CORE);
	}
	for (i = 0; i < MAXCPU; i++) {
		f->tf[i].cpu = i;
		/* what the node's weights are made of: none may be 0 */
		f->tf[i].d_tsc = 1000000000u;
		f->tf[i].d_ref = f->tf[i].d_cyc = f->tf[i].d_inst = 500000000u;
		fill(&f->tf[i], FIG_THREAD);
	}
	f->pk[0].ncores = f->pk[0].nvalid = 2;
	fill(&f->pk[0], FIG_AGG);
	f->iv.node.ncores = f->iv.node.nvalid = 2;
	fill(&f->iv.node, FIG_AGG);
	f->iv.time = 2.0;
	f->iv.dt = 1.0;
	f->iv.wall = 1732480000.25;
	f->iv.valid = true;
	f->iv.ncores = NCORES;
	f->iv.max_cpu = MAXCPU;
	f->iv.npackages = 1;
	f->iv.cores = f->cf;
	f->iv.threads = f->tf;
	f->iv.packages = f->pk;
	return f;
}

static char *
render(struct fixture *f, enum out_format fmt, bool compact)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct batch *b;
	struct errmsg e;

	assert_non_null(fp);
	b = batch_new(fmt, fp, &f->m, &f->p, "sim");
	batch_set_compact(b, compact);
	assert_int_equal(batch_write(b, &f->iv, &e), 0);
	assert_int_equal(batch_end(b, &e), 0);
	batch_free(b);
	fclose(fp);
	return buf;
}

/* The value read back is the one written, as the format keeps it. */
static void
same(const struct figure *f, const char *where, const struct val *w, const struct val *r)
{
	double tol = fig_is_frac(f) ? 1e-10 : 1e-5 * fabs(w->hi);

	if (r->kind != w->kind)
		fail_msg("%s %s: kind %d read back as %d", where, f->name, w->kind, r->kind);
	if (w->kind == V_NONE && r->why != w->why)
		fail_msg("%s %s: reason %d read back as %d", where, f->name, w->why, r->why);
	if (w->kind == V_EXACT && fabs(r->v - w->v) > tol)
		fail_msg("%s %s: %.12g read back as %.12g", where, f->name, w->v, r->v);
	if (w->kind == V_BOUND && (fabs(r->lo - w->lo) > tol || fabs(r->hi - w->hi) > tol))
		fail_msg("%s %s: [%.12g, %.12g] read back as [%.12g, %.12g]", where, f->name,
		    w->lo, w->hi, r->lo, r->hi);
}

/* Each JSON row of each level of `a` (written) against `b` (read). */
static unsigned
compare(const struct interval *a, const struct interval *b)
{
	unsigned n = 0, k;
	size_t i;

	for (i = 0; i < nfigures; i++) {
		const struct figure *f = &figures[i];

		if (!(f->formats & FIG_JSON))
			continue;
		if (f->at[FIG_AGG].json != 0) {
			same(f, "node", fig_val(f, FIG_AGG, &a->node), fig_val(f, FIG_AGG, &b->node));
			same(f, "package", fig_val(f, FIG_AGG, &a->packages[0]),
			    fig_val(f, FIG_AGG, &b->packages[0]));
			n += 2;
		}
		for (k = 0; k < NCORES && f->at[FIG_CORE].json != 0; k++, n++)
			same(f, "core", fig_val(f, FIG_CORE, &a->cores[k]),
			    fig_val(f, FIG_CORE, &b->cores[k]));
		for (k = 0; k < MAXCPU && f->at[FIG_THREAD].json != 0; k++, n++)
			same(f, "thread", fig_val(f, FIG_THREAD, &a->threads[k]),
			    fig_val(f, FIG_THREAD, &b->threads[k]));
	}
	return n;
}

static void
roundtrip(bool compact)
{
	struct fixture *f = build();
	char *out = render(f, FMT_JSON, compact);
	struct jdoc d;
	struct nodeiv n;
	struct errmsg e;
	unsigned want = 0;
	size_t i;

	if (getenv("TEST_OUT_SHOW") != NULL)
		fprintf(stderr, "%s", out);
	jdoc_init(&d, 0);
	nodeiv_init(&n);
	assert_int_equal(jdoc_parse(&d, out, strlen(out), &e), 0);
	if (nodeiv_read(&n, &d, &e) != 1)
		fail_msg("read back: %s", e.text);
	for (i = 0; i < nfigures; i++)
		if (figures[i].formats & FIG_JSON)
			want += (figures[i].at[FIG_AGG].json ? 2u : 0u) +
			    (figures[i].at[FIG_CORE].json ? NCORES : 0u) +
			    (figures[i].at[FIG_THREAD].json ? MAXCPU : 0u);
	assert_int_equal(compare(&f->iv, &n.iv), want);
	assert_true(want > 3 * nfigures);
	nodeiv_free(&n);
	jdoc_free(&d);
	free(out);
	free(f);
}

static void
test_json_roundtrip(void **state)
{
	(void)state;
	roundtrip(false);
}

static void
test_compact_roundtrip(void **state)
{
	(void)state;
	roundtrip(true);
}

/* How many times `name` is a column of the header `cols` (n of them). */
static unsigned
times(char *const *cols, unsigned n, const char *name, unsigned *at)
{
	unsigned k, found = 0;

	for (k = 0; k < n; k++)
		if (strcmp(cols[k], name) == 0) {
			found++;
			*at = k;
		}
	return found;
}

/* The CSV header: each row's x, x_lo, x_hi once and side by side; the
 * fixed columns once; nothing else. */
static void
test_csv_columns(void **state)
{
	static const char *const fixed[] = { "kind", "time", "interval", "valid", "reason",
	    "package", "core", "cpus", "cpu", "exact", "inconsistency", "fallback",
	    "truth_neither", "truth_t0_only", "truth_t1_only", "truth_both", "absent",
	    "stopped", "unix_time", "host", "job" };
	struct fixture *f = build();
	char *out = render(f, FMT_CSV, false), *p, *cols[128];
	unsigned n = 0, want = (unsigned)(sizeof fixed / sizeof fixed[0]), at, at2;
	size_t i;

	(void)state;
	*strchr(out, '\n') = '\0';
	for (p = strtok(out, ","); p != NULL && n < 128; p = strtok(NULL, ","))
		cols[n++] = p;
	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (times(cols, n, fixed[i], &at) != 1)
			fail_msg("CSV column %s not there once", fixed[i]);
	for (i = 0; i < nfigures; i++) {
		if (!(figures[i].formats & FIG_CSV))
			continue;
		want += 3;
		if (times(cols, n, figures[i].name, &at) != 1 ||
		    times(cols, n, figures[i].lo, &at2) != 1 || at2 != at + 1 ||
		    times(cols, n, figures[i].hi, &at2) != 1 || at2 != at + 2)
			fail_msg("CSV columns %s, _lo, _hi not there once, side by side",
			    figures[i].name);
	}
	assert_int_equal(n, want);
	free(out);
	free(f);
}

/* The OpenMetrics families: each row's, at each level where it is. */
static void
test_om_families(void **state)
{
	static const char *const level[FIG_NLEVELS] = { "node", "core", "thread" };
	struct fixture *f = build();
	char *out, name[128];
	size_t i;
	unsigned l;

	(void)state;
	out = render(f, FMT_OPENMETRICS, false);
	for (i = 0; i < nfigures; i++) {
		if (!(figures[i].formats & FIG_OM))
			continue;
		for (l = 0; l < FIG_NLEVELS; l++) {
			if (figures[i].at[l].json == 0 && figures[i].at[l].om == 0)
				continue;
			snprintf(name, sizeof name, "# TYPE httop_%s_%s gauge\n", level[l],
			    figures[i].om_name);
			if (strstr(out, name) == NULL)
				fail_msg("no family %s", name);
			if (figures[i].state <= 1 && figures[i].at[l].om == 0)
				fail_msg("%s has no OpenMetrics place at level %u", figures[i].name, l);
		}
	}
	free(out);
	free(f);
}

/* Each level's JSON and OpenMetrics places are 1..n, once each; a row is
 * at a level in JSON exactly where it has an offset. */
static void
test_orders(void **state)
{
	unsigned l, fmt;
	size_t n, k, i;

	(void)state;
	assert_true(nfigures <= FIG_MAX);
	for (l = 0; l < FIG_NLEVELS; l++) {
		size_t njson = 0, nom = 0;

		for (i = 0; i < nfigures; i++) {
			njson += figures[i].at[l].json != 0 && (figures[i].formats & FIG_JSON);
			nom += figures[i].at[l].om != 0 && (figures[i].formats & FIG_OM);
			assert_true((figures[i].at[l].json != 0) == (figures[i].at[l].off != 0));
			assert_true(figures[i].at[l].om == 0 || figures[i].at[l].help != NULL);
		}
		/* a late row comes after every other in JSON order */
		for (i = 0; i < nfigures; i++)
			for (k = 0; k < nfigures; k++)
				if (figures[i].late && !figures[k].late && figures[i].at[l].json != 0)
					assert_true(figures[k].at[l].json < figures[i].at[l].json);
		for (fmt = FIG_JSON; fmt <= FIG_OM; fmt <<= 1) {
			const struct figure *const *fl = figures_of((enum fig_level)l, fmt, &n);

			assert_int_equal(n, fmt == FIG_OM ? nom : njson);
			for (k = 0; k + 1 < n; k++)
				assert_true(fmt == FIG_OM ? fl[k]->at[l].om < fl[k + 1]->at[l].om :
				    fl[k]->at[l].json < fl[k + 1]->at[l].json);
			if (n > 0)
				assert_int_equal(fmt == FIG_OM ? fl[n - 1]->at[l].om :
				    fl[n - 1]->at[l].json, n);
		}
	}
}

/* read: whether plan p gives the figure; why: the reason it never does. */
static void
gives(const struct plan *p, const char *name, bool read, enum reason why)
{
	const struct figure *f = figure_named(name);

	assert_non_null(f);
	if (figure_read(f, p) != read || figure_unread_why(f, p) != why)
		fail_msg("%s: read %d, why %s; want %d, %s", name, figure_read(f, p),
		    metrics_reason_code(figure_unread_why(f, p)), read, metrics_reason_code(why));
}

/* The plans of the sources without counters (sched and bpf share
 * sched_plan; procstat), one with cycles but no instructions, a node's
 * (no slots: its basis), and none. */
static void
test_read_by_plan(void **state)
{
	struct fixture *fx = build();
	struct plan p;

	(void)state;
	assert_null(figure_named("no_such_figure"));
	/* The scheduler: time only; the job's slots with a job. */
	sched_plan(&p, &fx->m);
	gives(&p, "util", true, R_NONE);
	gives(&p, "both", true, R_NONE);
	gives(&p, "active_threads", true, R_NONE);
	gives(&p, "ghz", false, R_NOT_COUNTED);
	gives(&p, "cpi", false, R_NOT_COUNTED);
	gives(&p, "net_ghz", false, R_NOT_COUNTED);
	gives(&p, "ipc", false, R_NOT_COUNTED);
	gives(&p, "gips", false, R_NOT_COUNTED);
	gives(&p, "issue_util", false, R_NOT_COUNTED);
	gives(&p, "steal", false, R_NO_STEAL);
	gives(&p, "job_util", false, R_NO_JOB);
	gives(&p, "job_both", false, R_NO_JOB);
	sched_plan_job(&p);
	gives(&p, "job_util", true, R_NONE);
	gives(&p, "job_both", true, R_NONE);
	gives(&p, "cpu_s", true, R_NONE);
	gives(&p, "ghz", false, R_NOT_COUNTED);
	/* /proc/stat: busy time and steal, no counter. */
	procstat_plan(&p, &fx->m, 100);
	gives(&p, "util", true, R_NONE);
	gives(&p, "steal", true, R_NONE);
	gives(&p, "ghz", false, R_NOT_COUNTED);
	gives(&p, "cpi", false, R_NOT_COUNTED);
	gives(&p, "job_none", false, R_NO_JOB);
	/* Cycles without instructions: the frequency, no CPI (the
	 * counter missing, not a source without counters). */
	memset(&p, 0, sizeof p);
	p.nslots = 3;
	p.slots[0].kind = SLOT_TSC;
	p.slots[1].kind = SLOT_REF;
	p.slots[2].kind = SLOT_CYCLES;
	gives(&p, "ghz", true, R_NONE);
	gives(&p, "net_ghz", true, R_NONE);
	gives(&p, "cpi", false, R_UNAVAILABLE);
	gives(&p, "nominal_cpi", false, R_UNAVAILABLE);
	gives(&p, "gips", false, R_UNAVAILABLE);
	/* A node's plan: its basis. */
	memset(&p, 0, sizeof p);
	p.basis = PLAN_BASIS_COUNTERS;
	gives(&p, "ghz", true, R_NONE);
	gives(&p, "cpi", true, R_NONE);
	gives(&p, "steal", false, R_NO_STEAL);
	gives(&p, "job_util", false, R_NO_JOB);
	p.basis = PLAN_BASIS_SCHED;
	gives(&p, "ghz", false, R_NOT_COUNTED);
	gives(&p, "util", true, R_NONE);
	p.basis = PLAN_BASIS_TICKS;
	gives(&p, "cpi", false, R_NOT_COUNTED);
	gives(&p, "steal", true, R_NONE);
	/* No plan: not known, shown. */
	gives(NULL, "ghz", true, R_NONE);
	free(fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_compact_roundtrip),
		cmocka_unit_test(test_csv_columns),
		cmocka_unit_test(test_om_families),
		cmocka_unit_test(test_read_by_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
