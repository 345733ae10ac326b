/* test_view_die.c: the die grid view without curses: the figure key, the
 * heat scale and its glyphs, the choice of cell size and grids per band
 * for 100 x 30, 200 x 60 and 40 x 10, and the cells of hand-made layouts
 * as text (exact values, a bound, an invalid core, disabled tiles, memory
 * controllers, a two-core Xeon Phi tile, greyed cores outside a job, the
 * unplaced list). The view's pieces come through its private header
 * ui/die_view.h; its lines go into a character grid. */
#include "unit/testutil.h"

#include <curses.h>
#include <math.h>
#include <string.h>

#include "machine/dielayout.h"
#include "ui/die_view.h"
#include "ui/screen.h"
#include "ui/ui.h"

#define GRID_ROWS 80
#define GRID_COLS 240

struct grid {
	char c[GRID_ROWS][GRID_COLS + 1];
	int heat[GRID_ROWS][GRID_COLS];      /* heat step per column, -1 */
	enum ui_role role[GRID_ROWS][GRID_COLS];
};

static void
grid_clear(struct grid *g)
{
	int r, x;

	for (r = 0; r < GRID_ROWS; r++) {
		memset(g->c[r], ' ', GRID_COLS);
		g->c[r][GRID_COLS] = '\0';
		for (x = 0; x < GRID_COLS; x++) {
			g->heat[r][x] = -1;
			g->role[r][x] = ROLE_PLAIN;
		}
	}
}

/* Text as draw_text lays it (ASCII here): cut to width, padded. */
static void
grid_text(void *arg, int row, int x, int width, enum ui_role r, int heat, const char *s)
{
	struct grid *g = arg;
	size_t n = strlen(s);
	int i;

	assert_true(row >= 0 && row < GRID_ROWS);
	for (i = 0; i < width && x + i < GRID_COLS; i++) {
		g->c[row][x + i] = (size_t)i < n ? s[i] : ' ';
		g->heat[row][x + i] = heat;
		g->role[row][x + i] = r;
	}
}

static const char *
line(const struct grid *g, int row)
{
	static char buf[GRID_COLS + 1];
	int n = GRID_COLS;

	memcpy(buf, g->c[row], sizeof buf);
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf;
}

/* The text of `w` columns at (row, x), trailing blanks cut. */
static const char *
cell(const struct grid *g, int row, int x, int w)
{
	static char buf[64];

	memcpy(buf, g->c[row] + x, (size_t)w);
	buf[w] = '\0';
	while (w > 0 && buf[w - 1] == ' ')
		buf[--w] = '\0';
	return buf;
}

/* --- figures and the heat scale ---------------------------------------- */

static void
test_fig_cycle(void **state)
{
	(void)state;
	/* with the split: both -> util -> GHz -> CPI -> both */
	assert_int_equal(die_fig_next(DF_BOTH, true, 1), DF_UTIL);
	assert_int_equal(die_fig_next(DF_UTIL, true, 1), DF_GHZ);
	assert_int_equal(die_fig_next(DF_GHZ, true, 1), DF_CPI);
	assert_int_equal(die_fig_next(DF_CPI, true, 1), DF_BOTH);
	assert_int_equal(die_fig_next(DF_BOTH, true, -1), DF_CPI);
	/* without: "both" is skipped both ways */
	assert_int_equal(die_fig_next(DF_CPI, false, 1), DF_UTIL);
	assert_int_equal(die_fig_next(DF_UTIL, false, -1), DF_CPI);
	assert_int_equal(die_fig_next(DF_BOTH, false, 1), DF_UTIL);
}

