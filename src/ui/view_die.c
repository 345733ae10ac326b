/* view_die.c: the die grid: one grid per package with every tile where
 * it sits on the chip (physical layouts) or in topology order (logical
 * ones), coloured by a figure the user picks with f: both threads active,
 * utilisation, GHz or CPI. Hot spots and the pattern of disabled tiles
 * show at a glance; without colours a shade glyph in each cell carries
 * the heat. Cells shrink to fit the area and the grids go side by side
 * when they fit; otherwise the view scrolls. What a cell shows is in
 * die_cells.c and how the grids fit the area in die_geom.c; this file
 * writes the lines around and between the cells and draws them. Lines
 * go through a sink so the unit tests can read them without curses. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/dielayout.h"
#include "ui/die_view.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* The view: the figure is the settings' (key f, kept by w); "both" needs
 * the split, which the last frame said whether there is. */
struct die_view {
	struct view v;
	bool split;
};

/* The figure shown: the one asked for, or utilisation when "both" cannot
 * be had on this machine (the setting stays, for the next one). */
static enum die_fig
shown_fig(const struct die_view *p)
{
	enum die_fig fig = p->v.s->die_figure;

	if ((int)fig < 0 || fig >= DF_COUNT)
		fig = DF_BOTH;
	return fig == DF_BOTH && !p->split ? DF_UTIL : fig;
}

/* --- text lines -------------------------------------------------------- */

/* `s` in lines of at most `cols` columns, broken at blanks; at most
 * `max` lines (the last ends in "..." if cut). Returns the lines. */
static int
wrap(const struct die_sink *k, int row, int cols, int max, enum ui_role r, const char *s)
{
	char line[512];
	int n = 0;

	while (*s == ' ')
		s++;
	while (*s != '\0' && n < max) {
		int i = (int)text_line_len(s, cols);

		if (n == max - 1 && s[i] != '\0' && cols > 3) {
			/* The last line allowed: cut and say so. */
			int j = 0, c = 0;

			while (s[j] != '\0' && c < cols - 3) {
				if (((unsigned char)s[j] & 0xC0) != 0x80)
					c++;
				j++;
			}
			while (s[j] != '\0' && ((unsigned char)s[j] & 0xC0) == 0x80)
				j++;
			while (j > 0 && s[j - 1] == ' ')
				j--;
			snprintf(line, sizeof line, "%.*s...", j, s);
		} else {
			snprintf(line, sizeof line, "%.*s", i, s);
		}
		die_emit(k, row + n, 0, cols, r, -1, line);
		n++;
		s += i;
		while (*s == ' ')
			s++;
	}
	return n;
}

/* The cores the layout does not place, as "not placed: 3 7" (core ids;
 * "0:3 1:7" with more than one package). Returns the lines. */
static int
unplaced_lines(const struct die_sink *k, const struct ui_frame *f, int row, int cols)
{
	const struct die_layout *l = f->layout;
	const struct topology *t = &f->m->topo;
	char buf[2048];
	size_t n;
	unsigned ci, count = 0;

	if (l == NULL || l->ngrids == 0)
		return 0;
	n = (size_t)snprintf(buf, sizeof buf, "%s", _("not placed:"));
	for (ci = 0; ci < l->ncores && ci < t->ncores; ci++) {
		if (l->cores[ci].placed)
			continue;
		count++;
		if (n + 16 >= sizeof buf)
			continue;
		if (t->npackages > 1)
			n += (size_t)snprintf(buf + n, sizeof buf - n, " %u:%u", t->cores[ci].package,
			    t->cores[ci].core_id);
		else
			n += (size_t)snprintf(buf + n, sizeof buf - n, " %u", t->cores[ci].core_id);
	}
	if (count == 0)
		return 0;
	return 1 + wrap(k, row + 1, cols, 50, ROLE_INVALID, buf);
}

/* Why cores have no value ("-"), in the reason codes a wide cell shows
 * next to its "-": "  -: never-active, read-error". */
static void
absent_legend(char *text, size_t len, const struct die_scale *sc)
{
	size_t n = strlen(text);
	unsigned r;
	bool first = true;

	for (r = 1; r < R_NREASONS && r < 32 && n + 2 < len; r++) {
		if (!(sc->absent & 1u << r))
			continue;
		n += (size_t)snprintf(text + n, len - n, "%s%s", first ? "  -: " : ", ",
		    metrics_reason_code((enum reason)r));
		first = false;
	}
}

/* The legend: the figure, f, and the scale's ends with their numbers. */
static void
legend(const struct die_sink *k, const struct ui_ctx *u, const struct ui_frame *f,
    enum die_fig fig, const struct die_scale *sc, int row, int cols)
{
	char text[320], lo[32], hi[32];
	int x = 0, i, w;

