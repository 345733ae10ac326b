/* perf_source.c: counters through perf_event_open(2), for users without
 * access to /dev/cpu/N/msr. The kernel programs the PMU and shares it with
 * other users, so httop writes no register and has nothing to restore.
 *
 * One event group per CPU (perf_event_open(2): PERF_FORMAT_GROUP with
 * TOTAL_TIME_ENABLED and TOTAL_TIME_RUNNING), so a refresh is one read()
 * per CPU, a core's threads back to back. The leader is pinned; a pinned
 * group that loses the PMU to another pinned user reads as end-of-file
 * (read returns 0), and is then reopened unpinned and multiplexed.
 *
 * Multiplexing: a group that was on the PMU for only part of an interval
 * (time_running < time_enabled) has its counts of that interval scaled by
 * enabled/running, and the CPU is marked scaled. The scaling is done per
 * interval on the deltas and summed into the sample, so the metrics' own
 * deltas are exactly the scaled deltas. time_running == 0: the CPU is a
 * read error (EBUSY) for that interval. */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "source/perf/perf_plan.h"
#include "source/perf/perf_source.h"
#include "source/sources.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

enum perf_cpu_state {
	PC_UNUSED = 0,    /* not present, or not selected when programmed */
	PC_OPEN,
	PC_OFFLINE,       /* ENODEV/ENXIO: retried on every read */
};

struct perf_cpu {
	uint8_t state;
	bool unpinned;                   /* its pinned group lost the PMU once */
	unsigned nfd;
	int fd[PLAN_MAX_SLOTS];          /* group members, leader first */
	int pos[PLAN_MAX_SLOTS];         /* slot -> member, -1: not counted here */
	uint64_t last[PLAN_MAX_SLOTS];   /* raw count per member at the last read */
	uint64_t last_en, last_run;
	uint64_t acc[PLAN_MAX_SLOTS];    /* per slot: sum of (scaled) deltas */
	bool tsc_stuck;                  /* msr/tsc did not advance: derive it */
};

struct perf_source {
	struct source src;               /* first: s->priv points back here */
	struct perf_sys *sys;
	struct perf_caps caps;
	bool no_msr[SLOT_NKINDS];        /* the msr PMU event failed: generic instead */
	double tsc_hz;                   /* for a derived TSC */
	unsigned max_cpu;
	struct perf_cpu *cpu;
	bool open;
	struct plan cur;                 /* the plan the groups were opened for */
	struct perf_ev ev[PLAN_MAX_SLOTS];
	double start;                 /* clock_mono() at open */
	uint64_t seq;
	/* --source auto tried the msr source before this one and it failed
	 * (its note says why): the messages do not send the user back to it. */
	bool after_msr;
};

/* One read of a group: nr, time_enabled, time_running, a value each. */
#define GROUP_WORDS (3 + PLAN_MAX_SLOTS)

static struct perf_source *
perf_of(const struct source *s)
{
	return s->priv;
}

static const char *
errno_name(int err)
{
	switch (err) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EINVAL: return "EINVAL";
	case EMFILE: return "EMFILE";
	case ENFILE: return "ENFILE";
	case ENODEV: return "ENODEV";
	case ENXIO: return "ENXIO";
	case EBUSY: return "EBUSY";
	case ENOSPC: return "ENOSPC";
	default: return strerror(err);
	}
}

static bool
is_offline_err(int err)
{
	return err == ENODEV || err == ENXIO;
}

static bool
is_missing_err(int err)
{
	return err == ENOENT || err == EOPNOTSUPP;
}

/* The message for an event that would not open: the cause and the fix
 * (perf_refused_why: the sysctl, the privilege httop has or gave up, a
 * security module). "or use --source msr" only where msr was not tried
 * already. */
