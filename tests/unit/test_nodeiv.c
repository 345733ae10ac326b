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
	FILE *fp = fopen(rel[0] == '/' ? rel : srcfile(rel), "r");
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

/* Numbers read as strtod reads them, bit for bit, on either side of the
 * fast way's limits: 2^53 = 9007199254740992 as the digits' integer (a
 * "unix_time" of 16 digits, 1.7e15, is under it: fast; 2^53 + 1 and 17
 * digits above it go to strtod), 19 and 20 digits, 10^22 and 10^23. */
static void
test_json_numbers(void **state)
{
	static const char *const nums[] = {
		"1704067202.102161", "-1704067202.102161", "1704067202.1021614",
		"9007199254740992", "9007199254740993", "9007199254740995", "900719925474099.3",
		"9007199254740993e-3", "0.30000000000000004", "0.1", "4.35", "2.675094",
		"123456789012345678", "1234567890123456789", "12345678901234567890",
		"0.0000001234567890123456", "1e22", "1e23", "1.5e-22", "100000000000000000000e2",
		"0", "-0", "0.000", "108034992000", "130710438300", "0.2609705371",
	};
	struct jdoc d;
	struct errmsg e;
	char text[64];
	size_t i;

	(void)state;
	jdoc_init(&d, 0);
	for (i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		double want = strtod(nums[i], NULL);

		snprintf(text, sizeof text, "[%s]", nums[i]);
		assert_int_equal(parse(&d, text, &e), 0);
		assert_int_equal(d.t[1].type, J_NUM);
		if (memcmp(&d.t[1].num, &want, sizeof want) != 0)
			fail_msg("%s: read %.17g, strtod %.17g", nums[i], d.t[1].num, want);
	}
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
	assert_int_equal(n.plan->split, SPLIT_ANY);
	assert_int_equal(n.plan->scale, 120);
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
/* tests/data/nodes/two-cores.json with `key` replaced by `with`, parsed
 * into d and read into n (one interval); e empty unless the reader left
 * a note. The caller frees n and d. */
static void
read_spliced(const char *key, const char *with, struct jdoc *d, struct nodeiv *n,
    struct errmsg *e)
{
	size_t len;
	char *text = slurp("tests/data/nodes/two-cores.json", &len);
	char *at = strstr(text, key), *line;

	assert_non_null(at);
	line = malloc(len + strlen(with) + 1);
	assert_non_null(line);
	snprintf(line, len + strlen(with) + 1, "%.*s%s%s", (int)(at - text), text, with,
	    at + strlen(key));
	jdoc_init(d, 0);
	nodeiv_init(n);
	e->text[0] = '\0';
	assert_int_equal(jdoc_parse(d, line, strlen(line), e), 0);
	assert_int_equal(nodeiv_read(n, d, e), 1);
	free(line);
	free(text);
}

/* A node's split read back with what it rests on: "sched" and "ticks"
 * (this httop), "any" or "bound" with "basis" beside (an older httop's
 * sched and procstat nodes), "any" alone (the counters'). The node's plan
 * then names it as the node did: "sched", never the counters' "any". */
static void
test_split_basis(void **state)
{
	static const struct {
		const char *with;        /* replaces "split":"any" */
		enum split_method split;
		enum plan_basis basis;
		const char *name;
	} cases[] = {
		{ "\"split\":\"sched\"", SPLIT_ANY, PLAN_BASIS_SCHED, "sched" },
		{ "\"split\":\"any\",\"basis\":\"scheduler\"", SPLIT_ANY, PLAN_BASIS_SCHED, "sched" },
		{ "\"split\":\"ticks\"", SPLIT_BOUND, PLAN_BASIS_TICKS, "ticks" },
		{ "\"split\":\"bound\",\"basis\":\"ticks\"", SPLIT_BOUND, PLAN_BASIS_TICKS, "ticks" },
		{ "\"split\":\"any\"", SPLIT_ANY, PLAN_BASIS_COUNTERS, "any" },
		{ "\"split\":\"bound\"", SPLIT_BOUND, PLAN_BASIS_COUNTERS, "bound" },
	};
	static const char key[] = "\"split\":\"any\"";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct jdoc d;
		struct nodeiv n;
		struct errmsg e;

		read_spliced(key, cases[i].with, &d, &n, &e);
		assert_int_equal(n.plan->split, cases[i].split);
		assert_int_equal(n.plan->basis, cases[i].basis);
		assert_string_equal(plan_split_name(n.plan), cases[i].name);
		nodeiv_free(&n);
		jdoc_free(&d);
	}
}

