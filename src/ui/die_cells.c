/* die_cells.c: what one cell of the die grid shows. The figures the grid
 * can be coloured by and the heat scale over the cores shown come first;
 * then a cell's lines: a core's id and value in the longest forms that
 * fit, a tile's two cores side by side, labels for memory controllers,
 * IO and disabled tiles, greyed cores outside a watched job. Apart from
 * the geometry and from curses so the unit test can check each cell. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "machine/dielayout.h"
#include "plan/plan.h"
#include "ui/die_view.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "util/i18n.h"

const struct die_fig_desc die_figs[DF_COUNT] = {
	[DF_BOTH] = { N_("both threads active"), "%.0f", "%.0f", 100.0, "%", true },
	[DF_UTIL] = { N_("utilisation"), "%.0f", "%.0f", 100.0, "%", true },
	[DF_GHZ] = { N_("GHz"), "%.2f", "%.1f", 1.0, "", false },
	[DF_CPI] = { N_("CPI"), "%.2f", "%.1f", 1.0, "", false },
};

/* One line into the sink; a sink without text only counts. */
void
die_emit(const struct die_sink *k, int row, int x, int width, enum ui_role r, int heat,
    const char *s)
{
	if (k->text != NULL && width > 0)
		k->text(k->arg, row, x, width, r, heat, s);
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
enum die_fig
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

/* Can "both threads active" be had: two threads a core and a split? */
bool
die_frame_split(const struct ui_frame *f)
{
	return f->m != NULL && f->m->topo.max_smt == 2 && f->plan != NULL &&
	    f->plan->split != SPLIT_NONE;
}

/* Are the cores outside the watched job greyed (j)? */
bool
die_job_only(const struct ui_frame *f)
{
	return f->job != NULL && f->job->active && f->job->only && f->job->cpus != NULL;
}

/* Is core `ci` outside the watched job (and so greyed)? */
static bool
outside_job(const struct ui_frame *f, unsigned ci)
{
	const struct topo_core *tc = &f->m->topo.cores[ci];
	unsigned t;

	if (!die_job_only(f))
		return false;
	for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT; t++) {
		if (cpulist_has(f->job->cpus, tc->cpus[t]))
			return false;
	}
	return true;
}

/* Why a valid core has no value for the figure, as metrics says it for a
 * thread (metrics_thread_reason): the plan reads no such counter, the
 * base frequency is unknown, or the core was never active (no cycles, so
 * no GHz; no instructions, so no CPI). */
static enum reason
absent_reason(const struct ui_frame *f, enum die_fig fig)
{
	const struct plan *p = f->plan;

	switch (fig) {
	case DF_GHZ:
		if (p == NULL || plan_slot_index(p, SLOT_CYCLES) < 0 ||
		    plan_slot_index(p, SLOT_REF) < 0)
			return R_UNAVAILABLE;
		if (f->m->id.base_ratio == 0)
			return R_NO_BASE;
		return R_NOT_HALTED_ZERO;
	case DF_CPI:
		if (p == NULL || plan_slot_index(p, SLOT_INST) < 0 ||
		    plan_slot_index(p, SLOT_CYCLES) < 0)
			return R_UNAVAILABLE;
		return R_NO_INST;
	case DF_BOTH:
		return R_NO_SPLIT;
	default:
		return R_UNAVAILABLE;
	}
}

/* The figure of core `ci`, or NULL with the reason the core has none; an
 * absent value comes with its reason too. */
static const struct val *
core_val(const struct ui_frame *f, unsigned ci, enum die_fig fig, enum reason *why)
{
	const struct core_fig *c;
	const struct val *v;

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
		if (f->m->topo.cores[ci].nthreads != 2 || !die_frame_split(f)) {
			*why = R_NO_SPLIT;
			return NULL;
		}
		v = &c->both;
		break;
	case DF_GHZ: v = &c->ghz; break;
	case DF_CPI: v = &c->cpi; break;
	case DF_UTIL:
	default: v = &c->util; break;
	}
	/* Metrics says why when it knows (a stopped counter); else what
	 * the plan and the machine tell. */
	if (v->kind == V_NONE)
		*why = v->why != R_NONE ? v->why : absent_reason(f, fig);
	return v;
}

