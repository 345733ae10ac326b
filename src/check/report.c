/* report.c: the check's findings, their summary, and the text and JSON
 * reports (report.h). */
#include "config.h"
#include "check/report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/jsonstr.h"
#include "util/textput.h"
#include "util/textesc.h"
#include "util/textwrap.h"
#include "util/xalloc.h"

void
check_report_init(struct check_report *r)
{
	memset(r, 0, sizeof *r);
}

void
check_report_free(struct check_report *r)
{
	free(r->res);
	free(r->bg_cpu);
	free(r->bg_busy);
	memset(r, 0, sizeof *r);
}

struct check_result *
check_report_add(struct check_report *r)
{
	struct check_result *x;

	if (r->nres == r->capres) {
		r->capres = r->capres ? 2 * r->capres : 16;
		r->res = xreallocarray(r->res, r->capres, sizeof *r->res);
	}
	x = &r->res[r->nres++];
	memset(x, 0, sizeof *x);
	return x;
}

void
check_result_finish(struct check_result *x)
{
	unsigned k;

	/* A disturbed case tested nothing of httop, even where its figures
	 * came out right. */
	x->verdict = x->dist.kind != CD_NONE ? CV_DISTURBED : CV_PASS;
	for (k = 0; k < x->nrows; k++)
		x->verdict = check_verdict_worse(x->verdict, x->rows[k].verdict);
}

void
check_report_finish(struct check_report *r)
{
	unsigned i, k;
	bool failed = false, disturbed = false;

	for (k = 0; k < CF_NFAMILIES; k++)
		r->trust[k] = CT_UNCHECKED;
	for (i = 0; i < r->nres; i++) {
		struct check_result *x = &r->res[i];

		check_result_finish(x);
		disturbed |= x->dist.kind != CD_NONE;
		for (k = 0; k < x->nrows; k++) {
			const struct check_row *row = &x->rows[k];

			r->trust[row->family] = check_trust_add(r->trust[row->family], row->verdict);
		}
	}
	if (r->has_scale_row)
		r->trust[CF_SCALE] = check_trust_add(r->trust[CF_SCALE], r->scale_row.verdict);
	for (k = 0; k < CF_NFAMILIES; k++) {
		failed |= r->trust[k] == CT_FAILED;
		disturbed |= r->trust[k] == CT_DISTURBED;
	}
	if (r->error[0] != '\0')
		r->outcome = CO_ERROR;
	else if (r->interrupted)
		r->outcome = CO_INTERRUPTED;
	else if (failed)
		r->outcome = CO_FAIL;
	else if (disturbed)
		r->outcome = CO_DISTURBED;
	else
		r->outcome = CO_PASS;
}

int
check_report_status(const struct check_report *r)
{
	return r->outcome == CO_PASS ? 0 : 1;
}

const char *
check_outcome_key(enum check_outcome o)
{
	switch (o) {
	case CO_PASS: return "pass";
	case CO_FAIL: return "fail";
	case CO_DISTURBED: return "disturbed";
	case CO_ERROR: return "error";
	case CO_INTERRUPTED: return "interrupted";
	}
	return "?";
}

static const char *
mode_key(enum check_load_mode m)
{
	switch (m) {
	case CL_THREADS: return "threads";
	case CL_SIM: return "simulator";
	case CL_SOURCE: return "source";
	}
	return "?";
}

/* ---- text ---------------------------------------------------------------- */

/* A value of the row's family in its unit, for a person. */
static void
fmt_value(char *buf, size_t len, enum check_family f, double v)
{
	switch (f) {
	case CF_SPLIT:
	case CF_UTIL:
		snprintf(buf, len, "%.2f%%", 100.0 * v);
		break;
	case CF_INST:
		snprintf(buf, len, "%.4g", v);
		break;
	case CF_CPI:
	case CF_GHZ:
		snprintf(buf, len, "%.3f", v);
		break;
	case CF_CLOCK:
		snprintf(buf, len, "%.5f", v);
		break;
	default:
		snprintf(buf, len, "%.0f", v);
		break;
	}
}

static void
fmt_expected(char *buf, size_t len, const struct check_row *row)
{
	char a[32], b[32];

	fmt_value(a, sizeof a, row->family, row->lo);
	switch (row->expect) {
	case CE_EXACT:
		snprintf(buf, len, "%s", a);
		break;
	case CE_AT_LEAST:
		snprintf(buf, len, ">= %s", a);
		break;
	case CE_RANGE:
		fmt_value(b, sizeof b, row->family, row->hi);
		snprintf(buf, len, "%s..%s", a, b);
		break;
	}
}

