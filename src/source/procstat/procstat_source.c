/* procstat_source.c: the last resort, where no counter can be opened:
 * each CPU's busy time as the kernel's accounting gives it in /proc/stat.
 *
 * A sample has three slots per CPU, in one unit, the microsecond (a
 * trace's scale must stay below 2^20: a tick is 10,000 of them):
 *   TSC  the monotonic clock at the read, the same for every CPU (the file
 *        is read once for all CPUs, so siblings are never read apart);
 *   REF  the CPU's busy time: the time since the source opened less the
 *        growth of idle + iowait + steal since the CPU's line was first
 *        seen, the file's USER_HZ ticks (sysconf(_SC_CLK_TCK)) in
 *        microseconds. Idle and iowait are idle; steal is time the
 *        hypervisor ran something else while this virtual CPU waited, so
 *        it was not running: not busy.
 *        Why not user + nice + system + irq + softirq: the kernel charges
 *        those a whole tick at a time to whatever runs when the tick
 *        comes, so a load whose period is near the tick's is sampled at
 *        the same phase every time (a 50% load on a 5 ms period read 40%
 *        on a 4 ms tick, where the scheduler's record said 49%). A
 *        tickless kernel (NO_HZ_IDLE, the usual one) keeps idle time to
 *        the microsecond, short tasks between ticks included, and prints
 *        it in whole ticks, so a reading is off by less than one tick.
 *        The count never goes back: a reading's rounding that would make
 *        it shrink keeps the last value.
 *   STEAL the CPU's steal column, the kernel's own count (USER_HZ ticks)
 *        in microseconds: the time a hypervisor ran something else while
 *        this virtual CPU wanted to run. The metrics show it as the
 *        thread's steal share, STEAL / TSC (httop(1), FIGURES).
 * So REF / TSC is the CPU's utilisation as the kernel counts it, and the
 * metrics make the four-way split the bound from the two utilisations
 * (SPLIT_BOUND), exactly as for a PMU without AnyThread. There are no
 * instructions or cycles: CPI and GHz are absent (R_NOT_COUNTED).
 *
 * The idle, iowait and steal columns are printed in whole ticks
 * (httop(1), SOURCES): the plan's scale is the tick, so the tolerance of
 * the invariants (a thread's busy time may pass the interval by a tick or
 * two, from that rounding) is in ticks too. It is no counters' scale S:
 * the outputs show none (plan_has_scale).
 *
 * A CPU that goes offline has no line in the file: it is CPU_OFFLINE
 * until its line comes back; its busy count then carries on from where
 * it was (the time it was away is not counted busy). One that went and
 * came back between two reads is told by time no column accounts for
 * (was_away).
 * A refresh is one pread() of the file's head (the cpu lines come first;
 * the buffer is sized once for them) and one parse without allocation. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "source/sources.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* The fields of a cpu line, in the order the kernel prints them. */
enum {
	F_USER, F_NICE, F_SYSTEM, F_IDLE, F_IOWAIT, F_IRQ, F_SOFTIRQ, F_STEAL, F_GUEST,
	F_GUEST_NICE, F_COUNT
};

struct procstat {
	struct source src;          /* first: s->priv points back here */
	int fd;
	char path[256];
	char *buf;                  /* the file's head: every cpu line */
	size_t cap;
	unsigned max_cpu;
	long user_hz;
	double start;               /* clock_mono() at open */
	uint64_t seq;
	double (*clock)(void);      /* clock_mono(), or a test's */
	uint8_t *seen;              /* per CPU: a line this read */
	uint8_t *was;               /* per CPU: a line the last read */
	uint64_t *idle;             /* per CPU: idle + iowait + steal ticks of this read */
	uint64_t *steal;            /* per CPU: steal ticks of this read */
	uint64_t *cols;             /* per CPU: user + nice + system + irq + softirq ticks */
	uint64_t *pidle, *pcols;    /* per CPU: the same at the last read */
	uint64_t last_us;           /* the last read's time since open */
	int64_t *base;              /* per CPU: busy_us = now_us - idle_us + base */
	uint64_t *busy;             /* per CPU: busy microseconds (REF) */
};

static struct procstat *
ps_of(const struct source *s)
{
	return s->priv;
}

/* Read the head of the file into ps->buf, NUL-terminated, up to the
 * first line that is not a cpu line (or the end). The buffer grows only
 * when the cpu lines outgrow it (more CPUs than at open). Returns the
 * length, or -1 with errno. */
