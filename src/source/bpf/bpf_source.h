/* bpf_source.h: the bpf source (--source bpf, bpf_source.c): the
 * scheduler source's figures counted in the kernel by an eBPF program at
 * every context switch (switch.bpf.c), read once per refresh. Built only
 * where configure found clang, bpftool and libbpf (HAVE_BPF); elsewhere
 * the open says why it is missing. */
#ifndef HTTOP_BPF_SOURCE_H
#define HTTOP_BPF_SOURCE_H

#include <stdint.h>

#include "machine/machine.h"
#include "plan/plan.h"
#include "source/source.h"

struct sched_job;   /* sched_merge.h */

/* The sched plan (sched_plan()) in *plan; -1 with the cause and the fix
 * (CAP_BPF and CAP_PERFMON, a kernel with BTF, a build without it). */
struct source *bpf_source_open(struct machine *m, struct plan *plan, struct errmsg *e);
/* The same watching a job (job->is asked once per process found in
 * /proc at the start and at every read, job->exit told of one gone since
 * the last; the program follows their forks; its context must outlive
 * the source): the plan gains the job's slots
 * (sched_plan_job). */
struct source *bpf_source_open_job(struct machine *m, struct plan *plan,
    const struct sched_job *job, struct errmsg *e);
/* Where the last read cut its interval (CLOCK_MONOTONIC ns; before the
 * first read, the program's start; 0 without the bpf source): with
 * sched_source_cut_at(), the tests read the sched source over the same
 * window (tests/cli/bpf_window.c). */
uint64_t bpf_source_cut(const struct source *s);

#endif
