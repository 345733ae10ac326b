/* msr_recover.c: what a killed httop left in the PMU.
 *
 * SIGKILL and the OOM killer end httop without its restore: its settings
 * stay in the registers (FIXED_CTR_CTRL 0x333, PERFEVTSEL0 0x63013c on a
 * Skylake-SP) and look like another program's to the next run. httop's
 * own settings are the exact values its plans for this machine write (the
 * main plan and its calibration) in the bits they own, on the threads
 * they write them. A killed run's saved state (msr_state.h) says what was
 * there before it: every register it names that still holds httop's
 * settings is put back; one another program has set since is left to it.
 * httop --restore, with no state to go by, sets httop's bits of the
 * registers that still hold its settings to their power-on value, 0.
 * Nothing outside httop's plans' registers and bits is ever written,
 * whatever a state file says. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/msr/msr_priv.h"
#include "source/sources.h"
#include "util/cpulist.h"
#include "util/i18n.h"
#include "util/xalloc.h"
#include "util/textput.h"

/* Registers and CPUs of one outcome, for the note. */
struct tally {
	bool *cpus;
	unsigned n;                      /* registers counted */
	uint32_t msr[2 * PLAN_MAX_WRITES];
	unsigned nmsr;
};

static void
sig_ready(struct msr_source *ms)
{
	if (ms->sig_ready)
		return;
	plan_for_machine(&ms->sig_main, ms->src.m);
	ms->sig_have_cal = plan_calibration(&ms->sig_cal, &ms->sig_main, ms->src.m);
	ms->sig_ready = true;
}

/* Does `p` write `msr` on `thread`, and does `v` hold its value there? */
static bool
plan_value(const struct plan *p, uint32_t msr, unsigned thread, uint64_t v, bool busy_only,
    uint64_t *mask)
{
	unsigned k;

	for (k = 0; k < p->nwrites; k++) {
		const struct plan_write *w = &p->writes[k];

		if (w->msr != msr || !write_applies(w, thread) || (busy_only && w->busy_mask == 0))
			continue;
		if (((v ^ w->value) & w->mask) == 0) {
			*mask = w->mask;
			return true;
		}
	}
	return false;
}

bool
msr_httop_value(struct msr_source *ms, unsigned cpu, uint32_t msr, uint64_t v, bool busy_only,
    uint64_t *mask)
{
	unsigned th;

	sig_ready(ms);
	th = cpu_thread(ms, cpu);
	return plan_value(&ms->sig_main, msr, th, v, busy_only, mask) ||
	    (ms->sig_have_cal && plan_value(&ms->sig_cal, msr, th, v, busy_only, mask));
}

/* The bits of `msr` httop's plans write on this CPU's thread (`busy`:
 * their busy bits instead); 0 for a register httop never writes there. */
static uint64_t
httop_bits(struct msr_source *ms, unsigned cpu, uint32_t msr, bool busy)
{
	const struct plan *pl[2] = { &ms->sig_main, &ms->sig_cal };
	unsigned th = cpu_thread(ms, cpu), j, k;
	uint64_t bits = 0;

	sig_ready(ms);
	for (j = 0; j < (ms->sig_have_cal ? 2u : 1u); j++) {
		for (k = 0; k < pl[j]->nwrites; k++) {
			const struct plan_write *w = &pl[j]->writes[k];

			if (w->msr == msr && write_applies(w, th))
				bits |= busy ? w->busy_mask : w->mask;
		}
	}
	return bits;
}

long
msr_live_httop(const struct msr_source *ms)
{
	size_t i;

	if (ms->state == NULL)
		return 0;
	for (i = 0; i < ms->state->nrun; i++) {
		const struct msr_state_run *r = &ms->state->run[i];

		if (r->live && strcmp(r->devices, ms->src.detail) == 0)
			return r->pid;
	}
	return 0;
}

static void
tally_add(struct tally *t, unsigned cpu, uint32_t msr)
{
	unsigned j;

	t->cpus[cpu] = true;
	t->n++;
	for (j = 0; j < t->nmsr && t->msr[j] != msr; j++)
		;
	if (j == t->nmsr && t->nmsr < sizeof t->msr / sizeof t->msr[0])
		t->msr[t->nmsr++] = msr;
}