	snprintf(text, sizeof text, _("f: %s  "), _(die_figs[fig].label));
	w = text_width(text);
	die_emit(k, row, x, w < cols ? w : cols, ROLE_LABEL, -1, text);
	x += w;
	if (die_figs[fig].share) {
		snprintf(lo, sizeof lo, "0%%");
		snprintf(hi, sizeof hi, "100%%");
	} else if (sc->any) {
		snprintf(lo, sizeof lo, die_figs[fig].fmt, sc->lo);
		snprintf(hi, sizeof hi, die_figs[fig].fmt, sc->hi);
	} else {
		snprintf(text, sizeof text, "%s", _("no values yet"));
		if (x < cols)
			die_emit(k, row, x, cols - x, ROLE_INVALID, -1, text);
		return;
	}
	snprintf(text, sizeof text, "%s ", lo);
	w = text_width(text);
	if (x + w < cols)
		die_emit(k, row, x, w, ROLE_PLAIN, -1, text);
	x += w;
	for (i = 0; i < HEAT_STEPS && x + 2 <= cols; i++, x += 2) {
		const char *g = screen_heat_colour(u) ? " " : screen_heat_glyph(u, i);

		snprintf(text, sizeof text, "%s%s", g, g);
		die_emit(k, row, x, 2, ROLE_PLAIN, i, text);
	}
	snprintf(text, sizeof text, " %s", hi);
	if (sc->bounds) {
		size_t n = strlen(text);

		snprintf(text + n, sizeof text - n, "  %s", _("? a bound: coloured by its low end"));
	}
	if (die_job_only(f)) {
		size_t n = strlen(text);

		snprintf(text + n, sizeof text - n, "  %s", _("greyed: outside the job"));
	}
	absent_legend(text, sizeof text, sc);
	if (x < cols)
		die_emit(k, row, x, cols - x, ROLE_PLAIN, -1, text);
}

/* The lines above the grids (they do not scroll): title, the layout's
 * note, the default-rule warning, the legend; no more than `max` rows,
 * dropping the warning, then the note. Returns the rows. */
int
die_head(const struct die_sink *k, const struct ui_ctx *u, const struct ui_frame *f,
    enum die_fig fig, const struct die_scale *sc, int cols, int max)
{
	const struct die_layout *l = f->layout;
	const struct die_sink count = { NULL, NULL };
	char text[sizeof ((struct die_layout *)0)->basis_text + 96], fitted[sizeof text];
	const char *kind;
	int row = 0, nnote = 0, nassumed = 0, room;

	if (max < 1)
		return 0;
	if (l == NULL) {
		die_emit(k, row++, 0, cols, ROLE_LABEL, -1, _("Die grid"));
		if (row < max)
			die_emit(k, row++, 0, cols, ROLE_WARN, -1,
			    _("no layout: this source does not say where the cores sit"));
		return row;
	}
	kind = l->kind == LAYOUT_PHYSICAL ? _("physical") : _("logical");
	if (strncmp(l->basis_text, kind, strlen(kind)) == 0)
		/* The basis already says which ("logical: package / die ..."). */
		snprintf(text, sizeof text, "%s %s %s", _("Die grid"), u->utf8 ? "\u2014" : "-",
		    l->basis_text);
	else
		snprintf(text, sizeof text, "%s %s %s%s%s%s", _("Die grid"),
		    u->utf8 ? "\u2014" : "-", kind, l->basis_text[0] ? " (" : "", l->basis_text,
		    l->basis_text[0] ? ")" : "");
	/* Cut at a word, with a mark, never mid-word ("... from a chip) an"). */
	text_fit(fitted, sizeof fitted, text, cols, u->utf8);
	die_emit(k, row++, 0, cols, ROLE_LABEL, -1, fitted);
	room = max - 2;                 /* title and legend */
	if (l->note[0] != '\0' && room > 0)
		nnote = wrap(&count, 0, cols, room < 3 ? room : 3, ROLE_WARN, l->note);
	if (l->cores_assumed && room - nnote > 0)
		nassumed = 1;
	if (nnote > 0)
		row += wrap(k, row, cols, nnote, ROLE_WARN, l->note);
	if (nassumed > 0) {
		text_fit(fitted, sizeof fitted, _("cores placed by the default rule (k-th core at "
		    "k-th enabled tile); --die-map for measured places"), cols, u->utf8);
		die_emit(k, row++, 0, cols, ROLE_WARN, -1, fitted);
	}
	if (row < max)
		legend(k, u, f, fig, sc, row++, cols);
	return row;
}

/* The columns grid gi's title may take from x0: up to the next grid of
 * its band, one blank before it, or to the edge for the last one; a grid
 * narrower than its title ("package 0: 1 core, one die/L3 group" over a
 * grid of one core) lends it the room beside it. */
static int
title_room(const struct die_layout *l, const struct die_geom *g, unsigned gi, int x0, int cols)
{
	int next = die_grid_width(g) + GRID_GAP - 1;

	if ((int)gi % g->per_band < g->per_band - 1 && gi + 1 < l->ngrids && next < cols - x0)
		return next;
	return cols - x0;
}