/* A node that runs a source without counters writes "scale":null and
 * "scale_absent" (it has no reference-clock scale): the line is read
 * without an error left behind, the node's plan has no scale to show,
 * and a counter node's scale is still read. */
static void
test_scale_null(void **state)
{
	static const char key[] = "\"split\":\"any\",\"scale\":120";
	static const char *const with[] = {
		"\"split\":\"sched\",\"scale\":null,\"scale_absent\":\"not-counted\","
		    "\"basis\":\"scheduler\"",
		"\"split\":\"ticks\",\"scale\":null,\"scale_absent\":\"not-counted\","
		    "\"basis\":\"ticks\"",
		"\"split\":\"any\",\"scale\":120",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof with / sizeof with[0]; i++) {
		struct jdoc d;
		struct nodeiv n;
		struct errmsg e;

		read_spliced(key, with[i], &d, &n, &e);
		assert_string_equal(e.text, "");
		assert_int_equal(plan_has_scale(n.plan), i == 2);
		assert_int_equal(n.plan->scale, i == 2 ? 120 : 0);
		nodeiv_free(&n);
		jdoc_free(&d);
	}
}

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
/* A node not shown lets go of its interval's rows after a light line
 * (nodeiv_shed_rows: most of the memory of thousands of nodes), reads
 * light lines without them, and makes them again when it is shown
 * (nodeiv_unshed_rows) as a light line leaves them: the same as a node
 * that kept them; a line read whole makes them first. */
static void
test_shed(void **state)
{
	static const char *const skip[] = { "packages", "cores", "core_figs", NULL };
	struct jdoc d;
	struct nodeiv kept, shed;
	struct errmsg e;
	size_t len, n[3], k;
	char *text = slurp("tests/data/nodes/zen-compact.jsonl", &len), *l[3];
	struct nodeiv *both[2] = { &kept, &shed };
	unsigned i, c;

	(void)state;
	l[0] = text;
	for (k = 0; k < 3; k++) {
		n[k] = (size_t)(strchr(l[k], '\n') - l[k]);
		if (k < 2)
			l[k + 1] = l[k] + n[k] + 1;
	}
	jdoc_init(&d, 0);
	for (i = 0; i < 2; i++) {
		nodeiv_init(both[i]);
		assert_int_equal(jdoc_parse(&d, l[0], n[0], &e), 0);
		assert_int_equal(nodeiv_read(both[i], &d, &e), 1);
		assert_int_equal(jdoc_parse_head(&d, l[1], n[1], skip, &e), 0);
		assert_int_equal(nodeiv_read(both[i], &d, &e), 0);
		nodeiv_cores_unread(both[i]);
	}
	nodeiv_shed_rows(&shed);
	assert_true(shed.rows_shed && shed.iv.cores == NULL && shed.iv.threads == NULL &&
	    shed.iv.packages == NULL && shed.plan == NULL);
	/* a light line needs none */
	for (i = 0; i < 2; i++) {
		assert_int_equal(jdoc_parse_head(&d, l[2], n[2], skip, &e), 0);
		assert_int_equal(nodeiv_read(both[i], &d, &e), 0);
		nodeiv_cores_unread(both[i]);
	}
	assert_true(shed.rows_shed);
	assert_true(shed.iv.node.both.v == kept.iv.node.both.v && shed.iv.valid == kept.iv.valid);
	assert_int_equal(shed.split, kept.split);
	/* shown: as the light line left them */
	nodeiv_unshed_rows(&shed);
	assert_false(shed.rows_shed);
	assert_non_null(shed.plan);
	assert_int_equal(shed.plan->split, kept.plan->split);
	assert_int_equal(shed.plan->scale, kept.plan->scale);
	assert_int_equal(shed.plan->basis, kept.plan->basis);
	for (c = 0; c < kept.iv.ncores; c++) {
		assert_int_equal(shed.iv.cores[c].reason, kept.iv.cores[c].reason);
		assert_int_equal(shed.iv.cores[c].selected, kept.iv.cores[c].selected);
		assert_int_equal(shed.iv.cores[c].split, kept.iv.cores[c].split);
		assert_int_equal(shed.iv.cores[c].util.kind, kept.iv.cores[c].util.kind);
		assert_int_equal(shed.iv.cores[c].util.why, kept.iv.cores[c].util.why);
	}
	assert_int_equal(kept.iv.cores[0].reason, R_FIRST);
	for (c = 0; c < kept.iv.max_cpu; c++) {
		assert_int_equal(shed.iv.threads[c].reason, kept.iv.threads[c].reason);
		assert_int_equal(shed.iv.threads[c].cpu, kept.iv.threads[c].cpu);
	}
	for (c = 0; c < kept.iv.npackages; c++)
		assert_int_equal(shed.iv.packages[c].ncores, kept.iv.packages[c].ncores);
	/* let go again, then a line read whole makes them first */
	nodeiv_shed_rows(&shed);
	assert_int_equal(jdoc_parse(&d, l[2], n[2], &e), 0);
	assert_int_equal(nodeiv_read(&shed, &d, &e), 0);
	assert_false(shed.rows_shed);
	assert_int_equal(shed.iv.cores[0].reason, R_NONE);
	nodeiv_free(&kept);
	nodeiv_free(&shed);
	jdoc_free(&d);
	free(text);
}

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

