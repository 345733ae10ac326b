/* msr_source.c: the msr engine. It programs the PMU registers of a plan
 * (after checking nobody else uses them and saving their old values),
 * reads the plan's counters once per slot per CPU per refresh, and puts
 * every saved register back on exit, also from a fatal signal. The same
 * code drives the real device files and the simulator (msr_io.h).
 *
 * Hotplug: a CPU whose device answers ENXIO (offline) or is missing is
 * closed and shown offline; at each later refresh one open is tried, and
 * when it works the CPU is saved and programmed again before it is read
 * (its PMU may have been reset), so its figures return one full interval
 * later. Only CPUs the topology placed in a core can come back: a CPU
 * offline at start has no known core and stays unknown.
 *
 * Conflicts: check() reads back the plan's written registers on demand
 * (conflict.c asks when the counts look impossible) and may write httop's
 * bits back; read_control() reads a counter's enable register when the
 * counter stopped; nothing is read but the counters in steady state. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "source/msr/msr_priv.h"
#include "source/sources.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* A register's name as the SDM writes it, for messages. */
static const char *
msr_name(uint32_t msr, char *buf, size_t len)
{
	return source_msr_name(msr, buf, len);
}

/* The hint that goes with a failed access. */
static const char *
access_hint(int err, bool write)
{
	switch (err) {
	case EPERM:
	case EACCES:
		return write ? _("writes are refused: kernel lockdown or msr.allow_writes=off "
		    "forbid them; boot with msr.allow_writes=on or use msr-safe") :
		    _("run as root or give the binary CAP_SYS_RAWIO");
	case EIO:
		return write ? _("the CPU rejected the value (unsupported register or bits)") :
		    _("the CPU does not have this register");
	case ENXIO:
		return _("the CPU went offline");
	default:
		return "";
	}
}

static int
reg_index(struct msr_source *ms, uint32_t msr)
{
	int r;

	for (r = 0; r < ms->nreg; r++) {
		if (ms->reg[r] == msr)
			return r;
	}
	if (ms->nreg >= MSR_MAX_REGS)
		return -1;
	ms->reg[r] = msr;
	/* reg[] is not volatile: keep the compiler from moving its store
	 * after the count a signal handler trusts. */
	atomic_signal_fence(memory_order_seq_cst);
	ms->nreg = r + 1;
	return r;
}

/* CPUs the engine reads and programs. */
static bool
cpu_usable(const struct msr_source *ms, unsigned cpu)
{
	return ms->cpu_state[cpu] == MC_OPEN && source_cpu_selected(&ms->src, cpu);
}

/* The CPU's device answered ENXIO or has vanished: close it and show it
 * offline. Its saved values stay, for restore() or for when it returns. */
static void
cpu_gone(struct msr_source *ms, unsigned cpu)
{
	ms->cpu_state[cpu] = MC_GONE;   /* first: a signal handler skips it now */
	ms->io->close_cpu(ms->io, cpu);
	ms->batch_dirty = true;
}

/* Announce to a batch backend every read a refresh makes, in the order
 * msr_read() makes them. */
static int
batch_announce(struct msr_source *ms, const struct plan *p, struct errmsg *e)
{
	const struct topology *t = &ms->src.m->topo;
	unsigned c, k, j, n = 0;

	ms->batch_dirty = false;
	if (ms->io->batch_plan == NULL)
		return 0;
	for (c = 0; c < t->ncores; c++) {
		for (k = 0; k < t->cores[c].nthreads; k++) {
			unsigned cpu = t->cores[c].cpus[k];

			if (cpu >= ms->max_cpu || !cpu_usable(ms, cpu))
				continue;
			for (j = 0; j < p->nslots && j < PLAN_MAX_SLOTS; j++) {
				if (!plan_slot_on_thread(&p->slots[j], k))
					continue;
				ms->ops[n].cpu = cpu;
				ms->ops[n].msr = p->slots[j].msr;
				n++;
			}
		}
	}
	return ms->io->batch_plan(ms->io, ms->ops, n, e);
}

