/* test_ui_layout.c: the screen's arithmetic without a terminal: how many
 * columns of core rows fit, the glyphs of a bar for given shares in UTF-8
 * and ASCII, how figures and bounds print, the window's label, and that
 * the help lists every key the front end handles. */
#include "unit/testutil.h"

#include <string.h>

#include "ui/cores.h"
#include "ui/header.h"
#include "ui/help.h"
#include "ui/screen.h"

/* The cells' glyphs joined into one string. */
static const char *
glyphs(const struct bar_cell *c, int n)
{
	static char buf[512];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s", c[i].glyph);
	return buf;
}

static void
ctx(struct ui_ctx *u, bool utf8)
{
	memset(u, 0, sizeof *u);
	screen_glyphs(u, utf8);
	u->rows = 50;
	u->cols = 160;
}

/* Xeon Phi 7250: one package of 68 cores, 4 threads each (no split), in
 * 200 x 60 less 4 header rows and the status line: a 200 x 55 area.
 * One column needs 1 + 68 = 69 rows > 54 below the heads; two columns of
 * (200 + 2) / 2 - 2 = 99 cells need 1 + 34 = 35 rows: they fit. The full
 * row without split is 5 + 10 + 2 + (11 + 10 + 10 + 6) + 10 = 64 cells
 * plus a bar of at least 20: 84 <= 99, so full rows with a 99 - 64 = 35
 * cell bar. */
static void
test_layout_knl(void **state)
{
	unsigned pkg[] = { 68 };
	struct cores_layout l;

	(void)state;
	assert_int_equal(cores_fmt_fixed(CF_FULL, false), 64);
	cores_layout(200, 55, pkg, 1, false, &l);
	assert_int_equal(l.ncols, 2);
	assert_int_equal(l.colw, 99);
	assert_int_equal(l.rows, 35);
	assert_true(l.fits);
	assert_int_equal(l.fmt, CF_FULL);
	assert_int_equal(l.bar, 35);
}

/* Two 56-core Sapphire Rapids packages, 2 threads: one column needs
 * 2 + 112 = 114 rows, two 2 + 2 * 28 = 58 > 54, three columns of
 * 202 / 3 - 2 = 65 cells 2 + 2 * 19 = 40: they fit. The full split row is
 * 5 + 10 + 2 + (4 * 9 + 10 + 10 + 6) + 10 = 89 + 20 > 65; the medium
 * row 5 + 2 + (7 + 7 + 10 + 10 + 6) = 47 + 12 = 59 <= 65: medium, with
 * a 65 - 47 = 18 cell bar. */
static void
test_layout_spr(void **state)
{
	unsigned pkg[] = { 56, 56 };
	struct cores_layout l;

	(void)state;
	assert_int_equal(cores_fmt_fixed(CF_FULL, true), 89);
	assert_int_equal(cores_fmt_fixed(CF_MEDIUM, true), 47);
	cores_layout(200, 55, pkg, 2, true, &l);
	assert_int_equal(l.ncols, 3);
	assert_int_equal(l.colw, 65);
	assert_int_equal(l.rows, 40);
	assert_true(l.fits);
	assert_int_equal(l.fmt, CF_MEDIUM);
	assert_int_equal(l.bar, 18);
}

/* The demo (2 x 18 cores) in 80 x 24: a 80 x 19 area, 18 rows below the
 * heads. One column: 38 rows; two columns of 39 cells: 2 + 18 = 20 > 18;
 * three columns would be 82 / 3 - 2 = 25 cells, narrower than the compact
 * row's 5 + 2 + (7 + 5) = 19 + 8 = 27: so two compact columns (bar
 * 39 - 19 = 20) that scroll. In 160 x 50 (area 160 x 45) one full column
 * of 38 rows fits, its bar capped at 50 cells. */
static void
test_layout_demo(void **state)
{
	unsigned pkg[] = { 18, 18 };
	struct cores_layout l;

	(void)state;
	cores_layout(80, 19, pkg, 2, true, &l);
	assert_int_equal(l.ncols, 2);
	assert_int_equal(l.colw, 39);
	assert_int_equal(l.rows, 20);
	assert_false(l.fits);
	assert_int_equal(l.fmt, CF_COMPACT);
	assert_int_equal(l.bar, 20);

	cores_layout(160, 45, pkg, 2, true, &l);
	assert_int_equal(l.ncols, 1);
	assert_int_equal(l.rows, 38);
	assert_true(l.fits);
	assert_int_equal(l.fmt, CF_FULL);
	assert_int_equal(l.bar, CORES_BAR_MAX);
}