static int
refused_error(struct perf_source *ps, unsigned cpu, int err, struct errmsg *e)
{
	const struct perf_caps *c = &ps->caps;
	unsigned priv = ps->sys->privilege != NULL ? ps->sys->privilege(ps->sys) : 0u;
	char why[400];

	perf_refused_why(why, sizeof why, c->paranoid_known, c->paranoid, priv);
	if (!ps->after_msr)
		return errmsg_set(e, _("perf_event_open refused to count on CPU %u (%s)%s, or use "
		    "--source msr"), cpu, errno_name(err), why);
	return errmsg_set(e, _("perf_event_open refused to count on CPU %u (%s)%s"), cpu,
	    errno_name(err), why);
}

static int
open_error(struct perf_source *ps, const struct perf_ev *ev, unsigned cpu, int err,
    struct errmsg *e)
{
	bool m = !ps->after_msr;

	switch (err) {
	case EACCES:
	case EPERM:
		return refused_error(ps, cpu, err, e);
	case EMFILE:
	case ENFILE:
		return errmsg_set(e, _("too many open files on CPU %u (%s): perf needs one "
		    "descriptor per event per CPU (%u CPUs x %u events); raise the limit with "
		    "'ulimit -n %u' or read fewer CPUs with --cpus"), cpu, errno_name(err),
		    ps->src.m->topo.ncpus, ps->cur.nslots,
		    ps->src.m->topo.ncpus * ps->cur.nslots + 64);
	case EBUSY:
		return errmsg_set(e, m ? _("the PMU of CPU %u is held exclusively by another "
		    "program (EBUSY); stop it (perf, likwid, a site monitor) or use --source msr") :
		    _("the PMU of CPU %u is held exclusively by another program (EBUSY); stop it "
		    "(perf, likwid, a site monitor)"), cpu);
	default:
		break;
	}
	if (is_missing_err(err) && ev->from == PEV_GENERIC)
		return errmsg_set(e, m ? _("no hardware performance events: this machine (a VM "
		    "without a virtual PMU?) has no '%s' event for perf_event_open (%s); run httop on "
		    "the node itself, use --source msr where the msr module is, or --source sched "
		    "for the scheduler's split without counters") : _("no hardware performance events: this "
		    "machine (a VM without a virtual PMU?) has no '%s' event for perf_event_open "
		    "(%s); give the VM a virtual PMU, or run httop on the node itself"), ev->name,
		    errno_name(err));
	return errmsg_set(e, m ? _("perf_event_open cannot count %s on CPU %u (%s); this kernel "
	    "or CPU does not offer it: use --source msr") : _("perf_event_open cannot count %s "
	    "on CPU %u (%s); this kernel or CPU does not offer it, and only the msr source "
	    "could read it: see what --source auto said of msr"), ev->name, cpu,
	    errno_name(err));
}

static void
attr_for(struct perf_event_attr *a, const struct perf_ev *ev, bool leader, bool pinned)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = ev->type;
	a->config = ev->config;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* User and kernel, like the msr plan's USR+OS; the msr PMU refuses
	 * any exclude bit anyway. Only a leader may be pinned. */
	a->pinned = leader && pinned;
}

/* Open one event alone on `cpu` and close it: 0 or -errno. */
static int
probe(struct perf_source *ps, const struct perf_ev *ev, unsigned cpu)
{
	struct perf_event_attr a;
	int fd;

	if (ev->from == PEV_NONE)
		return -ENOENT;
	if (ev->from == PEV_DERIVED)
		return 0;
	attr_for(&a, ev, true, false);
	fd = ps->sys->open(ps->sys, &a, (int)cpu, -1);
	if (fd < 0)
		return fd;
	ps->sys->close(ps->sys, fd);
	return 0;
}

static void
close_cpu(struct perf_source *ps, struct perf_cpu *pc)
{
	unsigned i;

	/* Members first, the leader last. */
	for (i = pc->nfd; i-- > 0;)
		ps->sys->close(ps->sys, pc->fd[i]);
	pc->nfd = 0;
}

static void
close_all(struct perf_source *ps)
{
	unsigned cpu;

	for (cpu = 0; cpu < ps->max_cpu; cpu++) {
		if (ps->cpu[cpu].state == PC_OPEN)
			close_cpu(ps, &ps->cpu[cpu]);
		ps->cpu[cpu].state = PC_UNUSED;
	}
	ps->open = false;
}