/* "FIXED_CTR_CTRL, PERFEVTSEL0 on CPUs 0-3" */
static void
tally_put(const struct tally *t, unsigned max_cpu, char *buf, size_t len)
{
	char name[32];
	unsigned j, ncpu = 0, cpu;

	for (j = 0; j < t->nmsr; j++)
		text_put(buf, len, "%s%s", j > 0 ? ", " : "", source_msr_name(t->msr[j], name, sizeof name));
	for (cpu = 0; cpu < max_cpu; cpu++)
		ncpu += t->cpus[cpu];
	text_put(buf, len, " %s ", ncpu == 1 ? _("on CPU") : _("on CPUs"));
	cpulist_append(buf, len, t->cpus, max_cpu);
}

/* One register a killed run saved: put back if it still holds httop's
 * settings, left (counted in `left`) if another program set it since. */
static int
put_back(struct msr_source *ms, const struct msr_state_entry *x, struct tally *done,
    struct tally *left, struct errmsg *e)
{
	uint64_t now, own, mask, v;
	char name[32];
	int rc;

	if (x->cpu >= ms->max_cpu || ms->cpu_state[x->cpu] != MC_OPEN)
		return 0;
	own = x->own & httop_bits(ms, x->cpu, x->msr, false);
	if (own == 0 || ms->io->rd(ms->io, x->cpu, x->msr, &now) != 0)
		return 0;
	if (((now ^ x->saved) & own) == 0)
		return 0;     /* as it was before that run */
	if (((now ^ x->wrote) & own) != 0 && !msr_httop_value(ms, x->cpu, x->msr, now, false, &mask)) {
		tally_add(left, x->cpu, x->msr);
		return 0;
	}
	v = (now & ~own) | (x->saved & own);
	if ((rc = ms->io->wr(ms->io, x->cpu, x->msr, v)) != 0)
		return errmsg_set(e, _("could not put %s on CPU %u back to 0x%llx: %s"),
		    source_msr_name(x->msr, name, sizeof name), x->cpu, (unsigned long long)v,
		    strerror(-rc));
	tally_add(done, x->cpu, x->msr);
	return 0;
}

/* The killed runs' states of these devices, each put back (last write
 * first) and its file removed. The first run's PID, or 0. */
static int
put_back_runs(struct msr_source *ms, struct tally *done, struct tally *left, long *pid,
    struct errmsg *e)
{
	struct msr_state *st = ms->state;
	size_t i, k;

	*pid = 0;
	for (i = 0; st != NULL && i < st->nrun; i++) {
		struct msr_state_run *r = &st->run[i];

		if (r->live || r->fd < 0 || strcmp(r->devices, ms->src.detail) != 0)
			continue;
		for (k = r->n; k-- > 0;) {
			if (put_back(ms, &r->ent[k], done, left, e) != 0)
				return -1;
		}
		msr_state_run_done(st, i);
		if (*pid == 0)
			*pid = r->pid;
	}
	return 0;
}

/* The registers httop's plans program (those with busy bits), once each. */
static unsigned
control_regs(struct msr_source *ms, uint32_t *msrs, unsigned max)
{
	const struct plan *pl[2] = { &ms->sig_main, &ms->sig_cal };
	unsigned j, k, i, n = 0;

	sig_ready(ms);
	for (j = 0; j < (ms->sig_have_cal ? 2u : 1u); j++) {
		for (k = 0; k < pl[j]->nwrites; k++) {
			uint32_t msr = pl[j]->writes[k].msr;

			if (pl[j]->writes[k].busy_mask == 0)
				continue;
			for (i = 0; i < n && msrs[i] != msr; i++)
				;
			if (i == n && n < max)
				msrs[n++] = msr;
		}
	}
	return n;
}

/* httop --restore without a state: httop's bits of every register that
 * still holds its settings back to their power-on value. */