static void
fmt_val(char *buf, size_t len, enum check_family f, struct val v)
{
	char a[32], b[32];

	switch (v.kind) {
	case V_EXACT:
		fmt_value(buf, len, f, v.v);
		break;
	case V_BOUND:
		fmt_value(a, sizeof a, f, v.lo);
		fmt_value(b, sizeof b, f, v.hi);
		/* "24.99..25.03%": the unit once, so a bound fits its column */
		if (strchr(a, '%') != NULL && strchr(b, '%') != NULL)
			*strchr(a, '%') = '\0';
		snprintf(buf, len, "%s..%s", a, b);
		break;
	default:
		snprintf(buf, len, "-");
		break;
	}
}

/* A difference with its sign, none where it rounds to nothing. */
static void
fmt_signed(char *buf, size_t len, enum check_family f, double d)
{
	char mag[32], zero[32];

	fmt_value(mag, sizeof mag, f, fabs(d));
	fmt_value(zero, sizeof zero, f, 0.0);
	if (strcmp(mag, zero) == 0 || d == 0.0)
		snprintf(buf, len, "%s", zero);
	else
		snprintf(buf, len, "%c%s", d < 0.0 ? '-' : '+', mag);
}

static void
fmt_diff(char *buf, size_t len, const struct check_row *row)
{
	if (row->measured.kind == V_NONE)
		snprintf(buf, len, "-");
	else
		fmt_signed(buf, len, row->family, row->diff);
}

static const char *
figure_text(const char *figure)
{
	static const struct {
		const char *key, *text;
	} t[] = {
		{ "neither", N_("neither") }, { "t0_only", N_("t0 only") },
		{ "t1_only", N_("t1 only") }, { "both", N_("both") },
		{ "util", N_("utilisation") }, { "instructions", N_("instructions") },
		{ "cpi", N_("CPI") }, { "ghz", N_("GHz") }, { "tsc_rate", N_("TSC rate") },
		{ "scale", N_("scale") },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(t[i].key, figure) == 0)
			return _(t[i].text);
	return figure;
}

static const char *
basis_text(const char *basis)
{
	if (strcmp(basis, "loop") == 0)
		return _("(loop)");
	if (strcmp(basis, "loads") == 0)
		return _("(ran)");
	if (strcmp(basis, "aperf_mperf") == 0)
		return _("(APERF/MPERF)");
	if (strcmp(basis, "simulator") == 0)
		return _("(simulator)");
	if (strcmp(basis, "clock") == 0)
		return _("(clock)");
	if (strcmp(basis, "table") == 0)
		return _("(table)");
	return "";
}

static void
text_row(FILE *fp, const struct check_row *row)
{
	char name[64], thr[8], exp[80], mea[80], diff[40], tol[32];

	snprintf(name, sizeof name, "%s %s", figure_text(row->figure), basis_text(row->basis));
	snprintf(thr, sizeof thr, row->thread < 0 ? "-" : "%d", row->thread);
	fmt_expected(exp, sizeof exp, row);
	fmt_val(mea, sizeof mea, row->family, row->measured);
	fmt_diff(diff, sizeof diff, row);
	fmt_value(tol, sizeof tol, row->family, row->tol);
	fprintf(fp, "  %-17s %3s %12s %12s %8s %8s %s", name, thr, exp, mea, diff, tol,
	    _(check_verdict_text(row->verdict)));
	if (row->verdict == CV_NONE && row->reason != R_NONE)
		fprintf(fp, " (%s)", _(metrics_reason_text(row->reason)));
	fputc('\n', fp);
}

static const char *
tr(const char *s)
{
	return _(s);
}

/* The first row of the family, or NULL. */
static const struct check_row *
first_row(const struct check_result *x, enum check_family f)
{
	unsigned k;

	for (k = 0; k < x->nrows; k++)
		if (x->rows[k].family == f && x->rows[k].parts.has)
			return &x->rows[k];
	return NULL;
}

/* What the loads ran, which the rows expect, and the tolerance's parts
 * (of the split's rows, else the first utilisation's), in points. */
static void
text_ran(FILE *fp, const struct check_result *x)
{
	const struct check_row *row = first_row(x, CF_SPLIT);
	const struct check_tol_parts *p;
	char line[512];
	unsigned k;

	if (!x->ran.known)
		return;
	line[0] = '\0';
	text_put(line, sizeof line, _("  expected (measured by the loads): what they ran over %.3f s,"),
	    x->ran.to - x->ran.from);
	for (k = 0; k < x->ncpus && k < 2; k++)
		text_put(line, sizeof line, _(" CPU %u %.2f%% busy (the schedule's %.2f%%)%s"),
		    x->cpus[k], 100.0 * x->ran.util[k], 100.0 * check_window_len(&x->cs->w[k]),
		    k + 1 < x->ncpus ? "," : ";");
	text_put(line, sizeof line, _(" %u edges of their bursts in it"),
	    x->ran.edges[0] + x->ran.edges[1]);
	text_wrapf(fp, 4, "%s\n", line);
	if (row == NULL && (row = first_row(x, CF_UTIL)) == NULL)
		return;
	p = &row->parts;
	text_wrapf(fp, 4, _("  tolerance of the %s: %.2f points = source %.2f + reads %.2f + edges %.2f "
	    "+ ticks %.2f + steal %.2f + other work %.2f\n"), row->family == CF_SPLIT ?
	    _("shares") : _("utilisation"), 100.0 * row->tol, 100.0 * p->floor, 100.0 * p->reads,
	    100.0 * p->edges, 100.0 * p->granularity, 100.0 * p->steal, 100.0 * p->other_work);
}