static ssize_t
read_head(struct procstat *ps)
{
	for (;;) {
		ssize_t n = pread(ps->fd, ps->buf, ps->cap - 1, 0);
		char *nl;

		if (n < 0)
			return -1;
		ps->buf[n] = '\0';
		/* The cpu lines end where a line starts otherwise ("intr"). */
		nl = ps->buf;
		while ((nl = strchr(nl, '\n')) != NULL && strncmp(nl + 1, "cpu", 3) == 0)
			nl++;
		if ((nl != NULL && nl[1] != '\0') || (size_t)n < ps->cap - 1)
			return n;
		ps->cap *= 2;
		ps->buf = xrealloc(ps->buf, ps->cap);
	}
}

/* One unsigned decimal at *p, skipping blanks; 0 if none. */
static uint64_t
field(const char **p)
{
	const char *q = *p;
	uint64_t v = 0;

	while (*q == ' ' || *q == '\t')
		q++;
	while (*q >= '0' && *q <= '9')
		v = v * 10 + (uint64_t)(*q++ - '0');
	*p = q;
	return v;
}

/* Every "cpuN ..." line of the buffer into seen[] and idle[]. Returns
 * how many CPUs of the topology had a line. */
static unsigned
parse(struct procstat *ps)
{
	const char *p = ps->buf;
	unsigned found = 0;

	memset(ps->seen, 0, ps->max_cpu);
	while (strncmp(p, "cpu", 3) == 0) {
		const char *q = p + 3;
		uint64_t f[F_COUNT];
		unsigned k;

		if (*q >= '0' && *q <= '9') {
			uint64_t cpu = field(&q);

			for (k = 0; k < F_COUNT; k++)
				f[k] = field(&q);
			if (cpu < ps->max_cpu) {
				ps->idle[cpu] = f[F_IDLE] + f[F_IOWAIT] + f[F_STEAL];
				ps->steal[cpu] = f[F_STEAL];
				ps->cols[cpu] = f[F_USER] + f[F_NICE] + f[F_SYSTEM] + f[F_IRQ] +
				    f[F_SOFTIRQ];
				ps->seen[cpu] = 1;
				found++;
			}
		}
		p = strchr(p, '\n');
		if (p == NULL)
			break;
		p++;
	}
	return found;
}

static int
procstat_program(struct source *s, const struct plan *p, bool force, struct errmsg *e)
{
	(void)s;
	(void)p;
	(void)force;
	(void)e;
	return 0;   /* nothing to program: the kernel counts anyway */
}

/* Was the CPU away (offline, then back) since the last read, though both
 * reads found its line? While offline no column of its line grows, so
 * the time would count as busy: time that neither the idle columns nor
 * the busy ones (a tick sample of the busy time) account for, over a
 * quarter of the interval and 4 ticks. (Only bursts shorter than a tick
 * can hide from the busy columns: a load in step with the tick hid a
 * fifth of its busy time; an absence shorter than that limit still
 * counts as busy, httop(1) says so.) */
static bool
was_away(const struct procstat *ps, unsigned cpu, uint64_t now_us)
{
	uint64_t tick = 1000000u / (uint64_t)ps->user_hz, dt = now_us - ps->last_us;
	uint64_t seen = (ps->idle[cpu] - ps->pidle[cpu] + ps->cols[cpu] - ps->pcols[cpu]) * tick;
	uint64_t limit = dt / 4 > 4 * tick ? dt / 4 : 4 * tick;

	return ps->was[cpu] && ps->idle[cpu] >= ps->pidle[cpu] && ps->cols[cpu] >= ps->pcols[cpu] &&
	    seen < dt && dt - seen > limit;
}

/* The CPU's busy microseconds at `now_us` (since open): the time less
 * what it spent idle. A CPU seen for the first time, or again after it
 * was offline, starts from its last count. Returns true when it was away
 * since the last read (was_away): that read is then offline. */
static bool
advance(struct procstat *ps, unsigned cpu, uint64_t now_us)
{
	int64_t idle_us = (int64_t)(ps->idle[cpu] * 1000000u / (uint64_t)ps->user_hz), b;
	bool away = was_away(ps, cpu, now_us);

	if (!ps->was[cpu] || away)
		ps->base[cpu] = (int64_t)ps->busy[cpu] - (int64_t)now_us + idle_us;
	b = (int64_t)now_us - idle_us + ps->base[cpu];
	if (b > (int64_t)ps->busy[cpu])
		ps->busy[cpu] = (uint64_t)b;
	ps->pidle[cpu] = ps->idle[cpu];
	ps->pcols[cpu] = ps->cols[cpu];
	return away;
}

