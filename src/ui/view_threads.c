/* view_threads.c: one row per logical CPU (only the job's when the view is
 * narrowed to it): where it sits (package, the hardware's core id, thread),
 * its utilisation as a bar, then the thread figures that have a column in
 * the table of figures (metrics/figures.c, a row's col: util%, CPI,
 * nomCPI, GHz, netGHz, IPC, steal%, job%, ...), in its order. Sorted by any column (s, or a click on its head), ties by
 * CPU number, absent figures last in either order; a figure sorts busiest
 * first when chosen, a position lowest first. The rows are laid out
 * through a small sink so the unit tests can read them without curses. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/figures.h"
#include "metrics/metrics.h"
#include "ui/screen.h"
#include "ui/settings.h"
#include "ui/ui.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Where a view's pieces go: the screen, or a test's buffer. Rows count
 * from 0 at the view's first data row; the sink skips what is scrolled
 * out of sight. */
struct sink {
	void (*text)(void *arg, int row, int x, int width, enum ui_role r, const char *s);
	void (*bar)(void *arg, int row, int x, int width, const struct val *v);
	void *arg;
};

struct tcol {
	int col;                /* enum thread_col */
	int width;              /* at least this many cells, the blank before it included */
	const char *label;
};

/* Where the CPU sits; the figures after the bar are the table's columns
 * (metrics/figures.c: a row's col), column TCOL_UTIL + i the i-th. */
static const struct tcol id_cols[] = {
	{ TCOL_CPU, 5, N_("CPU") },
	{ TCOL_PACKAGE, 4, N_("pkg") },
	{ TCOL_CORE, 5, N_("core") },
	{ TCOL_THREAD, 3, N_("t") },
};
#define NID (sizeof id_cols / sizeof id_cols[0])
#define NFIG FIG_MAX

/* The figure of column i after the bar, its count. */
static const struct figure *
fig_col(size_t i)
{
	size_t n;
	const struct figure *const *fl = figures_columns(&n);

	return i < n ? fl[i] : NULL;
}

static int
nfig(void)
{
	size_t n;

	(void)figures_columns(&n);
	return (int)n;
}

#define BAR_MIN 6
#define BAR_MAX 40
#define STATUS_MIN 16

/* Column widths: the default, or the (translated) head with a blank
 * before it and the sort mark after it, so a mark never touches the
 * column to its left. Worked out once, when the view is made. */
struct twidths {
	int id[NID], fig[NFIG];
};

static void
threads_widths(struct twidths *w)
{
	unsigned i;
	int need;

	for (i = 0; i < NID; i++) {
		need = text_width(_(id_cols[i].label)) + 2;
		w->id[i] = need > id_cols[i].width ? need : id_cols[i].width;
	}
	for (i = 0; i < (unsigned)nfig(); i++) {
		const struct fig_col *c = &fig_col(i)->col;

		need = text_width(_(c->head)) + 2;
		w->fig[i] = need > c->width ? need : c->width;
	}
}

struct tlayout {
	int id_x[NID], id_w[NID];
	int bar_x, bar_w;
	int fig_x[NFIG], fig_w[NFIG];
	int status_x, status_w;
};

static void
threads_layout(int cols, const struct twidths *w, struct tlayout *l)
{
	int fixed = 0, i, x = 0, shown;

	for (i = 0; i < (int)NID; i++) {
		l->id_x[i] = x;
		l->id_w[i] = w->id[i];
		x += w->id[i];
	}
	fixed = x;
	for (i = 0; i < nfig(); i++)
		fixed += w->fig[i];
	/* Too narrow for the bar and a status: the last figures are left
	 * out (the table's last first: ..., job, steal, IPC, net GHz, GHz),
	 * whole, before the status gets too narrow for a reason's code. */
	for (shown = nfig(); shown > 3 && cols - fixed - 3 - STATUS_MIN < BAR_MIN; shown--)
		fixed -= w->fig[shown - 1];
	/* The bar's edges (drawn just outside it) with a blank before the
	 * left one, so that the thread number never touches it. */
	l->bar_w = cols - fixed - 3 - STATUS_MIN;
	if (l->bar_w > BAR_MAX)
		l->bar_w = BAR_MAX;
	if (l->bar_w < BAR_MIN)
		l->bar_w = BAR_MIN;
	l->bar_x = x + 2;
	x = l->bar_x + l->bar_w + 1;
	for (i = 0; i < nfig(); i++) {
		l->fig_x[i] = x;
		l->fig_w[i] = i < shown ? w->fig[i] : 0;
		x += l->fig_w[i];
	}
	l->status_x = x + 1;
	l->status_w = cols - l->status_x;
}

