/* sched_merge.h: the scheduler source's arithmetic, kept apart from the
 * kernel so that it can be tested with worked values. The threads of one
 * core each report when they switch between the idle task and any other
 * task; merged in time order, the switches give each thread's busy time
 * (the REF slot) and the time at least one thread of the core was busy
 * (the ANY slot), cumulative, in nanoseconds of CLOCK_MONOTONIC. */
#ifndef HTTOP_SCHED_MERGE_H
#define HTTOP_SCHED_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/topology.h"

/* Tasks of one interval whose switch out the kernel did not record. */
#define SCHED_SILENT_MAX 8

/* Why a thread's interval is unsure: what the source says of it. */
enum sched_unsure {
	SCHED_U_UNKNOWN = 1u << 0,  /* its state was not known for some time
	                             * (before its first record; CPU opened
	                             * again) */
	SCHED_U_LOST = 1u << 1,     /* the kernel lost records (`lost` says how
	                             * many; 0 when said by a LOST record after
	                             * the cut: counted in the next interval) */
	SCHED_U_MISSED = 1u << 2,   /* a record contradicts the state: a switch
	                             * went unrecorded */
	SCHED_U_CROSSED = 1u << 4,  /* a task without records of its own, on
	                             * since before the last read, ended
	                             * unrecorded (cannot happen: a span goes
	                             * on past a cut only when the record after
	                             * the cut showed the task on, and that
	                             * record ends it; kept as a guard) */
	SCHED_U_SILENT = 1u << 5,   /* more such tasks than can be bounded */
	SCHED_U_BROKEN = 1u << 6,   /* its ring held a broken record */
};

struct sched_thread {
	bool known;        /* its state is known (a record said it) */
	bool busy;         /* a task other than idle runs on it */
	/* Busy since `since` because an out record named `task` as the next
	 * task, and no record of `task` itself has come yet: some tasks'
	 * own records never come (silent tasks, sched_merge.c), so its end
	 * may not be recorded either. */
	bool pending;
	bool crossed;      /* the pending span began before the last take */
	uint32_t task;
	uint64_t since;
	uint64_t ref_since;   /* ref counted since `since` */
	uint64_t solo_since;  /* any counted since `since` with no sibling busy */
	/* Silent tasks whose end the records missed in this interval: their
	 * time was counted as idle (sched_core_take clears them). */
	uint32_t silent[SCHED_SILENT_MAX];
	unsigned nsilent;
	uint64_t silent_ns;   /* the spans counted as idle so, in all */
	/* Spans of tasks without their own records whose end a record did
	 * say (the next task's in record named them): what they ran, seen,
	 * in this interval; a task's other run time is what may have gone
	 * unrecorded. */
	uint32_t seen_tid[SCHED_SILENT_MAX];
	uint64_t seen_ns[SCHED_SILENT_MAX];
	unsigned nseen;
	bool held;         /* the last drain's next record shows `task` on */
	/* A pending task whose own record had not come by a read's cut, nor
	 * did any record after the cut show it on: it writes none (a task
	 * that does writes its in record microseconds after the out record
	 * that names it, and the cut is well behind the clock). Its span is
	 * counted as idle from `since`, as a silent task's whose end went
	 * unrecorded, and goes on, idle, until the thread's next record,
	 * which says what was on; `task` is one of the silent tasks of every
	 * interval it reaches into (sched_core_cut; unended_at: the last
	 * cut), unless that record says the CPU was busy all along. */
	bool unended;
	uint64_t unended_at;
	/* Since unended_at, what counting the span busy would have added: ns
	 * (ref), ns with no thread of the core busy (any), and ns the job's
	 * split counted as both or alone that would have been shared; mixed:
	 * another thread of the core was unended too meanwhile. A record
	 * whose `before` is busy (the task, or one it switched to
	 * unrecorded, ran all along) adds them back (sched_core_record). */
	uint64_t unended_ns, unended_solo, unended_both, unended_alone;
	bool unended_mixed;
	/* Since the last sched_core_take: why its and its core's counts of
	 * that interval are not exact (enum sched_unsure, one bit a cause;
	 * 0 when they are). */
	unsigned unsure;
	uint64_t lost;     /* records the kernel lost, since the last take */
	uint64_t ref;      /* ns busy, cumulative */
	/* The job's figures (struct sched_job): the task on it is the job's
	 * (meaningful while busy), and the ns it ran the job's, cumulative. */
	bool job;
	uint64_t job_ns;
	/* With a job: the task on it since its last record (0: none). */
	uint32_t on_pid, on_tid;
};

