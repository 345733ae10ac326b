/* view_die.c: the die grid: one grid per package with every tile where
 * it sits on the chip (physical layouts) or in topology order (logical
 * ones), coloured by a figure the user picks with f: both threads active,
 * utilisation, GHz or CPI. Hot spots and the pattern of disabled tiles
 * show at a glance; without colours a shade glyph in each cell carries
 * the heat. Cells shrink to fit the area and the grids go side by side
 * when they fit; otherwise the view scrolls. Lines go through a sink so
 * the unit tests can read them without curses. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "machine/dielayout.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "util/i18n.h"

enum die_fig { DF_BOTH = 0, DF_UTIL, DF_GHZ, DF_CPI, DF_COUNT };

static const struct {
	const char *label;
	const char *fmt;        /* full precision */
	const char *fmt_short;  /* when the cell is narrow */
	double scale;
	const char *unit;       /* after the number, when it fits */
	bool share;             /* maps 0..100%; else min..max of the cores shown */
} figs[DF_COUNT] = {
	[DF_BOTH] = { N_("both threads active"), "%.0f", "%.0f", 100.0, "%", true },
	[DF_UTIL] = { N_("utilisation"), "%.0f", "%.0f", 100.0, "%", true },
	[DF_GHZ] = { N_("GHz"), "%.2f", "%.1f", 1.0, "", false },
	[DF_CPI] = { N_("CPI"), "%.2f", "%.1f", 1.0, "", false },
};

/* Cell formats, biggest first: text rows per cell, blank rows between
 * cell rows, and the width range (the mark column included). */
struct cell_fmt {
	int ch, vgap, cwmin, cwmax;
};

static const struct cell_fmt cell_fmts[] = {
	{ 3, 1, 12, 16 },       /* id and CHA; value(s); CPUs or tile */
	{ 2, 1, 7, 12 },        /* id; value(s) */
	{ 2, 0, 7, 12 },
	{ 1, 0, 7, 12 },        /* "c12 47%" */
	{ 1, 0, 4, 12 },        /* "47%": the last resort, scrolls */
};
#define NFMTS ((int)(sizeof cell_fmts / sizeof cell_fmts[0]))

#define GRID_GAP 3              /* columns between grids side by side */
#define CELL_LINES 3
#define TEXT_MAX 64

struct die_geom {
	int fmt;                /* index into cell_fmts */
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
	bool any;               /* a core has an exact value */
};

/* Where lines go: text(row, x, width, role, heat step or -1, s); NULL
 * text only counts. */
struct die_sink {
	void (*text)(void *arg, int row, int x, int width, enum ui_role r, int heat,
	    const char *s);
	void *arg;
};

struct die_priv {
	enum die_fig fig;
	bool split;             /* from the last frame: whether f may show "both" */
	int page, maxscroll;
};

static struct die_priv die_state = { DF_BOTH, true, 1, 0 };

static void
emit(const struct die_sink *k, int row, int x, int width, enum ui_role r, int heat,
    const char *s)
{
	if (k->text != NULL && width > 0)
		k->text(k->arg, row, x, width, r, heat, s);
}

/* Columns of a UTF-8 string (every character one column). */
static int
columns(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	}
	return n;
}

/* dst = a sep b, cut to TEXT_MAX bytes at a character boundary. */
static void
join(char *dst, const char *a, const char *sep, const char *b)
{
	const char *part[3] = { a, sep, b };
	size_t n = 0;
	int i;

	for (i = 0; i < 3; i++) {
		const char *s = part[i];

		for (; *s != '\0' && n + 1 < TEXT_MAX; s++)
			dst[n++] = *s;
	}
	while (n > 0 && ((unsigned char)dst[n - 1] & 0xC0) == 0xC0)
		n--;    /* a lead byte whose continuation was cut */
	dst[n] = '\0';
}

/* The next figure after `fig`; "both" only on a machine with the split. */
static enum die_fig
die_fig_next(enum die_fig fig, bool split, int dir)
{
	int i, f = (int)fig;

	for (i = 0; i < DF_COUNT; i++) {
		f = (f + DF_COUNT + dir) % DF_COUNT;
		if (f != DF_BOTH || split)
			break;
	}
	return (enum die_fig)f;
}

static bool
frame_split(const struct ui_frame *f)
{
	return f->m != NULL && f->m->topo.max_smt == 2 && f->plan != NULL &&
	    f->plan->split != SPLIT_NONE;
}

