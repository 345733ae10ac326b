/* view_threads.c: one row per logical CPU (only the job's when the view is
 * narrowed to it): where it sits, its utilisation as a bar, non-halted and
 * nominal CPI, GHz while active, net GHz, IPC. Sorted by any column, ties
 * by CPU number, absent figures last in either order. The rows are laid out
 * through a small sink so the unit tests can read them without curses. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	int width;              /* cells, the blank before it included */
	const char *fmt;
	double scale;
	const char *label;
};

/* The columns after CPU/package/core/thread and the bar, in screen order. */
static const struct tcol fig_cols[] = {
	{ TCOL_UTIL, 7, "%.1f", 100.0, N_("util%") },
	{ TCOL_CPI, 8, "%.2f", 1.0, N_("CPI") },
	{ TCOL_NOMINAL_CPI, 8, "%.2f", 1.0, N_("nomCPI") },
	{ TCOL_GHZ, 7, "%.2f", 1.0, N_("GHz") },
	{ TCOL_NET_GHZ, 7, "%.2f", 1.0, N_("netGHz") },
	{ TCOL_IPC, 6, "%.2f", 1.0, N_("IPC") },
};
#define NFIG (sizeof fig_cols / sizeof fig_cols[0])

#define CPU_W 5       /* "  271" */
#define PKG_W 4
#define CORE_W 5
#define THR_W 3
#define BAR_MIN 6
#define BAR_MAX 40
#define STATUS_MIN 16

struct threads_priv {
	unsigned *order;        /* visible CPUs, sorted; allocated once */
	unsigned cap;
	int page, maxscroll;
};

static struct threads_priv threads_state;

/* The comparator's frame and order (qsort has no argument for them). */
static struct {
	const struct ui_frame *f;
	int col;
	bool desc;
} sort_by;

static const struct val *
fig_of(const struct thread_fig *t, int col)
{
	switch (col) {
	case TCOL_UTIL: return &t->util;
	case TCOL_CPI: return &t->cpi;
	case TCOL_NOMINAL_CPI: return &t->nominal_cpi;
	case TCOL_GHZ: return &t->ghz;
	case TCOL_NET_GHZ: return &t->net_ghz;
	case TCOL_IPC: return &t->ipc;
	default: return NULL;
	}
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
		*k = tc->core;
		return tc->core != TOPO_NO_CORE;
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

/* A total order: the column (reversed if descending), absent values last
 * either way, then the CPU number; so qsort's result is the stable one. */
static int
cmp_cpu(const void *pa, const void *pb)
{
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
	double ka = 0, kb = 0;
	bool ha = sort_key(sort_by.f, a, sort_by.col, &ka);
	bool hb = sort_key(sort_by.f, b, sort_by.col, &kb);
	int r = 0;

	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && ka != kb)
		r = ka < kb ? -1 : 1;
	if (sort_by.desc)
		r = -r;
	if (r == 0 && a != b)
		r = a < b ? -1 : 1;
	return r;
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
	if (tf->reason == R_NOT_SELECTED && t->cpus[cpu].online)
		return false;
	if (f->job != NULL && f->job->active && f->job->only && f->job->cpus != NULL &&
	    !cpulist_has(f->job->cpus, cpu))
		return false;
	return true;
}

/* Fill order[] with the visible CPUs sorted as the settings say; returns
 * how many. */
static unsigned
threads_sort(const struct ui_frame *f, int col, bool desc, unsigned *order, unsigned cap)
{
	unsigned cpu, n = 0;

	for (cpu = 0; cpu < f->m->topo.max_cpu && cpu < f->iv->max_cpu && n < cap; cpu++)
		if (visible(f, cpu))
			order[n++] = cpu;
	sort_by.f = f;
	sort_by.col = col;
	sort_by.desc = desc;
	qsort(order, n, sizeof *order, cmp_cpu);
	return n;
}

struct tlayout {
	int bar_x, bar_w;
	int fig_x[NFIG];
	int status_x, status_w;
};

static void
threads_layout(int cols, struct tlayout *l)
{
	int fixed = CPU_W + PKG_W + CORE_W + THR_W, i, x;

	for (i = 0; i < (int)NFIG; i++)
		fixed += fig_cols[i].width;
	l->bar_w = cols - fixed - 2 - STATUS_MIN;
	if (l->bar_w > BAR_MAX)
		l->bar_w = BAR_MAX;
	if (l->bar_w < BAR_MIN)
		l->bar_w = BAR_MIN;
	l->bar_x = CPU_W + PKG_W + CORE_W + THR_W + 1;
	x = l->bar_x + l->bar_w + 1;
	for (i = 0; i < (int)NFIG; i++) {
		l->fig_x[i] = x;
		x += fig_cols[i].width;
	}
	l->status_x = x + 1;
	l->status_w = cols - l->status_x;
}