/* MSR_PLATFORM_INFO bits 15:8: the base ratio, the most direct source of
 * the nominal frequency on Intel (doc/hardware.md section 3). Read once, on the first
 * CPU that is open. A ratio given by the user or a trace is kept. */
static void
read_platform_info(struct msr_source *ms)
{
	struct cpu_identity *id = ms->id;
	uint64_t v;
	unsigned cpu;

	ms->platform_done = true;
	if (id->vendor != CPU_VENDOR_INTEL || id->base_src == BASE_USER || id->base_src == BASE_TRACE)
		return;
	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (ms->cpu_state[cpu] == MC_OPEN)
			break;
	}
	if (cpu == ms->max_cpu || ms->io->rd(ms->io, cpu, MSR_PLATFORM_INFO, &v) != 0)
		return;
	identity_set_platform_info(id, v);
}

/* Is the NMI watchdog on? It keeps a counter through perf. */
static bool
nmi_watchdog_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "re");
	int c;

	if (f == NULL)
		return false;
	c = fgetc(f);
	fclose(f);
	return c == '1';
}

static void
busy_message(const struct msr_source *ms, struct errmsg *e, const char *list, unsigned nbusy,
    unsigned nmine)
{
	char more[64] = "";
	long live = msr_live_httop(ms);

	if (nbusy > BUSY_SHOWN)
		snprintf(more, sizeof more, ngettext(" and %u more", " and %u more",
		    nbusy - BUSY_SHOWN), nbusy - BUSY_SHOWN);
	if (nmine == nbusy && live != 0)
		errmsg_set(e, _("the PMU is in use by another httop (pid %ld) on the same devices "
		    "(%s%s); nothing was written. Wait for it to end or stop it: it puts the "
		    "registers back"), live, list, more);
	else if (nmine == nbusy)
		errmsg_set(e, _("the PMU holds httop's own settings (%s%s), left by an httop that "
		    "was killed (SIGKILL, the OOM killer) before it could put them back, unless "
		    "another tool writes the same values; nothing was written. If no other tool "
		    "counts with them, run 'httop --restore' with the same device options, then "
		    "start httop again"), list, more);
	else if (nmi_watchdog_on())
		errmsg_set(e, _("the PMU is in use by another program (%s%s); nothing was written. "
		    "The NMI watchdog holds a counter: run 'echo 0 > /proc/sys/kernel/nmi_watchdog' "
		    "as root, or use --force to take the counters anyway"), list, more);
	else
		errmsg_set(e, _("the PMU is in use by another program (%s%s); nothing was written. "
		    "Stop it (perf, likwid, a site monitor), or use --force to take the counters "
		    "anyway (it will see wrong counts until httop exits)"), list, more);
}

/* Put back every saved register, CPU by CPU, in reverse order of first
 * write. Every flag is cleared, so a second call does nothing. A CPU that
 * is offline now has nothing to put back: it comes back with its PMU
 * reset, or was reprogrammed and saved again when it did. Each register is
 * read first (once, at the end, never per refresh): if httop's bits no
 * longer hold what it wrote, another program has taken the register over
 * and it is left to that program; otherwise httop's bits get their old
 * values and the others stay as they are now. A failed read falls back to
 * writing the saved value. */
