/* header.c: the top of the screen. The node's four shares double as the
 * legend: each is printed after its glyph in its colour, so the bars read
 * without a separate key. */
#include "config.h"
#include "ui/header.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

static const char *const view_names[VIEW_COUNT] = {
	[VIEW_CORES] = N_("Cores"),
	[VIEW_THREADS] = N_("Threads"),
	[VIEW_TOPOLOGY] = N_("Topology"),
	[VIEW_DIE] = N_("Die grid"),
};

const char *
header_view_name(enum view_id v)
{
	if ((int)v < 0 || v >= VIEW_COUNT)
		return "?";
	return _(view_names[v]);
}

/* Text at the cursor, clipped to the screen; moves the cursor. */
static void
put(struct ui_ctx *u, int y, int *x, enum ui_role r, const char *s)
{
	int cols = 0;
	const char *p;

	for (p = s; *p != '\0'; p++) {
		if (((unsigned char)*p & 0xC0) != 0x80)
			cols++;
	}
	if (*x >= u->cols)
		return;
	draw_text(u, y, *x, cols < u->cols - *x ? cols : u->cols - *x, r, s);
	*x += cols;
}

static void
put_plain(struct ui_ctx *u, int y, int *x, const char *s)
{
	put(u, y, x, ROLE_PLAIN, s);
}

void
header_window_text(char *buf, size_t len, enum avg_window w, double seconds)
{
	if (!(seconds > 0.0) || !isfinite(seconds))
		seconds = 0.0;
	switch (w) {
	case AVG_LAST:
		snprintf(buf, len, _("last %.2g s"), seconds);
		break;
	case AVG_WINDOW:
		snprintf(buf, len, _("%.0f s average"), seconds);
		break;
	case AVG_RUN:
	default:
		if (seconds < 120.0)
			snprintf(buf, len, _("run %.0f s"), seconds);
		else if (seconds < 7200.0)
			snprintf(buf, len, _("run %.0f min"), floor(seconds / 60.0));
		else
			snprintf(buf, len, _("run %.1f h"), seconds / 3600.0);
		break;
	}
}

void
header_speed_text(char *buf, size_t len, int speed)
{
	if (speed < 0)
		snprintf(buf, len, "x1/%d", 1 << (speed < -8 ? 8 : -speed));
	else
		snprintf(buf, len, "x%d", 1 << (speed > 16 ? 16 : speed));
}