/* The watched job's tasks, for the job's figures (the records carry the
 * process and thread IDs of the tasks switched; src/watch/jobtask.c
 * answers). `is` is asked once per record for the task that comes on,
 * and for the task that ran before when a thread's state was not known;
 * `fork` and `exit` (may be NULL) get perf's task records. `tick` (may
 * be NULL) is told at each read's cut, after the records up to it were
 * merged, that a new interval begins: answers that may have changed (a
 * task moved between cgroups) are to be asked again; the tasks on the
 * CPUs then are asked at once (sched_core_job_tick), the others at their
 * next record. */
struct sched_job {
	bool (*is)(void *ctx, uint32_t pid, uint32_t tid);
	void (*fork)(void *ctx, uint32_t ppid, uint32_t pid, uint32_t tid);
	void (*exit)(void *ctx, uint32_t pid, uint32_t tid);
	void *ctx;
	/* A job by cgroup: its directory (the bpf source asks the kernel
	 * whether a task is in it when the directory is cgroup v2's), else
	 * NULL. */
	const char *cgroup_dir;
	void (*tick)(void *ctx);
};

struct sched_core {
	unsigned n;        /* threads, at most TOPO_MAX_SMT */
	uint64_t at;       /* the counts hold the time up to here (ns) */
	uint64_t any;      /* ns at least one thread was busy, cumulative */
	struct sched_thread t[TOPO_MAX_SMT];
	/* The job's split of the core's time (NULL job: not counted), ns,
	 * cumulative: at least two threads run the job's tasks and no other
	 * task runs (both); one runs the job's, the others idle (alone); a
	 * thread runs the job's while a sibling runs another task (shared).
	 * The rest of the time, no task of the job is on the core (none).
	 * Threads whose state is not known count as idle (the interval is
	 * unsure then, as for the other counts). */
	const struct sched_job *job;
	uint64_t job_both, job_alone, job_shared;
};

/* n threads, all unknown, counting from t0. */
void sched_core_init(struct sched_core *c, unsigned n, uint64_t t0);
/* Count the job's figures from now on (NULL: stop; the counts stay). */
void sched_core_set_job(struct sched_core *c, const struct sched_job *job);
/* Count the time up to t with the states as they are. A time before
 * `at` (a record the kernel committed after a read that had already
 * counted past it) counts as `at`. */
void sched_core_advance(struct sched_core *c, uint64_t t);
/* Thread i switched at t from `before` (busy or idle) to `after`. The
 * first record of a thread whose state was not known says what it was
 * since `at`: that gap is counted so. With `check`, a `before` that
 * contradicts the known state (a record missed) makes the interval
 * unsure. */
void sched_core_switch(struct sched_core *c, unsigned i, uint64_t t, bool before, bool after,
    bool check);
/* One context-switch record of thread i (sched_switch_states gives its
 * states): sched_core_switch, and what the records of silent tasks imply.
 * Some tasks never have records of their own (seen on Linux 6.18 in a
 * Firecracker VM: every thread of PID 1, and CPU 1's idle task): a switch
 * between two of them is not recorded at all. When an in record says the
 * CPU was idle while a silent task was believed on it since an out record
 * named it, that task's end is unknown: its span is counted as idle (the
 * task ran some part of it, less than its run time, which the task's
 * schedstat bounds) and the task is kept in `silent` for this interval;
 * a span that began before the last take is unsure instead. */
void sched_core_record(struct sched_core *c, unsigned i, uint64_t t, bool out, uint32_t tid,
    uint32_t other);
/* The same with the tasks' process IDs (`pid` of tid, `opid` of other),
 * and the job's figures: from t on, thread i runs the job's when the
 * task coming on is (the next of an out record, the tid of an in one);
 * when i's state was not known, the gap before t is the task before's
 * (the tid of an out record, the previous of an in one). Without a job,
 * sched_core_record. */
void sched_core_record_job(struct sched_core *c, unsigned i, uint64_t t, bool out, uint32_t pid,
    uint32_t tid, uint32_t opid, uint32_t other);
/* After the job's tick, with the core counted up to the cut (sched_drain):
 * each busy thread's task is asked again whether it is the job's, its
 * answer counting from the cut. Nothing without a job. */
void sched_core_job_tick(struct sched_core *c);
/* At a read's cut-off, after sched_drain and before the counts are
 * taken: a thread still pending whose ring's next record, after the cut,
 * showed the pending task still on the CPU (a record of it, or an in
 * record whose previous task was it: `held`) stays busy, its span going
 * on into the next interval (`crossed`). One not held names a task that
 * writes no records of its own: its span is counted as idle and the task
 * is one of the interval's silent tasks (their run time bounds the
 * error), and the thread goes on `unended` until its next record: if
 * that record says the CPU was busy all along, the span since the cut is
 * counted busy after all (exact); if idle, the task is one of that
 * interval's silent tasks too. (On a quiet CPU the next record may be a
 * whole interval away: before this, a read that fell in such a span made
 * two intervals unsure.) */
