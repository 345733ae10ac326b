/* plan.c: the counter plan per microarchitecture group: which registers
 * httop writes (a fixed list, built only here) and which counters it reads.
 *
 * Event encodings, checked against public sources:
 * - Nehalem/Westmere: CPU_CLK_UNHALTED.REF_P = event 0x3C umask 0x01
 *   (intel/perfmon NHM-EP/events/NehalemEP_core.json: "Reference base clock
 *   (133 Mhz) cycles"); McCalpin's blog says it ticks at the TSC rate. The
 *   table says 1 and calibration decides.
 * - Sandy Bridge..Broadwell: CPU_CLK_THREAD_UNHALTED.REF_XCLK = 0x3C/0x01,
 *   "counts at 100 MHz rate" (intel/perfmon SNB..BDX core event files);
 *   the ANY variant is the same encoding with AnyThread (bit 21).
 * - Skylake..Cooper Lake: CPU_CLK_UNHALTED.REF_XCLK = 0x3C/0x01 and
 *   REF_XCLK_ANY = the same + AnyThread (intel/perfmon SKX/events/
 *   skylakex_core.json). McCalpin programs 0x0063013C on a Xeon 8160 and
 *   finds it ticks at the 25 MHz crystal: scale = CPUID 15H EBX/EAX.
 * - Ice Lake..Granite Rapids: AnyThread is gone (CPUID.0AH:EDX[15]);
 *   CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE = 0x3C/0x02, "Core crystal clock
 *   cycles when this thread is unhalted and the other thread is halted"
 *   (intel/perfmon ICX/events/icelakex_core.json and SPR/events/
 *   sapphirerapids_core.json). On Ice Lake 0x3C/0x01 is REF_XCLK (crystal,
 *   icelakex_core.json); on Sapphire Rapids the same encoding is
 *   CPU_CLK_UNHALTED.REF_TSC_P, which ticks at the TSC rate, so there is
 *   no plain per-thread crystal event there to calibrate OTA against.
 * - Registers: Intel SDM vol. 3B ch. 20 (IA32_FIXED_CTR_CTRL 4 bits per
 *   counter: OS 0x1, USR 0x2, AnyThread 0x4, PMI 0x8; IA32_PERF_GLOBAL_CTRL
 *   bits 0..n-1 programmable, 32..34 fixed).
 * - AMD: APERF 0xE8, MPERF 0xE7, IRPerfCount 0xC00000E9 (AMD APM vol. 2). */
#include "config.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

#define EVT_REF      0x3Cu  /* the unhalted-clock event */
#define UMASK_REF    0x01u  /* REF_P / REF_XCLK (REF_TSC_P on SPR) */
#define UMASK_OTA    0x02u  /* ONE_THREAD_ACTIVE */

#define FIXED_CTRL_VALUE 0x333ull   /* fixed 0-2: OS+USR, no AnyThread, no PMI */
#define FIXED_CTRL_MASK  0xFFFull   /* the three 4-bit fields */
#define FIXED_CTRL_BUSY  0x333ull   /* their enable bits */
#define GLOBAL_FIXED     (7ull << 32)
#define GLOBAL_PMC0      1ull

static unsigned
width_or_48(unsigned w)
{
	return w != 0 ? w : 48;
}

static void
add_slot(struct plan *p, enum slot_kind k, uint32_t msr, unsigned width, unsigned tmask)
{
	struct plan_slot *s;

	if (p->nslots >= PLAN_MAX_SLOTS)
		return;
	s = &p->slots[p->nslots++];
	s->kind = k;
	s->msr = msr;
	s->width = width;
	s->thread_mask = tmask;
}

static void
add_write(struct plan *p, uint32_t msr, uint64_t value, uint64_t mask, uint64_t busy,
    unsigned tmask, const char *what)
{
	struct plan_write *w;

	if (p->nwrites >= PLAN_MAX_WRITES)
		return;
	w = &p->writes[p->nwrites++];
	w->msr = msr;
	w->value = value & mask;
	w->mask = mask;
	w->busy_mask = busy;
	w->thread_mask = tmask;
	w->what = what;
}

