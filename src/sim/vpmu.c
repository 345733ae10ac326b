/* vpmu.c: the virtual PMU. Time runs in TSC ticks. Each advance turns every
 * CPU's activity into a list of active segments, sweeps the segments of a
 * core's threads together (so every tick is known to be neither / t0 only /
 * t1 only / both), and adds to each counter exactly what its programming
 * says it counts over those segments. Reference-clock events count grid
 * points k*S inside the segments, as hardware counts edges of a slower
 * clock. Register rules: Intel SDM vol. 3B ch. 18-20, doc/hardware.md
 * sections 3-4. */
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

struct segbuf {
	struct seg *s;
	size_t n, cap;
};

/* One non-phased activity, converted to ticks. */
struct leaf {
	enum activity_kind kind;
	uint64_t period, on, shift;     /* duty */
	double on_mean, off_mean;       /* bursts, ticks */
	uint32_t fkhz, ipcm;
	uint64_t rng;                   /* bursts: splitmix64 state */
	bool bon;                       /* bursts: currently on */
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
	struct segbuf segs;

	/* this window's increments, and the remainders carried between windows
	 * so that cycle and instruction counts stay exact over any split */
	uint64_t w_active, w_cycles, w_instr, w_ref, w_ota;
	uint64_t cyc_rem;
	u128 ins_rem;
};

struct vcore {
	unsigned nthreads;
	unsigned cpu[TOPO_MAX_SMT];
	uint64_t truth[4];
	uint64_t w_any_ticks, w_any_grid, w_any_cycles, w_instr_sum;
	uint64_t any_rem;
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