static void
text_result(FILE *fp, const struct check_result *x)
{
	char why[256], line[512];
	unsigned k;

	/* A line each (80 columns): the case and its verdict, what the
	 * case plays, the interval, then each CPU's own account. */
	if (x->ncpus > 1)
		fprintf(fp, _("package %u, core %u (CPUs %u,%u), case %s: %s\n"), x->package,
		    x->core, x->cpus[0], x->cpus[1], x->cs->name,
		    _(check_verdict_text(x->verdict)));
	else
		fprintf(fp, _("package %u, core %u (CPU %u), case %s: %s\n"), x->package,
		    x->core, x->cpus[0], x->cs->name, _(check_verdict_text(x->verdict)));
	text_wrapf(fp, 4, "  %s\n", x->ncpus < 2 && x->cs->what1 != NULL ? _(x->cs->what1) :
	    _(x->cs->what));
	fprintf(fp, _("  interval %.3f s, read skew at most %.0f us\n"), x->timing.interval,
	    x->timing.skew * 1e6);
	for (k = 0; k < x->ncpus && k < 2; k++) {
		bool edges = x->loaded[k] && check_window_has_edges(&x->cs->w[k]);

		if (!edges && !x->os_known[k])
			continue;
		line[0] = '\0';
		text_put(line, sizeof line, _("  CPU %u:"), x->cpus[k]);
		if (edges)
			text_put(line, sizeof line, _(" woke %.1f us late, ran %.1f us over;"),
			    x->late_s[k] * 1e6, x->over_s[k] * 1e6);
		if (x->os_known[k])
			text_put(line, sizeof line, _(" the kernel saw it %.1f%% busy"),
			    100.0 * x->os_busy[k]);
		/* Steal shown where there was any: a VM's host was busy. */
		if (x->steal_known[k] && x->os_steal[k] >= 0.0005)
			text_put(line, sizeof line, _(", the hypervisor took %.1f%% (steal)"),
			    100.0 * x->os_steal[k]);
		text_wrapf(fp, 4, "%s\n", line);
	}
	text_ran(fp, x);
	if (x->dist.kind != CD_NONE) {
		check_disturbance_text(&x->dist, tr, why, sizeof why);
		text_wrapf(fp, 4, _("  disturbed: %s\n"), why);
	}
	if (x->note[0] != '\0')
		text_wrapf(fp, 4, "  %s\n", x->note);
	fprintf(fp, "  %-17s %3s %12s %12s %8s %8s %s\n", _("figure"), _("thr"), _("expected"),
	    _("measured"), _("difference"), _("tolerance"), _("verdict"));
	for (k = 0; k < x->nrows; k++)
		text_row(fp, &x->rows[k]);
}

/* The scheduler's record of the case, figure by figure beside the
 * source's. */
static void
text_beside(FILE *fp, const struct check_report *r, const struct check_result *x)
{
	const struct check_beside *b = &x->beside;
	char why[256], name[64], thr[8], mea[80], sch[80], diff[40], lim[32];
	unsigned k;

	if (!b->has)
		return;
	fprintf(fp, _("  beside it, the scheduler's record of the same case (not judged):\n"));
	if (b->dist.kind != CD_NONE) {
		check_disturbance_text(&b->dist, tr, why, sizeof why);
		text_wrapf(fp, 4, _("  the scheduler's record disturbed: %s\n"), why);
	}
	if (b->note[0] != '\0')
		text_wrapf(fp, 4, "  sched: %s\n", b->note);
	fprintf(fp, "  %-17s %3s %12s %12s %8s %8s %s\n", _("figure"), _("thr"), r->source,
	    "sched", _("difference"), _("limit"), _("records"));
	for (k = 0; k < b->n; k++) {
		const struct check_beside_fig *f = &b->f[k];
		enum check_family fam = f->family;

		snprintf(name, sizeof name, "%s", figure_text(f->figure));
		snprintf(thr, sizeof thr, f->thread < 0 ? "-" : "%d", f->thread);
		fmt_val(mea, sizeof mea, fam, f->measured);
		fmt_val(sch, sizeof sch, fam, f->sched);
		if (f->known)
			fmt_signed(diff, sizeof diff, fam, f->diff);
		else
			snprintf(diff, sizeof diff, "-");
		fmt_value(lim, sizeof lim, fam, f->limit);
		fprintf(fp, "  %-17s %3s %12s %12s %8s %8s %s\n", name, thr, mea, sch, diff, lim,
		    !f->compared ? "-" : f->agree ? _("agree") : _("DIFFER"));
	}
}

