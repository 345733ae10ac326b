/* test_cpulist.c: the kernel's CPU list syntax both ways (util/cpulist.c):
 * what --cpus and cpuset files give, and the lists in httop's notes and
 * recordings ("0-17,36"), which must never show half a number. */
#include "unit/testutil.h"

#include <stdbool.h>
#include <string.h>

#include "util/cpulist.h"

static void
test_parse(void **state)
{
	struct cpulist l = { 0, NULL };
	struct errmsg e;

	(void)state;
	assert_int_equal(cpulist_parse("0-3,8,10-11", &l, &e), 0);
	assert_int_equal(cpulist_count(&l), 7);
	assert_true(cpulist_has(&l, 0) && cpulist_has(&l, 3) && cpulist_has(&l, 8));
	assert_false(cpulist_has(&l, 4) || cpulist_has(&l, 9) || cpulist_has(&l, 12));
	assert_false(cpulist_has(&l, 100000));   /* beyond the list: not in it */
	cpulist_free(&l);
	assert_int_equal(cpulist_parse("3-1", &l, &e), -1);
	assert_string_equal(e.text, "CPU list '3-1': the range '3-1' runs backwards; give the "
	    "lower CPU first, such as 0-3");
	/* the range alone is named, not what follows it */
	assert_int_equal(cpulist_parse("0,5-2,8", &l, &e), -1);
	assert_non_null(strstr(e.text, "the range '5-2' runs backwards"));
	assert_int_equal(cpulist_parse("x", &l, &e), -1);
}

/* has[] with the CPUs of `text` set, n entries. */
static bool *
set_of(const char *text, size_t n)
{
	struct cpulist l = { 0, NULL };
	struct errmsg e;
	bool *has = calloc(n, sizeof *has);
	size_t i;

	assert_non_null(has);
	assert_int_equal(cpulist_parse(text, &l, &e), 0);
	for (i = 0; i < n; i++)
		has[i] = cpulist_has(&l, (unsigned)i);
	cpulist_free(&l);
	return has;
}

static void
test_append(void **state)
{
	char buf[64];
	bool *has = set_of("0-17,36,38-39,71", 72);

	(void)state;
	/* runs become ranges, single CPUs stay single, appended after text */
	snprintf(buf, sizeof buf, "CPUs ");
	cpulist_append(buf, sizeof buf, has, 72);
	assert_string_equal(buf, "CPUs 0-17,36,38-39,71");
	/* only the first n entries count: 71 is past n = 40 */
	buf[0] = '\0';
	cpulist_append(buf, sizeof buf, has, 40);
	assert_string_equal(buf, "0-17,36,38-39");
	/* none: nothing appended */
	memset(has, 0, 72 * sizeof *has);
	snprintf(buf, sizeof buf, "x");
	cpulist_append(buf, sizeof buf, has, 72);
	assert_string_equal(buf, "x");
	free(has);
}

/* A list longer than the buffer ends with "..." after the last whole
 * item: 0,2,4,... in 16 bytes is "0,2,4,6,8,10..." (15 characters and
 * the NUL; ",12" would need 3 more and "..." still has to fit). */
static void
test_append_cut(void **state)
{
	char buf[16];
	bool has[100];
	size_t i;

	(void)state;
	for (i = 0; i < 100; i++)
		has[i] = i % 2 == 0;
	buf[0] = '\0';
	cpulist_append(buf, sizeof buf, has, 100);
	assert_string_equal(buf, "0,2,4,6,8,10...");
	/* a buffer already too full for "...": left as it was */
	snprintf(buf, sizeof buf, "0123456789abcd");
	cpulist_append(buf, sizeof buf, has, 100);
	assert_string_equal(buf, "0123456789abcd");
}

/* Numbers no machine has: an error for cpulist_parse, noted (the first
 * one) by cpulist_parse_any, which keeps the rest of the list. */
static void
test_beyond(void **state)
{
	struct cpulist l = { 0, NULL };
	unsigned long long beyond = 1;
	struct errmsg e;
	bool present[72];
	size_t i;

	(void)state;
	assert_int_equal(cpulist_parse("99999999", &l, &e), -1);
	assert_non_null(strstr(e.text, "CPU 99999999 is beyond any machine's CPUs"));
	assert_int_equal(cpulist_parse_any("2,99999999,5", &l, &beyond, &e), 0);
	assert_int_equal(beyond, 99999999);
	assert_int_equal(cpulist_count(&l), 2);
	assert_true(cpulist_has(&l, 2) && cpulist_has(&l, 5));
	cpulist_free(&l);
	/* a range across the limit: the part below it is kept, 65536 noted */
	assert_int_equal(cpulist_parse_any("65530-70000", &l, &beyond, &e), 0);
	assert_int_equal(beyond, 65536);
	assert_int_equal(cpulist_count(&l), 6);      /* 65530..65535 */
	cpulist_free(&l);
	assert_int_equal(cpulist_parse_any("0-3", &l, &beyond, &e), 0);
	assert_int_equal(beyond, 0);
	/* what the machine has: 0-71 */
	for (i = 0; i < 72; i++)
		present[i] = true;
	assert_int_equal(cpulist_check_within(&l, 0, present, 72, "--cpus", &e), 0);
	assert_int_equal(cpulist_check_within(&l, 99999999, present, 72, "--cpus", &e), -1);
	assert_string_equal(e.text, "--cpus: CPU 99999999 is not in this machine, which has "
	    "CPUs 0-71; give CPUs it has");
	/* CPU 2 absent (offline and unplugged): named, and the list shows the gap */
	present[2] = false;
	assert_int_equal(cpulist_check_within(&l, 0, present, 72, "--cpus", &e), -1);
	assert_string_equal(e.text, "--cpus: CPU 2 is not in this machine, which has "
	    "CPUs 0-1,3-71; give CPUs it has");
	cpulist_free(&l);
	/* 0-1000000 on a machine of 0-71: the first CPU it lacks is 72, not
	 * the list's first number past the limit (it said "CPU 65536") */
	present[2] = true;
	assert_int_equal(cpulist_parse_any("0-1000000", &l, &beyond, &e), 0);
	assert_int_equal(beyond, 65536);
	assert_int_equal(cpulist_check_within(&l, beyond, present, 72, "--cpus", &e), -1);
	assert_string_equal(e.text, "--cpus: CPU 72 is not in this machine, which has "
	    "CPUs 0-71; give CPUs it has");
	cpulist_free(&l);
	/* more digits than any integer: not a number of CPUs at all */
	assert_int_equal(cpulist_parse_any("99999999999999999999999", &l, &beyond, &e), -1);
	assert_non_null(strstr(e.text, "far too large"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_append_cut),
		cmocka_unit_test(test_beyond),
	};

	return cmocka_run_group_tests_name("cpulist", tests, NULL, NULL);
}