static void
fill_row(const struct procstat *ps, const struct plan *p, struct sample *out, unsigned cpu,
    uint64_t now)
{
	uint64_t *row = sample_row(out, cpu);
	unsigned k;

	for (k = 0; k < p->nslots && k < out->nslots; k++) {
		switch (p->slots[k].kind) {
		case SLOT_TSC:
			row[k] = now;
			break;
		case SLOT_REF:
			row[k] = ps->busy[cpu];
			break;
		case SLOT_STEAL:
			row[k] = ps->steal[cpu] * 1000000u / (uint64_t)ps->user_hz;
			break;
		default:
			row[k] = 0;
			break;
		}
	}
}

static int
procstat_read(struct source *s, struct sample *out, struct errmsg *e)
{
	struct procstat *ps = ps_of(s);
	const struct topology *t = &s->m->topo;
	const struct plan *p = s->plan;
	double now;
	uint64_t us;
	unsigned cpu;

	if (p == NULL)
		return errmsg_set(e, _("internal error: the procstat source was read before it "
		    "was programmed"));
	if (read_head(ps) < 0)
		return errmsg_set(e, _("procstat: reading %s failed: %s"), ps->path, strerror(errno));
	now = ps->clock();
	parse(ps);
	us = (uint64_t)((now - ps->start) * 1e6 + 0.5);
	for (cpu = 0; cpu < ps->max_cpu; cpu++) {
		/* Away since the last read: this read counts as offline. */
		if (ps->seen[cpu] && advance(ps, cpu, us))
			ps->seen[cpu] = 2;
		ps->was[cpu] = ps->seen[cpu] != 0;
	}
	ps->last_us = us;
	for (cpu = 0; cpu < out->max_cpu; cpu++) {
		out->scaled[cpu] = 0;
		out->err[cpu] = 0;
		if (cpu >= t->max_cpu || !t->cpus[cpu].present || !source_cpu_selected(s, cpu)) {
			out->state[cpu] = CPU_NOT_READ;
			memset(sample_row(out, cpu), 0, (size_t)out->nslots * sizeof(uint64_t));
		} else if (cpu >= ps->max_cpu || ps->seen[cpu] != 1) {
			out->state[cpu] = CPU_OFFLINE;
			out->err[cpu] = ENXIO;
			memset(sample_row(out, cpu), 0, (size_t)out->nslots * sizeof(uint64_t));
		} else {
			out->state[cpu] = CPU_READ_OK;
			fill_row(ps, p, out, cpu, us);
		}
	}
	out->time = now - ps->start;
	out->wall = clock_wall();
	out->seq = ps->seq++;
	return 0;
}

static void
procstat_close(struct source *s)
{
	struct procstat *ps = ps_of(s);

	if (ps->fd >= 0)
		close(ps->fd);
	free(ps->buf);
	free(ps->seen);
	free(ps->was);
	free(ps->idle);
	free(ps->steal);
	free(ps->cols);
	free(ps->pidle);
	free(ps->pcols);
	free(ps->base);
	free(ps->busy);
	free(ps);
}

static const struct source_ops procstat_ops = {
	.program = procstat_program,
	.read = procstat_read,
	.close = procstat_close,
};

void
procstat_plan(struct plan *p, const struct machine *m, long user_hz)
{
	uint64_t us = user_hz > 0 ? (uint64_t)(1000000L / user_hz) : 10000u;

	memset(p, 0, sizeof *p);
	p->group = m->group;
	/* Two threads a core: the bound from the two utilisations. */
	p->split = m->topo.max_smt == 2 ? SPLIT_BOUND : SPLIT_NONE;
	p->nslots = 3;
	p->slots[0].kind = SLOT_TSC;
	p->slots[0].width = 64;
	p->slots[0].thread_mask = THREAD_ALL;
	p->slots[1].kind = SLOT_REF;
	p->slots[1].width = 64;
	p->slots[1].thread_mask = THREAD_ALL;
	p->slots[2].kind = SLOT_STEAL;
	p->slots[2].width = 64;
	p->slots[2].thread_mask = THREAD_ALL;
	/* Busy time moves a tick at a time. */
	p->scale = p->scale_expected = us > 0 ? (unsigned)us : 1;
	snprintf(p->scale_note, sizeof p->scale_note,
	    "no counters: idle, iowait and steal move in ticks of %.3g ms (USER_HZ %ld)",
	    (double)us / 1e3,
	    user_hz);
	p->basis = PLAN_BASIS_TICKS;
	p->clock_hz = 1e6;          /* its time base counts microseconds */
	snprintf(p->summary, sizeof p->summary,
	    "procstat: utilisation = 1 - (idle + iowait + steal) / time, kernel's idle "
	    "accounting (%.3g ms ticks); %s; no CPI, GHz", (double)us / 1e3,
	    p->split == SPLIT_BOUND ? "split: bounds from the utilisations" : "no split");
	plan_link(p);
}