/* Cases read beside; those compared (the scheduler's record whole and
 * some figure of both); those with every figure compared agreeing; and
 * those whose scheduler's record was disturbed. */
struct beside_counts {
	unsigned read, compared, agree, disturbed;
};

static void
beside_count(const struct check_report *r, struct beside_counts *n)
{
	unsigned i;

	memset(n, 0, sizeof *n);
	for (i = 0; i < r->nres; i++) {
		const struct check_beside *b = &r->res[i].beside;

		if (!b->has)
			continue;
		n->read++;
		n->disturbed += b->dist.kind != CD_NONE;
		if (b->nknown == 0)
			continue;
		n->compared++;
		n->agree += b->nagree == b->nknown;
	}
}

static void
text_beside_summary(FILE *fp, const struct check_report *r)
{
	struct beside_counts n;
	const char *src = r->source;

	if (!r->beside_wanted)
		return;
	if (r->beside_source == NULL) {
		text_wrapf(fp, 2, _("beside: no scheduler's record: %s\n"), r->beside_why);
		return;
	}
	if (r->beside_why[0] != '\0')
		text_wrapf(fp, 2, _("beside: the scheduler's record stopped: %s\n"), r->beside_why);
	beside_count(r, &n);
	fprintf(fp, _("beside: the scheduler's record agreed with %s in %u of %u cases compared\n"),
	    src, n.agree, n.compared);
	if (n.disturbed > 0)
		text_wrapf(fp, 4, _("  %u not compared: the scheduler's record was disturbed (other work "
		    "on the CPU, or records lost; each such case says which)\n"), n.disturbed);
	if (n.agree == n.compared)
		return;
	/* What a difference can mean depends on what the source counts. */
	if (r->basis == PLAN_BASIS_TICKS)
		text_wrapf(fp, 4, _("  where they differ, one record counts time the other does not: "
		    "time a hypervisor took from a running task (steal) is busy to the scheduler "
		    "and not to /proc/stat's busy time; the limit allows for the steal /proc/stat "
		    "reported, not for time taken unreported\n"));
	else
		text_wrapf(fp, 4, _("  where they differ, one record counts time the other does not: "
		    "interrupts and idle polling are busy to the counters and idle to the "
		    "scheduler; a hypervisor that runs another guest stops a vCPU's counters, not "
		    "the guest scheduler's clock\n"));
}

/* The widest tolerance of the rows of family f that passed. */
static double
widest_tolerance(const struct check_report *r, enum check_family f)
{
	double w = 0.0;
	unsigned i, k;

	for (i = 0; i < r->nres; i++)
		for (k = 0; k < r->res[i].nrows; k++) {
			const struct check_row *row = &r->res[i].rows[k];

			if (row->family == f && row->verdict == CV_PASS && row->tol > w)
				w = row->tol;
		}
	return w;
}

/* The families with trust `t`, in words, or "" if none. */
static void
families_with(const struct check_report *r, enum check_trust t, char *buf, size_t len)
{
	size_t n = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < CF_NFAMILIES && n < len; k++) {
		double tol;

		if (r->trust[k] != t)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n > 0 ? ", " : "",
		    _(check_family_text((enum check_family)k)));
		/* How closely: a share trusted to 1 point or to 10 is not the
		 * same news (the scheduler's slack, a busy host). */
		if (t == CT_TRUSTED && (k == CF_SPLIT || k == CF_UTIL) &&
		    (tol = widest_tolerance(r, (enum check_family)k)) > 0.0 && n < len)
			n += (size_t)snprintf(buf + n, len - n, _(" (to %.1f points)"), 100.0 * tol);
	}
}

/* Why the disturbed cases tested nothing, and what to do, from the
 * causes the cases had (each case's own line names its cause). */
