/* test_out.c: the three batch formats on one hand-built interval with an
 * exact core, a bound, a one-thread core, an offline core and a core left
 * out by --cpus. Each output is parsed back (a small JSON checker, an RFC
 * 4180 reader) and the printed values are compared with the ones put in.
 *
 * The machine: package 0 has cores 0 (CPUs 0,4) and 1 (CPUs 1,5);
 * package 1 has core 2 (CPU 2 only), core 3 (CPUs 3,6, offline) and
 * core 4 (CPUs 7,8, not selected). CPU 9 does not exist.
 *
 * Core 0, exact: N = 0.1, A = 0.2, B = 0.3, C = 0.4 of the interval, so
 *   ref0 = A + C = 0.6, ref1 = B + C = 0.7, any = A + B + C = 0.9,
 *   mean active threads = (0.6 + 0.7) / 0.9 = 1.444444444444...
 *   In text: 10.0% 20.0% 30.0% 40.0%, util 90.0%, thr 1.44.
 * Core 1, bound from u0 = 0.5, u1 = 0.6 (no `any`):
 *   C in [max(0, 0.5 + 0.6 - 1), min(0.5, 0.6)] = [0.1, 0.5]
 *   A = u0 - C in [0, 0.4], B = u1 - C in [0.1, 0.5],
 *   N = 1 - u0 - u1 + C in [0, 0.4].
 *   In text: 0.0-40.0%, 0.0-40.0%, 10.0-50.0%, 10.0-50.0% (a bound keeps
 *   its unit, as an exact share does).
 * CPU 0: base 2.1 GHz, dcyc = dref (ghz 2.1), util 0.6, CPI 1.25, so
 *   IPC = 1 / 1.25 = 0.8, nominal CPI = dtsc/dinst = 1.25 / 0.6 = 2.08333,
 *   net GHz = 2.1 * 0.6 = 1.26.
 * CPU 4: its instructions were stopped by another program: util 0.7, GHz
 *   2.1, net GHz 1.47 stay; CPI, nominal CPI and IPC are absent, reason
 *   "stopped"; core 0's issue utilisation too.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "metrics/figures.h"
#include "out/batch.h"
#include "out/runsum.h"

#define NCORES 5
#define MAXCPU 10

struct fixture {
	struct machine m;
	struct plan p;
	struct topo_core cores[NCORES];
	struct topo_cpu cpus[MAXCPU];
	struct core_fig cf[NCORES];
	struct thread_fig tf[MAXCPU];
	struct agg_fig pk[2];
	struct interval iv;
	struct die_layout layout;
	struct core_place place[NCORES];
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

	add_core(f, 0, 0, 0, 2, 0, 4);
	add_core(f, 1, 0, 1, 2, 1, 5);
	add_core(f, 2, 1, 0, 1, 2, 0);
	add_core(f, 3, 1, 2, 2, 3, 6);
	add_core(f, 4, 1, 3, 2, 7, 8);
	t->npackages = 2;
	t->ncores = NCORES;
	t->ncpus = 9;
	t->max_cpu = MAXCPU;
	t->max_smt = 2;
	t->cores = f->cores;
	t->cpus = f->cpus;
	snprintf(f->m.hostname, sizeof f->m.hostname, "node\\1");
	/* a brand with a quote and a control byte: JSON escapes them */
	snprintf(f->m.id.brand, sizeof f->m.id.brand, "Xeon \"Q\"\x01 @ 2.10GHz");
	f->m.group = UARCH_SKX;
	f->p.group = UARCH_SKX;
	/* Placement: core 0 at (1,2) of a physical grid, tile 7 = CHA 5;
	 * core 1 at (0,3), tile 9, CHA unknown; the others not placed. */
	f->layout.kind = LAYOUT_PHYSICAL;
	f->layout.basis = BASIS_CAPID6;
	f->layout.cores_assumed = true;
	f->layout.ncores = NCORES;
	f->layout.cores = f->place;
	f->place[0] = (struct core_place){ true, 0, 1, 2, 7, 5 };
	f->place[1] = (struct core_place){ true, 0, 0, 3, 9, -1 };
	f->p.split = SPLIT_ANY;
	f->p.scale = 84;

	for (i = 0; i < NCORES; i++) {
		f->cf[i].index = i;
		f->cf[i].selected = true;
		f->cf[i].reason = R_NONE;
	}
	/* Core 0: exact, with simulator truth. */
	f->cf[0].exact = true;
	f->cf[0].split = SPLIT_ANY;
	f->cf[0].neither = val_exact(0.1);
	f->cf[0].t0_only = val_exact(0.2);
	f->cf[0].t1_only = val_exact(0.3);
	f->cf[0].both = val_exact(0.4);
	f->cf[0].util = val_exact(0.9);
	f->cf[0].active_threads = val_exact(1.3 / 0.9);
	f->cf[0].cpi = val_exact(1.25);
	f->cf[0].ghz = val_exact(2.1);
	f->cf[0].issue_util = val_absent(R_STOPPED);
	f->cf[0].stopped = KIND_BIT(SLOT_INST);
	f->cf[0].has_truth = true;
	f->cf[0].truth[0] = 0.1;
	f->cf[0].truth[1] = 0.2;
	f->cf[0].truth[2] = 0.3;
	f->cf[0].truth[3] = 0.4;
	/* Core 1: the bound worked out above; an inconsistency that is not a
	 * number must still give valid output. */
	f->cf[1].exact = false;
	f->cf[1].split = SPLIT_BOUND;
	f->cf[1].neither = val_bound(0.0, 0.4);
	f->cf[1].t0_only = val_bound(0.0, 0.4);
	f->cf[1].t1_only = val_bound(0.1, 0.5);
	f->cf[1].both = val_bound(0.1, 0.5);
	f->cf[1].util = val_exact(0.9);
	f->cf[1].active_threads = val_bound(1.0, 1.0);
	f->cf[1].inconsistency = NAN;
	/* Core 2: one thread; the writer must not show a split even if given. */
	f->cf[2].exact = true;
	f->cf[2].neither = val_exact(0.25);
	f->cf[2].t0_only = val_exact(0.25);
	f->cf[2].t1_only = val_exact(0.25);
	f->cf[2].both = val_exact(0.25);
	f->cf[2].util = val_exact(0.5);
	/* Core 3: offline. Core 4: outside --cpus. */
	f->cf[3].reason = R_OFFLINE;
	f->cf[4].selected = false;
	f->cf[4].reason = R_NOT_SELECTED;

	/* Counts for the node's weights: TSC 1000 + cpu, reference cycles
	 * 100 (cpu + 1), instructions 10 (cpu + 1). */
	for (i = 0; i < MAXCPU; i++) {
		f->tf[i].cpu = i;
		f->tf[i].reason = R_NONE;
		f->tf[i].d_tsc = 1000 + i;
		f->tf[i].d_ref = 100 * (i + 1);
		f->tf[i].d_inst = 10 * (i + 1);
	}
	f->tf[0].util = val_exact(0.6);
	f->tf[0].cpi = val_exact(1.25);
	f->tf[0].nominal_cpi = val_exact(1.25 / 0.6);
	f->tf[0].ghz = val_exact(2.1);
	f->tf[0].net_ghz = val_exact(2.1 * 0.6);
	f->tf[0].ipc = val_exact(0.8);
	f->tf[1].ghz = val_bound(1.0, 2.0);
	f->tf[4].util = val_exact(0.7);
	f->tf[4].cpi = val_absent(R_STOPPED);
	f->tf[4].nominal_cpi = val_absent(R_STOPPED);
	f->tf[4].ghz = val_exact(2.1);
	f->tf[4].net_ghz = val_exact(1.47);
	f->tf[4].ipc = val_absent(R_STOPPED);
	f->tf[4].stopped = KIND_BIT(SLOT_INST);
	f->tf[3].reason = R_OFFLINE;
	f->tf[6].reason = R_OFFLINE;
	f->tf[7].reason = R_NOT_SELECTED;
	f->tf[8].reason = R_NOT_SELECTED;
	f->tf[9].reason = R_NOT_SELECTED;

	f->pk[0].ncores = 2;
	f->pk[0].nvalid = 2;
	f->pk[0].util = val_exact(0.9);
	f->pk[1].ncores = 2;
	f->pk[1].nvalid = 1;
	f->pk[1].util = val_exact(0.5);

	f->iv.time = 2.0;
	f->iv.dt = 1.0;
	/* 2024-01-01T00:00:02.5Z; the tests run with TZ=UTC0 (main). */
	f->iv.wall = 1704067202.5;
	f->iv.valid = false;
	/* The display text (translated) and the one files get (untranslated):
	 * the files must take reason_c. */
	snprintf(f->iv.reason, sizeof f->iv.reason, "Kern 2 (CPUs 3,6): offline");
	snprintf(f->iv.reason_c, sizeof f->iv.reason_c, "core 2 \"x\"\t(cpus 3,6): offline");
	f->iv.ncores = NCORES;
	f->iv.max_cpu = MAXCPU;
	f->iv.npackages = 2;
	f->iv.cores = f->cf;
	f->iv.threads = f->tf;
	f->iv.packages = f->pk;
	f->iv.node.ncores = 4;
	f->iv.node.nvalid = 3;
	f->iv.node.exact = false;
	f->iv.node.util = val_exact(0.7);
	f->iv.node.both_of_busy = val_exact(0.5);
	return f;
}