/* --- compact lines (--compact): the same intervals as full ones ---------- */

static void
same_val(struct val a, struct val b, const char *what, unsigned k)
{
	if (a.kind != b.kind || (a.kind == V_EXACT && a.v != b.v) ||
	    (a.kind == V_BOUND && (a.lo != b.lo || a.hi != b.hi)) ||
	    (a.kind == V_NONE && a.why != b.why))
		fail_msg("%s %u: kind %d/%d v %g/%g lo %g/%g hi %g/%g why %d/%d", what, k, a.kind,
		    b.kind, a.v, b.v, a.lo, b.lo, a.hi, b.hi, a.why, b.why);
}

static void
same_agg(const struct agg_fig *a, const struct agg_fig *b, unsigned k)
{
	assert_int_equal(a->ncores, b->ncores);
	assert_int_equal(a->nvalid, b->nvalid);
	assert_int_equal(a->exact, b->exact);
	same_val(a->neither, b->neither, "agg neither", k);
	same_val(a->t0_only, b->t0_only, "agg t0", k);
	same_val(a->t1_only, b->t1_only, "agg t1", k);
	same_val(a->both, b->both, "agg both", k);
	same_val(a->util, b->util, "agg util", k);
	same_val(a->active_threads, b->active_threads, "agg threads", k);
	same_val(a->ghz, b->ghz, "agg ghz", k);
	same_val(a->cpi, b->cpi, "agg cpi", k);
	same_val(a->both_of_busy, b->both_of_busy, "agg both_of_busy", k);
}

