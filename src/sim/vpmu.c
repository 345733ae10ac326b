/* vpmu.c: the virtual PMU. Time runs in TSC ticks. A core is counted
 * lazily: when one of its CPUs is accessed (or its truth asked for), its
 * threads' activities are pulled one active stretch at a time from where
 * the core was last counted, swept together (so every tick is known to be
 * neither / t0 only / t1 only / both), and each counter gets exactly what
 * its programming says it counts over that window. So an access costs the
 * same whatever the number of CPUs, and advancing time costs nothing.
 * Reference-clock events count grid points k*S inside the stretches, as
 * hardware counts edges of a slower clock. Register rules: Intel SDM vol.
 * 3B ch. 18-20, doc/hardware.md sections 3-4. */
#include "config.h"
#include "sim/vpmu.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "util/xalloc.h"

#define MAX_GP     8
#define MAX_FIXED  3
#define EVTSEL_EDGE  (1ull << 18)
#define EVTSEL_INV   (1ull << 23)
#define EVTSEL_CMASK (0xFFull << 24)
#define EVTSEL_TSX   (3ull << 32)      /* IN_TX, IN_TXCP (Haswell and later) */
#define FIXED_OS_USR 0x3u
#define FIXED_ANY    0x4u
#define FIXED_PMI    0x8u
#define OVF_CTRL_HI  (3ull << 62)      /* CondChgd, OvfBuf clear bits */
#define HWCR_IRPERF  (1ull << 30)
#define IRPERF_MASK  ((1ull << 48) - 1)
#define DEFAULT_TSC_HZ 2.1e9

typedef unsigned __int128 u128;

/* An active stretch [a, b) of one CPU at core clock fkhz and IPC ipcm/1000. */
struct seg {
	uint64_t a, b;
	uint32_t fkhz, ipcm;
};

/* One non-phased activity, converted to ticks. */
struct leaf {
	enum activity_kind kind;
	uint64_t period, on, shift;     /* duty */
	double on_mean, off_mean;       /* bursts, ticks */
	uint32_t fkhz, ipcm;
	uint64_t rng;                   /* bursts: splitmix64 state */
	bool bon;                       /* bursts: on until `until` */
	uint64_t until;                 /* bursts: time of the next switch */
};

struct vact {
	bool phased;
	uint64_t len;                   /* phase length, ticks */
	unsigned nsub;
	struct leaf top;                /* the activity itself when not phased */
	struct leaf sub[SCEN_MAX_PHASES];
};

struct vcpu {
	bool present, online;
	unsigned core, thread;
	int fail;                       /* next access returns -fail */

	uint64_t pmc[MAX_GP], sel[MAX_GP], fixed[MAX_FIXED];
	uint64_t fctrl, gctrl, gstatus;
	uint64_t aperf, mperf, irperf, hwcr;
	uint64_t tsc_off;               /* TSC = now + tsc_off (vpmu_poke) */

	struct vact act;
	/* The activity's next stretch not yet swept (the one holding or
	 * following its core's time), so a sweep needs no segment list. An
	 * empty one [t, t) means "halted until t". */
	struct seg look;

	/* the remainders carried between windows, so that cycle and
	 * instruction counts stay exact over any split */
	uint64_t cyc_rem, ins_rem;
};

/* What one window added, per thread and for the core (AnyThread). */
struct wthread {
	uint64_t active, cycles, instr, ref, ota;
};

struct wcore {
	struct wthread t[TOPO_MAX_SMT];
	uint64_t any_ticks, any_grid, any_cycles, instr_sum;
};

struct vcore {
	unsigned nthreads;
	unsigned cpu[TOPO_MAX_SMT];
	uint64_t truth[4];
	uint64_t any_rem;
	uint64_t upto;                  /* counted up to this time (lazily) */
};

struct vpmu {
	unsigned max_cpu, ncores;
	struct vcpu *cpu;
	struct vcore *core;

	enum uarch_group group;
	bool amd, any_ok, nhm;
	unsigned n_gp, n_fixed;
	uint64_t gp_mask, fixed_mask;   /* counter value masks (width bits) */
	uint64_t scale;                 /* S: TSC ticks per reference-clock tick */
	unsigned base_ratio;
	double tsc_hz;
	uint64_t tsc_khz;

