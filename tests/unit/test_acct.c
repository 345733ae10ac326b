/* test_acct.c: the compact form of a job's summary in Slurm's accounting
 * (cluster/acct.c): written from a whole-run JSON line, parsed back,
 * merged, combined into the job's line, printed; hostile texts refused
 * with the byte where they go wrong. The values are worked by hand. */
#define _GNU_SOURCE
#include "unit/testutil.h"

#include <string.h>

#include "cluster/acct.h"

/* A whole run of node n01: 8 cores over 723.25 s; neither 6.8%, t0 only
 * 10%, t1 only 8.1% exact; both a bound 70-80%; util 93.2%; both/busy
 * absent (no-split); 2.48 GHz, CPI 0.81; the job's own CPU seconds (cpu_s)
 * 5730.126. */
static const char run_line[] =
    "{\"time\":1,\"interval\":723.25,\"valid\":true,\"host\":\"n01\",\"source\":\"msr\","
    "\"window\":\"run\",\"node\":{\"ncores\":8,\"nvalid\":8,\"exact\":false,"
    "\"neither\":0.068,\"neither_lo\":null,\"neither_hi\":null,"
    "\"t0_only\":0.1,\"t1_only\":0.081,"
    "\"both\":null,\"both_lo\":0.7,\"both_hi\":0.8,"
    "\"util\":0.932,\"ghz\":2.48,\"cpi\":0.81,\"active_threads\":1.74,\"cpu_s\":5730.126,"
    "\"both_of_busy\":null,\"both_of_busy_lo\":null,\"both_of_busy_hi\":null,"
    "\"absent\":{\"both_of_busy\":\"no-split\"}},"
    "\"packages\":[],\"cores\":[{\"x\":1}],\"threads\":[]}";

static const char n01_text[] =
    "n01:c=8,s=723.2,n=6.80,t0=10.00,t1=8.10,b=70.00-80.00,u=93.20,bb=-no-split,"
    "ghz=2.480,cpi=0.810,at=1.740,cpu=5730.13,src=msr";

static void
test_from_json(void **state)
{
	struct acct_node n;
	struct errmsg e;
	char buf[512];

	(void)state;
	assert_int_equal(acct_from_json(run_line, strlen(run_line), &n, &e), 0);
	assert_string_equal(n.name, "n01");
	assert_int_equal(n.cores, 8);
	assert_true(n.fig[AF_NEITHER].kind == AV_EXACT);
	assert_float_equal(n.fig[AF_NEITHER].v, 6.8, 1e-9);
	assert_true(n.fig[AF_BOTH].kind == AV_BOUND);
	assert_float_equal(n.fig[AF_BOTH].lo, 70.0, 1e-9);
	assert_float_equal(n.fig[AF_BOTH].hi, 80.0, 1e-9);
	assert_true(n.fig[AF_BOTH_BUSY].kind == AV_ABSENT);
	assert_string_equal(n.fig[AF_BOTH_BUSY].why, "no-split");
	assert_true(n.fig[AF_CPU].kind == AV_EXACT);
	assert_float_equal(n.fig[AF_CPU].v, 5730.126, 1e-9);
	assert_int_equal(acct_format_node(&n, buf, sizeof buf), (int)strlen(n01_text));
	assert_string_equal(buf, n01_text);
	/* Too small a buffer: -1, never a cut record. */
	assert_int_equal(acct_format_node(&n, buf, 20), -1);
}

static void
test_from_json_refused(void **state)
{
	static const char *const bad[] = {
		"{\"window\":\"interval\",\"host\":\"n01\",\"interval\":1,\"node\":{\"ncores\":1}}",
		"{\"window\":\"run\",\"host\":\"n01;x:c=1\",\"interval\":1,\"node\":{\"ncores\":1}}",
		"{\"window\":\"run\",\"host\":\"\\u001b[31m\",\"interval\":1,\"node\":{\"ncores\":1}}",
		"{\"window\":\"run\",\"host\":\"n01\",\"interval\":-1,\"node\":{\"ncores\":1}}",
		"{\"window\":\"run\",\"host\":\"n01\",\"interval\":1,\"node\":{\"ncores\":1.5}}",
		"{\"window\":\"run\",\"host\":\"n01\",\"interval\":1}",
		"[1,2]",
		"{\"window\":\"run\"",
	};
	struct acct_node n;
	struct errmsg e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.text[0] = '\0';
		assert_int_equal(acct_from_json(bad[i], strlen(bad[i]), &n, &e), -1);
		assert_true(e.text[0] != '\0');
	}
}

