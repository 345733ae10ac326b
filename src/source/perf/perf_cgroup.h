/* perf_cgroup.h: counts of one cgroup's tasks alone, per CPU, from perf's
 * cgroup events (perf_event_open(2) with PERF_FLAG_PID_CGROUP: the event
 * counts only while a task of the cgroup runs on its CPU). A watched job
 * with a cgroup gets its own instructions, cycles and reference cycles
 * from them where the kernel and the PMU allow it (the perf source), and
 * its own CPU time from the software task clock (a cross-check that needs
 * no PMU). One group per CPU, read as one. */
#ifndef HTTOP_PERF_CGROUP_H
#define HTTOP_PERF_CGROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "source/perf/perf_sys.h"
#include "util/cpulist.h"
#include "util/errmsg.h"

enum perf_cg_event {
	PERF_CG_INST = 0,      /* instructions retired (hardware) */
	PERF_CG_CYCLES,        /* core cycles (hardware) */
	PERF_CG_REF,           /* reference cycles (hardware) */
	PERF_CG_TASK_CLOCK,    /* ns a task of the cgroup ran (software) */
	PERF_CG_NEVENTS
};

#define PERF_CG_MAX 4

struct perf_cgroup;

/* Open events[0..n) (n <= PERF_CG_MAX; events[0] leads) on every CPU in
 * `cpus` for the cgroup whose directory is `dir` (e.g.
 * /sys/fs/cgroup/system.slice/job_42). `sys` stays the caller's. NULL
 * with the reason in *e: "cgroup events refused: ENOENT's text (CPU 0,
 * instructions)" where the kernel refuses one (a virtual machine has no
 * hardware events), or the directory cannot be opened. */
struct perf_cgroup *perf_cgroup_open(struct perf_sys *sys, const char *dir,
    const struct cpulist *cpus, const enum perf_cg_event *events, unsigned n,
    struct errmsg *e);
/* The counts since the open, summed over the CPUs, each scaled up by
 * enabled / running where the PMU was shared (*scaled true then): sum[i]
 * for events[i]. 0, or -1 with the reason (a read failed). */
int perf_cgroup_read(struct perf_cgroup *pc, uint64_t *sum, bool *scaled, struct errmsg *e);
void perf_cgroup_close(struct perf_cgroup *pc);
/* The event's name for messages ("instructions"); untranslated. */
const char *perf_cg_event_name(enum perf_cg_event ev);

#endif