	uint64_t now, cost, nwrites, nwindows;
};

/* ---- clocks ------------------------------------------------------------ */

/* The identity's nominal clock (base ratio x bus clock), so that httop and
 * the simulator agree on GHz; without a base ratio, CPUID 15H with a
 * crystal, CPUID 16H, else the 2.1 GHz of the reference machine. */
static double
sim_tsc_hz(const struct cpu_identity *id)
{
	double hz = identity_tsc_hz(id);

	if (hz > 0)
		return hz;
	if (id->crystal_hz != 0 && id->tsc_num != 0 && id->tsc_den != 0)
		return (double)id->crystal_hz * id->tsc_num / id->tsc_den;
	if (id->base_mhz != 0)
		return id->base_mhz * 1e6;
	return DEFAULT_TSC_HZ;
}

/* S by group (doc/hardware.md section 4): the crystal ratio CPUID.15H EBX/EAX on
 * Skylake and later (25 MHz crystal assumed when 15H is missing), the base
 * ratio (100 MHz) on Sandy Bridge..Broadwell, 1 on Nehalem. */
static uint64_t
sim_scale(const struct vpmu *v, const struct cpu_identity *id)
{
	long long s = 1;

	switch (v->group) {
	case UARCH_NHM:
		s = 1;
		break;
	case UARCH_SNB:
		s = v->base_ratio;
		break;
	case UARCH_SKX:
	case UARCH_ICX:
		if (id->tsc_num != 0 && id->tsc_den != 0)
			s = llround((double)id->tsc_num / id->tsc_den);
		else
			s = llround(v->tsc_hz / 25e6);
		break;
	default:
		if (id->tsc_num != 0 && id->tsc_den != 0)
			s = llround((double)id->tsc_num / id->tsc_den);
		break;
	}
	return s >= 1 ? (uint64_t)s : 1;
}

static uint64_t
ticks_of(const struct vpmu *v, double seconds)
{
	double t = seconds * v->tsc_hz;

	return t < 1 ? 1 : (uint64_t)llround(t);
}

/* ---- activity to segments ------------------------------------------------- */

static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* An exponential length with the given mean, at least one tick. */
static uint64_t
draw_exp(uint64_t *rng, double mean)
{
	double u = (double)(splitmix64(rng) >> 11) * 0x1.0p-53;   /* [0, 1) */
	double x = ceil(-mean * log1p(-u));

	return x < 1 ? 1 : x > 1e15 ? (uint64_t)1e15 : (uint64_t)x;
}

static void
burst_flip(struct leaf *l)
{
	l->bon = !l->bon;
	l->until += draw_exp(&l->rng, l->bon ? l->on_mean : l->off_mean);
}

static void
leaf_init(struct vpmu *v, struct leaf *l, const struct activity *a, uint64_t seed)
{
	double ghz = a->ghz > 0 ? a->ghz : 0;
	double ipc = a->ipc > 0 ? a->ipc : 0;
	double d = a->duty < 0 ? 0 : a->duty > 1 ? 1 : a->duty;
	double u;

	memset(l, 0, sizeof *l);
	l->kind = a->kind;
	l->fkhz = ghz > 0 ? (uint32_t)llround(ghz * 1e6) : (uint32_t)v->tsc_khz;
	l->ipcm = (uint32_t)llround(ipc * 1000);
	switch (a->kind) {
	case ACT_DUTY:
		l->period = ticks_of(v, a->period_s > 0 ? a->period_s : 0.1);
		l->on = (uint64_t)llround(d * (double)l->period);
		l->shift = (uint64_t)llround(a->phase * (double)l->period) % l->period;
		break;
	case ACT_BURSTS:
		l->on_mean = a->on_s * v->tsc_hz;
		l->off_mean = a->off_s * v->tsc_hz;
		if (!(l->on_mean > 0))
			l->kind = ACT_IDLE;
		else if (!(l->off_mean > 0))
			l->kind = ACT_BUSY;
		l->rng = seed;
		/* start in the stationary state: on with probability on/(on+off),
		 * then a fresh exponential length (memoryless) */
		u = (double)(splitmix64(&l->rng) >> 11) * 0x1.0p-53;
		l->bon = !(u < l->on_mean / (l->on_mean + l->off_mean));
		l->until = 0;
		burst_flip(l);
		break;
	default:
		break;
	}
}