/* One column head, right-aligned over its numbers; the sort column's
 * mark takes the last cell. */
static void
head(const struct sink *k, int row, int x, int w, const char *label, bool sorted,
    const char *mark)
{
	char buf[48];

	snprintf(buf, sizeof buf, "%*s%s", sorted ? w - 1 : w, label, sorted ? mark : "");
	k->text(k->arg, row, x, w, ROLE_LABEL, buf);
}

static void
threads_heads(const struct sink *k, int row, const struct tlayout *l, int col, bool desc,
    bool utf8)
{
	const char *mark = utf8 ? (desc ? "\u25bc" : "\u25b2") : (desc ? "v" : "^");
	int i;

	head(k, row, 0, CPU_W, _("CPU"), col == TCOL_CPU, mark);
	head(k, row, CPU_W, PKG_W, _("pkg"), col == TCOL_PACKAGE, mark);
	head(k, row, CPU_W + PKG_W, CORE_W, _("core"), col == TCOL_CORE, mark);
	head(k, row, CPU_W + PKG_W + CORE_W, THR_W, _("t"), col == TCOL_THREAD, mark);
	k->text(k->arg, row, l->bar_x, l->bar_w, ROLE_LABEL, _("utilisation"));
	for (i = 0; i < (int)NFIG; i++)
		head(k, row, l->fig_x[i], fig_cols[i].width, _(fig_cols[i].label),
		    col == fig_cols[i].col, mark);
	if (l->status_w > 0)
		k->text(k->arg, row, l->status_x, l->status_w, ROLE_LABEL, _("status"));
}

/* Why the first dash of a valid row is one ("base frequency unknown");
 * "" when every figure is there. */
static void
absent_why(char *buf, size_t len, const struct thread_fig *tf)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < (int)NFIG; i++) {
		const struct val *v = fig_of(tf, fig_cols[i].col);

		if (v != NULL && v->kind == V_NONE && v->why != R_NONE) {
			snprintf(buf, len, "%s", _(metrics_reason_text(v->why)));
			return;
		}
	}
}

/* One CPU's row. A thread without figures shows where it is and why, in
 * grey, and no numbers. */
static void
threads_row(const struct sink *k, int row, const struct tlayout *l, const struct ui_frame *f,
    unsigned cpu)
{
	const struct topology *t = &f->m->topo;
	const struct topo_cpu *tc = &t->cpus[cpu];
	const struct thread_fig *tf = &f->iv->threads[cpu];
	const struct core_fig *cf = tc->core != TOPO_NO_CORE && tc->core < f->iv->ncores ?
	    &f->iv->cores[tc->core] : NULL;
	bool bad = tf->reason != R_NONE;
	enum ui_role role = bad ? ROLE_INVALID : ROLE_LABEL;
	char buf[96];
	int i;

	snprintf(buf, sizeof buf, "%*u", CPU_W, cpu);
	k->text(k->arg, row, 0, CPU_W, role, buf);
	if (tc->package != TOPO_NO_PACKAGE)
		snprintf(buf, sizeof buf, "%*u", PKG_W, tc->package);
	else
		snprintf(buf, sizeof buf, "%*s", PKG_W, "?");
	k->text(k->arg, row, CPU_W, PKG_W, role, buf);
	if (tc->core != TOPO_NO_CORE) {
		snprintf(buf, sizeof buf, "%*u", CORE_W, tc->core);
		k->text(k->arg, row, CPU_W + PKG_W, CORE_W, role, buf);
		snprintf(buf, sizeof buf, "%*u", THR_W, tc->thread);
		k->text(k->arg, row, CPU_W + PKG_W + CORE_W, THR_W, role, buf);
	} else {
		snprintf(buf, sizeof buf, "%*s", CORE_W + THR_W, "?");
		k->text(k->arg, row, CPU_W + PKG_W, CORE_W + THR_W, role, buf);
	}
	if (bad) {
		const char *why = tf->reason == R_NOT_SELECTED && !tc->online ?
		    _("offline") : _(metrics_reason_text(tf->reason));

		k->text(k->arg, row, l->bar_x, l->status_x + l->status_w - l->bar_x, ROLE_INVALID,
		    why);
		return;
	}
	k->bar(k->arg, row, l->bar_x, l->bar_w, &tf->util);
	for (i = 0; i < (int)NFIG; i++) {
		const struct tcol *c = &fig_cols[i];
		char num[64];

		val_text(num, sizeof num, c->fmt, fig_of(tf, c->col), c->scale);
		snprintf(buf, sizeof buf, "%*s", c->width, num);
		if ((int)strlen(buf) > c->width)     /* never a cut number */
			snprintf(buf, sizeof buf, "%*s", c->width, "*");
		k->text(k->arg, row, l->fig_x[i], c->width, ROLE_LABEL, buf);
	}
	if (l->status_w <= 0)
		return;
	/* The thread's stopped counter, then the core's trouble, then why a
	 * figure of the row is a dash. */
	if (tf->stopped != 0)
		snprintf(buf, sizeof buf, "%s: %s", _(metrics_reason_text(R_STOPPED)),
		    _(metrics_stopped_title(tf->stopped)));
	else if (cf != NULL && cf->reason != R_NONE)
		snprintf(buf, sizeof buf, _("core: %s"), _(metrics_reason_text(cf->reason)));
	else if (cf != NULL && cf->fallback != R_NONE)
		snprintf(buf, sizeof buf, _("split bound: %s"), _(metrics_reason_text(cf->fallback)));
	else if (tf->d_ref == 0)
		snprintf(buf, sizeof buf, "%s", _(metrics_reason_text(R_NOT_HALTED_ZERO)));
	else
		absent_why(buf, sizeof buf, tf);
	k->text(k->arg, row, l->status_x, l->status_w, buf[0] ? ROLE_WARN : ROLE_LABEL, buf);
}

