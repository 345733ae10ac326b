/* view_cores.c: one row per physical core, grouped by package: the split
 * bar and the figures. The row format and the number of columns of rows
 * follow the room there is, so a 68-core Xeon Phi or two 56-core Sapphire
 * Rapids fit 200 x 60 without scrolling; when nothing fits the rows
 * scroll. Cores of a machine without two threads per core show their
 * utilisation and mean active threads instead of the split. With a
 * watched job whose tasks the source tells apart (sched), each row ends in
 * the job's own split of the core, a legend at the foot says what its
 * columns mean; with a job where they cannot be, the foot says why. The
 * columns whose figure the source never gives (the figures table says
 * which, from the plan: no CPI or GHz without counters) are left out at
 * every width, a narrow row keeping a figure with values in their place,
 * and a line at the foot says which and why. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/figures.h"
#include "ui/cores.h"
#include "ui/flow.h"
#include "ui/header.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "util/i18n.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

/* The figures table's row of each column (metrics/figures.h): where its
 * value is at the core and package levels, and what it needs of the
 * plan. */
static const char *const col_names[CC_COUNT] = {
	[CC_BOTH] = "both", [CC_T0] = "t0_only", [CC_T1] = "t1_only", [CC_NEITHER] = "neither",
	[CC_UTIL] = "util", [CC_THR] = "active_threads", [CC_CPI] = "cpi", [CC_GHZ] = "ghz",
	[CC_JBOTH] = "job_both", [CC_JALONE] = "job_alone", [CC_JSHARED] = "job_shared",
	[CC_JNONE] = "job_none",
};

struct col {
	enum cores_col fig;
	int width;              /* including the blank before the number */
	const char *fmt;
	double scale;
	const char *label;
};

#define ID_W 5              /* "  27 " */
#define CPUS_W 10           /* "0,56     " */
#define EDGES_W 2
#define STATUS_W 10         /* " fallback" */
#define MAX_COLS 8
#define MAX_FIGS 12         /* a format's columns and the job's */

static const struct col full_split[] = {
	{ CC_BOTH, 9, "%.0f", 100.0, N_("both%") },
	{ CC_T0, 9, "%.0f", 100.0, N_("t0%") },
	{ CC_T1, 9, "%.0f", 100.0, N_("t1%") },
	{ CC_NEITHER, 9, "%.0f", 100.0, N_("neither%") },
	{ CC_THR, 10, "%.2f", 1.0, N_("thr") },
	{ CC_CPI, 10, "%.2f", 1.0, N_("CPI") },
	{ CC_GHZ, 6, "%.2f", 1.0, N_("GHz") },
};
static const struct col medium_split[] = {
	{ CC_BOTH, 7, "%.0f", 100.0, N_("both%") },
	{ CC_UTIL, 7, "%.0f", 100.0, N_("util%") },
	{ CC_THR, 10, "%.2f", 1.0, N_("thr") },
	{ CC_CPI, 10, "%.2f", 1.0, N_("CPI") },
	{ CC_GHZ, 6, "%.2f", 1.0, N_("GHz") },
};
/* Both, then GHz: of the figures after both, the two that say most of
 * a core at a glance. A source that gives no GHz (cores_unread) shows
 * util% in its place (the two first the source fills: most below). */
static const struct col compact_split[] = {
	{ CC_BOTH, 7, "%.0f", 100.0, N_("both%") },
	{ CC_GHZ, 5, "%.1f", 1.0, N_("GHz") },
	{ CC_UTIL, 7, "%.0f", 100.0, N_("util%") },
};
static const struct col full_nosplit[] = {
	{ CC_UTIL, 11, "%.1f", 100.0, N_("util%") },
	{ CC_THR, 10, "%.2f", 1.0, N_("thr") },
	{ CC_CPI, 10, "%.2f", 1.0, N_("CPI") },
	{ CC_GHZ, 6, "%.2f", 1.0, N_("GHz") },
};
static const struct col medium_nosplit[] = {
	{ CC_UTIL, 7, "%.0f", 100.0, N_("util%") },
	{ CC_THR, 10, "%.2f", 1.0, N_("thr") },
	{ CC_CPI, 10, "%.2f", 1.0, N_("CPI") },
	{ CC_GHZ, 6, "%.2f", 1.0, N_("GHz") },
};
static const struct col compact_nosplit[] = {
	{ CC_UTIL, 7, "%.0f", 100.0, N_("util%") },
	{ CC_THR, 8, "%.1f", 1.0, N_("thr") },
};

/* The watched job's own split of each core (--source sched with a job on
 * a machine with the split: its tasks told apart), after a format's
 * columns in every format (a blank and room for the sort mark beside
 * each head); the view's legend says what they are. */