static void
act_init_v(struct vpmu *v, struct vact *va, const struct activity *a, uint64_t seed)
{
	unsigned i;

	memset(va, 0, sizeof *va);
	if (a == NULL)
		return;                 /* idle */
	if (a->kind == ACT_PHASES && a->nphases > 0 && a->phases != NULL) {
		va->phased = true;
		va->len = ticks_of(v, a->phase_len_s > 0 ? a->phase_len_s : 1.0);
		va->nsub = a->nphases > SCEN_MAX_PHASES ? SCEN_MAX_PHASES : a->nphases;
		for (i = 0; i < va->nsub; i++) {
			struct activity s = a->phases[i];

			if (s.kind == ACT_PHASES)   /* no nesting: the parser forbids it */
				s.kind = ACT_IDLE;
			leaf_init(v, &va->sub[i], &s, seed + 0x632BE59BD9B4E019ull * (i + 1));
		}
	} else {
		struct activity s = *a;

		if (s.kind == ACT_PHASES)
			s.kind = ACT_IDLE;
		leaf_init(v, &va->top, &s, seed);
	}
}

/* The first active stretch of leaf l in [t, limit), clipped to it; false
 * when it is halted throughout. Calls for one leaf come in increasing t
 * (bursts keep state): t never goes back before the end of the stretch
 * the previous call returned. */
static bool
leaf_next(struct leaf *l, uint64_t t, uint64_t limit, struct seg *s)
{
	uint64_t a, b, rel;

	switch (l->kind) {
	case ACT_IDLE:
	case ACT_PHASES:
		return false;
	case ACT_BUSY:
		a = t;
		b = limit;
		break;
	case ACT_DUTY:
		if (l->on == 0)
			return false;
		if (l->on >= l->period) {
			a = t;
			b = limit;
			break;
		}
		/* t is rel ticks into its period, active in the first `on` */
		rel = (t % l->period + l->period - l->shift) % l->period;
		if (rel < l->on) {
			a = t;
			b = t + (l->on - rel);
		} else {
			a = t + (l->period - rel);
			b = a + l->on;
		}
		break;
	case ACT_BURSTS:
		while (l->until <= t)
			burst_flip(l);
		if (l->bon) {
			a = t;
		} else {
			/* the next switch is the next start; flipping past the
			 * limit would make the next call see it on too early */
			if (l->until >= limit)
				return false;
			a = l->until;
			burst_flip(l);
		}
		b = l->until;
		break;
	default:
		return false;
	}
	if (a >= limit)
		return false;
	*s = (struct seg){ a, b < limit ? b : limit, l->fkhz, l->ipcm };
	return true;
}

static bool
act_next(struct vact *va, uint64_t t, uint64_t limit, struct seg *s)
{
	uint64_t end;

	if (!va->phased)
		return leaf_next(&va->top, t, limit, s);
	for (; t < limit; t = end) {
		end = (t / va->len + 1) * va->len;
		if (end > limit)
			end = limit;
		if (leaf_next(&va->sub[t / va->len % va->nsub], t, end, s))
			return true;
	}
	return false;
}

/* ---- one window ----------------------------------------------------------- */

/* Reference-clock edges (multiples of S) in [a, b). */
static inline uint64_t
grid(uint64_t S, uint64_t a, uint64_t b)
{
	return (b + S - 1) / S - (a + S - 1) / S;
}

/* n / d and n % d for d < 2^32 with 64-bit divisions only (a 128-bit one
 * is a library call many times slower). n fits 64 bits in a short window,
 * which is the common case: one division. */
static u128
div_small(u128 n, uint64_t d, uint64_t *rem)
{
	uint64_t hi = (uint64_t)(n >> 64), lo = (uint64_t)n, r, x, q1, q0;

	if (hi == 0) {
		*rem = lo % d;
		return lo / d;
	}
	/* long division in 32-bit digits: each partial dividend is below
	 * d x 2^32 < 2^64, so each digit of the quotient is below 2^32 */
	r = hi % d;
	x = r << 32 | lo >> 32;
	q1 = x / d;
	r = x % d;
	x = r << 32 | (lo & 0xFFFFFFFFu);
	q0 = x / d;
	*rem = x % d;
	return (u128)(hi / d) << 64 | (q1 << 32 | q0);
}