static int
reset_defaults(struct msr_source *ms, struct tally *def, struct tally *foreign, struct errmsg *e)
{
	uint32_t msrs[2 * PLAN_MAX_WRITES];
	unsigned n = control_regs(ms, msrs, 2 * PLAN_MAX_WRITES), cpu, j;
	uint64_t now, mask;
	char name[32];
	int rc;

	for (cpu = 0; cpu < ms->max_cpu; cpu++) {
		if (ms->cpu_state[cpu] != MC_OPEN)
			continue;
		for (j = 0; j < n; j++) {
			uint64_t busy = httop_bits(ms, cpu, msrs[j], true);

			if (busy == 0 || ms->io->rd(ms->io, cpu, msrs[j], &now) != 0 ||
			    (now & busy) == 0)
				continue;
			if (!msr_httop_value(ms, cpu, msrs[j], now, true, &mask)) {
				tally_add(foreign, cpu, msrs[j]);
				continue;
			}
			if ((rc = ms->io->wr(ms->io, cpu, msrs[j], now & ~mask)) != 0)
				return errmsg_set(e, _("could not clear httop's bits of %s on CPU %u: "
				    "%s"), source_msr_name(msrs[j], name, sizeof name), cpu,
				    strerror(-rc));
			tally_add(def, cpu, msrs[j]);
		}
	}
	return 0;
}

static void
describe(const struct msr_source *ms, struct tally t[4], long pid, bool defaults, char *note,
    size_t len)
{
	if (t[0].n > 0) {
		text_put(note, len, ngettext("put back %u register that httop (pid %ld), killed before "
		    "it could restore it, had programmed (", "put back %u registers that httop "
		    "(pid %ld), killed before it could restore them, had programmed (", t[0].n),
		    t[0].n, pid);
		tally_put(&t[0], ms->max_cpu, note, len);
		text_put(note, len, "%s", _(") to their values from before that run"));
	}
	if (t[1].n > 0) {
		text_put(note, len, "%s", note[0] != '\0' ? "; " : "");
		text_put(note, len, "%s", _("left "));
		tally_put(&t[1], ms->max_cpu, note, len);
		text_put(note, len, "%s", _(" as another program set it since"));
	}
	if (t[2].n > 0) {
		text_put(note, len, "%s", note[0] != '\0' ? "; " : "");
		text_put(note, len, ngettext("set httop's bits of %u register to their power-on value "
		    "0, with no saved state of the run that left them (", "set httop's bits of %u "
		    "registers to their power-on value 0, with no saved state of the run that left "
		    "them (", t[2].n), t[2].n);
		tally_put(&t[2], ms->max_cpu, note, len);
		text_put(note, len, ")");
	}
	if (t[3].n > 0) {
		text_put(note, len, "%s", note[0] != '\0' ? "; " : "");
		text_put(note, len, "%s", _("left "));
		tally_put(&t[3], ms->max_cpu, note, len);
		text_put(note, len, "%s", _(": another program's settings, not httop's"));
	}
	if (defaults && note[0] == '\0')
		text_put(note, len, "%s", _("nothing to restore: no register holds httop's settings"));
}

int
msr_source_recover(struct source *s, bool defaults, char *note, size_t len, struct errmsg *e)
{
	struct msr_source *ms = msr_of(s);
	struct tally t[4];
	long pid;
	unsigned k;
	int rc = -1;

	if (len > 0)
		note[0] = '\0';
	if (defaults && (pid = msr_live_httop(ms)) != 0)
		return errmsg_set(e, _("another httop (pid %ld) is running on these devices; "
		    "nothing was written: it puts its registers back when it ends"), pid);
	memset(t, 0, sizeof t);
	for (k = 0; k < 4; k++)
		t[k].cpus = xcalloc(ms->max_cpu ? ms->max_cpu : 1, sizeof *t[k].cpus);
	if (put_back_runs(ms, &t[0], &t[1], &pid, e) != 0)
		goto out;
	if (defaults && reset_defaults(ms, &t[2], &t[3], e) != 0)
		goto out;
	describe(ms, t, pid, defaults, note, len);
	rc = 0;
out:
	for (k = 0; k < 4; k++)
		free(t[k].cpus);
	return rc;
}
