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
/* The same over devices opened earlier (msr_io_file_new over `tmpl`, some
 * CPUs already open: a privileged httop opens them before it reads
 * anything a user names); takes ownership of io. */
struct source *msr_source_open_io(struct machine *m, struct msr_io *io, const char *tmpl,
    struct errmsg *e);
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
/* The kernel's context switches per CPU (--source sched): no counter,
 * the time each CPU ran a task other than idle, merged per core into the
 * split; fills *plan with sched_plan(). Needs CPU-wide perf events
 * (perf_event_paranoid <= 0, CAP_PERFMON or root); -1 with the cause and
 * the fix. Refuses a machine description naming CPUs this machine lacks. */
struct source *sched_source_open(struct machine *m, struct plan *plan, struct errmsg *e);
/* A recorded trace. Fills *m and *plan from the trace header; the source
 * points at them, so they must outlive it. */
struct source *replay_source_new(const char *path, struct machine *m, struct plan *plan,
    struct errmsg *e);

#endif
