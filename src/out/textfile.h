/* textfile.h: --textfile DIR: after every interval, DIR/httop.prom for the
 * Prometheus node exporter's textfile collector, replaced atomically (a
 * temporary file in DIR, written, fsync'd, renamed over the name), so the
 * collector never reads half a file. */
#ifndef HTTOP_TEXTFILE_H
#define HTTOP_TEXTFILE_H

#include "machine/machine.h"
#include "out/batch.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "util/errmsg.h"

/* The file the collector reads (it takes every *.prom in DIR). */
#define TEXTFILE_NAME "httop.prom"
#define TEXTFILE_JOB_PREFIX "httop-job-"   /* a watched job's: httop-job-ID.prom */

struct textfile;

/* Before anything is opened: DIR is a directory that opens and, with
 * `create`, one in which a file can be created (a temporary file, removed
 * at once). 0, or -1 with textfile_open's message. */
int textfile_check(const char *dir, bool create, struct errmsg *e);
/* Open DIR and check that a file can be created in it (with the
 * privilege httop keeps: call after it is dropped). Temporary files left
 * by an httop that died (a process that no longer exists) are removed.
 * -1 with a message naming DIR and the fix. */
struct textfile *textfile_open(const char *dir, const struct machine *m, const struct plan *p,
    const char *source_name, struct errmsg *e);
/* How far down the file goes (--textfile-level; options.c's default:
 * package, a count of series every node can afford). */
void textfile_set_level(struct textfile *t, enum out_level l);
/* The watched job (batch_set_job): httop_job_info and httop_job_X. */
void textfile_set_job(struct textfile *t, const struct job_ident *j);
/* Replace DIR/httop.prom with this interval's figures. On any error the
 * temporary file is removed, the old httop.prom stays, and -1 comes back
 * with the cause. */
int textfile_write(struct textfile *t, const struct interval *iv, struct errmsg *e);
/* Close DIR. httop.prom stays: the collector's node_textfile_mtime_seconds
 * tells how old it is. */
void textfile_free(struct textfile *t);

#endif
