/* sched_tasks.h: the scheduler source's reads of tasks in /proc (or the
 * tests' tree, `proc`): run time, name, process. Nothing here keeps a
 * file open. */
#ifndef HTTOP_SCHED_TASKS_H
#define HTTOP_SCHED_TASKS_H

#include <stddef.h>
#include <stdint.h>

/* A task's run time (ns, all CPUs) when httop last read it. */
struct task_rt {
	uint32_t tid;
	uint64_t rt;
};

/* Every task's run time when last read, sorted by tid. Zeroed: empty;
 * free(t->rt) when done. */
struct task_rts {
	struct task_rt *rt;
	size_t nrt, caprt;
};

/* /proc/TID/schedstat's first field (the kernel's sum_exec_runtime, ns),
 * or -1. */
int64_t sched_task_runtime(const char *proc, uint32_t tid);
/* Every task's run time now: the base a silent task's is measured from. */
void sched_rt_scan(struct task_rts *t, const char *proc);
/* How long silent task tid may have run since httop last read it (ns),
 * and the reading kept for next time; -1 if it cannot be read. A task
 * not read before (started since) is measured from its start. */
int64_t sched_rt_since(struct task_rts *t, const char *proc, uint32_t tid);
/* The task's name (/proc/TID/comm), escaped for a terminal, or "?". */
void sched_task_comm(const char *proc, uint32_t tid, char *buf, size_t len);
/* The process a thread belongs to (Tgid of /proc/TID/status), 0 when not
 * known: `ps -p` finds the process, not a thread's id. */
uint32_t sched_task_tgid(const char *proc, uint32_t tid);

#endif