/* TSC and the three fixed counters on every thread. */
static void
add_fixed_slots(struct plan *p, const struct cpu_identity *id)
{
	unsigned fw = width_or_48(id->fixed_width);

	add_slot(p, SLOT_TSC, MSR_TSC, 64, THREAD_ALL);
	add_slot(p, SLOT_INST, MSR_FIXED_CTR0, fw, THREAD_ALL);
	add_slot(p, SLOT_CYCLES, MSR_FIXED_CTR1, fw, THREAD_ALL);
	add_slot(p, SLOT_REF, MSR_FIXED_CTR2, fw, THREAD_ALL);
}

/* The Intel writes in their fixed order: FIXED_CTR_CTRL, PERFEVTSEL0 (when
 * a programmable counter is used), GLOBAL_CTRL. */
static void
add_intel_writes(struct plan *p, bool pmc, uint64_t evtsel, unsigned evt_threads,
    const char *evt_what)
{
	uint64_t global = GLOBAL_FIXED | (pmc ? GLOBAL_PMC0 : 0);

	add_write(p, MSR_FIXED_CTR_CTRL, FIXED_CTRL_VALUE, FIXED_CTRL_MASK, FIXED_CTRL_BUSY,
	    THREAD_ALL, "FIXED_CTR_CTRL = fixed 0-2 on, OS+USR");
	if (pmc)
		add_write(p, MSR_PERFEVTSEL0, evtsel, ~0ull, EVTSEL_EN, evt_threads, evt_what);
	add_write(p, MSR_PERF_GLOBAL_CTRL, global, global, 0, THREAD_ALL,
	    pmc ? "PERF_GLOBAL_CTRL |= fixed 0-2, PMC0" : "PERF_GLOBAL_CTRL |= fixed 0-2");
}

static uint64_t
evtsel_user_os_en(unsigned umask)
{
	return EVTSEL(EVT_REF, umask) | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;
}

/* CPUID 15H TSC/crystal ratio when it is an integer, else 0. */
static unsigned
crystal_ratio(const struct cpu_identity *id)
{
	if (id->tsc_num == 0 || id->tsc_den == 0 || id->tsc_num % id->tsc_den != 0)
		return 0;
	return id->tsc_num / id->tsc_den;
}

/* Scale of a crystal-clock event: 15H, or 4 x base ratio (a 25 MHz crystal
 * next to the 100 MHz bus clock) when 15H is missing. */
static void
crystal_scale(struct plan *p, const struct cpu_identity *id)
{
	unsigned r = crystal_ratio(id);

	if (r != 0) {
		p->scale_expected = r;
		snprintf(p->scale_note, sizeof p->scale_note,
		    "table: CPUID 15H %u/%u = %u", id->tsc_num, id->tsc_den, r);
	} else if (id->base_ratio != 0) {
		p->scale_expected = 4 * id->base_ratio;
		snprintf(p->scale_note, sizeof p->scale_note,
		    "table: CPUID 15H missing, assuming a 25 MHz crystal: 4 x base ratio %u = %u",
		    id->base_ratio, p->scale_expected);
	} else {
		p->scale_expected = 0;
		snprintf(p->scale_note, sizeof p->scale_note,
		    "no CPUID 15H and no base ratio: crystal scale unknown");
	}
}