/* The cpu lines of a machine of n CPUs: about 120 bytes each. */
static size_t
initial_cap(unsigned n)
{
	return 4096 + (size_t)n * 256;
}

struct source *
procstat_source_new(struct machine *m, struct plan *plan, const char *path, long user_hz,
    struct errmsg *e)
{
	struct procstat *ps;
	unsigned cpu, found, wanted = 0;

	ps = xcalloc(1, sizeof *ps);
	ps->src.ops = &procstat_ops;
	ps->src.priv = ps;
	ps->src.name = "procstat";
	ps->src.force_moot = N_("it reads the kernel's accounting and programs no counter");
	/* This machine's /proc/stat follows its CPUs whatever --topology
	 * declares (which of them are siblings), so --check loads them
	 * itself; a test's file is no machine's. */
	ps->src.own_cpus = path == NULL;
	ps->src.m = m;
	ps->fd = -1;
	snprintf(ps->path, sizeof ps->path, "%s", path != NULL ? path : "/proc/stat");
	ps->max_cpu = m->topo.max_cpu;
	ps->user_hz = user_hz > 0 ? user_hz : 100;
	ps->cap = initial_cap(ps->max_cpu);
	ps->buf = xmalloc(ps->cap);
	ps->seen = xcalloc(ps->max_cpu ? ps->max_cpu : 1, 1);
	ps->was = xcalloc(ps->max_cpu ? ps->max_cpu : 1, 1);
	ps->idle = xcalloc(ps->max_cpu ? ps->max_cpu : 1, sizeof *ps->idle);
	ps->steal = xcalloc(ps->max_cpu ? ps->max_cpu : 1, sizeof *ps->steal);
	ps->cols = xcalloc(ps->max_cpu ? ps->max_cpu : 1, sizeof *ps->cols);
	ps->pidle = xcalloc(ps->max_cpu ? ps->max_cpu : 1, sizeof *ps->pidle);
	ps->pcols = xcalloc(ps->max_cpu ? ps->max_cpu : 1, sizeof *ps->pcols);
	ps->base = xcalloc(ps->max_cpu ? ps->max_cpu : 1, sizeof *ps->base);
	ps->busy = xcalloc(ps->max_cpu ? ps->max_cpu : 1, sizeof *ps->busy);
	ps->clock = clock_mono;
	ps->start = clock_mono();
	if ((ps->fd = open(ps->path, O_RDONLY | O_CLOEXEC)) < 0 || read_head(ps) < 0) {
		errmsg_set(e, _("procstat: cannot read %s: %s; mount /proc"), ps->path,
		    strerror(errno));
		procstat_close(&ps->src);
		return NULL;
	}
	found = parse(ps);
	for (cpu = 0; cpu < ps->max_cpu; cpu++)
		wanted += m->topo.cpus[cpu].present && m->topo.cpus[cpu].online;
	if (found == 0 || wanted == 0) {
		errmsg_set(e, _("procstat: %s has no line for any CPU of the topology; is it the "
		    "kernel's /proc/stat?"), ps->path);
		procstat_close(&ps->src);
		return NULL;
	}
	procstat_plan(plan, m, ps->user_hz);
	snprintf(ps->src.detail, sizeof ps->src.detail, "%.200s, USER_HZ %ld", ps->path,
	    ps->user_hz);
	return &ps->src;
}

void
procstat_source_set_clock(struct source *s, double (*clock)(void))
{
	struct procstat *ps = ps_of(s);

	ps->clock = clock;
	ps->start = clock();
}

struct source *
procstat_source_open(struct machine *m, struct plan *plan, struct errmsg *e)
{
	return procstat_source_new(m, plan, NULL, sysconf(_SC_CLK_TCK), e);
}