/* Instructions: tot / (tsc_khz x 1000) as two divisions by small numbers,
 * floor(floor(n / a) / b) = floor(n / ab); the remainder is rebuilt. */
static uint64_t
div_instr(const struct vpmu *v, u128 tot, uint64_t *rem)
{
	uint64_t r1, r2, q;

	q = (uint64_t)div_small(div_small(tot, 1000, &r1), v->tsc_khz, &r2);
	*rem = r2 * 1000 + r1;
	return q;
}

/* Sweep the threads of core k over [t0, t1): every tick is neither, t0
 * only, t1 only or both; what each counter source added goes to w. Each
 * thread's activity is pulled one stretch at a time (vcpu.look). */
static void
sweep_core(struct vpmu *v, struct vcore *k, uint64_t t0, uint64_t t1, struct wcore *w)
{
	struct vcpu *th[TOPO_MAX_SMT];
	u128 cyc[TOPO_MAX_SMT] = { 0 }, ins[TOPO_MAX_SMT] = { 0 }, anycyc = 0;
	uint64_t any_ticks = 0, any_grid = 0, cur, next, len, g, S = v->scale, r;
	unsigned j, n = k->nthreads, mask;
	uint32_t f;

	memset(w, 0, sizeof *w);
	for (j = 0; j < n; j++)
		th[j] = &v->cpu[k->cpu[j]];
	for (cur = t0; cur < t1; cur = next) {
		next = t1;
		mask = 0;
		f = 0;
		for (j = 0; j < n; j++) {
			struct seg *s = &th[j]->look;

			if (!th[j]->online)
				continue;       /* halted: counts nothing */
			if (s->b <= cur && !act_next(&th[j]->act, cur, t1, s))
				*s = (struct seg){ t1, t1, 0, 0 };   /* halted to t1 */
			if (s->a <= cur) {
				mask |= 1u << j;
				if (s->fkhz > f)
					f = s->fkhz;
				if (s->b < next)
					next = s->b;
			} else if (s->a < next) {
				next = s->a;
			}
		}
		len = next - cur;
		if (mask == 0) {
			k->truth[0] += len;
			continue;
		}
		/* the threads share one core clock: the fastest asked for */
		g = grid(S, cur, next);
		any_ticks += len;
		any_grid += g;
		anycyc += (u128)len * f;
		for (j = 0; j < n; j++) {
			struct wthread *wt = &w->t[j];

			if (!(mask & (1u << j)))
				continue;
			wt->active += len;
			wt->ref += g;
			cyc[j] += (u128)len * f;
			ins[j] += (u128)len * f * th[j]->look.ipcm;
			if (mask == 1u << j)
				wt->ota += g;
		}
		if (n == 2)
			k->truth[mask] += len;   /* 1 t0 only, 2 t1 only, 3 both */
		else
			k->truth[1] += len;
	}
	if (any_ticks == 0)
		return;                 /* halted throughout: nothing counted */

	w->any_ticks = any_ticks;
	w->any_grid = any_grid;
	w->any_cycles = (uint64_t)div_small(anycyc + k->any_rem, v->tsc_khz, &r);
	k->any_rem = r;
	for (j = 0; j < n; j++) {
		struct vcpu *c = th[j];
		struct wthread *wt = &w->t[j];

		if (wt->active == 0)
			continue;
		wt->cycles = (uint64_t)div_small(cyc[j] + c->cyc_rem, v->tsc_khz, &c->cyc_rem);
		wt->instr = div_instr(v, ins[j] + c->ins_rem, &c->ins_rem);
		w->instr_sum += wt->instr;
	}
}

/* Add inc to a counter of the given mask; a carry out of the width sets
 * the overflow bit in GLOBAL_STATUS, as hardware does. */
static void
ctr_add(uint64_t *ctr, uint64_t inc, uint64_t mask, uint64_t *status, uint64_t bit)
{
	if (inc > mask - *ctr)
		*status |= bit;
	*ctr = (*ctr + inc) & mask;
}