static void
plan_nhm_snb_skx(struct plan *p, const struct machine *m)
{
	const struct cpu_identity *id = &m->id;
	const char *what = "PERFEVTSEL0 = CPU_CLK_UNHALTED.REF_XCLK:ANY";
	const char *ev = "REF_XCLK";

	add_fixed_slots(p, id);
	add_slot(p, SLOT_ANY, MSR_PMC0, width_or_48(id->gp_width), THREAD_0);
	switch (m->group) {
	case UARCH_NHM:
		what = "PERFEVTSEL0 = CPU_CLK_UNHALTED.REF_P:ANY";
		ev = "REF_P";
		p->scale_expected = 1;
		snprintf(p->scale_note, sizeof p->scale_note,
		    "table: 1 (TSC rate per McCalpin; Intel's event file says 133 MHz)");
		break;
	case UARCH_SNB:
		what = "PERFEVTSEL0 = CPU_CLK_THREAD_UNHALTED.REF_XCLK:ANY";
		p->scale_expected = id->base_ratio;
		if (id->base_ratio != 0)
			snprintf(p->scale_note, sizeof p->scale_note,
			    "table: 100 MHz XCLK, base ratio %u", id->base_ratio);
		else
			snprintf(p->scale_note, sizeof p->scale_note,
			    "base ratio unknown: XCLK scale unknown");
		break;
	default:
		crystal_scale(p, id);
		break;
	}
	add_intel_writes(p, true, evtsel_user_os_en(UMASK_REF) | EVTSEL_ANY, THREAD_0, what);
	p->split = SPLIT_ANY;
	snprintf(p->summary, sizeof p->summary,
	    "%s: %s with AnyThread on PMC0 of thread 0, fixed counters on every thread",
	    uarch_group_name(m->group), ev);
}

static void
plan_icx(struct plan *p, const struct machine *m)
{
	const struct cpu_identity *id = &m->id;

	add_fixed_slots(p, id);
	add_slot(p, SLOT_OTA, MSR_PMC0, width_or_48(id->gp_width), THREAD_ALL);
	add_intel_writes(p, true, evtsel_user_os_en(UMASK_OTA), THREAD_ALL,
	    "PERFEVTSEL0 = CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE");
	crystal_scale(p, id);
	p->split = SPLIT_OTA;
	snprintf(p->summary, sizeof p->summary,
	    "%s: ONE_THREAD_ACTIVE on PMC0 of every thread (no AnyThread), fixed counters",
	    uarch_group_name(m->group));
}

static void
plan_knl(struct plan *p, const struct machine *m)
{
	add_fixed_slots(p, &m->id);
	add_intel_writes(p, false, 0, THREAD_ALL, NULL);
	p->scale_expected = 1;
	p->split = SPLIT_BOUND;
	snprintf(p->summary, sizeof p->summary,
	    "knl: fixed counters per thread; core figures are bounds "
	    "(AnyThread on KNL is undocumented and not used)");
}

static void
plan_zen(struct plan *p, const struct machine *m)
{
	/* Architectural MSRs, all 64 bits; nothing to program. IRPerfCount
	 * counts only while HWCR bit 30 is set, which httop leaves alone. */
	add_slot(p, SLOT_TSC, MSR_TSC, 64, THREAD_ALL);
	add_slot(p, SLOT_INST, MSR_AMD_IRPERF, 64, THREAD_ALL);
	add_slot(p, SLOT_CYCLES, MSR_APERF, 64, THREAD_ALL);
	add_slot(p, SLOT_REF, MSR_MPERF, 64, THREAD_ALL);
	p->scale_expected = 1;
	p->split = m->topo.max_smt == 2 ? SPLIT_BOUND : SPLIT_NONE;
	snprintf(p->summary, sizeof p->summary,
	    "zen: APERF/MPERF/IRPerfCount per thread, no writes; "
	    "no both-threads event, so the split is a bound");
}