static int
restore_all(struct msr_source *ms, struct errmsg *e)
{
	char name[32];
	unsigned cpu, nfail = 0, nleft = 0;
	bool *left = NULL;
	int r, rc, status = 0, left_reg = -1;

	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		bool open = ms->cpu_state[cpu] == MC_OPEN || ms->cpu_state[cpu] == MC_BUSY;

		for (r = ms->nreg - 1; r >= 0; r--) {
			size_t i = (size_t)cpu * MSR_MAX_REGS + (size_t)r;
			uint64_t now, v = ms->saved[i];

			if (!ms->has[i])
				continue;
			ms->has[i] = 0;
			if (!open)
				continue;
			rc = ms->io->rd(ms->io, cpu, ms->reg[r], &now);
			if (rc == -ENXIO)
				continue;
			if (rc == 0 && ((now ^ ms->cur[i]) & ms->own[r]) != 0) {
				/* Name the first such register and its CPUs. */
				if (left_reg < 0)
					left_reg = r;
				if (r == left_reg) {
					if (left == NULL)
						left = xcalloc(ms->max_cpu, sizeof *left);
					left[cpu] = true;
				}
				nleft++;
				continue;
			}
			if (rc == 0)
				v = (now & ~ms->own[r]) | (ms->saved[i] & ms->own[r]);
			rc = ms->io->wr(ms->io, cpu, ms->reg[r], v);
			if (rc == 0 || rc == -ENXIO)
				continue;
			if (nfail++ == 0) {
				errmsg_set(e, _("could not restore %s on CPU %u to 0x%llx: %s %s"),
				    msr_name(ms->reg[r], name, sizeof name), cpu,
				    (unsigned long long)v, strerror(-rc),
				    access_hint(-rc, true));
			}
			status = -1;
		}
	}
	if (left != NULL) {
		size_t ncpu = 0, k, used;

		for (k = 0; k < ms->max_cpu; k++)
			ncpu += left[k];
		snprintf(ms->src.restore_left, sizeof ms->src.restore_left, "%s on CPU%s ",
		    msr_name(ms->reg[left_reg], name, sizeof name), ncpu > 1 ? "s" : "");
		cpulist_append(ms->src.restore_left, sizeof ms->src.restore_left, left,
		    ms->max_cpu);
		used = strlen(ms->src.restore_left);
		if (nleft > ncpu)
			snprintf(ms->src.restore_left + used, sizeof ms->src.restore_left - used,
			    ngettext(" (%u register in all)", " (%u registers in all)", nleft),
			    nleft);
		free(left);
	}
	if (nfail > 1)
		errmsg_prefix(e, ngettext("%u register could not be restored",
		    "%u registers could not be restored", nfail), nfail);
	/* Nothing of this run is left to put back after a kill. */
	if (status == 0)
		msr_state_remove(ms->state);
	return status;
}

static int
msr_restore(struct source *s, struct errmsg *e)
{
	return restore_all(msr_of(s), e);
}

/* From a signal handler: only the io's async write and the table. */
static void
msr_emergency_restore(struct source *s)
{
	struct msr_source *ms = msr_of(s);
	unsigned cpu;
	int r;

	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (ms->cpu_state[cpu] != MC_OPEN && ms->cpu_state[cpu] != MC_BUSY)
			continue;
		for (r = ms->nreg - 1; r >= 0; r--) {
			size_t i = (size_t)cpu * MSR_MAX_REGS + (size_t)r;

			if (ms->has[i]) {
				ms->has[i] = 0;
				ms->io->wr_async(ms->io, cpu, ms->reg[r], ms->saved[i]);
			}
		}
	}
}

/* A busy register for the refusal message: "cpu 3 PERFEVTSEL0=0x63013c". */
static void
busy_note(char *list, size_t listlen, unsigned cpu, uint32_t msr, uint64_t v)
{
	size_t len = strlen(list);
	char name[32];

	snprintf(list + len, listlen - len, "%scpu %u %s=0x%llx", len > 0 ? ", " : "", cpu,
	    msr_name(msr, name, sizeof name), (unsigned long long)v);
}

/* Read the old value of every register the plan writes that is not saved
 * yet, and note the busy ones; *nmine counts those that hold httop's own
 * settings (a killed run's). With --force, what is saved of one of those
 * is its value with httop's bits at their power-on value (0), so the end
 * of this run does not put a killed run's settings back; unless another
 * httop still runs on these devices. Nothing is written here. */
