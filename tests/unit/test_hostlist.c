/* test_hostlist.c: Slurm's hostlist syntax expanded by httop's own parser
 * (cluster/hostlist.c), on hand-written lists with their expansions
 * written out; the words scontrol show hostnames and nodeset -e print. */
#include "unit/testutil.h"

#include <string.h>

#include "cluster/hostlist.h"

/* The names of `spec` joined with blanks into buf. */
static const char *
expand(const char *spec, char *buf, size_t len)
{
	struct hostlist h = { 0 };
	struct errmsg e;
	size_t i, o = 0;

	buf[0] = '\0';
	if (hostlist_parse(spec, &h, &e) != 0) {
		snprintf(buf, len, "ERROR %s", e.text);
		return buf;
	}
	for (i = 0; i < h.n; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", h.names[i]);
	hostlist_free(&h);
	return buf;
}

static void
test_ranges(void **state)
{
	char b[4096];

	(void)state;
	assert_string_equal(expand("n1", b, sizeof b), "n1");
	assert_string_equal(expand("a,b,c", b, sizeof b), "a b c");
	assert_string_equal(expand("c[001-003,200]", b, sizeof b), "c001 c002 c003 c200");
	/* a suffix after the bracket */
	assert_string_equal(expand("c[01-03]-ib", b, sizeof b), "c01-ib c02-ib c03-ib");
	/* the width of the first number when it has a leading zero */
	assert_string_equal(expand("x[8-10]", b, sizeof b), "x8 x9 x10");
	assert_string_equal(expand("x[08-10]", b, sizeof b), "x08 x09 x10");
	assert_string_equal(expand("x[0-2]", b, sizeof b), "x0 x1 x2");
	/* several items, brackets among them */
	assert_string_equal(expand("login1,c[1-2],gpu[7,9]", b, sizeof b),
	    "login1 c1 c2 gpu7 gpu9");
	/* two brackets: every combination, the first varying slowest */
	assert_string_equal(expand("r[1-2]n[01-02]", b, sizeof b), "r1n01 r1n02 r2n01 r2n02");
	/* a name twice is one node, in the place it came first */
	assert_string_equal(expand("b,a,b,c[1-2],c1", b, sizeof b), "b a c1 c2");
	/* a bracket of one number, a name of a bracket only */
	assert_string_equal(expand("c[5]", b, sizeof b), "c5");
	assert_string_equal(expand("[1-3]", b, sizeof b), "1 2 3");
	/* dots and underscores, as in FQDNs */
	assert_string_equal(expand("n[1-2].cluster.example", b, sizeof b),
	    "n1.cluster.example n2.cluster.example");
}

static void
test_count(void **state)
{
	struct hostlist h = { 0 };
	struct errmsg e;

	(void)state;
	assert_int_equal(hostlist_parse("c[001-512]", &h, &e), 0);
	assert_int_equal(h.n, 512);
	assert_string_equal(h.names[0], "c001");
	assert_string_equal(h.names[511], "c512");
	hostlist_free(&h);
	/* the largest list there may be, then one more */
	assert_int_equal(hostlist_parse("n[00000-65535]", &h, &e), 0);
	assert_int_equal(h.n, 65536);
	hostlist_free(&h);
	assert_int_equal(hostlist_parse("n[0-65535],x", &h, &e), -1);
	assert_non_null(strstr(e.text, "65536"));
	/* 10^6 x 10^6 combinations are refused before any is made */
	assert_int_equal(hostlist_parse("a[1-999999]b[1-999999]", &h, &e), -1);
	assert_int_equal(h.n, 0);
}

static void
test_errors(void **state)
{
	static const char *const bad[] = {
		"", "c[", "c[1-", "c[3-1]", "c[a]", "c]1", "a,,b", "a,", "c[1,]", "c[1-2",
		"-rf", "a b", "a;b", "c[1234567890]", "a/b",
	};
	char b[4096];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		expand(bad[i], b, sizeof b);
		if (strncmp(b, "ERROR ", 6) != 0)
			fail_msg("'%s' expanded to '%s'", bad[i], b);
	}
	/* the message names the list and what is wrong */
	expand("c[3-1]", b, sizeof b);
	assert_non_null(strstr(b, "c[3-1]"));
	assert_non_null(strstr(b, "downwards"));
}

static void
test_words(void **state)
{
	struct hostlist h = { 0 };
	struct errmsg e;

	(void)state;
	/* scontrol show hostnames: one a line; nodeset -e: blanks */
	assert_int_equal(hostlist_from_words("c001\nc002\nc200\n", &h, &e), 0);
	assert_int_equal(h.n, 3);
	assert_string_equal(h.names[2], "c200");
	hostlist_free(&h);
	assert_int_equal(hostlist_from_words("a b  c\n", &h, &e), 0);
	assert_int_equal(h.n, 3);
	hostlist_free(&h);
	assert_int_equal(hostlist_from_words("\n", &h, &e), -1);
	assert_int_equal(hostlist_from_words("ok -bad", &h, &e), -1);
	assert_int_equal(h.n, 0);
	assert_true(hostlist_name_ok("node-01.x_y"));
	assert_false(hostlist_name_ok("-o"));
	assert_false(hostlist_name_ok("a$b"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests_name("hostlist", tests, NULL, NULL);
}
