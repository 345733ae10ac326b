/* test_ui_layout.c: the screen's arithmetic without a terminal: how many
 * columns of core rows fit, the glyphs of a bar for given shares in UTF-8
 * and ASCII, how figures and bounds print, the window's label, the +/-
 * ladder, fields that wrap and drop but are never cut (the header), and
 * that the help lists every key the front end handles, wrapped. */
#include "unit/testutil.h"

#include <string.h>

#include "source/sched/sched_source.h"
#include "ui/cores.h"
#include "ui/flow.h"
#include "ui/header.h"
#include "ui/help.h"
#include "ui/screen.h"
#include "ui/tui.h"

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
	assert_int_equal(cores_fmt_fixed(CF_FULL, false, false, 0), 64);
	cores_layout(200, 55, pkg, 1, false, false, 0, &l);
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
	assert_int_equal(cores_fmt_fixed(CF_FULL, true, false, 0), 89);
	assert_int_equal(cores_fmt_fixed(CF_MEDIUM, true, false, 0), 47);
	cores_layout(200, 55, pkg, 2, true, false, 0, &l);
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
	cores_layout(80, 19, pkg, 2, true, false, 0, &l);
	assert_int_equal(l.ncols, 2);
	assert_int_equal(l.colw, 39);
	assert_int_equal(l.rows, 20);
	assert_false(l.fits);
	assert_int_equal(l.fmt, CF_COMPACT);
	assert_int_equal(l.bar, 20);

	cores_layout(160, 45, pkg, 2, true, false, 0, &l);
	assert_int_equal(l.ncols, 1);
	assert_int_equal(l.rows, 38);
	assert_true(l.fits);
	assert_int_equal(l.fmt, CF_FULL);
	assert_int_equal(l.bar, CORES_BAR_MAX);
}

/* A watched job's own split (jboth% jalone% jshared% jnone%: 8 + 9 + 10
 * + 8 = 35 cells, each with a blank and the sort mark's room) after the
 * columns: one core of two threads in 80 x 15. The medium row 47 + 35 =
 * 82 > 80; the compact one 19 + 35 = 54 + 8 <= 80: compact, its bar
 * 80 - 54 = 26 cells. In 160 columns the full row 89 + 35 = 124 + 20
 * fits, its bar 36. */
static void
test_layout_job(void **state)
{
	unsigned pkg[] = { 1 };
	struct cores_layout l;

	(void)state;
	assert_int_equal(cores_fmt_fixed(CF_MEDIUM, true, true, 0), 82);
	assert_int_equal(cores_fmt_fixed(CF_COMPACT, true, true, 0), 54);
	assert_int_equal(cores_fmt_fixed(CF_FULL, true, true, 0), 124);
	cores_layout(80, 15, pkg, 1, true, true, 0, &l);
	assert_int_equal(l.ncols, 1);
	assert_int_equal(l.fmt, CF_COMPACT);
	assert_int_equal(l.bar, 26);
	assert_true(l.fits);
	cores_layout(160, 15, pkg, 1, true, true, 0, &l);
	assert_int_equal(l.fmt, CF_FULL);
	assert_int_equal(l.bar, 36);
}

/* A source without counters (the scheduler's plan: sched and bpf) never
 * gives CPI or GHz: those columns are left out of every format, so a
 * row is narrower and a narrow one keeps util% where GHz was. The split
 * rows: compact 5 + 2 + (both 7 + util 7) = 21 (the counters' both and
 * GHz: 19), medium 5 + 2 + (7 + 7 + 10) = 31 (47 less CPI 10 and GHz 6),
 * full 89 - 16 = 73; without the split full 64 - 16 = 48 and compact
 * util and thr as before, 5 + 2 + 7 + 8 = 22. One core of two threads:
 * in 40 columns medium needs 31 + 12 = 43 > 40: compact, bar 40 - 21 =
 * 19; in 60 full needs 73 + 20 = 93 > 60, medium 43 <= 60: medium, bar
 * 60 - 31 = 29; in 100 full, bar 100 - 73 = 27. The demo's 2 x 18 cores
 * in 80 x 19 as test_layout_demo: two columns of 39 cells, compact (43 >
 * 39), bar 39 - 21 = 18. */
