/* view_nodes.c: many nodes (httop --nodes), one row per node: its state,
 * the split bar of its node aggregate, utilisation, threads per busy
 * core, GHz, CPI and the share of busy core time with both threads
 * active; when the nodes' lines carry the watched job's own figures
 * (--source sched with a job), the job's CPU seconds and its shared share
 * (a thread of the job's beside a sibling running another task) on each
 * node, under heads that say they are the job's. Columns go whole,
 * least useful first (CPI, GHz, thr, ..., util% last), where the row
 * would not fit. A node that
 * is lost says why and when it is tried again. The
 * rows sort (s: next column, S: reverse) and scroll as the Cores view's;
 * Up and Down move the cursor, Enter opens the node's own views. */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/header.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

enum ncol { NC_ORDER = 0, NC_NAME, NC_STATE, NC_UTIL, NC_BUSY, NC_THR, NC_GHZ, NC_CPI,
	NC_JCPU, NC_JSHARED, NC_COUNT };

static const char *const ncol_names[NC_COUNT] = {
	N_("list order"), N_("node"), N_("state"), N_("util%"), N_("both/busy%"), N_("thr"),
	N_("GHz"), N_("CPI"), N_("job CPU s"), N_("job shared%"),
};

#define STATE_W 9
#define BAR_MIN 8
#define BAR_MAX 50
#define NODE_NAME_MIN 6
#define NODE_NAME_W 24

struct figcol {
	enum ncol col;
	int width;
	const char *fmt;
	double scale;
};

/* The figure columns; the job's only when a node's line carries them. */
static const struct figcol figcols[] = {
	{ NC_UTIL, 7, "%.1f", 100.0 },
	{ NC_THR, 6, "%.2f", 1.0 },
	{ NC_GHZ, 6, "%.2f", 1.0 },
	{ NC_CPI, 7, "%.2f", 1.0 },
	{ NC_BUSY, 11, "%.1f", 100.0 },
	{ NC_JCPU, 11, "%.2f", 1.0 },
	{ NC_JSHARED, 13, "%.1f", 100.0 },
};
#define NFIG ((int)(sizeof figcols / sizeof figcols[0]))

/* The columns that go first where the row does not fit, in that order:
 * a column shows whole or not at all (at 40 columns both/busy% was cut to
 * "both/b"), util% last. */
static const enum ncol dropped_first[] = { NC_CPI, NC_GHZ, NC_THR, NC_JCPU, NC_BUSY,
	NC_JSHARED, NC_UTIL };

struct nodes_view {
	struct view v;
	int col;                /* sort column */
	bool reverse;
	size_t cap;
	size_t *order;          /* node indices in the order shown */
	size_t cur;             /* the cursor: an index into order */
	int chosen;             /* Enter: the node to open, -1 */
	const struct cluster *c;  /* the last frame's, for the keys */
	bool shown[NC_COUNT];   /* the last frame's columns, which s goes through */
};

static const struct cluster *sort_c;
static int sort_col;

static const struct val *
col_val(const struct agg_fig *a, enum ncol col)
{
	switch (col) {
	case NC_UTIL: return &a->util;
	case NC_BUSY: return &a->both_of_busy;
	case NC_THR: return &a->active_threads;
	case NC_GHZ: return &a->ghz;
	case NC_JCPU: return &a->cpu_s;
	case NC_JSHARED: return &a->job_shared;
	default: return &a->cpi;
	}
}

static double
fig_of(const struct node *nd, enum ncol col)
{
	const struct val *v;

	if (!nd->have)
		return -1.0;
	v = col_val(&nd->nv.iv.node, col);
	return v->kind == V_EXACT ? v->v : v->kind == V_BOUND ? v->lo : -1.0;
}

/* Does any node's last line carry the job's own figures? */
static bool
job_figures(const struct cluster *c)
{
	size_t k;

	for (k = 0; k < c->n; k++) {
		const struct agg_fig *a = &c->nodes[k].nv.iv.node;

		if (c->nodes[k].have && (a->cpu_s.kind != V_NONE || a->job_shared.kind != V_NONE))
			return true;
	}
	return false;
}

/* The columns shown in `cols` cells beside a name of namew and a bar of
 * at least BAR_MIN: the job's where the lines carry them, then as many
 * as fit (CPI, GHz, thr go first, util% last); the figures' width in
 * *figw. */
