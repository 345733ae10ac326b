/* source.h: one interface for every way httop gets counter values: msr,
 * msr-safe (the msr engine over its msr_io backends), perf_event, the
 * scheduler's context switches (sched; bpf: the same counted in the
 * kernel), /proc/stat's idle accounting
 * (procstat), the simulator (sim: the msr engine over the vpmu) and the
 * replay of a trace. Metrics and outputs never know which one is behind
 * it; what differs between them is said by the capability fields and the
 * optional operations, never by comparing names. */
#ifndef HTTOP_SOURCE_H
#define HTTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/machine.h"
#include "plan/plan.h"
#include "sample/jobident.h"
#include "sample/sample.h"
#include "util/cpulist.h"
#include "util/errmsg.h"

struct source;

/* A register of the plan that no longer holds what httop wrote there. */
struct source_diff {
	unsigned cpu;
	uint32_t msr;
	uint64_t wrote;            /* httop's last value */
	uint64_t now;              /* what the register holds now */
};

struct source_ops {
	/* Check the PMU is free (unless force), save every register the plan
	 * writes (first time only), then write the plan. May be called again
	 * with another plan (calibration, then the main plan). NULL: nothing
	 * to program (replay). */
	int (*program)(struct source *s, const struct plan *p, bool force, struct errmsg *e);
	/* One refresh: every slot of every selected CPU, one read each, a
	 * core's threads back to back. Returns 0, 1 at end of data, -1 error. */
	int (*read)(struct source *s, struct sample *out, struct errmsg *e);
	/* Virtual-clock sources only (sim): let `seconds` pass. NULL otherwise. */
	void (*advance)(struct source *s, double seconds);
	/* Put back every register saved by program. Idempotent. A register
	 * whose bits httop owns no longer hold what httop wrote belongs to
	 * another program now: it is left as it is and named in
	 * s->restore_left. Elsewhere only httop's bits are put back. */
	int (*restore)(struct source *s, struct errmsg *e);
	/* Async-signal-safe restore for fatal signals: only pwrite() on already
	 * open descriptors and precomputed values. NULL if nothing to restore. */
	void (*emergency_restore)(struct source *s);
	void (*close)(struct source *s);
	/* Read back, on the CPUs in `cpus` that are programmed, every register
	 * the plan wrote, and list in d[] (at most `max`) those whose bits
	 * httop owns no longer hold what httop wrote: another program changed
	 * them. With `reclaim`, write httop's bits back into each of those
	 * (the other bits kept), as program() did. Only asked for when the
	 * counts look impossible, never per refresh. Returns how many differ
	 * (may exceed max), or -1 with a message if a write failed. NULL:
	 * the source has no registers to read back (replay). */
	int (*check)(struct source *s, const struct cpulist *cpus, bool reclaim,
	    struct source_diff *d, unsigned max, struct errmsg *e);
	/* Read `msr`, one of the plan's control registers (plan.controls),
	 * once on each CPU of `cpus` that is programmed: val[cpu], got[cpu]
	 * true where the read worked (both max_cpu long). Nothing is
	 * written. Only asked for when a counter stopped, never per refresh.
	 * Returns how many CPUs were read, or -1 with a message when `msr` is
	 * not a control register. NULL: the source has no registers (replay,
	 * perf). */
	int (*read_control)(struct source *s, const struct cpulist *cpus, uint32_t msr,
	    uint64_t *val, bool *got, struct errmsg *e);
	/* What the source did so far, "key=value ..." for the benchmarks
	 * (said with HTTOP_PHASE_TIMES=1 at exit): the scheduler source's
	 * records, drains and lost records. NULL: nothing to say. */
	void (*stats)(const struct source *s, char *buf, size_t len);
};

/* Where a source that can move in its data (a replay) stands. */
struct source_pos {
	uint64_t pos;              /* samples read since the start: 1 = the first */
	uint64_t total;            /* complete samples in the data, if total_known */
	bool total_known;          /* the scan has been through the data */
	double t_first, t_last;    /* recorded times of the first and last sample */
	bool at_end;               /* the sample last read is the last one */
};

/* Optional operations of a source whose data is recorded (a replay); the
 * live view's replay controls use them. NULL in a live source. */
struct source_seek_ops {
	/* The recorded time of the sample the next read returns, read ahead
	 * (the read then hands it out). 0, 1 at the end, -1 on bad data (the
	 * read returns the same). */
	int (*peek_time)(struct source *s, double *t, struct errmsg *e);
	/* Count the samples, at most `budget` of them per call (0: to the
	 * end), while nothing else is to be done. 1 once the total is known,
	 * 0 if there is more, -1 on bad data. */
	int (*scan)(struct source *s, unsigned budget, struct errmsg *e);
	/* The next read is the first sample again; a failure leaves the
	 * source as it was. */
	int (*rewind)(struct source *s, struct errmsg *e);
	/* The next two reads are the last two complete samples, then the end. */
	int (*seek_end)(struct source *s, struct errmsg *e);
	void (*pos)(const struct source *s, struct source_pos *p);
};