static void
text_not_judged(FILE *fp, const struct check_report *r, const char *families)
{
	static const struct {
		enum check_disturb_kind kind;
		const char *cause, *fix;
	} t[] = {
		{ CD_OTHER_WORK, N_("other work ran on the CPUs"),
		  N_("run it again when the node is idle") },
		{ CD_REPROGRAMMED, N_("another program took the counters"),
		  N_("stop that program first") },
		{ CD_LATE, N_("the load woke late"),
		  N_("a host or a busy kernel delayed it: run it again later, or on a quieter node") },
		{ CD_STEAL, N_("the hypervisor took the CPUs (steal)"),
		  N_("the VM's host was busy: run it again later") },
		{ CD_LOST, N_("the scheduler's record was incomplete"),
		  N_("see the cases' notes") },
		{ CD_OFFLINE, N_("a CPU went offline"),
		  N_("keep the CPUs online while the check runs") },
	};
	char causes[512] = "", fixes[512] = "";
	size_t nc = 0, nf = 0, k;
	unsigned i, n = 0;

	for (i = 0; i < r->nres; i++)
		n += r->res[i].dist.kind != CD_NONE;
	for (k = 0; k < sizeof t / sizeof t[0]; k++) {
		for (i = 0; i < r->nres && r->res[i].dist.kind != t[k].kind; i++)
			;
		if (i == r->nres || nc >= sizeof causes || nf >= sizeof fixes)
			continue;
		nc += (size_t)snprintf(causes + nc, sizeof causes - nc, "%s%s", nc ? "; " : "",
		    _(t[k].cause));
		nf += (size_t)snprintf(fixes + nf, sizeof fixes - nf, "%s%s", nf ? "; " : "",
		    _(t[k].fix));
	}
	if (n == 0) {
		/* Disturbed rows in no disturbed case: the scale's. */
		text_wrapf(fp, 2, _("not judged: %s\n"), families);
		return;
	}
	text_wrapf(fp, 2, _("not judged: %s: %u of %u cases tested nothing of httop (%s); %s\n"),
	    families, n, r->nres, causes, fixes);
}

static void
text_summary(FILE *fp, const struct check_report *r)
{
	char list[512];
	unsigned k;

	families_with(r, CT_TRUSTED, list, sizeof list);
	if (list[0] != '\0')
		text_wrapf(fp, 2, _("trusted on this node: %s\n"), list);
	families_with(r, CT_BOUND, list, sizeof list);
	if (list[0] != '\0')
		text_wrapf(fp, 2, _("bounds only: %s (%s; each bound held)\n"), list, r->plan);
	families_with(r, CT_FAILED, list, sizeof list);
	if (list[0] != '\0')
		text_wrapf(fp, 2, _("FAILED: %s: these figures cannot be trusted on this node; please "
		    "report it with this output\n"), list);
	families_with(r, CT_DISTURBED, list, sizeof list);
	if (list[0] != '\0')
		text_not_judged(fp, r, list);
	for (k = 0; k < CF_NFAMILIES; k++)
		if (r->trust[k] == CT_UNCHECKED && r->unchecked[k] != NULL)
			text_wrapf(fp, 2, _("not checked: %s: %s\n"), _(check_family_text((enum check_family)k)),
			    _(r->unchecked[k]));
	text_beside_summary(fp, r);
}

static void
text_head(FILE *fp, const struct check_report *r)
{
	unsigned i;
	/* The host's and the processor's names come from outside (--host, a
	 * CPUID dump): escaped for the terminal, as the JSON report escapes
	 * them. */
	char host[256], cpu[256];

	text_escape(host, sizeof host, r->host);
	text_escape(cpu, sizeof cpu, r->cpu);
	/* The processor's name apart: a server's is 40 characters. */
	text_wrapf(fp, 2, _("httop %s --check on %s: source %s, split %s\n"), r->version, host,
	    r->source, r->split);
	text_wrapf(fp, 2, _("cpu: %s (%s)\n"), cpu, r->group);
	text_wrapf(fp, 2, _("plan: %s\n"), r->plan);
	switch (r->mode) {
	case CL_THREADS:
		fprintf(fp, _("load: httop's threads, period %.1f ms, %.2f s a case\n"),
		    r->period * 1e3, r->seconds);
		break;
	case CL_SIM:
		fprintf(fp, _("load: played by the simulator, period %.1f ms, %.2f s a case\n"),
		    r->period * 1e3, r->seconds);
		break;
	case CL_SOURCE:
		text_wrapf(fp, 2, _("load: played by the counters' source (the machine is described by "
		    "--topology), period %.1f ms, %.2f s a case\n"), r->period * 1e3, r->seconds);
		break;
	}
	if (r->beside_source != NULL)
		fprintf(fp, _("beside: the scheduler's record (%s), read over the same intervals\n"),
		    r->beside_source);
	if (r->has_scale_row)
		fprintf(fp, _("reference-clock scale: table %u, measured %u: %s\n"), r->scale_table,
		    r->scale, _(check_verdict_text(r->scale_row.verdict)));
	if (r->nbg > 0) {
		fputs(_("busy before the check:"), fp);
		for (i = 0; i < r->nbg; i++) {
			fputs(i > 0 ? ", " : " ", fp);
			if (r->bg_busy[i] >= 0.0)
				fprintf(fp, _("CPU %u %.1f%%"), r->bg_cpu[i], 100.0 * r->bg_busy[i]);
			else
				fprintf(fp, _("CPU %u unknown"), r->bg_cpu[i]);
		}
		fputc('\n', fp);
	}
}

static int
flushed(FILE *fp)
{
	return fflush(fp) != 0 || ferror(fp) ? -1 : 0;
}

int
check_report_text_head(FILE *fp, const struct check_report *r)
{
	text_head(fp, r);
	return flushed(fp);
}