static void
columns_shown(struct nodes_view *p, const struct cluster *c, int cols, int namew, int *figw)
{
	int i, w = 0;
	size_t d;

	for (i = 0; i < NC_COUNT; i++)
		p->shown[i] = true;
	if (!job_figures(c))
		p->shown[NC_JCPU] = p->shown[NC_JSHARED] = false;
	for (i = 0; i < NFIG; i++)
		w += p->shown[figcols[i].col] ? figcols[i].width : 0;
	for (d = 0; d < sizeof dropped_first / sizeof dropped_first[0] &&
	    namew + 1 + STATE_W + 2 + BAR_MIN + w > cols; d++) {
		p->shown[dropped_first[d]] = false;
		for (i = 0; i < NFIG; i++)
			if (figcols[i].col == dropped_first[d])
				w -= figcols[i].width;
	}
	*figw = w;
}

static int
cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct node *x = &sort_c->nodes[a], *y = &sort_c->nodes[b];
	double fx, fy;
	int r = 0;

	switch (sort_col) {
	case NC_NAME:
		r = strcmp(x->name, y->name);
		break;
	case NC_STATE:
		r = (int)y->state - (int)x->state;
		break;
	case NC_ORDER:
		break;
	default:
		/* a figure: highest first */
		fx = fig_of(x, (enum ncol)sort_col);
		fy = fig_of(y, (enum ncol)sort_col);
		r = fx < fy ? 1 : fx > fy ? -1 : 0;
		break;
	}
	return r != 0 ? r : a < b ? -1 : a > b ? 1 : 0;
}

static void
collect(struct nodes_view *p, const struct cluster *c)
{
	size_t i, cur_node = p->cap > 0 && p->cur < c->n ? p->order[p->cur] : 0;

	if (p->cap < c->n) {
		free(p->order);
		p->cap = c->n;
		p->order = xcalloc(p->cap, sizeof *p->order);
	}
	for (i = 0; i < c->n; i++)
		p->order[i] = i;
	sort_c = c;
	sort_col = p->col;
	qsort(p->order, c->n, sizeof *p->order, cmp);
	if (p->reverse)
		for (i = 0; i < c->n / 2; i++) {
			size_t t = p->order[i];

			p->order[i] = p->order[c->n - 1 - i];
			p->order[c->n - 1 - i] = t;
		}
	/* The cursor stays on its node when the order changes. */
	for (i = 0; i < c->n; i++)
		if (p->order[i] == cur_node)
			p->cur = i;
}

static bool
split_of(const struct node *nd)
{
	return nd->nv.m.topo.max_smt == 2 && nd->nv.split != SPLIT_NONE;
}

/* A lost node's reason and its next try in `width` columns: the next try
 * always shows, the reason gives way before it does (cut at a word, with
 * a mark). */
static void
retry_text(char *text, size_t len, const struct node *nd, int width, bool utf8)
{
	double left = nd->retry_at - clock_mono();
	char next[64], why[300];
	int nw;

	snprintf(text, len, _("%s; next try in %.0f s"), nd->why, left > 0 ? left : 0.0);
	if (text_width(text) <= width)
		return;
	snprintf(next, sizeof next, _("next try in %.0f s"), left > 0 ? left : 0.0);
	if (text_width(next) + 3 >= width)
		return;
	nw = text_fit(why, sizeof why, nd->why, width - text_width(next) - 2, utf8);
	if (nw > 0)
		snprintf(text, len, "%.256s; %.63s", why, next);
	else
		snprintf(text, len, "%s", next);
}

/* Its last interval is shown and not valid (the node said why): the row
 * is marked as an invalid core's is, the reason under the rows when the
 * cursor is on it. */
static bool
invalid_shown(const struct node *nd)
{
	return nd->have && !nd->nv.iv.valid && nd->state != NODE_LOST;
}