static void
plan_unknown(struct plan *p, const struct machine *m)
{
	p->scale_expected = 1;
	p->split = m->topo.max_smt == 2 ? SPLIT_BOUND : SPLIT_NONE;
	if (m->id.vendor == CPU_VENDOR_AMD) {
		add_slot(p, SLOT_TSC, MSR_TSC, 64, THREAD_ALL);
		add_slot(p, SLOT_CYCLES, MSR_APERF, 64, THREAD_ALL);
		add_slot(p, SLOT_REF, MSR_MPERF, 64, THREAD_ALL);
		snprintf(p->summary, sizeof p->summary,
		    "unknown AMD CPU: APERF/MPERF per thread only");
		return;
	}
	add_fixed_slots(p, &m->id);
	add_intel_writes(p, false, 0, THREAD_ALL, NULL);
	snprintf(p->summary, sizeof p->summary,
	    "unknown CPU: fixed counters per thread only, %s",
	    p->split == SPLIT_BOUND ? "split as a bound" : "no SMT split");
}

void
plan_for_machine(struct plan *p, const struct machine *m)
{
	memset(p, 0, sizeof *p);
	p->group = m->group;
	switch (m->group) {
	case UARCH_NHM:
	case UARCH_SNB:
	case UARCH_SKX:
		plan_nhm_snb_skx(p, m);
		break;
	case UARCH_ICX:
		plan_icx(p, m);
		break;
	case UARCH_KNL:
		plan_knl(p, m);
		break;
	case UARCH_ZEN:
		plan_zen(p, m);
		break;
	default:
		plan_unknown(p, m);
		break;
	}
	p->scale = p->scale_expected;
	p->scale_measured = false;
	plan_link(p);
}

/* Ice Lake-era models where 0x3C/0x01 is REF_XCLK (crystal): ICL client
 * 7D 7E, ICX 6A 6C, TGL 8C 8D, RKL A7. Sapphire Rapids and later (8F CF AD
 * AE) encode REF_TSC_P there instead. */
static bool
icx_has_ref_xclk(const struct cpu_identity *id)
{
	static const int models[] = { 0x7D, 0x7E, 0x6A, 0x6C, 0x8C, 0x8D, 0xA7 };
	size_t i;

	if (id->vendor != CPU_VENDOR_INTEL || id->family != 6)
		return false;
	for (i = 0; i < sizeof models / sizeof models[0]; i++)
		if (id->model == models[i])
			return true;
	return false;
}

bool
plan_calibration(struct plan *cal, const struct plan *main_plan, const struct machine *m)
{
	const char *what;

	memset(cal, 0, sizeof *cal);
	cal->group = main_plan->group;
	switch (main_plan->group) {
	case UARCH_NHM:
		what = "PERFEVTSEL0 = CPU_CLK_UNHALTED.REF_P (calibration)";
		break;
	case UARCH_SNB:
		what = "PERFEVTSEL0 = CPU_CLK_THREAD_UNHALTED.REF_XCLK (calibration)";
		break;
	case UARCH_SKX:
		what = "PERFEVTSEL0 = CPU_CLK_UNHALTED.REF_XCLK (calibration)";
		break;
	case UARCH_ICX:
		if (!icx_has_ref_xclk(&m->id))
			return false;
		what = "PERFEVTSEL0 = CPU_CLK_UNHALTED.REF_XCLK (calibration)";
		break;
	default:
		return false;
	}
	add_fixed_slots(cal, &m->id);
	add_slot(cal, SLOT_REFX, MSR_PMC0, width_or_48(m->id.gp_width), THREAD_0);
	add_intel_writes(cal, true, evtsel_user_os_en(UMASK_REF), THREAD_0, what);
	cal->split = SPLIT_NONE;
	cal->scale_expected = main_plan->scale_expected;
	cal->scale = main_plan->scale_expected;
	snprintf(cal->summary, sizeof cal->summary,
	    "calibration: reference event without AnyThread on thread 0 next to fixed counter 2");
	plan_link(cal);
	return true;
}

static void
add_partner(struct plan *p, int slot, int partner, enum partner_rule rule)
{
	struct plan_partner *q;

	if (slot < 0 || partner < 0 || p->npartners >= PLAN_MAX_PARTNERS)
		return;
	q = &p->partners[p->npartners++];
	q->slot = (uint8_t)slot;
	q->partner = (uint8_t)partner;
	q->rule = (uint8_t)rule;
}