static void
test_heat_scale(void **state)
{
	struct ui_ctx u;

	(void)state;
	/* 8 steps of 1/8: floor(x * 8), 1.0 in the top step */
	assert_int_equal(heat_step(0.0), 0);
	assert_int_equal(heat_step(0.124), 0);     /* 0.992 */
	assert_int_equal(heat_step(0.125), 1);
	assert_int_equal(heat_step(0.47), 3);      /* 3.76 */
	assert_int_equal(heat_step(0.5), 4);
	assert_int_equal(heat_step(0.99), 7);      /* 7.92 */
	assert_int_equal(heat_step(1.0), 7);
	assert_int_equal(heat_step(1.5), 7);
	assert_int_equal(heat_step(-0.2), 0);
	assert_int_equal(heat_step(NAN), 0);

	/* two steps per glyph: . : + # and the four shades */
	memset(&u, 0, sizeof u);
	screen_glyphs(&u, false);
	assert_string_equal(screen_heat_glyph(&u, 0), ".");
	assert_string_equal(screen_heat_glyph(&u, 1), ".");
	assert_string_equal(screen_heat_glyph(&u, 2), ":");
	assert_string_equal(screen_heat_glyph(&u, 5), "+");
	assert_string_equal(screen_heat_glyph(&u, 7), "#");
	screen_glyphs(&u, true);
	assert_string_equal(screen_heat_glyph(&u, 0), "\u2591");
	assert_string_equal(screen_heat_glyph(&u, 3), "\u2592");
	assert_string_equal(screen_heat_glyph(&u, 4), "\u2593");
	assert_string_equal(screen_heat_glyph(&u, 7), "\u2588");
	/* no curses colours started here: heat is a glyph, no attribute */
	assert_false(screen_heat_colour(&u));
	assert_int_equal(screen_attr(&u, heat_role(3)), A_NORMAL);
	/* the heat roles follow the scale, clamped at its ends */
	assert_int_equal(heat_role(3), ROLE_HEAT0 + 3);
	assert_int_equal(heat_role(-1), ROLE_HEAT0);
	assert_int_equal(heat_role(HEAT_STEPS), ROLE_HEAT0 + HEAT_STEPS - 1);
}

/* --- geometry ------------------------------------------------------------ */

/* A layout of `n` empty grids of rows x cols (only the sizes matter). */
static void
sized_layout(struct die_layout *l, struct die_grid *g, unsigned n, unsigned rows, unsigned cols)
{
	unsigned i;

	memset(l, 0, sizeof *l);
	memset(g, 0, n * sizeof *g);
	for (i = 0; i < n; i++) {
		g[i].rows = rows;
		g[i].cols = cols;
	}
	l->ngrids = n;
	l->grids = g;
}

static void
test_geometry(void **state)
{
	struct die_layout l;
	struct die_grid g[4];
	struct die_geom geo;

	(void)state;
	sized_layout(&l, g, 2, 5, 6);

	/* 100 x 30: the view has 30 - 4 (header) - 1 (status) = 25 rows, 3 of
	 * them its own head: room 22. The 3-row cells need 12 columns: two
	 * grids side by side give (100 - 3) / 2 = 48 per grid, (48 + 1) / 6 - 1
	 * = 7 per cell: too narrow; stacked, cells of min(101 / 6 - 1, 16) =
	 * 15 make 2 x (1 + 5 x 3 + 4) + 1 = 41 rows: too tall. The 2-row
	 * cells with a blank row between: side by side, 7 wide, one band of
	 * 1 + 5 x 2 + 4 = 15 rows. */
	die_geom_pick(&l, 100, 22, 0, &geo);
	assert_int_equal(geo.fmt, 1);
	assert_int_equal(geo.ch, 2);
	assert_int_equal(geo.vgap, 1);
	assert_int_equal(geo.cw, 7);
	assert_int_equal(geo.per_band, 2);
	assert_int_equal(geo.band_h, 15);
	assert_int_equal(geo.rows, 15);
	assert_true(geo.fits);
	/* both grids within 100 columns: 2 x (6 x 8 - 1) + 3 = 97 */
	assert_int_equal(2 * die_grid_width(&geo) + GRID_GAP, 97);

	/* 200 x 60, room 60 - 5 - 3 = 52: 3-row cells side by side,
	 * (200 - 3) / 2 = 98, (98 + 1) / 6 - 1 = 15 wide; 1 + 15 + 4 = 20 rows. */
	die_geom_pick(&l, 200, 52, 0, &geo);
	assert_int_equal(geo.fmt, 0);
	assert_int_equal(geo.cw, 15);
	assert_int_equal(geo.per_band, 2);
	assert_int_equal(geo.rows, 20);
	assert_true(geo.fits);

	/* 40 x 10: room 5 - 2 = 3. Nothing fits; the smallest cells, 4 wide
	 * at least, the id over the value (2 rows, no blank between): side
	 * by side needs 2 x (6 x 5 - 1) + 3 = 61 > 40, so one grid per band,
	 * (40 + 1) / 6 - 1 = 5 wide; two bands of 1 + 5 x 2 rows and a blank
	 * between: 23 rows, scrolled. */
	die_geom_pick(&l, 40, 3, 0, &geo);
	assert_int_equal(geo.fmt, NFMTS - 1);
	assert_int_equal(geo.ch, 2);
	assert_int_equal(geo.per_band, 1);
	assert_int_equal(geo.cw, 5);
	assert_int_equal(geo.rows, 23);
	assert_false(geo.fits);

	/* The unplaced list's rows count: 15 + 3 = 18 still fit in 22. */
	die_geom_pick(&l, 100, 22, 3, &geo);
	assert_int_equal(geo.rows, 18);
	assert_true(geo.fits);

	/* Four packages at 200 x 60: four side by side would leave (200 - 9)
	 * / 4 = 47, (47 + 1) / 6 - 1 = 7 per cell, too narrow for the big
	 * cells; two per band: 15 wide, 2 bands x 20 + 1 = 41 <= 52. */
	sized_layout(&l, g, 4, 5, 6);
	die_geom_pick(&l, 200, 52, 0, &geo);
	assert_int_equal(geo.fmt, 0);
	assert_int_equal(geo.per_band, 2);
	assert_int_equal(geo.rows, 41);

	/* No grid: only the extra rows. */
	sized_layout(&l, g, 0, 0, 0);
	die_geom_pick(&l, 100, 22, 0, &geo);
	assert_int_equal(geo.rows, 0);
	assert_true(geo.fits);
}

