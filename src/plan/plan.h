/* plan.h: which value goes into which PMU register on which SMT thread, and
 * which counters are read back, per microarchitecture group
 * (doc/hardware.md section 4). A plan is data; sources carry it out, metrics interpret it. */
#ifndef HTTOP_PLAN_H
#define HTTOP_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"

/* MSRs httop reads or writes (Intel SDM vol. 3B ch. 18/19, AMD APM vol. 2). */
#define MSR_TSC                0x010u
#define MSR_PLATFORM_INFO      0x0CEu
#define MSR_MPERF              0x0E7u
#define MSR_APERF              0x0E8u
#define MSR_PMC0               0x0C1u   /* IA32_PMCn = 0xC1 + n */
#define MSR_PERFEVTSEL0        0x186u   /* IA32_PERFEVTSELn = 0x186 + n */
#define MSR_FIXED_CTR0         0x309u   /* instructions retired */
#define MSR_FIXED_CTR1         0x30Au   /* core cycles not halted */
#define MSR_FIXED_CTR2         0x30Bu   /* reference cycles not halted */
#define MSR_FIXED_CTR_CTRL     0x38Du
#define MSR_PERF_GLOBAL_STATUS 0x38Eu
#define MSR_PERF_GLOBAL_CTRL   0x38Fu
#define MSR_PERF_GLOBAL_OVF_CTRL 0x390u
#define MSR_AMD_HWCR           0xC0010015u
#define MSR_AMD_IRPERF         0xC00000E9u

/* IA32_PERFEVTSELx fields. */
#define EVTSEL_USR   (1ull << 16)
#define EVTSEL_OS    (1ull << 17)
#define EVTSEL_ANY   (1ull << 21)
#define EVTSEL_EN    (1ull << 22)
#define EVTSEL(event, umask) ((uint64_t)(event) | ((uint64_t)(umask) << 8))

/* What a counter read means to the metrics. All but TSC/INST/CYCLES are
 * reference-clock counts; REF is already in TSC ticks, ANY/OTA/REFX must be
 * multiplied by plan.scale. */
enum slot_kind {
	SLOT_TSC = 0,   /* time stamp counter */
	SLOT_INST,      /* instructions retired (fixed 0, or AMD IRPerfCount) */
	SLOT_CYCLES,    /* core clock cycles while not halted (fixed 1, or APERF) */
	SLOT_REF,       /* TSC-rate ticks while not halted (fixed 2, or MPERF) */
	SLOT_ANY,       /* reference ticks while any thread of the core is active */
	SLOT_OTA,       /* reference ticks while this thread alone is active */
	SLOT_REFX,      /* this thread's reference event without ANY (calibration) */
	SLOT_STEAL,     /* time the hypervisor ran something else while this
			 * virtual CPU wanted to run (/proc/stat's steal), in
			 * the TSC slot's unit; no counter: procstat's plan */
	/* The watched job's (sched's plan with a job, src/source/sched/sched_merge.c),
	 * in the TSC slot's unit, cumulative: */
	SLOT_JOB,       /* this thread ran the job's tasks */
	SLOT_JOB_BOTH,  /* the core (thread 0's row): two threads ran the job's */
	SLOT_JOB_ALONE, /* one ran the job's, its siblings idle */
	SLOT_JOB_SHARED,/* one ran the job's while a sibling ran another task */
	SLOT_NKINDS
};

/* How the four-way split is obtained. */
enum split_method {
	SPLIT_NONE = 0, /* not available (not 2 threads per core, or unknown CPU) */
	SPLIT_ANY,      /* exact: AnyThread reference count on thread 0 */
	SPLIT_OTA,      /* exact: ONE_THREAD_ACTIVE on each thread */
	SPLIT_BOUND,    /* bound from per-thread utilisations only */
};

/* What the plan's counts stand for. */
enum plan_basis {
	PLAN_BASIS_COUNTERS = 0, /* performance counters (msr, perf, sim) */
	PLAN_BASIS_SCHED,        /* the scheduler's context switches: time a
				  * task other than idle ran, in ns */
	PLAN_BASIS_TICKS,        /* the kernel's idle accounting (/proc/stat):
				  * busy time, in us */
	PLAN_NBASES
};

#define THREAD_ALL 0xFu      /* thread_mask: every SMT position */
#define THREAD_0   0x1u      /* thread_mask: thread 0 of each core only */

struct plan_slot {
	enum slot_kind kind;
	uint32_t msr;            /* counter to read */
	unsigned width;          /* bits; deltas are taken modulo 2^width */
	unsigned thread_mask;    /* bit t: read on SMT thread t of each core */
};

/* new = (old & ~mask) | (value & mask): httop only touches the bits it owns. */
struct plan_write {
	uint32_t msr;
	uint64_t value;
	uint64_t mask;
	uint64_t busy_mask;      /* old & busy_mask != 0: someone else is using it */
	unsigned thread_mask;
	const char *what;        /* "PERFEVTSEL0 = CPU_CLK_UNHALTED.REF_XCLK:ANY" */
};

#define PLAN_MAX_SLOTS  8
#define PLAN_MAX_WRITES 8
#define PLAN_MAX_PARTNERS 12
#define PLAN_MAX_CONTROLS 16

/* Counters that move together. A counter (`slot`) that stands still while
 * its partner advances by more than a thread can gain without the counter
 * moving has been stopped by another program (httop.1, VALIDITY): its
 * figures are absent (R_STOPPED). */
