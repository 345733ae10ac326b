/* test_nodeiv.c: httop's own JSON read back (cluster/jsonl.c,
 * cluster/nodeiv.c): the parser on good and bad JSON, a hand-written line
 * of two cores read into a machine and an interval with every kind of
 * figure, the demo's real lines (the counts rebuilt from the figures give
 * back the node's own aggregate), the job's figures from its nodes'
 * (metrics_combine, values worked out by hand), and the transports'
 * command lines. */
#include "unit/testutil.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "cluster/jsonl.h"
#include "cluster/nodeiv.h"
#include "cluster/transport.h"
#include "metrics/metrics.h"
#include "util/cpulist.h"

static char *
slurp(const char *rel, size_t *len)
{
	FILE *fp = fopen(srcfile(rel), "r");
	char *buf;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static int
parse(struct jdoc *d, const char *s, struct errmsg *e)
{
	return jdoc_parse(d, s, strlen(s), e);
}

static void
test_json(void **state)
{
	static const char *const bad[] = {
		"", "{", "{\"a\"}", "{\"a\":}", "[1,]", "[1 2]", "01", "1.", "-", "1e", "tru",
		"\"abc", "\"a\\x\"", "\"\\u12g4\"", "{\"a\":1}x", "[1]]", "{1:2}", "nul",
		"\"tab\there\"", "\"\xff\"", "[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]",
		/* a member name twice (httop would read the first, jq the
		 * last), also deeper and among many; a name with an escape
		 * ("\u0061" is "a" to jq, not to a comparison as written) */
		"{\"host\":\"a\",\"x\":1,\"host\":\"b\"}", "{\"b\":{\"x\":1,\"y\":[],\"x\":3}}",
		"{\"a0\":0,\"a1\":1,\"a2\":2,\"a3\":3,\"a4\":4,\"a5\":5,\"a6\":6,\"a7\":7,\"a8\":8,"
		    "\"a9\":9,\"b0\":0,\"b1\":1,\"b2\":2,\"b3\":3,\"b4\":4,\"b5\":5,\"a3\":3}",
		"{\"a\":1,\"\\u0061\":2}",
	};
	struct jdoc d;
	struct errmsg e;
	char buf[64];
	size_t i;
	int a, k;

	(void)state;
	jdoc_init(&d, 0);
	assert_int_equal(parse(&d, " {\"a\": [1, -2.5e1, true, null], \"b\": {\"c\": \"x\\\"y\"}} ",
	    &e), 0);
	assert_int_equal(d.t[0].type, J_OBJ);
	assert_int_equal(d.t[0].size, 2);
	a = jget(&d, 0, "a");
	assert_int_equal(d.t[a].type, J_ARR);
	assert_int_equal(d.t[a].size, 4);
	k = jfirst(&d, a);
	assert_true(d.t[k].num == 1.0);
	k = (int)d.t[k].next;
	assert_true(d.t[k].num == -25.0);
	k = (int)d.t[k].next;
	assert_true(d.t[k].type == J_BOOL && d.t[k].b);
	k = (int)d.t[k].next;
	assert_int_equal(d.t[k].type, J_NULL);
	assert_int_equal(d.t[k].next, (unsigned)jget(&d, 0, "b") - 1);
	k = jget(&d, jget(&d, 0, "b"), "c");
	assert_string_equal(jstr(&d, k, buf, sizeof buf), "x\"y");
	assert_int_equal(jget(&d, 0, "zz"), -1);
	/* escapes: \u00e9 is 2 bytes of UTF-8, a surrogate pair 4 */
	assert_int_equal(parse(&d, "\"\\u00e9\\n\\ud83d\\ude00\"", &e), 0);
	assert_string_equal(jstr(&d, 0, buf, sizeof buf), "\xc3\xa9\n\xf0\x9f\x98\x80");
	/* UTF-8 as is */
	assert_int_equal(parse(&d, "\"n\xc3\xb6\"", &e), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parse(&d, bad[i], &e) == 0)
			fail_msg("'%s' parsed", bad[i]);
		assert_non_null(strstr(e.text, "byte "));
	}
	/* the same names in different objects are no duplicates */
	assert_int_equal(parse(&d, "{\"a\":{\"a\":1},\"b\":[{\"a\":1},{\"a\":2}],\"c\":{\"a\":{}}}",
	    &e), 0);
	/* the limit on tokens */
	jdoc_free(&d);
	jdoc_init(&d, 3);
	assert_int_equal(parse(&d, "[1,2]", &e), 0);
	assert_int_equal(parse(&d, "[1,2,3]", &e), -1);
	assert_non_null(strstr(e.text, "too many"));
	jdoc_free(&d);
}

static void
test_jobj(void **state)
{
	struct jdoc d;
	struct jobj o;
	struct errmsg e;

	(void)state;
	jdoc_init(&d, 0);
	assert_int_equal(parse(&d, "{\"util\":1,\"util_lo\":2,\"util_hi\":3,\"ghz\":4,\"cpi\":5}",
	    &e), 0);
	assert_int_equal(jobj_open(&o, &d, 0), 0);
	assert_true(d.t[jobj_get(&o, "util_hi")].num == 3.0);
	assert_true(d.t[jobj_get(&o, "cpi")].num == 5.0);
	assert_true(d.t[jobj_get(&o, "util")].num == 1.0);
	assert_int_equal(jobj_get(&o, "util_l"), -1);
	assert_int_equal(jobj_open(&o, &d, 1), -1);
	jdoc_free(&d);
}

