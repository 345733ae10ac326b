/* sources.h: constructors for every counter source. Each returns a source
 * that owns its private state; source_close() restores and frees it. */
#ifndef HTTOP_SOURCES_H
#define HTTOP_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
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
/* The saved-state file of a run over real devices (msr_state.h): the
 * engine owns it now, writes it before each first write of a register
 * and removes it once every register is back. */
struct msr_state;
void msr_source_set_state(struct source *s, struct msr_state *st);
/* What a killed httop left (httop(1), RECOVERY): every register its
 * saved state (of this boot, these devices, a run that has ended) names
 * whose bits owned by httop still hold what it wrote, or another of
 * httop's settings, gets its value from before that run; others are left
 * to the program that set them since. Only registers and bits httop's
 * plans write are touched. With `defaults` (httop --restore), then
 * every register that still holds httop's own settings, with no state to
 * say what was there before, gets httop's bits at their power-on value
 * (0); and another httop still running on these devices is an error.
 * `note` gets what was done ("" when nothing); 0, or -1 with a message. */
int msr_source_recover(struct source *s, bool defaults, char *note, size_t len,
    struct errmsg *e);
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
 * perf_event_paranoid, ...) and the fix. With after_msr (--source auto,
 * where the msr source failed first and its note says why) a message
 * never offers --source msr as the fix: it names what helps perf, or
 * sends the user to what was said of msr where only msr could do. */
struct source *perf_source_open(struct machine *m, struct plan *plan, bool after_msr,
    struct errmsg *e);
/* Where no counter opens: each CPU's busy time from /proc/stat, the
 * kernel's idle accounting (--source procstat). Fills *plan with its own
 * plan (procstat_plan): TSC and REF in microseconds, the split a bound, no
 * instructions or cycles. -1 with a message when the file cannot be read
 * or names no CPU of the topology. */
struct source *procstat_source_open(struct machine *m, struct plan *plan, struct errmsg *e);
/* The same over another file (tests) and tick rate (USER_HZ). */
struct source *procstat_source_new(struct machine *m, struct plan *plan, const char *path,
    long user_hz, struct errmsg *e);
/* The tests' clock for such a source (seconds, monotonic); the time since
 * open starts again from its present value. */
void procstat_source_set_clock(struct source *s, double (*clock)(void));
/* The procstat source's plan: slots TSC and REF (microseconds), split a
 * bound where cores have two threads, scale the microseconds of a tick
 * (the unit of the invariants' tolerance, not a counters' S). */
void procstat_plan(struct plan *p, const struct machine *m, long user_hz);

/* The kernel's context switches per CPU (--source sched): no counter,
 * the time each CPU ran a task other than idle, merged per core into the
 * split; fills *plan with sched_plan(). Needs CPU-wide perf events
 * (perf_event_paranoid <= 0, CAP_PERFMON or root); -1 with the cause and
 * the fix. Refuses a machine description naming CPUs this machine lacks. */
struct source *sched_source_open(struct machine *m, struct plan *plan, struct errmsg *e);
/* The same watching a job: `job` (copied; its context must outlive the
 * source) says which tasks are the job's, and the plan gains the job's
 * slots (sched_plan_job): the job's time per thread, its split per core
 * (src/source/sched/sched_merge.c). The events also carry perf's fork and exit
 * records, handed to job->fork and job->exit. */
struct sched_job;
struct source *sched_source_open_job(struct machine *m, struct plan *plan,
    const struct sched_job *job, struct errmsg *e);
/* A recorded trace. Fills *m and *plan from the trace header; the source
 * points at them, so they must outlive it. */
struct source *replay_source_new(const char *path, struct machine *m, struct plan *plan,
    struct errmsg *e);
/* The same read once, forward only (batch mode): the trace may also be a
 * FIFO (a pipe), and the source has no seek operations (going back opens
 * the file again). */
struct source *replay_source_once(const char *path, struct machine *m, struct plan *plan,
    struct errmsg *e);

#endif