/* What one programmable counter counts this window (doc/hardware.md
 * section 4). */
static uint64_t
gp_inc(const struct vpmu *v, const struct wthread *t, const struct wcore *w, uint64_t sel)
{
	unsigned event = sel & 0xFF, umask = (sel >> 8) & 0xFF;
	bool any = (sel & EVTSEL_ANY) != 0;

	if (!(sel & EVTSEL_EN) || !(sel & (EVTSEL_USR | EVTSEL_OS)))
		return 0;
	if (sel & (EVTSEL_EDGE | EVTSEL_INV | EVTSEL_CMASK))
		return 0;               /* not modelled: counts nothing */
	if (event == 0x3C && umask == 0x00)
		return any ? w->any_cycles : t->cycles;
	if (event == 0x3C && umask == 0x01) {
		if (v->nhm)             /* REF_P at TSC rate */
			return any ? w->any_ticks : t->active;
		return any ? w->any_grid : t->ref;
	}
	if (event == 0x3C && umask == 0x02 && !v->nhm)
		return t->ota;
	if (event == 0xC0 && umask == 0x00)
		return t->instr;
	return 0;
}

static void
apply(struct vpmu *v, struct vcpu *c, const struct wthread *t, const struct wcore *w)
{
	unsigned i, f;
	uint64_t inc;

	c->mperf += t->active;
	c->aperf += t->cycles;
	if (v->amd) {
		if (c->hwcr & HWCR_IRPERF)
			c->irperf = (c->irperf + t->instr) & IRPERF_MASK;
		return;
	}
	for (i = 0; i < v->n_gp; i++) {
		if (!(c->gctrl & (1ull << i)))
			continue;
		inc = gp_inc(v, t, w, c->sel[i]);
		ctr_add(&c->pmc[i], inc, v->gp_mask, &c->gstatus, 1ull << i);
	}
	for (i = 0; i < v->n_fixed; i++) {
		f = (c->fctrl >> (4 * i)) & 0xF;
		if (!(f & FIXED_OS_USR) || !(c->gctrl & (1ull << (32 + i))))
			continue;
		if (i == 0)
			inc = (f & FIXED_ANY) ? w->instr_sum : t->instr;
		else if (i == 1)
			inc = (f & FIXED_ANY) ? w->any_cycles : t->cycles;
		else
			inc = v->scale * ((f & FIXED_ANY) ? w->any_grid : t->ref);
		ctr_add(&c->fixed[i], inc, v->fixed_mask, &c->gstatus, 1ull << (32 + i));
	}
}

/* Windows are bounded so that the 128-bit sums of a window stay far from
 * overflow (2^40 ticks x 2^32 kHz x 2^32 IPC/1000 < 2^104). */
#define MAX_WINDOW (1ull << 40)

/* Bring core k's counters and truth up to now. The counters of a core
 * change only through its own activity and its threads' registers, and a
 * register is written only after this ran for its core, so counting the
 * core lazily, on access, gives exactly what counting it at every tick
 * would: per window the counts are additive and the remainders carry. */
static void
catch_up(struct vpmu *v, struct vcore *k)
{
	struct wcore w;
	uint64_t t1;
	unsigned j;

	while (k->upto < v->now) {
		t1 = v->now - k->upto > MAX_WINDOW ? k->upto + MAX_WINDOW : v->now;
		sweep_core(v, k, k->upto, t1, &w);
		k->upto = t1;
		v->nwindows++;
		if (w.any_ticks == 0)
			continue;
		for (j = 0; j < k->nthreads; j++)
			if (v->cpu[k->cpu[j]].present)
				apply(v, &v->cpu[k->cpu[j]], &w.t[j], &w);
	}
}

/* The core of a CPU, caught up (NULL: the CPU is in no core and counts
 * nothing). */
static void
catch_up_cpu(struct vpmu *v, unsigned cpu)
{
	unsigned c = v->cpu[cpu].core;

	if (c < v->ncores)
		catch_up(v, &v->core[c]);
}

void
vpmu_advance(struct vpmu *v, uint64_t ticks)
{
	v->now += ticks;        /* the cores follow when next looked at */
}

/* ---- construction ------------------------------------------------------------ */