/* Do the plan's writes set `bits` of `msr`? */
static bool
writes_set(const struct plan *p, uint32_t msr, uint64_t bits)
{
	unsigned k;

	for (k = 0; k < p->nwrites; k++) {
		const struct plan_write *w = &p->writes[k];

		if (w->msr == msr && (w->mask & bits) == bits && (w->value & bits) == bits)
			return true;
	}
	return false;
}

static void
add_control(struct plan *p, unsigned slot, uint32_t msr, uint64_t bits, const char *what)
{
	struct plan_control *c;

	if (p->ncontrols >= PLAN_MAX_CONTROLS)
		return;
	c = &p->controls[p->ncontrols++];
	c->slot = (uint8_t)slot;
	c->msr = msr;
	c->bits = bits;
	c->owned = writes_set(p, msr, bits);
	snprintf(c->what, sizeof c->what, "%s", what);
}

/* The enable bits of the counter at `msr` (Intel SDM vol. 3B ch. 20: a
 * fixed counter counts while one of its OS/USR bits in FIXED_CTR_CTRL and
 * its bit in PERF_GLOBAL_CTRL are set, a general one while EN and OS or
 * USR of its PERFEVTSEL and its GLOBAL_CTRL bit are; AMD APM vol. 2:
 * IRPerfCount while HWCR bit 30). TSC, APERF and MPERF have none. */
static void
controls_of(struct plan *p, unsigned slot)
{
	uint32_t msr = p->slots[slot].msr;
	char what[40];
	unsigned i;

	if (msr >= MSR_FIXED_CTR0 && msr < MSR_FIXED_CTR0 + 4) {
		i = msr - MSR_FIXED_CTR0;
		snprintf(what, sizeof what, "fixed counter %u: OS, USR", i);
		add_control(p, slot, MSR_FIXED_CTR_CTRL, 0x3ull << (4 * i), what);
		snprintf(what, sizeof what, "fixed counter %u", i);
		add_control(p, slot, MSR_PERF_GLOBAL_CTRL, 1ull << (32 + i), what);
	} else if (msr >= MSR_PMC0 && msr < MSR_PMC0 + 8) {
		i = msr - MSR_PMC0;
		snprintf(what, sizeof what, "PMC%u: EN, USR, OS", i);
		add_control(p, slot, MSR_PERFEVTSEL0 + i, EVTSEL_EN | EVTSEL_USR | EVTSEL_OS, what);
		snprintf(what, sizeof what, "PMC%u", i);
		add_control(p, slot, MSR_PERF_GLOBAL_CTRL, 1ull << i, what);
	} else if (msr == MSR_AMD_IRPERF) {
		add_control(p, slot, MSR_AMD_HWCR, 1ull << 30, "IRPerfEn");
	}
}

void
plan_link(struct plan *p)
{
	int inst = plan_slot_index(p, SLOT_INST), cyc = plan_slot_index(p, SLOT_CYCLES);
	int ref = plan_slot_index(p, SLOT_REF);
	unsigned s;

	p->npartners = 0;
	p->ncontrols = 0;
	/* A thread that retires instructions is unhalted, and the two clocks
	 * run exactly while it is: each of the three vouches for the others.
	 * The TSC never stops (a TSC that stands still is R_NO_TIME). */
	add_partner(p, inst, cyc, PARTNER_SAME);
	add_partner(p, inst, ref, PARTNER_SAME);
	add_partner(p, cyc, ref, PARTNER_SAME);
	add_partner(p, cyc, inst, PARTNER_SAME);
	add_partner(p, ref, cyc, PARTNER_SAME);
	add_partner(p, ref, inst, PARTNER_SAME);
	add_partner(p, plan_slot_index(p, SLOT_ANY), ref, PARTNER_CORE);
	add_partner(p, plan_slot_index(p, SLOT_OTA), ref, PARTNER_ALONE);
	add_partner(p, plan_slot_index(p, SLOT_REFX), ref, PARTNER_SAME);
	for (s = 0; s < p->nslots; s++)
		controls_of(p, s);
}