/* --- cells --------------------------------------------------------------- */

/* One package of 4 cores x 2 threads (core i: CPUs i and i + 4, core id
 * i), split by AnyThread, and this 2 x 3 grid:
 *
 *     tile 0, CHA 0: core 0     MC                 tile 1: disabled
 *     tile 2, CHA 1: core 1     tile 3: no core    IO
 *
 * core 0: both 0.47, util 0.80, 2.40 GHz, CPI 0.87 (all exact)
 * core 1: both a bound [0.40, 0.60], util 0.90, 3.00 GHz, CPI none
 * core 2: not placed; sibling reads skewed (invalid)
 * core 3: not placed; util 0.10, 1.20 GHz */
struct rig {
	struct machine m;
	struct plan p;
	struct interval iv;
	struct die_layout l;
	struct die_grid g;
	struct die_cell cells[6];
	struct core_place place[4];
	struct ui_frame f;
	struct ui_ctx u;
};

static void
rig_init(struct rig *r)
{
	unsigned i;

	memset(r, 0, sizeof *r);
	topology_synthetic(&r->m.topo, 1, 4, 2);
	r->m.group = UARCH_SKX;
	r->p.split = SPLIT_ANY;
	interval_init(&r->iv, &r->m);
	for (i = 0; i < 4; i++) {
		struct core_fig *c = &r->iv.cores[i];

		c->index = i;
		c->selected = true;
		c->reason = R_NONE;
		c->exact = true;
		c->both = c->util = c->ghz = c->cpi = val_none();
	}
	r->iv.cores[0].both = val_exact(0.47);
	r->iv.cores[0].util = val_exact(0.80);
	r->iv.cores[0].ghz = val_exact(2.40);
	r->iv.cores[0].cpi = val_exact(0.87);
	r->iv.cores[1].both = val_bound(0.40, 0.60);
	r->iv.cores[1].exact = false;
	r->iv.cores[1].util = val_exact(0.90);
	r->iv.cores[1].ghz = val_exact(3.00);
	r->iv.cores[2].reason = R_SKEW;
	r->iv.cores[3].util = val_exact(0.10);
	r->iv.cores[3].ghz = val_exact(1.20);

	for (i = 0; i < 6; i++) {
		r->cells[i].kind = DM_TILE;
		r->cells[i].slot = -1;
		r->cells[i].cha = -1;
	}
	r->cells[0] = (struct die_cell){ DM_TILE, 0, 0, true, 1, { 0, 0 } };
	r->cells[1] = (struct die_cell){ DM_MC, -1, -1, false, 0, { 0, 0 } };
	r->cells[2] = (struct die_cell){ DM_TILE, 1, -1, false, 0, { 0, 0 } };
	r->cells[3] = (struct die_cell){ DM_TILE, 2, 1, true, 1, { 1, 0 } };
	r->cells[4] = (struct die_cell){ DM_TILE, 3, -1, true, 0, { 0, 0 } };
	r->cells[5] = (struct die_cell){ DM_IO, -1, -1, false, 0, { 0, 0 } };
	r->g.package = 0;
	r->g.rows = 2;
	r->g.cols = 3;
	r->g.cells = r->cells;
	r->g.ntiles = 4;
	r->g.nenabled = 3;
	snprintf(r->g.title, sizeof r->g.title, "package 0: 3 of 4 tiles");
	r->place[0] = (struct core_place){ true, 0, 0, 0, 0, 0 };
	r->place[1] = (struct core_place){ true, 0, 1, 0, 2, 1 };
	r->l.kind = LAYOUT_PHYSICAL;
	r->l.basis = BASIS_MAP;
	snprintf(r->l.basis_text, sizeof r->l.basis_text, "test map");
	r->l.ngrids = 1;
	r->l.grids = &r->g;
	r->l.ncores = 4;
	r->l.cores = r->place;

	r->f.m = &r->m;
	r->f.plan = &r->p;
	r->f.iv = &r->iv;
	r->f.layout = &r->l;
	screen_glyphs(&r->u, false);
}

