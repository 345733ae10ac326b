/* format.h: what the batch formats (text.c, csv.c, json.c, openmetrics.c,
 * summary.c) share, and the summary of a command's run (runsum.c) too: the
 * writer's state, which cores and threads are shown, and how a figure is
 * written (exact, a bound, or absent). Not for other layers: they see
 * batch.h. */
#ifndef HTTOP_OUT_FORMAT_H
#define HTTOP_OUT_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/dielayout.h"
#include "machine/machine.h"
#include "metrics/metrics.h"
#include "metrics/totals.h"
#include "out/linebuf.h"
#include "out/walltime.h"
#include "plan/plan.h"
#include "watch/job.h"
#include "watch/slurm.h"

struct ommerge;

enum out_format {
	FMT_TEXT = 0,
	FMT_CSV,
	FMT_JSON,
	FMT_OPENMETRICS,   /* OpenMetrics text: with -n N one exposition of
			    * the N intervals (batch_set_one_exposition),
			    * else one per interval, each ending "# EOF" */
	FMT_SUMMARY,       /* one line per interval: the node figures */
};

/* What an interval's aggregate (interval.node) is taken over: the node,
 * a watched job's cores (--pid, --cgroup, --job, a command's intervals,
 * the job line of many nodes), or a command's whole run. text, csv and
 * summary name it ("node:"/"job:", csv's kind, summary's last column). */
enum out_scope {
	OUT_SCOPE_NODE = 0,
	OUT_SCOPE_JOB,
	OUT_SCOPE_RUN,
};
const char *out_scope_name(enum out_scope s);

/* How far down the Prometheus outputs go (--level, --textfile-level):
 * each level has the families of the levels above it too. */
enum out_level {
	OUT_LEVEL_NODE = 0,
	OUT_LEVEL_PACKAGE,
	OUT_LEVEL_CORE,
	OUT_LEVEL_THREAD,  /* everything: the default */
};

/* The writer's state, which every format reads (batch.c makes it). */
struct batch {
	enum out_format fmt;
	FILE *fp;
	const struct machine *m;
	const struct plan *p;
	const char *source_name;
	const struct die_layout *layout; /* NULL: not known */
	unsigned *pkg_id;          /* package os_index per interval.packages[] entry */
	unsigned long nwritten;    /* intervals written so far */
	int err;                   /* errno of the last write error */
	bool no_header;            /* summary: no column header line */
	enum out_scope scope;      /* what interval.node is taken over */
	bool ended;                /* batch_end has run */
	bool whole;                /* the record being written is the whole run's */
	struct linebuf line;       /* json, csv: the line being built */
	struct walltime wt;        /* the interval's wall time, as text */
	enum out_level level;      /* openmetrics: how far down */
	struct totals *tot;        /* openmetrics: the counters' totals, made
				    * at the first exposition */
	bool has_job;              /* job holds the watched job */
	struct job_ident job;
	/* its id and kind escaped (textesc.h), once: a recording's job line
	 * is a file's text (csv, text) */
	char job_id_esc[4 * sizeof ((struct job_ident *)0)->id];
	char job_kind_esc[4 * sizeof ((struct job_ident *)0)->kind];
	/* Per CPU, its Slurm job now ("" none), cpu_job_n of them, or NULL:
	 * openmetrics at level core writes httop_core_slurm_job_info. */
	const char (*cpu_job)[SLURM_ID_MAX];
	unsigned cpu_job_n;
	bool compact;              /* json: the compact form (--compact) */
	struct linebuf desc;       /* json compact: this interval's "core_list" */
	struct linebuf last_desc;  /* and the last one written */
	bool have_desc;
	/* json: each thread's and core's first members, which only the
	 * topology gives (it does not change), made on the first line
	 * (json.c's json_heads_make); NULL: not yet. */
	struct linebuf heads;
	size_t *head_at;
	/* openmetrics with -n N: the intervals kept for one exposition,
	 * written by batch_end (ommerge.h); NULL: a stream, each interval
	 * an exposition of its own ending "# EOF". */
	struct ommerge *merge;
	size_t om_hold;            /* the most bytes merge may hold (OM_HOLD) */
	bool om_spilled;           /* it was written before the end: said once */
};
/* openmetrics: past b->om_hold bytes the exposition held so far is
 * written with its "# EOF" and a new one begins (batch.c). */
void batch_om_spill(struct batch *b);
void out_text_write(struct batch *b, const struct interval *iv);
void out_csv_write(struct batch *b, const struct interval *iv);
void out_json_write(struct batch *b, const struct interval *iv);
/* json.c: the compact form's cores and threads (--compact): the list of
 * cores when it changed (after "node"), the figures (after "packages"). */
void out_json_compact_list(struct batch *b, const struct interval *iv);
void out_json_compact_tail(struct batch *b, const struct interval *iv);
void out_openmetrics_write(struct batch *b, const struct interval *iv);
void out_summary_write(struct batch *b, const struct interval *iv);
/* The metric families of openmetrics.c in either text format: OpenMetrics
 * (# UNIT lines, an info family, "# EOF" after each exposition, or
 * kept for one exposition that batch_end writes) or the Prometheus text
 * format 0.0.4 that the node exporter's textfile collector reads (no UNIT,
 * no EOF, the info family as a gauge). */
void out_prom_write(struct batch *b, const struct interval *iv, bool openmetrics);
/* Is this core/thread part of the output (--cpus)? */
bool out_core_shown(const struct interval *iv, unsigned core);
bool out_thread_shown(const struct interval *iv, unsigned cpu);

/* A figure as text: "12.3" + unit when exact, "10.0-40.0" + unit for a
 * bound (one number + unit when both ends print the same at this
 * precision), "-" when
 * absent or not finite; the numbers are v * scale with `decimals`. */
const char *out_fig(char *buf, size_t len, struct val v, double scale, int decimals,
    const char *unit);
/* A figure's shape for the formats that give each part its own place
 * (csv's columns, json's members, openmetrics' samples): OUT_EXACT with *x,
 * OUT_BOUND with *lo and *hi (both finite), else OUT_ABSENT. */
enum out_shape { OUT_ABSENT = 0, OUT_EXACT, OUT_BOUND };
enum out_shape out_shape(struct val v, double *x, double *lo, double *hi);

#endif
