/* header_nodes.c: the header over many nodes (header.h): which nodes and
 * how they are reached, how many answer, and the job's figures, computed
 * by the cluster from the nodes' (metrics_combine), as the node line
 * shows one machine's; and the line a node's own views add. */
#include "config.h"
#include "ui/header.h"

#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

enum { P_KEEP_LABEL = FLOW_KEEP, P_NODES = 1, P_SHARES = 1, P_STATES = 2, P_JOBIV = 3,
	P_UTIL = 3, P_FIGS = 5, P_BUSY = 6, P_NAME = 8 };  /* P_UTIL, P_FIGS as header.c's */

static void
line_nodes(struct flow *fl, const struct ui_frame *f)
{
	const struct cluster *c = f->cluster;
	unsigned count[5], ncores = 0;
	char text[160];
	size_t i;

	cluster_counts(c, count);
	for (i = 0; i < c->n; i++)
		if (c->nodes[i].have)
			ncores += c->nodes[i].nv.m.topo.ncores;
	flow_field(fl, P_NAME);
	flow_put(fl, ROLE_LABEL, "httop");
	flow_field(fl, P_KEEP_LABEL);
	flow_put(fl, ROLE_LABEL, _("nodes"));
	flow_words(fl, P_NODES, ROLE_PLAIN, f->nodes_label != NULL ? f->nodes_label : "");
	snprintf(text, sizeof text, ngettext("%zu node:", "%zu nodes:", c->n), c->n);
	flow_field(fl, P_STATES);
	flow_put(fl, ROLE_PLAIN, text);
	snprintf(text, sizeof text, _("%u up"), count[NODE_UP]);
	flow_put(fl, ROLE_PLAIN, " ");
	flow_put(fl, ROLE_PLAIN, text);
	if (count[NODE_LOST] > 0) {
		snprintf(text, sizeof text, _("%u lost"), count[NODE_LOST]);
		flow_put(fl, ROLE_PLAIN, ", ");
		flow_put(fl, ROLE_WARN, text);
	}
	if (count[NODE_STARTING] + count[NODE_WAITING] > 0) {
		snprintf(text, sizeof text, _("%u starting"), count[NODE_STARTING] +
		    count[NODE_WAITING]);
		flow_put(fl, ROLE_PLAIN, ", ");
		flow_put(fl, ROLE_PLAIN, text);
	}
	if (count[NODE_ENDED] > 0) {
		snprintf(text, sizeof text, _("%u ended"), count[NODE_ENDED]);
		flow_put(fl, ROLE_PLAIN, ", ");
		flow_put(fl, ROLE_PLAIN, text);
	}
	snprintf(text, sizeof text, ngettext("%u core", "%u cores", ncores), ncores);
	flow_field(fl, P_FIGS);
	flow_put(fl, ROLE_PLAIN, text);
}

static void
line_interval(struct flow *fl, const struct ui_frame *f)
{
	const struct cluster *c = f->cluster;
	char text[160];

	snprintf(text, sizeof text, "%.3g s", f->delay);
	header_labelled(fl, P_JOBIV, _("interval"), text);
	if (c->have_job) {
		snprintf(text, sizeof text, _("%u of %u nodes"), c->job.nin, c->job.nnodes);
		header_labelled(fl, P_JOBIV, _("last job interval"), text);
	} else {
		flow_words(fl, P_JOBIV, ROLE_PLAIN, _("waiting for the nodes' first intervals"));
	}
	if (f->paused) {
		flow_field(fl, FLOW_KEEP);
		flow_put(fl, ROLE_WARN, _("PAUSED"));
	}
}

static void
line_job(struct flow *fl, const struct ui_ctx *u, const struct ui_frame *f)
{
	const struct agg_fig *a = &f->cluster->job.agg;
	char num[48], text[160];

	flow_field(fl, FLOW_KEEP);
	flow_put(fl, ROLE_LABEL, _("job"));
	if (!f->cluster->have_job)
		return;
	header_share(fl, u, P_SHARES, ROLE_BOTH, _("both"), &a->both);
	header_share(fl, u, P_SHARES, ROLE_T0, _("t0 only"), &a->t0_only);
	header_share(fl, u, P_SHARES, ROLE_T1, _("t1 only"), &a->t1_only);
	header_share(fl, u, P_SHARES, ROLE_NEITHER, _("neither"), &a->neither);
	/* The nodes' sources may differ: every figure, a dash where none. */
	header_figures(fl, a, P_UTIL, NULL);
	if (a->both_of_busy.kind != V_NONE) {
		val_text(num, sizeof num, "%.1f", &a->both_of_busy, 100.0);
		strncat(num, "%", sizeof num - strlen(num) - 1);
		snprintf(text, sizeof text, _("both threads %s of busy core time"), num);
		flow_words(fl, P_BUSY, ROLE_PLAIN, text);
	}
	if (!f->cluster->job.valid && f->cluster->job.reason[0] != '\0')
		flow_phrase_words(fl, P_STATES, ROLE_WARN, f->cluster->job.reason);
}

void
header_nodes_flow(struct flow *fl, const struct ui_ctx *u, const struct ui_frame *f)
{
	flow_init(fl);
	line_nodes(fl, f);
	flow_line(fl);
	line_interval(fl, f);
	flow_line(fl);
	line_job(fl, u, f);
}

void
header_node_line(struct flow *fl, const struct ui_frame *f)
{
	const struct cluster *c = f->cluster;
	const struct node *nd;
	char text[160];

	if (f->node < 0 || (size_t)f->node >= c->n)
		return;
	nd = &c->nodes[f->node];
	flow_field(fl, FLOW_KEEP);
	flow_put(fl, ROLE_LABEL, _("node"));
	flow_put(fl, ROLE_PLAIN, " ");
	flow_put(fl, ROLE_PLAIN, nd->name);
	snprintf(text, sizeof text, _("(%d of %zu)"), f->node + 1, c->n);
	flow_words(fl, P_STATES, ROLE_PLAIN, text);
	if (nd->state == NODE_LOST)
		flow_words(fl, P_STATES, ROLE_WARN, nd->why);
	flow_words(fl, P_JOBIV, ROLE_LABEL, _("Esc or 5: all nodes"));
}