/* --- sorting ----------------------------------------------------------- */

/* A row to sort: its key worked out once (not in every comparison). */
struct tsort {
	double k;               /* the column's value, negated when descending */
	unsigned cpu;
	bool has;               /* the CPU has a value in the column */
};

/* The figure of column `col` (TCOL_UTIL on), or NULL. */
static const struct val *
fig_of(const struct thread_fig *t, int col)
{
	const struct figure *f = col >= TCOL_UTIL ? fig_col((size_t)(col - TCOL_UTIL)) : NULL;

	return f != NULL ? fig_val(f, FIG_THREAD, t) : NULL;
}

/* The hardware's core id (as lstopo and /proc/cpuinfo give it), or -1. */
static long
core_id_of(const struct topology *t, unsigned cpu)
{
	unsigned c = t->cpus[cpu].core;

	return c != TOPO_NO_CORE && c < t->ncores ? (long)t->cores[c].core_id : -1;
}

/* The value a CPU sorts by in column `col`; false when it has none. */
static bool
sort_key(const struct ui_frame *f, unsigned cpu, int col, double *k)
{
	const struct topology *t = &f->m->topo;
	const struct topo_cpu *tc = &t->cpus[cpu];
	const struct thread_fig *tf = &f->iv->threads[cpu];
	const struct val *v;

	switch (col) {
	case TCOL_CPU:
		*k = cpu;
		return true;
	case TCOL_PACKAGE:
		*k = tc->package;
		return tc->package != TOPO_NO_PACKAGE;
	case TCOL_CORE:
		/* Core ids count within a package. */
		*k = (double)tc->package * 4294967296.0 + (double)core_id_of(t, cpu);
		return core_id_of(t, cpu) >= 0;
	case TCOL_THREAD:
		*k = tc->thread;
		return tc->core != TOPO_NO_CORE;
	default:
		v = fig_of(tf, col);
		if (v == NULL || tf->reason != R_NONE || v->kind == V_NONE)
			return false;
		*k = v->kind == V_EXACT ? v->v : (v->lo + v->hi) / 2.0;
		return true;
	}
}

/* A total order: those with a value first (either way), by the key, then
 * the CPU number; so qsort's result is the stable one. */