int
check_report_text_case(FILE *fp, const struct check_report *r, const struct check_result *x)
{
	fputc('\n', fp);
	text_result(fp, x);
	text_beside(fp, r, x);
	return flushed(fp);
}

int
check_report_text_end(FILE *fp, const struct check_report *r)
{
	fputc('\n', fp);
	if (r->outcome == CO_INTERRUPTED) {
		/* What was judged before the signal stands as printed; no
		 * summary of a check that did not run its cases. */
		fprintf(fp, _("verdict: interrupted (cases judged before it: %u; no summary)\n"),
		    r->nres);
		return flushed(fp);
	}
	text_summary(fp, r);
	switch (r->outcome) {
	case CO_PASS:
		fputs(_("verdict: pass\n"), fp);
		break;
	case CO_FAIL:
		fputs(_("verdict: FAIL\n"), fp);
		break;
	case CO_DISTURBED:
		fputs(_("verdict: disturbed (no figure failed, but some could not be judged)\n"), fp);
		break;
	case CO_ERROR:
		fprintf(fp, _("verdict: the check could not run: %s\n"), r->error);
		break;
	case CO_INTERRUPTED:
		break;
	}
	return flushed(fp);
}

int
check_report_text(FILE *fp, const struct check_report *r)
{
	unsigned i;

	text_head(fp, r);
	for (i = 0; i < r->nres; i++)
		(void)check_report_text_case(fp, r, &r->res[i]);
	return check_report_text_end(fp, r);
}

/* ---- JSON ---------------------------------------------------------------- */

static void
json_num(FILE *fp, double x)
{
	if (isfinite(x))
		fprintf(fp, "%.9g", x);
	else
		fputs("null", fp);
}

static void
json_key(FILE *fp, const char *key)
{
	fprintf(fp, ",\"%s\":", key);
}

static void
json_val(FILE *fp, struct val v)
{
	switch (v.kind) {
	case V_EXACT:
		json_num(fp, v.v);
		break;
	case V_BOUND:
		fputc('[', fp);
		json_num(fp, v.lo);
		fputc(',', fp);
		json_num(fp, v.hi);
		fputc(']', fp);
		break;
	default:
		fputs("null", fp);
		break;
	}
}

static void
json_row(FILE *fp, const struct check_row *row)
{
	fputs("{\"figure\":", fp);
	jsonstr_fput(fp, row->figure);
	fputs(",\"family\":", fp);
	jsonstr_fput(fp, check_family_key(row->family));
	json_key(fp, "thread");
	if (row->thread < 0)
		fputs("null", fp);
	else
		fprintf(fp, "%d", row->thread);
	json_key(fp, "basis");
	jsonstr_fput(fp, row->basis);
	json_key(fp, "expect");
	jsonstr_fput(fp, check_expect_key(row->expect));
	json_key(fp, "expected");
	if (row->expect == CE_RANGE) {
		fputc('[', fp);
		json_num(fp, row->lo);
		fputc(',', fp);
		json_num(fp, row->hi);
		fputc(']', fp);
	} else {
		json_num(fp, row->lo);
	}
	json_key(fp, "measured");
	json_val(fp, row->measured);
	json_key(fp, "kind");
	jsonstr_fput(fp, row->measured.kind == V_EXACT ? "exact" : row->measured.kind == V_BOUND ?
	    "bound" : "none");
	json_key(fp, "difference");
	if (row->measured.kind == V_NONE)
		fputs("null", fp);
	else
		json_num(fp, row->diff);
	json_key(fp, "tolerance");
	json_num(fp, row->tol);
	json_key(fp, "verdict");
	jsonstr_fput(fp, check_verdict_key(row->verdict));
	json_key(fp, "reason");
	if (row->verdict == CV_NONE && row->reason != R_NONE)
		jsonstr_fput(fp, metrics_reason_code(row->reason));
	else
		fputs("null", fp);
	json_key(fp, "schedule");
	json_num(fp, row->has_schedule ? row->schedule : NAN);
	json_key(fp, "tolerance_parts");
	if (row->parts.has) {
		const struct check_tol_parts *p = &row->parts;

		fputs("{\"floor\":", fp);
		json_num(fp, p->floor);
		json_key(fp, "reads");
		json_num(fp, p->reads);
		json_key(fp, "edges");
		json_num(fp, p->edges);
		json_key(fp, "granularity");
		json_num(fp, p->granularity);
		json_key(fp, "steal");
		json_num(fp, p->steal);
		json_key(fp, "other_work");
		json_num(fp, p->other_work);
		fputc('}', fp);
	} else {
		fputs("null", fp);
	}
	fputc('}', fp);
}