static void
rig_free(struct rig *r)
{
	interval_free(&r->iv);
	topology_free(&r->m.topo);
}

/* Body of the rig at cell width cw and format fmt, into g. */
static int
render_body(struct rig *r, struct grid *g, enum die_fig fig, int fmt, int cw, int cols)
{
	struct die_sink k = { grid_text, g };
	struct die_scale sc;
	struct die_geom geo;

	memset(&geo, 0, sizeof geo);
	geo.fmt = fmt;
	geo.ch = die_cell_fmts[fmt].ch;
	geo.vgap = die_cell_fmts[fmt].vgap;
	geo.cw = cw;
	geo.per_band = 1;
	geo.grid_rows = 2;
	geo.grid_cols = 3;
	die_geom_rows(&geo, 1);
	die_scale_of(&r->f, fig, &sc);
	grid_clear(g);
	return die_body(&k, &r->u, &r->f, &geo, fig, &sc, cols);
}

static void
test_cells_both(void **state)
{
	struct rig r;
	struct grid *g = malloc(sizeof *g);

	(void)state;
	rig_init(&r);
	/* 2-row cells of 8 columns (mark + 7), a blank row between:
	 * row 0 title; rows 1-2 first cell row; row 3 blank; rows 4-5 second.
	 * Cells start at x = 0, 9, 18. Then a blank row and the unplaced
	 * cores 2 and 3 (core ids 2 and 3, one package). */
	assert_int_equal(render_body(&r, g, DF_BOTH, 1, 8, 100), 1 + 2 + 1 + 2 + 2);
	assert_string_equal(line(g, 0), "package 0: 3 of 4 tiles");
	/* core 0: both 0.47 -> "47%", heat step floor(3.76) = 3, glyph ':' */
	assert_string_equal(cell(g, 1, 0, 8), ":c0");
	assert_string_equal(cell(g, 2, 0, 8), ":47%");
	assert_int_equal(g->heat[1][0], 3);
	assert_int_equal(g->heat[2][7], 3);
	/* MC and the disabled tile: labels on the first line, no heat */
	assert_string_equal(cell(g, 1, 9, 8), " MC");
	assert_int_equal(g->role[1][9], ROLE_LABEL);
	assert_string_equal(cell(g, 1, 18, 8), " off");
	assert_int_equal(g->role[1][18], ROLE_INVALID);
	assert_int_equal(g->heat[1][18], -1);
	/* core 1: a bound [0.40, 0.60]: both ends in the text, "?" on the
	 * first line, coloured by its low end: step floor(0.40 x 8) = 3,
	 * glyph ':' below the "?" */
	assert_string_equal(cell(g, 4, 0, 8), "?c1");
	assert_string_equal(cell(g, 5, 0, 8), ":40-60%");
	assert_int_equal(g->role[5][1], ROLE_BOUND);
	assert_int_equal(g->heat[4][0], 3);
	assert_int_equal(g->heat[5][1], 3);
	/* an enabled tile without a core; IO */
	assert_string_equal(cell(g, 4, 9, 8), " LLC");
	assert_string_equal(cell(g, 4, 18, 8), " IO");
	/* cores not placed, by core id */
	assert_string_equal(line(g, 7), "not placed: 2 3");
	assert_int_equal(g->role[7][0], ROLE_INVALID);

	/* Narrower cells (mark + 4): the bound keeps its low end and says
	 * there is more: "40+"; the exact value drops nothing ("47%"). */
	render_body(&r, g, DF_BOTH, 1, 5, 100);
	assert_string_equal(cell(g, 2, 0, 5), ":47%");
	assert_string_equal(cell(g, 5, 0, 5), ":40+");

	/* One line per cell (mark + 7): the same id form in every cell of
	 * the grid, chosen by the widest id (1 column here) and a 4-column
	 * value: "c3 100%" is 7, so every cell has "c<id> " (3) and the value
	 * in the 4 columns left: "c0 47%"; the bound's "40-60%" (6) and
	 * "40-60" (5) do not fit, its low end and "+" do: "c1 40+". Not an
	 * id here and a value without its % there. */
	assert_int_equal(render_body(&r, g, DF_BOTH, 3, 8, 100), 1 + 2 + 2);
	assert_string_equal(cell(g, 1, 0, 8), ":c0 47%");
	assert_string_equal(cell(g, 2, 0, 8), "?c1 40+");

	/* The last resort, two columns of text: the id over the value, so
	 * a value is never without its core: core 0 "c0" over "47" (rows 1
	 * and 2), core 1 "c1" over the bound (rows 3 and 4), of which no form
	 * fits (the shortest, "40+", is 3): stars, never a cut number. */
	render_body(&r, g, DF_BOTH, NFMTS - 1, 3, 100);
	assert_string_equal(cell(g, 1, 0, 3), ":c0");
	assert_string_equal(cell(g, 2, 0, 3), ":47");
	assert_string_equal(cell(g, 3, 0, 3), "?c1");
	assert_string_equal(cell(g, 4, 0, 3), ":**");
	rig_free(&r);
	free(g);
}

