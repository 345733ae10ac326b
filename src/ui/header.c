/* header.c: the top of the screen. The node's four shares double as the
 * legend: each is printed after its glyph in its colour, so the bars read
 * without a separate key. The lines are fields in a flow (flow.h): on a
 * narrow terminal they wrap, and the least important go whole, in this
 * order (most important last): "httop", the brand, the group's name, the
 * split method, the bound's legend, thr, GHz and CPI, the job's both of
 * busy time, the counts, the interval, utilisation, the job's shares,
 * the window, the job and its notes, the node's shares (neither first),
 * the source and the host; the line labels and PAUSED always stay. */
#include "config.h"
#include "ui/header.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

static const char *const view_names[VIEW_ALL] = {
	[VIEW_CORES] = N_("Cores"),
	[VIEW_THREADS] = N_("Threads"),
	[VIEW_TOPOLOGY] = N_("Topology"),
	[VIEW_DIE] = N_("Die grid"),
	[VIEW_NODES] = N_("Nodes"),
};

const char *
header_view_name(enum view_id v)
{
	if ((int)v < 0 || v >= VIEW_ALL)
		return "?";
	return _(view_names[v]);
}

void
header_window_text(char *buf, size_t len, enum avg_window w, double seconds)
{
	if (!(seconds > 0.0) || !isfinite(seconds))
		seconds = 0.0;
	switch (w) {
	case AVG_LAST:
		snprintf(buf, len, _("last %.3g s"), seconds);
		break;
	case AVG_WINDOW:
		snprintf(buf, len, _("%.0f s average"), seconds);
		break;
	case AVG_RUN:
	default:
		/* Under a second (a run that began again at a jump in a
		 * replay: the one short interval since), as "last" says it,
		 * not "run 0 s". */
		if (seconds < 0.95)
			snprintf(buf, len, _("run %.3g s"), seconds);
		else if (seconds < 120.0)
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
		/* TRANSLATORS: replay position: interval 17 of 59 (18.4 s of 57.9 s), speed x2 */
		snprintf(buf, len, _("%llu/%s (%s of %s) %s%s"), r->pos, total, at, length, speed,
		    r->at_end ? _(" end of replay") : "");
	} else {
		snprintf(buf, len, _("%llu/%s (%s) %s%s"), r->pos, total, at, speed,
		    r->at_end ? _(" end of replay") : "");
	}
}

/* Importance of the header's fields (FLOW_KEEP: always shown). */
enum {
	P_HOST = 1, P_SOURCE = 1, P_SHARES = 1, P_WINDOW = 2, P_JOB = 2, P_UTIL = 3,
	P_JOB_SHARES = 3, P_COUNTS = 4, P_INTERVAL = 4, P_FIGS = HEADER_PRIO_FIGS, P_BOUND = 5,
	P_BUSY = 6, P_SPLIT = 6, P_GROUP = 6, P_BRAND = 7, P_NAME = 8,
};

static bool
agg_bound(const struct agg_fig *a)
{
	return a->both.kind == V_BOUND || a->t0_only.kind == V_BOUND ||
	    a->t1_only.kind == V_BOUND;
}

/* The four shares of an aggregate, in bar order, and the bound's legend. */
static void
shares(struct flow *fl, const struct ui_ctx *u, int prio, const struct agg_fig *a)
{
	header_share(fl, u, prio, ROLE_BOTH, _("both"), &a->both);
	header_share(fl, u, prio, ROLE_T0, _("t0 only"), &a->t0_only);
	header_share(fl, u, prio, ROLE_T1, _("t1 only"), &a->t1_only);
	header_share(fl, u, prio, ROLE_NEITHER, _("neither"), &a->neither);
	if (agg_bound(a)) {
		flow_field(fl, P_BOUND);
		flow_put(fl, ROLE_BOUND, u->fill[ROLE_BOUND]);
		flow_put(fl, ROLE_WARN, _(" bound: both or one alone"));
	}
}