struct source {
	const struct source_ops *ops;
	const struct source_seek_ops *seek;  /* NULL: the source cannot move */
	void *priv;
	const char *name;          /* "msr", "sim", "replay" */
	bool virtual_clock;        /* time passes only by source_advance (sim, replay) */
	bool has_truth;            /* samples carry the simulator's ground truth */
	bool needs_rawio;          /* reads MSR devices: keeps CAP_SYS_RAWIO (hotplug) */
	/* Opens a CPU's perf event again when it comes back online (sched):
	 * run by root, keeps CAP_PERFMON, with which it opened them first. */
	bool needs_perfmon;
	bool recorded;             /* the data was recorded earlier: replay pace, no calibration */
	/* Follows this machine's CPUs by number whatever machine
	 * description it was given (sched: a --topology only declares
	 * which of them are siblings), so --check loads them itself. */
	bool own_cpus;
	/* Its counters are perf's (perf): a watched job's cgroup events
	 * (perf_cgroup.h) count beside them on the same PMU. The msr
	 * engine's are not: it programs the PMU itself. */
	bool cgroup_events;
	/* Seconds a reading's end lies behind the moment it is read (sched:
	 * its cut behind the clock); --align reads that much later, so that
	 * the readings' ends fall on the grid. */
	double cut_lag;
	const struct machine *m;   /* the machine as this source sees it: read-only */
	const struct plan *plan;   /* the plan last programmed (or recorded) */
	struct cpulist selected;   /* CPUs read; whole cores (empty: all) */
	char detail[256];          /* e.g. the msr path template, trace name */
	/* The registers the last restore left to another program that had
	 * taken them over ("PERFEVTSEL0 on CPUs 0-35"); "" if none. */
	char restore_left[256];
	/* Why --force means nothing for this source (untranslated, for _()),
	 * or NULL where it does: only sources that program registers take a
	 * busy PMU over. */
	const char *force_moot;
	/* What the data recorded just before the sample last read ("offline
	 * cpu 5", "reprogrammed: ..."): never NULL, "" if nothing. */
	char events[512];
	/* The job's own figures of the interval ending at the sample last
	 * read miss processes of the job the source could not follow (the
	 * bpf source's map of them full): the run makes them absent. */
	bool job_untracked;
	/* A replay of a watched job's recording: what named the job (its
	 * samples carry its CPUs); NULL for any other data. */
	const struct job_ident *recorded_job;
	/* ... and the job ended before the sample last read (the event
	 * TRACE_EVENT_JOB_ENDED): its note, or "" */
	char job_ended[256];
};

/* Convenience wrappers (NULL ops are no-ops returning 0). */
int source_program(struct source *s, const struct plan *p, bool force, struct errmsg *e);
int source_read(struct source *s, struct sample *out, struct errmsg *e);
void source_advance(struct source *s, double seconds);
int source_restore(struct source *s, struct errmsg *e);
void source_emergency_restore(struct source *s);
void source_close(struct source *s);   /* restores first, then frees */

/* Does the source have registers to read back (ops->check)? */
bool source_can_check(const struct source *s);
/* ops->check; -1 with a message when the source has none. */
int source_check(struct source *s, const struct cpulist *cpus, bool reclaim,
    struct source_diff *d, unsigned max, struct errmsg *e);
/* Does the source read control registers (ops->read_control)? */
bool source_can_read_controls(const struct source *s);
/* ops->read_control; -1 with a message when the source has none. */
int source_read_control(struct source *s, const struct cpulist *cpus, uint32_t msr,
    uint64_t *val, bool *got, struct errmsg *e);
/* The name of an MSR httop writes, as the SDM spells it ("PERFEVTSEL0",
 * "FIXED_CTR_CTRL"), or "MSR 0x..."; for messages. Returns buf. */
const char *source_msr_name(uint32_t msr, char *buf, size_t len);

/* The seek operations, each -1 with a message when the source has none. */
int source_peek_time(struct source *s, double *t, struct errmsg *e);
int source_scan(struct source *s, unsigned budget, struct errmsg *e);
int source_rewind(struct source *s, struct errmsg *e);
int source_seek_end(struct source *s, struct errmsg *e);
/* Zeroes *p for a source that cannot move. */
void source_pos(const struct source *s, struct source_pos *p);

/* ops->stats into buf; false (buf "") when the source has none. */
bool source_stats(const struct source *s, char *buf, size_t len);

/* Move the calling thread onto each CPU i < n with visit[i] in turn, yield
 * there, and put its affinity back: each CPU visited switches (its task
 * out, the thread in, and back), so what runs there is said by a switch
 * (the sched and bpf sources). A CPU the thread may not run on (cpuset)
 * is passed over. */
void source_visit_cpus(const bool *visit, unsigned n);

/* Is this CPU read? (selected list empty means all present CPUs) */
bool source_cpu_selected(const struct source *s, unsigned cpu);

#endif