static void
test_cells_other_figures(void **state)
{
	struct rig r;
	struct grid *g = malloc(sizeof *g);
	struct die_scale sc;

	(void)state;
	rig_init(&r);
	/* util 0.80 -> step floor(6.4) = 6 ('#'); 0.90 -> 7 */
	render_body(&r, g, DF_UTIL, 1, 8, 100);
	assert_string_equal(cell(g, 2, 0, 8), "#80%");
	assert_int_equal(g->heat[2][0], 6);
	assert_string_equal(cell(g, 5, 0, 8), "#90%");
	assert_int_equal(g->heat[5][0], 7);

	/* GHz: the scale runs over the placed cores' exact values only:
	 * 2.40 and 3.00 (core 3's 1.20 is not placed). 2.40 -> 0, 3.00 -> 7. */
	die_scale_of(&r.f, DF_GHZ, &sc);
	assert_true(sc.any);
	assert_near(sc.lo, 2.40, 1e-12);
	assert_near(sc.hi, 3.00, 1e-12);
	render_body(&r, g, DF_GHZ, 1, 8, 100);
	assert_string_equal(cell(g, 2, 0, 8), ".2.40");
	assert_int_equal(g->heat[2][0], 0);
	assert_string_equal(cell(g, 5, 0, 8), "#3.00");
	assert_int_equal(g->heat[5][0], 7);
	/* Placed, core 3 widens it to 1.20 .. 3.00: 2.40 is at
	 * (2.40 - 1.20) / 1.80 = 0.667, step floor(5.33) = 5. */
	r.place[3] = (struct core_place){ true, 0, 1, 1, 3, -1 };
	r.cells[4].ncores = 1;
	r.cells[4].cores[0] = 3;
	render_body(&r, g, DF_GHZ, 1, 8, 100);
	assert_int_equal(g->heat[2][0], 5);
	assert_string_equal(cell(g, 4, 9, 8), ".c3");
	assert_string_equal(cell(g, 5, 9, 8), ".1.20");
	assert_string_equal(line(g, 7), "not placed: 2");

	/* CPI: core 0 0.87; core 1 none: "-" greyed, no heat; one exact
	 * value is the whole scale: the middle step, 4. */
	render_body(&r, g, DF_CPI, 1, 8, 100);
	assert_string_equal(cell(g, 2, 0, 8), "+0.87");
	assert_int_equal(g->heat[2][0], 4);
	assert_string_equal(cell(g, 5, 0, 8), " -");
	assert_int_equal(g->role[5][0], ROLE_INVALID);
	/* Wide enough, the reason too: this plan reads no instructions... */
	render_body(&r, g, DF_CPI, 1, 15, 100);
	assert_string_equal(cell(g, 5, 0, 15), " - unavailable");
	/* ... Skylake-SP's does: a core without CPI retired none; one
	 * without GHz was never active (no cycles). */
	plan_for_machine(&r.p, &r.m);
	r.p.split = SPLIT_ANY;
	render_body(&r, g, DF_CPI, 1, 15, 100);
	assert_string_equal(cell(g, 5, 0, 15), " - no-inst");
	r.iv.cores[1].ghz = val_none();
	r.m.id.base_ratio = 30;
	render_body(&r, g, DF_GHZ, 1, 15, 100);
	assert_string_equal(cell(g, 5, 0, 15), " - never-active");
	r.m.id.base_ratio = 0;
	render_body(&r, g, DF_GHZ, 1, 15, 100);
	assert_string_equal(cell(g, 5, 0, 15), " - no-base");
	r.iv.cores[1].ghz = val_exact(3.0);
	memset(&r.p, 0, sizeof r.p);
	r.p.split = SPLIT_ANY;

	/* An invalid core shows "-" and its reason code, greyed. */
	r.iv.cores[0].reason = R_SKEW;
	render_body(&r, g, DF_UTIL, 1, 8, 100);
	assert_string_equal(cell(g, 2, 0, 8), " - skew");
	assert_int_equal(g->role[2][1], ROLE_INVALID);
	assert_int_equal(g->heat[2][1], -1);

	/* Big cells (3 rows, 15 wide): the CHA and the CPUs too. */
	r.iv.cores[0].reason = R_NONE;
	render_body(&r, g, DF_UTIL, 0, 15, 100);
	assert_string_equal(cell(g, 1, 0, 15), "#c0 cha 0");
	assert_string_equal(cell(g, 2, 0, 15), "#80%");
	assert_string_equal(cell(g, 3, 0, 15), "#cpu 0,4");
	/* labels sit on the middle line */
	assert_string_equal(cell(g, 2, 16, 15), " MC");
	rig_free(&r);
	free(g);
}