/* The grids and what follows them, rows from 0; returns the rows. */
int
die_body(const struct die_sink *k, const struct ui_ctx *u, const struct ui_frame *f,
    const struct die_geom *g, enum die_fig fig, const struct die_scale *sc, int cols)
{
	const struct die_layout *l = f->layout;
	char title[sizeof l->grids[0].title + 8];
	unsigned gi;
	int row = 0, tw;

	if (l == NULL)
		return 0;
	if (l->ngrids == 0) {
		die_emit(k, 0, 0, cols, ROLE_INVALID, -1, _("no grid for this machine"));
		return 1;
	}
	for (gi = 0; gi < l->ngrids; gi++) {
		const struct die_grid *d = &l->grids[gi];
		int band = (int)gi / g->per_band, j = (int)gi % g->per_band;
		int top = band * (g->band_h + 1), gw = die_grid_width(g);
		int x0 = j * (gw + GRID_GAP), r, c;

		if (x0 >= cols)
			continue;
		tw = title_room(l, g, gi, x0, cols);
		text_fit(title, sizeof title, d->title, tw, u->utf8);
		die_emit(k, top, x0, tw, ROLE_LABEL, -1, title);
		for (r = 0; r < (int)d->rows; r++) {
			for (c = 0; c < (int)d->cols; c++) {
				struct cell_look o;
				int x = x0 + c * (g->cw + 1);
				int y = top + 1 + r * (g->ch + g->vgap);

				if (x >= cols)
					break;
				die_cell_look(&o, u, f, &d->cells[(size_t)r * d->cols + (size_t)c], fig, sc,
				    g->cw, g->ch);
				die_cell_draw(k, &o, y, x, g->cw < cols - x ? g->cw : cols - x, g->ch);
			}
		}
		row = top + g->band_h;
	}
	return row + unplaced_lines(k, f, row, cols);
}

/* --- curses ------------------------------------------------------------ */

struct die_screen {
	struct ui_ctx *u;
	const struct ui_area *a;
	int top;                /* screen row of content row 0 */
	int first, visible;     /* content rows shown: [first, first + visible) */
};

static void
die_screen_text(void *arg, int row, int x, int width, enum ui_role r, int heat, const char *s)
{
	struct die_screen *ds = arg;
	const struct ui_area *a = ds->a;

	if (row < ds->first || row >= ds->first + ds->visible || x >= a->cols)
		return;
	if (x + width > a->cols)
		width = a->cols - x;
	draw_text(ds->u, ds->top + row - ds->first, a->left + x, width, heat >= 0 ? heat_role(heat) : r,
	    s);
}

static void
die_draw(struct view *v, struct ui_ctx *u, const struct ui_area *a, const struct ui_frame *f)
{
	struct die_view *p = (struct die_view *)v;
	struct die_scale sc;
	struct die_geom g;
	struct die_sink count = { NULL, NULL };
	struct die_screen hs = { u, a, a->top, 0, a->rows };
	struct die_sink hk = { die_screen_text, &hs };
	struct die_screen bs;
	struct die_sink bk = { die_screen_text, &bs };
	enum die_fig fig;
	int head, room, extra, visible;

	if (a->rows < 3 || a->cols < 16) {
		draw_text(u, a->top, a->left, a->cols, ROLE_WARN, _("die grid: too small"));
		return;
	}
	p->split = die_frame_split(f);
	fig = shown_fig(p);
	die_scale_of(f, fig, &sc);
	/* A small area keeps its rows for the grids: title and legend only. */
	head = die_head(&hk, u, f, fig, &sc, a->cols, a->rows >= 12 ? a->rows - 2 : 2);
	room = a->rows - head;
	extra = f->layout != NULL ? unplaced_lines(&count, f, 0, a->cols) : 0;
	die_geom_pick(f->layout, a->cols, room, extra, &g);
	visible = room;
	if (!g.fits && visible > 1)
		visible--;          /* the last row says where the view is */
	view_scroll_set(v, visible, g.rows - visible);
	bs.u = u;
	bs.a = a;
	bs.top = a->top + head;
	bs.first = v->scroll;
	bs.visible = visible;
	die_body(&bk, u, f, &g, fig, &sc, a->cols);
	if (!g.fits && room > visible) {
		char more[96];

		snprintf(more, sizeof more, _("rows %d-%d of %d: Up, Down, PgUp, PgDn"),
		    v->scroll + 1, v->scroll + visible < g.rows ? v->scroll + visible : g.rows, g.rows);
		draw_text(u, a->top + a->rows - 1, a->left, a->cols, ROLE_LABEL, more);
	}
}

static bool
die_key(struct view *v, int ch)
{
	struct die_view *p = (struct die_view *)v;

	if (ch == 'f' || ch == 'F') {
		v->s->die_figure = die_fig_next(shown_fig(p), p->split, ch == 'f' ? 1 : -1);
		return true;
	}
	return view_scroll_key(v, ch);
}

static void
die_free(struct view *v)
{
	free(v);
}

struct view *
view_die_new(struct ui_settings *s)
{
	struct die_view *p = xcalloc(1, sizeof *p);

	p->split = true;
	p->v.id = VIEW_DIE;
	p->v.draw = die_draw;
	p->v.key = die_key;
	p->v.free = die_free;
	p->v.s = s;
	return &p->v;
}