enum partner_rule {
	PARTNER_SAME = 0,  /* both read on the same CPU: instructions and the
			    * two unhalted clocks */
	PARTNER_CORE,      /* slot read on thread 0, partner on every thread of
			    * the core: AnyThread counts while any thread runs */
	PARTNER_ALONE,     /* both per thread, the partner less the sibling's:
			    * ONE_THREAD_ACTIVE counts the time a thread ran
			    * while its sibling did not */
};

struct plan_partner {
	uint8_t slot;            /* index into slots[] */
	uint8_t partner;         /* index into slots[] */
	uint8_t rule;            /* enum partner_rule */
};

/* Bits a counter needs set to count: the enable bits another program
 * clears to stop it. Read back (never per refresh) when the metrics find
 * the counter stopped, to say which bits were cleared. */
struct plan_control {
	uint8_t slot;            /* the counter, index into slots[] */
	uint32_t msr;            /* its control register */
	uint64_t bits;           /* all set while it counts as planned */
	bool owned;              /* a plan write sets them: --on-conflict
				  * reclaim may set them again */
	char what[40];           /* "fixed counter 0: OS, USR" (untranslated) */
};

struct plan {
	enum uarch_group group;
	enum split_method split;
	unsigned nslots;
	struct plan_slot slots[PLAN_MAX_SLOTS];
	unsigned nwrites;        /* applied in order; restored in reverse */
	struct plan_write writes[PLAN_MAX_WRITES];
	/* Built once from the slots and writes (plan_link). */
	unsigned npartners;
	struct plan_partner partners[PLAN_MAX_PARTNERS];
	unsigned ncontrols;
	struct plan_control controls[PLAN_MAX_CONTROLS];

	/* TSC ticks per count of SLOT_ANY/SLOT_OTA/SLOT_REFX. */
	unsigned scale_expected; /* from the table and CPUID; 0 if unknown */
	unsigned scale;          /* in use */
	bool scale_measured;     /* calibration succeeded (scale is measured) */
	char scale_note[160];    /* calibration outcome, shown in the topology view */

	char summary[160];       /* one line: what the plan measures and how */

	enum plan_basis basis;   /* counters, or the scheduler's switches */
	/* Ticks per second of the TSC slot when it is not the processor's
	 * TSC (the scheduler source counts ns: 1e9); 0: the TSC. */
	double clock_hz;
};

/* The plan for this machine's group; per-thread figures only if unknown. */
void plan_for_machine(struct plan *p, const struct machine *m);
/* The short-lived plan used to measure the scale: the non-ANY reference event
 * on thread 0 next to fixed counter 2. Returns false if the group has none. */
bool plan_calibration(struct plan *cal, const struct plan *main_plan, const struct machine *m);
/* Fill the partner and control tables from the slots and writes: done by
 * plan_for_machine and plan_calibration, and by whoever builds a plan
 * otherwise (a trace's reader) once its slots and writes are in. */
void plan_link(struct plan *p);
/* Index of the first slot of a kind, or -1. */
int plan_slot_index(const struct plan *p, enum slot_kind k);
const char *slot_kind_name(enum slot_kind k);
/* What the counter counts, for people ("instructions retired");
 * untranslated, marked for _(). */
const char *slot_kind_title(enum slot_kind k);
enum slot_kind slot_kind_parse(const char *name);   /* SLOT_NKINDS if unknown */
const char *split_method_name(enum split_method s);
/* The split's name as every output and a trace write it: the method's
 * for the counters; for a plan whose counts are not the counters' what the
 * split rests on, "sched" (exact, from the context-switch records: its
 * method is SPLIT_ANY over the scheduler's time) or "ticks" (bounds from
 * the utilisations /proc/stat's idle accounting gives, busy time = time
 * less idle, iowait and steal, printed in ticks: SPLIT_BOUND).
 * Untranslated. */
const char *plan_split_name(const struct plan *p);
/* The method and basis of a split name, plan_split_name's or (older
 * httop) split_method_name's: *basis is PLAN_NBASES when the name implies
 * none ("any", "bound", ...). -1 when the name is unknown. */
int plan_split_parse(const char *name, enum split_method *method, enum plan_basis *basis);
/* What the figures mean, for a plan whose figures are not a PMU's (the
 * scheduler's or the kernel's idle accounting's): every output prints it next to
 * the source's name; NULL for a counter plan, whose meaning httop(1) gives
 * once, and for a plan that reads nothing (a node's, httop --nodes). The
 * idle accounting's is its summary (the tick's length); untranslated. */
const char *plan_meaning(const struct plan *p);
/* What slot s of a plan that reads no register counts and where it comes
 * from (the scheduler's context-switch records, /proc/stat), for people
 * (untranslated, marked for _()); NULL for a counter plan, whose slots
 * name their MSR. */
const char *plan_slot_reading(const struct plan *p, const struct plan_slot *s);
/* Has the plan a reference-clock scale S to show? Only a plan of the
 * counters: a source without counters (sched, procstat, a replay of
 * their recordings, a node that runs one) counts time, and its scale is
 * only the unit its invariants' tolerance is in; every output shows S
 * as absent (httop(1), OUTPUT FORMATS). */
bool plan_has_scale(const struct plan *p);
/* "counters", "scheduler" (traces, JSON); PLAN_NBASES if unknown. */
const char *plan_basis_name(enum plan_basis b);
enum plan_basis plan_basis_parse(const char *name);
/* What the split and utilisation of such a plan mean, for people
 * (untranslated, marked for _()). */
const char *plan_basis_meaning(enum plan_basis b);
/* Does CPU at SMT position `thread` read slot `s`? */
static inline bool
plan_slot_on_thread(const struct plan_slot *s, unsigned thread)
{
	return (s->thread_mask >> thread) & 1u;
}

#endif
