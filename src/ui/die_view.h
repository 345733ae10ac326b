/* die_view.h: what the die grid view's files share: the figures, the cell
 * formats, the geometry, the heat scale and the sink lines go through.
 * die_cells.c says what one cell shows, die_geom.c how the grids fit the
 * area, view_die.c writes the lines and draws them with curses. Private
 * to those files and their unit test, which reads the lines through a
 * sink instead of curses. */
#ifndef HTTOP_DIE_VIEW_H
#define HTTOP_DIE_VIEW_H

#include <stdbool.h>

#include "machine/dielayout.h"
#include "ui/screen.h"
#include "ui/ui.h"

/* How a figure is written and where its scale runs. */
struct die_fig_desc {
	const char *label;      /* translatable: N_() */
	const char *fmt;        /* full precision */
	const char *fmt_short;  /* when the cell is narrow */
	double scale;
	const char *unit;       /* after the number, when it fits */
	bool share;             /* maps 0..100%; else min..max of the cores shown */
};

extern const struct die_fig_desc die_figs[DF_COUNT];

/* Cell formats, biggest first: text rows per cell, blank rows between
 * cell rows, and the width range (the mark column included). */
struct cell_fmt {
	int ch, vgap, cwmin, cwmax;
};

/* In die_geom.c; it checks that NFMTS is the number of formats. */
#define NFMTS 5
extern const struct cell_fmt die_cell_fmts[];

#define GRID_GAP 3              /* columns between grids side by side */
#define CELL_LINES 3
#define TEXT_MAX 64

struct die_geom {
	int fmt;                /* index into die_cell_fmts */
	int ch, vgap, cw;       /* cell rows, gap rows, cell width */
	int per_band;           /* grids side by side */
	int grid_rows, grid_cols;   /* largest grid */
	int band_h;             /* title + cell rows */
	int extra;              /* rows after the grids (the unplaced cores) */
	int rows;               /* content rows in all */
	bool fits;
};

/* Where the heat scale starts and ends for the figure shown. */
struct die_scale {
	double lo, hi;
	bool any;               /* a core has a value (exact, or a bound's low end) */
	bool bounds;            /* some are bounds, coloured by their low end */
	unsigned absent;        /* why cores shown have no value: 1 << enum reason */
};

/* Where lines go: text(row, x, width, role, heat step or -1, s); NULL
 * text only counts. */
struct die_sink {
	void (*text)(void *arg, int row, int x, int width, enum ui_role r, int heat,
	    const char *s);
	void *arg;
};

/* What one cell shows: up to three lines, each the first of its
 * variants (longest first) that fits; the mark column; the colour. */
struct cell_look {
	enum ui_role role;      /* when heat < 0 */
	int heat;               /* heat step, or -1 */
	const char *mark;       /* column 0 */
	const char *mark0;      /* column 0 of the first line ("?" for a bound) */
	int line_of_label;      /* the line "off", "MC", ... sit on */
	char line[CELL_LINES][TEXT_MAX];
};

/* die_cells.c: the sink, the figures and the heat scale, the cells. */
void die_emit(const struct die_sink *k, int row, int x, int width, enum ui_role r,
    int heat, const char *s);
enum die_fig die_fig_next(enum die_fig fig, bool split, int dir);
bool die_frame_split(const struct ui_frame *f);
bool die_job_only(const struct ui_frame *f);
void die_scale_of(const struct ui_frame *f, enum die_fig fig, struct die_scale *sc);
void die_cell_look(struct cell_look *o, const struct ui_ctx *u, const struct ui_frame *f,
    const struct die_cell *c, enum die_fig fig, const struct die_scale *sc, int cw, int ch);
void die_cell_draw(const struct die_sink *k, const struct cell_look *o, int row, int x,
    int cw, int ch);

/* die_geom.c: the cell format and grids per band for an area. */
int die_grid_width(const struct die_geom *g);
void die_geom_rows(struct die_geom *g, unsigned ngrids);
void die_geom_pick(const struct die_layout *l, int cols, int room, int extra,
    struct die_geom *g);

/* view_die.c: the lines above the grids, and the grids themselves. */
int die_head(const struct die_sink *k, const struct ui_ctx *u, const struct ui_frame *f,
    enum die_fig fig, const struct die_scale *sc, int cols, int max);
int die_body(const struct die_sink *k, const struct ui_ctx *u, const struct ui_frame *f,
    const struct die_geom *g, enum die_fig fig, const struct die_scale *sc, int cols);

#endif
