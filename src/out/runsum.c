/* runsum.c: the summary of a command's run (runsum.h). Shares in percent,
 * a bound as lo-hi, an absent figure as "-" with its reason below the
 * tables. Every line fits 80 columns: the figures in two tables (the
 * split; the rest), the prose broken at blanks (util/textwrap.h). */
#include "config.h"
#include "out/runsum.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "out/format.h"
#include "out/outfile.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/textput.h"
#include "util/textwrap.h"

#define LABEL_W 12
#define COL_W 11
#define NCOLS 9
/* The first table: the four shares (the split); the second: the rest. */
#define SPLIT_COLS 4
/* Continuation lines of the prose: a little in from the line's own
 * start, or under the text after its label (" meaning: "). */
#define INDENT_HEAD 3
#define INDENT_NOTE 4
#define HANG_MAX 24

static const char *const heads[NCOLS] = { N_("neither%"), N_("t0 only%"), N_("t1 only%"),
    N_("both%"), N_("util%"), N_("both/busy%"), N_("threads"), N_("GHz"), N_("CPI") };

/* The columns of one aggregate, in the header's order. */
static void
columns(const struct agg_fig *g, struct val v[NCOLS])
{
	v[0] = g->neither;
	v[1] = g->t0_only;
	v[2] = g->t1_only;
	v[3] = g->both;
	v[4] = g->util;
	v[5] = g->both_of_busy;
	v[6] = g->active_threads;
	v[7] = g->ghz;
	v[8] = g->cpi;
}

/* The columns before the first %s of a (translated) format: its label,
 * under which its continuation lines start; `dflt` when there is none or
 * it is too wide. */
static unsigned
hang_cols(const char *label, unsigned dflt)
{
	unsigned c = text_cols(label, strlen(label));

	return c > 0 && c <= HANG_MAX ? c : dflt;
}

static unsigned
hang(const char *fmt, unsigned dflt)
{
	const char *at = strstr(fmt, "%s");
	unsigned c = at != NULL ? text_cols(fmt, (size_t)(at - fmt)) : 0;

	return c > 0 && c <= HANG_MAX ? c : dflt;
}

/* A column as wide as a bound ("12.3-100.0") or its (translated) head,
 * with a blank before it. */
static int
col_w(int i)
{
	int w = (int)text_cols(_(heads[i]), strlen(_(heads[i]))) + 1;

	return w > COL_W ? w : COL_W;
}

/* The label, padded by columns (a translation may hold UTF-8). */
static void
label_cell(FILE *fp, const char *label)
{
	int pad = LABEL_W - 2 - (int)text_cols(label, strlen(label));

	fprintf(fp, "  %s%*s", label, pad > 0 ? pad : 0, "");
}

static void
head_row(FILE *fp, int from, int to)
{
	int i;

	fprintf(fp, "%*s", LABEL_W, "");
	for (i = from; i < to; i++) {
		const char *h = _(heads[i]);
		int pad = col_w(i) - (int)text_cols(h, strlen(h));

		fprintf(fp, "%*s%s", pad > 0 ? pad : 0, "", h);
	}
	fputc('\n', fp);
}

static void
row(FILE *fp, const char *label, const struct agg_fig *g, int from, int to)
{
	static const double scale[NCOLS] = { 100, 100, 100, 100, 100, 100, 1, 1, 1 };
	static const int dec[NCOLS] = { 1, 1, 1, 1, 1, 1, 2, 2, 2 };
	struct val v[NCOLS];
	char buf[48];
	int i;

	columns(g, v);
	label_cell(fp, label);
	for (i = from; i < to; i++)
		fprintf(fp, "%*s", col_w(i), out_fig(buf, sizeof buf, v[i], scale[i], dec[i], ""));
	fputc('\n', fp);
}