/* Write `n` copies of the interval in format `fmt`; returns the text. */
static char *
render(struct fixture *f, enum out_format fmt, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct batch *b;
	struct errmsg e;
	int i;

	assert_non_null(fp);
	b = batch_new(fmt, fp, &f->m, &f->p, "sim");
	batch_set_layout(b, &f->layout);
	for (i = 0; i < n; i++)
		assert_int_equal(batch_write(b, &f->iv, &e), 0);
	batch_free(b);
	fclose(fp);
	if (getenv("TEST_OUT_SHOW") != NULL)   /* to look at the output by eye */
		fprintf(stderr, "%s", buf);
	return buf;
}

/* ---- a strict JSON checker (RFC 8259 grammar, no extensions) ---- */

static const char *json_value(const char *p);

static const char *
ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *
json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				int k;

				for (k = 1; k <= 4; k++)
					if (!isxdigit((unsigned char)p[k]))
						return NULL;
				p += 4;
			} else if (strchr("\"\\/bfnrt", *p) == NULL || *p == '\0') {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *
json_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

static const char *
json_seq(const char *p, char close, bool object)
{
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = json_string(ws(p));
			if (p == NULL || *(p = ws(p)) != ':')
				return NULL;
			p++;
		}
		p = json_value(p);
		if (p == NULL)
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p != ',')
			return NULL;
		p++;
	}
}

static const char *
json_value(const char *p)
{
	p = ws(p);
	switch (*p) {
	case '{': return json_seq(p, '}', true);
	case '[': return json_seq(p, ']', false);
	case '"': return json_string(p);
	case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
	case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
	case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	default: return json_number(p);
	}
}

/* One complete JSON value and nothing else on the line. */
static bool
json_line_ok(const char *line, size_t len)
{
	char buf[32768];
	const char *end;

	if (len >= sizeof buf)
		return false;
	memcpy(buf, line, len);
	buf[len] = '\0';
	end = json_value(buf);
	return end != NULL && *ws(end) == '\0';
}

static bool
json_ok(const char *s)
{
	return json_line_ok(s, strlen(s));
}

static void
test_json_checker_itself(void **state)
{
	(void)state;
	assert_true(json_ok("{\"a\":[1,-2.5e3,null,true],\"b\":\"\\u0009\"}"));
	assert_true(json_ok(" [ {} , [] ] "));
	assert_false(json_ok("{\"a\":NaN}"));
	assert_false(json_ok("{\"a\":1,}"));
	assert_false(json_ok("{\"a\":01}"));
	assert_false(json_ok("{\"a\":\"x\ty\"}"));
	assert_false(json_ok("{\"a\":1} x"));
}

/* The table's rows the CSV carries (each three columns). */
static int
csv_rows(void)
{
	size_t i;
	int n = 0;

	for (i = 0; i < nfigures; i++)
		n += (figures[i].formats & FIG_CSV) != 0;
	return n;
}

/* `head` is in out, followed by the members of the level's figures after
 * `after` in JSON order, every one null (rows added to the table since
 * this test was written: the fixture leaves them absent without a
 * reason), then by `tail`. */