static void
test_job_and_split(void **state)
{
	struct rig r;
	struct grid *g = malloc(sizeof *g);
	struct job_view jv;
	struct cpulist job;
	struct errmsg e;
	struct die_scale sc;

	(void)state;
	rig_init(&r);
	/* The job runs on CPUs 1 and 5: core 1 only. Core 0 is greyed, out
	 * of the scale: GHz runs over core 1's 3.00 alone. */
	assert_int_equal(cpulist_parse("1,5", &job, &e), 0);
	memset(&jv, 0, sizeof jv);
	jv.active = true;
	jv.only = true;
	jv.cpus = &job;
	r.f.job = &jv;
	render_body(&r, g, DF_UTIL, 1, 8, 100);
	assert_string_equal(cell(g, 2, 0, 8), " 80%");
	assert_int_equal(g->role[2][0], ROLE_INVALID);
	assert_int_equal(g->heat[2][0], -1);
	assert_string_equal(cell(g, 5, 0, 8), "#90%");
	die_scale_of(&r.f, DF_GHZ, &sc);
	assert_near(sc.lo, 3.00, 1e-12);
	assert_near(sc.hi, 3.00, 1e-12);
	/* j: all cores again */
	jv.only = false;
	render_body(&r, g, DF_UTIL, 1, 8, 100);
	assert_int_equal(g->heat[2][0], 6);
	r.f.job = NULL;
	cpulist_free(&job);

	/* Without the split, "both" has no value: "- no-split". */
	r.p.split = SPLIT_NONE;
	render_body(&r, g, DF_BOTH, 1, 12, 100);
	assert_string_equal(cell(g, 2, 0, 12), " - no-split");
	rig_free(&r);
	free(g);
}