static unsigned
cpu_thread(const struct perf_source *ps, unsigned cpu)
{
	return ps->src.m->topo.cpus[cpu].thread;
}

/* Open the group of one CPU for ps->cur: the first hardware event leads
 * (a group led by a software-context event such as msr/tsc would be
 * moved anyway), then the rest in slot order. Counting starts at once;
 * the baseline is zero. 0, or -errno with *bad the slot that failed. */
static int
open_cpu(struct perf_source *ps, unsigned cpu, int *bad)
{
	struct perf_cpu *pc = &ps->cpu[cpu];
	const struct plan *p = &ps->cur;
	unsigned thread = cpu_thread(ps, cpu), k, pass;
	struct perf_event_attr a;
	int fd;

	pc->nfd = 0;
	for (k = 0; k < PLAN_MAX_SLOTS; k++)
		pc->pos[k] = -1;
	/* Pass 0 places the leader, pass 1 the others. */
	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < p->nslots; k++) {
			const struct perf_ev *ev = &ps->ev[k];

			if (pc->pos[k] >= 0 || ev->from == PEV_DERIVED || ev->from == PEV_NONE ||
			    !plan_slot_on_thread(&p->slots[k], thread))
				continue;
			if (pass == 0 && pc->nfd == 0 && ev->from == PEV_MSR)
				continue;
			if (pass == 0 && pc->nfd > 0)
				break;
			attr_for(&a, ev, pc->nfd == 0, !pc->unpinned);
			fd = ps->sys->open(ps->sys, &a, (int)cpu, pc->nfd == 0 ? -1 : pc->fd[0]);
			if (fd < 0) {
				close_cpu(ps, pc);
				*bad = (int)k;
				return fd;
			}
			pc->pos[k] = (int)pc->nfd;
			pc->fd[pc->nfd++] = fd;
		}
	}
	if (pc->nfd == 0) {
		*bad = -1;
		return -ENOENT;
	}
	memset(pc->last, 0, sizeof pc->last);
	pc->last_en = pc->last_run = 0;
	return 0;
}

static bool
same_slots(const struct plan *a, const struct plan *b)
{
	unsigned k;

	if (a->nslots != b->nslots)
		return false;
	for (k = 0; k < a->nslots; k++)
		if (a->slots[k].kind != b->slots[k].kind ||
		    a->slots[k].thread_mask != b->slots[k].thread_mask)
			return false;
	return true;
}

/* Open every selected CPU's group for plan p. Writes in p are ignored:
 * the kernel programs the PMU. `force` has no meaning here: perf shares
 * the counters with other users (multiplexing) instead of taking them. */