/* "2 sockets, 36 cores, 72 threads": the machine's size, one phrase kept
 * whole (it wraps to a row of its own, or goes, but is never split: a row
 * ending "36 cores," read as the whole size). */
static void
counts(struct flow *fl, unsigned packages, unsigned cores, unsigned cpus)
{
	char text[64];

	flow_field(fl, P_COUNTS);
	/* TRANSLATORS: the first of "2 sockets, 36 cores, 72 threads" */
	snprintf(text, sizeof text, ngettext("%u socket,", "%u sockets,", packages), packages);
	flow_put(fl, ROLE_PLAIN, text);
	flow_put(fl, ROLE_PLAIN, " ");
	snprintf(text, sizeof text, ngettext("%u core,", "%u cores,", cores), cores);
	flow_put(fl, ROLE_PLAIN, text);
	flow_put(fl, ROLE_PLAIN, " ");
	snprintf(text, sizeof text, ngettext("%u thread", "%u threads", cpus), cpus);
	flow_put(fl, ROLE_PLAIN, text);
}

static void
line_machine(struct flow *fl, const struct ui_frame *f)
{
	const struct machine *m = f->m;
	const struct topology *t = &m->topo;
	const char *brand = machine_brand(m);
	char text[256];

	flow_field(fl, P_NAME);
	flow_put(fl, ROLE_LABEL, "httop");
	flow_field(fl, P_HOST);
	flow_put(fl, ROLE_PLAIN, m->hostname);
	flow_words(fl, P_BRAND, ROLE_PLAIN, brand);
	snprintf(text, sizeof text, "(%s)", uarch_group_title(m->group));
	flow_words(fl, P_GROUP, ROLE_PLAIN, text);
	counts(fl, t->npackages, t->ncores, t->ncpus);
}

void
header_window_label(char *buf, size_t len, const struct ui_frame *f)
{
	size_t n;

	if (f->window != AVG_WINDOW || !(f->window_length > 0.0)) {
		header_window_text(buf, len, f->window, f->window_seconds);
		return;
	}
	/* The length asked for; and how much of it there is while it fills.
	 * A full window covers the snapshots inside it: up to an interval
	 * less than its length, which is no reason to say "so far". */
	header_window_text(buf, len, f->window, f->window_length);
	if (f->window_seconds + 1.5 * (f->delay > 0.0 ? f->delay : 0.0) < f->window_length &&
	    f->window_seconds + 0.05 < f->window_length) {
		n = strlen(buf);
		snprintf(buf + n, len - n, f->window_seconds < 0.95 ? _(" (%.2g s so far)") :
		    _(" (%.1f s so far)"), f->window_seconds);
	}
}

static void
line_source(struct flow *fl, const struct ui_frame *f)
{
	char text[256];

	header_labelled(fl, P_SOURCE, _("source"), f->source_name ? f->source_name : "?");
	if (f->replay_pos != NULL)
		flow_put_words(fl, ROLE_PLAIN, f->replay_pos);
	snprintf(text, sizeof text, "%.3g s", f->delay);
	header_labelled(fl, P_INTERVAL, _("interval"), text);
	header_window_label(text, sizeof text, f);
	header_labelled(fl, P_WINDOW, _("figures"), text);
	if (f->plan != NULL)
		header_labelled(fl, P_SPLIT, _("split"), plan_split_name(f->plan));
	/* A source without counters (sched, procstat) says what its figures
	 * mean. */
	if (plan_meaning(f->plan) != NULL) {
		flow_field(fl, P_SPLIT);
		flow_put(fl, ROLE_LABEL, _("meaning"));
		flow_put_words(fl, ROLE_PLAIN, _(plan_meaning(f->plan)));
	}
	if (f->paused) {
		flow_field(fl, FLOW_KEEP);
		flow_put(fl, ROLE_WARN, _("PAUSED"));
	}
}