int
plan_slot_index(const struct plan *p, enum slot_kind k)
{
	unsigned i;

	for (i = 0; i < p->nslots; i++)
		if (p->slots[i].kind == k)
			return (int)i;
	return -1;
}

static const char *const kind_names[SLOT_NKINDS] = {
	[SLOT_TSC] = "tsc",
	[SLOT_INST] = "inst",
	[SLOT_CYCLES] = "cycles",
	[SLOT_REF] = "ref",
	[SLOT_ANY] = "any",
	[SLOT_OTA] = "ota",
	[SLOT_REFX] = "refx",
	[SLOT_STEAL] = "steal",
	[SLOT_JOB] = "job",
	[SLOT_JOB_BOTH] = "job_both",
	[SLOT_JOB_ALONE] = "job_alone",
	[SLOT_JOB_SHARED] = "job_shared",
};

static const char *const kind_titles[SLOT_NKINDS] = {
	[SLOT_TSC] = N_("time stamp counter"),
	[SLOT_INST] = N_("instructions retired"),
	[SLOT_CYCLES] = N_("core cycles"),
	[SLOT_REF] = N_("reference cycles"),
	[SLOT_ANY] = N_("AnyThread reference cycles"),
	[SLOT_OTA] = N_("ONE_THREAD_ACTIVE"),
	[SLOT_REFX] = N_("calibration reference cycles"),
	[SLOT_STEAL] = N_("steal time"),
	[SLOT_JOB] = N_("the job's time"),
	[SLOT_JOB_BOTH] = N_("the job on both threads"),
	[SLOT_JOB_ALONE] = N_("the job alone"),
	[SLOT_JOB_SHARED] = N_("the job beside another task"),
};

const char *
slot_kind_title(enum slot_kind k)
{
	if ((unsigned)k >= SLOT_NKINDS)
		return "?";
	return kind_titles[k];
}

const char *
slot_kind_name(enum slot_kind k)
{
	if ((unsigned)k >= SLOT_NKINDS)
		return "?";
	return kind_names[k];
}

enum slot_kind
slot_kind_parse(const char *name)
{
	unsigned k;

	for (k = 0; k < SLOT_NKINDS; k++)
		if (strcmp(name, kind_names[k]) == 0)
			return (enum slot_kind)k;
	return SLOT_NKINDS;
}

const char *
split_method_name(enum split_method s)
{
	switch (s) {
	case SPLIT_NONE:
		return "none";
	case SPLIT_ANY:
		return "any";
	case SPLIT_OTA:
		return "ota";
	case SPLIT_BOUND:
		return "bound";
	}
	return "?";
}

/* The split of a plan that is not the counters' is not theirs: "any"
 * would read as the AnyThread count, "bound" as the counters' unhalted
 * time. Its name says what it rests on. */
/* The splits named for what they rest on rather than for the counters'
 * method: a property of the plan's basis, whichever source made it. */
static const struct {
	enum plan_basis basis;
	enum split_method method;
	const char *name;
} basis_splits[] = {
	{ PLAN_BASIS_SCHED, SPLIT_ANY, "sched" },
	{ PLAN_BASIS_TICKS, SPLIT_BOUND, "ticks" },
};

const char *
plan_split_name(const struct plan *p)
{
	size_t i;

	for (i = 0; i < sizeof basis_splits / sizeof basis_splits[0]; i++) {
		if (p->basis == basis_splits[i].basis && p->split == basis_splits[i].method)
			return basis_splits[i].name;
	}
	return split_method_name(p->split);
}