static bool
job_only(const struct ui_frame *f)
{
	return f->job != NULL && f->job->active && f->job->only && f->job->cpus != NULL;
}

/* Is core `ci` outside the watched job (and so greyed)? */
static bool
outside_job(const struct ui_frame *f, unsigned ci)
{
	const struct topo_core *tc = &f->m->topo.cores[ci];
	unsigned t;

	if (!job_only(f))
		return false;
	for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT; t++) {
		if (cpulist_has(f->job->cpus, tc->cpus[t]))
			return false;
	}
	return true;
}

/* The figure of core `ci`, or NULL with the reason it has none. */
static const struct val *
core_val(const struct ui_frame *f, unsigned ci, enum die_fig fig, enum reason *why)
{
	const struct core_fig *c;

	*why = R_NONE;
	if (f->iv == NULL || ci >= f->iv->ncores || ci >= f->m->topo.ncores) {
		*why = R_FIRST;
		return NULL;
	}
	c = &f->iv->cores[ci];
	if (c->reason != R_NONE) {
		*why = c->reason;
		return NULL;
	}
	switch (fig) {
	case DF_BOTH:
		if (f->m->topo.cores[ci].nthreads != 2 || !frame_split(f)) {
			*why = R_NO_SPLIT;
			return NULL;
		}
		return &c->both;
	case DF_UTIL: return &c->util;
	case DF_GHZ: return &c->ghz;
	case DF_CPI: return &c->cpi;
	default: break;
	}
	return &c->util;
}

/* The scale: 0..1 for shares, else the smallest and largest exact value
 * of the cores shown (a bound is drawn as a bound, not placed on it). */
static void
die_scale_of(const struct ui_frame *f, enum die_fig fig, struct die_scale *sc)
{
	const struct die_layout *l = f->layout;
	unsigned ci;

	sc->lo = 0.0;
	sc->hi = 1.0;
	sc->any = false;
	if (l == NULL)
		return;
	for (ci = 0; ci < l->ncores && ci < f->m->topo.ncores; ci++) {
		enum reason why;
		const struct val *v;

		if (!l->cores[ci].placed || outside_job(f, ci))
			continue;
		v = core_val(f, ci, fig, &why);
		if (v == NULL || v->kind != V_EXACT)
			continue;
		if (!figs[fig].share && !sc->any) {
			sc->lo = sc->hi = v->v;
		} else if (!figs[fig].share) {
			if (v->v < sc->lo)
				sc->lo = v->v;
			if (v->v > sc->hi)
				sc->hi = v->v;
		}
		sc->any = true;
	}
}

/* The heat step of an exact value; the middle when the scale is one
 * number. */
static int
die_heat(const struct die_scale *sc, double x)
{
	double span = sc->hi - sc->lo;

	if (!(span > 1e-12))
		return HEAT_STEPS / 2;
	return heat_step((x - sc->lo) / span);
}

/* --- cells ------------------------------------------------------------- */

/* What one cell shows: up to three lines, each the first of its
 * variants (longest first) that fits; the mark column; the colour. */
struct cell_look {
	enum ui_role role;      /* when heat < 0 */
	int heat;               /* heat step, or -1 */
	const char *mark;       /* column 0 */
	int line_of_label;      /* the line "off", "MC", ... sit on */
	char line[CELL_LINES][TEXT_MAX];
};

/* Text variants of one core's value, longest first; returns how many. */
static int
val_variants(char out[3][TEXT_MAX], const struct val *v, enum reason why, enum die_fig fig)
{
	char a[TEXT_MAX];

	if (v == NULL) {
		join(out[0], "-", " ", metrics_reason_code(why));
		snprintf(out[1], TEXT_MAX, "-");
		return 2;
	}
	val_text(a, sizeof a, figs[fig].fmt, v, figs[fig].scale);
	if (v->kind == V_NONE || strcmp(a, "-") == 0) {
		snprintf(out[0], TEXT_MAX, "-");
		return 1;
	}
	join(out[0], a, "", figs[fig].unit);
	join(out[1], a, "", "");
	if (v->kind == V_BOUND) {
		/* Too narrow for both ends: the low end and "there is more",
		 * never a midpoint. */
		char lo[32];

		snprintf(lo, sizeof lo, figs[fig].fmt_short, v->lo * figs[fig].scale);
		join(out[2], lo, "", "+");
	} else {
		val_text(out[2], TEXT_MAX, figs[fig].fmt_short, v, figs[fig].scale);
	}
	return 3;
}

/* The first variant no wider than `w` into dst; if none fits, stars: a
 * cut number or core id would read as another one. */