/* The hand-written line (tests/data/nodes/two-cores.json). */
static void
test_two_cores(void **state)
{
	struct jdoc d;
	struct nodeiv n;
	struct errmsg e;
	struct agg_weights w;
	const struct interval *iv;
	const struct topology *t;
	size_t len;
	char *text = slurp("tests/data/nodes/two-cores.json", &len);

	(void)state;
	jdoc_init(&d, 0);
	nodeiv_init(&n);
	assert_int_equal(jdoc_parse(&d, text, len, &e), 0);
	assert_int_equal(nodeiv_read(&n, &d, &e), 1);
	t = &n.m.topo;
	iv = &n.iv;
	assert_string_equal(n.m.hostname, "h1");
	assert_string_equal(n.source, "sim");
	assert_int_equal(n.m.group, UARCH_SKX);
	assert_int_equal(n.plan.split, SPLIT_ANY);
	assert_int_equal(n.plan.scale, 120);
	assert_true(n.unix_time == 1700000000.25);
	assert_int_equal(t->npackages, 1);
	assert_int_equal(t->ncores, 2);
	assert_int_equal(t->ncpus, 4);
	assert_int_equal(t->max_smt, 2);
	assert_int_equal(t->cores[0].cpus[0], 0);
	assert_int_equal(t->cores[0].cpus[1], 2);
	assert_int_equal(t->cores[1].cpus[1], 3);
	assert_int_equal(t->cpus[3].thread, 1);
	/* the interval */
	assert_true(iv->time == 2.5 && iv->dt == 1.0 && iv->valid);
	assert_int_equal(iv->node.ncores, 2);
	assert_int_equal(iv->node.both.kind, V_BOUND);
	assert_near(iv->node.both.lo, 0.25, 1e-12);
	assert_near(iv->node.both.hi, 0.35, 1e-12);
	assert_int_equal(iv->node.cpi.kind, V_NONE);
	assert_int_equal(iv->node.cpi.why, R_STOPPED);
	assert_near(iv->packages[0].ghz.v, 2.2, 1e-12);
	/* core 0: exact; core 1: a bound on its fallback, CPI stopped */
	assert_true(iv->cores[0].selected && iv->cores[0].reason == R_NONE && iv->cores[0].exact);
	assert_near(iv->cores[0].both.v, 0.4, 1e-12);
	assert_near(iv->cores[0].issue_util.v, 0.25, 1e-12);
	assert_int_equal(iv->cores[0].split, SPLIT_ANY);
	assert_int_equal(iv->cores[1].both.kind, V_BOUND);
	assert_near(iv->cores[1].t1_only.lo, 0.0, 1e-12);
	assert_int_equal(iv->cores[1].active_threads.kind, V_BOUND);
	assert_int_equal(iv->cores[1].fallback, R_SKEW);
	assert_int_equal(iv->cores[1].cpi.why, R_STOPPED);
	assert_int_equal(iv->cores[1].stopped, KIND_BIT(SLOT_INST));
	assert_near(iv->cores[1].inconsistency, 0.001, 1e-12);
	assert_int_equal(iv->stopped, KIND_BIT(SLOT_INST));
	/* threads, and the counts rebuilt at the notional 1 GHz:
	 * cpu 0: tsc 1e9, ref 0.6e9, cycles 2.0 x 0.6e9 = 1.2e9, inst 1.0 x 1.2e9;
	 * cpu 2: ref 0.5e9, cycles 1.0e9, inst 0.5 x 1.0e9 = 0.5e9;
	 * cpus 1, 3: ref 0.4e9 and 0.3e9, no instructions (stopped). */
	assert_near(iv->threads[0].util.v, 0.6, 1e-12);
	assert_near(iv->threads[2].cpi.v, 2.0, 1e-12);
	assert_int_equal(iv->threads[1].ipc.why, R_STOPPED);
	assert_true(iv->threads[0].d_tsc == 1000000000u);
	assert_true(iv->threads[0].d_ref == 600000000u);
	assert_true(iv->threads[0].d_cyc == 1200000000u);
	assert_true(iv->threads[0].d_inst == 1200000000u);
	assert_true(iv->threads[2].d_inst == 500000000u);
	assert_true(iv->threads[3].d_ref == 300000000u && iv->threads[3].d_inst == 0);
	/* weights: time, two valid cores of 1e9 each; ref 0.6 + 0.4 + 0.5 +
	 * 0.3 = 1.8e9; instructions 1.2e9 + 0.5e9 = 1.7e9 */
	metrics_node_weights(iv, t, &w);
	assert_near(w.time, 2e9, 1);
	assert_near(w.ref, 1.8e9, 1);
	assert_near(w.inst, 1.7e9, 1);
	/* the die grid from the tiles: one row of two */
	assert_true(n.have_layout);
	assert_int_equal(n.layout.kind, LAYOUT_LOGICAL);
	assert_int_equal(n.layout.ngrids, 1);
	assert_int_equal(n.layout.grids[0].rows, 1);
	assert_int_equal(n.layout.grids[0].cols, 2);
	assert_int_equal(n.layout.cores[1].col, 1);
	assert_int_equal(n.layout.cores[1].cha, 5);
	assert_int_equal(n.layout.grids[0].cells[1].cores[0], 1);
	/* the same line again: the machine stays */
	assert_int_equal(nodeiv_read(&n, &d, &e), 0);
	nodeiv_free(&n);
	jdoc_free(&d);
	free(text);
}

