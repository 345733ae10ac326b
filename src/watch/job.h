/* job.h: the CPUs a job may run on, for --pid, --cgroup, --job and a
 * command httop runs: the union of the tasks' affinity (that of every
 * thread of each PID, and of their descendants when followed) or the
 * cgroup's cpuset (v2 or v1), re-read every refresh. */
#ifndef HTTOP_JOB_H
#define HTTOP_JOB_H

#include <stddef.h>
#include <sys/types.h>

#include "sample/jobident.h"
#include "util/cpulist.h"
#include "watch/jobtask.h"
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
/* Watch the descendants of the PIDs too: a process one of them starts is
 * watched from the update that finds it, and stays watched when its
 * parent ends (httop -- COMMAND, a Slurm job's processes). The end of
 * each is then not noted: a job's processes come and go. */
void job_watch_follow(struct job_watch *w);
/* The watch is a batch job's (--job): the label becomes "ID (USER, NAME,
 * ELAPSED)", the time counted from `started` (clock_mono() seconds, may
 * be in the past), and when nothing is left the note says "job ID has
 * ended" rather than which PID or cgroup went. User and name are escaped
 * for the terminal. */
void job_watch_set_job(struct job_watch *w, const char *id, const char *user, const char *name,
    double started);
/* The watch is of a command httop started (httop -- COMMAND): the job's
 * kind is "command", its name `name` (its argv[0] as given, raw), its id
 * and pid the command's PID as for --pid. */
void job_watch_set_command(struct job_watch *w, const char *name);
/* "pid 1234, 5678", the cgroup path, or the job (job_watch_set_job; its
 * elapsed time as of the last update). */
const char *job_watch_label(const struct job_watch *w);

/* What names the watched job (sample/jobident.h). */
void job_watch_ident(const struct job_watch *w, struct job_ident *id);
/* The job's tasks for the scheduler's record (watch/jobtask.h): by the
 * cgroup's path as /proc/PID/cgroup prints it (its directory less the
 * mount point) for --cgroup and --job, else by the ancestry of the PIDs
 * given (--pid, a command). NULL when it cannot be said (a cgroup outside
 * the mount point, or the root cgroup). */
struct job_tasks *job_watch_tasks(const struct job_watch *w, const char *proc_root);
/* The job's cgroup directory (--cgroup, --job), or NULL (PIDs). */
const char *job_watch_cgroup_dir(const struct job_watch *w);
void job_watch_free(struct job_watch *w);

#endif