static void
pick(char *dst, int w, char var[][TEXT_MAX], int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (columns(var[i]) <= w) {
			join(dst, var[i], "", "");
			return;
		}
	}
	for (i = 0; i < w && i < TEXT_MAX - 1; i++)
		dst[i] = '*';
	dst[i > 0 ? i : 0] = '\0';
}

/* One core's state for its cell. */
struct core_look {
	char val[3][TEXT_MAX];
	int nval;
	enum ui_role role;
	int heat;
	bool bound;
};

static void
core_look(struct core_look *o, const struct ui_frame *f, unsigned ci, enum die_fig fig,
    const struct die_scale *sc)
{
	enum reason why;
	const struct val *v = core_val(f, ci, fig, &why);

	o->nval = val_variants(o->val, v, why, fig);
	o->heat = -1;
	o->bound = false;
	if (outside_job(f, ci))
		o->role = ROLE_INVALID;
	else if (v == NULL || v->kind == V_NONE)
		o->role = ROLE_INVALID;
	else if (v->kind == V_BOUND) {
		o->role = ROLE_BOUND;
		o->bound = true;
	} else {
		o->role = ROLE_COUNT;
		o->heat = figs[fig].share ? heat_step(v->v) : die_heat(sc, v->v);
	}
}

static void
id_variants(char out[3][TEXT_MAX], const struct ui_frame *f, const struct die_cell *c,
    bool with_cha)
{
	const struct topology *t = &f->m->topo;
	unsigned a = c->cores[0] < t->ncores ? t->cores[c->cores[0]].core_id : 0;

	if (c->ncores >= 2) {
		unsigned b = c->cores[1] < t->ncores ? t->cores[c->cores[1]].core_id : 0;

		snprintf(out[0], TEXT_MAX, "%u,%u", a, b);
		snprintf(out[1], TEXT_MAX, "%u,%u", a, b);
		snprintf(out[2], TEXT_MAX, "%u+", a);
		return;
	}
	if (with_cha && c->cha >= 0)
		snprintf(out[0], TEXT_MAX, _("c%u cha %d"), a, c->cha);
	else
		snprintf(out[0], TEXT_MAX, "c%u", a);
	snprintf(out[1], TEXT_MAX, "c%u", a);
	snprintf(out[2], TEXT_MAX, "%u", a);
}

/* The third line of a big cell: the core's CPUs, or a tile's number. */
static void
more_variants(char out[2][TEXT_MAX], const struct ui_frame *f, const struct die_cell *c)
{
	const struct topology *t = &f->m->topo;
	const struct topo_core *tc;
	size_t n = 0;
	unsigned i;

	if (c->ncores >= 2 || c->cores[0] >= t->ncores) {
		snprintf(out[0], TEXT_MAX, _("tile %d"), c->slot);
		snprintf(out[1], TEXT_MAX, "t%d", c->slot);
		return;
	}
	tc = &t->cores[c->cores[0]];
	out[1][0] = '\0';
	for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT && n < TEXT_MAX; i++)
		n += (size_t)snprintf(out[1] + n, TEXT_MAX - n, "%s%u", i ? "," : "", tc->cpus[i]);
	snprintf(out[0], TEXT_MAX, _("cpu %s"), out[1]);
}

/* A cell without cores: "off", "MC", ... on its middle line. */
static void
label_cell(struct cell_look *o, int ch, enum ui_role r, const char *s)
{
	o->role = r;
	o->line_of_label = (ch - 1) / 2;
	join(o->line[o->line_of_label], s, "", "");
}