static void
assert_then(const char *out, const char *head, enum fig_level l, const char *after,
    const char *tail)
{
	const char *p = strstr(out, head);
	const struct figure *const *fl;
	size_t n, i;
	bool past = false;

	if (p == NULL)
		fail_msg("not in the output: %s", head);
	p += strlen(head);
	fl = figures_of(l, FIG_JSON, &n);
	for (i = 0; i < n; i++) {
		if (past) {
			char m[200];

			snprintf(m, sizeof m, ",\"%s\":null,\"%s\":null,\"%s\":null", fl[i]->name,
			    fl[i]->lo, fl[i]->hi);
			if (strncmp(p, m, strlen(m)) != 0)
				fail_msg("after %s: %.80s, not %s", head, p, m);
			p += strlen(m);
		}
		past = past || strcmp(fl[i]->name, after) == 0;
	}
	assert_true(past);
	if (strncmp(p, tail, strlen(tail)) != 0)
		fail_msg("after %s: %.80s, not %s", head, p, tail);
}

static void
test_json(void **state)
{
	struct fixture *f = build();
	char *out = render(f, FMT_JSON, 2);
	char want[512];
	const char *p, *nl;
	int lines = 0;

	(void)state;
	for (p = out; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		lines++;
		if (!json_line_ok(p, (size_t)(nl - p)))
			fail_msg("invalid JSON line %d: %.*s", lines, (int)(nl - p), p);
	}
	assert_int_equal(lines, 2);
	assert_string_equal(p, "");
	assert_null(strstr(out, "nan"));
	assert_null(strstr(out, "inf"));

	assert_non_null(strstr(out, "{\"time\":2.000000,\"unix_time\":1704067202.500000,"
	    "\"iso_time\":\"2024-01-01T00:00:02.500000+00:00\",\"interval\":1.000000,\"valid\":false,"
	    "\"reason\":\"core 2 \\\"x\\\"\\u0009(cpus 3,6): offline\",\"host\":\"node\\\\1\","
	    "\"brand\":\"Xeon \\\"Q\\\"\\u0001 @ 2.10GHz\","
	    "\"source\":\"sim\",\"group\":\"skx\",\"split\":"));
	/* Core 0 exact, with the truth. */
	assert_non_null(strstr(out, "\"split\":\"any\",\"scale\":84,\"layout\":\"physical\","
	    "\"layout_basis\":\"capid6\",\"cores_assumed\":true,"));
	/* An exact figure: x, with x_lo and x_hi null. */
	assert_then(out, "{\"package\":0,\"core\":0,\"cpus\":[0,4],"
	    "\"tile\":{\"row\":1,\"col\":2,\"id\":7,\"cha\":5},"
	    "\"neither\":0.1,\"neither_lo\":null,\"neither_hi\":null,"
	    "\"t0_only\":0.2,\"t0_only_lo\":null,\"t0_only_hi\":null,\"t1_only\":0.3,\"t1_only_lo\":null,\"t1_only_hi\":null,"
	    "\"both\":0.4,\"both_lo\":null,\"both_hi\":null,\"exact\":true,\"util\":0.9,\"util_lo\":null,\"util_hi\":null,"
	    "\"active_threads\":1.44444,\"active_threads_lo\":null,\"active_threads_hi\":null,\"issue_util\":null,\"issue_util_lo\":null,\"issue_util_hi\":null,"
	    "\"cpi\":1.25,\"cpi_lo\":null,\"cpi_hi\":null,\"ghz\":2.1,\"ghz_lo\":null,\"ghz_hi\":null,"
	    "\"job_both\":null,\"job_both_lo\":null,\"job_both_hi\":null,\"job_alone\":null,\"job_alone_lo\":null,\"job_alone_hi\":null,\"job_shared\":null,\"job_shared_lo\":null,\"job_shared_hi\":null,"
	    "\"job_none\":null,\"job_none_lo\":null,\"job_none_hi\":null", FIG_CORE, "job_none",
	    ",\"valid\":true,\"absent\":{\"issue_util\":\"stopped\"},\"stopped\":[\"inst\"],"
	    "\"inconsistency\":0,"
	    "\"truth\":{\"neither\":0.1,\"t0_only\":0.2,\"t1_only\":0.3,\"both\":0.4}}");
	/* Core 1 bound: x null, x_lo and x_hi; NaN inconsistency printed as null. */
	assert_non_null(strstr(out, "\"cpus\":[1,5],\"tile\":{\"row\":0,\"col\":3,\"id\":9},"
	    "\"neither\":null,\"neither_lo\":0,\"neither_hi\":0.4,\"t0_only\":null,\"t0_only_lo\":0,\"t0_only_hi\":0.4,"
	    "\"t1_only\":null,\"t1_only_lo\":0.1,\"t1_only_hi\":0.5,\"both\":null,\"both_lo\":0.1,\"both_hi\":0.5,\"exact\":false,"
	    "\"util\":0.9,\"util_lo\":null,\"util_hi\":null,\"active_threads\":null,\"active_threads_lo\":1,\"active_threads_hi\":1,"));
	assert_non_null(strstr(out, "\"inconsistency\":null"));
	/* Core 2 has one thread: no split. */
	assert_non_null(strstr(out, "\"cpus\":[2],\"tile\":null,\"neither\":null,\"neither_lo\":null,\"neither_hi\":null,"
	    "\"t0_only\":null,\"t0_only_lo\":null,\"t0_only_hi\":null,\"t1_only\":null,\"t1_only_lo\":null,\"t1_only_hi\":null,\"both\":null,\"both_lo\":null,\"both_hi\":null"));
	/* Core 3 offline. */
	snprintf(want, sizeof want, "\"cpus\":[3,6],\"tile\":null,\"neither\":null,\"neither_lo\":null,\"neither_hi\":null,"
	    "\"t0_only\":null,\"t0_only_lo\":null,\"t0_only_hi\":null,\"t1_only\":null,\"t1_only_lo\":null,\"t1_only_hi\":null,\"both\":null,\"both_lo\":null,\"both_hi\":null,"
	    "\"exact\":false,\"util\":null,\"util_lo\":null,\"util_hi\":null");
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof want, "\"valid\":false,\"reason\":\"%s\"", metrics_reason_code(R_OFFLINE));
	assert_non_null(strstr(out, want));
	/* Core 4 and CPUs 7-9 are not shown. */
	assert_null(strstr(out, "[7,8]"));
	assert_null(strstr(out, "\"cpu\":7"));
	assert_null(strstr(out, "\"cpu\":9"));
	/* Thread figures. */
	assert_then(out, "{\"cpu\":0,\"package\":0,\"core\":0,\"thread\":0,\"valid\":true,"
	    "\"util\":0.6,\"util_lo\":null,\"util_hi\":null,\"cpi\":1.25,\"cpi_lo\":null,\"cpi_hi\":null,"
	    "\"nominal_cpi\":2.08333,\"nominal_cpi_lo\":null,\"nominal_cpi_hi\":null,\"ghz\":2.1,\"ghz_lo\":null,\"ghz_hi\":null,"
	    "\"net_ghz\":1.26,\"net_ghz_lo\":null,\"net_ghz_hi\":null,\"ipc\":0.8,\"ipc_lo\":null,\"ipc_hi\":null,"
	    "\"steal\":null,\"steal_lo\":null,\"steal_hi\":null,"
	    "\"job_util\":null,\"job_util_lo\":null,\"job_util_hi\":null", FIG_THREAD, "job_util", "}");
	assert_non_null(strstr(out, "{\"cpu\":1,\"package\":0,\"core\":1,\"thread\":0,\"valid\":true,"
	    "\"util\":null,\"util_lo\":null,\"util_hi\":null,\"cpi\":null,\"cpi_lo\":null,\"cpi_hi\":null,\"nominal_cpi\":null,\"nominal_cpi_lo\":null,\"nominal_cpi_hi\":null,"
	    "\"ghz\":null,\"ghz_lo\":1,\"ghz_hi\":2,"));
	assert_non_null(strstr(out, "{\"cpu\":6,\"package\":1,\"core\":2,\"thread\":1,\"valid\":false"));
	/* A stopped counter: the absent figures and why, the counter. */
	assert_then(out, "{\"cpu\":4,\"package\":0,\"core\":0,\"thread\":1,\"valid\":true,"
	    "\"util\":0.7,\"util_lo\":null,\"util_hi\":null,\"cpi\":null,\"cpi_lo\":null,\"cpi_hi\":null,\"nominal_cpi\":null,\"nominal_cpi_lo\":null,\"nominal_cpi_hi\":null,"
	    "\"ghz\":2.1,\"ghz_lo\":null,\"ghz_hi\":null,\"net_ghz\":1.47,\"net_ghz_lo\":null,\"net_ghz_hi\":null,\"ipc\":null,\"ipc_lo\":null,\"ipc_hi\":null,"
	    "\"steal\":null,\"steal_lo\":null,\"steal_hi\":null,"
	    "\"job_util\":null,\"job_util_lo\":null,\"job_util_hi\":null", FIG_THREAD, "job_util",
	    ",\"absent\":{\"cpi\":\"stopped\",\"nominal_cpi\":\"stopped\",\"ipc\":\"stopped\"},"
	    "\"stopped\":[\"inst\"]}");
	/* Aggregates. */
	assert_non_null(strstr(out, "\"node\":{\"ncores\":4,\"nvalid\":3,\"exact\":false,"));
	/* The node's weights over its valid cores 0 [0,4], 1 [1,5] and 2 [2]
	 * (3 offline, 4 not selected): TSC of each core's first thread
	 * 1000 + 1001 + 1002; reference cycles 100 (1 + 5 + 2 + 6 + 3) and
	 * instructions 10 (17) over their threads. */
	assert_then(out, "\"both_of_busy\":0.5,\"both_of_busy_lo\":null,\"both_of_busy_hi\":null,"
	    "\"job_both\":null,\"job_both_lo\":null,\"job_both_hi\":null,\"job_alone\":null,\"job_alone_lo\":null,\"job_alone_hi\":null,\"job_shared\":null,\"job_shared_lo\":null,\"job_shared_hi\":null,"
	    "\"job_none\":null,\"job_none_lo\":null,\"job_none_hi\":null,\"cpu_s\":null,\"cpu_s_lo\":null,\"cpu_s_hi\":null",
	    FIG_AGG, "cpu_s",
	    ",\"weights\":{\"tsc\":3003,\"ref\":1700,\"inst\":170}},\"packages\":[{\"package\":0,\"ncores\":2,");
	assert_non_null(strstr(out, "{\"package\":1,\"ncores\":2,\"nvalid\":1,"));
	free(out);
	free(f);
}