static void
draw_node(struct ui_ctx *u, int y, int x, int cols, int namew, int bar, const struct node *nd,
    bool cursor, const bool *shown)
{
	const struct agg_fig *a = &nd->nv.iv.node;
	bool bad = invalid_shown(nd);
	char text[420];
	int i, rest;

	draw_text(u, y, x, namew, cursor ? ROLE_TAB_ACTIVE : nd->state == NODE_LOST || bad ?
	    ROLE_INVALID : ROLE_PLAIN, nd->name);
	x += namew + 1;
	draw_text(u, y, x, STATE_W, nd->state == NODE_LOST || bad ? ROLE_WARN : ROLE_PLAIN,
	    bad ? _("invalid") : _(node_state_name(nd->state)));
	x += STATE_W;
	/* a reason may use the whole rest of the row, past the figures'
	 * columns: the retry time at its end must be seen */
	rest = cols - namew - 1 - STATE_W;
	if (nd->state == NODE_LOST || !nd->have) {
		if (nd->state == NODE_LOST && nd->pid == 0)
			retry_text(text, sizeof text, nd, rest - 1, u->utf8);
		else if (nd->state == NODE_LOST || nd->state == NODE_ENDED)
			snprintf(text, sizeof text, "%s", nd->why);
		else
			snprintf(text, sizeof text, "%s", _("waiting for its first interval"));
		draw_words(u, y, x + 1, rest - 1, ROLE_INVALID, text);
		return;
	}
	draw_bar_edges(u, y, x + 1, bar);
	if (split_of(nd))
		draw_split_bar(u, y, x + 1, bar, &a->both, &a->t0_only, &a->t1_only);
	else
		draw_value_bar(u, y, x + 1, bar, &a->util, ROLE_UTIL);
	x += bar + 2;
	for (i = 0; i < NFIG; i++) {
		if (!shown[figcols[i].col])
			continue;
		draw_val(u, y, x, figcols[i].width, bad ? ROLE_INVALID : figcols[i].col == NC_BUSY ?
		    ROLE_BOTH : ROLE_PLAIN, figcols[i].fmt, col_val(a, figcols[i].col),
		    figcols[i].scale);
		x += figcols[i].width;
	}
}

/* The sort column's mark: a figure sorts highest first (down), a name A
 * to Z (up), S reverses either; "" for the list's own order. */
static const char *
sort_mark(const struct nodes_view *p, bool utf8)
{
	bool down = p->col == NC_NAME ? p->reverse : !p->reverse;

	if (p->col == NC_ORDER)
		return "";
	return utf8 ? (down ? "\u25bc" : "\u25b2") : (down ? "v" : "^");
}

/* The heads; the sort column's marked, in colour and by a mark after it
 * (down: highest or last first). */
static void
draw_heads(struct ui_ctx *u, const struct ui_area *a, const struct nodes_view *p, int namew,
    int bar)
{
	const char *mark = sort_mark(p, u->utf8);
	char text[160];
	int i, x, y = a->top;

	draw_text(u, y, a->left, a->cols, ROLE_LABEL, "");
	x = a->left;
	snprintf(text, sizeof text, "%s%s", _("node"), p->col == NC_NAME ? mark : "");
	draw_text(u, y, x, namew, p->col == NC_NAME ? ROLE_TAB_ACTIVE : ROLE_LABEL, text);
	x += namew + 1;
	snprintf(text, sizeof text, "%s%s", _("state"), p->col == NC_STATE ? mark : "");
	draw_text(u, y, x, STATE_W, p->col == NC_STATE ? ROLE_TAB_ACTIVE : ROLE_LABEL, text);
	x += STATE_W;
	draw_text(u, y, x, bar + 2, ROLE_LABEL, bar + 2 >= text_width(_("split (both|t0|t1)")) ?
	    _("split (both|t0|t1)") : "");
	x += bar + 2;
	for (i = 0; i < NFIG; i++) {
		bool on = p->col == (int)figcols[i].col;

		if (!p->shown[figcols[i].col])
			continue;
		snprintf(text, sizeof text, "%*s%s", figcols[i].width - (on ? 1 : 0),
		    _(ncol_names[figcols[i].col]), on ? mark : "");
		draw_text(u, y, x, figcols[i].width, p->col == (int)figcols[i].col ? ROLE_TAB_ACTIVE :
		    ROLE_LABEL, text);
		x += figcols[i].width;
	}
}

/* The name column: the widest name, within NODE_NAME_MIN and _W. */
static int
name_width(const struct cluster *c)
{
	int namew = NODE_NAME_MIN;
	size_t k;

	for (k = 0; k < c->n; k++) {
		int w = text_width(c->nodes[k].name);

		if (w > namew)
			namew = w;
	}
	return namew > NODE_NAME_W ? NODE_NAME_W : namew;
}

/* The last row: the node's reason (escaped when it was read). */
static void
draw_reason(struct ui_ctx *u, const struct ui_area *a, const struct node *nd)
{
	char text[420];

	snprintf(text, sizeof text, _("%s: its last interval is not valid: %s"), nd->name,
	    nd->nv.iv.reason[0] != '\0' ? nd->nv.iv.reason : _("no reason given"));
	draw_words(u, a->top + a->rows - 1, a->left, a->cols, ROLE_INVALID, text);
}