/* Both 50%, t0 25%, t1 12.5% over 10 cells = 80 eighths: edges at 40, 60
 * and 70. Cells 0-4 both, 5-6 t0, cell 7 (56..64) is half t0 half t1:
 * the tie goes to the first (t0), cell 8 (64..72) is 6/8 t1, cell 9
 * neither. */
static void
test_bar_split(void **state)
{
	struct ui_ctx u;
	struct bar_cell c[10];
	enum ui_role roles[] = { ROLE_BOTH, ROLE_T0, ROLE_T1 };
	double fr[] = { 0.5, 0.25, 0.125 };

	(void)state;
	ctx(&u, true);
	bar_cells(&u, 10, roles, fr, 3, c);
	assert_string_equal(glyphs(c, 10), "\u2588\u2588\u2588\u2588\u2588\u2593\u2593\u2593\u2592 ");
	assert_int_equal(c[7].role, ROLE_T0);
	assert_int_equal(c[8].role, ROLE_T1);
	assert_int_equal(c[9].role, ROLE_NEITHER);
	ctx(&u, false);
	bar_cells(&u, 10, roles, fr, 3, c);
	assert_string_equal(glyphs(c, 10), "#####0001 ");
}

/* Both 30% of 4 cells = 9.6 eighths, rounded to 10: one full cell and
 * 2/8 of the next, followed by nothing: a quarter block under UTF-8, and
 * in ASCII the cell goes to what covers most of it (neither, 6/8). With
 * t0 after it (70%: to the end) the quarter block stays and t0 starts in
 * the next cell; in ASCII t0 takes the mixed cell (6/8 of it). */
static void
test_bar_eighths(void **state)
{
	struct ui_ctx u;
	struct bar_cell c[4];
	enum ui_role roles[] = { ROLE_BOTH, ROLE_T0 };
	double fr[] = { 0.3, 0.7 };

	(void)state;
	ctx(&u, true);
	bar_cells(&u, 4, roles, fr, 1, c);
	assert_string_equal(glyphs(c, 4), "\u2588\u258e  ");
	assert_int_equal(c[1].role, ROLE_BOTH);
	bar_cells(&u, 4, roles, fr, 2, c);
	assert_string_equal(glyphs(c, 4), "\u2588\u258e\u2593\u2593");
	ctx(&u, false);
	bar_cells(&u, 4, roles, fr, 1, c);
	assert_string_equal(glyphs(c, 4), "#   ");
	bar_cells(&u, 4, roles, fr, 2, c);
	assert_string_equal(glyphs(c, 4), "#000");
}

/* A bound from utilisations u0 = 0.5, u1 = 0.6: both in [0.1, 0.5],
 * t0 only = u0 - both in [0, 0.4], t1 only in [0.1, 0.5]. Drawn: both's
 * certain 0.1, the doubt 0.4, t0's certain 0, t1's certain 0.1: they add
 * up to 0.6 = max(u0, u1), the least the core was busy. Over 10 ASCII
 * cells (80 eighths): edges 8, 40, 40, 48: "#????1    ". */
static void
test_bar_bound(void **state)
{
	struct ui_ctx u;
	struct bar_cell c[10];
	enum ui_role roles[BAR_MAX_SEGS];
	double fr[BAR_MAX_SEGS];
	struct val both = val_bound(0.1, 0.5), t0 = val_bound(0.0, 0.4), t1 = val_bound(0.1, 0.5);
	int n;

	(void)state;
	n = split_segments(&both, &t0, &t1, roles, fr);
	assert_int_equal(n, 4);
	assert_int_equal(roles[1], ROLE_BOUND);
	assert_near(fr[0], 0.1, 1e-12);
	assert_near(fr[1], 0.4, 1e-12);
	assert_near(fr[2], 0.0, 1e-12);
	assert_near(fr[3], 0.1, 1e-12);
	ctx(&u, false);
	bar_cells(&u, 10, roles, fr, n, c);
	assert_string_equal(glyphs(c, 10), "#????1    ");
	ctx(&u, true);
	bar_cells(&u, 10, roles, fr, n, c);
	assert_string_equal(glyphs(c, 10), "\u2588\u2591\u2591\u2591\u2591\u2592    ");
}

/* Shares above 1 or below 0 (clamped inputs never make a bar longer than
 * its width or a negative part). */