static int
cmp_row(const void *pa, const void *pb)
{
	const struct tsort *a = pa, *b = pb;

	if (a->has != b->has)
		return a->has ? -1 : 1;
	if (a->has && a->k != b->k)
		return a->k < b->k ? -1 : 1;
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

/* Is this CPU a row? Present, selected (or offline: it is shown as
 * such), and in the job when the view is narrowed to it. */
static bool
visible(const struct ui_frame *f, unsigned cpu)
{
	const struct topology *t = &f->m->topo;
	const struct thread_fig *tf = &f->iv->threads[cpu];

	if (!t->cpus[cpu].present)
		return false;
	if (tf->reason == R_NOT_SELECTED && !tf->offline)
		return false;
	if (f->job != NULL && f->job->active && f->job->only && f->job->cpus != NULL &&
	    !cpulist_has(f->job->cpus, cpu))
		return false;
	return true;
}

/* Fill rows[] with the visible CPUs sorted as asked; returns how many. */
static unsigned
threads_sort(const struct ui_frame *f, int col, bool desc, struct tsort *rows, unsigned cap)
{
	unsigned cpu, n = 0;

	for (cpu = 0; cpu < f->m->topo.max_cpu && cpu < f->iv->max_cpu && n < cap; cpu++) {
		if (!visible(f, cpu))
			continue;
		rows[n].cpu = cpu;
		rows[n].has = sort_key(f, cpu, col, &rows[n].k);
		if (desc)
			rows[n].k = -rows[n].k;
		n++;
	}
	qsort(rows, n, sizeof *rows, cmp_row);
	return n;
}

/* Does a column sort highest first when chosen? The figures do (busiest,
 * slowest, fastest first: what one looks for); where a CPU sits does not. */
static bool
col_desc_first(int col)
{
	return col >= TCOL_UTIL;
}

/* Sort by `col`: a new column in its first direction, the same one the
 * other way round. */
static void
sort_by_col(struct ui_settings *s, int col)
{
	if (s->sort_column == col) {
		s->sort_descending = !s->sort_descending;
		return;
	}
	s->sort_column = col;
	s->sort_descending = col_desc_first(col);
}

/* --- lines -------------------------------------------------------------- */

/* One column head, right-aligned over its numbers; the sort column's
 * mark follows it in the last cell. */
static void
head(const struct sink *k, int row, int x, int w, const char *label, bool sorted,
    const char *mark)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%*s%s", sorted ? w - 1 : w, label, sorted ? mark : "");
	k->text(k->arg, row, x, w, ROLE_LABEL, buf);
}

static void
threads_heads(const struct sink *k, int row, const struct tlayout *l, int col, bool desc,
    bool utf8)
{
	const char *mark = utf8 ? (desc ? "\u25bc" : "\u25b2") : (desc ? "v" : "^");
	int i;

	for (i = 0; i < (int)NID; i++)
		head(k, row, l->id_x[i], l->id_w[i], _(id_cols[i].label), col == id_cols[i].col,
		    mark);
	/* The bar's head whole, or none (a narrow bar). */
	k->text(k->arg, row, l->bar_x, l->bar_w, ROLE_LABEL,
	    text_width(_("utilisation")) <= l->bar_w ? _("utilisation") : "");
	for (i = 0; i < nfig(); i++)
		if (l->fig_w[i] > 0)
			head(k, row, l->fig_x[i], l->fig_w[i], _(fig_col((size_t)i)->col.head),
			    col == TCOL_UTIL + i, mark);
	if (l->status_w > 0)
		k->text(k->arg, row, l->status_x, l->status_w, ROLE_LABEL, _("status"));
}

/* Why the first dash of a valid row is one ("base frequency unknown");
 * "" when every figure is there. A figure the source cannot count
 * (not-counted: sched and procstat count time, no instructions or
 * cycles) is no trouble of the row: only when no other is there, and
 * *counted says so. */
static void
absent_why(char *buf, size_t len, const struct thread_fig *tf, bool brief, bool *counted)
{
	int i;

	buf[0] = '\0';
	*counted = false;
	for (i = 0; i < nfig(); i++) {
		const struct val *v = fig_of(tf, TCOL_UTIL + i);

		/* what the source does not read (steal time only procstat
		 * reads, the job's share only sched with a watched job): no
		 * trouble of the row either */
		if (v != NULL && v->kind == V_NONE && metrics_reason_not_read(v->why)) {
			*counted = true;
		} else if (v != NULL && v->kind == V_NONE && v->why != R_NONE) {
			snprintf(buf, len, "%s", brief ? metrics_reason_code(v->why) :
			    _(metrics_reason_text(v->why)));
			*counted = false;
			return;
		}
	}
}

/* What a row of a source without counters is counted by, where its
 * only dashes are the figures the source cannot count: its status, not
 * a warning. "" for a plan of the counters. */
static void
counted_by(char *buf, size_t len, const struct plan *p, bool brief)
{
	buf[0] = '\0';
	if (p == NULL || p->basis == PLAN_BASIS_COUNTERS || p->basis >= PLAN_NBASES)
		return;
	if (brief)
		snprintf(buf, len, "%s", plan_basis_name(p->basis));
	else if (p->basis == PLAN_BASIS_TICKS)
		snprintf(buf, len, "%s", _("counted in ticks (/proc/stat); no CPI, GHz"));
	else
		snprintf(buf, len, "%s", _("counted by the scheduler; no CPI, GHz"));
}