static int
collect_old(struct msr_source *ms, const struct plan *p, bool force, unsigned *nbusy,
    unsigned *nmine, char *list, size_t listlen, struct errmsg *e)
{
	char name[32];
	unsigned cpu, k;
	uint64_t mask;
	bool live = msr_live_httop(ms) != 0;
	int rc;

	memset(ms->pending, 0, (size_t)ms->max_cpu * MSR_MAX_REGS);
	*nbusy = *nmine = 0;
	list[0] = '\0';
	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (!cpu_usable(ms, cpu))
			continue;
		for (k = 0; k < p->nwrites; k++) {
			const struct plan_write *w = &p->writes[k];
			int r;
			size_t i;

			if (!write_applies(w, cpu_thread(ms, cpu)))
				continue;
			if ((r = reg_index(ms, w->msr)) < 0)
				return errmsg_set(e, _("internal error: more than %d PMU registers "
				    "to program"), MSR_MAX_REGS);
			i = slot_of(cpu, r);
			if (ms->has[i] || ms->pending[i])
				continue;
			rc = ms->io->rd(ms->io, cpu, w->msr, &ms->old[i]);
			if (rc == -ENXIO) {
				cpu_gone(ms, cpu);   /* nothing written; programmed when it returns */
				break;
			}
			if (rc != 0)
				return errmsg_set(e, _("cannot read %s on CPU %u: %s %s"),
				    msr_name(w->msr, name, sizeof name), cpu, strerror(-rc),
				    access_hint(-rc, false));
			ms->pending[i] = 1;
			if ((ms->old[i] & w->busy_mask) == 0)
				continue;
			if (msr_httop_value(ms, cpu, w->msr, ms->old[i], true, &mask)) {
				++*nmine;
				if (force && !live)
					ms->old[i] &= ~mask;
			}
			if (++*nbusy <= BUSY_SHOWN)
				busy_note(list, listlen, cpu, w->msr, ms->old[i]);
		}
	}
	return 0;
}

/* The saved-state file, before a write: every saved register with its
 * value before httop, the bits httop owns and what it writes now (`p`'s
 * value where `p` writes it, else the last value written). Not per
 * refresh: at program() and when a CPU comes back. */
static void
state_sync(struct msr_source *ms, const struct plan *p)
{
	unsigned cpu, k;
	size_t n = 0;
	int r;

	if (ms->state == NULL)
		return;
	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		for (r = 0; r < ms->nreg; r++) {
			size_t i = slot_of(cpu, r);
			struct msr_state_entry *x = &ms->sent[n];

			if (!ms->has[i])
				continue;
			n++;
			x->cpu = cpu;
			x->msr = ms->reg[r];
			x->saved = ms->saved[i];
			x->own = ms->own[r];
			x->wrote = ms->cur[i];
			for (k = 0; k < p->nwrites; k++) {
				const struct plan_write *w = &p->writes[k];

				if (w->msr == x->msr && write_applies(w, cpu_thread(ms, cpu)))
					x->wrote = (x->wrote & ~w->mask) | (w->value & w->mask);
			}
		}
	}
	(void)msr_state_write(ms->state, ms->src.detail, ms->sent, n);
}

/* Every register the plan writes that was read in collect_old() is saved
 * now, before the first write, and the bits httop will own noted. */
static void
save_pending(struct msr_source *ms, const struct plan *p)
{
	unsigned cpu, k;

	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (!cpu_usable(ms, cpu))
			continue;
		for (k = 0; k < p->nwrites; k++) {
			const struct plan_write *w = &p->writes[k];
			int r = reg_index(ms, w->msr);
			size_t i = slot_of(cpu, r);

			if (!write_applies(w, cpu_thread(ms, cpu)))
				continue;
			if (ms->pending[i]) {
				ms->saved[i] = ms->old[i];
				ms->cur[i] = ms->old[i];
				atomic_signal_fence(memory_order_seq_cst);   /* saved[i] first */
				ms->has[i] = 1;
				ms->pending[i] = 0;
			}
			ms->own[r] |= w->mask;
		}
	}
}

