/* die_geom.c: how the die grids fit the view's area: the biggest cell
 * format that fits, how wide its cells are and how many grids go side by
 * side; if nothing fits, the smallest cells and the view scrolls. Plain
 * arithmetic on the layout's grid sizes, so the unit test can check the
 * choice for any area. */
#include "config.h"

#include <string.h>

#include "machine/dielayout.h"
#include "ui/die_view.h"

const struct cell_fmt die_cell_fmts[] = {
	{ 3, 1, 12, 16 },       /* id and CHA; value(s); CPUs or tile */
	{ 2, 1, 7, 12 },        /* id; value(s) */
	{ 2, 0, 7, 12 },
	{ 1, 0, 7, 12 },        /* "c12 47%" */
	/* The last resort, scrolls: the id over the value ("c12", "47%"),
	 * never values without the cores they belong to. */
	{ 2, 0, 4, 12 },
};
_Static_assert(sizeof die_cell_fmts / sizeof die_cell_fmts[0] == NFMTS,
    "NFMTS in die_view.h is the number of cell formats");

/* The grids' largest size. */
static void
grid_extent(const struct die_layout *l, int *rows, int *cols)
{
	unsigned g;

	*rows = *cols = 0;
	for (g = 0; g < l->ngrids; g++) {
		if ((int)l->grids[g].rows > *rows)
			*rows = (int)l->grids[g].rows;
		if ((int)l->grids[g].cols > *cols)
			*cols = (int)l->grids[g].cols;
	}
}

int
die_grid_width(const struct die_geom *g)
{
	return g->grid_cols * (g->cw + 1) - 1;
}

void
die_geom_rows(struct die_geom *g, unsigned ngrids)
{
	int bands = (int)((ngrids + (unsigned)g->per_band - 1) / (unsigned)g->per_band);

	g->band_h = 1 + g->grid_rows * g->ch + (g->grid_rows - 1) * g->vgap;
	g->rows = bands * g->band_h + (bands - 1) + g->extra;
}

/* Cell format, width and grids per band for `cols` x `room`: the biggest
 * format that fits, with as many grids side by side as leave its cells
 * their least width; if nothing fits, the smallest format, the most grids
 * side by side, and the view scrolls. `extra` rows follow the grids. */
void
die_geom_pick(const struct die_layout *l, int cols, int room, int extra, struct die_geom *g)
{
	int f, per;

	memset(g, 0, sizeof *g);
	g->extra = extra;
	g->per_band = 1;
	if (l == NULL || l->ngrids == 0) {
		g->rows = extra;
		g->fits = g->rows <= room;
		return;
	}
	grid_extent(l, &g->grid_rows, &g->grid_cols);
	if (g->grid_rows < 1)
		g->grid_rows = 1;
	if (g->grid_cols < 1)
		g->grid_cols = 1;
	for (f = 0; f < NFMTS; f++) {
		const struct cell_fmt *cf = &die_cell_fmts[f];

		for (per = (int)l->ngrids; per >= 1; per--) {
			int each = (cols - (per - 1) * GRID_GAP) / per;
			int cw = (each + 1) / g->grid_cols - 1;

			if (cw < cf->cwmin)
				continue;
			g->fmt = f;
			g->ch = cf->ch;
			g->vgap = cf->vgap;
			g->cw = cw < cf->cwmax ? cw : cf->cwmax;
			g->per_band = per;
			die_geom_rows(g, l->ngrids);
			if (g->rows <= room) {
				g->fits = true;
				return;
			}
			break;      /* fewer grids per band only makes it taller */
		}
	}
	/* Nothing fits: the smallest cells, as many side by side as the
	 * width allows (at least one, however narrow). */
	f = NFMTS - 1;
	g->fmt = f;
	g->ch = die_cell_fmts[f].ch;
	g->vgap = die_cell_fmts[f].vgap;
	for (per = (int)l->ngrids; per > 1; per--) {
		if ((cols - (per - 1) * GRID_GAP) / per + 1 >= g->grid_cols * (die_cell_fmts[f].cwmin + 1))
			break;
	}
	g->per_band = per;
	g->cw = ((cols - (per - 1) * GRID_GAP) / per + 1) / g->grid_cols - 1;
	if (g->cw > die_cell_fmts[f].cwmax)
		g->cw = die_cell_fmts[f].cwmax;
	if (g->cw < 2)
		g->cw = 2;
	die_geom_rows(g, l->ngrids);
	g->fits = g->rows <= room;
}
