/* text.c: a readable table per interval, in the manner of turbostat: a
 * header with the node figures, then one row per core. Shares are in
 * percent of the interval; a bound is shown as lo-hi and the row says
 * "bound"; a core without figures shows why instead of numbers. */
#include "config.h"
#include "out/batch.h"

#include <math.h>
#include <string.h>

#include "util/i18n.h"

/* "lo-hi"; a bound whose ends look the same at this precision is shown
 * as one number (the row's status still says "bound"). */
static void
bound(char *buf, size_t len, const char *fmt, double lo, double hi, const char *unit)
{
	char a[14], b[14];

	snprintf(a, sizeof a, fmt, lo);
	snprintf(b, sizeof b, fmt, hi);
	if (strcmp(a, b) == 0)
		snprintf(buf, len, "%s%s", a, unit);
	else
		snprintf(buf, len, "%s-%s", a, b);
}

/* A fraction as percent: "12.3%", "10.0-40.0" for a bound, "-" if absent. */
static const char *
pct(char *buf, size_t len, struct val v)
{
	if (v.kind == V_EXACT && isfinite(v.v))
		snprintf(buf, len, "%.1f%%", 100.0 * v.v);
	else if (v.kind == V_BOUND && isfinite(v.lo) && isfinite(v.hi))
		bound(buf, len, "%.1f", 100.0 * v.lo, 100.0 * v.hi, "%");
	else
		snprintf(buf, len, "-");
	return buf;
}

/* A plain figure with 2 decimals; bounds as lo-hi. */
static const char *
num(char *buf, size_t len, struct val v)
{
	if (v.kind == V_EXACT && isfinite(v.v))
		snprintf(buf, len, "%.2f", v.v);
	else if (v.kind == V_BOUND && isfinite(v.lo) && isfinite(v.hi))
		bound(buf, len, "%.2f", v.lo, v.hi, "");
	else
		snprintf(buf, len, "-");
	return buf;
}

static void
write_header(struct batch *b, const struct interval *iv)
{
	FILE *fp = b->fp;
	const struct agg_fig *n = &iv->node;
	char s[5][32];

	fprintf(fp, _("time %.3f s (Unix time %s), interval %.3f s, host %s, source %s, %s, "
	    "split: %s, S %u (%s)\n"),
	    isfinite(iv->time) ? iv->time : 0.0, b->wt.unix3, isfinite(iv->dt) ? iv->dt : 0.0,
	    b->m->hostname, b->source_name, uarch_group_name(b->p->group),
	    split_method_name(b->p->split), b->p->scale,
	    b->p->scale_measured ? _("measured") : _("table"));
	fprintf(fp, b->scope == OUT_SCOPE_NODE ?
	    _("node: util %s, neither %s, t0 only %s, t1 only %s, both %s") :
	    _("job: util %s, neither %s, t0 only %s, t1 only %s, both %s"),
	    pct(s[0], sizeof s[0], n->util), pct(s[1], sizeof s[1], n->neither),
	    pct(s[2], sizeof s[2], n->t0_only), pct(s[3], sizeof s[3], n->t1_only),
	    pct(s[4], sizeof s[4], n->both));
	fprintf(fp, _(", %s threads, %s GHz, CPI %s\n"),
	    num(s[0], sizeof s[0], n->active_threads), num(s[1], sizeof s[1], n->ghz),
	    num(s[2], sizeof s[2], n->cpi));
	if (!iv->valid)
		fprintf(fp, _("INVALID: %s\n"), iv->reason);
	fprintf(fp, "%3s %4s %-12s %11s %11s %11s %11s %11s %9s %6s %5s  %s\n",
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
	fprintf(fp, "%11s %11s %11s %11s %11s %9s %6s %5s  %s%s%s%s%s\n",
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