/* What the loads ran (ran.h), or null. */
static void
json_ran(FILE *fp, const struct check_ran *r)
{
	static const char *const fig[4] = { "neither", "t0_only", "t1_only", "both" };
	unsigned k;

	if (!r->known) {
		fputs("null", fp);
		return;
	}
	fputs("{\"window\":", fp);
	json_num(fp, r->to - r->from);
	json_key(fp, "read_error");
	json_num(fp, r->read_err);
	fputs(",\"shares\":{", fp);
	for (k = 0; k < 4; k++) {
		fprintf(fp, "%s\"%s\":", k > 0 ? "," : "", fig[k]);
		json_num(fp, r->share[k]);
	}
	fputs("},\"util\":[", fp);
	json_num(fp, r->util[0]);
	fputc(',', fp);
	json_num(fp, r->util[1]);
	fprintf(fp, "],\"bursts\":[%u,%u],\"edges\":[%u,%u]}", r->bursts[0], r->bursts[1],
	    r->edges[0], r->edges[1]);
}

static void
json_beside(FILE *fp, const struct check_beside *b)
{
	char why[256];
	unsigned k;

	if (!b->has) {
		fputs("null", fp);
		return;
	}
	fputs("{\"source\":\"sched\"", fp);
	json_key(fp, "disturbed");
	if (b->dist.kind != CD_NONE) {
		check_disturbance_text(&b->dist, NULL, why, sizeof why);
		jsonstr_fput(fp, why);
	} else {
		fputs("null", fp);
	}
	json_key(fp, "note");
	jsonstr_fput(fp, b->note);
	json_key(fp, "figures");
	fputc('[', fp);
	for (k = 0; k < b->n; k++) {
		const struct check_beside_fig *f = &b->f[k];

		fprintf(fp, "%s{\"figure\":", k > 0 ? "," : "");
		jsonstr_fput(fp, f->figure);
		json_key(fp, "thread");
		if (f->thread < 0)
			fputs("null", fp);
		else
			fprintf(fp, "%d", f->thread);
		json_key(fp, "measured");
		json_val(fp, f->measured);
		json_key(fp, "sched");
		json_val(fp, f->sched);
		json_key(fp, "difference");
		json_num(fp, f->known ? f->diff : NAN);
		json_key(fp, "limit");
		json_num(fp, f->limit);
		json_key(fp, "agree");
		fputs(!f->compared ? "null" : f->agree ? "true" : "false", fp);
		fputc('}', fp);
	}
	fputs("]}", fp);
}

static void
json_result(FILE *fp, const struct check_result *x)
{
	char why[256];
	unsigned k;

	fputs("{\"case\":", fp);
	jsonstr_fput(fp, x->cs->name);
	fprintf(fp, ",\"package\":%u,\"core\":%u,\"cpus\":[", x->package, x->core);
	for (k = 0; k < x->ncpus && k < 2; k++)
		fprintf(fp, "%s%u", k > 0 ? "," : "", x->cpus[k]);
	fputc(']', fp);
	json_key(fp, "windows");
	fputc('[', fp);
	for (k = 0; k < 2; k++) {
		fprintf(fp, "%s[", k > 0 ? "," : "");
		json_num(fp, x->cs->w[k].start);
		fputc(',', fp);
		json_num(fp, x->cs->w[k].end);
		fputc(']', fp);
	}
	fputc(']', fp);
	json_key(fp, "interval");
	json_num(fp, x->timing.interval);
	json_key(fp, "skew");
	json_num(fp, x->timing.skew);
	json_key(fp, "threads");
	fputc('[', fp);
	for (k = 0; k < x->ncpus && k < 2; k++) {
		fprintf(fp, "%s{\"cpu\":%u,\"load\":%s", k > 0 ? "," : "", x->cpus[k],
		    x->loaded[k] ? "true" : "false");
		json_key(fp, "late");
		if (x->loaded[k])
			json_num(fp, x->late_s[k]);
		else
			fputs("null", fp);
		json_key(fp, "over");
		if (x->loaded[k])
			json_num(fp, x->over_s[k]);
		else
			fputs("null", fp);
		json_key(fp, "os_busy");
		if (x->os_known[k])
			json_num(fp, x->os_busy[k]);
		else
			fputs("null", fp);
		json_key(fp, "os_steal");
		if (x->steal_known[k])
			json_num(fp, x->os_steal[k]);
		else
			fputs("null", fp);
		fputc('}', fp);
	}
	fputc(']', fp);
	json_key(fp, "ran");
	json_ran(fp, &x->ran);
	json_key(fp, "disturbed");
	if (x->dist.kind != CD_NONE) {
		check_disturbance_text(&x->dist, NULL, why, sizeof why);
		jsonstr_fput(fp, why);
	} else {
		fputs("null", fp);
	}
	json_key(fp, "note");
	jsonstr_fput(fp, x->note);
	json_key(fp, "verdict");
	jsonstr_fput(fp, check_verdict_key(x->verdict));
	json_key(fp, "figures");
	fputc('[', fp);
	for (k = 0; k < x->nrows; k++) {
		if (k > 0)
			fputc(',', fp);
		json_row(fp, &x->rows[k]);
	}
	fputc(']', fp);
	json_key(fp, "beside");
	json_beside(fp, &x->beside);
	fputc('}', fp);
}