static const struct col job_cols[] = {
	{ CC_JBOTH, 8, "%.0f", 100.0, N_("jboth%") },
	{ CC_JALONE, 9, "%.0f", 100.0, N_("jalone%") },
	{ CC_JSHARED, 10, "%.0f", 100.0, N_("jshared%") },
	{ CC_JNONE, 8, "%.0f", 100.0, N_("jnone%") },
};

#define NCOLS(a) ((int)(sizeof (a) / sizeof (a)[0]))

/* A format's columns, in the order shown, and how many at most: the
 * first `most` of them the source fills (0: all it fills). */
struct fmt_cols {
	const struct col *c;
	int n, most;
};

static const struct fmt_cols *
fmt_cols(enum core_fmt f, bool split)
{
	static const struct fmt_cols t[CF_COUNT][2] = {
		[CF_FULL] = { { full_nosplit, NCOLS(full_nosplit), 0 },
		    { full_split, NCOLS(full_split), 0 } },
		[CF_MEDIUM] = { { medium_nosplit, NCOLS(medium_nosplit), 0 },
		    { medium_split, NCOLS(medium_split), 0 } },
		[CF_COMPACT] = { { compact_nosplit, NCOLS(compact_nosplit), 2 },
		    { compact_split, NCOLS(compact_split), 2 } },
	};

	return &t[f][split];
}

/* A row's figure columns: the format's that the source fills (none in
 * `unread`), then the job's when shown. */
static int
row_cols(enum core_fmt f, bool split, bool job, unsigned unread, struct col out[MAX_FIGS])
{
	const struct fmt_cols *fc = fmt_cols(f, split);
	int i, shown = 0, k = 0;

	for (i = 0; i < fc->n && k < MAX_FIGS && (fc->most == 0 || shown < fc->most); i++) {
		if (unread & CC_BIT(fc->c[i].fig))
			continue;
		out[k++] = fc->c[i];
		shown++;
	}
	for (i = 0; job && i < NCOLS(job_cols) && k < MAX_FIGS; i++)
		if (!(unread & CC_BIT(job_cols[i].fig)))
			out[k++] = job_cols[i];
	return k;
}

/* The figures table's row of a column. */
static const struct figure *
col_fig(enum cores_col g)
{
	static const struct figure *rows[CC_COUNT];
	static bool made;
	int i;

	if (!made) {
		for (i = 0; i < CC_COUNT; i++)
			rows[i] = figure_named(col_names[i]);
		made = true;
	}
	return rows[g];
}

unsigned
cores_unread(const struct plan *p)
{
	unsigned unread = 0;
	int i;

	for (i = 0; i < CC_COUNT; i++)
		if (!figure_read(col_fig((enum cores_col)i), p))
			unread |= CC_BIT(i);
	return unread;
}

int
cores_fmt_fixed(enum core_fmt f, bool split, bool job, unsigned unread)
{
	struct col c[MAX_FIGS];
	int n, i, w = ID_W + EDGES_W;

	n = row_cols(f, split, job, unread, c);
	for (i = 0; i < n; i++)
		w += c[i].width;
	if (f == CF_FULL)
		w += CPUS_W + STATUS_W;
	return w;
}

int
cores_fmt_minbar(enum core_fmt f)
{
	static const int minbar[CF_COUNT] = { 20, 12, 8 };

	return minbar[f];
}

void
cores_layout(int width, int height, const unsigned *pkgcores, unsigned npkg, bool split,
    bool job, unsigned unread, struct cores_layout *l)
{
	int room = height - 1;         /* below the column heads */
	int k, best = 0, best_rows = 0;
	int compact_min = cores_fmt_fixed(CF_COMPACT, split, job, unread) +
	    cores_fmt_minbar(CF_COMPACT);
	enum core_fmt f;

	memset(l, 0, sizeof *l);
	for (k = 1; k <= MAX_COLS; k++) {
		int colw = (width + CORES_GAP) / k - CORES_GAP, rows = 0;
		unsigned p;

		if (colw < compact_min && k > 1)
			break;
		for (p = 0; p < npkg; p++)
			rows += 1 + (int)((pkgcores[p] + (unsigned)k - 1) / (unsigned)k);
		best = k;
		best_rows = rows;
		if (rows <= room)
			break;
	}
	l->ncols = best;
	l->rows = best_rows;
	l->fits = best_rows <= room;
	l->colw = (width + CORES_GAP) / best - CORES_GAP;
	for (f = CF_FULL; f < CF_COMPACT; f++) {
		if (l->colw >= cores_fmt_fixed(f, split, job, unread) + cores_fmt_minbar(f))
			break;
	}
	l->fmt = f;
	l->bar = l->colw - cores_fmt_fixed(f, split, job, unread);
	if (l->bar > CORES_BAR_MAX)
		l->bar = CORES_BAR_MAX;
	if (l->bar < 1)
		l->bar = 1;
}