static void
test_parse_roundtrip(void **state)
{
	char text[1024], again[1024];
	struct acct_rec r;
	struct errmsg e;
	int len;

	(void)state;
	snprintf(text, sizeof text, "httop1;%s;n02:c=2,s=10.0,n=-,t0=-,t1=-,b=-,u=50.00",
	    n01_text);
	assert_int_equal(acct_parse(text, strlen(text), &r, &e), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.nodes[1].name, "n02");
	assert_true(r.nodes[1].fig[AF_CPU].kind == AV_ABSENT);  /* not given: absent */
	assert_true(r.nodes[1].fig[AF_CPI].kind == AV_ABSENT);  /* not given: absent */
	assert_float_equal(r.nodes[0].secs, 723.2, 1e-9);
	assert_float_equal(r.nodes[0].fig[AF_CPU].v, 5730.13, 1e-9);
	len = acct_format(&r, again, sizeof again);
	assert_string_equal(again, "httop1;" "n01:c=8,s=723.2,n=6.80,t0=10.00,t1=8.10,"
	    "b=70.00-80.00,u=93.20,bb=-no-split,ghz=2.480,cpi=0.810,at=1.740,cpu=5730.13,src=msr;"
	    "n02:c=2,s=10.0,n=-,t0=-,t1=-,b=-,u=50.00,bb=-,ghz=-,cpi=-,at=-,cpu=-");
	assert_int_equal(len, (int)strlen(again));
	acct_free(&r);
	/* Empty: no node; the version alone: no node either. */
	assert_int_equal(acct_parse("", 0, &r, &e), 0);
	assert_int_equal(r.n, 0);
	assert_int_equal(acct_parse("httop1", 6, &r, &e), 0);
	assert_int_equal(r.n, 0);
}

/* Each hostile text: refused, saying at which byte. */
static void
test_parse_hostile(void **state)
{
	static const struct {
		const char *text;
		const char *said;
	} bad[] = {
		{ "JS1:H4sIAAAAAAAAA", "does not start with httop1;" },
		{ "httop2;n01:c=1,s=1", "does not start with httop1;" },
		{ "httop1x;n01:c=1,s=1", "does not start with httop1;" },
		{ "httop1;n01:c=1,s=1;", "byte 19: not NODE:" },
		{ "httop1;;n01:c=1,s=1", "byte 7: not NODE:" },
		{ "httop1;n\033[31m:c=1,s=1", "byte 7: not NODE:" },
		{ "httop1;n01:c=1", "without its cores" },
		{ "httop1;n01:s=1", "without its cores" },
		{ "httop1;n01:c=1,s=1,c=2", "byte 19: a field given twice" },
		{ "httop1;n01:c=1,s=1,zz=2", "byte 19: not a field" },
		{ "httop1;n01:c=1,s=1,u", "byte 19: not a field" },
		{ "httop1;n01:c=1.5,s=1", "byte 13: not a value" },
		{ "httop1;n01:c=1,s=1e5", "byte 17: not a value" },
		{ "httop1;n01:c=1,s=nan", "byte 17: not a value" },
		{ "httop1;n01:c=1,s=inf", "byte 17: not a value" },
		{ "httop1;n01:c=1,s=1,u=80-70", "byte 21: not a value" },
		{ "httop1;n01:c=1,s=1,u=1-2-3", "byte 21: not a value" },
		{ "httop1;n01:c=1,s=1,u=-No Split", "byte 21: not a value" },
		{ "httop1;n01:c=1,s=1,u=.", "byte 21: not a value" },
		{ "httop1;n01:c=1,s=1,u=9999999999", "byte 21: not a value" },
		{ "httop1;n01:c=1,s=1,src=x;y", "not NODE:" },
		{ "httop1;n01:c=1,s=1,src=M\xc3\xa9", "byte 23: not a value" },
		{ "httop1;n01:c=1,s=1;n01:c=2,s=2", "a node given twice" },
		{ "httop1;n01:c=1,s=1,u=00000000000000000000000000000000000000000000000000000000"
		  "00000000000000", "a field too long" },
	};
	struct acct_rec r;
	struct errmsg e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.text[0] = '\0';
		if (acct_parse(bad[i].text, strlen(bad[i].text), &r, &e) != -1 ||
		    strstr(e.text, bad[i].said) == NULL)
			fail_msg("'%s': expected an error with '%s', got '%s'", bad[i].text,
			    bad[i].said, e.text);
		assert_null(r.nodes);
	}
	/* A NUL inside: not text. */
	assert_int_equal(acct_parse("httop1;n01:c=1,s=1\0,u=1", 24, &r, &e), -1);
	/* Longer than httop writes. */
	{
		char *big = malloc(ACCT_TEXT_MAX + 2);

		memset(big, 'a', ACCT_TEXT_MAX + 1);
		memcpy(big, "httop1;", 7);
		big[ACCT_TEXT_MAX + 1] = '\0';
		assert_int_equal(acct_parse(big, ACCT_TEXT_MAX + 1, &r, &e), -1);
		assert_non_null(strstr(e.text, "longer than httop writes"));
		free(big);
	}
}

