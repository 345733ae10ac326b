/* perf_plan.h: which perf event carries each kind of plan slot, and what
 * the kernel offers (perf_event_paranoid, the `msr` PMU). Pure mapping; the
 * source (perf_source.c) tries the events and adjusts the plan. */
#ifndef HTTOP_PERF_PLAN_H
#define HTTOP_PERF_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "plan/plan.h"
#include "source/perf/perf_sys.h"

/* What the kernel offers, read once from /proc and /sys. */
struct perf_caps {
	bool paranoid_known;
	int paranoid;             /* kernel.perf_event_paranoid */
	bool msr_pmu;             /* /sys/bus/event_source/devices/msr */
	uint32_t msr_type;
	bool msr_tsc, msr_aperf, msr_mperf;
	uint64_t tsc_config, aperf_config, mperf_config;
};

enum perf_ev_from {
	PEV_NONE = 0,     /* no event for this slot */
	PEV_GENERIC,      /* PERF_TYPE_HARDWARE */
	PEV_RAW,          /* PERF_TYPE_RAW: the plan's PERFEVTSEL event/umask/any */
	PEV_MSR,          /* the msr PMU (tsc, aperf, mperf) */
	PEV_DERIVED,      /* TSC ticks = time_enabled x nominal frequency */
};

struct perf_ev {
	enum perf_ev_from from;
	uint32_t type;
	uint64_t config;
	const char *name;         /* "instructions", "raw 0x20013c", "msr/tsc" */
};

/* Raw encodings (plan.c has the sources): event 0x3C, umask 0x01 the
 * reference event, 0x02 ONE_THREAD_ACTIVE; AnyThread is bit 21. The kernel
 * adds USR, OS and EN itself. */
#define PERF_RAW_REF  0x013Cull
#define PERF_RAW_OTA  0x023Cull
#define PERF_RAW_ANY  (PERF_RAW_REF | EVTSEL_ANY)

void perf_caps_read(struct perf_sys *sys, struct perf_caps *c);
/* The event for a slot kind on this machine. `use_msr` false: the generic
 * event even where the msr PMU has one (a fallback after it failed). */
struct perf_ev perf_event_for(const struct perf_caps *c, const struct machine *m,
    enum slot_kind k, bool use_msr);
/* "event=0x01" -> 1; false if the text is not that. */
bool perf_parse_event_cfg(const char *text, uint64_t *cfg);

#endif