void
header_duration_text(char *buf, size_t len, double seconds)
{
	long s;

	if (!(seconds > 0.0) || !isfinite(seconds))
		seconds = 0.0;
	/* Tenths while they still mean something, then a clock. */
	if (seconds < 100.0) {
		snprintf(buf, len, _("%.1f s"), seconds);
		return;
	}
	s = seconds < 1e9 ? (long)(seconds + 0.5) : 999999999L;
	if (s < 3600)
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

void
header_replay_text(char *buf, size_t len, const struct replay_view *r)
{
	char at[32], length[32], speed[16], total[32];

	header_duration_text(at, sizeof at, r->at);
	header_speed_text(speed, sizeof speed, r->speed);
	if (r->total_known)
		snprintf(total, sizeof total, "%llu", r->total);
	else
		snprintf(total, sizeof total, "?");
	if (r->length >= 0.0) {
		header_duration_text(length, sizeof length, r->length);
		/* TRANSLATORS: replay position: sample 17 of 59 (18.4 s of 57.9 s), speed x2 */
		snprintf(buf, len, _("%llu/%s (%s of %s) %s%s"), r->pos, total, at, length, speed,
		    r->at_end ? _(" end of replay") : "");
	} else {
		snprintf(buf, len, _("%llu/%s (%s) %s%s"), r->pos, total, at, speed,
		    r->at_end ? _(" end of replay") : "");
	}
}

int
header_rows(const struct ui_frame *f)
{
	return 4 + (f->job != NULL && f->job->active ? 1 : 0);
}

/* "█ both 20.4%": a share after its glyph, in its colour. */
static void
share(struct ui_ctx *u, int y, int *x, enum ui_role r, const char *label, const struct val *v)
{
	char num[48], text[96];

	put(u, y, x, r, u->fill[r]);
	val_text(num, sizeof num, "%.1f", v, 100.0);
	snprintf(text, sizeof text, " %s %s%s  ", label, num, v->kind == V_NONE ? "" : "%");
	put_plain(u, y, x, text);
}

static bool
agg_bound(const struct agg_fig *a)
{
	return a->both.kind == V_BOUND || a->t0_only.kind == V_BOUND ||
	    a->t1_only.kind == V_BOUND;
}

/* The four shares of an aggregate, in bar order, and the bound's legend. */
static void
shares(struct ui_ctx *u, int y, int *x, const struct agg_fig *a)
{
	share(u, y, x, ROLE_BOTH, _("both"), &a->both);
	share(u, y, x, ROLE_T0, _("t0 only"), &a->t0_only);
	share(u, y, x, ROLE_T1, _("t1 only"), &a->t1_only);
	share(u, y, x, ROLE_NEITHER, _("neither"), &a->neither);
	if (agg_bound(a)) {
		put(u, y, x, ROLE_BOUND, u->fill[ROLE_BOUND]);
		put(u, y, x, ROLE_WARN, _(" bound: both or one alone  "));
	}
}

static void
line_machine(struct ui_ctx *u, int y, const struct ui_frame *f)
{
	const struct machine *m = f->m;
	const struct topology *t = &m->topo;
	const char *brand = m->id.brand[0] != '\0' ? m->id.brand : t->brand;
	char text[256];
	int x = 0;

	put(u, y, &x, ROLE_LABEL, "httop ");
	snprintf(text, sizeof text, "%s  ", m->hostname);
	put_plain(u, y, &x, text);
	snprintf(text, sizeof text, "%s%s(%s)  ", brand, *brand ? " " : "",
	    uarch_group_title(m->group));
	put_plain(u, y, &x, text);
	snprintf(text, sizeof text, ngettext("%u socket, %u cores, %u threads",
	    "%u sockets, %u cores, %u threads", t->npackages), t->npackages, t->ncores, t->ncpus);
	put_plain(u, y, &x, text);
}

static void
line_source(struct ui_ctx *u, int y, const struct ui_frame *f)
{
	char text[256], win[64];
	int x = 0;

	put(u, y, &x, ROLE_LABEL, _("source "));
	snprintf(text, sizeof text, "%s%s%s  ", f->source_name ? f->source_name : "?",
	    f->replay_pos ? " " : "", f->replay_pos ? f->replay_pos : "");
	put_plain(u, y, &x, text);
	put(u, y, &x, ROLE_LABEL, _("interval "));
	snprintf(text, sizeof text, "%.3g s  ", f->delay);
	put_plain(u, y, &x, text);
	put(u, y, &x, ROLE_LABEL, _("figures "));
	if (f->window == AVG_WINDOW && f->window_length > 0.0) {
		/* The length asked for; and how much of it is there so far. */
		header_window_text(win, sizeof win, f->window, f->window_length);
		if (f->window_seconds + 0.05 < f->window_length) {
			size_t len = strlen(win);

			snprintf(win + len, sizeof win - len, _(" (%.1f s so far)"), f->window_seconds);
		}
	} else {
		header_window_text(win, sizeof win, f->window, f->window_seconds);
	}
	snprintf(text, sizeof text, "%s  ", win);
	put_plain(u, y, &x, text);
	if (f->plan != NULL) {
		put(u, y, &x, ROLE_LABEL, _("split "));
		snprintf(text, sizeof text, "%s  ", split_method_name(f->plan->split));
		put_plain(u, y, &x, text);
	}
	if (f->paused)
		put(u, y, &x, ROLE_WARN, _("PAUSED"));
}

static void
line_node(struct ui_ctx *u, int y, const struct ui_frame *f)
{
	const struct agg_fig *n = &f->iv->node;
	char a[48], b[48], c[48], d[48], text[256];
	int x = 0;

	put(u, y, &x, ROLE_LABEL, _("node  "));
	if (f->m->topo.max_smt == 2 && f->plan != NULL && f->plan->split != SPLIT_NONE) {
		shares(u, y, &x, n);
	} else {
		snprintf(text, sizeof text, _("no four-way split (%u threads per core)  "),
		    f->m->topo.max_smt);
		put(u, y, &x, ROLE_INVALID, text);
		put(u, y, &x, ROLE_UTIL, u->fill[ROLE_UTIL]);
		put_plain(u, y, &x, " ");
	}
	val_text(a, sizeof a, "%.1f", &n->util, 100.0);
	val_text(b, sizeof b, "%.2f", &n->active_threads, 1.0);
	val_text(c, sizeof c, "%.2f", &n->ghz, 1.0);
	val_text(d, sizeof d, "%.2f", &n->cpi, 1.0);
	snprintf(text, sizeof text, _("util %s%%  thr %s  %s GHz  CPI %s"), a, b, c, d);
	put_plain(u, y, &x, text);
}

static void
line_job(struct ui_ctx *u, int y, const struct ui_frame *f)
{
	const struct job_view *j = f->job;
	struct agg_fig a;
	char num[48], text[320];
	int x = 0;

	memset(&a, 0, sizeof a);
	put(u, y, &x, ROLE_LABEL, _("job "));
	snprintf(text, sizeof text, "%s%s  ", j->label, j->only ? "" : _(" (all cores shown)"));
	put_plain(u, y, &x, text);
	if (j->cpus != NULL && cpulist_count(j->cpus) > 0) {
		metrics_aggregate_subset(f->iv, &f->m->topo, j->cpus, &a);
		shares(u, y, &x, &a);
		if (a.nvalid > 0 && a.both_of_busy.kind != V_NONE) {
			val_text(num, sizeof num, "%.1f", &a.both_of_busy, 100.0);
			strncat(num, "%", sizeof num - strlen(num) - 1);
			snprintf(text, sizeof text, _("both threads %s of busy core time  "), num);
			put_plain(u, y, &x, text);
		}
	} else {
		put(u, y, &x, ROLE_WARN, _("no CPUs left to watch  "));
	}
	if (j->note[0] != '\0')
		put(u, y, &x, ROLE_WARN, j->note);
}

static void
line_tabs(struct ui_ctx *u, int y, enum view_id active, struct header_tabs *tabs)
{
	char text[64];
	int x = 0, v;

	tabs->row = y;
	for (v = 0; v < VIEW_COUNT; v++) {
		snprintf(text, sizeof text, " %d %s ", v + 1, header_view_name((enum view_id)v));
		tabs->x0[v] = x;
		put(u, y, &x, v == (int)active ? ROLE_TAB_ACTIVE : ROLE_TAB, text);
		tabs->x1[v] = x;
		put_plain(u, y, &x, " ");
	}
	put(u, y, &x, ROLE_LABEL, _("  h help  q quit"));
}

int
header_draw(struct ui_ctx *u, const struct ui_frame *f, enum view_id active,
    struct header_tabs *tabs)
{
	int y = 0;

	line_machine(u, y++, f);
	line_source(u, y++, f);
	line_node(u, y++, f);
	if (f->job != NULL && f->job->active)
		line_job(u, y++, f);
	line_tabs(u, y++, active, tabs);
	return y;
}

int
header_tab_at(const struct header_tabs *tabs, int y, int x)
{
	int v;

	if (y != tabs->row)
		return -1;
	for (v = 0; v < VIEW_COUNT; v++) {
		if (x >= tabs->x0[v] && x < tabs->x1[v])
			return v;
	}
	return -1;
}