/* The column whose head covers x (the bar's is utilisation's), or
 * TCOL_NONE for none. */
static int
threads_col_at(const struct tlayout *l, int x)
{
	int i;

	for (i = 0; i < (int)NID; i++)
		if (x >= l->id_x[i] && x < l->id_x[i] + l->id_w[i])
			return id_cols[i].col;
	if (x >= l->bar_x && x < l->bar_x + l->bar_w)
		return TCOL_UTIL;
	for (i = 0; i < nfig(); i++)
		if (x >= l->fig_x[i] && x < l->fig_x[i] + l->fig_w[i])
			return TCOL_UTIL + i;
	return TCOL_NONE;
}

/* The thread's stopped counter, then the core's trouble, then why a
 * figure of the row is a dash; for a row whose only dashes are what its
 * source cannot count, what it is counted by. Returns whether the status
 * is a warning. */
static bool
row_status(char *buf, size_t len, const struct core_fig *cf, const struct thread_fig *tf,
    const struct plan *p, bool brief)
{
	bool counted;

	/* brief: the reason's code (httop(1), VALIDITY), where the words do
	 * not fit ("never-active", not "the..."). */
	const char *(*why)(enum reason) = brief ? metrics_reason_code : metrics_reason_text;

	if (tf->stopped != 0 && brief)
		snprintf(buf, len, "%s", metrics_reason_code(R_STOPPED));
	else if (tf->stopped != 0)
		snprintf(buf, len, "%s: %s", _(metrics_reason_text(R_STOPPED)),
		    _(metrics_stopped_title(tf->stopped)));
	else if (cf != NULL && cf->reason != R_NONE)
		snprintf(buf, len, _("core: %s"), brief ? why(cf->reason) : _(why(cf->reason)));
	else if (cf != NULL && cf->fallback != R_NONE)
		snprintf(buf, len, brief ? _("bound: %s") : _("split bound: %s"),
		    brief ? why(cf->fallback) : _(why(cf->fallback)));
	else if (tf->d_ref == 0)
		snprintf(buf, len, "%s", brief ? why(R_NOT_HALTED_ZERO) : _(why(R_NOT_HALTED_ZERO)));
	else {
		absent_why(buf, len, tf, brief, &counted);
		if (counted) {
			counted_by(buf, len, p, brief);
			return false;
		}
	}
	return buf[0] != '\0';
}

/* One CPU's row. A thread without figures shows where it is and why, in
 * grey, and no numbers. */