/* ACCT_NODES_MAX nodes parse; one more does not, nor merges. */
static void
test_nodes_max(void **state)
{
	char *text = malloc(ACCT_TEXT_MAX + 1);
	struct acct_node n;
	struct acct_rec r;
	struct errmsg e;
	size_t len = 6;
	int i;

	(void)state;
	memcpy(text, "httop1", 6);
	for (i = 0; i < ACCT_NODES_MAX; i++)
		len += (size_t)sprintf(text + len, ";%x:c=1,s=1", i);
	assert_true(len < ACCT_TEXT_MAX);
	assert_int_equal(acct_parse(text, len, &r, &e), 0);
	assert_int_equal(r.n, ACCT_NODES_MAX);
	memset(&n, 0, sizeof n);
	snprintf(n.name, sizeof n.name, "extra");
	assert_int_equal(acct_merge(&r, &n), -1);
	acct_free(&r);
	len += (size_t)sprintf(text + len, ";extra:c=1,s=1");
	assert_int_equal(acct_parse(text, len, &r, &e), -1);
	assert_non_null(strstr(e.text, "too many nodes"));
	free(text);
}

static void
test_merge(void **state)
{
	const char *t = "httop1;n01:c=8,s=10.0,u=50.00;n02:c=8,s=10.0,u=60.00";
	struct acct_node n;
	struct acct_rec r;
	struct errmsg e;
	char out[512];

	(void)state;
	assert_int_equal(acct_parse(t, strlen(t), &r, &e), 0);
	memset(&n, 0, sizeof n);
	snprintf(n.name, sizeof n.name, "n01");
	n.cores = 4;
	n.secs = 11;
	n.fig[AF_UTIL].kind = AV_EXACT;
	n.fig[AF_UTIL].v = 70;
	assert_int_equal(acct_merge(&r, &n), 0);    /* replaces n01 */
	snprintf(n.name, sizeof n.name, "n03");
	assert_int_equal(acct_merge(&r, &n), 0);    /* added */
	acct_format(&r, out, sizeof out);
	assert_string_equal(out, "httop1;n01:c=4,s=11.0,n=-,t0=-,t1=-,b=-,u=70.00,bb=-,ghz=-,"
	    "cpi=-,at=-,cpu=-;n02:c=8,s=10.0,n=-,t0=-,t1=-,b=-,u=60.00,bb=-,ghz=-,cpi=-,at=-,"
	    "cpu=-;n03:c=4,s=11.0,n=-,t0=-,t1=-,b=-,u=70.00,bb=-,ghz=-,cpi=-,at=-,cpu=-");
	/* Too small for it all: -1. */
	assert_int_equal(acct_format(&r, out, 40), -1);
	acct_free(&r);
}

