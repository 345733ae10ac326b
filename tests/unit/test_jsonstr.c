/* test_jsonstr.c: the one JSON string writer (util/jsonstr.c), on strings
 * worked by hand: what is escaped as JSON requires (quotes, backslashes,
 * C0), what is escaped so that no terminal acts on it (DEL, C1, the
 * bidirectional controls, the line separator, the invisible format
 * characters, a tag above U+FFFF as a surrogate pair), what is kept raw
 * (printable UTF-8), and a byte that is not UTF-8 as '?', one per byte. */
#include "unit/testutil.h"

#include <string.h>

#include "util/jsonstr.h"

struct buf {
	char s[512];
	size_t n, pieces;
};

static void
sink(void *ctx, const char *p, size_t n)
{
	struct buf *b = ctx;

	assert_true(b->n + n < sizeof b->s);
	memcpy(b->s + b->n, p, n);
	b->n += n;
	b->s[b->n] = '\0';
	b->pieces++;
}

static const char *
json(struct buf *b, const char *s)
{
	memset(b, 0, sizeof *b);
	jsonstr_put(sink, b, s);
	return b->s;
}

static void
test_escapes(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "\"\"" },
		{ "plain ASCII, ~!", "\"plain ASCII, ~!\"" },
		/* JSON's own: quote and backslash by a backslash */
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		/* C0: every byte below 0x20 as \u00XX, newline and tab too */
		{ "\x01\x1b[2J\n\t\x1f", "\"\\u0001\\u001b[2J\\u000a\\u0009\\u001f\"" },
		/* DEL */
		{ "x\x7fy", "\"x\\u007fy\"" },
		/* C1: U+0085 (NEL) is c2 85, U+009B (CSI) c2 9b */
		{ "\xc2\x85\xc2\x9b", "\"\\u0085\\u009b\"" },
		/* U+202E, the right-to-left override, is e2 80 ae */
		{ "LINE\xe2\x80\xae" "1", "\"LINE\\u202e1\"" },
		/* U+2028, the line separator, e2 80 a8; U+00AD soft hyphen c2 ad;
		 * U+FEFF the byte order mark, ef bb bf */
		{ "\xe2\x80\xa8\xc2\xad\xef\xbb\xbf", "\"\\u2028\\u00ad\\ufeff\"" },
		/* U+E0041, a tag: f3 a0 81 81. 0xE0041 - 0x10000 = 0xD0041; high
		 * 0xD800 + (0xD0041 >> 10 = 0x340) = 0xDB40, low 0xDC00 + 0x041 */
		{ "\xf3\xa0\x81\x81", "\"\\udb40\\udc41\"" },
		/* printable UTF-8 stays raw: e acute, the euro sign, U+1F600 */
		{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"" },
		/* not UTF-8: a lone 0xff; c3 before '(' (no continuation); the
		 * overlong c0 af; the surrogate U+D800 as ed a0 80; a character
		 * cut by the end: '?' for each byte */
		{ "\xff", "\"?\"" },
		{ "\xc3(", "\"?(\"" },
		{ "\xc0\xaf", "\"??\"" },
		{ "\xed\xa0\x80", "\"???\"" },
		{ "ok\xe2\x80", "\"ok??\"" },
	};
	char longs[202], want[205];
	struct buf b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (strcmp(json(&b, cases[i].in), cases[i].out) != 0)
			fail_msg("case %zu: got %s, want %s", i, b.s, cases[i].out);
	}
	/* NULL is the empty string */
	assert_string_equal(json(&b, NULL), "\"\"");
	/* a short string reaches the sink in one piece, escapes and all */
	json(&b, "host-1.example\xe2\x80\xae");
	assert_int_equal(b.pieces, 1);
	/* a long one in pieces, the same bytes: 200 'a', then a quote */
	memset(longs, 'a', 200);
	strcpy(longs + 200, "\"");
	memcpy(want, "\"", 1);
	memset(want + 1, 'a', 200);
	strcpy(want + 201, "\\\"\"");
	assert_string_equal(json(&b, longs), want);
	assert_true(b.pieces > 1);
}

static void
test_u(void **state)
{
	char e[JSONSTR_U_MAX + 1];

	(void)state;
	memset(e, 0, sizeof e);
	assert_int_equal(jsonstr_u(e, 0x7f), 6);
	assert_string_equal(e, "\\u007f");
	/* U+FFFF: the last one escape holds */
	memset(e, 0, sizeof e);
	assert_int_equal(jsonstr_u(e, 0xffff), 6);
	assert_string_equal(e, "\\uffff");
	/* U+10000: 0; high 0xD800, low 0xDC00 */
	memset(e, 0, sizeof e);
	assert_int_equal(jsonstr_u(e, 0x10000), 12);
	assert_string_equal(e, "\\ud800\\udc00");
	/* U+10FFFF: 0xFFFFF; high 0xD800 + 0x3FF, low 0xDC00 + 0x3FF */
	memset(e, 0, sizeof e);
	assert_int_equal(jsonstr_u(e, 0x10ffff), 12);
	assert_string_equal(e, "\\udbff\\udfff");
}

/* The stdio form writes the same bytes. */
static void
test_fput(void **state)
{
	char *s = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&s, &n);

	(void)state;
	assert_non_null(fp);
	jsonstr_fput(fp, "Xeon\xe2\x80\xae\"\xff");
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(s, "\"Xeon\\u202e\\\"?\"");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_u),
		cmocka_unit_test(test_fput),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
