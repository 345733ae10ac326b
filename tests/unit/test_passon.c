/* test_passon.c: a node's line passed on in the merged JSON lines
 * (cluster/passon.c): what passes as it is, what is re-written (the same
 * JSON value, nothing a terminal acts on raw), what is refused. */
#include "unit/testutil.h"

#include <string.h>

#include "cluster/passon.h"

/* The line through passon: its rc, and the re-written text in out. */
static int
pass(const char *in, char *out, size_t size)
{
	struct errmsg e;
	size_t need = 0;
	int rc = passon_scan(in, strlen(in), 1u << 20, &need, &e);

	out[0] = '\0';
	if (rc == 1) {
		assert_true(need < size);
		passon_rewrite(out, in, strlen(in));
		out[need] = '\0';
	}
	return rc;
}

static void
test_as_is(void **state)
{
	char out[256];

	(void)state;
	/* httop's own lines: printable ASCII, escapes; é and 中 are shown
	 * as they are */
	assert_int_equal(pass("{\"host\":\"h1\",\"reason\":\"a\\u001b\\\"b\\\\\",\"x\":[1,2.5e3,null]}",
	    out, sizeof out), 0);
	assert_int_equal(pass("{\"x\":\"caf\xc3\xa9 \xe4\xb8\xad\"}", out, sizeof out), 0);
	assert_int_equal(pass("{ \"x\" : 1 }", out, sizeof out), 0);
}

static void
test_rewritten(void **state)
{
	char out[256];

	(void)state;
	/* U+202E (e2 80 ae) */
	assert_int_equal(pass("{\"x\":\"a\xe2\x80\xae" "b\"}", out, sizeof out), 1);
	assert_string_equal(out, "{\"x\":\"a\\u202eb\"}");
	/* DEL, NEL (c2 85), CSI (c2 9b), soft hyphen (c2 ad), ZWSP (e2 80 8b),
	 * FSI (e2 81 a8), BOM (ef bb bf) */
	assert_int_equal(pass("{\"x\":\"\x7f\xc2\x85\xc2\x9b\xc2\xad\xe2\x80\x8b\xe2\x81\xa8\xef\xbb\xbf\"}",
	    out, sizeof out), 1);
	assert_string_equal(out, "{\"x\":\"\\u007f\\u0085\\u009b\\u00ad\\u200b\\u2068\\ufeff\"}");
	/* tag LATIN SMALL A, U+E0061 (f3 a0 81 a1): U+E0061 - 0x10000 = 0xD0061,
	 * high 0xD800 + (0xD0061 >> 10 = 0x340) = 0xDB40, low 0xDC00 + 0x61 */
	assert_int_equal(pass("{\"x\":\"\xf3\xa0\x81\xa1\"}", out, sizeof out), 1);
	assert_string_equal(out, "{\"x\":\"\\udb40\\udc61\"}");
	/* a member name too; a quote escaped does not end the string */
	assert_int_equal(pass("{\"\xe2\x80\xae\":\"\\\"\xc2\x9b\"}", out, sizeof out), 1);
	assert_string_equal(out, "{\"\\u202e\":\"\\\"\\u009b\"}");
	/* a tab and a carriage return between values: blanks */
	assert_int_equal(pass("{\"x\":\t1,\r\"y\":2}", out, sizeof out), 1);
	assert_string_equal(out, "{\"x\": 1, \"y\":2}");
}

static void
test_refused(void **state)
{
	static const char *const bad[] = {
		"{\"x\":\"a\x1b[2Jb\"}",          /* ESC in a string: not JSON */
		"{\"x\":\"a\tb\"}",               /* a raw tab in a string */
		"{\"x\":\"a\xff\"}",              /* not UTF-8 */
		"{\"x\":\"a\xc0\xaf\"}",          /* an overlong '/' */
		"{\"x\":\"a\xed\xa0\x80\"}",      /* a surrogate */
		"{\"x\":\"a\xe2\x80\"}",          /* a character cut by the line's end */
		"{\"x\":1\x1b}",                  /* ESC between values */
		"{\"x\":1\xe2\x80\xae}",          /* U+202E between values */
		"{\"x\":\"\\\x1b\"}",             /* a backslash before ESC */
		"{\"x\":1\\}",                    /* a backslash outside a string */
	};
	char out[256];
	struct errmsg e;
	size_t i, need;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (pass(bad[i], out, sizeof out) != -1)
			fail_msg("line %zu passed", i);
		passon_scan(bad[i], strlen(bad[i]), 1u << 20, &need, &e);
		assert_non_null(strstr(e.text, "byte "));
	}
	/* 16 DELs in a string are 96 bytes re-written: over a bound of 90,
	 * refused */
	assert_int_equal(passon_scan("\"\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\"",
	    18, 90, &need, &e), -1);
	assert_int_equal(passon_scan("\"\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\"",
	    18, 98, &need, &e), 1);
	assert_int_equal(need, 98);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_as_is),
		cmocka_unit_test(test_rewritten),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests_name("passon", tests, NULL, NULL);
}
