/* switch.bpf.c: the bpf source's kernel program (bpf_source.c), built
 * with clang -target bpf into the skeleton httop carries in its binary
 * (bpftool gen skeleton): never loaded from a file.
 *
 * At every context switch (the sched_switch tracepoint, BTF-typed) it
 * brings the counts of the CPU's core up to now and sets the thread's
 * new state: busy unless the task coming in is the idle task (PID 0),
 * the job's when its cgroup is the job's or below it (a job by cgroup:
 * asked of the kernel at each switch) or its process is in job_procs (a
 * job by its processes). Nothing per switch goes to
 * user space: httop reads each core's counts once per refresh, so no
 * record can be lost, whatever the rate. The core's counts are shared by
 * its threads' CPUs: a spin lock per core (held for a few additions).
 *
 * The task's fields are read through CO-RE (preserve_access_index): the
 * offsets are this kernel's, from its BTF (/sys/kernel/btf/vmlinux), when
 * libbpf loads the program; no vmlinux.h of the build machine. */
#include <stdbool.h>

#include "source/bpf/bpf_core.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct kernfs_node {
	__u64 id;          /* a cgroup v2 directory's inode number */
} __attribute__((preserve_access_index));

struct cgroup;

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct cgroup_subsys_state *parent;   /* NULL at the root */
} __attribute__((preserve_access_index));

struct cgroup {
	struct cgroup_subsys_state self;      /* self.parent: the parent's */
	struct kernfs_node *kn;
} __attribute__((preserve_access_index));

/* The controllers' IDs: the value is this kernel's (CO-RE). */
enum cgroup_subsys_id {
	cpuset_cgrp_id = 0,
};

struct css_set {
	struct cgroup_subsys_state *subsys[1];   /* per controller */
	struct cgroup *dfl_cgrp;      /* the task's cgroup v2 */
} __attribute__((preserve_access_index));

struct sched_entity {
	__u64 sum_exec_runtime;       /* ns the task ran, all told */
	__u64 prev_sum_exec_runtime;  /* the same when it last came on (fair class) */
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	unsigned int policy;
	struct sched_entity se;
	struct task_struct *real_parent;
	struct css_set *cgroups;
} __attribute__((preserve_access_index));

/* Per CPU: BPF_SLOT(core, thread), 0 not counted (max_entries: set by
 * httop to the machine's CPU count before the load). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cpu_slot SEC(".maps");

/* Per core (max_entries: the cores). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_core);
} cores SEC(".maps");

/* The watched job's processes (tgid -> 1), filled by httop; a process
 * forked by one of them joins (sched_process_fork), one that ends leaves.
 * At most BPF_JOB_PROCS_MAX (bpf_core.h): a process that finds it full is
 * not tracked, and said (job_untracked). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPF_JOB_PROCS_MAX);
	__type(key, __u32);
	__type(value, __u8);
} job_procs SEC(".maps");

/* Set by httop before the load: a job is watched; a job by a cgroup v2
 * directory, its ID (the directory's inode number; 0: the job is
 * job_procs'). */
const volatile bool job_on = false;
const volatile __u64 job_cgid = 0;
/* job_cgid is a cgroup of the v1 cpuset hierarchy, not v2's. */
const volatile bool job_cg_cpuset = false;

/* The levels the program walks up from a task's cgroup for job_cgid: a
 * task in a cgroup this many levels or more below the job's is not the
 * job's, and httop watches a job's cgroup this deep or deeper by its
 * processes (bpf_source.c; httop(1) says both). */
#define JOB_CG_DEPTH 64

/* Is task t in the cgroup job_cgid or one below it, now? Read at each
 * switch, so a task moved in or out counts from its next switch (httop
 * visits each CPU at every refresh: at the latest from then). The walk
 * goes from the task's cgroup up its parents, by direct loads of the
 * BTF-typed pointers (no helper call a field: that made the job's part
 * of the program's run time most of it, bench/whole.py). */
static __always_inline bool
in_job_cgroup(struct task_struct *t)
{
	struct css_set *cs = t->cgroups;
	struct cgroup_subsys_state *css;
	struct cgroup *cg;
	int i;

	if (cs == NULL)
		return false;
	if (job_cg_cpuset) {
		css = cs->subsys[bpf_core_enum_value(enum cgroup_subsys_id, cpuset_cgrp_id)];
		cg = css != NULL ? css->cgroup : NULL;
	} else {
		cg = cs->dfl_cgrp;
	}
	for (i = 0; i < JOB_CG_DEPTH && cg != NULL; i++) {
		struct kernfs_node *kn = cg->kn;

		if (kn != NULL && kn->id == job_cgid)
			return true;
		css = cg->self.parent;
		cg = css != NULL ? css->cgroup : NULL;
	}
	return false;
}

/* Is the task coming in the job's? */
static __always_inline bool
is_job(struct task_struct *t)
{
	__u32 tgid;

	if (job_cgid != 0)
		return in_job_cgroup(t);
	tgid = (__u32)t->tgid;
	return bpf_map_lookup_elem(&job_procs, &tgid) != NULL;
}

/* Forks of a job's process whose child could not be put in job_procs
 * (the map full): httop reads it each refresh (the skeleton's .bss), and
 * an interval in which it moved has the job's figures absent. */
__u64 job_untracked = 0;

/* A task of another class than the fair one (real-time, deadline): its
 * run time (se.sum_exec_runtime) when it last left a CPU, kept at each
 * of its switches out (rare: few tasks are of these classes). */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} left_at SEC(".maps");