static void
cell_look(struct cell_look *o, const struct ui_ctx *u, const struct ui_frame *f,
    const struct die_cell *c, enum die_fig fig, const struct die_scale *sc, int cw, int ch)
{
	struct core_look k[DIE_CELL_MAX_CORES];
	char var[6][TEXT_MAX], ids[3][TEXT_MAX];
	int w = cw - 1, i, j, n, best;
	unsigned ci;

	memset(o, 0, sizeof *o);
	o->role = ROLE_COUNT;
	o->heat = -1;
	o->mark = " ";
	switch (c->kind) {
	case DM_EMPTY:
		return;
	case DM_MC:
		label_cell(o, ch, ROLE_LABEL, "MC");
		return;
	case DM_IO:
		label_cell(o, ch, ROLE_LABEL, "IO");
		return;
	case DM_TILE:
	default:
		break;
	}
	if (!c->enabled) {
		label_cell(o, ch, ROLE_INVALID, _("off"));
		return;
	}
	if (c->ncores == 0) {
		/* CHA and L3 slice there, the core fused off. */
		join(var[0], _("LLC only"), "", "");
		join(var[1], "LLC", "", "");
		pick(o->line[(ch - 1) / 2], w, var, 2);
		o->role = ROLE_INVALID;
		return;
	}

	n = c->ncores < DIE_CELL_MAX_CORES ? (int)c->ncores : DIE_CELL_MAX_CORES;
	best = 0;
	for (i = 0; i < n; i++) {
		ci = c->cores[i];
		if (ci >= f->m->topo.ncores) {
			n = i;
			break;
		}
		core_look(&k[i], f, ci, fig, sc);
		if (k[i].heat > k[best].heat)
			best = i;
	}
	if (n == 0) {
		label_cell(o, ch, ROLE_INVALID, "?");
		return;
	}
	/* The tile takes the look of its hottest core; else the first
	 * core's (a bound, an absent value, greyed). */
	o->role = k[best].role;
	o->heat = k[best].heat;
	if (o->heat >= 0)
		o->mark = screen_heat_colour(u) ? " " : screen_heat_glyph(u, o->heat);
	else if (k[best].bound)
		o->mark = "?";

	/* The values: one core's variants, or both cores' side by side. */
	if (n == 1) {
		for (j = 0; j < k[0].nval; j++)
			memcpy(var[j], k[0].val[j], TEXT_MAX);
		n = k[0].nval;
	} else {
		int m = k[0].nval < k[1].nval ? k[0].nval : k[1].nval;

		for (j = 0; j < m; j++) {
			join(var[2 * j], k[0].val[j], " ", k[1].val[j]);
			join(var[2 * j + 1], k[0].val[j], "/", k[1].val[j]);
		}
		n = 2 * m;
	}
	id_variants(ids, f, c, ch >= 3);
	if (ch >= 2) {
		pick(o->line[0], w, ids, 3);
		pick(o->line[1], w, var, n);
		if (ch >= 3) {
			char more[2][TEXT_MAX];

			more_variants(more, f, c);
			pick(o->line[2], w, more, 2);
		}
		return;
	}
	/* One line: the value whole before the id whole. */
	for (j = 0; j < n; j++) {
		for (i = 1; i < 3; i++) {
			char both[TEXT_MAX];

			join(both, ids[i], " ", var[j]);
			if (columns(both) <= w) {
				join(o->line[0], both, "", "");
				return;
			}
		}
	}
	pick(o->line[0], w, var, n);
}

/* Draw one cell at (row, x): every line the full width, so a heat colour
 * makes one block. */
static void
cell_draw(const struct die_sink *k, const struct cell_look *o, int row, int x, int cw, int ch)
{
	char text[TEXT_MAX];
	int i;

	/* A heat glyph runs down the whole mark column; a bound's "?" sits
	 * on the first line only. */
	for (i = 0; i < ch && i < CELL_LINES; i++) {
		join(text, i == 0 || o->heat >= 0 ? o->mark : " ", "", o->line[i]);
		emit(k, row + i, x, cw, o->role, o->heat, text);
	}
}

/* --- layout ------------------------------------------------------------ */

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

static int
grid_width(const struct die_geom *g)
{
	return g->grid_cols * (g->cw + 1) - 1;
}

static void
geom_rows(struct die_geom *g, unsigned ngrids)
{
	int bands = (int)((ngrids + (unsigned)g->per_band - 1) / (unsigned)g->per_band);

	g->band_h = 1 + g->grid_rows * g->ch + (g->grid_rows - 1) * g->vgap;
	g->rows = bands * g->band_h + (bands - 1) + g->extra;
}

/* Cell format, width and grids per band for `cols` x `room`: the biggest
 * format that fits, with as many grids side by side as leave its cells
 * their least width; if nothing fits, the smallest format, the most grids
 * side by side, and the view scrolls. `extra` rows follow the grids. */