/* The demo's lines: the node's aggregate computed again from the cores
 * read back, weighed by the rebuilt counts, is the one the node wrote
 * (to the 6 significant digits of its rates). */
static void
test_demo(void **state)
{
	struct jdoc d;
	struct nodeiv n;
	struct errmsg e;
	struct cpulist all = { 0, NULL };
	struct agg_fig g;
	size_t len, k;
	char *text = slurp("tests/data/nodes/demo.jsonl", &len), *line = text, *nl;
	int lines = 0;

	(void)state;
	jdoc_init(&d, 0);
	nodeiv_init(&n);
	for (; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
		assert_int_equal(jdoc_parse(&d, line, (size_t)(nl - line), &e), 0);
		assert_true(nodeiv_read(&n, &d, &e) >= 0);
		assert_int_equal(n.m.topo.ncores, 36);
		assert_int_equal(n.m.topo.npackages, 2);
		assert_int_equal(n.m.topo.ncpus, 72);
		assert_true(n.have_layout && n.layout.kind == LAYOUT_PHYSICAL);
		all.n = n.m.topo.max_cpu;
		all.has = calloc(all.n, sizeof *all.has);
		for (k = 0; k < all.n; k++)
			all.has[k] = true;
		metrics_aggregate_subset(&n.iv, &n.m.topo, &all, &g);
		cpulist_free(&all);
		assert_int_equal(g.nvalid, n.iv.node.nvalid);
		assert_near(g.both.v, n.iv.node.both.v, 1e-8);
		assert_near(g.util.v, n.iv.node.util.v, 1e-8);
		assert_near(g.active_threads.v, n.iv.node.active_threads.v, 2e-5);
		assert_near(g.ghz.v, n.iv.node.ghz.v, 2e-5 * n.iv.node.ghz.v);
		assert_near(g.cpi.v, n.iv.node.cpi.v, 2e-5 * n.iv.node.cpi.v);
		lines++;
	}
	assert_int_equal(lines, 2);
	/* another machine's line: made anew */
	free(text);
	text = slurp("tests/data/nodes/two-cores.json", &len);
	assert_int_equal(jdoc_parse(&d, text, len, &e), 0);
	assert_int_equal(nodeiv_read(&n, &d, &e), 1);
	assert_int_equal(n.m.topo.ncores, 2);
	nodeiv_free(&n);
	jdoc_free(&d);
	free(text);
}

/* A line read light (its cores passed over) gives the node's figures and
 * the weights a full read gives; a node whose aggregate does not count
 * every core valid, or before any full line, must be read whole. */
static void
test_light(void **state)
{
	static const char *const cores[] = { "cores", NULL };
	struct jdoc d;
	struct nodeiv full, light;
	struct errmsg e;
	struct agg_weights wf, wl;
	size_t len;
	char *text = slurp("tests/data/nodes/demo.jsonl", &len), *l2 = strchr(text, '\n') + 1;
	size_t n2 = (size_t)(strchr(l2, '\n') - l2);

	(void)state;
	jdoc_init(&d, 0);
	nodeiv_init(&full);
	nodeiv_init(&light);
	/* no machine yet: a light line cannot be read */
	assert_int_equal(jdoc_parse_skip(&d, l2, n2, cores, &e), 0);
	assert_int_equal(d.t[jget(&d, 0, "cores")].type, J_SKIP);
	assert_int_equal(nodeiv_read(&light, &d, &e), NODEIV_FULL);
	assert_int_equal(jdoc_parse(&d, text, (size_t)(l2 - 1 - text), &e), 0);
	assert_int_equal(nodeiv_read(&light, &d, &e), 1);
	assert_int_equal(jdoc_parse_skip(&d, l2, n2, cores, &e), 0);
	assert_int_equal(nodeiv_read(&light, &d, &e), 0);
	metrics_node_weights(&light.iv, &light.m.topo, &wl);
	assert_int_equal(jdoc_parse(&d, l2, n2, &e), 0);
	assert_int_equal(nodeiv_read(&full, &d, &e), 1);
	metrics_node_weights(&full.iv, &full.m.topo, &wf);
	assert_true(wl.time == wf.time && wl.ref == wf.ref && wl.inst == wf.inst);
	assert_true(light.iv.node.both.v == full.iv.node.both.v);
	assert_true(light.iv.threads[5].ipc.v == full.iv.threads[5].ipc.v);
	/* shown, its cores say they are not read yet */
	nodeiv_cores_unread(&light);
	assert_int_equal(light.iv.cores[0].reason, R_FIRST);
	/* one core invalid: the light line is refused */
	light.ncore_of++;
	assert_int_equal(jdoc_parse_skip(&d, l2, n2, cores, &e), 0);
	assert_int_equal(nodeiv_read(&light, &d, &e), NODEIV_FULL);
	light.ncore_of--;
	/* a bracket not closed in the part passed over */
	assert_int_equal(jdoc_parse_skip(&d, "{\"cores\":[{\"a\":\"]\"}", 19, cores, &e), -1);
	assert_int_equal(jdoc_parse_skip(&d, "{\"cores\":[{\"a\":\"]\"}],\"b\":1}", 27, cores, &e), 0);
	/* a head parse: from "cores" on, one token, not looked at; the line
	 * must end with the object's brace */
	{
		static const char h[] = "{\"a\":1,\"cores\":[{\"x\":\"]\"}],\"threads\":[1,2]}  ";
		static const char h2[] = "{\"a\":1,\"cores\":[1],\"threads\":[";

		assert_int_equal(jdoc_parse_head(&d, h, sizeof h - 1, cores, &e), 0);
		assert_int_equal(d.t[jget(&d, 0, "a")].type, J_NUM);
		assert_int_equal(d.t[jget(&d, 0, "cores")].type, J_SKIP);
		assert_int_equal(d.t[jget(&d, 0, "cores")].len, 27);
		assert_int_equal(jget(&d, 0, "threads"), -1);
		assert_int_equal(jdoc_parse_head(&d, h2, sizeof h2 - 1, cores, &e), -1);
		assert_non_null(strstr(e.text, "does not end with '}'"));
	}
	nodeiv_free(&full);
	nodeiv_free(&light);
	jdoc_free(&d);
	free(text);
}

