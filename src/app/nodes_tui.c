/* nodes_tui.c: the live view over many nodes. The Nodes view first (a
 * row per node, the job's figures in the header); Enter opens a node's
 * Cores, Threads, Topology and Die grid views from its stream. The one
 * wait takes the keys, the signal pipes and every node's pipes; the
 * screen is drawn every -d seconds (and at once for a key), from the
 * nodes' last intervals and the job's last interval. */
#include "config.h"
#include "app/nodes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/context.h"
#include "sys/evloop.h"
#include "sys/signals.h"
#include "ui/screen.h"
#include "ui/settings.h"
#include "ui/tui.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* While nodes come up the screen follows them this often, so the first
 * full frame does not wait for -d; only while they do (nodes came up
 * since the last draw, or none yet in the first START_FOLLOW seconds and
 * -d twice): a node that never gives a line (down from the start, or
 * slow) would have the screen drawn ten times a second for as long (at
 * 4,096 nodes, 4.6 % of a CPU where 2.9 % without it). */
#define FIRST_FRAMES 0.1
#define START_FOLLOW 10.0

struct nodes_live {
	struct nodes_app *na;
	struct tui *tui;
	struct ui_settings set;
	char *label;               /* "LIST via TRANSPORT", the list whole */
	double next_draw;
	double started;            /* clock_mono() at the start */
	unsigned long drawn_jobs;
	size_t drawn_have;         /* nodes that had an interval at the last draw */
	bool all_up_drawn;         /* every node had an interval at the last draw */
};

static void
draw(struct nodes_live *l)
{
	const struct cluster *c = &l->na->c;
	struct ui_frame f;
	int k = tui_node(l->tui);

	/* Only the node shown is read whole. */
	cluster_want_full(&l->na->c, k);
	memset(&f, 0, sizeof f);
	f.cluster = c;
	f.nodes_label = l->label;
	f.delay = l->na->o->delay;
	f.paused = tui_paused(l->tui);
	f.window = AVG_LAST;
	f.node = -1;
	if (k >= 0 && (size_t)k < c->n && c->nodes[k].have) {
		const struct node *nd = &c->nodes[k];

		f.node = k;
		f.m = &nd->nv.m;
		f.plan = nd->nv.plan;
		f.iv = &nd->nv.iv;
		f.layout = nd->nv.have_layout ? &nd->nv.layout : NULL;
		f.source_name = nd->nv.source;
		f.window_seconds = nd->nv.iv.dt;
	}
	tui_draw(l->tui, &f);
	l->drawn_jobs = c->jobs;
}

static void
note_state(void *arg, const struct node *n)
{
	struct nodes_live *l = arg;
	char text[512];

	if (n->state == NODE_LOST)
		snprintf(text, sizeof text, _("node %s lost: %s"), n->name, n->why);
	else
		snprintf(text, sizeof text, _("node %s: %s"), n->name, n->why);
	tui_note(l->tui, text);
}

/* The nodes that have had an interval. */
static size_t
count_have(const struct cluster *c)
{
	size_t i, k = 0;

	for (i = 0; i < c->n; i++)
		k += c->nodes[i].have;
	return k;
}

/* Keys; 1 to quit. */
static int
keys(struct nodes_live *l)
{
	enum tui_cmd cmd = tui_input(l->tui);

	if (cmd == TUI_QUIT)
		return 1;
	if (cmd == TUI_DELAY) {
		/* The nodes run at the -d they were started with. */
		l->set.delay = l->na->o->delay;
		tui_note(l->tui, _("the nodes' interval is set at the start (-d)"));
	}
	if (cmd == TUI_WINDOW) {
		l->set.window = AVG_LAST;
		tui_note(l->tui, _("a node's figures are its last interval's"));
	}
	if (cmd != TUI_NONE)
		draw(l);
	return 0;
}

static int
loop(struct nodes_live *l)
{
	struct cluster *c = &l->na->c;
	const struct options *o = l->na->o;
	struct evwait w;
	unsigned wake = 0;
	double now, d = o->delay;
	size_t have;
	bool coming;

	memset(&w, 0, sizeof w);
	l->next_draw = l->started = clock_mono();
	for (;;) {
		cluster_tick(c);
		now = clock_mono();
		/* Drawn every -d; while nodes still come up, as they come. */
		if (!tui_paused(l->tui) && (now >= l->next_draw || (!l->all_up_drawn &&
		    c->jobs != l->drawn_jobs))) {
			/* followed while nodes come up since the last draw, and
			 * at each job interval until all have come */
			have = count_have(c);
			coming = have > l->drawn_have ||
			    (have == 0 && now < l->started + START_FOLLOW + 2.0 * d);
			l->all_up_drawn = have == c->n;
			draw(l);
			l->drawn_have = have;
			l->next_draw = now + (l->all_up_drawn || !coming ? d :
			    (d < FIRST_FRAMES ? d : FIRST_FRAMES));
		}
		if (o->iterations > 0 && c->jobs >= (unsigned long)o->iterations)
			break;
		w.in_fd = tui_fd(l->tui);
		w.out_fd = STDOUT_FILENO;
		wake = app_nodes_wait(l->na, &w, wake, tui_paused(l->tui) ? INFINITY : l->next_draw);
		if (wake & WAKE_SIGNAL)
			break;
		if ((wake & (WAKE_INPUT | WAKE_OTHER)) && keys(l) != 0)
			return EXIT_OK;
	}
	return signals_exit_status(signals_caught());
}

int
app_nodes_tui(struct nodes_app *na)
{
	const struct options *o = na->o;
	struct cluster_config cfg;
	struct nodes_live l;
	char path[4096];
	struct errmsg e;
	size_t len;
	int status;

	memset(&l, 0, sizeof l);
	l.na = na;
	ui_settings_default(&l.set);
	if (ui_config_path(path, sizeof path, &e) == 0)
		ui_config_load(path, &l.set, &e);
	l.set.delay = o->delay;
	l.set.window = AVG_LAST;
	len = (size_t)snprintf(NULL, 0, _("%s via %s"), na->spec, transport_name(&na->tr)) + 1;
	l.label = xmalloc(len);
	snprintf(l.label, len, _("%s via %s"), na->spec, transport_name(&na->tr));
	l.tui = tui_open(&l.set, &na->e);
	if (l.tui == NULL) {
		app_report(&na->e);
		free(l.label);
		return EXIT_FAIL;
	}
	signals_set_screen(screen_emergency_restore);
	signals_hold_winch(true);
	tui_set_nodes(l.tui, true);
	app_nodes_config(na, &cfg);
	cfg.on_state = note_state;
	cfg.arg = &l;
	cluster_init(&na->c, na->hosts.names, na->hosts.n, &cfg);
	na->have_cluster = true;
	status = loop(&l);
	tui_free(l.tui);
	signals_set_screen(NULL);
	signals_hold_winch(false);
	free(l.label);
	return status;
}