static void
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
		const struct cell_fmt *cf = &cell_fmts[f];

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
			geom_rows(g, l->ngrids);
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
	g->ch = cell_fmts[f].ch;
	g->vgap = cell_fmts[f].vgap;
	for (per = (int)l->ngrids; per > 1; per--) {
		if ((cols - (per - 1) * GRID_GAP) / per + 1 >= g->grid_cols * (cell_fmts[f].cwmin + 1))
			break;
	}
	g->per_band = per;
	g->cw = ((cols - (per - 1) * GRID_GAP) / per + 1) / g->grid_cols - 1;
	if (g->cw > cell_fmts[f].cwmax)
		g->cw = cell_fmts[f].cwmax;
	if (g->cw < 2)
		g->cw = 2;
	geom_rows(g, l->ngrids);
	g->fits = g->rows <= room;
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
		int used = 0, brk = -1, i = 0;

		/* Find the longest prefix of whole words within cols. */
		while (s[i] != '\0') {
			if (((unsigned char)s[i] & 0xC0) != 0x80) {
				if (used == cols)
					break;
				used++;
			}
			if (s[i] == ' ')
				brk = i;
			i++;
		}
		if (s[i] != '\0' && s[i] != ' ' && brk > 0)
			i = brk;
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
		emit(k, row + n, 0, cols, r, -1, line);
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

/* The legend: the figure, f, and the scale's ends with their numbers. */
static void
legend(const struct die_sink *k, const struct ui_ctx *u, const struct ui_frame *f,
    enum die_fig fig, const struct die_scale *sc, int row, int cols)
{
	char text[160], lo[32], hi[32];
	int x = 0, i, w;

	snprintf(text, sizeof text, _("f: %s  "), _(figs[fig].label));
	w = columns(text);
	emit(k, row, x, w < cols ? w : cols, ROLE_LABEL, -1, text);
	x += w;
	if (figs[fig].share) {
		snprintf(lo, sizeof lo, "0%%");
		snprintf(hi, sizeof hi, "100%%");
	} else if (sc->any) {
		snprintf(lo, sizeof lo, figs[fig].fmt, sc->lo);
		snprintf(hi, sizeof hi, figs[fig].fmt, sc->hi);
	} else {
		snprintf(text, sizeof text, "%s", _("no values yet"));
		if (x < cols)
			emit(k, row, x, cols - x, ROLE_INVALID, -1, text);
		return;
	}
	snprintf(text, sizeof text, "%s ", lo);
	w = columns(text);
	if (x + w < cols)
		emit(k, row, x, w, ROLE_COUNT, -1, text);
	x += w;
	for (i = 0; i < HEAT_STEPS && x + 2 <= cols; i++, x += 2) {
		const char *g = screen_heat_colour(u) ? " " : screen_heat_glyph(u, i);

		snprintf(text, sizeof text, "%s%s", g, g);
		emit(k, row, x, 2, ROLE_COUNT, i, text);
	}
	snprintf(text, sizeof text, " %s", hi);
	if (job_only(f)) {
		size_t n = strlen(text);

		snprintf(text + n, sizeof text - n, "  %s", _("greyed: outside the job"));
	}
	if (x < cols)
		emit(k, row, x, cols - x, ROLE_COUNT, -1, text);
}

/* The lines above the grids (they do not scroll): title, the layout's
 * note, the default-rule warning, the legend; no more than `max` rows,
 * dropping the warning, then the note. Returns the rows. */
static int
die_head(const struct die_sink *k, const struct ui_ctx *u, const struct ui_frame *f,
    enum die_fig fig, const struct die_scale *sc, int cols, int max)
{
	const struct die_layout *l = f->layout;
	const struct die_sink count = { NULL, NULL };
	char text[sizeof ((struct die_layout *)0)->basis_text + 96];
	const char *kind;
	int row = 0, nnote = 0, nassumed = 0, room;

