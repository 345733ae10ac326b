/* runsum.c: the summary of a command's run (runsum.h). Shares in percent,
 * a bound as lo-hi, an absent figure as "-" with its reason below the
 * table. */
#include "config.h"
#include "out/runsum.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "out/format.h"
#include "util/i18n.h"
#include "util/textesc.h"

#define LABEL_W 12
#define COL_W 11
#define NCOLS 9

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

static void
row(FILE *fp, const char *label, const struct agg_fig *g)
{
	static const double scale[NCOLS] = { 100, 100, 100, 100, 100, 100, 1, 1, 1 };
	static const int dec[NCOLS] = { 1, 1, 1, 1, 1, 1, 2, 2, 2 };
	struct val v[NCOLS];
	char buf[48];
	int i;

	columns(g, v);
	fprintf(fp, "  %-*s", LABEL_W - 2, label);
	for (i = 0; i < NCOLS; i++)
		fprintf(fp, "%*s", COL_W, out_fig(buf, sizeof buf, v[i], scale[i], dec[i], ""));
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
	int i, k;

	columns(g, v);
	for (i = 0; i < NCOLS; i++) {
		if (v[i].kind != V_NONE || done[i])
			continue;
		fputs(any ? "; " : _("  absent: "), fp);
		for (k = i; k < NCOLS; k++) {
			if (v[k].kind != V_NONE || v[k].why != v[i].why)
				continue;
			fprintf(fp, "%s%s", k > i ? ", " : "", _(names[k]));
			done[k] = true;
		}
		fprintf(fp, ": %s", _(metrics_reason_text(v[i].why)));
		any = true;
	}
	if (any)
		fputc('\n', fp);
}

void
out_run_summary(FILE *fp, const struct machine *m, const struct interval *iv,
    const struct run_summary *s)
{
	const struct topology *t = &m->topo;
	char cmd[256], label[32], cores[32];
	unsigned ci, p = 0;

	fputc('\n', fp);
	if (s->argv != NULL) {
		command_text(cmd, sizeof cmd, s->argv);
		fprintf(fp, _(" httop: %s (pid %ld): %s after %.2f s\n"), cmd, s->pid, s->ended,
		    s->seconds);
	} else {
		/* The label is escaped for the terminal (job_watch_set_job). */
		fprintf(fp, _(" httop: job %s: %s; watched for %.2f s\n"), s->job, s->ended,
		    s->seconds);
	}
	if (s->have_cpu)
		fprintf(fp, _(" CPU time: user %.2f s, system %.2f s\n"), s->user, s->system);
	snprintf(cores, sizeof cores, ngettext("%u core", "%u cores", iv->node.ncores),
	    iv->node.ncores);
	fprintf(fp, s->argv != NULL ?
	    _(" host %s, source %s; the command's CPUs %s (%s); figures over %.2f s\n") :
	    _(" host %s, source %s; the job's CPUs %s (%s); figures over %.2f s\n"),
	    m->hostname[0] != '\0' ? m->hostname : "-", s->source, s->cpus[0] ? s->cpus : "-",
	    cores, s->covered);
	if (s->meaning != NULL)
		fprintf(fp, _(" meaning: %s\n"), s->meaning);
	fputc('\n', fp);
	fprintf(fp, "%-*s%*s%*s%*s%*s%*s%*s%*s%*s%*s\n", LABEL_W, "", COL_W, _("neither%"),
	    COL_W, _("t0 only%"), COL_W, _("t1 only%"), COL_W, _("both%"), COL_W, _("util%"),
	    COL_W, _("both/busy%"), COL_W, _("threads"), COL_W, _("GHz"), COL_W, _("CPI"));
	/* One row per package with a core of the command's. */
	for (ci = 0; ci < t->ncores; ci++) {
		if (ci > 0 && t->cores[ci].package != t->cores[ci - 1].package)
			p++;
		if ((ci == 0 || t->cores[ci].package != t->cores[ci - 1].package) &&
		    p < iv->npackages && iv->packages[p].ncores > 0) {
			snprintf(label, sizeof label, _("package %u"), t->cores[ci].package);
			row(fp, label, &iv->packages[p]);
		}
	}
	row(fp, _("node"), &iv->node);
	fputc('\n', fp);
	fputs(_("  both/busy: time both threads were active, as a share of busy core time;\n"
	    "  threads: threads active per busy core\n"), fp);
	absent_line(fp, &iv->node);
	if (!iv->valid)
		fprintf(fp, _("  not valid over the whole run: %s\n"), iv->reason);
	fflush(fp);
}

void
out_run_bare(FILE *fp, const struct run_bare *r)
{
	char cmd[256];

	command_text(cmd, sizeof cmd, r->argv);
	fputc('\n', fp);
	fprintf(fp, _(" httop: %s (pid %ld): %s after %.2f s\n"), cmd, r->pid, r->ended,
	    r->seconds);
	if (r->have_cpu)
		fprintf(fp, _(" CPU time: user %.2f s, system %.2f s\n"), r->user, r->system);
	else
		fputs(_(" CPU time: not known (the command was not reaped by httop)\n"), fp);
	fprintf(fp, _(" host %s, no counter source: the SMT split, utilisation, threads per "
	    "busy core, GHz and CPI were not measured\n"), r->host != NULL && r->host[0] != '\0' ?
	    r->host : "-");
	fprintf(fp, _("  why: %s\n"), r->why != NULL ? r->why : "-");
	fflush(fp);
}
