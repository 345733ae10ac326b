/* batch.h: the non-interactive outputs (-b): text, csv, json, openmetrics,
 * summary, one table of formats (batch.c). Each takes the figures of an
 * interval; none of them computes a figure. What the formats share is
 * format.h's. */
#ifndef HTTOP_BATCH_H
#define HTTOP_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/dielayout.h"
#include "machine/machine.h"
#include "metrics/metrics.h"
#include "out/format.h"
#include "plan/plan.h"
#include "util/errmsg.h"
#include "watch/job.h"
#include "watch/slurm.h"

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
/* The end of the output (openmetrics with -n N: the one exposition and
 * its "# EOF"; nothing else). Call after the last
 * batch_write; -1 with a message on a write error other than EPIPE. */
int batch_end(struct batch *b, struct errmsg *e);
void batch_free(struct batch *b);
/* --format openmetrics with -n N or a command's run: one exposition of the intervals,
 * each family once (kept in memory until batch_end writes it); without,
 * a stream of expositions, one per interval, each ending "# EOF". */
void batch_set_one_exposition(struct batch *b, bool on);
int out_format_parse(const char *s, enum out_format *f);
const char *out_format_name(enum out_format f);
const char *out_level_name(enum out_level l);
int out_level_parse(const char *s, enum out_level *l);
/* The openmetrics format's level (default OUT_LEVEL_THREAD). */
void batch_set_level(struct batch *b, enum out_level l);
/* json: the cores and threads in the compact form (--compact; httop(1),
 * OUTPUT FORMATS). */
void batch_set_compact(struct batch *b, bool on);
/* errno of the last failed write (EPIPE: the reader went away), or 0. */
int batch_errno(const struct batch *b);
/* The summary format's column header line, printed before the first
 * interval: on unless turned off (app.c: off when standard output is not
 * a terminal, so that the lines of many nodes merge into one per node). */
void batch_set_header(struct batch *b, bool on);
/* What the next intervals' aggregate is taken over (default the node). */
void batch_set_scope(struct batch *b, enum out_scope s);
/* The watched job (--job, --pid, --cgroup, a command): every format names
 * it (openmetrics: httop_job_info and the job's own aggregate families
 * httop_job_*, json: "job", csv: the job column, summary: "job ID" at the
 * end of each line). Copied. NULL: none. */
void batch_set_job(struct batch *b, const struct job_ident *j);


#endif
