/* perf_plan.c: plan slots to perf events.
 *
 * Generic events where they exist: instructions, cycles and ref-cycles
 * (on Intel ref-cycles is fixed counter 2, TSC rate: the same count as the
 * msr plan's SLOT_REF). The TSC, and APERF/MPERF on AMD (the msr plan's
 * cycles and reference there, since AMD has no generic ref-cycles), come
 * from the kernel's `msr` PMU (arch/x86/events/msr.c), which names its
 * events in sysfs as "event=0xNN". AnyThread, ONE_THREAD_ACTIVE and the
 * calibration event have no generic name: raw PERFEVTSEL encodings. */
#include "config.h"
#include "source/perf/perf_plan.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSR_PMU_DIR "/sys/bus/event_source/devices/msr"

bool
perf_parse_event_cfg(const char *text, uint64_t *cfg)
{
	char *end;
	unsigned long long v;

	if (strncmp(text, "event=", 6) != 0)
		return false;
	v = strtoull(text + 6, &end, 0);
	if (end == text + 6 || (*end != '\0' && *end != '\n'))
		return false;
	*cfg = v;
	return true;
}

static bool
read_int(struct perf_sys *sys, const char *path, long *v)
{
	char buf[64], *end;

	if (sys->read_file(sys, path, buf, sizeof buf) != 0)
		return false;
	*v = strtol(buf, &end, 10);
	return end != buf;
}

static bool
msr_event(struct perf_sys *sys, const char *name, uint64_t *cfg)
{
	char path[128], buf[64];

	snprintf(path, sizeof path, "%s/events/%s", MSR_PMU_DIR, name);
	return sys->read_file(sys, path, buf, sizeof buf) == 0 && perf_parse_event_cfg(buf, cfg);
}

void
perf_caps_read(struct perf_sys *sys, struct perf_caps *c)
{
	long v;

	memset(c, 0, sizeof *c);
	if (read_int(sys, "/proc/sys/kernel/perf_event_paranoid", &v)) {
		c->paranoid_known = true;
		c->paranoid = (int)v;
	}
	if (!read_int(sys, MSR_PMU_DIR "/type", &v) || v < 0)
		return;
	c->msr_pmu = true;
	c->msr_type = (uint32_t)v;
	c->msr_tsc = msr_event(sys, "tsc", &c->tsc_config);
	c->msr_aperf = msr_event(sys, "aperf", &c->aperf_config);
	c->msr_mperf = msr_event(sys, "mperf", &c->mperf_config);
}

static struct perf_ev
ev(enum perf_ev_from from, uint32_t type, uint64_t config, const char *name)
{
	struct perf_ev e = { from, type, config, name };

	return e;
}

struct perf_ev
perf_event_for(const struct perf_caps *c, const struct machine *m, enum slot_kind k,
    bool use_msr)
{
	bool amd = m->id.vendor == CPU_VENDOR_AMD, intel = m->id.vendor == CPU_VENDOR_INTEL;
	/* APERF and MPERF only as a pair: their ratio is the frequency. */
	bool amd_msr = amd && use_msr && c->msr_pmu && c->msr_aperf && c->msr_mperf;

	switch (k) {
	case SLOT_TSC:
		if (use_msr && c->msr_pmu && c->msr_tsc)
			return ev(PEV_MSR, c->msr_type, c->tsc_config, "msr/tsc");
		return ev(PEV_DERIVED, 0, 0, "time_enabled");
	case SLOT_INST:
		return ev(PEV_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
		    "instructions");
	case SLOT_CYCLES:
		if (amd_msr)
			return ev(PEV_MSR, c->msr_type, c->aperf_config, "msr/aperf");
		return ev(PEV_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles");
	case SLOT_REF:
		if (amd_msr)
			return ev(PEV_MSR, c->msr_type, c->mperf_config, "msr/mperf");
		return ev(PEV_GENERIC, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
		    "ref-cycles");
	case SLOT_ANY:
		if (intel)
			return ev(PEV_RAW, PERF_TYPE_RAW, PERF_RAW_ANY, "raw 0x20013c");
		break;
	case SLOT_OTA:
		if (intel)
			return ev(PEV_RAW, PERF_TYPE_RAW, PERF_RAW_OTA, "raw 0x23c");
		break;
	case SLOT_REFX:
		if (intel)
			return ev(PEV_RAW, PERF_TYPE_RAW, PERF_RAW_REF, "raw 0x13c");
		break;
	case SLOT_STEAL:
	case SLOT_JOB:
	case SLOT_JOB_BOTH:
	case SLOT_JOB_ALONE:
	case SLOT_JOB_SHARED:
	case SLOT_NKINDS:
		break;
	}
	return ev(PEV_NONE, 0, 0, "none");
}
