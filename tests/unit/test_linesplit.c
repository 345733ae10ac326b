/* test_linesplit.c: a stream's reads cut into lines (util/linesplit.c),
 * the way the nodes' pipes are: lines across reads, empty lines, and a
 * line past the most kept, cut (a node's standard error, srun's pieces),
 * split (srun's own standard error) or refused (a node's output). */
#include "unit/testutil.h"

#include <string.h>

#include "util/linesplit.h"

/* The lines handed on, each followed by '|'. */
struct got {
	char text[4096];
	size_t n;
	bool fixed;                /* a fixed room: each line is NUL-terminated */
	bool nul;                  /* ... and each had its NUL */
};

static void
collect(void *arg, const char *s, size_t len)
{
	struct got *g = arg;
	size_t at = strlen(g->text);

	assert_true(at + len + 2 < sizeof g->text);
	memcpy(g->text + at, s, len);
	g->text[at + len] = '|';
	g->text[at + len + 1] = '\0';
	g->n++;
	if (g->fixed)
		g->nul = g->nul && s[len] == '\0';
}

/* Each of the reads fed in turn; the status of the last. */
static int
feed(struct linesplit *ls, struct got *g, const char *const *reads)
{
	int rc = 0;

	memset(g, 0, sizeof *g);
	g->fixed = !ls->grown;
	g->nul = true;
	for (; *reads != NULL; reads++)
		rc = linesplit_feed(ls, *reads, strlen(*reads), collect, g);
	return rc;
}

static void
test_grown(void **state)
{
	static const char *const r1[] = { "ab\ncd", "ef", "\n\ngh\nij", NULL };
	struct linesplit ls;
	struct got g;
	size_t len;
	const char *rest;

	(void)state;
	linesplit_grown(&ls, 8, LINESPLIT_FAIL);
	assert_int_equal(feed(&ls, &g, r1), 0);
	assert_string_equal(g.text, "ab|cdef||gh|");
	assert_int_equal(g.n, 4);
	rest = linesplit_rest(&ls, &len);
	assert_int_equal(len, 2);
	assert_memory_equal(rest, "ij", 2);
	/* the room of a line that came in pieces is let go after it */
	{
		static const char *const r2[] = { "kl\n", NULL };

		assert_int_equal(feed(&ls, &g, r2), 0);
		assert_string_equal(g.text, "ijkl|");
		assert_null(ls.part);
	}
	linesplit_free(&ls);
}

static void
test_fail(void **state)
{
	static const char *const over[] = { "12345", "6789", NULL };
	static const char *const after[] = { "x\ny\n", NULL };
	static const char *const ends_long[] = { "1234", "56789\nz\n", NULL };
	struct linesplit ls;
	struct got g;

	(void)state;
	linesplit_grown(&ls, 8, LINESPLIT_FAIL);
	/* 9 bytes not ended: refused, the part dropped */
	assert_int_equal(feed(&ls, &g, over), -1);
	assert_int_equal(ls.len, 0);
	assert_int_equal(feed(&ls, &g, after), 0);
	assert_string_equal(g.text, "x|y|");
	/* one that ends past the most: dropped, the next read on */
	assert_int_equal(feed(&ls, &g, ends_long), 0);
	assert_string_equal(g.text, "z|");
	linesplit_free(&ls);
}

static void
test_cut(void **state)
{
	static const char *const r[] = { "abcdefgh", "ij\nk", "l\n\n", NULL };
	struct linesplit ls;
	struct got g;

	(void)state;
	linesplit_fixed(&ls, 4, LINESPLIT_CUT);
	assert_int_equal(feed(&ls, &g, r), 0);
	assert_string_equal(g.text, "abcd|kl||");
	assert_true(g.nul);
	linesplit_free(&ls);
}

static void
test_split(void **state)
{
	static const char *const r[] = { "abcdefghij\n", "abcd", "\nab", "cde", "\n", NULL };
	struct linesplit ls;
	struct got g;

	(void)state;
	linesplit_fixed(&ls, 4, LINESPLIT_SPLIT);
	/* 10 bytes: 4, 4, 2; exactly 4 then the newline: one line */
	assert_int_equal(feed(&ls, &g, r), 0);
	assert_string_equal(g.text, "abcd|efgh|ij|abcd|abcd|e|");
	assert_true(g.nul);
	linesplit_reset(&ls);
	assert_int_equal(ls.len, 0);
	linesplit_free(&ls);
}

static void
count(void *arg, const char *s, size_t len)
{
	(void)s;
	(void)len;
	(*(size_t *)arg)++;
}

/* A line that came in pieces (srun's of 1 KiB): the next one's first
 * piece gets the room the last line needed at once, not grown piece by
 * piece (each growth a copy of the line so far); a huge last line gives
 * no more than LINESPLIT_HINT_MAX. */
static void
test_grown_hint(void **state)
{
	static char big[(LINESPLIT_HINT_MAX + 4096) + 1];
	struct linesplit ls;
	size_t n = 0;
	size_t k;

	(void)state;
	linesplit_grown(&ls, 1u << 20, LINESPLIT_FAIL);
	for (k = 0; k < 10; k++)
		assert_int_equal(linesplit_feed(&ls, "0123456789", 10, count, &n), 0);
	assert_int_equal(linesplit_feed(&ls, "\n", 1, count, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ls.cap, 0);   /* let go after the line */
	/* the room the last line needed at once (the last one's, kept) */
	assert_int_equal(linesplit_feed(&ls, "ab", 2, count, &n), 0);
	assert_true(ls.cap >= 100 && ls.cap <= LINESPLIT_HINT_MAX);
	assert_int_equal(linesplit_feed(&ls, "\n", 1, count, &n), 0);
	assert_int_equal(linesplit_feed(&ls, "abc", 3, count, &n), 0);
	assert_true(ls.cap >= 100 && ls.cap <= LINESPLIT_HINT_MAX);
	assert_int_equal(linesplit_feed(&ls, "\n", 1, count, &n), 0);
	memset(big, 'x', sizeof big - 1);
	assert_int_equal(linesplit_feed(&ls, big, sizeof big - 1, count, &n), 0);
	assert_int_equal(linesplit_feed(&ls, "\n", 1, count, &n), 0);
	/* a huge line's room is let go: the next starts at the hint's most */
	assert_int_equal(ls.cap, 0);
	assert_int_equal(linesplit_feed(&ls, "ab", 2, count, &n), 0);
	assert_int_equal(ls.cap, LINESPLIT_HINT_MAX);
	assert_int_equal(n, 4);
	linesplit_free(&ls);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grown),
		cmocka_unit_test(test_fail),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_grown_hint),
	};

	return cmocka_run_group_tests_name("linesplit", tests, NULL, NULL);
}