/* One figure as the full form writes it, worked out here apart from
 * json.c: form 0 exact 0.5, 1 a bound 0.25 to 0.75, 2 null without a
 * reason, 3 absent "stopped" (noted in *absent). */
static void
shape_member(char *w, size_t len, const struct figure *fg, unsigned form, char *absent,
    size_t alen)
{
	size_t n = strlen(w);

	if (form == 0)
		snprintf(w + n, len - n, ",\"%s\":0.5,\"%s\":null,\"%s\":null", fg->name, fg->lo,
		    fg->hi);
	else if (form == 1)
		snprintf(w + n, len - n, ",\"%s\":null,\"%s\":0.25,\"%s\":0.75", fg->name, fg->lo,
		    fg->hi);
	else
		snprintf(w + n, len - n, ",\"%s\":null,\"%s\":null,\"%s\":null", fg->name, fg->lo,
		    fg->hi);
	if (form == 3) {
		n = strlen(absent);
		snprintf(absent + n, alen - n, "%s\"%s\":\"stopped\"", n > 0 ? "," : "", fg->name);
	}
}

static struct val
shape_val(unsigned form)
{
	struct val v = val_absent(R_NONE);

	if (form == 0)
		v = val_exact(0.5);
	else if (form == 1)
		v = val_bound(0.25, 0.75);
	else if (form == 3)
		v = val_absent(R_STOPPED);
	return v;
}

/* The JSON writer keeps the shapes of objects it met (json.c's jshape:
 * the forms of an object's figures) and writes an object of a known shape
 * from its pieces. Each line here gives each thread of the fixture
 * another shape (the forms by a hash of line, CPU and figure: 5 threads x
 * 6 lines, far more shapes than it keeps, some met again), and each
 * thread's object must be what the forms say, worked out here. */