/* Everything a view, the job or the summary reads of a node. */
static void
same_node(const struct nodeiv *a, const struct nodeiv *b)
{
	const struct topology *ta = &a->m.topo, *tb = &b->m.topo;
	const struct interval *x = &a->iv, *y = &b->iv;
	unsigned k;

	assert_string_equal(a->m.hostname, b->m.hostname);
	assert_string_equal(a->source, b->source);
	assert_int_equal(a->plan->split, b->plan->split);
	assert_int_equal(a->plan->scale, b->plan->scale);
	assert_true(a->unix_time == b->unix_time && a->whole == b->whole);
	assert_int_equal(ta->ncores, tb->ncores);
	assert_int_equal(ta->ncpus, tb->ncpus);
	assert_int_equal(ta->npackages, tb->npackages);
	assert_int_equal(ta->max_cpu, tb->max_cpu);
	for (k = 0; k < ta->ncores; k++) {
		assert_int_equal(ta->cores[k].package, tb->cores[k].package);
		assert_int_equal(ta->cores[k].core_id, tb->cores[k].core_id);
		assert_int_equal(ta->cores[k].nthreads, tb->cores[k].nthreads);
		assert_int_equal(ta->cores[k].cpus[0], tb->cores[k].cpus[0]);
	}
	assert_int_equal(a->have_layout, b->have_layout);
	if (a->have_layout) {
		assert_int_equal(a->layout.kind, b->layout.kind);
		assert_int_equal(a->layout.ngrids, b->layout.ngrids);
		for (k = 0; k < a->layout.ncores; k++) {
			assert_int_equal(a->layout.cores[k].placed, b->layout.cores[k].placed);
			assert_int_equal(a->layout.cores[k].row, b->layout.cores[k].row);
			assert_int_equal(a->layout.cores[k].col, b->layout.cores[k].col);
			assert_int_equal(a->layout.cores[k].slot, b->layout.cores[k].slot);
			assert_int_equal(a->layout.cores[k].cha, b->layout.cores[k].cha);
		}
		for (k = 0; k < a->layout.ngrids; k++)
			assert_string_equal(a->layout.grids[k].title, b->layout.grids[k].title);
	}
	assert_true(x->time == y->time && x->dt == y->dt && x->valid == y->valid);
	assert_string_equal(x->reason, y->reason);
	assert_int_equal(x->stopped, y->stopped);
	assert_int_equal(x->scaled, y->scaled);
	same_agg(&x->node, &y->node, 0);
	assert_int_equal(a->have_weights, b->have_weights);
	assert_true(a->w.time == b->w.time && a->w.ref == b->w.ref && a->w.inst == b->w.inst);
	for (k = 0; k < x->npackages; k++)
		same_agg(&x->packages[k], &y->packages[k], k);
	for (k = 0; k < x->ncores; k++) {
		const struct core_fig *c = &x->cores[k], *d = &y->cores[k];

		if (c->reason != d->reason || c->selected != d->selected || c->split != d->split ||
		    c->exact != d->exact || c->fallback != d->fallback || c->stopped != d->stopped ||
		    c->inconsistency != d->inconsistency || c->scaled != d->scaled)
			fail_msg("core %u: reason %d/%d selected %d/%d exact %d/%d fallback %d/%d "
			    "stopped %u/%u", k, c->reason, d->reason, c->selected, d->selected, c->exact,
			    d->exact, c->fallback, d->fallback, c->stopped, d->stopped);
		same_val(c->neither, d->neither, "core neither", k);
		same_val(c->t0_only, d->t0_only, "core t0", k);
		same_val(c->t1_only, d->t1_only, "core t1", k);
		same_val(c->both, d->both, "core both", k);
		same_val(c->util, d->util, "core util", k);
		same_val(c->active_threads, d->active_threads, "core threads", k);
		same_val(c->issue_util, d->issue_util, "core issue", k);
		same_val(c->cpi, d->cpi, "core cpi", k);
		same_val(c->ghz, d->ghz, "core ghz", k);
	}
	for (k = 0; k < x->max_cpu; k++) {
		const struct thread_fig *c = &x->threads[k], *d = &y->threads[k];

		if (c->reason != d->reason || c->stopped != d->stopped || c->scaled != d->scaled ||
		    c->offline != d->offline || c->d_tsc != d->d_tsc || c->d_ref != d->d_ref ||
		    c->d_cyc != d->d_cyc || c->d_inst != d->d_inst)
			fail_msg("thread %u: reason %d/%d stopped %u/%u", k, c->reason, d->reason,
			    c->stopped, d->stopped);
		same_val(c->util, d->util, "thread util", k);
		same_val(c->cpi, d->cpi, "thread cpi", k);
		same_val(c->nominal_cpi, d->nominal_cpi, "thread nominal_cpi", k);
		same_val(c->ghz, d->ghz, "thread ghz", k);
		same_val(c->net_ghz, d->net_ghz, "thread net_ghz", k);
		same_val(c->ipc, d->ipc, "thread ipc", k);
	}
}

/* The next line of *p (advanced), its length in *n; NULL at the end. */
static const char *
next_line(char **p, size_t *n)
{
	char *s = *p, *nl;

	if (*s == '\0')
		return NULL;
	nl = strchr(s, '\n');
	*n = nl != NULL ? (size_t)(nl - s) : strlen(s);
	*p = nl != NULL ? nl + 1 : s + *n;
	return s;
}

/* A pair of files, the full and the compact lines of one run: read line
 * by line, whole and light (as a node not shown is read), the two give
 * the same intervals; the compact lines are at least `ratio` times shorter. */