/* A Xeon Phi-like tile: one package of 4 cores x 4 threads (no split),
 * cores 0 and 1 on tile 0, cores 2 and 3 on tile 1 (logical, 1 x 2).
 * Utilisation 0.47 and 0.52 on tile 0; tile 1's core 3 read failed. */
static void
test_phi_tile(void **state)
{
	struct rig r;
	struct grid *g = malloc(sizeof *g);

	(void)state;
	rig_init(&r);
	topology_free(&r.m.topo);
	interval_free(&r.iv);
	topology_synthetic(&r.m.topo, 1, 4, 4);
	r.m.group = UARCH_KNL;
	r.p.split = SPLIT_NONE;
	interval_init(&r.iv, &r.m);
	for (unsigned i = 0; i < 4; i++) {
		r.iv.cores[i].index = i;
		r.iv.cores[i].selected = true;
		r.iv.cores[i].util = r.iv.cores[i].ghz = r.iv.cores[i].cpi = val_none();
	}
	r.iv.cores[0].util = val_exact(0.47);
	r.iv.cores[1].util = val_exact(0.52);
	r.iv.cores[2].util = val_exact(0.05);
	r.iv.cores[3].reason = R_READ_ERROR;
	r.cells[0] = (struct die_cell){ DM_TILE, 0, -1, true, 2, { 0, 1 } };
	r.cells[1] = (struct die_cell){ DM_TILE, 1, -1, true, 2, { 2, 3 } };
	r.g.rows = 1;
	r.g.cols = 2;
	r.l.kind = LAYOUT_LOGICAL;
	r.l.basis = BASIS_KNL_TILES;
	for (unsigned i = 0; i < 4; i++)
		r.place[i] = (struct core_place){ true, 0, 0, i / 2, (int)(i / 2), -1 };

	/* 8 wide: "47% 52%" (7) fits after the mark; the tile takes the
	 * hotter core's colour: 0.52 -> floor(4.16) = 4, '+'. */
	render_body(&r, g, DF_UTIL, 1, 8, 100);
	assert_string_equal(cell(g, 1, 0, 8), "+0,1");
	assert_string_equal(cell(g, 2, 0, 8), "+47% 52%");
	assert_int_equal(g->heat[2][0], 4);
	/* tile 1: 0.05 -> step 0; its other core has no figures */
	assert_string_equal(cell(g, 1, 9, 8), ".2,3");
	assert_int_equal(g->heat[1][9], 0);
	/* 6 wide: "47 52" (5) */
	render_body(&r, g, DF_UTIL, 1, 6, 100);
	assert_string_equal(cell(g, 2, 0, 6), "+47 52");
	/* big cells: the tile's number on the third line */
	render_body(&r, g, DF_UTIL, 0, 15, 100);
	assert_string_equal(cell(g, 3, 0, 15), "+tile 0");
	/* tile 1: "5% - read-error" (15) is too long for 14: "5 -" */
	assert_string_equal(cell(g, 2, 16, 15), ".5 -");
	rig_free(&r);
	free(g);
}

/* --- the head ------------------------------------------------------------ */