/* Lines that are JSON but not httop's, or describe no machine. */
static void
test_bad_lines(void **state)
{
	static const char *const bad[] = {
		"[]", "{}", "{\"host\":\"a\"}",
		"{\"host\":\"a\",\"node\":{},\"cores\":[]}",
		/* a CPU beyond the limit, a CPU in two cores, five threads a core */
		"{\"host\":\"a\",\"node\":{},\"cores\":[{\"package\":0,\"core\":0,\"cpus\":[70000]}]}",
		"{\"host\":\"a\",\"node\":{},\"cores\":[{\"package\":0,\"core\":0,\"cpus\":[1]},"
		    "{\"package\":0,\"core\":1,\"cpus\":[1]}]}",
		"{\"host\":\"a\",\"node\":{},\"cores\":[{\"package\":0,\"core\":0,\"cpus\":[1,2,3,4,5]}]}",
	};
	struct jdoc d;
	struct nodeiv n;
	struct errmsg e;
	size_t i;

	(void)state;
	jdoc_init(&d, 0);
	nodeiv_init(&n);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(parse(&d, bad[i], &e), 0);
		if (nodeiv_read(&n, &d, &e) >= 0)
			fail_msg("read: %s", bad[i]);
	}
	assert_false(n.have_machine);
	nodeiv_free(&n);
	jdoc_free(&d);
	assert_int_equal(nodeiv_reason("stopped"), R_STOPPED);
	assert_int_equal(nodeiv_reason("nonsense"), R_NREASONS);
}

/* The job's figures from two nodes' aggregates, by hand:
 * node A (2 valid cores): neither .2, t0 .3, t1 .1, both .4, util .8,
 *   threads 1.5, GHz 2.0, CPI 1.0; weights time 2, ref 2.4, inst 4.8;
 * node B (1 valid core): neither .6, t0 .2, t1 .2, both 0, util .4,
 *   threads 1.0, GHz 3.0, CPI 2.0; weights time 1, ref 0.4, inst 0.6.
 * neither = (2 x .2 + .6) / 3 = 1/3; t0 = (.6 + .2) / 3 = .26667;
 * t1 = (.2 + .2) / 3 = .13333; both = .8 / 3 = .26667; util = 2.0 / 3;
 * threads = (1.5 x .8 x 2 + 1.0 x .4 x 1) / (.8 x 2 + .4) = 2.8 / 2.0 = 1.4;
 * GHz = (2.0 x 2.4 + 3.0 x 0.4) / 2.8 = 6.0 / 2.8 = 2.142857;
 * CPI = (1.0 x 4.8 + 2.0 x 0.6) / 5.4 = 6.0 / 5.4 = 1.111111;
 * both of busy = .26667 / (1 - 1/3) = 0.4.
 * With A's split a bound (both [.3, .5], neither [.1, .3]):
 * both [(.6 + 0) / 3, (1.0 + 0) / 3] = [.2, .33333],
 * neither [(.2 + .6) / 3, (.6 + .6) / 3] = [.26667, .4],
 * both of busy [.2 / (1 - .26667), .33333 / (1 - .4)] = [.272727, .555556].
 * A node C with no valid core adds its cores to ncores only. */