static void
test_layout_unread(void **state)
{
	unsigned one[] = { 1 }, demo[] = { 18, 18 };
	unsigned no = CC_BIT(CC_CPI) | CC_BIT(CC_GHZ);
	struct cores_layout l;
	struct machine m;
	struct plan p;

	(void)state;
	memset(&m, 0, sizeof m);
	m.topo.max_smt = 2;
	sched_plan(&p, &m);
	/* The job's columns too, until a watched job adds its slots. */
	assert_int_equal(cores_unread(&p), no | CC_BIT(CC_JBOTH) | CC_BIT(CC_JALONE) |
	    CC_BIT(CC_JSHARED) | CC_BIT(CC_JNONE));
	sched_plan_job(&p);
	assert_int_equal(cores_unread(&p), no);
	assert_int_equal(cores_unread(NULL), 0);

	assert_int_equal(cores_fmt_fixed(CF_COMPACT, true, false, 0), 19);
	assert_int_equal(cores_fmt_fixed(CF_COMPACT, true, false, no), 21);
	assert_int_equal(cores_fmt_fixed(CF_MEDIUM, true, false, no), 31);
	assert_int_equal(cores_fmt_fixed(CF_FULL, true, false, no), 73);
	assert_int_equal(cores_fmt_fixed(CF_FULL, false, false, no), 48);
	assert_int_equal(cores_fmt_fixed(CF_COMPACT, false, false, no), 22);
	assert_int_equal(cores_fmt_fixed(CF_COMPACT, false, false, 0), 22);

	cores_layout(40, 15, one, 1, true, false, no, &l);
	assert_int_equal(l.fmt, CF_COMPACT);
	assert_int_equal(l.bar, 19);
	cores_layout(60, 15, one, 1, true, false, no, &l);
	assert_int_equal(l.fmt, CF_MEDIUM);
	assert_int_equal(l.bar, 29);
	cores_layout(100, 15, one, 1, true, false, no, &l);
	assert_int_equal(l.fmt, CF_FULL);
	assert_int_equal(l.bar, 27);
	cores_layout(80, 19, demo, 2, true, false, no, &l);
	assert_int_equal(l.ncols, 2);
	assert_int_equal(l.colw, 39);
	assert_int_equal(l.fmt, CF_COMPACT);
	assert_int_equal(l.bar, 18);
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

/* Every partial cell differs from the bar's edges. Over 4 cells (32
 * eighths) both = k/32 is k eighths, k = 1..7: a run ending k/8 into
 * cell 0. k = 1 (the trial user's "bar at 1/8") is the quarter block
 * U+258E, not U+258F, which is BAR_EDGE_RIGHT; 2..7 are U+258E..U+2589;
 * 8 is the full block. With t0 after it the partial cell stays both's. */
static void
test_bar_partial_not_edge(void **state)
{
	static const char *const want[8] = { "", "\u258e", "\u258e", "\u258d", "\u258c",
	    "\u258b", "\u258a", "\u2589" };
	struct ui_ctx u;
	struct bar_cell c[4];
	enum ui_role roles[] = { ROLE_BOTH, ROLE_T0 };
	double fr[2];
	int k;

	(void)state;
	ctx(&u, true);
	for (k = 1; k < 8; k++) {
		fr[0] = k / 32.0;
		fr[1] = 1.0;      /* t0 to the end */
		bar_cells(&u, 4, roles, fr, 1, c);
		assert_string_equal(c[0].glyph, want[k]);
		assert_int_equal(c[0].role, ROLE_BOTH);
		assert_string_not_equal(c[0].glyph, BAR_EDGE_RIGHT);
		assert_string_not_equal(c[0].glyph, BAR_EDGE_LEFT);
		assert_string_equal(glyphs(c + 1, 3), "   ");
		bar_cells(&u, 4, roles, fr, 2, c);
		assert_string_equal(c[0].glyph, want[k]);
		assert_string_equal(glyphs(c + 1, 3), "\u2593\u2593\u2593");
	}
	fr[0] = 8 / 32.0;
	bar_cells(&u, 4, roles, fr, 1, c);
	assert_string_equal(glyphs(c, 4), "\u2588   ");
	/* the utilisation bar (one solid run) the same */
	roles[0] = ROLE_UTIL;
	fr[0] = 1 / 32.0;
	bar_cells(&u, 4, roles, fr, 1, c);
	assert_string_equal(glyphs(c, 4), "\u258e   ");
}

/* A message in forms, longest first: the first that fits whole. The j
 * key's answer without a job is 75, 58 and 38 columns: at 80 the whole,
 * at 60 and 58 the second, at 57 and at 40 the third; at 30 the third
 * cut at a word with an ellipsis (never the first form's start, which
 * lost the options: "j: no job is watched; start httop with..."). */
static void
test_fit_forms(void **state)
{
	const char *j = "j: no job is watched; start httop with --pid, --cgroup, --job or -- COMMAND\n"
	    "j: no job; start httop with --pid, --cgroup, --job, -- CMD\n"
	    "no job: --pid, --cgroup, --job, -- CMD";
	char out[256];

	(void)state;
	assert_int_equal(text_fit_forms(out, sizeof out, j, 80, true), 75);
	assert_string_equal(out, "j: no job is watched; start httop with --pid, --cgroup, --job "
	    "or -- COMMAND");
	assert_int_equal(text_fit_forms(out, sizeof out, j, 75, true), 75);
	assert_int_equal(text_fit_forms(out, sizeof out, j, 74, true), 58);
	assert_string_equal(out, "j: no job; start httop with --pid, --cgroup, --job, -- CMD");
	assert_int_equal(text_fit_forms(out, sizeof out, j, 60, true), 58);
	assert_int_equal(text_fit_forms(out, sizeof out, j, 58, true), 58);
	assert_int_equal(text_fit_forms(out, sizeof out, j, 57, true), 38);
	assert_string_equal(out, "no job: --pid, --cgroup, --job, -- CMD");
	assert_int_equal(text_fit_forms(out, sizeof out, j, 40, true), 38);
	assert_string_equal(out, "no job: --pid, --cgroup, --job, -- CMD");
	assert_int_equal(text_fit_forms(out, sizeof out, j, 30, true), 25);
	assert_string_equal(out, "no job: --pid, --cgroup,\u2026");
	assert_int_equal(text_fit_forms(out, sizeof out, j, 30, false), 27);
	assert_string_equal(out, "no job: --pid, --cgroup,...");
	/* one form: text_fit's */
	assert_int_equal(text_fit_forms(out, sizeof out, "aa bb cc", 7, true), 6);
	assert_string_equal(out, "aa bb\u2026");
	assert_int_equal(text_fit_forms(out, sizeof out, "aa bb cc", 8, true), 8);
	assert_int_equal(text_fit_forms(out, sizeof out, "aa\nb", 1, true), 1);
	assert_string_equal(out, "b");
	assert_int_equal(text_fit_forms(out, sizeof out, "aa\nbbb", 1, true), 0);
	assert_string_equal(out, "");
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
	/* A run begun again at a replay's last interval (0.0372 s): its
	 * length, as "last" says it, never "run 0 s"; to the interval's
	 * own precision (the header's "interval 0.0372 s"). */
	header_window_text(buf, sizeof buf, AVG_RUN, 0.0372);
	assert_string_equal(buf, "run 0.0372 s");
	header_window_text(buf, sizeof buf, AVG_LAST, 0.0372);
	assert_string_equal(buf, "last 0.0372 s");
	header_window_text(buf, sizeof buf, AVG_LAST, 1.02);
	assert_string_equal(buf, "last 1.02 s");
	header_window_text(buf, sizeof buf, AVG_RUN, 3.0);
	assert_string_equal(buf, "run 3 s");
}

/* Every key tui.c handles has a line in the help. */
static void
test_help_keys(void **state)
{
	static const char *const want[] = {
		"Tab", "1 2 3 4", "5 Enter Esc", "s", "S", "f F", "p Space", "+ -", ". n", "> <", "[ ]", "a", "c",
		"j", "w", "Up Down", "PgUp PgDn", "Home End", "Ctrl-L", "mouse", "h ? F1", "q F10",
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

/* The help at the inside width of a 40-column box (36): the key column is
 * the widest key, "5 Enter Esc" (11), and 2 blanks, but at most a third
 * of the width: 12; descriptions wrap in the 24 columns after it. Every key starts a line, every line fits, and
 * the words of each description come back in order. */
static void
test_help_layout(void **state)
{
	static struct help_line lines[HELP_MAX_LINES];
	const struct help_key *k;
	size_t nk, i;
	int n, kw, l = 0;

	(void)state;
	k = help_keys(&nk);
	n = help_layout(36, &kw, lines, HELP_MAX_LINES);
	assert_int_equal(kw, 12);
	assert_true(n > (int)nk);           /* some wrap */
	for (i = 0; i < nk; i++) {
		char joined[512] = "";

		assert_non_null(lines[l].keys);
		assert_string_equal(lines[l].keys, k[i].keys);
		do {
			assert_true(text_width(lines[l].text) <= 36 - 12);
			if (joined[0] != '\0')
				strcat(joined, " ");
			strcat(joined, lines[l].text);
			l++;
		} while (l < n && lines[l].keys == NULL);
		assert_string_equal(joined, k[i].what);
	}
	assert_int_equal(l, n);
	/* "s" wraps at 24 columns: "Cores, Threads, Nodes" is 21, and " view:"
	 * would make it 27 */
	for (l = 0; l < n && (lines[l].keys == NULL || strcmp(lines[l].keys, "s") != 0); l++)
		;
	assert_true(l < n);
	assert_string_equal(lines[l].text, "Cores, Threads, Nodes");
}

/* The + and - keys' ladder: 1-2-5 steps through 1 s, within 0.05 s and
 * a day; from a value off the ladder to the next one on it. */
static void
test_delay_ladder(void **state)
{
	(void)state;
	assert_true(tui_delay_step(1.0, 1) == 2.0);
	assert_true(tui_delay_step(2.0, 1) == 5.0);
	assert_true(tui_delay_step(5.0, 1) == 10.0);
	assert_true(tui_delay_step(1.0, -1) == 0.5);
	assert_true(tui_delay_step(0.5, -1) == 0.2);
	assert_true(tui_delay_step(0.2, -1) == 0.1);
	assert_true(tui_delay_step(0.1, -1) == 0.05);
	/* at the limits: the limit itself (the key says so) */
	assert_true(tui_delay_step(0.05, -1) == 0.05);
	assert_true(tui_delay_step(0.05, 1) == 0.1);
	assert_true(tui_delay_step(50000.0, 1) == 86400.0);
	assert_true(tui_delay_step(86400.0, 1) == 86400.0);
	assert_true(tui_delay_step(86400.0, -1) == 50000.0);
	/* off the ladder (-d 0.3, or the old doubling's 1.6) */
	assert_true(tui_delay_step(0.3, 1) == 0.5);
	assert_true(tui_delay_step(0.3, -1) == 0.2);
	assert_true(tui_delay_step(1.6, -1) == 1.0);
	assert_true(tui_delay_step(1.6, 1) == 2.0);
}

/* The window's label: "(so far)" while the window fills, not once it is
 * full, when it covers up to one interval less than its length (10 s at
 * -d 1: 9.0 s to 10 s), which made the label flicker. */
static void
test_window_label(void **state)
{
	struct ui_frame f;
	char buf[96];

	(void)state;
	memset(&f, 0, sizeof f);
	f.window = AVG_WINDOW;
	f.window_length = 10.0;
	f.delay = 1.0;
	f.window_seconds = 4.0;
	header_window_label(buf, sizeof buf, &f);
	assert_string_equal(buf, "10 s average (4.0 s so far)");
	/* one short interval so far (a jump to a replay's end): not "0.0 s" */
	f.window_seconds = 0.0372;
	header_window_label(buf, sizeof buf, &f);
	assert_string_equal(buf, "10 s average (0.037 s so far)");
	/* 8.4 + 1.5 x 1 = 9.9 < 10: still filling */
	f.window_seconds = 8.4;
	header_window_label(buf, sizeof buf, &f);
	assert_string_equal(buf, "10 s average (8.4 s so far)");
	/* full: 9.0, 9.02, 10 all read the same */
	f.window_seconds = 9.0;
	header_window_label(buf, sizeof buf, &f);
	assert_string_equal(buf, "10 s average");
	f.window_seconds = 9.02;
	header_window_label(buf, sizeof buf, &f);
	assert_string_equal(buf, "10 s average");
	f.window_seconds = 10.0;
	header_window_label(buf, sizeof buf, &f);
	assert_string_equal(buf, "10 s average");
	/* the last interval and the run say what they cover */
	f.window = AVG_LAST;
	f.window_seconds = 0.5;
	header_window_label(buf, sizeof buf, &f);
	assert_string_equal(buf, "last 0.5 s");
}

static const char *
row_text(const struct flow *f, int row)
{
	static char buf[256];

	flow_row_text(f, row, buf, sizeof buf);
	return buf;
}

/* "node" (kept) and fields aaaa, bbbb (importance 1) and cccc (3), two
 * blanks apart: 4 + 2 + 4 + 2 + 4 = 16 columns, cccc 22. */
static void
flow_abc(struct flow *f)
{
	flow_init(f);
	flow_field(f, FLOW_KEEP);
	flow_put(f, ROLE_LABEL, "node");
	flow_field(f, 1);
	flow_put(f, ROLE_PLAIN, "aaaa");
	flow_field(f, 1);
	flow_put(f, ROLE_PLAIN, "bb");
	flow_put(f, ROLE_BOTH, "bb");
	flow_field(f, 3);
	flow_put(f, ROLE_PLAIN, "cccc");
}

static void
test_flow(void **state)
{
	struct flow f;

	(void)state;
	/* all on one row */
	flow_abc(&f);
	assert_int_equal(flow_layout(&f, 40, 3), 1);
	assert_string_equal(row_text(&f, 0), "node  aaaa  bbbb  cccc");
	/* 16 columns: cccc wraps under the second field (x = 6) */
	assert_int_equal(flow_layout(&f, 16, 3), 2);
	assert_string_equal(row_text(&f, 0), "node  aaaa  bbbb");
	assert_string_equal(row_text(&f, 1), "      cccc");
	/* one row: cccc, the least important, goes whole */
	assert_int_equal(flow_layout(&f, 16, 1), 1);
	assert_string_equal(row_text(&f, 0), "node  aaaa  bbbb");
	assert_int_equal(f.ch[3].row, -1);
	/* 10 columns, one row: cccc, then bbbb (the last of the 1s) go */
	assert_int_equal(flow_layout(&f, 10, 1), 1);
	assert_string_equal(row_text(&f, 0), "node  aaaa");
	/* 11 columns, two rows: "node  aaaa" / "  bbbb" (the second field
	 * starts past half the row: two blanks in); cccc would need a third
	 * row: it goes */
	assert_int_equal(flow_layout(&f, 11, 2), 2);
	assert_string_equal(row_text(&f, 1), "  bbbb");

	/* A field wider than the row goes (not the others), whatever its
	 * importance; a kept one is not shown. */
	flow_abc(&f);
	flow_field(&f, 9);
	flow_put(&f, ROLE_PLAIN, "0123456789AB");
	assert_int_equal(flow_layout(&f, 11, 3), 3);
	assert_string_equal(row_text(&f, 2), "  cccc");
	assert_int_equal(f.ch[4].row, -1);

	/* Words break between them, one blank apart; a new line is a new
	 * row; pieces of a field keep their words together. */
	flow_init(&f);
	flow_field(&f, FLOW_KEEP);
	flow_put(&f, ROLE_PLAIN, "host");
	flow_words(&f, 1, ROLE_PLAIN, "Intel  Xeon Gold");
	flow_line(&f);
	flow_field(&f, 2);
	flow_put(&f, ROLE_PLAIN, "2 sockets,");
	flow_piece(&f);
	flow_put(&f, ROLE_PLAIN, "36 cores,");
	flow_piece(&f);
	flow_put(&f, ROLE_PLAIN, "72 threads");
	assert_int_equal(flow_layout(&f, 12, 6), 6);
	assert_string_equal(row_text(&f, 0), "host  Intel");
	assert_string_equal(row_text(&f, 1), "      Xeon");
	assert_string_equal(row_text(&f, 2), "      Gold");
	assert_string_equal(row_text(&f, 3), "2 sockets,");
	assert_string_equal(row_text(&f, 4), "  36 cores,");
	assert_string_equal(row_text(&f, 5), "  72 threads");
	/* in 4 rows the counts (importance 2) go whole before the words (1) */
	assert_int_equal(flow_layout(&f, 12, 4), 3);
	assert_string_equal(row_text(&f, 2), "      Gold");
	assert_int_equal(f.ch[4].row, -1);
	assert_int_equal(f.ch[6].row, -1);
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
		cmocka_unit_test(test_layout_job),
		cmocka_unit_test(test_layout_unread),
		cmocka_unit_test(test_bar_split),
		cmocka_unit_test(test_bar_eighths),
		cmocka_unit_test(test_bar_partial_not_edge),
		cmocka_unit_test(test_fit_forms),
		cmocka_unit_test(test_bar_bound),
		cmocka_unit_test(test_bar_clamp),
		cmocka_unit_test(test_val_text),
		cmocka_unit_test(test_window_text),
		cmocka_unit_test(test_help_keys),
		cmocka_unit_test(test_help_layout),
		cmocka_unit_test(test_delay_ladder),
		cmocka_unit_test(test_window_label),
		cmocka_unit_test(test_flow),
		cmocka_unit_test(test_line_len),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
