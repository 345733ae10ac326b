/* sched_source.h: the scheduler source (--source sched): each CPU's
 * context switches, read from the kernel's perf ring buffers, turned into
 * the counts of a plan of its own (sched_source.c). sched_source_open()
 * is in sources.h. */
#ifndef HTTOP_SCHED_SOURCE_H
#define HTTOP_SCHED_SOURCE_H

#include <stdint.h>

#include "machine/machine.h"
#include "plan/plan.h"
#include "source/source.h"

/* Data pages of each CPU's ring (4 KiB pages: 256 KiB). A switch writes
 * two 32-byte records (out and in), so the ring holds 4096 switches; the
 * drain thread is woken at half of it, 2048 switches: every 0.1 s at
 * 20,000 switches per second. The control page makes it 65 pages, under
 * the 516 KiB per CPU an unprivileged user may lock (perf_event_mlock_kb). */
#define SCHED_RING_PAGES 64u

/* httop's own tolerance for counts that should agree (VALIDITY): silent
 * tasks that may have run less than this part of an interval leave its
 * figures exact within it (a thread's; httop --check's tolerance with
 * this source has it per thread). */
#define SCHED_SILENT_TOL 0.005

/* The plan of the scheduler source for machine m: TSC (the clock, ns),
 * REF (ns this CPU ran a task) on every thread, ANY (ns any thread of the
 * core ran one) on thread 0; scale 1; the split exact on two threads per
 * core. */
void sched_plan(struct plan *p, const struct machine *m);
/* The job's slots added to a sched plan (sched_source_open_job): JOB on
 * every thread, JOB_BOTH, JOB_ALONE, JOB_SHARED on thread 0, in ns. */
void sched_plan_job(struct plan *p);
/* Records read, wake-ups of the drain thread and records the kernel
 * lost, since the source was opened (the benchmark). Any pointer may be
 * NULL. */
void sched_source_stats(const struct source *s, uint64_t *records, uint64_t *wakeups,
    uint64_t *lost);
/* The tests' way to read two sources over one window
 * (tests/cli/bpf_window.c): from now on no drain goes past `ns`
 * (CLOCK_MONOTONIC), and the next read cuts there, waiting until the
 * clock is SCHED_CUT_LAG past it, rather than SCHED_CUT_LAG behind the
 * clock; a cut before the last is the last. Only that read. */
void sched_source_cut_at(struct source *s, uint64_t ns);
/* Where the last read cut its interval (CLOCK_MONOTONIC ns). */
uint64_t sched_source_cut(const struct source *s);

#endif