static void
same_pair(const char *full, const char *compact, double ratio)
{
	static const char *const skip[] = { "packages", "cores", "core_figs", NULL };
	struct jdoc d;
	struct nodeiv nf, nc, lf, lc;
	struct errmsg e;
	size_t lenf, lenc, nl1, nl2;
	char *tf = slurp(full, &lenf), *tc = slurp(compact, &lenc), *pf = tf, *pc = tc;
	const char *a, *b;
	unsigned lines = 0;
	int rf, rc;

	jdoc_init(&d, 0);
	nodeiv_init(&nf);
	nodeiv_init(&nc);
	nodeiv_init(&lf);
	nodeiv_init(&lc);
	while ((a = next_line(&pf, &nl1)) != NULL) {
		b = next_line(&pc, &nl2);
		assert_non_null(b);
		assert_int_equal(jdoc_parse(&d, a, nl1, &e), 0);
		rf = nodeiv_read(&nf, &d, &e);
		assert_int_equal(jdoc_parse(&d, b, nl2, &e), 0);
		rc = nodeiv_read(&nc, &d, &e);
		if (rc < 0)
			fail_msg("%s line %u: %s", compact, lines + 1, e.text);
		assert_int_equal(rf, rc);
		same_node(&nf, &nc);
		/* light, after a first whole line */
		if (lines > 0) {
			assert_int_equal(jdoc_parse_head(&d, a, nl1, skip, &e), 0);
			rf = nodeiv_read(&lf, &d, &e);
			assert_int_equal(jdoc_parse_head(&d, b, nl2, skip, &e), 0);
			rc = nodeiv_read(&lc, &d, &e);
			assert_int_equal(rf, rc);
			if (rf == 0) {
				same_agg(&lf.iv.node, &lc.iv.node, 0);
				assert_true(lf.w.time == lc.w.time && lf.w.inst == lc.w.inst);
			}
		}
		assert_int_equal(jdoc_parse(&d, a, nl1, &e), 0);
		assert_true(nodeiv_read(&lf, &d, &e) >= 0);
		assert_int_equal(jdoc_parse(&d, b, nl2, &e), 0);
		assert_true(nodeiv_read(&lc, &d, &e) >= 0);
		lines++;
	}
	assert_null(next_line(&pc, &nl2));
	assert_true(lines > 0);
	if ((double)lenf < ratio * (double)lenc)
		fail_msg("%s: %zu bytes, %s %zu: not %g times shorter", full, lenf, compact, lenc,
		    ratio);
	nodeiv_free(&nf);
	nodeiv_free(&nc);
	nodeiv_free(&lf);
	nodeiv_free(&lc);
	jdoc_free(&d);
	free(tf);
	free(tc);
}

/* The pairs in tests/data/nodes (a Zen node's split as bounds, a KNL
 * node's four threads a core: no split, a --cpus subset: cores not
 * shown), and those NODEIV_PAIRS names ("FULL COMPACT ..." absolute, made
 * by tests/cli/test_nodes_compact.sh with the httop just built). */
static void
test_compact(void **state)
{
	const char *env = getenv("NODEIV_PAIRS");

	(void)state;
	same_pair("tests/data/nodes/zen-full.jsonl", "tests/data/nodes/zen-compact.jsonl", 2.0);
	same_pair("tests/data/nodes/knl-full.jsonl", "tests/data/nodes/knl-compact.jsonl", 2.0);
	if (env != NULL) {
		char *copy = strdup(env), *save = NULL, *f, *c;

		for (f = strtok_r(copy, " ", &save); f != NULL; f = strtok_r(NULL, " ", &save)) {
			c = strtok_r(NULL, " ", &save);
			assert_non_null(c);
			same_pair(f, c, 1.5);
		}
		free(copy);
	}
}