static void
test_combine(void **state)
{
	struct agg_fig p[3], out;
	struct agg_weights w[3] = { { 2, 2.4, 4.8 }, { 1, 0.4, 0.6 }, { 0, 0, 0 } };

	(void)state;
	memset(p, 0, sizeof p);
	p[0].ncores = 2;
	p[0].nvalid = 2;
	p[0].exact = true;
	p[0].neither = val_exact(0.2);
	p[0].t0_only = val_exact(0.3);
	p[0].t1_only = val_exact(0.1);
	p[0].both = val_exact(0.4);
	p[0].util = val_exact(0.8);
	p[0].active_threads = val_exact(1.5);
	p[0].ghz = val_exact(2.0);
	p[0].cpi = val_exact(1.0);
	p[1].ncores = 1;
	p[1].nvalid = 1;
	p[1].exact = true;
	p[1].neither = val_exact(0.6);
	p[1].t0_only = val_exact(0.2);
	p[1].t1_only = val_exact(0.2);
	p[1].both = val_exact(0.0);
	p[1].util = val_exact(0.4);
	p[1].active_threads = val_exact(1.0);
	p[1].ghz = val_exact(3.0);
	p[1].cpi = val_exact(2.0);
	p[2].ncores = 4;
	p[2].util = val_absent(R_READ_ERROR);
	metrics_combine(p, w, 3, &out);
	assert_int_equal(out.ncores, 7);
	assert_int_equal(out.nvalid, 3);
	assert_true(out.exact);
	assert_near(out.neither.v, 1.0 / 3.0, 1e-12);
	assert_near(out.t0_only.v, 0.8 / 3.0, 1e-12);
	assert_near(out.t1_only.v, 0.4 / 3.0, 1e-12);
	assert_near(out.both.v, 0.8 / 3.0, 1e-12);
	assert_near(out.util.v, 2.0 / 3.0, 1e-12);
	assert_near(out.active_threads.v, 1.4, 1e-12);
	assert_near(out.ghz.v, 6.0 / 2.8, 1e-12);
	assert_near(out.cpi.v, 6.0 / 5.4, 1e-12);
	assert_near(out.both_of_busy.v, 0.4, 1e-12);
	/* A's split a bound */
	p[0].exact = false;
	p[0].both = val_bound(0.3, 0.5);
	p[0].neither = val_bound(0.1, 0.3);
	metrics_combine(p, w, 2, &out);
	assert_false(out.exact);
	assert_int_equal(out.both.kind, V_BOUND);
	assert_near(out.both.lo, 0.2, 1e-12);
	assert_near(out.both.hi, 1.0 / 3.0, 1e-12);
	assert_near(out.neither.lo, 0.8 / 3.0, 1e-12);
	assert_near(out.neither.hi, 0.4, 1e-12);
	assert_int_equal(out.both_of_busy.kind, V_BOUND);
	assert_near(out.both_of_busy.lo, 0.2 / (1.0 - 0.8 / 3.0), 1e-12);
	assert_near(out.both_of_busy.hi, (1.0 / 3.0) / 0.6, 1e-12);
	/* no valid node: absent, with the reason */
	metrics_combine(&p[2], &w[2], 1, &out);
	assert_int_equal(out.nvalid, 0);
	assert_int_equal(out.util.kind, V_NONE);
	assert_int_equal(out.util.why, R_READ_ERROR);
}

static void
test_transport(void **state)
{
	struct transport t;
	struct errmsg e;
	char *const remote[] = { "httop", "-b", "--format", "json", "--topology", "/a b/x.xml" };
	char **argv, **w, buf[64];
	size_t n;

	(void)state;
	assert_int_equal(transport_split("sh -c 'exec cat \"$0\"' /d/%h.fifo", &w, &n, &e), 0);
	assert_int_equal(n, 4);
	assert_string_equal(w[2], "exec cat \"$0\"");
	assert_string_equal(w[3], "/d/%h.fifo");
	transport_argv_free(w);
	assert_int_equal(transport_split("a \"b \\\" c\" d\\ e", &w, &n, &e), 0);
	assert_int_equal(n, 3);
	assert_string_equal(w[1], "b \" c");
	assert_string_equal(w[2], "d e");
	transport_argv_free(w);
	assert_int_equal(transport_split("a 'b", &w, &n, &e), -1);
	assert_int_equal(transport_split("  ", &w, &n, &e), -1);
	assert_string_equal(transport_quote("-d", buf, sizeof buf), "-d");
	assert_string_equal(transport_quote("a b'c", buf, sizeof buf), "'a b'\\''c'");
	assert_string_equal(transport_quote("", buf, sizeof buf), "''");
	/* a command: its words, %h replaced, then the remote's words as they
	 * are, with --host HOST after the program */
	assert_int_equal(transport_init(&t, "/bin/echo -x %h@%h", NULL, remote, 6, false, NULL, &e), 0);
	argv = transport_argv(&t, "c01");
	assert_string_equal(argv[0], "/bin/echo");
	assert_string_equal(argv[1], "-x");
	assert_string_equal(argv[2], "c01@c01");
	assert_string_equal(argv[3], "httop");
	assert_string_equal(argv[4], "--host");
	assert_string_equal(argv[5], "c01");
	assert_string_equal(argv[6], "-b");
	assert_string_equal(argv[10], "/a b/x.xml");
	assert_null(argv[11]);
	transport_argv_free(argv);
	transport_free(&t);
	/* ssh: its options, --, the host, the words quoted for the remote shell */
	setenv("HTTOP_SSH", "/bin/true", 1);
	assert_int_equal(transport_init(&t, "ssh", NULL, remote, 6, false, NULL, &e), 0);
	argv = transport_argv(&t, "c02");
	for (n = 0; argv[n] != NULL; n++)
		;
	assert_string_equal(argv[0], "/bin/true");
	assert_string_equal(argv[n - 9], "c02");
	assert_string_equal(argv[n - 10], "--");
	assert_string_equal(argv[n - 7], "--host");
	assert_string_equal(argv[n - 6], "c02");
	assert_string_equal(argv[n - 1], "'/a b/x.xml'");
	assert_true(strcmp(argv[5], "BatchMode=yes") == 0);
	transport_argv_free(argv);
	transport_free(&t);
	/* srun needs the job */
	assert_int_equal(transport_init(&t, "srun", NULL, remote, 6, false, NULL, &e), -1);
	setenv("HTTOP_SRUN", "/bin/true", 1);
	assert_int_equal(transport_init(&t, "srun", "42", remote, 6, false, NULL, &e), 0);
	argv = transport_argv(&t, "c03");
	assert_string_equal(argv[1], "--jobid=42");
	assert_string_equal(argv[2], "--overlap");
	assert_string_equal(argv[5], "--nodelist=c03");
	assert_string_equal(argv[8], "httop");
	assert_string_equal(argv[9], "--host");
	assert_string_equal(argv[10], "c03");
	transport_argv_free(argv);
	transport_free(&t);
	/* a command without %h, or not installed; set-ID: no relative path */
	assert_int_equal(transport_init(&t, "/bin/echo", NULL, remote, 6, false, NULL, &e), -1);
	assert_int_equal(transport_init(&t, "no-such-program-x %h", NULL, remote, 6, false, NULL, &e), -1);
	assert_int_equal(transport_init(&t, "./x %h", NULL, remote, 6, true, NULL, &e), -1);
}

