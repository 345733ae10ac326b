/* header_fig.c: the fields the header lines of one node and of many nodes
 * (header.c, header_nodes.c) share: a labelled value, a share after its
 * glyph, an aggregate's figures. */
#include "config.h"
#include "ui/header.h"

#include <stdio.h>

#include "metrics/figures.h"

#include "util/i18n.h"

void
header_labelled(struct flow *fl, int prio, const char *label, const char *value)
{
	flow_field(fl, prio);
	flow_put(fl, ROLE_LABEL, label);
	flow_put(fl, ROLE_PLAIN, " ");
	flow_put(fl, ROLE_PLAIN, value);
}

void
header_share(struct flow *fl, const struct ui_ctx *u, int prio, enum ui_role r,
    const char *label, const struct val *v)
{
	char num[48], text[96];

	val_text(num, sizeof num, "%.1f", v, 100.0);
	snprintf(text, sizeof text, " %s %s%s", label, num, v->kind == V_NONE ? "" : "%");
	flow_field(fl, prio);
	flow_put(fl, r, u->fill[r]);
	flow_put(fl, ROLE_PLAIN, text);
}

/* util (unless util_prio < 0: shown already), thr, GHz, CPI of an
 * aggregate; GHz and CPI only where the source can give them. */
void
header_figures(struct flow *fl, const struct agg_fig *n, int util_prio, const struct plan *p)
{
	static const struct figure *ghz, *cpi;
	char a[48], text[96];

	if (ghz == NULL) {
		ghz = figure_named("ghz");
		cpi = figure_named("cpi");
	}

	if (util_prio >= 0) {
		val_text(a, sizeof a, "%.1f", &n->util, 100.0);
		snprintf(text, sizeof text, "%s%s", a, n->util.kind == V_NONE ? "" : "%");
		header_labelled(fl, util_prio, _("util"), text);
	}
	val_text(a, sizeof a, "%.2f", &n->active_threads, 1.0);
	header_labelled(fl, HEADER_PRIO_FIGS, _("thr"), a);
	if (figure_read(ghz, p)) {
		val_text(a, sizeof a, "%.2f", &n->ghz, 1.0);
		/* TRANSLATORS: a frequency, "2.10 GHz" */
		snprintf(text, sizeof text, _("%s GHz"), a);
		flow_field(fl, HEADER_PRIO_FIGS);
		flow_put(fl, ROLE_PLAIN, text);
	}
	if (figure_read(cpi, p)) {
		val_text(a, sizeof a, "%.2f", &n->cpi, 1.0);
		header_labelled(fl, HEADER_PRIO_FIGS, _("CPI"), a);
	}
}