/* Lay the view out into the sink: the head at row -1, then rows
 * [first, first + nrows) of the sorted CPUs order[0..n) at rows 0... */
static void
threads_lines(const struct sink *k, const struct ui_frame *f, int col, bool desc, int cols,
    bool utf8, const unsigned *order, unsigned n, int first, int nrows)
{
	struct tlayout l;
	unsigned i;

	threads_layout(cols, &l);
	threads_heads(k, -1, &l, col, desc, utf8);
	for (i = first < 0 ? 0 : (unsigned)first; i < n && (int)i < first + nrows; i++)
		threads_row(k, (int)i - first, &l, f, order[i]);
}

/* --- curses ------------------------------------------------------------ */

struct screen_sink {
	struct ui_ctx *u;
	const struct ui_area *a;
};

static void
screen_text(void *arg, int row, int x, int width, enum ui_role r, const char *s)
{
	struct screen_sink *ss = arg;
	const struct ui_area *a = ss->a;

	if (x >= a->cols)
		return;
	if (x + width > a->cols)
		width = a->cols - x;
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

/* The order the view sorts by: draw() is not given the settings, so the
 * view keeps the last it was told (ui_threads_sort, and every key). */
static int sort_column = TCOL_CPU;
static bool sort_descending;

void
ui_threads_sort(const struct ui_settings *s)
{
	sort_column = s->sort_column >= TCOL_CPU && s->sort_column < TCOL_COUNT ?
	    s->sort_column : TCOL_CPU;
	sort_descending = s->sort_descending;
}

static void
threads_draw(struct view *v, struct ui_ctx *u, const struct ui_area *a, const struct ui_frame *f)
{
	struct threads_priv *p = &threads_state;
	struct screen_sink ss = { u, a };
	struct sink k = { screen_text, screen_bar, &ss };
	unsigned n;
	int y, visible_rows = a->rows - 1;

	if (p->order == NULL || p->cap < f->m->topo.max_cpu) {
		free(p->order);
		p->cap = f->m->topo.max_cpu ? f->m->topo.max_cpu : 1;
		p->order = xcalloc(p->cap, sizeof *p->order);   /* once per machine */
	}
	if (visible_rows < 1)
		visible_rows = 1;
	/* Clamp the scroll with the row count of this frame (a job's CPUs
	 * can change between frames). */
	n = threads_sort(f, sort_column, sort_descending, p->order, p->cap);
	p->page = visible_rows;
	p->maxscroll = (int)n > visible_rows ? (int)n - visible_rows : 0;
	if (v->scroll > p->maxscroll)
		v->scroll = p->maxscroll;
	if (v->scroll < 0)
		v->scroll = 0;
	for (y = 0; y < a->rows; y++)
		draw_text(u, a->top + y, a->left, a->cols, ROLE_LABEL, "");
	threads_lines(&k, f, sort_column, sort_descending, a->cols, u->utf8, p->order, n, v->scroll,
	    visible_rows);
}

static bool
threads_key(struct view *v, struct ui_ctx *u, int ch, struct ui_settings *s)
{
	struct threads_priv *p = &threads_state;
	(void)u;
	switch (ch) {
	case 's':
		s->sort_column = s->sort_column + 1 >= TCOL_COUNT || s->sort_column < TCOL_CPU ?
		    TCOL_CPU : s->sort_column + 1;
		break;
	case 'S':
		s->sort_descending = !s->sort_descending;
		break;
	default:
		return view_scroll_key(v, ch, p->page, p->maxscroll);
	}
	ui_threads_sort(s);
	view_scroll_clamp(v, p->maxscroll);
	return true;
}

struct view view_threads = {
	.id = VIEW_THREADS,
	.name = N_("Threads"),
	.draw = threads_draw,
	.key = threads_key,
	.scroll = 0,
	.priv = &threads_state,
};