/* l (n bytes) with the first `from` replaced by `to`: a new string of
 * *len bytes, to free. */
static char *
replaced(const char *l, size_t n, const char *from, const char *to, size_t *len)
{
	const char *at = strstr(l, from);
	size_t k, fl = strlen(from), tl = strlen(to);
	char *line;

	assert_non_null(at);
	assert_true((size_t)(at - l) + fl <= n);
	k = (size_t)(at - l);
	line = malloc(n - fl + tl + 1);
	assert_non_null(line);
	memcpy(line, l, k);
	memcpy(line + k, to, tl);
	memcpy(line + k + tl, at + fl, n - k - fl);
	*len = n - fl + tl;
	line[*len] = '\0';
	return line;
}

/* The die grids a line may make: a tile at row and column 255 makes a
 * grid of 256 x 256 cells (65536, NODEIV_CELL_MAX: kept); two packages
 * with such a tile would make 131072 cells (3.6 MB; 1025 packages made
 * 1.8 GB): no layout, and the line is read as ever. */
static void
test_layout_bound(void **state)
{
	struct jdoc d;
	struct nodeiv n;
	struct errmsg e;
	size_t len, n1, n2;
	char *text = slurp("tests/data/nodes/two-cores.json", &len), *one, *two;

	(void)state;
	one = replaced(text, len, "\"tile\":{\"row\":0,\"col\":1,",
	    "\"tile\":{\"row\":255,\"col\":255,", &n1);
	two = replaced(one, n1, "{\"package\":0,\"core\":1,\"cpus\"",
	    "{\"package\":1,\"core\":1,\"cpus\"", &n2);
	jdoc_init(&d, 0);
	nodeiv_init(&n);
	assert_int_equal(parse(&d, one, &e), 0);
	assert_int_equal(nodeiv_read(&n, &d, &e), 1);
	assert_true(n.have_layout);
	assert_int_equal(n.layout.ngrids, 1);
	assert_int_equal(n.layout.grids[0].rows, 256);
	assert_int_equal(n.layout.grids[0].cols, 256);
	assert_int_equal(n.layout.grids[0].cells[255 * 256 + 255].cores[0], 1);
	assert_int_equal(parse(&d, two, &e), 0);
	assert_int_equal(nodeiv_read(&n, &d, &e), 1);
	assert_int_equal(n.m.topo.npackages, 2);
	assert_false(n.have_layout);
	assert_true(n.have_iv && n.iv.cores[1].util.kind == V_EXACT);
	nodeiv_free(&n);
	jdoc_free(&d);
	free(text);
	free(one);
	free(two);
}

/* A line of 65536 cores (one CPU each, 64 a package, and two cores of
 * package 0 with core id 0: two dies) is made into a machine in time in
 * proportion to its cores: well under a second of CPU (each core looked
 * for among all before it took 2 s, 4 with the sanitizers). Its cores
 * carry no figures: the line is refused after its machine was made. */
static void
test_many_cores(void **state)
{
	const unsigned n = 65536;
	size_t cap = (size_t)n * 48 + 256, len = 0;
	char *line = malloc(cap);
	struct jdoc d;
	struct nodeiv nv;
	struct errmsg e;
	clock_t t0;
	unsigned k;

	(void)state;
	assert_non_null(line);
	len += (size_t)snprintf(line + len, cap - len, "{\"host\":\"big\",\"node\":{},\"cores\":[");
	for (k = 0; k < n; k++)
		len += (size_t)snprintf(line + len, cap - len, "%s{\"package\":%u,\"core\":%u,"
		    "\"cpus\":[%u]}", k ? "," : "", k == n - 1 ? 0 : k / 64, k == n - 1 ? 0 : k, k);
	len += (size_t)snprintf(line + len, cap - len, "]}");
	jdoc_init(&d, 0);
	nodeiv_init(&nv);
	assert_int_equal(jdoc_parse(&d, line, len, &e), 0);
	t0 = clock();
	assert_int_equal(nodeiv_read(&nv, &d, &e), -1);
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
	assert_true(nv.have_machine);
	assert_int_equal(nv.m.topo.ncores, n);
	assert_int_equal(nv.m.topo.ncpus, n);
	assert_int_equal(nv.m.topo.npackages, 1024);
	/* the last core (package 0, core id 0 again) is the first's twin */
	assert_int_not_equal(topology_core_of(&nv.m.topo, 0)->index,
	    topology_core_of(&nv.m.topo, n - 1)->index);
	nodeiv_free(&nv);
	jdoc_free(&d);
	free(line);
}

/* The line l (n bytes) with `member` written first in its node object:
 * a new string of *len bytes, to free. */
static char *
node_with(const char *l, size_t n, const char *member, size_t *len)
{
	const char *at = strstr(l, "\"node\":{") + 8;
	size_t k = (size_t)(at - l), m = strlen(member);
	char *line = malloc(n + m + 1);

	assert_non_null(line);
	memcpy(line, l, k);
	memcpy(line + k, member, m);
	memcpy(line + k + m, at, n - k);
	line[n + m] = '\0';
	*len = n + m;
	return line;
}

