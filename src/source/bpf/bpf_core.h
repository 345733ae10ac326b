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
/* The core's state changes kept (struct bpf_core's log): a power of 2. */
#define BPF_CORE_LOG 256

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
	__u64 recounted; /* spans recounted (bpf_core_settle) */
	/* The core's last BPF_CORE_LOG states (busy, job), each from a
	 * time on: change q (of the log_n so far, from 0; slot q &
	 * (BPF_CORE_LOG - 1)) set the states busy | job << 4 (log_m) at
	 * log_t, up to the next one's time (the last: the states now). A
	 * change before log_floor is not trusted: an unseen switch was
	 * placed in its span after it had been written. */
	__u32 log_n;
	__u32 log_floor;
	__u64 log_t[BPF_CORE_LOG];
	__u8 log_m[BPF_CORE_LOG];
	/* Thread i's span to recount (bpf_core_unseen, bpf_core_settle):
	 * rp_lo to rp_hi (0: none) was counted with its state as it was
	 * (bit 0 busy, bit 1 the job's, of rp_bits) while it was as bits 2
	 * and 3 say (bit 4: the moment is exact), from the changes before
	 * rp_n, none before rp_floor. */
	__u64 rp_lo[BPF_CORE_SMT];
	__u64 rp_hi[BPF_CORE_SMT];
	__u32 rp_n[BPF_CORE_SMT];
	__u32 rp_floor[BPF_CORE_SMT];
	__u8 rp_bits[BPF_CORE_SMT];
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

/* The states change to busy, job at `at`: set, and logged. */
BPF_CORE_INLINE void
bpf_core_log(struct bpf_core *c, __u32 busy, __u32 job)
{
	__u32 k = c->log_n & (BPF_CORE_LOG - 1);

	c->busy = busy;
	c->job = job;
	c->log_t[k] = c->at;
	c->log_m[k] = (__u8)((busy & 15u) | (job & 15u) << 4);
	c->log_n++;
}

/* A core of nthreads threads counted from t0, every thread idle and its
 * state not known (httop, before the program counts). */
BPF_CORE_INLINE void
bpf_core_init(struct bpf_core *c, unsigned nthreads, __u64 t0)
{
	__builtin_memset(c, 0, sizeof *c);
	c->nthreads = nthreads;
	c->at = t0;
	bpf_core_log(c, 0, 0);
}

/* The counts whose share of dt depends on more than one thread's state
 * (any, all, the job's split) under the states b, j: added to a[0..4]
 * (any, all, both, alone, shared), as bpf_core_advance and bpf_core_job
 * count them. */
BPF_CORE_INLINE void
bpf_core_tally(const struct bpf_core *c, __u64 *a, __u32 b, __u32 j, __u64 dt)
{
	unsigned nj = bpf_core_bits(j);

	if (b == 0)
		return;
	a[0] += dt;
	if (c->nthreads > 0 && c->nthreads <= BPF_CORE_SMT && b == (1u << c->nthreads) - 1u)
		a[1] += dt;
	if (nj == 0)
		return;
	if (b != j)
		a[4] += dt;
	else if (nj >= 2)
		a[2] += dt;
	else
		a[3] += dt;
}

/* Thread th's pending span (rp_*, set by bpf_core_unseen) recounted
 * with its state set right, the siblings' states taken from the log: its
 * counts are then exact; the part the log does not reach back to stays
 * counted with the state as it was, and is added to unk[th] where the
 * moment was known (else the whole span is there already). Run by the
 * program in a lock of its own (its loop, walked by the verifier once,
 * not once per path through the switch), and by httop on its copy when
 * the program had not yet. */