static void
nodes_draw(struct view *v, struct ui_ctx *u, const struct ui_area *a, const struct ui_frame *f)
{
	struct nodes_view *p = (struct nodes_view *)v;
	const struct cluster *c = f->cluster;
	int namew, fixed, figw, bar, visible, i;
	char text[160];
	bool bad;

	p->c = c;
	if (c == NULL || a->rows < 2 || a->cols < 20)
		return;
	collect(p, c);
	namew = name_width(c);
	columns_shown(p, c, a->cols, namew, &figw);
	fixed = namew + 1 + STATE_W + 2 + figw;
	bar = a->cols - fixed;
	if (bar > BAR_MAX)
		bar = BAR_MAX;
	if (bar < BAR_MIN)
		bar = BAR_MIN;
	visible = a->rows - 1;
	/* the cursor's node's reason, when its interval is not valid */
	bad = c->n > 0 && p->cur < c->n && invalid_shown(&c->nodes[p->order[p->cur]]);
	if (bad && visible > 2)
		visible--;
	else
		bad = false;
	if ((int)c->n > visible && visible > 2)
		visible--;
	/* the cursor in sight */
	if ((int)p->cur < v->scroll)
		v->scroll = (int)p->cur;
	if ((int)p->cur >= v->scroll + visible)
		v->scroll = (int)p->cur - visible + 1;
	view_scroll_set(v, visible, (int)c->n - visible);
	draw_heads(u, a, p, namew, bar);
	for (i = 0; i < visible && (size_t)(v->scroll + i) < c->n; i++) {
		size_t o = (size_t)(v->scroll + i);

		draw_node(u, a->top + 1 + i, a->left, a->cols, namew, bar, &c->nodes[p->order[o]],
		    o == p->cur, p->shown);
	}
	if ((int)c->n > visible && a->rows - 1 - (bad ? 1 : 0) > visible) {
		snprintf(text, sizeof text, _("nodes %d-%d of %zu: Up, Down, PgUp, PgDn; sorted by %s"),
		    v->scroll + 1, v->scroll + visible < (int)c->n ? v->scroll + visible : (int)c->n,
		    c->n, _(ncol_names[p->col]));
		draw_words(u, a->top + a->rows - 1 - (bad ? 1 : 0), a->left, a->cols, ROLE_LABEL, text);
	}
	if (bad)
		draw_reason(u, a, &c->nodes[p->order[p->cur]]);
}

static bool
nodes_key(struct view *v, int ch)
{
	struct nodes_view *p = (struct nodes_view *)v;
	size_t n = p->c != NULL ? p->c->n : 0;
	int page = v->page > 1 ? v->page - 1 : 1;

	switch (ch) {
	case 's':
		/* the next column shown (the job's only where they are) */
		do
			p->col = (p->col + 1) % NC_COUNT;
		while (!p->shown[p->col]);
		return true;
	case 'S':
		p->reverse = !p->reverse;
		return true;
	case KEY_UP:
		if (p->cur > 0)
			p->cur--;
		return true;
	case KEY_DOWN:
		if (p->cur + 1 < n)
			p->cur++;
		return true;
	case KEY_PPAGE:
		p->cur = p->cur > (size_t)page ? p->cur - (size_t)page : 0;
		return true;
	case KEY_NPAGE:
		p->cur = p->cur + (size_t)page < n ? p->cur + (size_t)page : n > 0 ? n - 1 : 0;
		return true;
	case KEY_HOME:
		p->cur = 0;
		return true;
	case KEY_END:
		p->cur = n > 0 ? n - 1 : 0;
		return true;
	case '\n': case '\r': case KEY_ENTER:
		if (p->cur < n)
			p->chosen = (int)p->order[p->cur];
		return true;
	default:
		return false;
	}
}

int
view_nodes_take(struct view *v)
{
	struct nodes_view *p = (struct nodes_view *)v;
	int k;

	if (v == NULL || v->id != VIEW_NODES)
		return -1;
	k = p->chosen;
	p->chosen = -1;
	return k;
}

static void
nodes_free(struct view *v)
{
	struct nodes_view *p = (struct nodes_view *)v;

	free(p->order);
	free(p);
}

struct view *
view_nodes_new(struct ui_settings *s)
{
	struct nodes_view *p = xcalloc(1, sizeof *p);
	int i;

	p->v.id = VIEW_NODES;
	p->v.draw = nodes_draw;
	p->v.key = nodes_key;
	p->v.free = nodes_free;
	p->v.s = s;
	p->chosen = -1;
	for (i = 0; i < NC_COUNT; i++)
		p->shown[i] = true;
	return &p->v;
}