static void
test_json_shapes(void **state)
{
	static const unsigned cpu[] = { 0, 1, 2, 4, 5 };
	struct fixture *f = build();
	char *buf = NULL, w[4096], absent[1024];
	size_t len = 0, start, n, i, c;
	const struct figure *const *fl = figures_of(FIG_THREAD, FIG_JSON, &n);
	FILE *fp = open_memstream(&buf, &len);
	struct batch *b;
	struct errmsg e;
	unsigned line, form[MAXCPU][FIG_MAX];
	const char *at;

	(void)state;
	assert_non_null(fp);
	b = batch_new(FMT_JSON, fp, &f->m, &f->p, "sim");
	for (line = 0; line < 6; line++) {
		for (c = 0; c < sizeof cpu / sizeof cpu[0]; c++) {
			struct thread_fig *t = &f->tf[cpu[c]];

			t->reason = R_NONE;
			t->stopped = 0;
			t->scaled = false;
			for (i = 0; i < n; i++) {
				form[cpu[c]][i] = (line * 7 + cpu[c] * 3 + i * (line + 1)) % 4;
				*fig_val_w(fl[i], FIG_THREAD, t) = shape_val(form[cpu[c]][i]);
			}
		}
		fflush(fp);
		start = len;
		assert_int_equal(batch_write(b, &f->iv, &e), 0);
		fflush(fp);
		for (c = 0; c < sizeof cpu / sizeof cpu[0]; c++) {
			const struct topo_cpu *tc = &f->cpus[cpu[c]];

			snprintf(w, sizeof w, "{\"cpu\":%u,\"package\":%u,\"core\":%u,\"thread\":%u,"
			    "\"valid\":true", cpu[c], tc->package, f->cores[tc->core].core_id, tc->thread);
			absent[0] = '\0';
			for (i = 0; i < n; i++)
				shape_member(w, sizeof w, fl[i], form[cpu[c]][i], absent, sizeof absent);
			if (absent[0] != '\0') {
				strncat(w, ",\"absent\":{", sizeof w - strlen(w) - 1);
				strncat(w, absent, sizeof w - strlen(w) - 1);
				strncat(w, "}", sizeof w - strlen(w) - 1);
			}
			strncat(w, "}", sizeof w - strlen(w) - 1);
			at = strstr(buf + start, w);
			if (at == NULL)
				fail_msg("line %u, cpu %u: not in the output: %s", line, cpu[c], w);
		}
	}
	batch_free(b);
	fclose(fp);
	free(buf);
	free(f);
}

/* A string with characters a terminal acts on but JSON may hold raw (C1
 * CSI U+009B, RIGHT-TO-LEFT OVERRIDE U+202E, TAG LATIN SMALL LETTER A
 * U+E0061: 0xe0061 - 0x10000 = 0xd0061, high
 * 0xd800 + 0x340 = 0xdb40, low 0xdc00 + 0x61 = 0xdc61) goes out as \u
 * escapes: no line of httop's holds one raw. An e-acute stays as it is. */
static void
test_json_controls(void **state)
{
	struct fixture *f = build();
	char *out;

	(void)state;
	snprintf(f->iv.reason_c, sizeof f->iv.reason_c, "a\xc2\x9b" "b\xe2\x80\xae" "c\xf3\xa0\x81\xa1"
	    "d\xc3\xa9");
	out = render(f, FMT_JSON, 1);
	assert_non_null(strstr(out, "\"reason\":\"a\\u009bb\\u202ec\\udb40\\udc61d\xc3\xa9\","));
	free(out);
	free(f);
}

/* ---- RFC 4180 reader: one record from *p into fields[], returns count ---- */

#define MAXF 96

static int
csv_record(const char **pp, char fields[MAXF][300])
{
	const char *p = *pp;
	int n = 0;
	size_t len;

	for (;;) {
		len = 0;
		if (*p == '"') {
			p++;
			for (;;) {
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"') {
					fields[n][len++] = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					fields[n][len++] = *p++;
				}
			}
		} else {
			while (*p != ',' && *p != '\n' && *p != '\0') {
				if (*p == '"')
					return -1;
				fields[n][len++] = *p++;
			}
		}
		fields[n++][len] = '\0';
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n')
			p++;
		*pp = p;
		return n;
	}
}

static int
col(char head[MAXF][300], int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return i;
	fail_msg("no column %s", name);
	return -1;
}

static void
test_csv(void **state)
{
	struct fixture *f = build();
	char *out = render(f, FMT_CSV, 2);
	static char head[MAXF][300], r[MAXF][300];
	const char *p = out;
	int nh, n, rows = 0, cores = 0, threads = 0, seen_bound = 0;

	(void)state;
	nh = csv_record(&p, head);
	/* 21 fixed columns and each row's x, x_lo and x_hi: 81 with the 20
	 * rows of the table as this was written */
	assert_int_equal(nh, 21 + 3 * csv_rows());
	assert_string_equal(head[55], "absent");
	assert_string_equal(head[56], "stopped");
	assert_string_equal(head[57], "unix_time");
	assert_string_equal(head[58], "host");
	assert_string_equal(head[59], "job");
	/* a figure added since: after the columns that were there */
	assert_string_equal(head[60], "steal");
	assert_string_equal(head[62], "steal_hi");
	assert_string_equal(head[63], "job_both");
	assert_string_equal(head[78], "cpu_s");
	assert_string_equal(head[80], "cpu_s_hi");
	assert_string_equal(head[0], "kind");
	while (*p != '\0') {
		n = csv_record(&p, r);
		assert_int_equal(n, nh);
		rows++;
		if (strcmp(r[0], "node") == 0) {
			assert_string_equal(r[col(head, nh, "valid")], "0");
			/* quoted as CSV wants, its tab escaped as any
			 * control character (textesc.h) */
			assert_string_equal(r[col(head, nh, "reason")],
			    "core 2 \"x\"\\x09(cpus 3,6): offline");
			assert_string_equal(r[col(head, nh, "util")], "0.7");
			assert_string_equal(r[col(head, nh, "both_of_busy")], "0.5");
		} else if (strcmp(r[0], "core") == 0) {
			cores++;
			assert_string_not_equal(r[col(head, nh, "cpus")], "7 8");
			if (strcmp(r[col(head, nh, "cpus")], "0 4") == 0) {
				assert_string_equal(r[col(head, nh, "neither")], "0.1");
				assert_string_equal(r[col(head, nh, "neither_lo")], "");
				assert_string_equal(r[col(head, nh, "neither_hi")], "");
				assert_string_equal(r[col(head, nh, "both")], "0.4");
				assert_string_equal(r[col(head, nh, "exact")], "1");
				assert_string_equal(r[col(head, nh, "active_threads")], "1.44444");
				assert_string_equal(r[col(head, nh, "truth_t1_only")], "0.3");
				assert_string_equal(r[col(head, nh, "time")], "2.000000");
				assert_string_equal(r[col(head, nh, "unix_time")], "1704067202.500000");
			}
			if (strcmp(r[col(head, nh, "cpus")], "1 5") == 0) {
				seen_bound++;
				assert_string_equal(r[col(head, nh, "neither")], "");
				assert_string_equal(r[col(head, nh, "neither_lo")], "0");
				assert_string_equal(r[col(head, nh, "neither_hi")], "0.4");
				assert_string_equal(r[col(head, nh, "t1_only")], "");
				assert_string_equal(r[col(head, nh, "t1_only_lo")], "0.1");
				assert_string_equal(r[col(head, nh, "t1_only_hi")], "0.5");
				assert_string_equal(r[col(head, nh, "exact")], "0");
				assert_string_equal(r[col(head, nh, "inconsistency")], "");
			}
			if (strcmp(r[col(head, nh, "cpus")], "2") == 0)
				assert_string_equal(r[col(head, nh, "both")], "");
			if (strcmp(r[col(head, nh, "cpus")], "3 6") == 0) {
				assert_string_equal(r[col(head, nh, "valid")], "0");
				assert_string_equal(r[col(head, nh, "reason")], metrics_reason_code(R_OFFLINE));
			}
		} else if (strcmp(r[0], "thread") == 0) {
			threads++;
			assert_int_not_equal(atoi(r[col(head, nh, "cpu")]), 7);
			if (strcmp(r[col(head, nh, "cpu")], "0") == 0) {
				assert_string_equal(r[col(head, nh, "nominal_cpi")], "2.08333");
				assert_string_equal(r[col(head, nh, "net_ghz")], "1.26");
				assert_string_equal(r[col(head, nh, "cpus")], "");
			}
			if (strcmp(r[col(head, nh, "cpu")], "1") == 0) {
				assert_string_equal(r[col(head, nh, "ghz")], "");
				assert_string_equal(r[col(head, nh, "ghz_lo")], "1");
				assert_string_equal(r[col(head, nh, "ghz_hi")], "2");
			}
			if (strcmp(r[col(head, nh, "cpu")], "4") == 0) {
				assert_string_equal(r[col(head, nh, "ipc")], "");
				assert_string_equal(r[col(head, nh, "absent")],
				    "cpi:stopped nominal_cpi:stopped ipc:stopped");
				assert_string_equal(r[col(head, nh, "stopped")], "inst");
			} else {
				assert_string_equal(r[col(head, nh, "stopped")], "");
			}
		}
	}
	/* Per interval: node + 2 packages + 4 shown cores + 7 shown threads. */
	assert_int_equal(rows, 2 * 14);
	assert_int_equal(cores, 2 * 4);
	assert_int_equal(threads, 2 * 7);
	assert_int_equal(seen_bound, 2);
	free(out);
	free(f);
}