static int
perf_program(struct source *s, const struct plan *p, bool force, struct errmsg *e)
{
	struct perf_source *ps = perf_of(s);
	const struct topology *t = &s->m->topo;
	unsigned cpu, k, nopen = 0;
	int rc, bad;

	(void)force;
	if (ps->open && same_slots(&ps->cur, p))
		return 0;
	close_all(ps);
	ps->cur = *p;
	for (k = 0; k < p->nslots; k++) {
		enum slot_kind kind = p->slots[k].kind;

		ps->ev[k] = perf_event_for(&ps->caps, s->m, kind, !ps->no_msr[kind]);
		if (ps->ev[k].from == PEV_NONE)
			return errmsg_set(e, !ps->after_msr ? _("perf has no event for the '%s' "
			    "counter of this plan; use --source msr") : _("perf has no event for the "
			    "'%s' counter of this plan, and only the msr source could read it: see what "
			    "--source auto said of msr"), slot_kind_name(kind));
		if (ps->ev[k].from == PEV_DERIVED && ps->tsc_hz <= 0.0)
			return errmsg_set(e, !ps->after_msr ? _("perf: no TSC: the kernel offers no "
			    "msr/tsc event and the nominal frequency is unknown, so TSC ticks cannot "
			    "be derived from time; use --source msr") : _("perf: no TSC: the kernel "
			    "offers no msr/tsc event and the nominal frequency is unknown, so TSC "
			    "ticks cannot be derived from time; only the msr source could read it: "
			    "see what --source auto said of msr"));
	}
	if (ps->sys->want_fds != NULL)
		ps->sys->want_fds(ps->sys, (unsigned long)t->ncpus * p->nslots);
	for (cpu = 0; cpu < ps->max_cpu; cpu++) {
		struct perf_cpu *pc = &ps->cpu[cpu];

		if (!t->cpus[cpu].present || !source_cpu_selected(s, cpu))
			continue;
		if (!t->cpus[cpu].online) {
			pc->state = PC_OFFLINE;
			continue;
		}
		rc = open_cpu(ps, cpu, &bad);
		if (rc == 0) {
			pc->state = PC_OPEN;
			nopen++;
		} else if (is_offline_err(-rc)) {
			pc->state = PC_OFFLINE;
		} else {
			open_error(ps, bad >= 0 ? &ps->ev[bad] : &ps->ev[0], cpu, -rc, e);
			close_all(ps);
			return -1;
		}
	}
	if (nopen == 0) {
		close_all(ps);
		return errmsg_set(e, _("perf: no CPU could be opened: every selected CPU is "
		    "offline"));
	}
	ps->open = true;
	return 0;
}

/* d * en / run without overflow for any realistic count. */
static uint64_t
scale_delta(uint64_t d, uint64_t en, uint64_t run)
{
	return (uint64_t)((long double)d * (long double)en / (long double)run + 0.5L);
}

static uint8_t
read_fail(struct sample *out, unsigned cpu, int err, uint8_t st)
{
	memset(sample_row(out, cpu), 0, (size_t)out->nslots * sizeof(uint64_t));
	out->err[cpu] = err;
	return st;
}

/* One CPU's slots from its group's values `val` (enabled d_en ns, on the
 * PMU d_run ns this interval): each counter's delta, scaled where the
 * group was multiplexed, added to its sum; the TSC derived where the
 * group cannot count it. The sums go to row. */
static void
add_slots(struct perf_source *ps, struct perf_cpu *pc, unsigned n, const uint64_t *val,
    uint64_t d_en, uint64_t d_run, uint64_t *row)
{
	const struct plan *p = &ps->cur;
	unsigned k;

	for (k = 0; k < n; k++) {
		int m = pc->pos[k];
		bool tsc = p->slots[k].kind == SLOT_TSC;

		if (m >= 0 && !(tsc && pc->tsc_stuck)) {
			uint64_t d = val[m] - pc->last[m];

			/* The TSC always ticks. A msr/tsc member that did not
			 * move is not being read (seen in a VM whose group had a
			 * software leader): derive it from now on. */
			if (tsc && d == 0 && ps->tsc_hz > 0.0)
				pc->tsc_stuck = true;
			else
				pc->acc[k] += d_run < d_en ? scale_delta(d, d_en, d_run) : d;
		}
		if (tsc && (ps->ev[k].from == PEV_DERIVED || pc->tsc_stuck)) {
			/* TSC ticks = ns enabled x nominal Hz / 1e9. */
			pc->acc[k] += (uint64_t)((long double)d_en * (long double)ps->tsc_hz / 1e9L +
			    0.5L);
		}
		if (m < 0 && ps->ev[k].from != PEV_DERIVED)
			pc->acc[k] = 0;
		row[k] = pc->acc[k];
	}
}

