/* test_textwrap.c: prose broken at blanks to a width (util/textwrap.c):
 * the summaries of a command's run and of --check fit 80 columns. */
#include "unit/testutil.h"

#include <stdlib.h>
#include <string.h>

#include "util/textwrap.h"

/* text_wrap into a string (freed by the caller). */
static char *
wrap(unsigned indent, unsigned width, const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	text_wrap(fp, indent, width, text);
	fclose(fp);
	return buf;
}

static void
test_columns(void **state)
{
	(void)state;
	assert_int_equal(text_cols("abc", 3), 3);
	assert_int_equal(text_cols("abc", 2), 2);
	/* "für" is 4 bytes, 3 characters. */
	assert_int_equal(text_cols("f\xc3\xbcr", 4), 3);
	assert_int_equal(text_cols("", 5), 0);
}

static void
test_wrap(void **state)
{
	char *s;

	(void)state;
	/* Fits: as it is. */
	s = wrap(4, 20, " short line\n");
	assert_string_equal(s, " short line\n");
	free(s);
	/* Width 20: " meaning: one two" is 17, " three" would make 23: the
	 * break comes before it, the continuation indented by 10 and the
	 * blank at the break dropped. */
	s = wrap(10, 20, " meaning: one two three four\n");
	assert_string_equal(s, " meaning: one two\n          three four\n");
	free(s);
	/* Exactly the width stays on the line. */
	s = wrap(2, 10, "abcd efghi\n");
	assert_string_equal(s, "abcd efghi\n");
	free(s);
	/* A word longer than a line is left whole, on a line of its own. */
	s = wrap(2, 10, "ab abcdefghijklmn cd\n");
	assert_string_equal(s, "ab\n  abcdefghijklmn\n  cd\n");
	free(s);
	/* Each '\n' ends a line; leading blanks kept, trailing ones dropped. */
	s = wrap(4, 12, "  one two three  \n  four\n");
	assert_string_equal(s, "  one two\n    three\n  four\n");
	free(s);
	/* Columns, not bytes: 11 characters in 14 bytes fit 11 columns. */
	s = wrap(0, 11, "f\xc3\xbcr f\xc3\xbcr f\xc3\xbcr\n");
	assert_string_equal(s, "f\xc3\xbcr f\xc3\xbcr f\xc3\xbcr\n");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_wrap),
	};

	return cmocka_run_group_tests_name("textwrap", tests, NULL, NULL);
}