static void
test_head(void **state)
{
	struct rig r;
	struct grid *g = malloc(sizeof *g);
	struct die_sink k = { grid_text, g };
	struct die_scale sc;

	(void)state;
	rig_init(&r);
	grid_clear(g);
	die_scale_of(&r.f, DF_BOTH, &sc);
	assert_int_equal(die_head(&k, &r.u, &r.f, DF_BOTH, &sc, 100, 10), 2);
	assert_string_equal(line(g, 0), "Die grid - physical (test map)");
	/* the legend: figure, then 0% and 100% around 8 steps of 2 columns;
	 * core 1's split is a bound, so how bounds are coloured */
	assert_string_equal(line(g, 1), "f: both threads active  0% ....::::++++#### 100%"
	    "  ? a bound: coloured by its low end");
	assert_int_equal(g->heat[1][27], 0);
	assert_int_equal(g->heat[1][41], 7);
	/* CPI: core 1 (placed) has none, and the plan reads no instructions:
	 * the legend says what its "-" means even where the cell is too
	 * narrow for the code; 0.87 alone is the whole scale */
	grid_clear(g);
	die_scale_of(&r.f, DF_CPI, &sc);
	die_head(&k, &r.u, &r.f, DF_CPI, &sc, 100, 10);
	assert_string_equal(line(g, 1), "f: CPI  0.87 ....::::++++#### 0.87  -: unavailable");

	/* A note (wrapped at 40 columns) and the default rule */
	snprintf(r.l.note, sizeof r.l.note, "the physical view needs root: CAPID6 is in PCI "
	    "configuration space; run httop as root");
	r.l.kind = LAYOUT_LOGICAL;
	r.l.cores_assumed = true;
	grid_clear(g);
	die_scale_of(&r.f, DF_GHZ, &sc);
	assert_int_equal(die_head(&k, &r.u, &r.f, DF_GHZ, &sc, 40, 10), 6);
	assert_string_equal(line(g, 0), "Die grid - logical (test map)");
	assert_string_equal(line(g, 1), "the physical view needs root: CAPID6 is");
	assert_string_equal(line(g, 2), "in PCI configuration space; run httop as");
	assert_string_equal(line(g, 3), "root");
	assert_int_equal(g->role[1][0], ROLE_WARN);
	assert_true(strncmp(line(g, 4), "cores placed by the default rule", 32) == 0);
	/* GHz: the ends are the placed cores' 2.40 and 3.00 */
	assert_string_equal(line(g, 5), "f: GHz  2.40 ....::::++++#### 3.00");

	/* Only 3 rows: title, one note line cut with "...", legend. */
	grid_clear(g);
	assert_int_equal(die_head(&k, &r.u, &r.f, DF_GHZ, &sc, 40, 3), 3);
	assert_string_equal(line(g, 1), "the physical view needs root: CAPID6...");
	assert_string_equal(line(g, 2), "f: GHz  2.40 ....::::++++#### 3.00");
	rig_free(&r);
	free(g);
}

/* A grid's title takes the room beside its grid: whole when the screen
 * has it, words and "..." when not; beside a grid to its right it stops a
 * blank before that grid. Cells of 8 columns, 3 a row: grids 26 wide. */
static void
test_grid_titles(void **state)
{
	struct rig r;
	struct grid *g = malloc(sizeof *g);
	struct die_sink k = { grid_text, g };
	struct die_grid two[2];
	struct die_scale sc;
	struct die_geom geo;

	(void)state;
	rig_init(&r);
	/* 37 columns over a grid of 26 */
	snprintf(r.g.title, sizeof r.g.title, "package 0: 4 cores, one die/L3 group");
	render_body(&r, g, DF_BOTH, 1, 8, 100);
	assert_string_equal(line(g, 0), "package 0: 4 cores, one die/L3 group");
	/* 30 columns: the words that fit with "..." in 30 */
	render_body(&r, g, DF_BOTH, 1, 8, 30);
	assert_string_equal(line(g, 0), "package 0: 4 cores, one...");
	/* Two grids side by side: the first title has 26 + 3 - 1 = 28
	 * columns, the second starts at 29 and has the rest. */
	two[0] = r.g;
	two[1] = r.g;
	two[1].package = 1;
	snprintf(two[1].title, sizeof two[1].title, "package 1: 4 cores, one die/L3 group");
	r.l.grids = two;
	r.l.ngrids = 2;
	memset(&geo, 0, sizeof geo);
	geo.fmt = 1;
	geo.ch = die_cell_fmts[1].ch;
	geo.vgap = die_cell_fmts[1].vgap;
	geo.cw = 8;
	geo.per_band = 2;
	geo.grid_rows = 2;
	geo.grid_cols = 3;
	die_geom_rows(&geo, 2);
	die_scale_of(&r.f, DF_BOTH, &sc);
	grid_clear(g);
	die_body(&k, &r.u, &r.f, &geo, DF_BOTH, &sc, 100);
	assert_int_equal(die_grid_width(&geo), 26);
	assert_string_equal(cell(g, 0, 0, 29), "package 0: 4 cores, one...");
	assert_string_equal(cell(g, 0, 29, 60), "package 1: 4 cores, one die/L3 group");
	rig_free(&r);
	free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fig_cycle),
		cmocka_unit_test(test_heat_scale),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_cells_both),
		cmocka_unit_test(test_cells_other_figures),
		cmocka_unit_test(test_job_and_split),
		cmocka_unit_test(test_phi_tile),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_grid_titles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