int
plan_split_parse(const char *name, enum split_method *method, enum plan_basis *basis)
{
	int i;

	*basis = PLAN_NBASES;
	for (i = 0; i < (int)(sizeof basis_splits / sizeof basis_splits[0]); i++) {
		if (strcmp(name, basis_splits[i].name) == 0) {
			*method = basis_splits[i].method;
			*basis = basis_splits[i].basis;
			return 0;
		}
	}
	for (i = SPLIT_NONE; i <= SPLIT_BOUND; i++) {
		if (strcmp(name, split_method_name((enum split_method)i)) == 0) {
			*method = (enum split_method)i;
			return 0;
		}
	}
	return -1;
}

const char *
plan_meaning(const struct plan *p)
{
	/* A node's plan (httop --nodes) reads nothing here: its figures
	 * come computed. */
	if (p == NULL || p->nslots == 0 || p->basis == PLAN_BASIS_COUNTERS)
		return NULL;
	/* The idle accounting's summary says how long a tick is. */
	if (p->basis == PLAN_BASIS_TICKS && p->summary[0] != '\0')
		return p->summary;
	/* Cores of one thread (no siblings declared): nothing to split. */
	if (p->basis == PLAN_BASIS_SCHED && p->split == SPLIT_NONE)
		return N_("utilisation by the scheduler: time a task ran on each CPU; no split "
		    "(one thread a core)");
	return plan_basis_meaning(p->basis);
}

const char *
plan_slot_reading(const struct plan *p, const struct plan_slot *s)
{
	if (p == NULL || s == NULL)
		return NULL;
	if (p->basis == PLAN_BASIS_SCHED) {
		switch (s->kind) {
		case SLOT_TSC:
			return N_("CLOCK_MONOTONIC at the read, in ns");
		/* The sched and bpf sources' plan alike: how the switches
		 * reach httop is in the plan's summary (its Plan row). */
		case SLOT_REF:
			return N_("ns the CPU ran a task other than idle, from its context switches");
		case SLOT_ANY:
			return N_("ns any thread of the core ran a task, from its threads' context "
			    "switches in time order");
		default:
			return NULL;
		}
	}
	if (p->basis == PLAN_BASIS_TICKS) {
		switch (s->kind) {
		case SLOT_TSC:
			return N_("CLOCK_MONOTONIC at the read, in us");
		case SLOT_REF:
			return N_("busy time from /proc/stat: the time less the CPU's idle, iowait "
			    "and steal ticks, in us");
		case SLOT_STEAL:
			return N_("steal time from /proc/stat: the CPU's steal ticks, in us");
		default:
			return NULL;
		}
	}
	return NULL;
}

bool
plan_has_scale(const struct plan *p)
{
	return p != NULL && p->basis == PLAN_BASIS_COUNTERS;
}

const char *
plan_basis_name(enum plan_basis b)
{
	switch (b) {
	case PLAN_BASIS_COUNTERS:
		return "counters";
	case PLAN_BASIS_SCHED:
		return "scheduler";
	case PLAN_BASIS_TICKS:
		return "ticks";
	case PLAN_NBASES:
		break;
	}
	return "?";
}

enum plan_basis
plan_basis_parse(const char *name)
{
	unsigned b;

	for (b = 0; b < PLAN_NBASES; b++)
		if (strcmp(name, plan_basis_name((enum plan_basis)b)) == 0)
			return (enum plan_basis)b;
	return PLAN_NBASES;
}

const char *
plan_basis_meaning(enum plan_basis b)
{
	if (b == PLAN_BASIS_SCHED)
		return N_("split by the scheduler: time a task ran on each thread, not the core's "
		    "halted state");
	if (b == PLAN_BASIS_TICKS)
		return N_("utilisation by the kernel's idle accounting (/proc/stat); the split is a "
		    "bound from it");
	return N_("split by the performance counters: the threads' unhalted time");
}