static int
msr_program(struct source *s, const struct plan *p, bool force, struct errmsg *e)
{
	struct msr_source *ms = msr_of(s);
	char list[320], name[32];
	unsigned cpu, k, nbusy, nmine;
	int rc;

	if (!ms->platform_done)
		read_platform_info(ms);
	if (collect_old(ms, p, force, &nbusy, &nmine, list, sizeof list, e) != 0)
		return -1;
	if (nbusy > 0 && !force) {
		busy_message(ms, e, list, nbusy, nmine);
		return -1;
	}
	save_pending(ms, p);
	state_sync(ms, p);
	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (!cpu_usable(ms, cpu))
			continue;
		for (k = 0; k < p->nwrites; k++) {
			const struct plan_write *w = &p->writes[k];
			uint64_t v;
			size_t i;

			if (!write_applies(w, cpu_thread(ms, cpu)))
				continue;
			i = slot_of(cpu, reg_index(ms, w->msr));
			if (!ms->has[i])
				continue;   /* went offline during the check */
			v = (ms->cur[i] & ~w->mask) | (w->value & w->mask);
			rc = ms->io->wr(ms->io, cpu, w->msr, v);
			if (rc == -ENXIO) {
				cpu_gone(ms, cpu);   /* read() shows it offline */
				break;
			}
			if (rc != 0) {
				struct errmsg ignored;

				errmsg_set(e, _("cannot write 0x%llx to %s on CPU %u: %s %s"),
				    (unsigned long long)v, msr_name(w->msr, name, sizeof name), cpu,
				    strerror(-rc), access_hint(-rc, true));
				restore_all(ms, &ignored);
				return -1;
			}
			ms->cur[i] = v;
		}
	}
	ms->force = force;
	if (batch_announce(ms, p, e) != 0) {
		struct errmsg ignored;

		restore_all(ms, &ignored);
		return -1;
	}
	return 0;
}

/* A CPU that came back: read the plan's registers; one that still holds
 * httop's bits is left alone (its PMU kept its state), any other is saved
 * again (the value it came back with is what restore puts back) and
 * programmed. Nothing is written when one of them is busy without
 * --force. 0, -EBUSY or the failed access's -errno. */
static int
reprogram_cpu(struct msr_source *ms, const struct plan *p, unsigned cpu)
{
	uint64_t now[PLAN_MAX_WRITES];
	bool take[PLAN_MAX_WRITES], busy = false;
	unsigned th = cpu_thread(ms, cpu), k;
	int r, rc;

	for (k = 0; k < p->nwrites && k < PLAN_MAX_WRITES; k++) {
		const struct plan_write *w = &p->writes[k];

		take[k] = false;
		if (!write_applies(w, th))
			continue;
		if ((r = reg_index(ms, w->msr)) < 0)
			return -EINVAL;
		if ((rc = ms->io->rd(ms->io, cpu, w->msr, &now[k])) != 0)
			return rc;
		if (ms->has[slot_of(cpu, r)] && ((now[k] ^ w->value) & w->mask) == 0)
			continue;
		if ((now[k] & w->busy_mask) != 0 && !ms->force)
			busy = true;
		take[k] = true;
	}
	if (busy) {
		/* Leave it to the other program: what still holds httop's
		 * settings is restored at the end, the rest is not httop's. */
		for (k = 0; k < p->nwrites && k < PLAN_MAX_WRITES; k++)
			if (take[k])
				ms->has[slot_of(cpu, reg_index(ms, p->writes[k].msr))] = 0;
		return -EBUSY;
	}
	for (k = 0; k < p->nwrites && k < PLAN_MAX_WRITES; k++) {
		size_t i;

		if (!take[k])
			continue;
		i = slot_of(cpu, reg_index(ms, p->writes[k].msr));
		/* A signal handler must never see half of the new entry. */
		ms->has[i] = 0;
		atomic_signal_fence(memory_order_seq_cst);
		ms->saved[i] = now[k];
		ms->cur[i] = now[k];
		atomic_signal_fence(memory_order_seq_cst);
		ms->has[i] = 1;
	}
	state_sync(ms, p);
	for (k = 0; k < p->nwrites && k < PLAN_MAX_WRITES; k++) {
		const struct plan_write *w = &p->writes[k];
		size_t i;
		uint64_t v;

		if (!take[k])
			continue;
		i = slot_of(cpu, reg_index(ms, w->msr));
		v = (now[k] & ~w->mask) | (w->value & w->mask);
		if ((rc = ms->io->wr(ms->io, cpu, w->msr, v)) != 0)
			return rc;
		ms->cur[i] = v;
	}
	return 0;
}

/* A known CPU whose device went away: one open attempt, and when it works
 * the CPU is programmed again before this refresh reads it. */