static void
line_node(struct flow *fl, const struct ui_ctx *u, const struct ui_frame *f)
{
	const struct agg_fig *n = &f->iv->node;
	char text[160];

	flow_field(fl, FLOW_KEEP);
	flow_put(fl, ROLE_LABEL, _("node"));
	if (f->m->topo.max_smt == 2 && f->plan != NULL && f->plan->split != SPLIT_NONE) {
		shares(fl, u, P_SHARES, n);
		header_figures(fl, n, P_UTIL, f->plan);
		return;
	}
	snprintf(text, sizeof text, ngettext("no four-way split (%u thread per core)",
	    "no four-way split (%u threads per core)", f->m->topo.max_smt), f->m->topo.max_smt);
	flow_words(fl, P_UTIL, ROLE_INVALID, text);
	/* The utilisation bars' legend: the glyph, then the figure. */
	flow_field(fl, P_SHARES);
	flow_put(fl, ROLE_UTIL, u->fill[ROLE_UTIL]);
	flow_put(fl, ROLE_PLAIN, " ");
	val_text(text, sizeof text, "%.1f", &n->util, 100.0);
	flow_put(fl, ROLE_LABEL, _("util"));
	flow_put(fl, ROLE_PLAIN, " ");
	flow_put(fl, ROLE_PLAIN, text);
	if (n->util.kind != V_NONE)
		flow_put(fl, ROLE_PLAIN, "%");
	header_figures(fl, n, -1, f->plan);
}

/* The job's own figures (--source sched with a job: its tasks told
 * apart), after the CPUs': its split of its cores' time and its CPU
 * seconds, "shared" said in words (a sibling ran another task). */
static void
job_own(struct flow *fl, const struct agg_fig *a)
{
	char b[24], al[24], sh[24], text[320];

	if (a->cpu_s.kind == V_NONE)
		return;
	if (a->job_both.kind != V_NONE) {
		val_text(b, sizeof b, "%.1f", &a->job_both, 100.0);
		val_text(al, sizeof al, "%.1f", &a->job_alone, 100.0);
		val_text(sh, sizeof sh, "%.1f", &a->job_shared, 100.0);
		snprintf(text, sizeof text, _("its own tasks: both %s%% alone %s%% shared %s%% "
		    "(shared: a sibling ran another task)"), b, al, sh);
		flow_words(fl, P_JOB_SHARES, ROLE_PLAIN, text);
	}
	val_text(b, sizeof b, "%.2f", &a->cpu_s, 1.0);
	snprintf(text, sizeof text, a->cpu_s.kind == V_BOUND ? _("its CPU %s s (a bound)") :
	    _("its CPU %s s"), b);
	flow_words(fl, P_JOB_SHARES, ROLE_PLAIN, text);
}

static void
line_job(struct flow *fl, const struct ui_ctx *u, const struct ui_frame *f)
{
	const struct job_view *j = f->job;
	struct agg_fig a;
	char num[48], text[320];

	memset(&a, 0, sizeof a);
	flow_field(fl, FLOW_KEEP);
	flow_put(fl, ROLE_LABEL, _("job"));
	flow_put_words(fl, ROLE_PLAIN, j->label);
	if (j->ended) {
		/* Said once: why (the watch's note), and what is shown now. */
		snprintf(text, sizeof text, "%s%s%s", j->note, j->note[0] != '\0' ? "; " : "",
		    _("nothing left to watch: all cores shown"));
		flow_words(fl, P_JOB, ROLE_WARN, text);
		return;
	}
	if (!j->only)
		flow_put_words(fl, ROLE_PLAIN, _("(all cores shown)"));
	if (j->cpus != NULL && cpulist_count(j->cpus) > 0) {
		metrics_aggregate_subset(f->iv, &f->m->topo, j->cpus, &a);
		shares(fl, u, P_JOB_SHARES, &a);
		if (a.nvalid > 0 && a.both_of_busy.kind != V_NONE) {
			val_text(num, sizeof num, "%.1f", &a.both_of_busy, 100.0);
			strncat(num, "%", sizeof num - strlen(num) - 1);
			snprintf(text, sizeof text, _("both threads %s of busy core time"), num);
			flow_words(fl, P_BUSY, ROLE_PLAIN, text);
		}
		job_own(fl, &a);
	} else {
		flow_words(fl, P_JOB, ROLE_WARN, _("no CPUs left to watch"));
	}
	if (j->note[0] != '\0')
		flow_words(fl, P_JOB, ROLE_WARN, j->note);
}