/* Compact lines that are not right: each refused with its reason. */
static void
test_compact_bad(void **state)
{
	static const struct { const char *from, *to, *says; } bad[] = {
		{ "\"core_figs\":[[", "\"core_figs\":[[1,1,1,1,1,1,", "not a list of 11 to 16" },
		{ "\"core_figs\":[[", "\"core_figs\":[[0,1,2,3,4,5,6,7,8,9,0],[", "has 3 cores" },
		{ "\"core_figs\":[", "\"core_figs\":{\"a\":1},\"x\":[", "\"core_figs\" is not a list" },
		{ "\"thread_figs\":[[0,", "\"thread_figs\":[[99999,", "not a whole number" },
		{ "\"thread_figs\":[", "\"thread_figs\":7,\"y\":[", "\"thread_figs\" is missing" },
		{ ",0,0]", ",0,9]", "\"flags\"" },
		{ ",0,0]", ",0,0,\"no-job\",\"no-job\",\"no-job\",\"no-job\",7]", "is not an object" },
		{ ",0,0]", ",0,0,{\"reason\":\"nonsense\"}]", "reason codes" },
		{ "\"core_figs\":[[\"no-split\"", "\"core_figs\":[[2", "out of its range" },
		{ "\"core_figs\":[[\"no-split\"", "\"core_figs\":[[[0.5,0.1]", "not [lo, hi] within" },
		{ "\"core_figs\":[[\"no-split\"", "\"core_figs\":[[[0.5]", "not [lo, hi]" },
		{ "\"core_figs\":[[\"no-split\"", "\"core_figs\":[[true", "not a number, a bound" },
		{ "\"core_list\":[[0,0,", "\"core_list\":[[0,", "[package, core, cpus, tile]" },
		{ "\"core_list\":[[0,", "\"core_list\":[[2000,", "\"package\" is not a whole" },
		{ "\"core_list\":[", "\"core_list\":3,\"z\":[", "\"core_list\" is not a list" },
		{ "\"agg\":[2,2,", "\"agg\":[2,3,", "\"nvalid\" is more than" },
		{ "\"agg\":[", "\"agg\":[1,1,1,1,1,1,1,", "not a list of 12 to 17" },
		{ "\"agg\":[2,2,0,", "\"agg\":[2,2,2,", "\"exact\" is not a whole" },
	};
	struct jdoc d;
	struct nodeiv n;
	struct errmsg e;
	size_t len, nl, k;
	char *text = slurp("tests/data/nodes/knl-compact.jsonl", &len), *l2 = strchr(text, '\n') + 1;
	size_t n1 = (size_t)(l2 - 1 - text), n2 = (size_t)(strchr(l2, '\n') - l2);

	(void)state;
	jdoc_init(&d, 0);
	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char *line = replaced(text, n1, bad[k].from, bad[k].to, &nl);

		nodeiv_init(&n);
		if (jdoc_parse(&d, line, nl, &e) != 0)
			fail_msg("%zu: not JSON: %s", k, e.text);
		if (nodeiv_read(&n, &d, &e) >= 0)
			fail_msg("%zu: read: %.200s", k, line);
		if (strstr(e.text, bad[k].says) == NULL)
			fail_msg("%zu: says '%s', not '%s'", k, e.text, bad[k].says);
		nodeiv_free(&n);
		free(line);
	}
	/* the second line has no core_list: alone, its cores are not known */
	nodeiv_init(&n);
	assert_int_equal(jdoc_parse(&d, l2, n2, &e), 0);
	assert_null(strstr(l2, "core_list"));
	assert_int_equal(nodeiv_read(&n, &d, &e), -1);
	assert_non_null(strstr(e.text, "before any line that had one"));
	/* after the first, it is read; with another group, the machine changed */
	assert_int_equal(jdoc_parse(&d, text, n1, &e), 0);
	assert_int_equal(nodeiv_read(&n, &d, &e), 1);
	assert_int_equal(jdoc_parse(&d, l2, n2, &e), 0);
	assert_int_equal(nodeiv_read(&n, &d, &e), 0);
	{
		char *other = replaced(l2, n2, "\"group\":\"knl\"", "\"group\":\"skx\"", &nl);

		assert_int_equal(jdoc_parse(&d, other, nl, &e), 0);
		assert_int_equal(nodeiv_read(&n, &d, &e), -1);
		assert_non_null(strstr(e.text, "changed without"));
		free(other);
	}
	nodeiv_free(&n);
	jdoc_free(&d);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_numbers),
		cmocka_unit_test(test_jobj),
		cmocka_unit_test(test_two_cores),
		cmocka_unit_test(test_split_basis),
		cmocka_unit_test(test_scale_null),
		cmocka_unit_test(test_demo),
		cmocka_unit_test(test_light),
		cmocka_unit_test(test_shed),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_claims),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_layout_bound),
		cmocka_unit_test(test_many_cores),
		cmocka_unit_test(test_combine),
		cmocka_unit_test(test_transport),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_compact_bad),
	};

	return cmocka_run_group_tests_name("nodeiv", tests, NULL, NULL);
}
