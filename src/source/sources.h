/* sources.h: constructors for every counter source. Each returns a source
 * that owns its private state; source_close() restores and frees it. */
#ifndef HTTOP_SOURCES_H
#define HTTOP_SOURCES_H

#include <stdint.h>

#include "source/msr/msr_io.h"
#include "source/source.h"

/* MSR engine over any msr_io (takes ownership of io). `name` is what the
 * header shows ("msr", "sim"). Opens every present CPU's device up front
 * and keeps it open; an open error names the cause and the fix (modprobe
 * msr, root or CAP_SYS_RAWIO, ...). */
struct source *msr_source_new(struct machine *m, struct msr_io *io, const char *name,
    struct errmsg *e);
/* MSR accesses the engine's io has made so far (tests, bench: one read
 * per slot per CPU per refresh). Either pointer may be NULL. */
void msr_source_io_counts(const struct source *s, uint64_t *reads, uint64_t *writes);
/* For sources built on the engine (sim): the engine's own ops, to call
 * through from a wrapper ops table put in s->ops, and one pointer of the
 * wrapper's state, freed by the engine's close after its io. */
const struct source_ops *msr_source_engine_ops(void);
void msr_source_set_ext(struct source *s, void *ext, void (*free_ext)(void *));
void *msr_source_ext(const struct source *s);
/* The real thing: /dev/cpu/%u/msr or --msr-path TEMPLATE. */
struct source *msr_source_open(struct machine *m, const char *path_template, struct errmsg *e);
/* msr-safe (--source msr-safe): the msr engine over msr_io_safe_new(), after
 * checking that msr-safe's allowlist has every MSR this machine's plans
 * read, with the write mask of the bits they write (the batch device
 * reports the masks; without it only reads are checked). A missing entry
 * is an error naming the MSR and the allowlist line to add. NULL paths:
 * the defaults (/dev/cpu/%u/msr_safe, /dev/cpu/msr_batch). */
struct source *msr_safe_source_open(struct machine *m, const char *dev_template,
    const char *batch_path, struct errmsg *e);
/* The same over an io made by msr_io_safe_new*() (takes ownership). */
struct source *msr_safe_source_new(struct machine *m, struct msr_io *io, struct errmsg *e);
/* perf_event_open(2) per CPU (--source perf): the machine's plan mapped
 * to generic events (instructions, cycles, ref-cycles) and raw encodings;
 * works unprivileged where perf_event_paranoid allows. The plan it can
 * carry out is its own (no AnyThread without privilege): it fills *plan.
 * -1 with a message naming the cause (no hardware events in a VM,
 * perf_event_paranoid, ...) and the fix. */
struct source *perf_source_open(struct machine *m, struct plan *plan, struct errmsg *e);
/* A recorded trace. Fills *m and *plan from the trace header; the source
 * points at them, so they must outlive it. */
struct source *replay_source_new(const char *path, struct machine *m, struct plan *plan,
    struct errmsg *e);
/* The trace reader behind a replay source: trace_last_event(), trace_note(). */
struct trace_reader;
struct trace_reader *replay_source_reader(struct source *s);
/* The events met before the sample last read ("" if none). */
const char *replay_source_events(const struct source *s);

/* Replay controls (the live view). Where a replay stands: */
struct replay_info {
	uint64_t pos;              /* samples read since the start: 1 = the first */
	uint64_t total;            /* complete samples in the trace, if total_known */
	bool total_known;          /* the scan has been through the file */
	double t_first, t_last;    /* recorded times of the first and last sample */
	bool at_end;               /* the sample last read is the last one */
};
void replay_source_info(const struct source *s, struct replay_info *ri);
/* Count the trace's samples with a second reader, at most `budget` of
 * them per call (0: to the end). Returns 1 once the total is known, 0 if
 * there is more to read, -1 if the file has a malformed line (the replay
 * itself stops there too). Keeps three samples, whatever the length. */
int replay_source_scan(struct source *s, unsigned budget, struct errmsg *e);
/* The recorded time of the sample the next read returns, read ahead
 * (the read then hands it out). Returns 0, 1 at the end, -1 on a
 * malformed line (the read returns the same). */
int replay_source_peek_time(struct source *s, double *t, struct errmsg *e);
/* The next read is the first sample again (the file is opened again). */
int replay_source_rewind(struct source *s, struct errmsg *e);
/* The next two reads are the last two complete samples (the last
 * interval), then the end. Finishes the scan first if needed. */
int replay_source_seek_end(struct source *s, struct errmsg *e);

#endif