	if (max < 1)
		return 0;
	if (l == NULL) {
		emit(k, row++, 0, cols, ROLE_LABEL, -1, _("Die grid"));
		if (row < max)
			emit(k, row++, 0, cols, ROLE_WARN, -1,
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
	emit(k, row++, 0, cols, ROLE_LABEL, -1, text);
	room = max - 2;                 /* title and legend */
	if (l->note[0] != '\0' && room > 0)
		nnote = wrap(&count, 0, cols, room < 3 ? room : 3, ROLE_WARN, l->note);
	if (l->cores_assumed && room - nnote > 0)
		nassumed = 1;
	if (nnote > 0)
		row += wrap(k, row, cols, nnote, ROLE_WARN, l->note);
	if (nassumed > 0)
		emit(k, row++, 0, cols, ROLE_WARN, -1,
		    _("cores placed by the default rule (k-th core at k-th enabled tile); "
		    "--die-map for measured places"));
	if (row < max)
		legend(k, u, f, fig, sc, row++, cols);
	return row;
}

/* The grids and what follows them, rows from 0; returns the rows. */
static int
die_body(const struct die_sink *k, const struct ui_ctx *u, const struct ui_frame *f,
    const struct die_geom *g, enum die_fig fig, const struct die_scale *sc, int cols)
{
	const struct die_layout *l = f->layout;
	unsigned gi;
	int row = 0;

	if (l == NULL)
		return 0;
	if (l->ngrids == 0) {
		emit(k, 0, 0, cols, ROLE_INVALID, -1, _("no grid for this machine"));
		return 1;
	}
	for (gi = 0; gi < l->ngrids; gi++) {
		const struct die_grid *d = &l->grids[gi];
		int band = (int)gi / g->per_band, j = (int)gi % g->per_band;
		int top = band * (g->band_h + 1), gw = grid_width(g);
		int x0 = j * (gw + GRID_GAP), r, c;

		if (x0 >= cols)
			continue;
		emit(k, top, x0, gw < cols - x0 ? gw : cols - x0, ROLE_LABEL, -1, d->title);
		for (r = 0; r < (int)d->rows; r++) {
			for (c = 0; c < (int)d->cols; c++) {
				struct cell_look o;
				int x = x0 + c * (g->cw + 1);
				int y = top + 1 + r * (g->ch + g->vgap);

				if (x >= cols)
					break;
				cell_look(&o, u, f, &d->cells[(size_t)r * d->cols + (size_t)c], fig, sc,
				    g->cw, g->ch);
				cell_draw(k, &o, y, x, g->cw < cols - x ? g->cw : cols - x, g->ch);
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
	if (heat >= 0)
		draw_heat_text(ds->u, ds->top + row - ds->first, a->left + x, width, heat, s);
	else
		draw_text(ds->u, ds->top + row - ds->first, a->left + x, width, r, s);
}

static void
die_draw(struct view *v, struct ui_ctx *u, const struct ui_area *a, const struct ui_frame *f)
{
	struct die_priv *p = &die_state;
	struct die_scale sc;
	struct die_geom g;
	struct die_sink count = { NULL, NULL };
	struct die_screen hs = { u, a, a->top, 0, a->rows };
	struct die_sink hk = { die_screen_text, &hs };
	struct die_screen bs;
	struct die_sink bk = { die_screen_text, &bs };
	int head, room, extra, visible;

	v->priv = p;
	if (a->rows < 3 || a->cols < 16) {
		draw_text(u, a->top, a->left, a->cols, ROLE_WARN, _("die grid: too small"));
		return;
	}
	p->split = frame_split(f);
	if (p->fig == DF_BOTH && !p->split)
		p->fig = DF_UTIL;
	die_scale_of(f, p->fig, &sc);
	/* A small area keeps its rows for the grids: title and legend only. */
	head = die_head(&hk, u, f, p->fig, &sc, a->cols, a->rows >= 12 ? a->rows - 2 : 2);
	room = a->rows - head;
	extra = f->layout != NULL ? unplaced_lines(&count, f, 0, a->cols) : 0;
	die_geom_pick(f->layout, a->cols, room, extra, &g);
	visible = room;
	if (!g.fits && visible > 1)
		visible--;          /* the last row says where the view is */
	p->page = visible;
	p->maxscroll = g.rows > visible ? g.rows - visible : 0;
	view_scroll_clamp(v, p->maxscroll);
	bs.u = u;
	bs.a = a;
	bs.top = a->top + head;
	bs.first = v->scroll;
	bs.visible = visible;
	die_body(&bk, u, f, &g, p->fig, &sc, a->cols);
	if (!g.fits && room > visible) {
		char more[96];

		snprintf(more, sizeof more, _("rows %d-%d of %d: Up, Down, PgUp, PgDn"),
		    v->scroll + 1, v->scroll + visible < g.rows ? v->scroll + visible : g.rows, g.rows);
		draw_text(u, a->top + a->rows - 1, a->left, a->cols, ROLE_LABEL, more);
	}
}

static bool
die_key(struct view *v, struct ui_ctx *u, int ch, struct ui_settings *s)
{
	struct die_priv *p = &die_state;

	(void)u;
	(void)s;
	if (ch == 'f' || ch == 'F') {
		p->fig = die_fig_next(p->fig, p->split, ch == 'f' ? 1 : -1);
		return true;
	}
	return view_scroll_key(v, ch, p->page, p->maxscroll);
}

struct view view_die = {
	.id = VIEW_DIE,
	.name = N_("Die"),
	.draw = die_draw,
	.key = die_key,
	.scroll = 0,
	.priv = &die_state,
};