static void
revive(struct msr_source *ms, const struct plan *p, unsigned cpu)
{
	struct errmsg ignored;
	int rc;

	if (ms->io->open_cpu(ms->io, cpu, &ignored) != 0)
		return;
	ms->cpu_state[cpu] = MC_OPEN;
	ms->batch_dirty = true;
	rc = reprogram_cpu(ms, p, cpu);
	if (rc == -EBUSY) {
		/* Another program took its PMU while it was away. */
		ms->cpu_state[cpu] = MC_BUSY;
	} else if (rc != 0) {
		cpu_gone(ms, cpu);   /* tried again next refresh */
	}
}

/* Read back the plan's registers on `cpus` and, with `reclaim`, write
 * httop's bits back where another program changed them (conflict.c). */
static int
msr_check(struct source *s, const struct cpulist *cpus, bool reclaim, struct source_diff *d,
    unsigned max, struct errmsg *e)
{
	struct msr_source *ms = msr_of(s);
	const struct plan *p = s->plan;
	char name[32];
	unsigned cpu, k, n = 0;
	int r, rc;

	if (p == NULL)
		return 0;
	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (!cpu_usable(ms, cpu) || (cpus != NULL && !cpulist_has(cpus, cpu)))
			continue;
		for (k = 0; k < p->nwrites; k++) {
			const struct plan_write *w = &p->writes[k];
			uint64_t now, v;
			size_t i;

			if (!write_applies(w, cpu_thread(ms, cpu)) || (r = reg_index(ms, w->msr)) < 0)
				continue;
			i = slot_of(cpu, r);
			if (!ms->has[i])
				continue;
			rc = ms->io->rd(ms->io, cpu, w->msr, &now);
			if (rc == -ENXIO)
				break;      /* the next read shows it offline */
			if (rc != 0 || ((now ^ ms->cur[i]) & w->mask) == 0)
				continue;
			if (n < max) {
				d[n].cpu = cpu;
				d[n].msr = w->msr;
				d[n].wrote = ms->cur[i];
				d[n].now = now;
			}
			n++;
			if (!reclaim)
				continue;
			v = (now & ~w->mask) | (w->value & w->mask);
			rc = ms->io->wr(ms->io, cpu, w->msr, v);
			if (rc == -ENXIO)
				break;
			if (rc != 0)
				return errmsg_set(e, _("cannot write 0x%llx back to %s on CPU %u: %s %s"),
				    (unsigned long long)v, msr_name(w->msr, name, sizeof name), cpu,
				    strerror(-rc), access_hint(-rc, true));
			ms->cur[i] = v;
		}
	}
	return (int)n;
}

/* Read one of the plan's control registers on `cpus` (conflict.c, when a
 * counter stopped: which of its enable bits are clear). Reads only. */
static int
msr_read_control(struct source *s, const struct cpulist *cpus, uint32_t msr, uint64_t *val,
    bool *got, struct errmsg *e)
{
	struct msr_source *ms = msr_of(s);
	const struct plan *p = s->plan;
	unsigned cpu, k, n = 0;
	char name[32];

	for (cpu = 0; cpu < ms->max_cpu; cpu++)
		got[cpu] = false;
	if (p == NULL)
		return 0;
	for (k = 0; k < p->ncontrols && p->controls[k].msr != msr; k++)
		;
	if (k == p->ncontrols)
		return errmsg_set(e, _("internal error: %s is not a control register of the plan"),
		    msr_name(msr, name, sizeof name));
	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (!cpu_usable(ms, cpu) || (cpus != NULL && !cpulist_has(cpus, cpu)))
			continue;
		if (ms->io->rd(ms->io, cpu, msr, &val[cpu]) == 0) {
			got[cpu] = true;
			n++;
		}
	}
	return (int)n;
}

/* One CPU's slots: exactly one read each. Returns the cpu_read_state. */
static uint8_t
read_cpu(struct msr_source *ms, const struct plan *p, unsigned cpu, unsigned thread,
    struct sample *out)
{
	uint64_t *row = sample_row(out, cpu);
	unsigned k, n = p->nslots < out->nslots ? p->nslots : out->nslots;
	int rc;