static void
threads_row(const struct sink *k, int row, const struct tlayout *l, const struct ui_frame *f,
    unsigned cpu, bool utf8)
{
	const struct topology *t = &f->m->topo;
	const struct topo_cpu *tc = &t->cpus[cpu];
	const struct thread_fig *tf = &f->iv->threads[cpu];
	const struct core_fig *cf = tc->core != TOPO_NO_CORE && tc->core < f->iv->ncores ?
	    &f->iv->cores[tc->core] : NULL;
	bool bad = tf->reason != R_NONE, warn;
	enum ui_role role = bad ? ROLE_INVALID : ROLE_LABEL;
	char buf[160], num_or_status[160];
	int i;

	snprintf(buf, sizeof buf, "%*u", l->id_w[0], cpu);
	k->text(k->arg, row, l->id_x[0], l->id_w[0], role, buf);
	if (tc->package != TOPO_NO_PACKAGE)
		snprintf(buf, sizeof buf, "%*u", l->id_w[1], tc->package);
	else
		snprintf(buf, sizeof buf, "%*s", l->id_w[1], "?");
	k->text(k->arg, row, l->id_x[1], l->id_w[1], role, buf);
	if (core_id_of(t, cpu) >= 0) {
		snprintf(buf, sizeof buf, "%*ld", l->id_w[2], core_id_of(t, cpu));
		k->text(k->arg, row, l->id_x[2], l->id_w[2], role, buf);
		snprintf(buf, sizeof buf, "%*u", l->id_w[3], tc->thread);
		k->text(k->arg, row, l->id_x[3], l->id_w[3], role, buf);
	} else {
		snprintf(buf, sizeof buf, "%*s", l->id_w[2] + l->id_w[3], "?");
		k->text(k->arg, row, l->id_x[2], l->id_w[2] + l->id_w[3], role, buf);
	}
	if (bad) {
		const char *why = tf->reason == R_NOT_SELECTED && tf->offline ?
		    _("offline") : _(metrics_reason_text(tf->reason));
		int w = l->status_x + l->status_w - l->bar_x;

		text_fit(buf, sizeof buf, why, w, utf8);
		k->text(k->arg, row, l->bar_x, w, ROLE_INVALID, buf);
		return;
	}
	k->bar(k->arg, row, l->bar_x, l->bar_w, &tf->util);
	for (i = 0; i < nfig(); i++) {
		const struct fig_col *c = &fig_col((size_t)i)->col;
		const struct val *v = fig_of(tf, TCOL_UTIL + i);
		char num[64];

		if (l->fig_w[i] == 0)
			continue;
		/* A blank before every number, so that two never run
		 * together (nomCPI 10970.04 beside CPI 5.30): a number too wide
		 * loses its decimals, then shows as "*"; never a cut one. */
		val_text(num, sizeof num, c->fmt, v, c->scale);
		if ((int)strlen(num) >= l->fig_w[i])
			val_text(num, sizeof num, "%.0f", v, c->scale);
		if ((int)strlen(num) >= l->fig_w[i])
			snprintf(num, sizeof num, "*");
		snprintf(buf, sizeof buf, "%*s", l->fig_w[i], num);
		k->text(k->arg, row, l->fig_x[i], l->fig_w[i], ROLE_LABEL, buf);
	}
	if (l->status_w <= 0)
		return;
	warn = row_status(num_or_status, sizeof num_or_status, cf, tf, f->plan, false);
	if (text_width(num_or_status) > l->status_w)
		warn = row_status(num_or_status, sizeof num_or_status, cf, tf, f->plan, true);
	text_fit(buf, sizeof buf, num_or_status, l->status_w, utf8);
	k->text(k->arg, row, l->status_x, l->status_w, warn ? ROLE_WARN : ROLE_LABEL, buf);
}

/* Lay the view out into the sink: the head at row -1, then rows
 * [first, first + nrows) of the sorted CPUs rows[0..n) at rows 0... */
static void
threads_lines(const struct sink *k, const struct ui_frame *f, const struct tlayout *l,
    int col, bool desc, bool utf8, const struct tsort *rows, unsigned n, int first, int nrows)
{
	unsigned i;

	threads_heads(k, -1, l, col, desc, utf8);
	for (i = first < 0 ? 0 : (unsigned)first; i < n && (int)i < first + nrows; i++)
		threads_row(k, (int)i - first, l, f, rows[i].cpu, utf8);
}

/* --- the view ----------------------------------------------------------- */

struct threads_view {
	struct view v;
	struct twidths widths;
	struct tlayout layout;  /* of the last draw, for clicks */
	struct tsort *rows;     /* the visible CPUs, sorted; allocated once */
	unsigned cap;
};

struct screen_sink {
	struct ui_ctx *u;
	const struct ui_area *a;
};

static void
screen_text(void *arg, int row, int x, int width, enum ui_role r, const char *s)
{
	struct screen_sink *ss = arg;
	const struct ui_area *a = ss->a;

	/* A column that does not fit is left out, not cut. */
	if (x + width > a->cols)
		return;
	draw_text(ss->u, a->top + 1 + row, a->left + x, width, r, s);
}

static void
screen_bar(void *arg, int row, int x, int width, const struct val *v)
{
	struct screen_sink *ss = arg;
	const struct ui_area *a = ss->a;

	if (x + width >= a->cols)
		return;
	draw_bar_edges(ss->u, a->top + 1 + row, a->left + x, width);
	draw_value_bar(ss->u, a->top + 1 + row, a->left + x, width, v, ROLE_UTIL);
}

