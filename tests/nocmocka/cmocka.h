/* cmocka.h stand-in, used only when configure finds no cmocka: the unit
 * test programs still compile (so a build without cmocka shows no error),
 * and each one, run, reports itself skipped with the reason (a TAP plan
 * "1..0 # SKIP ..." and exit status 77) instead of running its tests.
 * The assertions only evaluate their arguments, so that the code around
 * them compiles without warnings; none of it runs. */
#ifndef HTTOP_NOCMOCKA_H
#define HTTOP_NOCMOCKA_H

#include <stddef.h>
#include <stdio.h>

typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
	const char *name;
	CMUnitTestFunction test_func;
	CMFixtureFunction setup_func;
	CMFixtureFunction teardown_func;
	void *initial_state;
};

static inline int
nocmocka_skip(void)
{
	printf("1..0 # SKIP cmocka is not installed (Debian: libcmocka-dev); "
	    "configure again after installing it\n");
	return 77;
}

static inline int
_cmocka_run_group_tests(const char *name, const struct CMUnitTest *tests, size_t n,
    CMFixtureFunction setup, CMFixtureFunction teardown)
{
	(void)name; (void)tests; (void)n; (void)setup; (void)teardown;
	return nocmocka_skip();
}

#define cmocka_unit_test(f) { #f, f, NULL, NULL, NULL }
#define cmocka_run_group_tests(t, setup, teardown) \
	((void)(t), (void)(setup), (void)(teardown), nocmocka_skip())
#define cmocka_run_group_tests_name(n, t, setup, teardown) \
	((void)(n), (void)(t), (void)(setup), (void)(teardown), nocmocka_skip())

#define nocmocka_use1(a) ((void)(a))
#define nocmocka_use2(a, b) ((void)(a), (void)(b))
#define nocmocka_use3(a, b, c) ((void)(a), (void)(b), (void)(c))
#define assert_true(a) nocmocka_use1(a)
#define assert_false(a) nocmocka_use1(a)
#define assert_null(a) nocmocka_use1(a)
#define assert_non_null(a) nocmocka_use1(a)
#define assert_int_equal(a, b) nocmocka_use2(a, b)
#define assert_int_not_equal(a, b) nocmocka_use2(a, b)
#define assert_ptr_equal(a, b) nocmocka_use2(a, b)
#define assert_string_equal(a, b) nocmocka_use2(a, b)
#define assert_string_not_equal(a, b) nocmocka_use2(a, b)
#define assert_memory_equal(a, b, n) nocmocka_use3(a, b, n)
#define assert_memory_not_equal(a, b, n) nocmocka_use3(a, b, n)
#define fail() ((void)0)
#define fail_msg(...) ((void)sizeof(printf(__VA_ARGS__)))
#define print_message(...) ((void)sizeof(printf(__VA_ARGS__)))
#define skip() ((void)0)

#endif