/* One CPU: one read() of its group. Returns the cpu_read_state. */
static uint8_t
read_cpu(struct perf_source *ps, unsigned cpu, struct sample *out)
{
	struct perf_cpu *pc = &ps->cpu[cpu];
	const struct plan *p = &ps->cur;
	uint64_t buf[GROUP_WORDS], en, run, d_en, d_run;
	uint64_t *row = sample_row(out, cpu);
	size_t want = (3 + (size_t)pc->nfd) * sizeof(uint64_t);
	unsigned k, n = p->nslots < out->nslots ? p->nslots : out->nslots;
	ssize_t got;
	int bad;

	out->scaled[cpu] = 0;
	got = ps->sys->read(ps->sys, pc->fd[0], buf, want);
	if (got == 0) {
		/* A pinned group that lost the PMU: share it from now on. The
		 * new group starts from zero; the sums carry on. */
		close_cpu(ps, pc);
		pc->unpinned = true;
		if (open_cpu(ps, cpu, &bad) != 0)
			pc->state = PC_OFFLINE;
		return read_fail(out, cpu, EBUSY, CPU_READ_ERROR);
	}
	if (got < 0) {
		if (is_offline_err((int)-got)) {
			close_cpu(ps, pc);
			pc->state = PC_OFFLINE;
			return read_fail(out, cpu, ENXIO, CPU_OFFLINE);
		}
		return read_fail(out, cpu, (int)-got, CPU_READ_ERROR);
	}
	if ((size_t)got < want || buf[0] != pc->nfd)
		return read_fail(out, cpu, EIO, CPU_READ_ERROR);
	en = buf[1];
	run = buf[2];
	d_en = en - pc->last_en;
	d_run = run - pc->last_run;
	if (d_en == 0) {
		/* Not even enabled: the kernel took the CPU's events off when it
		 * went offline. */
		close_cpu(ps, pc);
		pc->state = PC_OFFLINE;
		return read_fail(out, cpu, ENXIO, CPU_OFFLINE);
	}
	pc->last_en = en;
	pc->last_run = run;
	if (d_run == 0) {
		/* Never on the PMU this interval: nothing to scale from. */
		for (k = 0; k < pc->nfd; k++)
			pc->last[k] = buf[3 + k];
		return read_fail(out, cpu, EBUSY, CPU_READ_ERROR);
	}
	add_slots(ps, pc, n, buf + 3, d_en, d_run, row);
	for (k = 0; k < pc->nfd; k++)
		pc->last[k] = buf[3 + k];
	out->scaled[cpu] = d_run < d_en;
	out->err[cpu] = 0;
	return CPU_READ_OK;
}

static int
perf_read(struct source *s, struct sample *out, struct errmsg *e)
{
	struct perf_source *ps = perf_of(s);
	const struct topology *t = &s->m->topo;
	unsigned c, k;
	int bad;

	if (!ps->open)
		return errmsg_set(e, _("internal error: the perf source was read before it was "
		    "programmed"));
	for (c = 0; c < t->ncores; c++) {
		const struct topo_core *core = &t->cores[c];

		for (k = 0; k < core->nthreads; k++) {
			unsigned cpu = core->cpus[k];
			struct perf_cpu *pc;
			uint8_t st;

			if (cpu >= out->max_cpu || cpu >= ps->max_cpu)
				continue;
			pc = &ps->cpu[cpu];
			out->scaled[cpu] = 0;
			if (!source_cpu_selected(s, cpu) || pc->state == PC_UNUSED) {
				st = CPU_NOT_READ;
			} else if (pc->state == PC_OFFLINE) {
				/* Back online? The new group counts from now on:
				 * its first interval ends at the next read. */
				if (open_cpu(ps, cpu, &bad) == 0)
					pc->state = PC_OPEN;
				st = read_fail(out, cpu, ENXIO, CPU_OFFLINE);
			} else {
				st = read_cpu(ps, cpu, out);
			}
			out->state[cpu] = st;
		}
	}
	out->time = clock_mono() - ps->start;
	out->wall = clock_wall();
	out->seq = ps->seq++;
	return 0;
}

static int
perf_restore(struct source *s, struct errmsg *e)
{
	(void)s;
	(void)e;
	return 0;   /* nothing was written */
}

static void
perf_close(struct source *s)
{
	struct perf_source *ps = perf_of(s);

	close_all(ps);
	ps->sys->destroy(ps->sys);
	free(ps->cpu);
	free(ps);
}

