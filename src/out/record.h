/* record.h: httop --record FILE: the trace (man/httop-trace.5) of a run,
 * written while it is monitored, from any source, in the TUI or in batch
 * mode. The refresh loops call it: open before any register is touched,
 * start once the plan is programmed, one call per sample, close at the
 * end. Events (CPUs going offline or online, invalid intervals, another
 * program's reprogramming) are worked out here from the samples and the
 * interval, and written just before the sample they belong to. */
#ifndef HTTOP_RECORD_H
#define HTTOP_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "sample/jobident.h"
#include "sample/sample.h"
#include "util/errmsg.h"

struct recorder;

/* Does `path` (with --record-compress or not) get a gzip stream? */
bool record_gzip(const char *path, bool compress);

/* Create or truncate `path` (mode 0644 before the umask). A file that
 * exists must be a regular file (or a pipe, /dev/null, /dev/full): a
 * device or a directory is refused. When `privileged` (root, set-user-ID,
 * capabilities) a symbolic link is refused too (O_NOFOLLOW). Ignores
 * SIGXFSZ, so that a file size limit is a write error (EFBIG) like a full
 * disk. NULL with a message naming the file, the cause and the fix. */
struct recorder *record_open(const char *path, bool compress, bool privileged,
    struct errmsg *e);
/* The header: the machine and the plan as programmed (the measured
 * scale); `truth`: the samples carry the simulator's truth; `note`: what
 * was recorded (the source). On failure the recorder writes nothing more
 * (record_close still frees it). */
int record_start(struct recorder *r, const struct machine *m, const struct plan *plan,
    bool truth, const char *note, struct errmsg *e);
/* The watched job, named in the header (trace 1.6 "job"): call before
 * record_start; the samples then carry its CPUs (run_set_job_cpus). A
 * copy is kept. NULL: none. */
void record_set_job(struct recorder *r, const struct job_ident *job);
/* The watched job ended (`note` says how): the event TRACE_EVENT_JOB_ENDED
 * goes with the next sample, so that a replay ends the watch there. */
int record_job_ended(struct recorder *r, double time, const char *note, struct errmsg *e);
/* A sample that starts a run of intervals: the first, or the fresh read
 * after a pause (`why` becomes an event, NULL for none). */
int record_first(struct recorder *r, const struct sample *s, const char *why,
    struct errmsg *e);
/* The sample that ends interval `iv`, after the events it brought: CPUs
 * whose state changed to or from offline, "invalid: REASON", and
 * "reprogrammed: NOTE" when `conflict_note` is not empty. A write error
 * stops the recording for good: the message names the file, the error,
 * the fix and how many samples the file keeps. */
int record_interval(struct recorder *r, const struct sample *cur, const struct interval *iv,
    const char *conflict_note, struct errmsg *e);
/* Samples written whole so far (a replay shows one interval fewer). */
uint64_t record_samples(const struct recorder *r);
/* Flush, finish the gzip stream, close; NULL is fine. */
int record_close(struct recorder *r, struct errmsg *e);

#endif