	uint64_t now, cost, nwrites;
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

static void
emit(struct segbuf *sb, uint64_t a, uint64_t b, const struct leaf *l)
{
	struct seg *last = sb->n ? &sb->s[sb->n - 1] : NULL;

	if (a >= b)
		return;
	if (last != NULL && last->b == a && last->fkhz == l->fkhz && last->ipcm == l->ipcm) {
		last->b = b;
		return;
	}
	if (sb->n == sb->cap) {
		sb->cap = sb->cap ? sb->cap * 2 : 64;
		sb->s = xreallocarray(sb->s, sb->cap, sizeof *sb->s);
	}
	sb->s[sb->n++] = (struct seg){ a, b, l->fkhz, l->ipcm };
}

/* Active segments of one leaf in [a, b), in time order. Calls for one leaf
 * come in increasing time (bursts keep state), possibly with gaps. */
static void
leaf_gen(struct leaf *l, uint64_t a, uint64_t b, struct segbuf *out)
{
	int64_t s;
	uint64_t cur, end, rel;

	switch (l->kind) {
	case ACT_IDLE:
	case ACT_PHASES:
		return;
	case ACT_BUSY:
		emit(out, a, b, l);
		return;
	case ACT_DUTY:
		if (l->on == 0)
			return;
		if (l->on >= l->period) {
			emit(out, a, b, l);
			return;
		}
		/* start of the period holding a: active in [s, s + on) */
		rel = (a % l->period + l->period - l->shift) % l->period;
		for (s = (int64_t)a - (int64_t)rel; s < (int64_t)b; s += (int64_t)l->period) {
			int64_t hi = s + (int64_t)l->on;
			uint64_t lo = s < (int64_t)a ? a : (uint64_t)s;

			if (hi > (int64_t)lo)
				emit(out, lo, (uint64_t)hi < b ? (uint64_t)hi : b, l);
		}
		return;
	case ACT_BURSTS:
		while (l->until <= a)
			burst_flip(l);
		for (cur = a; cur < b; ) {
			end = l->until < b ? l->until : b;
			if (l->bon)
				emit(out, cur, end, l);
			cur = end;
			if (cur == l->until)
				burst_flip(l);
		}
		return;
	}
}

static void
act_gen(struct vact *va, uint64_t a, uint64_t b, struct segbuf *out)
{
	uint64_t t, k, end;

	if (!va->phased) {
		leaf_gen(&va->top, a, b, out);
		return;
	}
	for (t = a; t < b; t = end) {
		k = t / va->len;
		end = (k + 1) * va->len;
		if (end > b)
			end = b;
		leaf_gen(&va->sub[k % va->nsub], t, end, out);
	}
}

/* ---- one window ----------------------------------------------------------- */

/* Reference-clock edges (multiples of S) in [a, b). */
static inline uint64_t
grid(uint64_t S, uint64_t a, uint64_t b)
{
	return (b + S - 1) / S - (a + S - 1) / S;
}

static void
sweep_core(struct vpmu *v, struct vcore *k, uint64_t t0, uint64_t t1)
{
	struct vcpu *th[TOPO_MAX_SMT];
	size_t idx[TOPO_MAX_SMT] = { 0 };
	u128 cyc[TOPO_MAX_SMT] = { 0 }, ins[TOPO_MAX_SMT] = { 0 }, anycyc = 0, tot;
	uint64_t act[TOPO_MAX_SMT] = { 0 }, ref[TOPO_MAX_SMT] = { 0 }, ota[TOPO_MAX_SMT] = { 0 };
	uint32_t ipcm[TOPO_MAX_SMT];
	uint64_t any_ticks = 0, any_grid = 0, cur, next, len, g, S = v->scale;
	unsigned j, n = k->nthreads, mask;
	uint32_t f;

	for (j = 0; j < n; j++)
		th[j] = &v->cpu[k->cpu[j]];
	for (cur = t0; cur < t1; cur = next) {
		next = t1;
		mask = 0;
		f = 0;
		for (j = 0; j < n; j++) {
			const struct segbuf *sb = &th[j]->segs;
			const struct seg *s;

			while (idx[j] < sb->n && sb->s[idx[j]].b <= cur)
				idx[j]++;
			if (idx[j] == sb->n)
				continue;
			s = &sb->s[idx[j]];
			if (s->a <= cur) {
				mask |= 1u << j;
				ipcm[j] = s->ipcm;
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
			if (!(mask & (1u << j)))
				continue;
			act[j] += len;
			ref[j] += g;
			cyc[j] += (u128)len * f;
			ins[j] += (u128)len * f * ipcm[j];
			if (mask == 1u << j)
				ota[j] += g;
		}
		if (n == 2)
			k->truth[mask] += len;   /* 1 t0 only, 2 t1 only, 3 both */
		else
			k->truth[1] += len;
	}

	k->w_any_ticks = any_ticks;
	k->w_any_grid = any_grid;
	tot = anycyc + k->any_rem;
	k->w_any_cycles = (uint64_t)(tot / v->tsc_khz);
	k->any_rem = (uint64_t)(tot % v->tsc_khz);
	k->w_instr_sum = 0;
	for (j = 0; j < n; j++) {
		struct vcpu *c = th[j];

		c->w_active = act[j];
		c->w_ref = ref[j];
		c->w_ota = ota[j];
		tot = cyc[j] + c->cyc_rem;
		c->w_cycles = (uint64_t)(tot / v->tsc_khz);
		c->cyc_rem = (uint64_t)(tot % v->tsc_khz);
		tot = ins[j] + c->ins_rem;
		c->w_instr = (uint64_t)(tot / ((u128)v->tsc_khz * 1000));
		c->ins_rem = tot % ((u128)v->tsc_khz * 1000);
		k->w_instr_sum += c->w_instr;
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
gp_inc(const struct vpmu *v, const struct vcpu *c, const struct vcore *k, uint64_t sel)
{
	unsigned event = sel & 0xFF, umask = (sel >> 8) & 0xFF;
	bool any = (sel & EVTSEL_ANY) != 0;

	if (!(sel & EVTSEL_EN) || !(sel & (EVTSEL_USR | EVTSEL_OS)))
		return 0;
	if (sel & (EVTSEL_EDGE | EVTSEL_INV | EVTSEL_CMASK))
		return 0;               /* not modelled: counts nothing */
	if (event == 0x3C && umask == 0x00)
		return any ? k->w_any_cycles : c->w_cycles;
	if (event == 0x3C && umask == 0x01) {
		if (v->nhm)             /* REF_P at TSC rate */
			return any ? k->w_any_ticks : c->w_active;
		return any ? k->w_any_grid : c->w_ref;
	}
	if (event == 0x3C && umask == 0x02 && !v->nhm)
		return c->w_ota;
	if (event == 0xC0 && umask == 0x00)
		return c->w_instr;
	return 0;
}

static void
apply(struct vpmu *v, struct vcpu *c)
{
	const struct vcore *k = &v->core[c->core];
	unsigned i, f;
	uint64_t inc;

	c->mperf += c->w_active;
	c->aperf += c->w_cycles;
	if (v->amd) {
		if (c->hwcr & HWCR_IRPERF)
			c->irperf = (c->irperf + c->w_instr) & IRPERF_MASK;
		return;
	}
	for (i = 0; i < v->n_gp; i++) {
		if (!(c->gctrl & (1ull << i)))
			continue;
		inc = gp_inc(v, c, k, c->sel[i]);
		ctr_add(&c->pmc[i], inc, v->gp_mask, &c->gstatus, 1ull << i);
	}
	for (i = 0; i < v->n_fixed; i++) {
		f = (c->fctrl >> (4 * i)) & 0xF;
		if (!(f & FIXED_OS_USR) || !(c->gctrl & (1ull << (32 + i))))
			continue;
		if (i == 0)
			inc = (f & FIXED_ANY) ? k->w_instr_sum : c->w_instr;
		else if (i == 1)
			inc = (f & FIXED_ANY) ? k->w_any_cycles : c->w_cycles;
		else
			inc = v->scale * ((f & FIXED_ANY) ? k->w_any_grid : c->w_ref);
		ctr_add(&c->fixed[i], inc, v->fixed_mask, &c->gstatus, 1ull << (32 + i));
	}
}

static void
advance_window(struct vpmu *v, uint64_t t0, uint64_t t1)
{
	unsigned i;

	for (i = 0; i < v->max_cpu; i++) {
		struct vcpu *c = &v->cpu[i];

		c->segs.n = 0;
		if (c->present && c->online)
			act_gen(&c->act, t0, t1, &c->segs);
	}
	for (i = 0; i < v->ncores; i++)
		sweep_core(v, &v->core[i], t0, t1);
	for (i = 0; i < v->max_cpu; i++)
		if (v->cpu[i].present)
			apply(v, &v->cpu[i]);
}

void
vpmu_advance(struct vpmu *v, uint64_t ticks)
{
	/* windows of at most ~1 s bound the segment buffers */
	uint64_t step = v->tsc_khz * 1000, n;

	while (ticks > 0) {
		n = ticks < step ? ticks : step;
		advance_window(v, v->now, v->now + n);
		v->now += n;
		ticks -= n;
	}
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
	unsigned i;

	if (v == NULL)
		return;
	for (i = 0; i < v->max_cpu; i++)
		free(v->cpu[i].segs.s);
	free(v->cpu);
	free(v->core);
	free(v);
}

/* ---- register access -------------------------------------------------------- */

/* Every access is an IPI: time passes first, then the CPU answers. */
static int
access_cpu(struct vpmu *v, unsigned cpu, struct vcpu **out, bool clock)
{
	struct vcpu *c;
	int err;

	if (clock && v->cost)
		vpmu_advance(v, v->cost);
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

/* A write as hardware takes it (check) or as vpmu_poke forces it (!check:
 * no #GP, values clipped to the register). */
static int
store(struct vpmu *v, struct vcpu *c, uint32_t msr, uint64_t val, bool check)
{
	unsigned i;
	uint64_t ok;

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
		if (msr == MSR_AMD_IRPERF) {
			if (check && (val & ~IRPERF_MASK))
				return -EIO;
			c->irperf = val & IRPERF_MASK;
		} else if (msr == MSR_AMD_HWCR) {
			c->hwcr = val;
		} else {
			return -EIO;
		}
		return 0;
	}
	if (is_gp(v, msr, MSR_PMC0, &i)) {
		/* legacy alias: bits 31:0 written, sign-extended (SDM 18.2.6) */
		uint64_t x = val & 0xFFFFFFFFull;

		if (x & 0x80000000ull)
			x |= ~0xFFFFFFFFull;
		c->pmc[i] = check ? x & v->gp_mask : val & v->gp_mask;
		return 0;
	}
	if (is_gp(v, msr, 0x4C1, &i)) {
		if (check && (val & ~v->gp_mask))
			return -EIO;
		c->pmc[i] = val & v->gp_mask;
		return 0;
	}
	if (is_gp(v, msr, MSR_PERFEVTSEL0, &i)) {
		ok = evtsel_ok(v);
		if (check && (val & ~ok))
			return -EIO;
		c->sel[i] = val & ok;
		return 0;
	}
	if (msr >= MSR_FIXED_CTR0 && msr < MSR_FIXED_CTR0 + v->n_fixed) {
		if (check && (val & ~v->fixed_mask))
			return -EIO;
		c->fixed[msr - MSR_FIXED_CTR0] = val & v->fixed_mask;
		return 0;
	}
	switch (msr) {
	case MSR_PLATFORM_INFO:
		return check ? -EIO : 0;
	case MSR_FIXED_CTR_CTRL:
		ok = fctrl_ok(v);
		if (check && (val & ~ok))
			return -EIO;
		c->fctrl = val & ok;
		return 0;
	case MSR_PERF_GLOBAL_STATUS:
		if (check)
			return -EIO;    /* read-only */
		c->gstatus = val & global_ok(v);
		return 0;
	case MSR_PERF_GLOBAL_CTRL:
		ok = global_ok(v);
		if (check && (val & ~ok))
			return -EIO;
		c->gctrl = val & ok;
		return 0;
	case MSR_PERF_GLOBAL_OVF_CTRL:
		ok = global_ok(v) | OVF_CTRL_HI;
		if (check && (val & ~ok))
			return -EIO;
		c->gstatus &= ~val;
		return 0;
	}
	return -EIO;
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
	if (cpu < v->max_cpu && v->cpu[cpu].present)
		(void)store(v, &v->cpu[cpu], msr, val, false);
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
	memcpy(out, v->core[core].truth, 4 * sizeof *out);
}

void
vpmu_set_online(struct vpmu *v, unsigned cpu, bool online)
{
	if (cpu < v->max_cpu && v->cpu[cpu].present)
		v->cpu[cpu].online = online;
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
