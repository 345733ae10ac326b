/* text.c: a readable table per interval, in the manner of turbostat: a
 * header with the node figures, then one row per core. Shares are in
 * percent of the interval; a bound is shown as lo-hi and the row says
 * "bound"; a core without figures shows why instead of numbers. */
#include "config.h"
#include "out/format.h"

#include <math.h>
#include <string.h>

#include "util/i18n.h"
#include "util/textesc.h"

/* A fraction as percent: "12.3%", "10.0-40.0" for a bound (the row's
 * status says "bound"), "-" if absent. */
static const char *
pct(char *buf, size_t len, struct val v)
{
	return out_fig(buf, len, v, 100.0, 1, "%");
}

/* A plain figure with 2 decimals; bounds as lo-hi. */
static const char *
num(char *buf, size_t len, struct val v)
{
	return out_fig(buf, len, v, 1.0, 2, "");
}

/* The watched job: its id and kind, then its own figures, each absent
 * with its reason: its CPU seconds and its split of its cores' time
 * (where its tasks are told apart: sched, bpf), its CPI and GHz (perf's
 * cgroup events). The line above gives its cores' figures. */
static void
write_job(struct batch *b, const struct interval *iv)
{
	FILE *fp = b->fp;
	const struct agg_fig *n = &iv->node;
	char id[160], s[5][32];

	fprintf(fp, _("job %s (%s): its own"), text_quote(id, sizeof id, b->job.id, 64),
	    b->job_kind_esc);
	/* A bound (part of its cores' time not counted) says so. */
	if (n->cpu_s.kind == V_NONE)
		fprintf(fp, _(" CPU seconds and split - (%s)"), _(metrics_reason_text(n->cpu_s.why)));
	else
		fprintf(fp, _(" CPU %s s%s, both %s, alone %s, shared %s, none %s"),
		    out_fig(s[4], sizeof s[4], n->cpu_s, 1.0, 3, ""), n->cpu_s.kind == V_BOUND ?
		    _(" (a bound: not all of its cores' time counted)") : "",
		    pct(s[0], sizeof s[0], n->job_both), pct(s[1], sizeof s[1], n->job_alone),
		    pct(s[2], sizeof s[2], n->job_shared), pct(s[3], sizeof s[3], n->job_none));
	if (n->cpu_s.kind != V_NONE && n->job_both.kind == V_NONE)
		fprintf(fp, " (%s)", _(metrics_reason_text(n->job_both.why)));
	if (iv->job_cpi.kind == V_EXACT && iv->job_ghz.kind == V_EXACT)
		fprintf(fp, _("; CPI %s, GHz %s\n"), num(s[0], sizeof s[0], iv->job_cpi),
		    num(s[1], sizeof s[1], iv->job_ghz));
	else
		fprintf(fp, _("; CPI and GHz - (%s)\n"), _(metrics_reason_text(
		    iv->job_cpi.kind != V_EXACT ? iv->job_cpi.why : iv->job_ghz.why)));
}