/* The view: the cores shown, by package, kept between frames (allocated
 * when the machine's core count is first seen). */
struct cores_view {
	struct view v;
	unsigned cap;
	unsigned *order;        /* core indices shown, package after package */
	unsigned npkg;
	unsigned *pkgn;         /* cores shown per package */
	unsigned *pkgidx;       /* the package's index in iv->packages */
	unsigned *pkgphys;      /* its physical id */
	/* s and S: the rows of each package sorted by a column shown (sort <
	 * 0: the core id, the default), a figure highest first; desc
	 * reverses. fmt, split and job: the columns of the last frame,
	 * which s goes through. */
	int sort;
	bool desc;
	enum core_fmt fmt;
	bool split, job;
	struct core_key *keys;  /* cap: the sort's scratch, allocated once */
	/* The columns the source never fills (cores_unread) and why each,
	 * made again only for another plan (a node's, Enter in the Nodes
	 * view). */
	unsigned unread;
	enum reason unread_why[CC_COUNT];
	bool unread_made;
	const struct plan *unread_plan;
	unsigned unread_nslots;
	enum plan_basis unread_basis;
	/* Their foot line (unread_legend), made once per plan and split. */
	char unread_text[512];
	bool unread_has, unread_text_made, unread_text_split;
};

static void
unread_of(struct cores_view *p, const struct plan *plan)
{
	int i;

	p->unread = cores_unread(plan);
	for (i = 0; i < CC_COUNT; i++)
		p->unread_why[i] = figure_unread_why(col_fig((enum cores_col)i), plan);
	p->unread_plan = plan;
	p->unread_nslots = plan != NULL ? plan->nslots : 0;
	p->unread_basis = plan != NULL ? plan->basis : PLAN_BASIS_COUNTERS;
	p->unread_made = true;
	p->unread_text_made = false;
}

/* A column's head (untranslated) as one of two formats has it. */
static const char *
label_of(enum cores_col c, const struct fmt_cols *x, const struct fmt_cols *y)
{
	int i;

	for (i = 0; i < x->n; i++)
		if (x->c[i].fig == c)
			return x->c[i].label;
	for (i = 0; i < y->n; i++)
		if (y->c[i].fig == c)
			return y->c[i].label;
	return "";
}

/* The columns a row would show at some width (the full and medium
 * formats') that the source never fills, in `text`: their heads and why,
 * grouped by the reason ("CPI, GHz (the source counts no instructions or
 * cycles)"); said once at the foot, not a column of dashes (the job's
 * columns have their own legend). False: none left out. */
static bool
unread_legend(const struct cores_view *p, bool split, char *text, size_t len)
{
	const struct fmt_cols *fc[2] = { fmt_cols(CF_FULL, split), fmt_cols(CF_MEDIUM, split) };
	enum cores_col cols[CC_COUNT];
	unsigned seen = 0, done = 0;
	int n = 0, i, k, g;
	size_t used = 0;

	text[0] = '\0';
	for (k = 0; k < 2; k++)
		for (i = 0; i < fc[k]->n; i++) {
			enum cores_col c = fc[k]->c[i].fig;

			if ((p->unread & CC_BIT(c)) && !(seen & CC_BIT(c)) && n < CC_COUNT) {
				seen |= CC_BIT(c);
				cols[n++] = c;
			}
		}
	for (i = 0; i < n; i++) {
		char heads[96];
		size_t hl = 0;

		if (done & CC_BIT(cols[i]))
			continue;
		heads[0] = '\0';
		for (g = i; g < n; g++) {
			if (p->unread_why[cols[g]] != p->unread_why[cols[i]])
				continue;
			done |= CC_BIT(cols[g]);
			hl += (size_t)snprintf(heads + hl, hl < sizeof heads ? sizeof heads - hl : 0,
			    "%s%s", hl > 0 ? ", " : "", _(label_of(cols[g], fc[0], fc[1])));
			if (hl >= sizeof heads)
				hl = sizeof heads - 1;
		}
		if (used > 0 && used + 2 < len)
			used += (size_t)snprintf(text + used, len - used, "; ");
		if (used + 1 >= len)
			break;
		/* TRANSLATORS: the Cores view's columns a source never fills,
		 * then why: "CPI, GHz (the source counts no instructions or
		 * cycles)". */
		used += (size_t)snprintf(text + used, len - used, _("%s (%s)"), heads,
		    _(metrics_reason_text(p->unread_why[cols[i]])));
		if (used >= len)
			used = len - 1;
	}
	return n > 0;
}

/* One row to sort: its value (a bound by its middle), whether it has one
 * (rows without go last either way), and its place in core-id order. */
struct core_key {
	double v;
	bool has;
	unsigned pos, ci;
};

static const struct val *
core_val(const struct core_fig *c, enum cores_col g)
{
	return fig_val(col_fig(g), FIG_CORE, c);
}