/* The command as typed, quoted for a terminal and cut to a line. */
static void
command_text(char *buf, size_t len, char *const *argv)
{
	char word[128];
	size_t n = 0, i;

	buf[0] = '\0';
	for (i = 0; argv[i] != NULL && n + 4 < len; i++) {
		/* A word a shell would split or expand is quoted, as typed. */
		bool plain = argv[i][0] != '\0' && strspn(argv[i], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789_./=:,+-@%") == strlen(argv[i]);

		text_quote(word, sizeof word, argv[i], 48);
		n += (size_t)snprintf(buf + n, len - n, plain ? "%s%s" : "%s'%s'", i > 0 ? " " : "",
		    word);
	}
	if (n >= len - 1 && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

/* Why the node's absent figures are absent, each reason once with the
 * figures it takes: "GHz: base frequency unknown". */
static void
absent_line(FILE *fp, const struct agg_fig *g)
{
	static const char *const names[NCOLS] = { N_("neither"), N_("t0 only"), N_("t1 only"),
	    N_("both"), N_("util"), N_("both/busy"), N_("threads"), N_("GHz"), N_("CPI") };
	struct val v[NCOLS];
	bool done[NCOLS] = { false }, any = false;
	char line[1024] = "";
	int i, k;

	columns(g, v);
	for (i = 0; i < NCOLS; i++) {
		if (v[i].kind != V_NONE || done[i])
			continue;
		text_put(line, sizeof line, "%s", any ? "; " : _("  absent: "));
		for (k = i; k < NCOLS; k++) {
			if (v[k].kind != V_NONE || v[k].why != v[i].why)
				continue;
			text_put(line, sizeof line, "%s%s", k > i ? ", " : "", _(names[k]));
			done[k] = true;
		}
		text_put(line, sizeof line, ": %s", _(metrics_reason_text(v[i].why)));
		any = true;
	}
	/* Continued under the first figure named, after the label. */
	if (any)
		text_wrapf(fp, hang_cols(_("  absent: "), INDENT_NOTE), "%s\n", line);
}

/* One table: columns [from, to) of a row per package with a core of the
 * command's, then the node's. */
static void
table(FILE *fp, const struct machine *m, const struct interval *iv, int from, int to)
{
	const struct topology *t = &m->topo;
	char label[32];
	unsigned ci, p = 0;

	head_row(fp, from, to);
	for (ci = 0; ci < t->ncores; ci++) {
		bool first = ci == 0 || t->cores[ci].package != t->cores[ci - 1].package;

		if (ci > 0 && first)
			p++;
		if (first && p < iv->npackages && iv->packages[p].ncores > 0) {
			snprintf(label, sizeof label, _("package %u"), t->cores[ci].package);
			row(fp, label, &iv->packages[p], from, to);
		}
	}
	row(fp, _("node"), &iv->node, from, to);
}

/* What ran, how it ended, where, over what time, what the figures mean. */
static void
summary_head(FILE *fp, const struct machine *m, const struct interval *iv,
    const struct run_summary *s)
{
	char cmd[256], cores[32];

	if (s->argv != NULL) {
		command_text(cmd, sizeof cmd, s->argv);
		text_wrapf(fp, INDENT_HEAD, _(" httop: %s (pid %ld): %s after %.2f s\n"), cmd,
		    s->pid, s->ended, s->seconds);
	} else {
		/* The label is escaped for the terminal (job_watch_set_job). */
		text_wrapf(fp, INDENT_HEAD, _(" httop: job %s: %s; watched for %.2f s\n"), s->job,
		    s->ended, s->seconds);
	}
	if (s->have_cpu)
		text_wrapf(fp, INDENT_HEAD, _(" CPU time: user %.2f s, system %.2f s\n"), s->user,
		    s->system);
	snprintf(cores, sizeof cores, ngettext("%u core", "%u cores", iv->node.ncores),
	    iv->node.ncores);
	text_wrapf(fp, INDENT_HEAD, s->argv != NULL ?
	    _(" host %s, source %s; the command's CPUs %s (%s); figures over %.2f s\n") :
	    _(" host %s, source %s; the job's CPUs %s (%s); figures over %.2f s\n"),
	    m->hostname[0] != '\0' ? m->hostname : "-", s->source, s->cpus[0] ? s->cpus : "-",
	    cores, s->covered);
	if (s->meaning != NULL)
		text_wrapf(fp, hang(_(" meaning: %s\n"), INDENT_HEAD), _(" meaning: %s\n"),
		    s->meaning);
}

/* A share as "12.3%", or "-" when absent. */
static void
pct(char *buf, size_t len, struct val v)
{
	if (v.kind == V_EXACT)
		snprintf(buf, len, "%.1f%%", v.v * 100.0);
	else if (v.kind == V_BOUND)
		snprintf(buf, len, "%.1f-%.1f%%", v.lo * 100.0, v.hi * 100.0);
	else
		snprintf(buf, len, "-");
}

/* Its CPU seconds and whose count they are: only the scheduler tells its
 * tasks apart, its record (the sched source, or read beside the counters)
 * or the bpf source's program counting in the kernel, which reads no
 * record. A bound where part of its cores' time was not counted (a core
 * not valid in part of the run: records lost). One sentence for the four
 * cases, the phrases in it translated on their own. */
static void
own_cpu(FILE *fp, const struct val *v, bool bpf)
{
	const char *whose, *note = "";
	char secs[64];

	if (v->kind == V_BOUND)
		snprintf(secs, sizeof secs, "%.2f-%.2f", v->lo, v->hi);
	else
		snprintf(secs, sizeof secs, "%.2f", v->v);
	if (bpf)
		/* TRANSLATORS: whose count a job's CPU seconds are with the bpf
		 * source (its program counts them in the kernel): the second %s
		 * of "  CPU %s s on its cores (%s%s)\n" */
		whose = _("counted in the kernel at each switch");
	else
		/* TRANSLATORS: whose count a job's CPU seconds are (the sched
		 * source's, or its record read beside the counters): the second
		 * %s of "  CPU %s s on its cores (%s%s)\n" */
		whose = _("the scheduler's record");
	if (v->kind == V_BOUND)
		/* TRANSLATORS: the third %s of "  CPU %s s on its cores
		 * (%s%s)\n" when the seconds are a bound (lo-hi), right after
		 * whose count they are: it starts with its separator */
		note = _("; a bound: part of its cores' time was not counted");
	/* TRANSLATORS: a command's or job's own CPU seconds on its cores: the
	 * seconds ("12.34", or a bound "12.30-12.40"); whose count they are
	 * ("the scheduler's record" or "counted in the kernel at each
	 * switch"); then "; a bound: part of its cores' time was not counted"
	 * for a bound, else nothing */
	text_wrapf(fp, INDENT_NOTE, _("  CPU %s s on its cores (%s%s)\n"), secs, whose, note);
}

/* The command's (or job's) own figures first, from its tasks alone (the
 * scheduler's record): its CPU seconds and the split of its cores' time;
 * absent with the reason where its tasks are not told apart. */
static void
own_part(FILE *fp, const struct interval *iv, const struct run_summary *s)
{
	const struct agg_fig *g = &iv->node;
	char b[32], a[32], sh[32], n[32];

	text_wrapf(fp, INDENT_HEAD, "%s", s->argv != NULL ?
	    _(" the command's own figures (its tasks only):\n") :
	    _(" the job's own figures (its tasks only):\n"));
	if (g->cpu_s.kind == V_NONE) {
		text_wrapf(fp, hang(_("  not measured: %s\n"), INDENT_NOTE), _("  not measured: %s\n"),
		    _(metrics_reason_text(g->cpu_s.why)));
		return;
	}
	own_cpu(fp, &g->cpu_s, s->source != NULL && strcmp(s->source, "bpf") == 0);
	if (g->job_both.kind == V_NONE) {
		text_wrapf(fp, hang(_("  its split: %s\n"), INDENT_NOTE), _("  its split: %s\n"),
		    _(metrics_reason_text(g->job_both.why)));
		return;
	}
	pct(b, sizeof b, g->job_both);
	pct(a, sizeof a, g->job_alone);
	pct(sh, sizeof sh, g->job_shared);
	pct(n, sizeof n, g->job_none);
	text_wrapf(fp, INDENT_NOTE, _("  both threads %s, alone %s, shared %s, none %s\n"),
	    b, a, sh, n);
	/* "none" as the text format and the live view's jnone% say it */
	text_wrapf(fp, INDENT_NOTE, "%s", _("  (shared: one thread ran it while its sibling ran "
	    "another task; none: neither thread ran it)\n"));
}

static void
summary_text(FILE *fp, const struct machine *m, const struct interval *iv,
    const struct run_summary *s)
{
	fputc('\n', fp);
	summary_head(fp, m, iv, s);
	fputc('\n', fp);
	own_part(fp, iv, s);
	text_wrapf(fp, INDENT_HEAD, "%s", _(" the CPUs' figures, below, count every task on "
	    "them\n"));
	fputc('\n', fp);
	table(fp, m, iv, 0, SPLIT_COLS);
	fputc('\n', fp);
	table(fp, m, iv, SPLIT_COLS, NCOLS);
	fputc('\n', fp);
	text_wrapf(fp, INDENT_NOTE, "%s", _("  both/busy: time both threads were active, as a "
	    "share of busy core time;\n  threads: threads active per busy core\n"));
	absent_line(fp, &iv->node);
	if (!iv->valid)
		text_wrapf(fp, INDENT_NOTE, _("  not valid over the whole run: %s\n"), iv->reason);
}

int
out_run_summary(FILE *fp, const struct machine *m, const struct interval *iv,
    const struct run_summary *s)
{
	struct memout mo;
	int err;

	if ((err = memout_open(&mo)) != 0)
		return err;
	summary_text(mo.fp, m, iv, s);
	return memout_write(&mo, fp);
}

static void
bare_text(FILE *fp, const struct run_bare *r)
{
	char cmd[256];

	command_text(cmd, sizeof cmd, r->argv);
	fputc('\n', fp);
	text_wrapf(fp, INDENT_HEAD, _(" httop: %s (pid %ld): %s after %.2f s\n"), cmd, r->pid,
	    r->ended, r->seconds);
	if (r->have_cpu)
		text_wrapf(fp, INDENT_HEAD, _(" CPU time: user %.2f s, system %.2f s\n"), r->user,
		    r->system);
	else
		text_wrapf(fp, INDENT_HEAD, "%s",
		    _(" CPU time: not known (the command was not reaped by httop)\n"));
	text_wrapf(fp, INDENT_HEAD, _(" host %s, no counter source: the SMT split, utilisation, "
	    "threads per busy core, GHz and CPI were not measured\n"),
	    r->host != NULL && r->host[0] != '\0' ? r->host : "-");
	text_wrapf(fp, hang(_("  why: %s\n"), INDENT_NOTE), _("  why: %s\n"),
	    r->why != NULL ? r->why : "-");
}

int
out_run_bare(FILE *fp, const struct run_bare *r)
{
	struct memout mo;
	int err;

	if ((err = memout_open(&mo)) != 0)
		return err;
	bare_text(mo.fp, r);
	return memout_write(&mo, fp);
}