static uint64_t
width_mask(unsigned w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

struct vpmu *
vpmu_new(const struct machine *m, const struct scenario *sc, uint64_t seed)
{
	const struct topology *t = &m->topo;
	const struct cpu_identity *id = &m->id;
	struct vpmu *v = xcalloc(1, sizeof *v);
	unsigned i, j;

	v->group = m->group;
	v->amd = m->group == UARCH_ZEN || id->vendor == CPU_VENDOR_AMD;
	v->nhm = m->group == UARCH_NHM;
	v->any_ok = !id->anythread_deprecated && (id->pmu_version == 0 || id->pmu_version >= 3);
	v->n_gp = id->n_gp ? (id->n_gp > MAX_GP ? MAX_GP : id->n_gp) : 4;
	v->n_fixed = id->n_fixed ? (id->n_fixed > MAX_FIXED ? MAX_FIXED : id->n_fixed) : 3;
	v->gp_mask = width_mask(id->gp_width ? id->gp_width : 48);
	v->fixed_mask = width_mask(id->fixed_width ? id->fixed_width : 48);
	v->tsc_hz = sim_tsc_hz(id);
	v->tsc_khz = (uint64_t)llround(v->tsc_hz / 1e3);
	if (v->tsc_khz == 0)
		v->tsc_khz = 1;
	v->base_ratio = id->base_ratio ? id->base_ratio :
	    (unsigned)llround(v->tsc_hz / identity_bus_hz(id));
	v->scale = sim_scale(v, id);

	v->max_cpu = t->max_cpu;
	v->cpu = xcalloc(v->max_cpu ? v->max_cpu : 1, sizeof *v->cpu);
	for (i = 0; i < v->max_cpu; i++) {
		struct vcpu *c = &v->cpu[i];
		const struct activity *a = NULL;

		c->present = t->cpus[i].present;
		c->online = c->present && t->cpus[i].online;
		c->core = t->cpus[i].core;
		c->thread = t->cpus[i].thread;
		/* Linux sets IRPerfEn at boot on every Zen that has IRPerfCount
		 * (arch/x86/kernel/cpu/amd.c): a fresh AMD node counts. */
		c->hwcr = v->amd ? HWCR_IRPERF : 0;
		if (sc != NULL && sc->cpu != NULL && i < sc->max_cpu)
			a = &sc->cpu[i];
		/* a distinct, reproducible stream per CPU */
		act_init_v(v, &c->act, a, seed ^ (0xD1B54A32D192ED03ull * (i + 1)));
	}
	v->ncores = t->ncores;
	v->core = xcalloc(v->ncores ? v->ncores : 1, sizeof *v->core);
	for (i = 0; i < v->ncores; i++) {
		const struct topo_core *tc = &t->cores[i];

		v->core[i].nthreads = 0;
		for (j = 0; j < tc->nthreads && j < TOPO_MAX_SMT; j++)
			if (tc->cpus[j] < v->max_cpu)
				v->core[i].cpu[v->core[i].nthreads++] = tc->cpus[j];
	}
	return v;
}

void
vpmu_free(struct vpmu *v)
{
	if (v == NULL)
		return;
	free(v->cpu);
	free(v->core);
	free(v);
}

/* ---- register access -------------------------------------------------------- */

/* Every access is an IPI: time passes first, then the CPU answers, its
 * core counted up to that moment. */
static int
access_cpu(struct vpmu *v, unsigned cpu, struct vcpu **out, bool clock)
{
	struct vcpu *c;
	int err;

	if (clock)
		v->now += v->cost;
	if (cpu >= v->max_cpu || !v->cpu[cpu].present)
		return -ENXIO;
	c = &v->cpu[cpu];
	if (c->fail) {
		err = c->fail;
		c->fail = 0;
		return -err;
	}
	if (!c->online)
		return -ENXIO;
	catch_up_cpu(v, cpu);
	*out = c;
	return 0;
}

static bool
is_gp(const struct vpmu *v, uint32_t msr, uint32_t base, unsigned *i)
{
	if (msr < base || msr >= base + v->n_gp)
		return false;
	*i = msr - base;
	return true;
}

int
vpmu_rdmsr(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct vcpu *c;
	unsigned i;
	int rc;

	if ((rc = access_cpu(v, cpu, &c, true)) != 0)
		return rc;
	switch (msr) {
	case MSR_TSC:
		*val = v->now + c->tsc_off;
		return 0;
	case MSR_MPERF:
		*val = c->mperf;
		return 0;
	case MSR_APERF:
		*val = c->aperf;
		return 0;
	}
	if (v->amd) {
		if (msr == MSR_AMD_IRPERF)
			*val = c->irperf;
		else if (msr == MSR_AMD_HWCR)
			*val = c->hwcr;
		else
			return -EIO;
		return 0;
	}
	if (is_gp(v, msr, MSR_PMC0, &i) || is_gp(v, msr, 0x4C1, &i))
		*val = c->pmc[i];
	else if (is_gp(v, msr, MSR_PERFEVTSEL0, &i))
		*val = c->sel[i];
	else if (msr >= MSR_FIXED_CTR0 && msr < MSR_FIXED_CTR0 + v->n_fixed)
		*val = c->fixed[msr - MSR_FIXED_CTR0];
	else if (msr == MSR_PLATFORM_INFO)
		*val = (uint64_t)(v->base_ratio & 0xFF) << 8;
	else if (msr == MSR_FIXED_CTR_CTRL)
		*val = c->fctrl;
	else if (msr == MSR_PERF_GLOBAL_STATUS)
		*val = c->gstatus;
	else if (msr == MSR_PERF_GLOBAL_CTRL)
		*val = c->gctrl;
	else if (msr == MSR_PERF_GLOBAL_OVF_CTRL)
		*val = 0;
	else
		return -EIO;
	return 0;
}

/* Bits software may set, per register (anything else is a #GP). */
static uint64_t
evtsel_ok(const struct vpmu *v)
{
	uint64_t ok = 0xFFFFFFFFull;

	if (!v->any_ok)
		ok &= ~EVTSEL_ANY;
	if (v->group == UARCH_SKX || v->group == UARCH_ICX)
		ok |= EVTSEL_TSX;
	return ok;
}

static uint64_t
fctrl_ok(const struct vpmu *v)
{
	uint64_t ok = 0, f = FIXED_OS_USR | FIXED_PMI | (v->any_ok ? FIXED_ANY : 0);
	unsigned i;

	for (i = 0; i < v->n_fixed; i++)
		ok |= f << (4 * i);
	return ok;
}

static uint64_t
global_ok(const struct vpmu *v)
{
	return width_mask(v->n_gp) | (width_mask(v->n_fixed) << 32);
}

/* A masked write: refused (#GP) when it sets bits outside `ok` and the
 * write is checked, else stored clipped to them. */
static int
put(uint64_t *reg, uint64_t val, uint64_t ok, bool check)
{
	if (check && (val & ~ok))
		return -EIO;
	*reg = val & ok;
	return 0;
}

/* The counters: programmable (the legacy alias and the full-width one) and
 * fixed. 1: not one of them. */
static int
store_counter(struct vpmu *v, struct vcpu *c, uint32_t msr, uint64_t val, bool check)
{
	unsigned i;

	if (is_gp(v, msr, MSR_PMC0, &i)) {
		/* legacy alias: bits 31:0 written, sign-extended (SDM 18.2.6) */
		uint64_t x = val & 0xFFFFFFFFull;

		if (x & 0x80000000ull)
			x |= ~0xFFFFFFFFull;
		c->pmc[i] = check ? x & v->gp_mask : val & v->gp_mask;
		return 0;
	}
	if (is_gp(v, msr, 0x4C1, &i))
		return put(&c->pmc[i], val, v->gp_mask, check);
	if (is_gp(v, msr, MSR_PERFEVTSEL0, &i))
		return put(&c->sel[i], val, evtsel_ok(v), check);
	if (msr >= MSR_FIXED_CTR0 && msr < MSR_FIXED_CTR0 + v->n_fixed)
		return put(&c->fixed[msr - MSR_FIXED_CTR0], val, v->fixed_mask, check);
	return 1;
}

/* The control and status registers of Intel's architectural PMU. */
static int
store_control(struct vpmu *v, struct vcpu *c, uint32_t msr, uint64_t val, bool check)
{
	switch (msr) {
	case MSR_PLATFORM_INFO:
		return check ? -EIO : 0;
	case MSR_FIXED_CTR_CTRL:
		return put(&c->fctrl, val, fctrl_ok(v), check);
	case MSR_PERF_GLOBAL_STATUS:
		if (check)
			return -EIO;    /* read-only */
		c->gstatus = val & global_ok(v);
		return 0;
	case MSR_PERF_GLOBAL_CTRL:
		return put(&c->gctrl, val, global_ok(v), check);
	case MSR_PERF_GLOBAL_OVF_CTRL:
		if (check && (val & ~(global_ok(v) | OVF_CTRL_HI)))
			return -EIO;
		c->gstatus &= ~val;
		return 0;
	}
	return -EIO;
}

/* A write as hardware takes it (check) or as vpmu_poke forces it (!check:
 * no #GP, values clipped to the register). */
static int
store(struct vpmu *v, struct vcpu *c, uint32_t msr, uint64_t val, bool check)
{
	int rc;

	switch (msr) {
	case MSR_TSC:
		if (check)
			return -EIO;    /* read-only here */
		c->tsc_off = val - v->now;
		return 0;
	case MSR_MPERF:
		c->mperf = val;
		return 0;
	case MSR_APERF:
		c->aperf = val;
		return 0;
	}
	if (v->amd) {
		if (msr == MSR_AMD_IRPERF)
			return put(&c->irperf, val, IRPERF_MASK, check);
		if (msr != MSR_AMD_HWCR)
			return -EIO;
		c->hwcr = val;
		return 0;
	}
	if ((rc = store_counter(v, c, msr, val, check)) <= 0)
		return rc;
	return store_control(v, c, msr, val, check);
}

static int
wrmsr(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t val, bool clock)
{
	struct vcpu *c;
	int rc;

	if ((rc = access_cpu(v, cpu, &c, clock)) != 0)
		return rc;
	if ((rc = store(v, c, msr, val, true)) != 0)
		return rc;
	v->nwrites++;
	return 0;
}

int
vpmu_wrmsr(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t val)
{
	return wrmsr(v, cpu, msr, val, true);
}

int
vpmu_wrmsr_async(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t val)
{
	return wrmsr(v, cpu, msr, val, false);
}

void
vpmu_poke(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t val)
{
	if (cpu < v->max_cpu && v->cpu[cpu].present) {
		catch_up_cpu(v, cpu);
		(void)store(v, &v->cpu[cpu], msr, val, false);
	}
}

/* ---- the rest ------------------------------------------------------------------ */

uint64_t
vpmu_now(const struct vpmu *v)
{
	return v->now;
}

double
vpmu_tsc_hz(const struct vpmu *v)
{
	return v->tsc_hz;
}

uint64_t
vpmu_ref_scale(const struct vpmu *v)
{
	return v->scale;
}

void
vpmu_set_access_cost(struct vpmu *v, uint64_t ticks)
{
	v->cost = ticks;
}

void
vpmu_truth(struct vpmu *v, unsigned core, uint64_t out[4])
{
	if (core >= v->ncores) {
		memset(out, 0, 4 * sizeof *out);
		return;
	}
	catch_up(v, &v->core[core]);
	memcpy(out, v->core[core].truth, 4 * sizeof *out);
}

void
vpmu_set_online(struct vpmu *v, unsigned cpu, bool online)
{
	if (cpu < v->max_cpu && v->cpu[cpu].present) {
		catch_up_cpu(v, cpu);
		v->cpu[cpu].online = online;
	}
}

void
vpmu_fail_next(struct vpmu *v, unsigned cpu, int err)
{
	if (cpu < v->max_cpu)
		v->cpu[cpu].fail = err < 0 ? -err : err;
}

uint64_t
vpmu_writes(const struct vpmu *v)
{
	return v->nwrites;
}

uint64_t
vpmu_windows(const struct vpmu *v)
{
	return v->nwindows;
}

bool
vpmu_cpu_present(const struct vpmu *v, unsigned cpu)
{
	return cpu < v->max_cpu && v->cpu[cpu].present;
}

bool
vpmu_cpu_online(const struct vpmu *v, unsigned cpu)
{
	return vpmu_cpu_present(v, cpu) && v->cpu[cpu].online;
}