/* The line of `out` that starts with `prefix`, copied to buf. */
static const char *
line_with(const char *out, const char *prefix, char *buf, size_t len)
{
	const char *p = out, *nl;

	for (; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			break;
		if (strncmp(p, prefix, strlen(prefix)) == 0) {
			snprintf(buf, len, "%.*s", (int)(nl - p), p);
			return buf;
		}
	}
	fail_msg("no line starting with '%s' in:\n%s", prefix, out);
	return NULL;
}

static void
test_text(void **state)
{
	struct fixture *f = build();
	char *out = render(f, FMT_TEXT, 1);
	char l[512];
	const char *p;
	int lines = 0;

	(void)state;
	for (p = out; *p != '\0'; p++)
		lines += *p == '\n';
	/* time, node, INVALID, column header, 4 cores. */
	assert_int_equal(lines, 8);
	assert_non_null(strstr(line_with(out, "time ", l, sizeof l),
	    "time 2.000 s (Unix time 1704067202.500), interval 1.000 s, host node\\1, source sim, skx"));
	assert_non_null(strstr(line_with(out, "node: ", l, sizeof l), "util 70.0%"));
	line_with(out, "INVALID: Kern 2 (CPUs 3,6)", l, sizeof l);   /* the display text */
	line_with(out, "pkg core cpus", l, sizeof l);

	line_with(out, "  0    0 0,4 ", l, sizeof l);
	assert_non_null(strstr(l, "  10.0%       20.0%       30.0%       40.0%       90.0%      1.44      1.25      2.10  ok; stopped: inst"));
	line_with(out, "  0    1 1,5 ", l, sizeof l);
	/* A bound [1, 1] prints as one number; the status says bound. */
	assert_non_null(strstr(l, "  0.0-40.0%   0.0-40.0%  10.0-50.0%  10.0-50.0%       90.0%      1.00         -         -  bound"));
	line_with(out, "  1    0 2 ", l, sizeof l);
	assert_non_null(strstr(l, "  -           -           -           -       50.0%"));
	assert_non_null(strstr(l, "no split"));
	line_with(out, "  1    2 3,6 ", l, sizeof l);
	assert_non_null(strstr(l, metrics_reason_text(R_OFFLINE)));
	assert_null(strstr(out, "7,8"));
	free(out);
	free(f);
}

/* A watched job's interval in text (FMT_TEXT) as `fmt` gives it. */
static char *
render_job(struct fixture *f, enum out_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct job_ident j;
	struct batch *b;
	struct errmsg e;

	assert_non_null(fp);
	memset(&j, 0, sizeof j);
	snprintf(j.kind, sizeof j.kind, "slurm");
	snprintf(j.id, sizeof j.id, "4711\033x");
	b = batch_new(fmt, fp, &f->m, &f->p, "sched");
	batch_set_job(b, &j);
	batch_set_scope(b, OUT_SCOPE_JOB);
	assert_int_equal(batch_write(b, &f->iv, &e), 0);
	batch_free(b);
	fclose(fp);
	return buf;
}

/* Text names the watched job and gives its own figures, as json, csv and
 * the summary do (it gave neither): its id (escaped) and kind, its CPU
 * seconds and its split in percent (a bound lo-hi), CPI and GHz; each
 * absent one with its reason. */