/* The fair class: SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE. */
static __always_inline bool
fair(struct task_struct *t)
{
	unsigned int pol = BPF_CORE_READ(t, policy);

	return pol == 0 || pol == 3 || pol == 5;
}

/* When task t, leaving its CPU now, came on: now less its run time in
 * this stay, the scheduler's own (brought up to now before the
 * tracepoint): for the fair class its sum less its value when it was
 * picked, for another its sum less its value when it last left a CPU
 * (left_at); 0 where it is not known (the idle task; a task of another
 * class never seen leaving). */
static __always_inline __u64
came_on(struct task_struct *t, __u64 now)
{
	__u64 sum, *was, run;

	if (t->pid == 0)
		return 0;
	sum = BPF_CORE_READ(t, se.sum_exec_runtime);
	if (fair(t)) {
		run = sum - BPF_CORE_READ(t, se.prev_sum_exec_runtime);
	} else {
		was = bpf_task_storage_get(&left_at, t, 0, 0);
		if (was == NULL || *was > sum)
			return 0;
		run = sum - *was;
	}
	return run < now ? now - run : 0;
}

/* A span an unseen switch left to recount (bpf_core_unseen): recounted
 * in a lock of its own, after the switch's, where the verifier walks its
 * loop once (in the switch's lock, once per path to it: too many). A read
 * by httop in between recounts it on its copy alike. rp_hi[th] is
 * written under the lock by this CPU alone: read before it. */
static __always_inline void
settle(struct bpf_core *c, __u32 th)
{
	if (c->rp_hi[th & (BPF_CORE_SMT - 1)] == 0)
		return;
	bpf_spin_lock(&c->lock);
	bpf_core_settle(c, th);
	bpf_spin_unlock(&c->lock);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(httop_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 cpu = bpf_get_smp_processor_id(), *slot, key, th;
	struct bpf_core *c;
	bool busy, job = false, pbusy, pjob = false, unseen;
	__u64 now, t_in = 0;

	(void)preempt;
	slot = bpf_map_lookup_elem(&cpu_slot, &cpu);
	if (slot == NULL || *slot == 0)
		return 0;
	key = (*slot - 1) >> 8;
	th = (*slot - 1) & (BPF_CORE_SMT - 1);
	c = bpf_map_lookup_elem(&cores, &key);
	if (c == NULL)
		return 0;
	busy = next->pid != 0;
	if (job_on && busy)
		job = is_job(next);
	now = bpf_ktime_get_ns();
	/* cur[th] is written by this CPU alone: read before the lock. A
	 * task leaving that is not the one seen coming on: the switch out
	 * of that one was not seen (bpf_core.h). */
	unseen = c->cur[th] != 0 && c->cur[th] != (__u32)prev->pid + 1;
	if (unseen) {
		pbusy = prev->pid != 0;
		if (job_on && pbusy)
			pjob = is_job(prev);
		t_in = came_on(prev, now);
	}
	bpf_spin_lock(&c->lock);
	if (unseen)
		bpf_core_unseen(c, th, t_in, now, pbusy, pjob);
	bpf_core_switch(c, th, now, busy, job);
	c->cur[th] = (__u32)next->pid + 1;
	c->since[th] = c->at;
	bpf_spin_unlock(&c->lock);
	if (prev->pid != 0 && !fair(prev)) {
		__u64 *was = bpf_task_storage_get(&left_at, prev, 0,
		    BPF_LOCAL_STORAGE_GET_F_CREATE);

		if (was != NULL)
			*was = BPF_CORE_READ(prev, se.sum_exec_runtime);
	}
	settle(c, th);
	return 0;
}

/* The CPU enters its idle state: when the task seen on it last is not the
 * idle task, the switch to idle was not seen (a switch out of a task the
 * kernel runs no program for): it is placed now, within the microseconds
 * between the switch and this call. */
SEC("tp_btf/cpu_idle")
int BPF_PROG(httop_idle, unsigned int state, unsigned int cpu_id)
{
	__u32 cpu = bpf_get_smp_processor_id(), *slot, key, th;
	struct bpf_core *c;
	__u64 now;

	(void)cpu_id;
	if (state == (unsigned int)-1)   /* PWR_EVENT_EXIT: leaving idle */
		return 0;
	slot = bpf_map_lookup_elem(&cpu_slot, &cpu);
	if (slot == NULL || *slot == 0)
		return 0;
	key = (*slot - 1) >> 8;
	th = (*slot - 1) & (BPF_CORE_SMT - 1);
	c = bpf_map_lookup_elem(&cores, &key);
	if (c == NULL || c->cur[th] == 0 || c->cur[th] == 1)
		return 0;
	now = bpf_ktime_get_ns();
	bpf_spin_lock(&c->lock);
	bpf_core_unseen(c, th, now, now, 0, 0);
	c->cur[th] = 1;
	c->since[th] = c->at;
	bpf_spin_unlock(&c->lock);
	settle(c, th);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(httop_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid, ctgid;
	__u8 one = 1;

	if (!job_on || job_cgid != 0)
		return 0;
	ptgid = (__u32)parent->tgid;
	ctgid = (__u32)child->tgid;
	if (ptgid != ctgid && bpf_map_lookup_elem(&job_procs, &ptgid) != NULL &&
	    bpf_map_update_elem(&job_procs, &ctgid, &one, BPF_ANY) != 0)
		__sync_fetch_and_add(&job_untracked, 1);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(httop_exit, struct task_struct *p)
{
	__u32 tgid;

	if (!job_on || job_cgid != 0 || p->pid != p->tgid)
		return 0;
	tgid = (__u32)p->tgid;
	bpf_map_delete_elem(&job_procs, &tgid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