/* A line whose node carries its weights (json.c writes them) is read with
 * its cores and threads passed over: the weights are the line's, equal to
 * what a full read of its threads gives (the demo's second line, with the
 * weights a full read finds written into it); its threads say "no previous
 * sample yet". Without weights, passing the threads over asks for a full
 * read. Weights that are not counts are refused. */
static void
test_weights(void **state)
{
	static const char *const both[] = { "cores", "threads", NULL };
	static const char *const cores[] = { "cores", NULL };
	struct jdoc d;
	struct nodeiv full, light;
	struct errmsg e;
	struct agg_weights wf;
	size_t len, n2, nl;
	char *text = slurp("tests/data/nodes/demo.jsonl", &len), *l2 = strchr(text, '\n') + 1;
	char *line, ins[200];

	(void)state;
	n2 = (size_t)(strchr(l2, '\n') - l2);
	jdoc_init(&d, 0);
	nodeiv_init(&full);
	nodeiv_init(&light);
	assert_int_equal(jdoc_parse(&d, l2, n2, &e), 0);
	assert_int_equal(nodeiv_read(&full, &d, &e), 1);
	assert_false(full.have_weights);
	metrics_node_weights(&full.iv, &full.m.topo, &wf);
	assert_true(wf.time > 0.0 && wf.ref > 0.0 && wf.inst > 0.0);
	/* without weights: the threads cannot be passed over */
	assert_int_equal(jdoc_parse(&d, text, (size_t)(l2 - 1 - text), &e), 0);
	assert_int_equal(nodeiv_read(&light, &d, &e), 1);
	assert_int_equal(jdoc_parse_skip(&d, l2, n2, both, &e), 0);
	assert_int_equal(nodeiv_read(&light, &d, &e), NODEIV_FULL);
	/* with them */
	snprintf(ins, sizeof ins, "\"weights\":{\"tsc\":%.0f,\"ref\":%.0f,\"inst\":%.0f},",
	    wf.time, wf.ref, wf.inst);
	line = node_with(l2, n2, ins, &nl);
	assert_int_equal(jdoc_parse_skip(&d, line, nl, both, &e), 0);
	assert_int_equal(d.t[jget(&d, 0, "threads")].type, J_SKIP);
	assert_int_equal(nodeiv_read(&light, &d, &e), 0);
	assert_true(light.have_weights && light.threads_unread);
	assert_true(light.w.time == wf.time && light.w.ref == wf.ref && light.w.inst == wf.inst);
	assert_true(light.iv.node.util.v == full.iv.node.util.v);
	/* the head only (what --nodes does): the same */
	memset(&light.w, 0, sizeof light.w);
	assert_int_equal(jdoc_parse_head(&d, line, nl, cores, &e), 0);
	assert_int_equal(jget(&d, 0, "threads"), -1);
	assert_int_equal(nodeiv_read(&light, &d, &e), 0);
	assert_true(light.have_weights && light.threads_unread);
	assert_true(light.w.time == wf.time && light.w.ref == wf.ref && light.w.inst == wf.inst);
	assert_true(light.iv.node.util.v == full.iv.node.util.v);
	assert_true(light.iv.time == full.iv.time);
	nodeiv_cores_unread(&light);
	assert_int_equal(light.iv.threads[5].reason, R_FIRST);
	/* a full parse of the same line reads its threads and keeps the weights */
	assert_int_equal(jdoc_parse(&d, line, nl, &e), 0);
	assert_int_equal(nodeiv_read(&light, &d, &e), 0);
	assert_false(light.threads_unread);
	assert_true(light.iv.threads[5].ipc.v == full.iv.threads[5].ipc.v);
	free(line);
	/* not counts */
	line = node_with(l2, n2, "\"weights\":{\"tsc\":-1,\"ref\":1,\"inst\":1},", &nl);
	assert_int_equal(jdoc_parse(&d, line, nl, &e), 0);
	assert_int_equal(nodeiv_read(&light, &d, &e), -1);
	assert_non_null(strstr(e.text, "\"tsc\" is not a count"));
	free(line);
	nodeiv_free(&full);
	nodeiv_free(&light);
	jdoc_free(&d);
	free(text);
}

/* The read result of `line` (nl bytes) in a fresh reader that expects
 * host `want` ("" for any); its message in e. */
static int
read_fresh(struct jdoc *d, struct nodeiv *nv, const char *want, char *line, const size_t *nl,
    struct errmsg *e)
{
	int rc;

	nodeiv_free(nv);
	nodeiv_init(nv);
	nodeiv_expect_host(nv, want);
	rc = jdoc_parse(d, line, *nl, e) != 0 ? -9 : nodeiv_read(nv, d, e);
	free(line);
	return rc;
}

/* What a node's line may claim (httop.1, SECURITY), on the demo's second
 * line (36 valid cores, interval 1.000324 s) with its own weights written
 * in: its "host" is a host name, the one the node was started for; its
 * text is kept escaped; its weights fit what 36 cores count in its
 * interval (at most 10^10 time stamp ticks a second each: 3.6e11) and are
 * not 0 under a figure it shows; -0 is 0. */