static void
json_head(FILE *fp, const struct check_report *r)
{
	unsigned i;

	fprintf(fp, "{\"httop_check\":%d", CHECK_JSON_VERSION);
	json_key(fp, "version");
	jsonstr_fput(fp, r->version);
	json_key(fp, "host");
	jsonstr_fput(fp, r->host);
	json_key(fp, "cpu");
	jsonstr_fput(fp, r->cpu);
	json_key(fp, "group");
	jsonstr_fput(fp, r->group);
	json_key(fp, "source");
	jsonstr_fput(fp, r->source);
	json_key(fp, "split");
	jsonstr_fput(fp, r->split);
	json_key(fp, "plan");
	jsonstr_fput(fp, r->plan);
	json_key(fp, "load");
	jsonstr_fput(fp, mode_key(r->mode));
	json_key(fp, "period");
	json_num(fp, r->period);
	json_key(fp, "seconds");
	json_num(fp, r->seconds);
	fprintf(fp, ",\"loop\":{\"known\":%s,\"instructions\":%d,\"chain_cycles\":%d}",
	    r->loop_known ? "true" : "false", CHECK_LOOP_INST, CHECK_LOOP_CHAIN_CYCLES);
	fprintf(fp, ",\"scale\":{\"used\":%s,\"table\":%u,\"measured\":",
	    r->scale_used ? "true" : "false", r->scale_table);
	if (r->scale_measured)
		fprintf(fp, "%u", r->scale);
	else
		fputs("null", fp);
	json_key(fp, "verdict");
	if (r->has_scale_row)
		jsonstr_fput(fp, check_verdict_key(r->scale_row.verdict));
	else
		fputs("null", fp);
	fputc('}', fp);
	json_key(fp, "beside");
	if (!r->beside_wanted) {
		fputs("null", fp);
	} else {
		struct beside_counts n;

		fputs("{\"source\":", fp);
		if (r->beside_source != NULL)
			jsonstr_fput(fp, r->beside_source);
		else
			fputs("null", fp);
		json_key(fp, "error");
		if (r->beside_source == NULL || r->beside_why[0] != '\0')
			jsonstr_fput(fp, r->beside_why);
		else
			fputs("null", fp);
		beside_count(r, &n);
		fprintf(fp, ",\"cases\":%u,\"compared\":%u,\"agreed\":%u,\"disturbed\":%u}",
		    n.read, n.compared, n.agree, n.disturbed);
	}
	fputs(",\"background\":[", fp);
	for (i = 0; i < r->nbg; i++) {
		fprintf(fp, "%s{\"cpu\":%u,\"busy\":", i > 0 ? "," : "", r->bg_cpu[i]);
		json_num(fp, r->bg_busy[i] >= 0.0 ? r->bg_busy[i] : NAN);   /* null: unknown */
		fputc('}', fp);
	}
	fputc(']', fp);
}

int
check_report_json(FILE *fp, const struct check_report *r)
{
	unsigned i, k;
	bool first = true;

	json_head(fp, r);
	json_key(fp, "cases");
	fputc('[', fp);
	for (i = 0; i < r->nres; i++) {
		if (i > 0)
			fputc(',', fp);
		json_result(fp, &r->res[i]);
	}
	fputc(']', fp);
	/* A check that did not run its cases to the end has no summary: a
	 * family "trusted" on one case of seven would be read as the node's. */
	if (r->outcome == CO_INTERRUPTED || r->outcome == CO_ERROR) {
		fputs(",\"summary\":null,\"unchecked\":null", fp);
	} else {
		fputs(",\"summary\":{", fp);
		for (k = 0; k < CF_NFAMILIES; k++)
			fprintf(fp, "%s\"%s\":\"%s\"", k > 0 ? "," : "",
			    check_family_key((enum check_family)k), check_trust_key(r->trust[k]));
		fputs("},\"unchecked\":{", fp);
		for (k = 0; k < CF_NFAMILIES; k++) {
			if (r->trust[k] != CT_UNCHECKED || r->unchecked[k] == NULL)
				continue;
			fprintf(fp, "%s\"%s\":", first ? "" : ",",
			    check_family_key((enum check_family)k));
			jsonstr_fput(fp, r->unchecked[k]);
			first = false;
		}
		fputc('}', fp);
	}
	json_key(fp, "outcome");
	jsonstr_fput(fp, check_outcome_key(r->outcome));
	json_key(fp, "error");
	if (r->outcome == CO_ERROR)
		jsonstr_fput(fp, r->error);
	else
		fputs("null", fp);
	fputs("}\n", fp);
	return fflush(fp) != 0 || ferror(fp) ? -1 : 0;
}