static void
test_bar_clamp(void **state)
{
	struct ui_ctx u;
	struct bar_cell c[4];
	enum ui_role roles[] = { ROLE_BOTH, ROLE_T0, ROLE_T1 };
	double fr[] = { -0.2, 0.75, 0.75 };

	(void)state;
	ctx(&u, false);
	bar_cells(&u, 4, roles, fr, 3, c);
	assert_string_equal(glyphs(c, 4), "0001");
}

/* 0.123 as percent with one decimal: 12.3; a bound 0.1..0.4: 10.0-40.0;
 * a bound whose ends print alike: one number; absent: "-". */
static void
test_val_text(void **state)
{
	char buf[64];
	struct val v;

	(void)state;
	v = val_exact(0.123);
	assert_int_equal(val_text(buf, sizeof buf, "%.1f", &v, 100.0), 4);
	assert_string_equal(buf, "12.3");
	v = val_bound(0.1, 0.4);
	val_text(buf, sizeof buf, "%.1f", &v, 100.0);
	assert_string_equal(buf, "10.0-40.0");
	v = val_bound(0.12341, 0.12349);
	val_text(buf, sizeof buf, "%.1f", &v, 100.0);
	assert_string_equal(buf, "12.3");
	v = val_none();
	val_text(buf, sizeof buf, "%.2f", &v, 1.0);
	assert_string_equal(buf, "-");
}

/* 0.5 s last interval; the 10 s window; a run of 300 s = 5 min, 90 s,
 * 7200 s = 2.0 h. */
static void
test_window_text(void **state)
{
	char buf[64];

	(void)state;
	header_window_text(buf, sizeof buf, AVG_LAST, 0.5);
	assert_string_equal(buf, "last 0.5 s");
	header_window_text(buf, sizeof buf, AVG_WINDOW, 10.0);
	assert_string_equal(buf, "10 s average");
	header_window_text(buf, sizeof buf, AVG_RUN, 300.0);
	assert_string_equal(buf, "run 5 min");
	header_window_text(buf, sizeof buf, AVG_RUN, 90.0);
	assert_string_equal(buf, "run 90 s");
	header_window_text(buf, sizeof buf, AVG_RUN, 7200.0);
	assert_string_equal(buf, "run 2.0 h");
}

/* Every key tui.c handles has a line in the help. */
static void
test_help_keys(void **state)
{
	static const char *const want[] = {
		"Tab", "1 2 3 4", "s", "S", "f F", "p", "+ -", ". n", "> <", "[ ]", "a", "c", "j", "w",
		"Up Down", "PgUp PgDn", "Home End", "Ctrl-L", "mouse", "h ?", "q",
	};
	const struct help_key *k;
	size_t n, i, j;

	(void)state;
	k = help_keys(&n);
	assert_int_equal(n, sizeof want / sizeof want[0]);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		for (j = 0; j < n; j++) {
			if (strcmp(k[j].keys, want[i]) == 0)
				break;
		}
		if (j == n)
			fail_msg("the help does not list the key '%s'", want[i]);
		assert_true(strlen(k[j].what) > 0);
	}
}

/* text_line_len: where a line breaks, in bytes. */
static void
test_line_len(void **state)
{
	(void)state;
	/* "httop needs at least" is 20 columns and a blank follows: all 20 */
	assert_int_equal(text_line_len("httop needs at least 40 x 10", 20), 20);
	/* 19 columns end inside "least": back to the blank after "at" (14) */
	assert_int_equal(text_line_len("httop needs at least 40 x 10", 19), 14);
	/* UTF-8: "Kern ü" is 6 columns (7 bytes), "b" would be the 7th: back
	 * to the blank at byte 4 */
	assert_int_equal(text_line_len("Kern \xc3\xbc" "berall", 6), 4);
	/* a word longer than the line is cut at the width */
	assert_int_equal(text_line_len("abcdefgh", 3), 3);
	/* the whole text when it fits */
	assert_int_equal(text_line_len("40 x 10", 20), 7);
	/* never nothing: one character, whole (2 bytes for the 'ü') */
	assert_int_equal(text_line_len("abc", 0), 1);
	assert_int_equal(text_line_len("\xc3\xbc" "x", 0), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_knl),
		cmocka_unit_test(test_layout_spr),
		cmocka_unit_test(test_layout_demo),
		cmocka_unit_test(test_bar_split),
		cmocka_unit_test(test_bar_eighths),
		cmocka_unit_test(test_bar_bound),
		cmocka_unit_test(test_bar_clamp),
		cmocka_unit_test(test_val_text),
		cmocka_unit_test(test_window_text),
		cmocka_unit_test(test_help_keys),
		cmocka_unit_test(test_line_len),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