static void
test_claims(void **state)
{
	struct jdoc d;
	struct nodeiv nv;
	struct errmsg e;
	struct agg_weights w;
	size_t len, n2, nl, nb;
	char *text = slurp("tests/data/nodes/demo.jsonl", &len), *l2 = strchr(text, '\n') + 1;
	char *base, ins[200];

	(void)state;
	n2 = (size_t)(strchr(l2, '\n') - l2);
	jdoc_init(&d, 0);
	nodeiv_init(&nv);
	assert_int_equal(read_fresh(&d, &nv, "", replaced(l2, n2, "x", "x", &nl), &nl, &e), 1);
	metrics_node_weights(&nv.iv, &nv.m.topo, &w);
	snprintf(ins, sizeof ins, "\"weights\":{\"tsc\":%.0f,\"ref\":%.0f,\"inst\":%.0f},",
	    w.time, w.ref, w.inst);
	base = node_with(l2, n2, ins, &nb);
	/* the host it was started for, or any host name when none is known */
	assert_int_equal(read_fresh(&d, &nv, "vm", replaced(base, nb, "x", "x", &nl), &nl, &e), 1);
	assert_string_equal(nv.m.hostname, "vm");
	assert_int_equal(read_fresh(&d, &nv, "good2", replaced(base, nb, "x", "x", &nl), &nl, &e), -1);
	assert_non_null(strstr(e.text, "the line is host vm's, not good2's"));
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"host\":\"vm\"",
	    "\"host\":\"vm\\u001b]0;T\\u0007\"", &nl), &nl, &e), -1);
	assert_non_null(strstr(e.text, "\"host\" is not a host name"));
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"host\":\"vm\"",
	    "\"host\":\"v m\"", &nl), &nl, &e), -1);
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"host\":\"vm\"",
	    "\"host\":\"a123456789b123456789c123456789d123456789e123456789f123456789g123\"", &nl),
	    &nl, &e), -1);
	/* a reason and a source with escape sequences: kept escaped */
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"valid\":true,",
	    "\"valid\":true,\"reason\":\"x\\u001b[2J\\n\\u202ey\",", &nl), &nl, &e), 1);
	assert_string_equal(nv.iv.reason, "x\\x1b[2J\\x0a\\xe2\\x80\\xaey");
	assert_string_equal(nv.iv.reason_c, nv.iv.reason);
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"source\":\"sim\"",
	    "\"source\":\"\\u009b1m\"", &nl), &nl, &e), 1);
	assert_string_equal(nv.source, "\\xc2\\x9b1m");
	/* weights beyond what its cores count, 0 under figures it shows */
	assert_int_equal(read_fresh(&d, &nv, "", node_with(l2, n2,
	    "\"weights\":{\"tsc\":1.7e308,\"ref\":1.7e308,\"inst\":1.7e308},", &nl), &nl, &e), -1);
	assert_non_null(strstr(e.text, "\"tsc\" is more than 36 cores count in 1.00032 s"));
	snprintf(ins, sizeof ins, "\"weights\":{\"tsc\":%.0f,\"ref\":%.0f,\"inst\":1e20},",
	    w.time, w.ref);
	assert_int_equal(read_fresh(&d, &nv, "", node_with(l2, n2, ins, &nl), &nl, &e), -1);
	assert_non_null(strstr(e.text, "\"ref\" or \"inst\" is more than"));
	assert_int_equal(read_fresh(&d, &nv, "", node_with(l2, n2,
	    "\"weights\":{\"tsc\":0,\"ref\":0,\"inst\":0},", &nl), &nl, &e), -1);
	assert_non_null(strstr(e.text, "a figure the node shows has a weight of 0"));
	snprintf(ins, sizeof ins, "\"weights\":{\"tsc\":%.0f,\"ref\":%.0f,\"inst\":0},",
	    w.time, w.ref);
	assert_int_equal(read_fresh(&d, &nv, "", node_with(l2, n2, ins, &nl), &nl, &e), -1);
	/* valid cores over an interval of 10^300 s (the weights rebuilt from
	 * it would be infinite) or of 0 s */
	assert_int_equal(read_fresh(&d, &nv, "", replaced(l2, n2, "\"interval\":1.000324",
	    "\"interval\":1e300", &nl), &nl, &e), -1);
	assert_non_null(strstr(e.text, "valid cores in an \"interval\" that is not a time"));
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"interval\":1.000324",
	    "\"interval\":0", &nl), &nl, &e), -1);
	/* more valid cores than cores; a rate beyond 10^12 */
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"nvalid\":36",
	    "\"nvalid\":37", &nl), &nl, &e), -1);
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"ghz\":2.",
	    "\"ghz\":1e300,\"x\":2.", &nl), &nl, &e), -1);
	/* -0 is 0: no "-0.0" in an output */
	assert_int_equal(read_fresh(&d, &nv, "", replaced(base, nb, "\"neither\":0.2225492763",
	    "\"neither\":-0", &nl), &nl, &e), 1);
	assert_int_equal(nv.iv.node.neither.kind, V_EXACT);
	assert_false(signbit(nv.iv.node.neither.v));
	free(base);
	nodeiv_free(&nv);
	jdoc_free(&d);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_jobj),
		cmocka_unit_test(test_two_cores),
		cmocka_unit_test(test_demo),
		cmocka_unit_test(test_light),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_claims),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_layout_bound),
		cmocka_unit_test(test_many_cores),
		cmocka_unit_test(test_combine),
		cmocka_unit_test(test_transport),
	};

	return cmocka_run_group_tests_name("nodeiv", tests, NULL, NULL);
}
