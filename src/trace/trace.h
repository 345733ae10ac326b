/* trace.h: httop's trace format (man/httop-trace.5): a versioned,
 * line-oriented text file with the machine, the topology, the counter plan
 * and, per interval, the raw counter values of every CPU. Written by
 * --record and httop-ppc2trace, read by the replay source. A reader stops
 * cleanly at the last complete interval (a writer killed mid-line leaves
 * a readable file). */
#ifndef HTTOP_TRACE_H
#define HTTOP_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "machine/machine.h"
#include "plan/plan.h"
#include "sample/jobident.h"
#include "sample/sample.h"
#include "util/errmsg.h"

#define TRACE_VERSION 1   /* major: a reader refuses a newer one */
#define TRACE_MINOR 6     /* minor: new line types, fields or values (1.2: l3=none,
			   * 1.3: the sample line's wall=, 1.4: the plan's basis=
			   * and clock_hz=, the CPU state lost, 1.5: split=sched
			   * and split=ticks, 1.6: the header's job line, the
			   * sample's job-cpus lines) */

struct trace_reader;
struct trace_writer;

/* Reads the header into *m (topology, identity, group) and *plan. The
 * plan's writes[].what strings belong to the reader: valid until
 * trace_close. Free *m with machine_free() after a successful open; a
 * failed open leaves nothing to free. */
struct trace_reader *trace_open(const char *path, struct machine *m, struct plan *plan,
    struct errmsg *e);
/* The same where the trace may also be a FIFO (a pipe), read once,
 * forward only: a batch replay (the live view opens it again to go
 * back). */
struct trace_reader *trace_open_once(const char *path, struct machine *m, struct plan *plan,
    struct errmsg *e);
/* The same from an open stream (a pipe, fmemopen, a fuzzer's input);
 * `name` is used in messages. The stream stays the caller's: trace_close
 * does not close it. */
struct trace_reader *trace_open_stream(FILE *fp, const char *name, struct machine *m,
    struct plan *plan, struct errmsg *e);
/* A descriptor whose readability ends a wait for a pipe's writer (main
 * passes signals_fd(): a stalled writer never holds up an ending signal);
 * the read waiting then fails with EINTR. -1 (the default): none. */
void trace_wake_fd(int fd);
/* Next sample (s must be sample_init'ed for m and plan). Returns 0, 1 at
 * the end of data (also after a truncated final interval, which is
 * reported in *e with its line number but is not an error), -1 on a
 * malformed line (message names the line). Events in between are
 * returned through trace_last_event(). */
int trace_next(struct trace_reader *r, struct sample *s, struct errmsg *e);
/* The start of the event that says the job's own figures of the interval
 * that follows were absent (the source lost track of a process of the
 * job: R_JOB_UNTRACKED); a replay makes them absent again. */
#define TRACE_EVENT_JOB_UNTRACKED "job-untracked"
/* The start of the event that says the watched job ended (its note
 * follows: "job-ended: pid 4242 has ended"): a replay ends the job's
 * watch there, as the live run did. */
#define TRACE_EVENT_JOB_ENDED "job-ended"
/* Text of the events (e.g. "reprogrammed cpu 3 PERFEVTSEL1") met before
 * the sample last returned; "" if none. */
const char *trace_last_event(const struct trace_reader *r);
void trace_close(struct trace_reader *r);
/* The header's producer ("httop 0.1.0", "httop-ppc2trace from X") and
 * note ("" if none), for the header line of a replay. */
const char *trace_producer(const struct trace_reader *r);
const char *trace_note(const struct trace_reader *r);

/* Writer: header at open, one sample per call, flushed per interval. An
 * event is kept until the next sample (or close) and written with it: it
 * belongs to the interval that follows it. */
struct trace_writer *trace_writer_open(FILE *fp, const struct machine *m, const struct plan *plan,
    const char *note, struct errmsg *e);
int trace_write_sample(struct trace_writer *w, const struct sample *s, struct errmsg *e);
int trace_write_event(struct trace_writer *w, double time, const char *text, struct errmsg *e);
int trace_writer_close(struct trace_writer *w, struct errmsg *e);
/* Same, naming the producer (NULL: "httop VERSION") and the creation time
 * (0: now); httop-ppc2trace uses it. */
struct trace_writer *trace_writer_open_ex(FILE *fp, const struct machine *m,
    const struct plan *plan, const char *producer, time_t created, const char *note,
    struct errmsg *e);

/* A writer on a descriptor it owns (httop --record): every interval, with
 * the events before it, is formatted into one block and handed to the
 * kernel with write(2) (through deflate with a sync flush when gzip), so
 * a writer killed with kill -9 leaves every complete interval readable.
 * On a write error the writer stops for good: a regular file is cut back
 * to the end of the last complete interval, the message names `name`,
 * the error and the fix, and every later call fails. Close writes the
 * gzip trailer and closes the descriptor. On a failed open the
 * descriptor is closed too. */
struct trace_wopts {
	const char *name;          /* for messages: the file's path */
	const char *note;          /* header note, or NULL */
	bool gzip;                 /* gzip stream (RFC 1952) */
	bool truth;                /* samples carry the simulator's truth */
	const struct job_ident *job; /* the watched job (a "job" line), or NULL */
};
struct trace_writer *trace_writer_open_fd(int fd, const struct trace_wopts *o,
    const struct machine *m, const struct plan *plan, struct errmsg *e);
/* Complete intervals handed to the kernel so far. */
uint64_t trace_writer_count(const struct trace_writer *w);
/* Does the trace announce simulator truth ("truth" header line)? A replay
 * then gives its samples room for the t lines. */
bool trace_has_truth(const struct trace_reader *r);
/* The watched job the recording names (its header's "job" line), or NULL;
 * valid until trace_close. Its samples then carry the job's CPUs
 * (sample.h's job) where the recorder knew them. */
const struct job_ident *trace_job(const struct trace_reader *r);

#endif
