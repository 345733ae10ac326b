/* batch.h: the non-interactive outputs (-b): text, csv, json, openmetrics,
 * summary. Each takes the figures of an interval; none of them computes a
 * figure. */
#ifndef HTTOP_BATCH_H
#define HTTOP_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/dielayout.h"
#include "machine/machine.h"
#include "metrics/metrics.h"
#include "metrics/totals.h"
#include "out/linebuf.h"
#include "out/walltime.h"
#include "plan/plan.h"
#include "util/errmsg.h"
#include "watch/job.h"
#include "watch/slurm.h"

enum out_format {
	FMT_TEXT = 0,
	FMT_CSV,
	FMT_JSON,
	FMT_OPENMETRICS,   /* OpenMetrics text exposition, one per interval,
			    * one "# EOF" at the end of the stream */
	FMT_SUMMARY,       /* one line per interval: the node figures */
};

/* How far down the Prometheus outputs go (--level, --textfile-level):
 * each level has the families of the levels above it too. */
enum out_level {
	OUT_LEVEL_NODE = 0,
	OUT_LEVEL_PACKAGE,
	OUT_LEVEL_CORE,
	OUT_LEVEL_THREAD,  /* everything: the default */
};

struct batch;

/* `fp` stays the caller's. `source_name` goes into the header/records. */
struct batch *batch_new(enum out_format f, FILE *fp, const struct machine *m,
    const struct plan *p, const char *source_name);
/* Where each core sits (json: "layout" and each core's "tile"); the
 * layout stays the caller's. Without it json says "layout":null. */
void batch_set_layout(struct batch *b, const struct die_layout *l);
/* One interval. -1 with a message on a write error (EPIPE, ENOSPC). */
int batch_write(struct batch *b, const struct interval *iv, struct errmsg *e);
/* The whole run's record (a command's run, a watched job's), after the
 * last interval: openmetrics gives its samples the label window="run"
 * and the last interval's timestamp, json the key "window":"run". */
int batch_write_whole(struct batch *b, const struct interval *iv, struct errmsg *e);
/* The end of the stream (openmetrics: "# EOF", once, after the last
 * exposition; nothing in the other formats). Call after the last
 * batch_write; -1 with a message on a write error other than EPIPE. */
int batch_end(struct batch *b, struct errmsg *e);
void batch_free(struct batch *b);
int out_format_parse(const char *s, enum out_format *f);
const char *out_format_name(enum out_format f);
int out_level_parse(const char *s, enum out_level *l);
/* The openmetrics format's level (default OUT_LEVEL_THREAD). */
void batch_set_level(struct batch *b, enum out_level l);
/* errno of the last failed write (EPIPE: the reader went away), or 0. */
int batch_errno(const struct batch *b);
/* The summary format's column header line, printed before the first
 * interval: on unless turned off (app.c: off when standard output is not
 * a terminal, so that the lines of many nodes merge into one per node). */
void batch_set_header(struct batch *b, bool on);
/* The watched job (--job, --pid, --cgroup, a command): every format names
 * it (openmetrics: httop_job_info and the job's own aggregate families
 * httop_job_*, json: "job", csv: the job column, summary: "job ID" at the
 * end of each line). Copied. NULL: none. */
void batch_set_job(struct batch *b, const struct job_ident *j);

/* Internals shared by the writers in src/out/; not for other layers. */
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
	bool ended;                /* batch_end has run */
	bool whole;                /* the record being written is the whole run's */
	struct linebuf line;       /* json, csv: the line being built */
	struct walltime wt;        /* the interval's wall time, as text */
	enum out_level level;      /* openmetrics: how far down */
	struct totals *tot;        /* openmetrics: the counters' totals, made
				    * at the first exposition */
	bool has_job;              /* job holds the watched job */
	struct job_ident job;
	/* Per CPU, its Slurm job now ("" none), cpu_job_n of them, or NULL:
	 * openmetrics at level core writes httop_core_slurm_job_info. */
	const char (*cpu_job)[SLURM_ID_MAX];
	unsigned cpu_job_n;
};
void out_text_write(struct batch *b, const struct interval *iv);
void out_csv_write(struct batch *b, const struct interval *iv);
void out_json_write(struct batch *b, const struct interval *iv);
void out_openmetrics_write(struct batch *b, const struct interval *iv);
void out_summary_write(struct batch *b, const struct interval *iv);
/* The metric families of openmetrics.c in either text format: OpenMetrics
 * (# UNIT lines, an info family; batch_end writes the stream's "# EOF") or the Prometheus text
 * format 0.0.4 that the node exporter's textfile collector reads (no UNIT,
 * no EOF, the info family as a gauge). */
void out_prom_write(struct batch *b, const struct interval *iv, bool openmetrics);
/* Is this core/thread part of the output (--cpus)? */
bool out_core_shown(const struct interval *iv, unsigned core);
bool out_thread_shown(const struct interval *iv, unsigned cpu);

#endif
