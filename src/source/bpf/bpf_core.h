/* bpf_core.h: what the bpf source's kernel program (switch.bpf.c) and
 * httop (bpf_source.c) share: one core's counts, which the program adds
 * to at every context switch on any of its threads, and the arithmetic
 * both sides use to bring them up to a time (the program at each switch,
 * httop at each read, to the read's cut). Written for both compilers:
 * clang -target bpf and the C compiler; no libc. */
#ifndef HTTOP_BPF_CORE_H
#define HTTOP_BPF_CORE_H

#include <linux/bpf.h>
#include <linux/types.h>

/* Threads of a core counted (more are not read: the open refuses). */
#define BPF_CORE_SMT 4
/* The watched job's processes the program tracks (its map job_procs):
 * with more, the job's figures are absent (bpf_source.c). */
#define BPF_JOB_PROCS_MAX 16384
/* A map's CPU slot: 0 not counted, else 1 + core << 8 | thread. */
#define BPF_SLOT(core, th) (1u + ((__u32)(core) << 8 | (__u32)(th)))

#ifndef BPF_CORE_INLINE
#define BPF_CORE_INLINE static inline __attribute__((always_inline))
#endif

/* One core. Every count is cumulative nanoseconds of CLOCK_MONOTONIC
 * (the kernel's ktime, bpf_ktime_get_ns) up to `at`. */
struct bpf_core {
	struct bpf_spin_lock lock;   /* the program's; httop copies under it */
	__u32 busy;      /* bit i: thread i runs a task other than idle */
	__u32 job;       /* bit i: thread i runs a task of the watched job */
	__u32 known;     /* bit i: a switch on thread i has said its state */
	__u32 nthreads;  /* set by httop before the program runs */
	__u64 at;        /* the counts hold the time up to here */
	__u64 any;       /* at least one thread busy */
	__u64 all;       /* every thread busy (on two threads: both) */
	__u64 ref[BPF_CORE_SMT];     /* thread i busy */
	__u64 job_ns[BPF_CORE_SMT];  /* thread i runs the job's */
	/* The job's split of the core (sched_merge.h's struct sched_core):
	 * two or more threads run the job's and no other task runs (both);
	 * one runs the job's and the others idle (alone); a thread runs the
	 * job's while another runs another task (shared). */
	__u64 job_both, job_alone, job_shared;
	__u64 switches;  /* switches counted on the core's threads */
	/* Switches the program did not see (the kernel runs no program at a
	 * switch out of some tasks: on Linux 6.18 in a Firecracker VM every
	 * thread of PID 1, the VM's agent, as the scheduler source finds no
	 * record of theirs): 1 + the PID of the task last seen coming on
	 * thread i (0: none yet), and when. A switch whose task leaving is
	 * not that one, or the CPU found idling when that one is not the
	 * idle task, says one went unseen (bpf_core_unseen). */
	__u32 cur[BPF_CORE_SMT];
	__u64 since[BPF_CORE_SMT];
	/* ns of thread i counted as the task found on it after an unseen
	 * switch whose moment is not known: at most this much of its counts
	 * may be another task's (httop's read judges it). */
	__u64 unk[BPF_CORE_SMT];
	__u64 unseen;    /* unseen switches placed */
};

BPF_CORE_INLINE unsigned
bpf_core_bits(__u32 m)
{
	unsigned n = 0, i;

	for (i = 0; i < BPF_CORE_SMT; i++)
		n += (m >> i) & 1u;
	return n;
}

/* The job's share of dt under the states busy and job. */
BPF_CORE_INLINE void
bpf_core_job(struct bpf_core *c, __u64 dt)
{
	unsigned nj = bpf_core_bits(c->job);

	if (nj == 0)
		return;
	if (c->busy != c->job)
		c->job_shared += dt;
	else if (nj >= 2)
		c->job_both += dt;
	else
		c->job_alone += dt;
}

/* Count the time from c->at up to t with the states as they are; a t
 * before c->at (a switch on a sibling took the lock first with a later
 * clock reading) counts nothing. */
BPF_CORE_INLINE void
bpf_core_advance(struct bpf_core *c, __u64 t)
{
	__u64 dt;
	unsigned i;

	if (t <= c->at)
		return;
	dt = t - c->at;
	c->at = t;
	if (c->busy == 0)
		return;
	c->any += dt;
	if (c->nthreads > 0 && c->nthreads <= BPF_CORE_SMT &&
	    c->busy == (1u << c->nthreads) - 1u)
		c->all += dt;
	for (i = 0; i < BPF_CORE_SMT; i++) {
		if (c->busy & (1u << i))
			c->ref[i] += dt;
		if (c->job & (1u << i))
			c->job_ns[i] += dt;
	}
	bpf_core_job(c, dt);
}

/* Thread th switched at t to a task: busy (not idle), the job's. */
BPF_CORE_INLINE void
bpf_core_switch(struct bpf_core *c, unsigned th, __u64 t, int busy, int job)
{
	__u32 bit = 1u << (th & (BPF_CORE_SMT - 1));

	bpf_core_advance(c, t);
	c->busy = busy ? c->busy | bit : c->busy & ~bit;
	c->job = busy && job ? c->job | bit : c->job & ~bit;
	c->known |= bit;
	c->switches++;
}

/* Thread th's switch out of the task seen coming on at since[th] was not
 * seen; the task found on it now (busy, job) came on at t_in: known from
 * its own run time (exact), or, where it is not (t_in 0), at since[th]:
 * its whole span is then counted as the task found. The core's counts up
 * to t_in keep the state as it was; a t_in before c->at (a sibling's
 * switch counted past it already) counts from c->at. Where the two tasks'
 * states differ (busy, the job's), the span whose state may be wrong (all
 * of it when t_in is not known, c->at - t_in when counted past) is added
 * to unk[th]; where they are the same nothing was counted wrong. */
BPF_CORE_INLINE void
bpf_core_unseen(struct bpf_core *c, unsigned th, __u64 t_in, __u64 now, int busy, int job)
{
	unsigned i = th & (BPF_CORE_SMT - 1);
	__u32 bit = 1u << i;
	__u64 from = c->since[i];
	__u32 nb = busy ? c->busy | bit : c->busy & ~bit;
	__u32 nj = busy && job ? c->job | bit : c->job & ~bit;
	int same = nb == c->busy && nj == c->job;

	if (t_in == 0 || t_in < from) {
		if (!same)
			c->unk[i] += now > from ? now - from : 0;
		t_in = from;
	} else if (t_in > now) {
		t_in = now;
	}
	if (t_in < c->at && !same)
		c->unk[i] += (now < c->at ? now : c->at) - t_in;
	bpf_core_advance(c, t_in);
	c->busy = nb;
	c->job = nj;
	c->unseen++;
}

#endif