static const struct source_ops perf_ops = {
	.program = perf_program,
	.read = perf_read,
	.advance = NULL,
	.restore = perf_restore,
	.emergency_restore = NULL,
	.close = perf_close,
};

static void
drop_slot(struct plan *p, unsigned k)
{
	memmove(&p->slots[k], &p->slots[k + 1], (p->nslots - k - 1) * sizeof p->slots[0]);
	p->nslots--;
}

static enum split_method
bound_or_none(const struct machine *m)
{
	return m->topo.max_smt == 2 ? SPLIT_BOUND : SPLIT_NONE;
}

/* The split slot (ANY or OTA) would not open: without AnyThread, Sandy
 * Bridge to Cooper Lake still have ONE_THREAD_ACTIVE (0x3C/0x02, same
 * clock as REF_XCLK: doc/hardware.md section 4); otherwise the split is
 * a bound. */
static void
split_fallback(struct perf_source *ps, struct plan *p, unsigned k, unsigned cpu, int err,
    char *note, size_t len)
{
	const struct machine *m = ps->src.m;
	const char *what = p->slots[k].kind == SLOT_ANY ? "AnyThread" : "ONE_THREAD_ACTIVE";
	const char *why = err == EACCES || err == EPERM ? "needs paranoid <= 0 or CAP_PERFMON" :
	    "not offered by CPU or kernel";
	struct perf_ev ota;

	if (p->slots[k].kind == SLOT_ANY && (m->group == UARCH_SNB || m->group == UARCH_SKX)) {
		ota = perf_event_for(&ps->caps, m, SLOT_OTA, true);
		if (probe(ps, &ota, cpu) == 0) {
			p->slots[k].kind = SLOT_OTA;
			p->slots[k].thread_mask = THREAD_ALL;
			p->split = SPLIT_OTA;
			snprintf(note, len, "AnyThread refused (%s, %s): ONE_THREAD_ACTIVE per thread",
			    errno_name(err), why);
			return;
		}
	}
	drop_slot(p, k);
	p->split = bound_or_none(m);
	snprintf(note, len, "%s refused (%s, %s): split is a bound", what, errno_name(err), why);
}

static const char *
split_text(const struct plan *p)
{
	switch (p->split) {
	case SPLIT_ANY:
		return "AnyThread raw 0x20013c on thread 0";
	case SPLIT_OTA:
		return "ONE_THREAD_ACTIVE raw 0x23c per thread";
	case SPLIT_BOUND:
		return "split is a bound";
	case SPLIT_NONE:
		break;
	}
	return "no SMT split";
}