void sched_core_cut(struct sched_core *c);
/* The kernel lost `n` records of thread i before t: its state is unknown
 * until its next record, and this interval unsure. */
void sched_core_lost(struct sched_core *c, unsigned i, uint64_t t, uint64_t n);
/* Thread i's state is unknown from t on (its CPU went offline, or its
 * event was opened again). */
void sched_core_forget(struct sched_core *c, unsigned i, uint64_t t);
/* After a read: clear the unsure flags and lost counts for the next
 * interval; a thread still unknown stays unsure. */
void sched_core_take(struct sched_core *c);

/* A context-switch record's states: `out` (switching out; the task that
 * was running is `tid`, the next one `other`) or in (the task coming in
 * is `tid`, the previous one `other`). The idle task's thread ID is 0.
 *
 * What the kernel writes (seen on Linux 6.18): a switch gives an out
 * record, written while the task leaving runs, then an in record, written
 * while the task coming in runs; a task that writes no records (the idle
 * task of some CPUs, every thread of PID 1 in a Firecracker VM: silent
 * tasks, sched_core_record) leaves out its own. So every record's `after`
 * is the state from its time on; an out record's `before` must agree with
 * what was known (it is checked), an in record's `before` is what the
 * thread did if its state was not known, and what ended a pending silent
 * task otherwise (sched_core_record). */
void sched_switch_states(bool out, uint32_t tid, uint32_t other, bool *before, bool *after);


/* One record of the ring, as the source asks for it: sample_id_all with
 * sample_type TID | TIME, so every record ends in {pid, tid, time}. */
enum sched_rec_kind {
	SCHED_REC_OTHER = 0,   /* another kind: only its time is used */
	SCHED_REC_SWITCH,      /* PERF_RECORD_SWITCH_CPU_WIDE */
	SCHED_REC_LOST,        /* PERF_RECORD_LOST */
	SCHED_REC_FORK,        /* PERF_RECORD_FORK (attr.task) */
	SCHED_REC_EXIT,        /* PERF_RECORD_EXIT (attr.task) */
};

struct sched_rec {
	enum sched_rec_kind kind;
	bool out;              /* a switch out (PERF_RECORD_MISC_SWITCH_OUT) */
	uint32_t tid;          /* the sample_id's thread: the task on the CPU */
	uint32_t pid;          /* the sample_id's process (tid's) */
	uint32_t other;        /* next_prev_tid: the next (out) or previous (in) */
	uint32_t other_pid;    /* next_prev_pid: other's process */
	/* FORK, EXIT: the task born or ended (the body's pid, tid) and the
	 * parent's process (ppid); sample_id's pid/tid are the parent's. */
	uint32_t task_pid, task_tid, ppid;
	uint64_t lost;         /* PERF_RECORD_LOST: how many */
	uint64_t time;         /* ns, the event's clock */
};

/* Longest record httop copies out of a ring; longer ones are skipped. */
#define SCHED_REC_MAX 256u

/* The record at `tail` of a perf ring of `dsize` bytes (a power of two)
 * at `data`, whose writer has reached `head` (tail < head, both counting
 * bytes from the start, as data_head and data_tail do): its bytes in
 * place, or copied into buf (SCHED_REC_MAX) when it wraps round the end;
 * its size (the header's) in *size. A record longer than SCHED_REC_MAX
 * gives buf unfilled and its size (the caller skips it). NULL and *size 0
 * when there is no whole header, or its size is below the header's or
 * beyond head: a broken ring. */
const unsigned char *sched_ring_at(const unsigned char *data, size_t dsize, uint64_t head,
    uint64_t tail, unsigned char *buf, size_t *size);

/* One thread's ring for sched_drain: NULL data for a CPU not read. */
struct sched_ring {
	const unsigned char *data;
	size_t dsize;              /* a power of two */
	uint64_t head;             /* the writer's position (data_head) */
	uint64_t tail;             /* the reader's: moved past what was used */
};

/* Every record of the core's rings (r[0..c->n-1]) stamped at or before
 * `cut`, applied in time order across the rings (each ring is in time
 * order; the earliest head record of all goes first), then the counts
 * advanced to `cut`. A ring's records after `cut` stay (tail stops at
 * the first of them); a LOST record among those makes this interval
 * unsure too (its losses may be before `cut`). Records the kernel lost
 * are added to *lost. A broken ring is dropped whole and its thread
 * forgotten. Returns the records used. */
uint64_t sched_drain(struct sched_core *c, struct sched_ring *r, uint64_t cut, uint64_t *lost);

/* The bytes of one record, `size` long (its header's size). -1 when the
 * record is too short for what its type carries. */
int sched_rec_parse(const unsigned char *rec, size_t size, struct sched_rec *r);

#endif