static void
write_header(struct batch *b, const struct interval *iv)
{
	FILE *fp = b->fp;
	const struct agg_fig *n = &iv->node;
	char s[5][32], host[4 * sizeof b->m->hostname], reason[4 * sizeof iv->reason], sc[64];

	/* text from outside never reaches the terminal raw (textesc.h) */
	text_escape(host, sizeof host, b->m->hostname);
	text_escape(reason, sizeof reason, iv->reason);
	/* The counters' reference-clock scale; a source without counters has
	 * none: absent, with why. */
	if (plan_has_scale(b->p))
		snprintf(sc, sizeof sc, _("S %u (%s)"), b->p->scale,
		    b->p->scale_measured ? _("measured") : _("table"));
	else
		snprintf(sc, sizeof sc, "%s", _("S - (no counters)"));
	fprintf(fp, _("time %.3f s (Unix time %s), interval %.3f s, host %s, source %s, %s, "
	    "split: %s, %s\n"),
	    isfinite(iv->time) ? iv->time : 0.0, b->wt.unix3, isfinite(iv->dt) ? iv->dt : 0.0,
	    host, b->source_name, uarch_group_name(b->p->group), plan_split_name(b->p), sc);
	/* Figures that are not the counters' say what they are. */
	if (plan_meaning(b->p) != NULL)
		fprintf(fp, _("meaning: %s\n"), _(plan_meaning(b->p)));
	fprintf(fp, b->scope == OUT_SCOPE_NODE ?
	    _("node: util %s, neither %s, t0 only %s, t1 only %s, both %s") :
	    _("job: util %s, neither %s, t0 only %s, t1 only %s, both %s"),
	    pct(s[0], sizeof s[0], n->util), pct(s[1], sizeof s[1], n->neither),
	    pct(s[2], sizeof s[2], n->t0_only), pct(s[3], sizeof s[3], n->t1_only),
	    pct(s[4], sizeof s[4], n->both));
	fprintf(fp, _(", %s threads, %s GHz, CPI %s\n"),
	    num(s[0], sizeof s[0], n->active_threads), num(s[1], sizeof s[1], n->ghz),
	    num(s[2], sizeof s[2], n->cpi));
	if (b->has_job)
		write_job(b, iv);
	if (!iv->valid)
		fprintf(fp, _("INVALID: %s\n"), reason);
	fprintf(fp, "%3s %4s %-12s %11s %11s %11s %11s %11s %9s %9s %9s  %s\n",
	    _("pkg"), _("core"), _("cpus"), _("neither"), _("t0 only"), _("t1 only"), _("both"),
	    _("util"), _("thr"), _("CPI"), _("GHz"), _("status"));
}

/* "inst any": the counters another program stopped (their figures are
 * dashes). */
static const char *
stopped_names(char *buf, size_t len, unsigned mask)
{
	size_t used = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < SLOT_NKINDS && used < len; k++)
		if (mask & KIND_BIT(k))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
			    slot_kind_name((enum slot_kind)k));
	return buf;
}

static void
write_core(FILE *fp, const struct topo_core *tc, const struct core_fig *c)
{
	char cpus[64], s[8][32], stopped[64];
	size_t len = 0;
	unsigned t;
	bool two = tc->nthreads == 2;
	struct val none = val_none();

	cpus[0] = '\0';
	for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT && len < sizeof cpus; t++)
		len += (size_t)snprintf(cpus + len, sizeof cpus - len, "%s%u", t ? "," : "", tc->cpus[t]);
	fprintf(fp, "%3u %4u %-12s ", tc->package, tc->core_id, cpus);
	if (c->reason != R_NONE) {
		fprintf(fp, "%s%s%s\n", _(metrics_reason_text(c->reason)),
		    c->stopped != 0 ? ": " : "", stopped_names(stopped, sizeof stopped, c->stopped));
		return;
	}
	fprintf(fp, "%11s %11s %11s %11s %11s %9s %9s %9s  %s%s%s%s%s\n",
	    pct(s[0], sizeof s[0], two ? c->neither : none),
	    pct(s[1], sizeof s[1], two ? c->t0_only : none),
	    pct(s[2], sizeof s[2], two ? c->t1_only : none),
	    pct(s[3], sizeof s[3], two ? c->both : none),
	    pct(s[4], sizeof s[4], c->util),
	    num(s[5], sizeof s[5], c->active_threads),
	    num(s[6], sizeof s[6], c->cpi),
	    num(s[7], sizeof s[7], c->ghz),
	    !two ? _("no split") : c->exact ? _("ok") : _("bound"),
	    c->fallback != R_NONE ? ": " : "",
	    c->fallback != R_NONE ? metrics_reason_code(c->fallback) : "",
	    c->stopped != 0 ? _("; stopped: ") : "", stopped_names(stopped, sizeof stopped,
	    c->stopped));
}

void
out_text_write(struct batch *b, const struct interval *iv)
{
	const struct topology *topo = &b->m->topo;
	unsigned i;

	if (b->nwritten > 0)
		fputc('\n', b->fp);
	write_header(b, iv);
	for (i = 0; i < iv->ncores && i < topo->ncores; i++) {
		if (out_core_shown(iv, i))
			write_core(b->fp, &topo->cores[i], &iv->cores[i]);
	}
}