/* Try every slot's event on `cpu` and make the plan what perf can do. */
static int
adapt_plan(struct perf_source *ps, struct plan *p, unsigned cpu, struct errmsg *e)
{
	const struct machine *m = ps->src.m;
	char split_note[128] = "", tsc_note[64] = "", ref_note[48] = "";
	bool checked_hw = false;
	unsigned k;
	int rc;

	p->nwrites = 0;
	memset(p->writes, 0, sizeof p->writes);
	for (k = 0; k < p->nslots; k++) {
		p->slots[k].msr = 0;     /* not an MSR: a perf event */
		p->slots[k].width = 64;  /* perf sums into 64 bits */
	}
	/* The first generic event says whether there is a PMU at all and
	 * whether we may use it. */
	for (k = 0; k < p->nslots && !checked_hw; k++) {
		struct perf_ev ev = perf_event_for(&ps->caps, m, p->slots[k].kind, false);

		if (ev.from != PEV_GENERIC)
			continue;
		if ((rc = probe(ps, &ev, cpu)) != 0)
			return open_error(ps, &ev, cpu, -rc, e);
		checked_hw = true;
	}
	for (k = 0; k < p->nslots;) {
		enum slot_kind kind = p->slots[k].kind;
		struct perf_ev ev = perf_event_for(&ps->caps, m, kind, true);

		rc = probe(ps, &ev, cpu);
		if (rc != 0 && ev.from == PEV_MSR) {
			ps->no_msr[kind] = true;
			if (kind == SLOT_CYCLES || kind == SLOT_REF)
				ps->no_msr[SLOT_CYCLES] = ps->no_msr[SLOT_REF] = true;
			ev = perf_event_for(&ps->caps, m, kind, false);
			rc = probe(ps, &ev, cpu);
		}
		if (kind == SLOT_TSC && ev.from == PEV_DERIVED) {
			if (ps->tsc_hz > 0.0) {
				snprintf(tsc_note, sizeof tsc_note, "TSC = time_enabled x %.3f GHz",
				    ps->tsc_hz / 1e9);
			} else {
				snprintf(tsc_note, sizeof tsc_note, "no TSC (no msr/tsc, base unknown)");
				drop_slot(p, k);
				continue;
			}
		} else if (kind == SLOT_TSC) {
			snprintf(tsc_note, sizeof tsc_note, "TSC from msr/tsc");
		}
		if (rc == 0) {
			k++;
			continue;
		}
		if (kind == SLOT_ANY || kind == SLOT_OTA) {
			split_fallback(ps, p, k, cpu, -rc, split_note, sizeof split_note);
			continue;   /* slot k is now OTA (probed) or the next one */
		}
		if (kind == SLOT_REF)
			snprintf(ref_note, sizeof ref_note, "; no ref-cycles (%s)", errno_name(-rc));
		drop_slot(p, k);
	}
	if (plan_slot_index(p, SLOT_REF) < 0 && (p->split == SPLIT_ANY || p->split == SPLIT_OTA)) {
		/* The exact split rests on ref per thread. */
		p->split = bound_or_none(m);
	}
	snprintf(p->summary, sizeof p->summary, "%s via perf: %s; %s%s",
	    uarch_group_name(p->group), split_note[0] != '\0' ? split_note : split_text(p),
	    tsc_note, ref_note);
	return 0;
}

struct source *
perf_source_new(struct machine *m, struct plan *plan, struct perf_sys *sys, bool after_msr,
    struct errmsg *e)
{
	struct perf_source *ps;
	unsigned cpu, max_cpu = m->topo.max_cpu;

	ps = xcalloc(1, sizeof *ps);
	ps->src.ops = &perf_ops;
	ps->src.priv = ps;
	ps->src.name = "perf";
	ps->src.cgroup_events = true;
	ps->src.force_moot = N_("the kernel shares the counters between programs");
	ps->src.m = m;
	ps->sys = sys;
	ps->after_msr = after_msr;
	ps->max_cpu = max_cpu;
	ps->cpu = xcalloc(max_cpu ? max_cpu : 1, sizeof *ps->cpu);
	ps->tsc_hz = identity_tsc_hz(&m->id);
	ps->start = clock_mono();
	perf_caps_read(sys, &ps->caps);

	for (cpu = 0; cpu < max_cpu; cpu++)
		if (m->topo.cpus[cpu].present && m->topo.cpus[cpu].online)
			break;
	if (cpu == max_cpu) {
		errmsg_set(e, _("perf: no CPU of the topology is online"));
		perf_close(&ps->src);
		return NULL;
	}
	plan_for_machine(plan, m);
	if (adapt_plan(ps, plan, cpu, e) != 0) {
		perf_close(&ps->src);
		return NULL;
	}
	plan_link(plan);   /* adapt_plan may have changed the slots */
	if (ps->caps.paranoid_known)
		snprintf(ps->src.detail, sizeof ps->src.detail,
		    "perf_event_open, perf_event_paranoid %d", ps->caps.paranoid);
	else
		snprintf(ps->src.detail, sizeof ps->src.detail, "perf_event_open");
	return &ps->src;
}

struct source *
perf_source_open(struct machine *m, struct plan *plan, bool after_msr, struct errmsg *e)
{
	return perf_source_new(m, plan, perf_sys_real(NULL), after_msr, e);
}
