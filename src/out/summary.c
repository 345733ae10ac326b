/* summary.c: one line per interval with the node figures (or the job's:
 * the last column says which; a watched job's own CPU seconds and shared
 * share after its id where its tasks are told apart), in fixed columns, host first, then the time since the start and the wall-clock
 * time (so that the lines of many nodes line up): the output of many nodes (pdsh, clush) sorts and
 * merges into one line per node. Shares in percent, a bound as lo-hi, an
 * absent figure as "-"; an invalid interval ends its line with the reason. */
#include "config.h"
#include "out/format.h"

#include <math.h>
#include <string.h>

#include "util/i18n.h"
#include "util/textesc.h"

/* Column widths: a bound "100.0-100.0" fits in 11. */
#define HOST_W 16
#define FIG_W 11
/* The wall-clock time, Unix seconds to the millisecond: 1732480000.123. */
#define UNIX_W 14

void
out_summary_write(struct batch *b, const struct interval *iv)
{
	const struct agg_fig *n = &iv->node;
	char s[5][72], host[4 * sizeof b->m->hostname], reason[4 * sizeof iv->reason], job[160];

	if (b->nwritten == 0 && !b->no_header)
		fprintf(b->fp, "%-*s %10s %*s %5s %*s %*s %*s %*s %*s %s\n", HOST_W, _("host"),
		    _("time"), UNIX_W, _("unix_time"), _("valid"), FIG_W, _("util%"), FIG_W,
		    _("both/busy%"), FIG_W, _("threads"), FIG_W, _("GHz"), FIG_W, _("CPI"), _("of"));
	/* A host name has no blank (hostname.h), which would shift the
	 * columns; text from outside never reaches the terminal raw. */
	fprintf(b->fp, "%-*s %10.3f %*s %5d %*s %*s %*s %*s %*s %s", HOST_W,
	    b->m->hostname[0] != '\0' ? text_escape(host, sizeof host, b->m->hostname) : "-",
	    isfinite(iv->time) ? iv->time : 0.0, UNIX_W, b->wt.unix3, iv->valid ? 1 : 0,
	    FIG_W, out_fig(s[0], sizeof s[0], n->util, 100.0, 1, ""),
	    FIG_W, out_fig(s[1], sizeof s[1], n->both_of_busy, 100.0, 1, ""),
	    FIG_W, out_fig(s[2], sizeof s[2], n->active_threads, 1.0, 2, ""),
	    FIG_W, out_fig(s[3], sizeof s[3], n->ghz, 1.0, 2, ""),
	    FIG_W, out_fig(s[4], sizeof s[4], n->cpi, 1.0, 2, ""), out_scope_name(b->scope));
	/* The watched job: its id (control characters escaped), after the
	 * figures. */
	if (b->has_job)
		fprintf(b->fp, "  job %s", text_quote(job, sizeof job, b->job.id, 64));
	/* Its own figures, where its tasks are told apart (sched): its CPU
	 * seconds and the share of its cores' time a sibling ran another
	 * task beside it. */
	if (b->has_job && n->cpu_s.kind != V_NONE)
		fprintf(b->fp, _("  its own cpu %s s%s, shared %s"),
		    out_fig(s[1], sizeof s[1], n->cpu_s, 1.0, 3, ""),
		    n->cpu_s.kind == V_BOUND ? _(" (a bound)") : "",
		    out_fig(s[0], sizeof s[0], n->job_shared, 100.0, 1, "%"));
	/* The whole run's record (batch_write_whole), after the intervals. */
	if (b->whole)
		fputs("  whole run", b->fp);
	if (!iv->valid)
		fprintf(b->fp, "  %s", text_escape(reason, sizeof reason, iv->reason));
	fputc('\n', b->fp);
}