static const struct val *
pkg_val(const struct agg_fig *a, enum cores_col g)
{
	return fig_val(col_fig(g), FIG_AGG, a);
}

/* The both share's number in the both colour, like the legend: it changes
 * with the end of the bar's both run, and one colour for both spares the
 * terminal a colour change per changed core (syn1024 at 160 x 50: 0.29 ->
 * 0.15 of a full repaint). The other shares stay plain: more colour
 * changes than they save where t0% and t1% sit side by side (the demo's
 * full rows: 0.239 coloured, 0.226 plain). */
static enum ui_role
fig_role(enum cores_col g)
{
	return g == CC_BOTH ? ROLE_BOTH : ROLE_PLAIN;
}

static int
key_cmp(const void *pa, const void *pb)
{
	const struct core_key *a = pa, *b = pb;

	if (a->has != b->has)
		return a->has ? -1 : 1;
	if (a->has && a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Each package's rows in p->order sorted as s and S chose; core-id order
 * (the topology's) when p->sort < 0. A figure sorts highest first. */
static void
sort_rows(struct cores_view *p, const struct interval *iv)
{
	unsigned pk, j, base = 0, n;
	bool high = p->sort >= 0 ? !p->desc : p->desc;

	if (p->sort < 0 && !p->desc)
		return;
	for (pk = 0; pk < p->npkg; pk++, base += n) {
		n = p->pkgn[pk];
		for (j = 0; j < n; j++) {
			struct core_key *k = &p->keys[j];
			const struct val *v = p->sort < 0 ? NULL :
			    core_val(&iv->cores[p->order[base + j]], (enum cores_col)p->sort);

			k->ci = p->order[base + j];
			k->pos = j;
			k->has = v == NULL || (v->kind != V_NONE &&
			    iv->cores[k->ci].reason == R_NONE);
			k->v = v == NULL ? (double)j : v->kind == V_BOUND ? (v->lo + v->hi) / 2.0 : v->v;
			/* Highest first: the values negated, ties kept in id order. */
			if (high)
				k->v = -k->v;
		}
		qsort(p->keys, n, sizeof *p->keys, key_cmp);
		for (j = 0; j < n; j++)
			p->order[base + j] = p->keys[j].ci;
	}
}

/* The sort column's mark: down for highest first, as the Threads view's;
 * none for the core ids in order (the default). */
static const char *
sort_mark(const struct cores_view *p, bool utf8)
{
	bool high = p->sort >= 0 ? !p->desc : p->desc;

	if (p->sort < 0 && !p->desc)
		return NULL;
	return utf8 ? (high ? "\u25bc" : "\u25b2") : (high ? "v" : "^");
}

/* "util 77.5%" as a field of the package's line. */
static void
package_fig(struct flow *fl, int prio, const char *label, const char *value)
{
	flow_field(fl, prio);
	if (label != NULL) {
		flow_put(fl, ROLE_LABEL, label);
		flow_put(fl, ROLE_PLAIN, " ");
	}
	flow_put(fl, ROLE_PLAIN, value);
}

static bool
job_has_core(const struct job_view *j, const struct topo_core *tc)
{
	unsigned t;

	for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT; t++) {
		if (cpulist_has(j->cpus, tc->cpus[t]))
			return true;
	}
	return false;
}

/* Which cores to show, grouped by package in topology order. */
static void
collect(struct cores_view *p, const struct ui_frame *f)
{
	const struct topology *t = &f->m->topo;
	const struct interval *iv = f->iv;
	const struct job_view *j = f->job;
	bool only = j != NULL && j->active && j->only && j->cpus != NULL;
	unsigned i, n = 0, pkg = 0;
	bool first = true;
	unsigned last_pkg = 0;

	if (p->cap < t->ncores + 1) {
		free(p->order);
		free(p->pkgn);
		free(p->pkgidx);
		free(p->pkgphys);
		free(p->keys);
		p->cap = t->ncores + 1;
		p->keys = xcalloc(p->cap, sizeof *p->keys);
		p->order = xcalloc(p->cap, sizeof *p->order);
		p->pkgn = xcalloc(p->cap, sizeof *p->pkgn);
		p->pkgidx = xcalloc(p->cap, sizeof *p->pkgidx);
		p->pkgphys = xcalloc(p->cap, sizeof *p->pkgphys);
	}
	p->npkg = 0;
	for (i = 0; i < t->ncores && i < iv->ncores; i++) {
		const struct topo_core *tc = &t->cores[i];
		const struct core_fig *c = &iv->cores[i];

		/* Cores are ordered by package: a new package starts a group. */
		if (first || tc->package != last_pkg) {
			if (!first)
				pkg++;
			first = false;
			last_pkg = tc->package;
		}
		if (!c->selected || c->reason == R_NOT_SELECTED)
			continue;
		if (only && !job_has_core(j, tc))
			continue;
		if (p->npkg == 0 || p->pkgidx[p->npkg - 1] != pkg) {
			p->pkgidx[p->npkg] = pkg;
			p->pkgphys[p->npkg] = tc->package;
			p->pkgn[p->npkg] = 0;
			p->npkg++;
		}
		p->pkgn[p->npkg - 1]++;
		p->order[n++] = i;
	}
	sort_rows(p, iv);
}

static bool
machine_split(const struct ui_frame *f)
{
	return f->m->topo.max_smt == 2 && f->plan != NULL && f->plan->split != SPLIT_NONE;
}

/* The bar's head: "split (both|t0|t1)", or its first word when that is
 * too long, or nothing; "utilisation" on a machine without the split. */
static void
bar_head(struct ui_ctx *u, int y, int x, int width, bool split)
{
	const char *label = split ? _("split (both|t0|t1)") : _("utilisation");
	char text[96];
	size_t n = strcspn(label, " ");

	if (text_width(label) <= width)
		snprintf(text, sizeof text, "%s", label);
	else if ((int)n <= width && label[n] != '\0')
		snprintf(text, sizeof text, "%.*s", (int)n, label);
	else
		text[0] = '\0';
	draw_text(u, y, x, width, ROLE_LABEL, text);
}

/* A head right-aligned in its width with the sort mark after it when the
 * rows are sorted by it; empty when it does not fit (never a cut word). */
static void
head_text(char *text, size_t len, const char *label, int width, const char *mark)
{
	int lw = text_width(label) + (mark != NULL ? 1 : 0);

	if (lw < width)
		snprintf(text, len, "%*s%s", width - (mark != NULL ? 1 : 0), label,
		    mark != NULL ? mark : "");
	else
		text[0] = '\0';
}

static void
draw_heads(struct ui_ctx *u, int y, const struct ui_area *a, const struct cores_layout *l,
    bool split, bool job, unsigned unread, const char *note, int sort, const char *mark)
{
	struct col cols[MAX_FIGS];
	int n, k, i, x;

	n = row_cols(l->fmt, split, job, unread, cols);
	draw_text(u, y, a->left, a->cols, ROLE_LABEL, "");
	for (k = 0; k < l->ncols; k++) {
		char text[32];

		x = a->left + k * (l->colw + CORES_GAP);
		if (x + l->colw > a->left + a->cols)
			break;
		/* Left-aligned as the ids below are read: the head, then blanks. */
		snprintf(text, sizeof text, "%s%s", _("core"), sort < 0 && mark != NULL ? mark : "");
		draw_text(u, y, x, ID_W, ROLE_LABEL, text);
		x += ID_W;
		if (l->fmt == CF_FULL) {
			/* After "core" and its mark, a blank: the next head one on. */
			if (sort < 0 && mark != NULL)
				draw_text(u, y, x + 1, CPUS_W - 1, ROLE_LABEL, _("cpus"));
			else
				draw_text(u, y, x, CPUS_W, ROLE_LABEL, _("cpus"));
			x += CPUS_W;
		}
		if (sort < 0 && mark != NULL && l->fmt != CF_FULL)
			bar_head(u, y, x + 1, l->bar + EDGES_W - 1, split);
		else
			bar_head(u, y, x, l->bar + EDGES_W, split);
		x += l->bar + EDGES_W;
		for (i = 0; i < n; i++) {
			/* Right-aligned with a blank before it, or none: never a
			 * cut word. */
			head_text(text, sizeof text, _(cols[i].label), cols[i].width,
			    (int)cols[i].fig == sort ? mark : NULL);
			draw_text(u, y, x, cols[i].width, ROLE_LABEL, text);
			x += cols[i].width;
		}
		if (l->fmt == CF_FULL)
			draw_text(u, y, x, STATUS_W, ROLE_LABEL, _(" status"));
	}
	if (note != NULL && note[0] != '\0') {
		int len = (int)strlen(note);
		int nx = a->left + a->cols - len;
		int used = a->left + l->ncols * (l->colw + CORES_GAP);

		if (l->ncols == 1)
			used = a->left + ID_W + (l->fmt == CF_FULL ? CPUS_W + STATUS_W : 0) +
			    cores_fmt_fixed(l->fmt, split, job, unread) + l->bar - ID_W;
		if (nx > used)
			draw_text(u, y, nx, len, ROLE_WARN, note);
	}
}

/* The four shares of an exact split as whole percent that add up to 100
 * (numfmt_round_shares), in the columns' order (both, t0, t1, neither);
 * false when one is not exact (a bound prints its ends as they are). */
static bool
shares_rounded(const struct val *const v[4], struct val out[4])
{
	double x[4];
	long r[4];
	int k;

	for (k = 0; k < 4; k++) {
		if (v[k]->kind != V_EXACT)
			return false;
		x[k] = v[k]->v;
	}
	numfmt_round_shares(x, 4, 100, r);
	for (k = 0; k < 4; k++)
		out[k] = val_exact((double)r[k] / 100.0);
	return true;
}

/* A figure of the row: a share of the split (full rows) or of the job's
 * split as the rounded shares that add up to 100, else as it is. */
static const struct val *
row_val(const struct core_fig *c, enum cores_col g, const struct val sh[4], bool rounded,
    const struct val jsh[4], bool jrounded)
{
	if (rounded && g <= CC_NEITHER)
		return &sh[g];
	if (jrounded && g >= CC_JBOTH)
		return &jsh[g - CC_JBOTH];
	return core_val(c, g);
}

static void
draw_core(struct ui_ctx *u, int y, int x, const struct cores_layout *l, bool split, bool job,
    unsigned unread, const struct topo_core *tc, const struct core_fig *c)
{
	const struct val *const sv[4] = { &c->both, &c->t0_only, &c->t1_only, &c->neither };
	const struct val *const jv[4] = { &c->job_both, &c->job_alone, &c->job_shared,
	    &c->job_none };
	struct val sh[4], jsh[4];
	bool rounded, jrounded;
	struct col cols[MAX_FIGS];
	char text[64];
	int n, i, len = 0;
	unsigned t;
	bool two = tc->nthreads == 2 && split;

	n = row_cols(l->fmt, split, job, unread, cols);
	snprintf(text, sizeof text, "%4u ", tc->core_id);
	draw_text(u, y, x, ID_W, c->reason != R_NONE ? ROLE_INVALID : ROLE_PLAIN, text);
	x += ID_W;
	if (l->fmt == CF_FULL) {
		text[0] = '\0';
		for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT && len < (int)sizeof text; t++)
			len += snprintf(text + len, sizeof text - (size_t)len, "%s%u", t ? "," : "",
			    tc->cpus[t]);
		if (len > CPUS_W - 1)
			snprintf(text + CPUS_W - 2, sizeof text - (size_t)(CPUS_W - 2), "+");
		draw_text(u, y, x, CPUS_W, c->reason != R_NONE ? ROLE_INVALID : ROLE_PLAIN, text);
		x += CPUS_W;
	}
	if (c->reason != R_NONE) {
		/* No numbers for a core without figures: only why. */
		int w = cores_fmt_fixed(l->fmt, split, job, unread) - ID_W -
		    (l->fmt == CF_FULL ? CPUS_W : 0) + l->bar - 1;

		draw_text(u, y, x, 1, ROLE_PLAIN, "");
		draw_words(u, y, x + 1, w, ROLE_INVALID, _(metrics_reason_text(c->reason)));
		return;
	}
	draw_bar_edges(u, y, x + 1, l->bar);
	if (two)
		draw_split_bar(u, y, x + 1, l->bar, &c->both, &c->t0_only, &c->t1_only);
	else
		draw_value_bar(u, y, x + 1, l->bar, &c->util, ROLE_UTIL);
	x += l->bar + EDGES_W;
	rounded = two && l->fmt == CF_FULL && shares_rounded(sv, sh);
	jrounded = job && shares_rounded(jv, jsh);
	for (i = 0; i < n; i++) {
		const struct val *v = row_val(c, cols[i].fig, sh, rounded, jsh, jrounded);

		draw_val(u, y, x, cols[i].width, fig_role(cols[i].fig), cols[i].fmt, v, cols[i].scale);
		x += cols[i].width;
	}
	if (l->fmt == CF_FULL) {
		const char *st = !two ? (split ? _(" no split") : "") : c->fallback != R_NONE ? _(" fallback") :
		    c->exact ? "" : _(" bound");

		draw_text(u, y, x, STATUS_W, c->fallback != R_NONE ? ROLE_WARN : ROLE_PLAIN, st);
	}
}

/* A package's line: its cores and the package's figures, whole fields
 * only (flow.h): the shares go last, the CPI, GHz and thr first; CPI and
 * GHz not at all where the source never gives them (`unread`). */
static void
draw_package(struct ui_ctx *u, int y, const struct ui_area *a, const struct ui_frame *f,
    unsigned order_pkg, unsigned pkgid, unsigned ncores, bool split, unsigned unread)
{
	const struct interval *iv = f->iv;
	const struct agg_fig *g = order_pkg < iv->npackages ? &iv->packages[order_pkg] : NULL;
	const struct job_view *j = f->job;
	struct agg_fig job;
	static const enum cores_col sfigs[] = { CC_BOTH, CC_T0, CC_T1, CC_NEITHER };
	static const enum ui_role sroles[] = { ROLE_BOTH, ROLE_T0, ROLE_T1, ROLE_NEITHER };
	static const char *const snames[] = { N_("both"), N_("t0"), N_("t1"), N_("neither") };
	struct flow fl;
	char text[160], num[40];
	int i;

	/* Only the job's cores are shown: the line is theirs too. */
	if (j != NULL && j->active && j->only && j->cpus != NULL && g != NULL) {
		metrics_aggregate_subset_package(iv, &f->m->topo, j->cpus, pkgid, &job);
		g = &job;
	}
	flow_init(&fl);
	flow_field(&fl, FLOW_KEEP);
	snprintf(text, sizeof text, ngettext("package %u, %u core", "package %u, %u cores",
	    ncores), pkgid, ncores);
	flow_put(&fl, ROLE_LABEL, text);
	if (g != NULL) {
		for (i = 0; split && i < 4; i++)
			header_share(&fl, u, 1, sroles[i], _(snames[i]), pkg_val(g, sfigs[i]));
		val_text(num, sizeof num, "%.1f", &g->util, 100.0);
		snprintf(text, sizeof text, "%s%s", num, g->util.kind == V_NONE ? "" : "%");
		package_fig(&fl, 2, _("util"), text);
		val_text(num, sizeof num, "%.2f", &g->active_threads, 1.0);
		package_fig(&fl, 3, _("thr"), num);
		/* What the rows leave out, the line leaves out too. */
		if (!(unread & CC_BIT(CC_GHZ))) {
			val_text(num, sizeof num, "%.2f", &g->ghz, 1.0);
			snprintf(text, sizeof text, _("%s GHz"), num);
			package_fig(&fl, 3, NULL, text);
		}
		if (!(unread & CC_BIT(CC_CPI))) {
			val_text(num, sizeof num, "%.2f", &g->cpi, 1.0);
			package_fig(&fl, 3, _("CPI"), num);
		}
	}
	draw_text(u, y, a->left, a->cols, ROLE_PLAIN, "");
	flow_layout(&fl, a->cols, 1);
	flow_draw(&fl, u, y, a->left);
}

/* With a watched job: whether its own split is shown per core (the plan
 * tells its tasks apart, --source sched with a job, on a machine with the
 * split), and in `text` the legend of those columns, or why they are not
 * there: said once, not a dash per row. No job: false and no text. */
static bool
job_legend(const struct ui_frame *f, bool split, const char **label, char *text, size_t len)
{
	text[0] = '\0';
	*label = _("the job's own split:");
	if (f->job == NULL || !f->job->active)
		return false;
	if (f->plan == NULL || plan_slot_index(f->plan, SLOT_JOB) < 0) {
		snprintf(text, len, _("none here: %s"), _(metrics_reason_text(R_NO_JOB)));
		return false;
	}
	if (!split) {
		snprintf(text, len, _("none here: %s (the job's share of each CPU: job%% in the "
		    "Threads view)"), _(metrics_reason_text(R_NO_SPLIT)));
		return false;
	}
	*label = _("job:");
	snprintf(text, len, _("jboth%% both threads ran its tasks, jalone%% one did, its "
	    "sibling idle, jshared%% one did while the sibling ran another task (shared: the SMT "
	    "interference), jnone%% neither did"));
	return true;
}

/* The legend's rows at the foot of the area, at most 3; the rows it took
 * (none when the area is too small for it and two rows of cores). */
static int
draw_legend(struct ui_ctx *u, const struct ui_area *a, const char *label, const char *text,
    bool shown)
{
	struct flow fl;
	int used;

	if (text[0] == '\0' || a->rows < 6)
		return 0;
	flow_init(&fl);
	flow_field(&fl, FLOW_KEEP);
	flow_put(&fl, ROLE_LABEL, label);
	flow_words(&fl, 1, shown ? ROLE_PLAIN : ROLE_INVALID, text);
	used = flow_layout(&fl, a->cols, 3);
	if (used <= 0)
		return 0;
	flow_draw(&fl, u, a->top + a->rows - used, a->left);
	return used;
}

/* The columns the source never fills are worked out again only for
 * another plan (a replay's, a restart's). */
static bool
unread_stale(const struct cores_view *p, const struct plan *plan)
{
	return !p->unread_made || plan != p->unread_plan ||
	    (plan != NULL && (plan->nslots != p->unread_nslots ||
	    plan->basis != p->unread_basis));
}

/* The heads' note: how many shown cores are on the fallback bound, or
 * that the split is a bound (lo-hi); "" when every core is exact. */
static void
bounds_note(const struct cores_view *p, const struct interval *iv, bool split, char *note,
    size_t size)
{
	unsigned pk, j, n = 0, nbound = 0, nfall = 0;

	for (pk = 0; pk < p->npkg; pk++)
		n += p->pkgn[pk];
	for (j = 0; j < n; j++) {
		const struct core_fig *c = &iv->cores[p->order[j]];

		if (c->reason == R_NONE && !c->exact && split)
			nbound++;
		if (c->reason == R_NONE && c->fallback != R_NONE)
			nfall++;
	}
	note[0] = '\0';
	if (nfall > 0)
		snprintf(note, size, ngettext("%u core on the fallback bound ",
		    "%u cores on the fallback bound ", nfall), nfall);
	else if (nbound > 0)
		snprintf(note, size, _("bounds: lo-hi "));
}

static void
cores_draw(struct view *v, struct ui_ctx *u, const struct ui_area *area, const struct ui_frame *f)
{
	struct cores_view *p = (struct cores_view *)v;
	const struct topology *t = &f->m->topo;
	const struct interval *iv = f->iv;
	struct cores_layout l;
	struct ui_area below = *area;
	const struct ui_area *a = &below;
	bool split = machine_split(f), job;
	unsigned pk, j, base = 0;
	int row = 0, visible, y;
	char note[96], legend[512];
	const char *label;

	if (area->rows < 2 || area->cols < 10)
		return;
	if (unread_stale(p, f->plan))
		unread_of(p, f->plan);
	if (!p->unread_text_made || p->unread_text_split != split) {
		p->unread_has = unread_legend(p, split, p->unread_text, sizeof p->unread_text);
		p->unread_text_split = split;
		p->unread_text_made = true;
	}
	job = job_legend(f, split, &label, legend, sizeof legend);
	below.rows -= draw_legend(u, area, label, legend, job);
	if (p->unread_has)
		below.rows -= draw_legend(u, &below, _("not shown:"), p->unread_text, false);
	collect(p, f);
	cores_layout(a->cols, a->rows, p->pkgn, p->npkg, split, job, p->unread, &l);
	visible = a->rows - 1;
	if (!l.fits && visible > 2)
		visible--;          /* the last row says where the view is */
	view_scroll_set(v, visible, l.rows - visible);

	bounds_note(p, iv, split, note, sizeof note);
	p->fmt = l.fmt;
	p->split = split;
	p->job = job;
	draw_heads(u, a->top, a, &l, split, job, p->unread, note, p->sort,
	    sort_mark(p, u->utf8));
	if (!l.fits && a->rows - 1 > visible)
		view_scroll_where(u, a->top + a->rows - 1, a, v->scroll, visible, l.rows);

	base = 0;
	for (pk = 0; pk < p->npkg; pk++) {
		unsigned n = p->pkgn[pk];
		int prow = (int)((n + (unsigned)l.ncols - 1) / (unsigned)l.ncols);

		y = a->top + 1 + row - v->scroll;
		if (row >= v->scroll && row - v->scroll < visible)
			draw_package(u, y, a, f, p->pkgidx[pk], p->pkgphys[pk], n, split,
			    p->unread);
		row++;
		for (j = 0; j < n; j++) {
			int r = (int)j % prow, k = (int)j / prow;
			unsigned ci = p->order[base + j];

			if (row + r < v->scroll || row + r - v->scroll >= visible)
				continue;
			y = a->top + 1 + row + r - v->scroll;
			draw_core(u, y, a->left + k * (l.colw + CORES_GAP), &l, split, job,
			    p->unread, &t->cores[ci], &iv->cores[ci]);
		}
		row += prow;
		base += n;
	}
}

static void
cores_free(struct view *v)
{
	struct cores_view *p = (struct cores_view *)v;

	free(p->order);
	free(p->pkgn);
	free(p->pkgidx);
	free(p->pkgphys);
	free(p->keys);
	free(p);
}

/* s: the next column shown (after the last, the core id again); S: the
 * order reversed. The rest scroll. */
static bool
cores_key(struct view *v, int ch)
{
	struct cores_view *p = (struct cores_view *)v;
	struct col cols[MAX_FIGS];
	int n, i;

	if (ch == 'S') {
		p->desc = !p->desc;
		return true;
	}
	if (ch != 's')
		return view_scroll_key(v, ch);
	n = row_cols(p->fmt, p->split, p->job, p->unread, cols);
	for (i = 0; i < n && (int)cols[i].fig != p->sort; i++)
		;
	/* The id (or a column no longer shown) goes to the first column. */
	p->sort = p->sort < 0 || i >= n ? (int)cols[0].fig : i + 1 < n ? (int)cols[i + 1].fig : -1;
	p->desc = false;
	return true;
}

struct view *
view_cores_new(struct ui_settings *s)
{
	struct cores_view *p = xcalloc(1, sizeof *p);

	p->v.id = VIEW_CORES;
	p->v.draw = cores_draw;
	p->v.key = cores_key;
	p->sort = -1;
	p->v.free = cores_free;
	p->v.s = s;
	return &p->v;
}