/* Two nodes: a (2 cores, 10 s) and b (6 cores, 10 s). util 50 and 100:
 * (20 * 50 + 60 * 100) / 80 = 87.5. neither exact 10 and a bound 20-40:
 * (20 * 10 + 60 * 20) / 80 = 17.5 to (20 * 10 + 60 * 40) / 80 = 32.5.
 * CPI 1 and 2: the job's lies between, 1.00-2.00; GHz 2.5 on both: 2.50.
 * Threads 1 and 2: (20 * 1 + 60 * 2) / 80 = 1.75. httop's CPU: 0.25 + 0.5
 * = 0.75 s. */
static void
test_combine(void **state)
{
	const char *t = "httop1;a:c=2,s=10.0,n=10,u=50,ghz=2.5,cpi=1,at=1,cpu=0.25,src=msr;"
	    "b:c=6,s=10.0,n=20-40,u=100,ghz=2.5,cpi=2,at=2,cpu=0.5,src=msr";
	struct acct_node job;
	struct acct_rec r;
	struct errmsg e;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_int_equal(acct_parse(t, strlen(t), &r, &e), 0);
	acct_combine(&r, &job);
	assert_int_equal(job.cores, 8);
	assert_float_equal(job.secs, 10.0, 1e-9);
	assert_true(job.fig[AF_UTIL].kind == AV_EXACT);
	assert_float_equal(job.fig[AF_UTIL].v, 87.5, 1e-9);
	assert_true(job.fig[AF_NEITHER].kind == AV_BOUND);
	assert_float_equal(job.fig[AF_NEITHER].lo, 17.5, 1e-9);
	assert_float_equal(job.fig[AF_NEITHER].hi, 32.5, 1e-9);
	assert_true(job.fig[AF_CPI].kind == AV_BOUND);
	assert_float_equal(job.fig[AF_CPI].lo, 1.0, 1e-9);
	assert_float_equal(job.fig[AF_CPI].hi, 2.0, 1e-9);
	assert_true(job.fig[AF_GHZ].kind == AV_EXACT);
	assert_true(job.fig[AF_BOTH].kind == AV_ABSENT);
	assert_float_equal(job.fig[AF_THREADS].v, 1.75, 1e-9);
	assert_true(job.fig[AF_CPU].kind == AV_EXACT);
	assert_float_equal(job.fig[AF_CPU].v, 0.75, 1e-9);
	assert_string_equal(job.src, "msr");
	fp = open_memstream(&out, &len);
	acct_print(fp, "42", &r);
	fclose(fp);
	assert_non_null(strstr(out, "\na                     2      10.0     10.0        -        -"
	    "        -     50.0          -   2.50   1.00    1.00      0.25 msr\n"));
	assert_non_null(strstr(out, "\njob                   8      10.0"
	    " 17.5-32.5        -        -        -     87.5          -   2.50 1.00-2.00"
	    "    1.75      0.75 msr\n"));
	free(out);
	acct_free(&r);
	/* A node whose job CPU time is absent (a source that does not tell
	 * the job's tasks apart): the job's is absent too, with its reason. */
	t = "httop1;a:c=2,s=10.0,cpu=0.25;b:c=6,s=10.0,cpu=-no-job";
	assert_int_equal(acct_parse(t, strlen(t), &r, &e), 0);
	acct_combine(&r, &job);
	assert_true(job.fig[AF_CPU].kind == AV_ABSENT);
	assert_string_equal(job.fig[AF_CPU].why, "no-job");
	acct_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_json),
		cmocka_unit_test(test_from_json_refused),
		cmocka_unit_test(test_parse_roundtrip),
		cmocka_unit_test(test_parse_hostile),
		cmocka_unit_test(test_nodes_max),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_combine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