	for (k = 0; k < n; k++) {
		if (!plan_slot_on_thread(&p->slots[k], thread)) {
			row[k] = 0;
			continue;
		}
		rc = ms->io->rd(ms->io, cpu, p->slots[k].msr, &row[k]);
		if (rc != 0) {
			memset(row, 0, (size_t)out->nslots * sizeof *row);
			out->err[cpu] = -rc;
			return rc == -ENXIO ? CPU_OFFLINE : CPU_READ_ERROR;
		}
	}
	out->err[cpu] = 0;
	return CPU_READ_OK;
}

static int
msr_read(struct source *s, struct sample *out, struct errmsg *e)
{
	struct msr_source *ms = msr_of(s);
	const struct plan *p = s->plan;
	const struct topology *t = &s->m->topo;
	unsigned c, k, cpu;

	if (p == NULL)
		return errmsg_set(e, _("internal error: the msr source was read before it was "
		    "programmed"));
	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (ms->cpu_state[cpu] == MC_GONE && source_cpu_selected(s, cpu))
			revive(ms, p, cpu);
	}
	if (ms->batch_dirty && batch_announce(ms, p, e) != 0)
		return -1;
	/* A failed batch is answered read by read (each op's error). */
	if (ms->io->batch_fetch != NULL)
		(void)ms->io->batch_fetch(ms->io);
	/* Core by core, a core's threads back to back: the reads of siblings
	 * are as close in time as the device allows (doc/hardware.md
	 * section 5). */
	for (c = 0; c < t->ncores; c++) {
		const struct topo_core *core = &t->cores[c];

		for (k = 0; k < core->nthreads; k++) {
			uint8_t st;

			cpu = core->cpus[k];
			if (cpu >= out->max_cpu || cpu >= ms->max_cpu)
				continue;
			out->err[cpu] = 0;
			if (!source_cpu_selected(s, cpu)) {
				st = CPU_NOT_READ;
			} else if (ms->cpu_state[cpu] == MC_OFFLINE || ms->cpu_state[cpu] == MC_GONE) {
				st = CPU_OFFLINE;
			} else if (ms->cpu_state[cpu] == MC_BUSY) {
				st = CPU_READ_ERROR;
				out->err[cpu] = EBUSY;
			} else if (ms->cpu_state[cpu] != MC_OPEN) {
				st = CPU_NOT_READ;
			} else {
				st = read_cpu(ms, p, cpu, k, out);
				if (st == CPU_OFFLINE)
					cpu_gone(ms, cpu);
			}
			if (st != CPU_READ_OK)
				memset(sample_row(out, cpu), 0, (size_t)out->nslots * sizeof(uint64_t));
			out->state[cpu] = st;
		}
	}
	out->time = clock_mono() - ms->start;
	out->wall = clock_wall();
	out->seq = ms->seq++;
	return 0;
}

static void
msr_close(struct source *s)
{
	struct msr_source *ms = msr_of(s);
	unsigned cpu;

	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (ms->cpu_state[cpu] == MC_OPEN)
			ms->io->close_cpu(ms->io, cpu);
	}
	ms->io->destroy(ms->io);
	if (ms->free_ext != NULL)
		ms->free_ext(ms->ext);
	free(ms->cpu_state);
	free(ms->saved);
	free(ms->cur);
	free((void *)ms->has);
	free(ms->old);
	free(ms->pending);
	free(ms->ops);
	msr_state_free(ms->state);
	free(ms->sent);
	free(ms);
}

static const struct source_ops msr_ops = {
	.program = msr_program,
	.read = msr_read,
	.advance = NULL,
	.restore = msr_restore,
	.emergency_restore = msr_emergency_restore,
	.close = msr_close,
	.check = msr_check,
	.read_control = msr_read_control,
};

const struct source_ops *
msr_source_engine_ops(void)
{
	return &msr_ops;
}

void
msr_source_set_ext(struct source *s, void *ext, void (*free_ext)(void *))
{
	struct msr_source *ms = msr_of(s);

	ms->ext = ext;
	ms->free_ext = free_ext;
}