/* The settings' sort column, or the CPU number if it is out of range. */
static int
sort_col(const struct ui_settings *s)
{
	return s->sort_column >= TCOL_CPU && s->sort_column < ui_thread_ncolumns() ?
	    s->sort_column : TCOL_CPU;
}

/* A column only where the source can give its figure (the figures
 * table's needs, figure_read): no CPI, GHz, IPC or GIPS without counters,
 * steal% only from /proc/stat, job% only from the scheduler's record of a
 * watched job. Elsewhere it would be dashes only; the status says what a
 * row of a source without counters is counted by. */
static void
needed_columns(struct twidths *w, const struct plan *plan)
{
	int i;

	for (i = 0; i < nfig(); i++)
		if (!figure_read(fig_col((size_t)i), plan))
			w->fig[i] = 0;
}

static void
threads_draw(struct view *v, struct ui_ctx *u, const struct ui_area *a, const struct ui_frame *f)
{
	struct threads_view *p = (struct threads_view *)v;
	struct screen_sink ss = { u, a };
	struct sink k = { screen_text, screen_bar, &ss };
	unsigned n;
	int y, visible_rows = a->rows - 1;
	bool more;

	if (p->rows == NULL || p->cap < f->m->topo.max_cpu) {
		free(p->rows);
		p->cap = f->m->topo.max_cpu ? f->m->topo.max_cpu : 1;
		p->rows = xcalloc(p->cap, sizeof *p->rows);   /* once per machine */
	}
	if (visible_rows < 1)
		visible_rows = 1;
	/* Clamp the scroll with the row count of this frame (a job's CPUs
	 * can change between frames). */
	n = threads_sort(f, sort_col(v->s), v->s->sort_descending, p->rows, p->cap);
	/* Rows that do not fit: the last line says where the view is. */
	more = (int)n > visible_rows && visible_rows > 2;
	if (more)
		visible_rows--;
	view_scroll_set(v, visible_rows, (int)n - visible_rows);
	threads_widths(&p->widths);
	needed_columns(&p->widths, f->plan);
	threads_layout(a->cols, &p->widths, &p->layout);
	for (y = 0; y < a->rows; y++)
		draw_text(u, a->top + y, a->left, a->cols, ROLE_LABEL, "");
	threads_lines(&k, f, &p->layout, sort_col(v->s), v->s->sort_descending, u->utf8, p->rows,
	    n, v->scroll, visible_rows);
	if (more)
		view_scroll_where(u, a->top + a->rows - 1, a, v->scroll, visible_rows, (int)n);
}

static bool
threads_key(struct view *v, int ch)
{
	struct ui_settings *s = v->s;

	switch (ch) {
	case 's':
		sort_by_col(s, s->sort_column + 1 >= ui_thread_ncolumns() || s->sort_column < TCOL_CPU ?
		    TCOL_CPU : s->sort_column + 1);
		return true;
	case 'S':
		s->sort_descending = !s->sort_descending;
		return true;
	default:
		return view_scroll_key(v, ch);
	}
}

/* A click on a column head sorts by it (again: the other way round). */
static bool
threads_click(struct view *v, int y, int x)
{
	struct threads_view *p = (struct threads_view *)v;
	int col;

	if (y != 0)
		return false;
	col = threads_col_at(&p->layout, x);
	if (col == TCOL_NONE)
		return false;
	sort_by_col(v->s, col);
	return true;
}

static void
threads_free(struct view *v)
{
	struct threads_view *p = (struct threads_view *)v;

	free(p->rows);
	free(p);
}

struct view *
view_threads_new(struct ui_settings *s)
{
	struct threads_view *p = xcalloc(1, sizeof *p);

	threads_widths(&p->widths);
	threads_layout(80, &p->widths, &p->layout);
	p->v.id = VIEW_THREADS;
	p->v.draw = threads_draw;
	p->v.key = threads_key;
	p->v.click = threads_click;
	p->v.free = threads_free;
	p->v.s = s;
	return &p->v;
}