BPF_CORE_INLINE void
bpf_core_settle(struct bpf_core *c, unsigned th)
{
	unsigned i = th & (BPF_CORE_SMT - 1);
	__u32 n, q, k, m, b, j, bit = 1u << i, r = c->rp_bits[i];
	__u32 ob = r & 1u ? bit : 0, oj = r & 2u ? bit : 0;
	__u32 nb = r & 4u ? bit : 0, nj = r & 8u ? bit : 0;
	__u64 was[5] = { 0, 0, 0, 0, 0 }, now[5] = { 0, 0, 0, 0, 0 };
	__u64 lo = c->rp_lo[i], end = c->rp_hi[i], tk, s, mine = 0;

	if (end == 0)
		return;
	c->rp_hi[i] = 0;
	c->recounted++;
#ifdef __clang__
#pragma clang loop unroll(disable)
#endif
	for (n = 0; n < BPF_CORE_LOG; n++) {
		q = c->rp_n[i] - 1u - n;
		if ((__s32)(q - c->rp_floor[i]) < 0 || c->log_n - q > BPF_CORE_LOG)
			break;
		k = q & (BPF_CORE_LOG - 1);
		tk = c->log_t[k];
		s = tk > lo ? tk : lo;
		if (end > s) {
			m = c->log_m[k];
			b = m & 15u & ~bit;
			j = m >> 4 & ~bit;
			bpf_core_tally(c, was, b | ob, j | oj, end - s);
			bpf_core_tally(c, now, b | nb, j | nj, end - s);
			mine += end - s;
			end = s;
		}
		if (tk <= lo)
			break;
	}
	c->any = c->any - was[0] + now[0];
	c->all = c->all - was[1] + now[1];
	c->job_both = c->job_both - was[2] + now[2];
	c->job_alone = c->job_alone - was[3] + now[3];
	c->job_shared = c->job_shared - was[4] + now[4];
	c->ref[i] = c->ref[i] - (ob ? mine : 0) + (nb ? mine : 0);
	c->job_ns[i] = c->job_ns[i] - (oj ? mine : 0) + (nj ? mine : 0);
	if (r & 16u)
		c->unk[i] += end - lo;
}

/* Thread th switched at t to a task: busy (not idle), the job's. */
BPF_CORE_INLINE void
bpf_core_switch(struct bpf_core *c, unsigned th, __u64 t, int busy, int job)
{
	__u32 bit = 1u << (th & (BPF_CORE_SMT - 1));

	__u32 nb = busy ? c->busy | bit : c->busy & ~bit;
	__u32 nj = busy && job ? c->job | bit : c->job & ~bit;

	bpf_core_advance(c, t);
	if (nb != c->busy || nj != c->job)
		bpf_core_log(c, nb, nj);
	c->known |= bit;
	c->switches++;
}

/* Thread th's switch out of the task seen coming on at since[th] was not
 * seen; the task found on it now (busy, job) came on at t_in: known from
 * its own run time (exact), or, where it is not (t_in 0), at since[th]:
 * its whole span is then counted as the task found, and added to unk[th]
 * where the two tasks' states (busy, the job's) differ. A t_in before
 * c->at (a sibling's switch counted past it already, with this thread's
 * state as it was) leaves that span to recount (rp_*: bpf_core_settle,
 * exact from the log); the log before this placement is not trusted from
 * then on. Where the states are the same nothing was counted wrong. */
BPF_CORE_INLINE void
bpf_core_unseen(struct bpf_core *c, unsigned th, __u64 t_in, __u64 now, int busy, int job)
{
	unsigned i = th & (BPF_CORE_SMT - 1);
	__u32 bit = 1u << i;
	__u64 from = c->since[i];
	__u32 nb = busy ? c->busy | bit : c->busy & ~bit;
	__u32 nj = busy && job ? c->job | bit : c->job & ~bit;
	int same = nb == c->busy && nj == c->job;
	__u8 known = 16;

	if (same) {
		c->unseen++;
		return;
	}
	if (t_in == 0 || t_in < from) {
		c->unk[i] += now > from ? now - from : 0;
		t_in = from;
		known = 0;
	} else if (t_in > now) {
		t_in = now;
	}
	if (t_in < c->at && c->rp_hi[i] == 0) {
		c->rp_lo[i] = t_in;
		c->rp_hi[i] = now < c->at ? now : c->at;
		c->rp_n[i] = c->log_n;
		c->rp_floor[i] = c->log_floor;
		c->rp_bits[i] = (__u8)((c->busy & bit ? 1u : 0) | (c->job & bit ? 2u : 0) |
		    (nb & bit ? 4u : 0) | (nj & bit ? 8u : 0) | known);
		c->log_floor = c->log_n;
	} else if (t_in < c->at) {
		/* One still to recount (never, in the program): this one
		 * stays counted as it was. */
		if (known)
			c->unk[i] += (now < c->at ? now : c->at) - t_in;
		c->log_floor = c->log_n;
	}
	bpf_core_advance(c, t_in);
	bpf_core_log(c, nb, nj);
	c->unseen++;
}

#endif