void
msr_source_set_state(struct source *s, struct msr_state *st)
{
	struct msr_source *ms = msr_of(s);

	msr_state_free(ms->state);
	free(ms->sent);
	ms->state = st;
	ms->sent = xcalloc((size_t)(ms->max_cpu ? ms->max_cpu : 1) * MSR_MAX_REGS,
	    sizeof *ms->sent);
}

void *
msr_source_ext(const struct source *s)
{
	return msr_of(s)->ext;
}

void
msr_source_io_counts(const struct source *s, uint64_t *reads, uint64_t *writes)
{
	const struct msr_source *ms = msr_of(s);

	if (reads != NULL)
		*reads = ms->io->nreads;
	if (writes != NULL)
		*writes = ms->io->nwrites;
}

struct source *
msr_source_new(struct machine *m, struct msr_io *io, const char *name, struct errmsg *e)
{
	struct msr_source *ms;
	unsigned cpu, nopen = 0, ngone = 0, max_cpu = m->topo.max_cpu;
	struct errmsg why;
	size_t nent = (size_t)(max_cpu ? max_cpu : 1) * MSR_MAX_REGS;
	int rc;

	if (io == NULL) {
		errmsg_set(e, _("internal error: no MSR access method"));
		return NULL;
	}
	ms = xcalloc(1, sizeof *ms);
	ms->src.ops = &msr_ops;
	ms->src.priv = ms;
	ms->src.name = name;
	ms->src.m = m;
	ms->id = &m->id;
	ms->io = io;
	ms->max_cpu = max_cpu;
	ms->cpu_state = xcalloc(max_cpu ? max_cpu : 1, sizeof *ms->cpu_state);
	ms->saved = xcalloc(nent, sizeof *ms->saved);
	ms->cur = xcalloc(nent, sizeof *ms->cur);
	ms->has = xcalloc(nent, sizeof *ms->has);
	ms->old = xcalloc(nent, sizeof *ms->old);
	ms->pending = xcalloc(nent, sizeof *ms->pending);
	ms->ops = xcalloc((size_t)(max_cpu ? max_cpu : 1) * PLAN_MAX_SLOTS, sizeof *ms->ops);
	ms->start = clock_mono();

	for (cpu = 0; cpu < max_cpu; cpu++) {
		const struct topo_cpu *tc = &m->topo.cpus[cpu];

		if (!tc->present)
			continue;
		if (!tc->online) {
			ms->cpu_state[cpu] = MC_OFFLINE;
			continue;
		}
		rc = io->open_cpu(io, cpu, &why);
		if (rc == 0) {
			ms->cpu_state[cpu] = MC_OPEN;
			nopen++;
		} else if (rc == -ENXIO || rc == -ENOENT || rc == -ENODEV) {
			/* Offline, or its device is missing: shown offline, and
			 * tried again at every refresh. If none opens, the first
			 * reason (e.g. "modprobe msr") is the message. */
			if (ngone++ == 0)
				*e = why;
			ms->cpu_state[cpu] = MC_GONE;
		} else {
			*e = why;
			msr_close(&ms->src);
			return NULL;
		}
	}
	if (nopen == 0) {
		if (ngone == 0)
			errmsg_set(e, _("no CPU of the topology could be opened: every one is "
			    "offline or absent"));
		msr_close(&ms->src);
		return NULL;
	}
	return &ms->src;
}

struct source *
msr_source_open(struct machine *m, const char *path_template, struct errmsg *e)
{
	const char *tmpl = path_template != NULL ? path_template : MSR_DEV_TEMPLATE;

	return msr_source_open_io(m, msr_io_file_new(tmpl, m->topo.max_cpu), tmpl, e);
}

struct source *
msr_source_open_io(struct machine *m, struct msr_io *io, const char *tmpl, struct errmsg *e)
{
	struct source *s;

	s = msr_source_new(m, io, "msr", e);
	if (s != NULL) {
		snprintf(s->detail, sizeof s->detail, "%s", tmpl);
		s->needs_rawio = true;
	}
	return s;
}
