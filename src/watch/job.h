/* job.h: the CPUs a job may run on, for --pid and --cgroup: the union of
 * the tasks' affinity (sched_getaffinity of every thread of each PID) or
 * the cgroup's cpuset (v2 or v1), re-read every refresh. */
#ifndef HTTOP_JOB_H
#define HTTOP_JOB_H

#include <stddef.h>
#include <sys/types.h>

#include "util/cpulist.h"
#include "util/errmsg.h"

struct job_watch;

/* `proc_root` defaults to "/proc" (tests point it elsewhere). `cgroup` is
 * a cgroup v2 directory or a v1 cpuset one, absolute, or relative (or
 * absolute as /proc/PID/cgroup prints it) to /sys/fs/cgroup, its
 * "unified" v2 hierarchy on a hybrid host, or its v1 cpuset hierarchy.
 * A PID that does not exist, or a cgroup that is not found or has no
 * cpuset: NULL with a message naming what was looked for. */
struct job_watch *job_watch_new(const pid_t *pids, size_t npids, const char *cgroup,
    const char *proc_root, struct errmsg *e);
/* The same with the cgroup mount point given (NULL: /sys/fs/cgroup), for
 * tests over fake trees of each layout. */
struct job_watch *job_watch_new_at(const pid_t *pids, size_t npids, const char *cgroup,
    const char *proc_root, const char *cgroup_root, struct errmsg *e);
/* Re-read. Fills `cpus` (sized for max_cpu); `note` says what changed
 * ("pid 5678 has ended"). Returns the number of live tasks/cgroups still
 * watched (0: nothing left, the caller says so and shows all cores). */
int job_watch_update(struct job_watch *w, unsigned max_cpu, struct cpulist *cpus, char *note,
    size_t notelen);
/* "pid 1234, 5678" or the cgroup path. */
const char *job_watch_label(const struct job_watch *w);
void job_watch_free(struct job_watch *w);

#endif
