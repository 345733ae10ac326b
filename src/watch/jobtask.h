/* jobtask.h: which tasks are a watched job's, for the scheduler's record
 * (sched_merge.c's job attribution). A cache, task ID -> the job's or not,
 * filled once per task when it first appears in a record:
 * - by cgroup (--cgroup, --job): the task's process is the job's when a
 *   line of /proc/PID/cgroup names the job's cgroup or one below it;
 * - by ancestry (--pid, -- COMMAND): the process is one of the roots or
 *   its parent (/proc/PID/stat) is the job's, resolved up the tree, each
 *   process visited cached too.
 * A thread's answer is its process's (the records carry both IDs). By
 * ancestry /proc is read at most once per new process, never per switch.
 * By cgroup a process may be moved in or out at any time (Slurm's
 * slurmstepd and systemd fork, then move the child): each answer carries
 * the refresh generation it was read in (job_tasks_tick), and one of an
 * earlier generation is read again the first time its task is asked in
 * the new one: at most one read per process per interval, never per
 * switch. Forks and
 * exits the caller learns (perf's task records) are applied exactly: a
 * child of a known parent is answered without /proc, and an ended task
 * leaves the cache (its ID may be reused). Not thread-safe: one caller
 * (the scheduler source's drain) at a time. */
#ifndef HTTOP_JOBTASK_H
#define HTTOP_JOBTASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct job_tasks;
struct sched_job;  /* source/sched/sched_merge.h */

/* `proc_root` NULL: "/proc". `cgroup` non-NULL: by cgroup, the path as
 * /proc/PID/cgroup prints it ("/system.slice/job_7"; "/" is refused:
 * every task would be the job's); else by the ancestry of roots[0..n). */
struct job_tasks *job_tasks_new(const char *proc_root, const pid_t *roots, size_t nroots,
    const char *cgroup);
/* Is task tid of process pid the job's? The idle task (0) never is. */
bool job_tasks_is(struct job_tasks *jt, uint32_t pid, uint32_t tid);
/* Task (pid, tid) was forked by process ppid: it is the job's exactly
 * when ppid is (answered from the cache; unknown parents are left to the
 * first lookup). */
void job_tasks_fork(struct job_tasks *jt, uint32_t ppid, uint32_t pid, uint32_t tid);
/* Task (pid, tid) ended: it leaves the cache (and its process with it
 * when tid is the process's main thread). */
void job_tasks_exit(struct job_tasks *jt, uint32_t pid, uint32_t tid);

/* A new refresh interval begins: by cgroup, every answer is read again
 * when next asked (by ancestry, nothing changes). */
void job_tasks_tick(struct job_tasks *jt);

struct job_tasks_stats {
	uint64_t lookups;       /* job_tasks_is calls */
	uint64_t proc_reads;    /* files of /proc read */
	uint64_t unresolved;    /* processes gone before they could be read:
	                         * answered "not the job's" */
	uint64_t forks;         /* children answered from a fork record */
	uint64_t rereads;       /* by cgroup: processes read again in a new
	                         * interval (counted in proc_reads too) */
	size_t entries;         /* tasks in the cache */
};
void job_tasks_stats(const struct job_tasks *jt, struct job_tasks_stats *st);
/* The scheduler's record asks jt: j's is, fork, exit and tick become
 * job_tasks_is, _fork, _exit and _tick over jt (its ctx); j's cgroup_dir
 * is left as it is. */
void job_tasks_sched_job(struct job_tasks *jt, struct sched_job *j);
void job_tasks_free(struct job_tasks *jt);

#endif