static void
test_text_job(void **state)
{
	struct fixture *f = build();
	char l[1024], *out;

	(void)state;
	f->iv.node.cpu_s = val_exact(1.2346);
	f->iv.node.job_both = val_exact(0.25);
	f->iv.node.job_alone = val_exact(0.5);
	f->iv.node.job_shared = val_bound(0.1, 0.2);
	f->iv.node.job_none = val_exact(0.05);
	f->iv.job_cpi = val_exact(1.5);
	f->iv.job_ghz = val_exact(2.25);
	out = render_job(f, FMT_TEXT);
	line_with(out, "job: util 70.0%", l, sizeof l);
	line_with(out, "job 4711", l, sizeof l);
	assert_string_equal(l, "job 4711\\x1bx (slurm): its own CPU 1.235 s, both 25.0%, "
	    "alone 50.0%, shared 10.0-20.0%, none 5.0%; CPI 1.50, GHz 2.25");
	assert_null(strchr(out, '\033'));
	free(out);

	/* Its tasks not told apart, no cgroup events: dashes and reasons. */
	f->iv.node.cpu_s = val_absent(R_NO_JOB);
	f->iv.node.job_both = val_absent(R_NO_JOB);
	f->iv.job_cpi = val_absent(R_NO_CGROUP_EVENTS);
	f->iv.job_ghz = val_absent(R_NO_CGROUP_EVENTS);
	out = render_job(f, FMT_TEXT);
	line_with(out, "job 4711", l, sizeof l);
	assert_non_null(strstr(l, "its own CPU seconds and split - ("));
	assert_non_null(strstr(l, metrics_reason_text(R_NO_JOB)));
	assert_non_null(strstr(l, "; CPI and GHz - ("));
	assert_non_null(strstr(l, metrics_reason_text(R_NO_CGROUP_EVENTS)));
	free(out);

	/* CPU seconds known, no split (one thread a core): the reason. */
	f->iv.node.cpu_s = val_exact(0.5);
	f->iv.node.job_both = val_absent(R_NO_SPLIT);
	f->iv.node.job_alone = val_absent(R_NO_SPLIT);
	f->iv.node.job_shared = val_absent(R_NO_SPLIT);
	f->iv.node.job_none = val_absent(R_NO_SPLIT);
	out = render_job(f, FMT_TEXT);
	line_with(out, "job 4711", l, sizeof l);
	assert_non_null(strstr(l, "its own CPU 0.500 s, both -, alone -, shared -, none - ("));
	assert_non_null(strstr(l, metrics_reason_text(R_NO_SPLIT)));
	free(out);

	/* CPU seconds a bound (a core's records lost): lo-hi, said to be
	 * one, in text and the summary; json's job object null with cpu_s_lo
	 * and cpu_s_hi (it gave the reason of no absence, and null alone). */
	f->iv.node.cpu_s = val_bound(0.6, 2.6);
	out = render_job(f, FMT_TEXT);
	line_with(out, "job 4711", l, sizeof l);
	assert_non_null(strstr(l, "its own CPU 0.600-2.600 s (a bound: not all of its cores' time "
	    "counted), both -"));
	free(out);
	out = render_job(f, FMT_SUMMARY);
	assert_non_null(strstr(out, "its own cpu 0.600-2.600 s (a bound), shared"));
	free(out);
	out = render_job(f, FMT_JSON);
	assert_non_null(strstr(out, "\"cpu_s\":null,\"cpu_s_lo\":0.6,\"cpu_s_hi\":2.6,\"cpi\""));
	free(out);
	free(f);
}

static void
test_write_error(void **state)
{
	struct fixture *f = build();
	FILE *fp = fopen("/dev/full", "w");
	struct batch *b;
	struct errmsg e;

	(void)state;
	if (fp == NULL)
		skip_because("no /dev/full here");
	b = batch_new(FMT_JSON, fp, &f->m, &f->p, "sim");
	assert_int_equal(batch_write(b, &f->iv, &e), -1);
	assert_int_equal(batch_errno(b), ENOSPC);
	assert_non_null(strstr(e.text, "json"));
	batch_free(b);
	fclose(fp);
	free(f);
}

/* The summaries for a person (out/runsum.c) and the bare command's JSON
 * return the errno of the write that failed: ENOSPC on /dev/full, EBADF
 * on a descriptor closed under the stream, whatever errno held before
 * (EILSEQ here, as a conversion may leave it). A stream whose error flag
 * an earlier failure set (a read on a write-only stream: EBADF) but that
 * writes now is no failure: the summary is all there, 0. */
static void
test_summary_write_error(void **state)
{
	struct fixture *f = build();
	char *const argv[] = { "true", NULL };
	struct run_summary s;
	struct run_bare r;
	char path[] = "/tmp/httop-test-out.XXXXXX", line[256];
	FILE *fp;
	int fd, found = 0;

	(void)state;
	memset(&s, 0, sizeof s);
	s.argv = argv;
	s.pid = 42;
	s.ended = "exit status 0";
	s.seconds = 1.0;
	s.covered = 1.0;
	s.source = "sim";
	s.cpus = "0-9";
	memset(&r, 0, sizeof r);
	r.argv = argv;
	r.pid = 42;
	r.ended = "exit status 0";
	r.why = "none";
	if ((fp = fopen("/dev/full", "w")) == NULL)
		skip_because("no /dev/full here");
	errno = EILSEQ;
	assert_int_equal(out_run_summary(fp, &f->m, &f->iv, &s), ENOSPC);
	errno = EILSEQ;
	assert_int_equal(out_run_bare(fp, &r), ENOSPC);
	errno = EILSEQ;
	assert_int_equal(out_run_bare_json(fp, &r), ENOSPC);
	fclose(fp);

	fd = dup(STDOUT_FILENO);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	close(fd);
	errno = EILSEQ;
	assert_int_equal(out_run_summary(fp, &f->m, &f->iv, &s), EBADF);
	fclose(fp);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	assert_int_equal(fgetc(fp), EOF);
	assert_true(ferror(fp));
	errno = EILSEQ;
	assert_int_equal(out_run_summary(fp, &f->m, &f->iv, &s), 0);
	fclose(fp);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof line, fp) != NULL)
		found += strstr(line, "httop: true (pid 42): exit status 0 after 1.00 s") != NULL;
	fclose(fp);
	unlink(path);
	assert_int_equal(found, 1);
	free(f);
}

static void
test_format_names(void **state)
{
	enum out_format fmt = FMT_TEXT;

	(void)state;
	assert_int_equal(out_format_parse("json", &fmt), 0);
	assert_int_equal(fmt, FMT_JSON);
	assert_int_equal(out_format_parse("csv", &fmt), 0);
	assert_int_equal(fmt, FMT_CSV);
	assert_int_equal(out_format_parse("text", &fmt), 0);
	assert_int_equal(fmt, FMT_TEXT);
	assert_int_equal(out_format_parse("JSON", &fmt), -1);
	assert_int_equal(out_format_parse("", &fmt), -1);
	assert_string_equal(out_format_name(FMT_CSV), "csv");
}