/* The scale: 0..1 for shares, else the smallest and largest value of the
 * cores shown. A bound counts by its low end, the part that is certain
 * ("at least this hot"): on machines without the exact split (AMD, Xeon
 * Phi) a core's utilisation is only a bound, and a grid that coloured
 * only exact values would stay blank there. Its cell says lo-hi and is
 * marked "?", and the legend says how bounds are coloured. */
void
die_scale_of(const struct ui_frame *f, enum die_fig fig, struct die_scale *sc)
{
	const struct die_layout *l = f->layout;
	unsigned ci;

	sc->lo = 0.0;
	sc->hi = 1.0;
	sc->any = false;
	sc->bounds = false;
	sc->absent = 0;
	if (l == NULL)
		return;
	for (ci = 0; ci < l->ncores && ci < f->m->topo.ncores; ci++) {
		enum reason why;
		const struct val *v;
		double x;

		if (!l->cores[ci].placed || outside_job(f, ci))
			continue;
		v = core_val(f, ci, fig, &why);
		if (v == NULL || (v->kind != V_EXACT && v->kind != V_BOUND)) {
			if (why != R_NONE && (unsigned)why < 32)
				sc->absent |= 1u << why;
			continue;
		}
		x = v->kind == V_EXACT ? v->v : v->lo;
		sc->bounds = sc->bounds || v->kind == V_BOUND;
		if (!die_figs[fig].share && !sc->any) {
			sc->lo = sc->hi = x;
		} else if (!die_figs[fig].share) {
			if (x < sc->lo)
				sc->lo = x;
			if (x > sc->hi)
				sc->hi = x;
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
	val_text(a, sizeof a, die_figs[fig].fmt, v, die_figs[fig].scale);
	if (v->kind == V_NONE || strcmp(a, "-") == 0) {
		/* "- never-active", as for a core without figures */
		join(out[0], "-", " ", metrics_reason_code(why != R_NONE ? why : R_UNAVAILABLE));
		snprintf(out[1], TEXT_MAX, "-");
		return 2;
	}
	join(out[0], a, "", die_figs[fig].unit);
	join(out[1], a, "", "");
	if (v->kind == V_BOUND) {
		/* Too narrow for both ends: the low end and "there is more",
		 * never a midpoint. */
		char lo[32];

		snprintf(lo, sizeof lo, die_figs[fig].fmt_short, v->lo * die_figs[fig].scale);
		join(out[2], lo, "", "+");
	} else {
		val_text(out[2], TEXT_MAX, die_figs[fig].fmt_short, v, die_figs[fig].scale);
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
		if (text_width(var[i]) <= w) {
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
		o->heat = die_figs[fig].share ? heat_step(v->lo) : die_heat(sc, v->lo);
	} else {
		o->role = ROLE_PLAIN;
		o->heat = die_figs[fig].share ? heat_step(v->v) : die_heat(sc, v->v);
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

/* Columns of the widest core id of the machine (cached by topology). */
static int
id_width(const struct topology *t)
{
	static const struct topology *seen;
	static unsigned seen_n;
	static int width;
	unsigned i, max = 0;
	char buf[16];

	if (t != seen || t->ncores != seen_n) {
		for (i = 0; i < t->ncores; i++)
			if (t->cores[i].core_id > max)
				max = t->cores[i].core_id;
		width = snprintf(buf, sizeof buf, "%u", max);
		seen = t;
		seen_n = t->ncores;
	}
	return width;
}

/* One line of `w` columns, the same choice in every cell of the grid: the
 * core's id (its number) when the widest id and a 4-column value ("100%")
 * fit beside each other, else no id in any cell; then the longest variant
 * of the value that fits ("77%" before "77"). Not an id here and a value
 * without its % there. */
static void
one_line(char *dst, const struct ui_frame *f, int w, char ids[3][TEXT_MAX],
    char var[][TEXT_MAX], int n)
{
	int idw = id_width(&f->m->topo), k;
	char val[TEXT_MAX], both[2 * TEXT_MAX + 8];

	/* "c27 100%", else "27 100%", else the value alone. */
	for (k = 1; k <= 2; k++) {
		int iw = idw + (k == 1 ? 1 : 0);

		if (w >= iw + 1 + 4) {
			pick(val, w - iw - 1, var, n);
			snprintf(both, sizeof both, "%s %s", ids[k], val);
			join(dst, both, "", "");
			return;
		}
	}
	pick(dst, w, var, n);
}

/* A cell that shows no core's figures (empty, a memory controller, IO,
 * a tile fused off, one with its CHA and L3 slice alone): its look, and
 * true; false for a tile with cores. */
static bool
coreless_look(struct cell_look *o, const struct die_cell *c, int w, int ch)
{
	char var[2][TEXT_MAX];

	switch (c->kind) {
	case DM_EMPTY:
		return true;
	case DM_MC:
		label_cell(o, ch, ROLE_LABEL, "MC");
		return true;
	case DM_IO:
		label_cell(o, ch, ROLE_LABEL, "IO");
		return true;
	case DM_TILE:
	default:
		break;
	}
	if (!c->enabled) {
		label_cell(o, ch, ROLE_INVALID, _("off"));
		return true;
	}
	if (c->ncores > 0)
		return false;
	/* CHA and L3 slice there, the core fused off. */
	join(var[0], _("LLC only"), "", "");
	join(var[1], "LLC", "", "");
	pick(o->line[(ch - 1) / 2], w, var, 2);
	o->role = ROLE_INVALID;
	return true;
}

/* The values of a tile's cores (n: 1 or 2) in var: one core's variants,
 * or both cores' side by side; their count. */
static int
cores_values(char var[6][TEXT_MAX], const struct core_look *k, int n)
{
	int j, m;

	if (n == 1) {
		for (j = 0; j < k[0].nval; j++)
			memcpy(var[j], k[0].val[j], TEXT_MAX);
		return k[0].nval;
	}
	m = k[0].nval < k[1].nval ? k[0].nval : k[1].nval;
	for (j = 0; j < m; j++) {
		join(var[2 * j], k[0].val[j], " ", k[1].val[j]);
		join(var[2 * j + 1], k[0].val[j], "/", k[1].val[j]);
	}
	return 2 * m;
}

void
die_cell_look(struct cell_look *o, const struct ui_ctx *u, const struct ui_frame *f,
    const struct die_cell *c, enum die_fig fig, const struct die_scale *sc, int cw, int ch)
{
	struct core_look k[DIE_CELL_MAX_CORES];
	char var[6][TEXT_MAX], ids[3][TEXT_MAX];
	int w = cw - 1, i, n, best;
	unsigned ci;

	memset(o, 0, sizeof *o);
	o->role = ROLE_PLAIN;
	o->heat = -1;
	o->mark = o->mark0 = " ";
	if (coreless_look(o, c, w, ch))
		return;
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
	o->mark0 = k[best].bound ? "?" : o->mark;

	n = cores_values(var, k, n);
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
	one_line(o->line[0], f, w, ids, var, n);
}

/* Draw one cell at (row, x): every line the full width, so a heat colour
 * makes one block. */
void
die_cell_draw(const struct die_sink *k, const struct cell_look *o, int row, int x, int cw, int ch)
{
	char text[TEXT_MAX];
	int i;

	/* A heat glyph runs down the whole mark column, but a bound's "?"
	 * takes the first line. */
	for (i = 0; i < ch && i < CELL_LINES; i++) {
		join(text, i == 0 ? o->mark0 : o->heat >= 0 ? o->mark : " ", "", o->line[i]);
		die_emit(k, row + i, x, cw, o->role, o->heat, text);
	}
}