void
header_flow(struct flow *fl, const struct ui_ctx *u, const struct ui_frame *f)
{
	if (f->cluster != NULL && f->node < 0) {
		header_nodes_flow(fl, u, f);
		return;
	}
	flow_init(fl);
	line_machine(fl, f);
	flow_line(fl);
	line_source(fl, f);
	flow_line(fl);
	line_node(fl, u, f);
	if (f->job != NULL && f->job->active) {
		flow_line(fl);
		line_job(fl, u, f);
	}
	if (f->cluster != NULL) {
		flow_line(fl);
		header_node_line(fl, f);
	}
}

int
header_lines(const struct ui_frame *f)
{
	if (f->cluster != NULL && f->node < 0)
		return 3;
	return 3 + (f->job != NULL && f->job->active ? 1 : 0) + (f->cluster != NULL ? 1 : 0);
}

/* The tabs: every view's name, or, when they do not fit, the active one's
 * and the others' numbers; "h help  q quit" after them if it fits. */
static void
line_tabs(struct ui_ctx *u, int y, enum view_id active, struct header_tabs *tabs, int count)
{
	const char *keys = _("h help  q quit");
	char text[VIEW_ALL][64];
	int x, v, width = 0, pass;

	tabs->row = y;
	tabs->count = count;
	draw_text(u, y, 0, u->cols, ROLE_PLAIN, "");
	for (pass = 0; pass < 2; pass++) {
		width = 0;
		for (v = 0; v < count; v++) {
			if (pass == 0 || v == (int)active)
				snprintf(text[v], sizeof text[v], " %d %s ", v + 1,
				    header_view_name((enum view_id)v));
			else
				snprintf(text[v], sizeof text[v], " %d ", v + 1);
			width += text_width(text[v]) + 1;
		}
		if (width <= u->cols)
			break;
	}
	for (x = 0, v = 0; v < count; v++) {
		int w = text_width(text[v]);

		tabs->x0[v] = x;
		tabs->x1[v] = x + w < u->cols ? x + w : u->cols;
		draw_text(u, y, x, w, v == (int)active ? ROLE_TAB_ACTIVE : ROLE_TAB, text[v]);
		x += w + 1;
	}
	if (x + 1 + text_width(keys) <= u->cols)
		draw_text(u, y, x + 1, text_width(keys), ROLE_LABEL, keys);
}

int
header_draw(struct ui_ctx *u, const struct ui_frame *f, enum view_id active,
    struct header_tabs *tabs, int max_rows)
{
	struct flow fl;
	int rows;

	if (max_rows < 1)
		return 0;
	header_flow(&fl, u, f);
	rows = flow_layout(&fl, u->cols, max_rows - 1);
	flow_draw(&fl, u, 0, 0);
	line_tabs(u, rows, active, tabs, f->cluster != NULL ? VIEW_ALL : VIEW_COUNT);
	return rows + 1;
}

int
header_tab_at(const struct header_tabs *tabs, int y, int x)
{
	int v;

	if (y != tabs->row)
		return -1;
	for (v = 0; v < tabs->count; v++) {
		if (x >= tabs->x0[v] && x < tabs->x1[v])
			return v;
	}
	return -1;
}