/* The wall time as the formats write it (out/walltime.c), worked by hand:
 * 1704067202.5 is 2024-01-01T00:00:02.5Z; in the POSIX zone IST-5:30 it
 * is 05:30:02.5 local, offset +05:30; in NST3:30, 20:30:02.5 the day
 * before, -03:30. 1704067202.9999996 rounds to the microsecond
 * .000000 of the next second (the ISO date too); 1704067202.9995 is
 * .999500 to the microsecond and 03.000 to the millisecond (carried).
 * 0, a negative time, NaN and 1e11 are "not known": "-". */
static void
test_walltime(void **state)
{
	struct walltime w;

	(void)state;
	setenv("TZ", "IST-5:30", 1);
	tzset();
	walltime_format(&w, 1704067202.5);
	assert_true(w.known);
	assert_string_equal(w.unix6, "1704067202.500000");
	assert_int_equal(w.unix6_len, 17);
	assert_string_equal(w.unix3, "1704067202.500");
	assert_string_equal(w.iso, "2024-01-01T05:30:02.500000+05:30");
	assert_int_equal(w.iso_len, strlen(w.iso));
	setenv("TZ", "NST3:30", 1);
	tzset();
	walltime_format(&w, 1704067202.5);
	assert_string_equal(w.iso, "2023-12-31T20:30:02.500000-03:30");
	setenv("TZ", "UTC0", 1);
	tzset();
	walltime_format(&w, 1704067202.9999996);
	assert_string_equal(w.unix6, "1704067203.000000");
	assert_string_equal(w.iso, "2024-01-01T00:00:03.000000+00:00");
	walltime_format(&w, 1704067202.9995);
	assert_string_equal(w.unix6, "1704067202.999500");
	assert_string_equal(w.unix3, "1704067203.000");
	walltime_format(&w, 1704067202.0004);
	assert_string_equal(w.unix3, "1704067202.000");
	assert_string_equal(w.unix6, "1704067202.000400");
	walltime_format(&w, 0.0);
	assert_false(w.known);
	assert_string_equal(w.unix6, "-");
	assert_string_equal(w.iso, "-");
	walltime_format(&w, -5.0);
	assert_false(w.known);
	walltime_format(&w, NAN);
	assert_false(w.known);
	walltime_format(&w, 1e11);
	assert_false(w.known);
}

/* The summary of a command's run (out/runsum.c): the command's own CPU
 * seconds, exact or a bound, from the scheduler's record (sched, or read
 * beside the counters) or counted in the kernel (bpf): one sentence with
 * whose count they are and, for a bound, its note; the bound's line wraps
 * at 80 columns (the first line below is 80), continued 4 in. */
static char *
run_summary_text(struct fixture *f, const char *source)
{
	char *argv[] = { "sleep", "1", NULL };
	struct run_summary s = {
		.argv = argv, .pid = 42, .ended = "exit status 0", .seconds = 1.5,
		.covered = 1.5, .source = source, .cpus = "0-8",
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	out_run_summary(fp, &f->m, &f->iv, &s);
	fclose(fp);
	return buf;
}

/* The lines from the one that starts with "  CPU " up to the next one not
 * indented more (its continuation lines), into want's length. */
static void
assert_cpu_para(const char *out, const char *want)
{
	const char *p = strstr(out, "\n  CPU ");
	const char *end;

	assert_non_null(p);
	p++;
	assert_null(strstr(p + 1, "\n  CPU "));
	for (end = strchr(p, '\n'); end != NULL && strncmp(end, "\n   ", 4) == 0;
	    end = strchr(end + 1, '\n'))
		;
	assert_non_null(end);
	if ((size_t)(end + 1 - p) != strlen(want) || strncmp(p, want, strlen(want)) != 0)
		fail_msg("got %.*s, want %s", (int)(end + 1 - p), p, want);
}

static void
test_run_summary_cpu(void **state)
{
	struct fixture *f = build();
	char *out;

	(void)state;
	f->iv.node.job_both = val_absent(R_NOT_READ);
	f->iv.node.cpu_s = val_exact(12.25);
	out = run_summary_text(f, "sched");
	assert_cpu_para(out, "  CPU 12.25 s on its cores (the scheduler's record)\n");
	free(out);
	out = run_summary_text(f, "bpf");
	assert_cpu_para(out, "  CPU 12.25 s on its cores (counted in the kernel at each switch)\n");
	free(out);
	/* a bound, and a source other than bpf (the record beside msr) */
	f->iv.node.cpu_s = val_bound(12.5, 13.75);
	out = run_summary_text(f, "msr");
	assert_cpu_para(out, "  CPU 12.50-13.75 s on its cores (the scheduler's record; a bound: "
	    "part of its\n    cores' time was not counted)\n");
	free(out);
	out = run_summary_text(f, "bpf");
	assert_cpu_para(out, "  CPU 12.50-13.75 s on its cores (counted in the kernel at each "
	    "switch; a bound:\n    part of its cores' time was not counted)\n");
	free(out);
	free(f);
}

/* The command's own split in its summary: the four shares under the names
 * the text format gives them (both, alone, shared, none; it said "not
 * there" for none), and what shared and none mean. */
static void
test_run_summary_split(void **state)
{
	struct fixture *f = build();
	char *out;

	(void)state;
	f->iv.node.cpu_s = val_exact(1360.31);
	f->iv.node.job_both = val_exact(0.386);
	f->iv.node.job_alone = val_exact(0.579);
	f->iv.node.job_shared = val_exact(0.014);
	f->iv.node.job_none = val_exact(0.021);
	out = run_summary_text(f, "msr");
	if (strstr(out, "\n  both threads 38.6%, alone 57.9%, shared 1.4%, none 2.1%\n"
	    "  (shared: one thread ran it while its sibling ran another task; none: neither\n"
	    "    thread ran it)\n") == NULL)
		fail_msg("no split lines in\n%s", out);
	free(out);
	free(f);
}

int
main(void)
{
	/* iso_time in a zone every machine has, with or without tzdata. */
	setenv("TZ", "UTC0", 1);
	tzset();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_checker_itself),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_shapes),
		cmocka_unit_test(test_json_controls),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_job),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_summary_write_error),
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_walltime),
		cmocka_unit_test(test_run_summary_cpu),
		cmocka_unit_test(test_run_summary_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
