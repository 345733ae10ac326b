/* conflict.c: another program reprogrammed the PMU mid-run.
 *
 * The metrics see it first: counts impossible for the programmed events
 * make a core R_REPROGRAMMED (or its split fall back with that reason).
 * Only then are the plan's written registers read back, on the CPUs of
 * the newly flagged cores, so a refresh never reads more than the
 * counters. One incident gives one note. Under report the other
 * program's settings stay in the registers, so a CPU whose registers were
 * found changed (or cannot be read back, as in a replay) stays in its
 * incident to the end: an idle core whose foreign counts happen to look
 * possible for a while is not news when they stop looking so. When only
 * a counter was written, the incident ends with the first clean interval.
 *
 * reclaim writes httop's bits back at once; the interval that follows
 * started before that write, so a flag on it belongs to the same incident
 * (grace); a flag on the one after is the other program fighting back, a
 * new incident. exit restores every register and tells the loop to stop.
 *
 * A stopped counter (thread_fig.stopped: it stood still while its partner
 * advanced) is an incident of its own, per CPU: the control registers of
 * the stopped counters (plan.controls) are read once on the CPUs where it
 * starts, and the note names the enable bits found clear; reclaim sets
 * httop's bits again through check(). The incident lasts while the
 * counter stands still. */
#include "config.h"
#include "run/conflict.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"
#include "util/textput.h"

/* (register, old, new) groups named in a note before "and N more". */
#define GROUPS_SHOWN 4

enum mark {
	MARK_CLEAR = 0,   /* no incident */
	MARK_INCIDENT,    /* flagged and reported; quiet while still flagged */
	MARK_TAKEN,       /* reported, registers not httop's: quiet to the end */
	MARK_GRACE,       /* reclaimed: the next interval straddles the write */
};

struct conflict_state {
	enum conflict_policy policy;
	unsigned max_cpu;            /* size of the arrays below; 0 before the first call */
	uint8_t *mark;               /* enum mark per CPU */
	struct cpulist fresh;        /* CPUs of this interval's new incident */
	uint8_t *smark;              /* per CPU, stopped counters: MARK_CLEAR,
				      * MARK_INCIDENT or MARK_GRACE */
	struct cpulist sfresh;       /* CPUs of this interval's new stop */
	uint64_t *val;               /* a control register per CPU */
	bool *got;                   /* read on that CPU */
	bool *sdone;                 /* per CPU: in a group already (formatting) */
	struct source_diff *diff;    /* what check() found */
	unsigned maxdiff;
	uint8_t *done;               /* per diff: already in a group (formatting) */
	bool *cpus;                  /* per CPU: one group's CPUs (formatting) */
};

struct conflict_state *
conflict_new(enum conflict_policy p)
{
	struct conflict_state *c = xcalloc(1, sizeof *c);

	c->policy = p;
	return c;
}

/* The per-CPU arrays (size_for). */
static void
free_arrays(struct conflict_state *c)
{
	free(c->mark);
	cpulist_free(&c->fresh);
	free(c->smark);
	cpulist_free(&c->sfresh);
	free(c->val);
	free(c->got);
	free(c->sdone);
	free(c->diff);
	free(c->done);
	free(c->cpus);
}

void
conflict_free(struct conflict_state *c)
{
	if (c == NULL)
		return;
	free_arrays(c);
	free(c);
}

/* Sized once for the machine, at the first interval. */
static void
size_for(struct conflict_state *c, unsigned max_cpu)
{
	if (c->max_cpu == max_cpu && c->mark != NULL)
		return;
	free_arrays(c);
	c->max_cpu = max_cpu;
	c->mark = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->mark);
	c->fresh.n = max_cpu;
	c->fresh.has = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->fresh.has);
	c->smark = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->smark);
	c->sfresh.n = max_cpu;
	c->sfresh.has = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->sfresh.has);
	c->val = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->val);
	c->got = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->got);
	c->sdone = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->sdone);
	c->maxdiff = (max_cpu ? max_cpu : 1) * PLAN_MAX_WRITES;
	c->diff = xcalloc(c->maxdiff, sizeof *c->diff);
	c->done = xcalloc(c->maxdiff, sizeof *c->done);
	c->cpus = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->cpus);
}

/* "PERFEVTSEL0 0x63013c -> 0x43003c on CPUs 0-17; ..." with the CPUs that
 * saw the same change grouped. */
static void
put_changes(struct conflict_state *c, unsigned n, char *note, size_t len)
{
	char name[32];
	unsigned i, j, shown = 0, more = 0, ncpus;

	memset(c->done, 0, n * sizeof *c->done);
	for (i = 0; i < n; i++) {
		const struct source_diff *g = &c->diff[i];

		if (c->done[i])
			continue;
		memset(c->cpus, 0, c->max_cpu * sizeof *c->cpus);
		ncpus = 0;
		for (j = i; j < n; j++) {
			const struct source_diff *d = &c->diff[j];

			if (c->done[j] || d->msr != g->msr || d->wrote != g->wrote || d->now != g->now)
				continue;
			c->done[j] = 1;
			if (d->cpu < c->max_cpu && !c->cpus[d->cpu]) {
				c->cpus[d->cpu] = true;
				ncpus++;
			}
		}
		if (shown++ >= GROUPS_SHOWN) {
			more++;
			continue;
		}
		text_put(note, len, _("%s%s 0x%llx -> 0x%llx on %s "), shown > 1 ? "; " : "",
		    source_msr_name(g->msr, name, sizeof name), (unsigned long long)g->wrote,
		    (unsigned long long)g->now, ncpus == 1 ? _("CPU") : _("CPUs"));
		cpulist_append(note, len, c->cpus, c->max_cpu);
	}
	if (more > 0)
		text_put(note, len, ngettext("; and %u more change", "; and %u more changes", more), more);
}

/* Which CPUs start an incident in this interval; updates the marks.
 * Returns how many. */
static unsigned
find_fresh(struct conflict_state *c, const struct topology *t, const struct interval *iv)
{
	unsigned ci, k, nfresh = 0;

	memset(c->fresh.has, 0, c->max_cpu * sizeof *c->fresh.has);
	for (ci = 0; ci < iv->ncores && ci < t->ncores; ci++) {
		const struct core_fig *cf = &iv->cores[ci];
		bool flagged = cf->reason == R_REPROGRAMMED || cf->fallback == R_REPROGRAMMED;

		for (k = 0; k < t->cores[ci].nthreads; k++) {
			unsigned cpu = t->cores[ci].cpus[k];

			if (cpu >= c->max_cpu)
				continue;
			if (c->mark[cpu] == MARK_TAKEN)
				continue;
			if (!flagged || c->mark[cpu] == MARK_GRACE) {
				/* The incident is over, or this interval began
				 * before httop wrote its registers back: a flag
				 * on the next one is a new incident. */
				c->mark[cpu] = MARK_CLEAR;
				continue;
			}
			if (c->mark[cpu] == MARK_INCIDENT)
				continue;
			c->fresh.has[cpu] = true;
			nfresh++;
		}
	}
	return nfresh;
}

static const char *
policy_tail(enum conflict_policy p, bool readable, bool changed)
{
	if (p == CONFLICT_EXIT && !readable)
		return _("httop stops (--on-conflict exit)");
	switch (p) {
	case CONFLICT_RECLAIM:
		return changed ? _("httop wrote its settings back (--on-conflict reclaim)") :
		    _("nothing to write back (--on-conflict reclaim)");
	case CONFLICT_EXIT:
		return _("httop restored the registers and stops (--on-conflict exit)");
	case CONFLICT_REPORT:
	default:
		return _("these cores stay invalid while it lasts (--on-conflict report)");
	}
}

/* Counts impossible for the programmed events: the first kind of
 * incident. 1 when noted, 0 if nothing new, -1 on a failed reclaim. */
static int
handle_reprogrammed(struct conflict_state *c, struct source *s, const struct interval *iv,
    char *note, size_t len, struct errmsg *e)
{
	const struct topology *t = &s->m->topo;
	unsigned cpu, n = 0;
	bool readable = source_can_check(s);
	int got = 0;

	if (find_fresh(c, t, iv) == 0)
		return 0;
	if (readable) {
		got = source_check(s, &c->fresh, c->policy == CONFLICT_RECLAIM, c->diff, c->maxdiff,
		    e);
		if (got < 0)
			return errmsg_prefix(e, _("%.1f s: another program changed the PMU, and "
			    "taking it back failed"), iv->time);
		n = (unsigned)got < c->maxdiff ? (unsigned)got : c->maxdiff;
	}
	for (cpu = 0; cpu < c->max_cpu; cpu++) {
		if (!c->fresh.has[cpu])
			continue;
		if (readable && n == 0)
			c->mark[cpu] = MARK_INCIDENT;
		else if (c->policy == CONFLICT_RECLAIM && readable)
			c->mark[cpu] = MARK_GRACE;
		else
			c->mark[cpu] = MARK_TAKEN;
	}

	text_put(note, len, _("%.1f s: counts impossible for the programmed events on CPUs "), iv->time);
	cpulist_append(note, len, c->fresh.has, c->max_cpu);
	text_put(note, len, ": ");
	if (n > 0) {
		text_put(note, len, _("another program changed "));
		put_changes(c, n, note, len);
	} else if (!readable && s->recorded) {
		text_put(note, len, _("another program reprogrammed the PMU; registers not available "
		    "in a replay"));
	} else if (!readable) {
		text_put(note, len, _("another program reprogrammed the PMU; the %s source cannot "
		    "read its registers back"), s->name);
	} else {
		text_put(note, len, _("httop's registers still hold its settings: another program "
		    "wrote a counter"));
	}
	text_put(note, len, "; %s", policy_tail(c->policy, readable, n > 0));
	return 1;
}

/* Which CPUs start a stop incident in this interval (sfresh); updates the
 * marks. Returns the kinds stopped on them. */
static unsigned
find_fresh_stopped(struct conflict_state *c, const struct interval *iv)
{
	unsigned cpu, kinds = 0;

	memset(c->sfresh.has, 0, c->max_cpu * sizeof *c->sfresh.has);
	for (cpu = 0; cpu < c->max_cpu && cpu < iv->max_cpu; cpu++) {
		const struct thread_fig *t = &iv->threads[cpu];
		unsigned now = t->reason == R_NONE ? t->stopped : 0;

		if (c->smark[cpu] == MARK_GRACE || now == 0) {
			/* Over, or this interval began before httop set its
			 * bits again: a stop in the next one is news. */
			c->smark[cpu] = MARK_CLEAR;
			continue;
		}
		if (c->smark[cpu] == MARK_INCIDENT)
			continue;
		c->sfresh.has[cpu] = true;
		kinds |= now;
	}
	return kinds;
}

/* "instructions retired on CPUs 48-95; core cycles on CPU 3" over the
 * fresh CPUs. */
static void
put_stopped_kinds(struct conflict_state *c, const struct interval *iv, unsigned kinds,
    char *note, size_t len)
{
	unsigned k, cpu, ncpu, nk = 0;

	for (k = 0; k < SLOT_NKINDS; k++) {
		if (!(kinds & KIND_BIT(k)))
			continue;
		ncpu = 0;
		for (cpu = 0; cpu < c->max_cpu; cpu++) {
			c->cpus[cpu] = c->sfresh.has[cpu] && cpu < iv->max_cpu &&
			    (iv->threads[cpu].stopped & KIND_BIT(k));
			ncpu += c->cpus[cpu];
		}
		text_put(note, len, "%s%s %s ", nk++ ? "; " : "", _(slot_kind_title((enum slot_kind)k)),
		    ncpu == 1 ? _("on CPU") : _("on CPUs"));
		cpulist_append(note, len, c->cpus, c->max_cpu);
	}
}

/* Among the fresh CPUs stopped in control ctl's counter, those whose
 * register (in c->val) lacks some of ctl's bits, grouped by what is
 * missing: "FIXED_CTR_CTRL 0x3 (fixed counter 0: OS, USR) on CPUs 4-7".
 * Returns how many groups were written. */
static unsigned
put_cleared(struct conflict_state *c, const struct interval *iv, const struct plan *p,
    const struct plan_control *ctl, char *buf, size_t len, unsigned shown, bool one_kind)
{
	unsigned kind = KIND_BIT(p->slots[ctl->slot].kind), cpu, j, n = 0, ncpu, nkind = 0;
	char name[32];

	for (cpu = 0; cpu < c->max_cpu; cpu++) {
		bool stopped = c->sfresh.has[cpu] && cpu < iv->max_cpu &&
		    (iv->threads[cpu].stopped & kind);

		nkind += stopped;
		c->sdone[cpu] = !stopped || !c->got[cpu] || (ctl->bits & ~c->val[cpu]) == 0;
	}
	for (cpu = 0; cpu < c->max_cpu; cpu++) {
		uint64_t miss = ctl->bits & ~c->val[cpu];

		if (c->sdone[cpu])
			continue;
		/* Every later CPU missing the same bits joins this group. */
		ncpu = 0;
		for (j = cpu; j < c->max_cpu; j++) {
			c->cpus[j] = !c->sdone[j] && (ctl->bits & ~c->val[j]) == miss;
			if (c->cpus[j]) {
				c->sdone[j] = true;
				ncpu++;
			}
		}
		for (j = 0; j < cpu; j++)
			c->cpus[j] = false;
		text_put(buf, len, "%s%s 0x%llx (%s) ", shown + n > 0 ? ", " : "",
		    source_msr_name(ctl->msr, name, sizeof name), (unsigned long long)miss, ctl->what);
		/* The CPUs the note just listed for the one counter: not again. */
		if (one_kind && ncpu == nkind && ncpu > 1) {
			text_put(buf, len, "%s", _("on all of them"));
		} else {
			text_put(buf, len, "%s ", ncpu == 1 ? _("on CPU") : _("on CPUs"));
			cpulist_append(buf, len, c->cpus, c->max_cpu);
		}
		n++;
	}
	return n;
}

/* The stopped counters' enable bits, each register read once on the
 * fresh CPUs: "another program cleared FIXED_CTR_CTRL 0x3 (fixed counter
 * 0: OS, USR) on CPUs 4-7". *owned: groups of httop's own bits. */
static int
put_enables(struct conflict_state *c, struct source *s, const struct interval *iv,
    unsigned kinds, char *note, size_t len, unsigned *owned, struct errmsg *e)
{
	const struct plan *p = s->plan;
	char mine[512] = "", other[512] = "";
	unsigned k, j, g, nmine = 0, nother = 0, nread = 0;
	bool one_kind = (kinds & (kinds - 1)) == 0;
	int rc;

	for (k = 0; k < p->ncontrols; k++) {
		uint32_t msr = p->controls[k].msr;
		bool seen = false;

		if (!(kinds & KIND_BIT(p->slots[p->controls[k].slot].kind)))
			continue;
		for (j = 0; j < k && !seen; j++)
			seen = p->controls[j].msr == msr &&
			    (kinds & KIND_BIT(p->slots[p->controls[j].slot].kind));
		if (seen)
			continue;     /* read with an earlier control */
		if ((rc = source_read_control(s, &c->sfresh, msr, c->val, c->got, e)) < 0)
			return -1;
		nread += (unsigned)rc;
		for (j = k; j < p->ncontrols; j++) {
			const struct plan_control *ctl = &p->controls[j];

			if (ctl->msr != msr || !(kinds & KIND_BIT(p->slots[ctl->slot].kind)))
				continue;
			if (ctl->owned) {
				g = put_cleared(c, iv, p, ctl, mine, sizeof mine, nmine, one_kind);
				nmine += g;
				*owned += g;
			} else {
				nother += put_cleared(c, iv, p, ctl, other, sizeof other, nother,
				    one_kind);
			}
		}
	}
	if (nread == 0) {
		text_put(note, len, _("its control registers could not be read"));
		return 0;
	}
	if (nmine > 0)
		text_put(note, len, _("another program cleared %s"), mine);
	if (nother > 0)
		text_put(note, len, _("%s%s is clear; httop does not set it"), nmine > 0 ? "; " : "",
		    other);
	if (nmine == 0 && nother == 0)
		text_put(note, len, _("its enable bits are set: another program stopped it and "
		    "started it again, or wrote the counter"));
	return 0;
}

/* Counters that stood still while their partners ran: the second kind of
 * incident. 1 when noted, 0 if nothing new, -1 on a failure. */
static int
handle_stopped(struct conflict_state *c, struct source *s, const struct interval *iv,
    char *note, size_t len, struct errmsg *e)
{
	unsigned kinds = find_fresh_stopped(c, iv), owned = 0, cpu;
	bool readable = s->plan != NULL && source_can_read_controls(s);
	bool wrote = false;
	int rc;

	if (kinds == 0)
		return 0;
	if (note[0] != '\0')
		text_put(note, len, "; ");
	text_put(note, len, _("%.1f s: counter stopped: "), iv->time);
	put_stopped_kinds(c, iv, kinds, note, len);
	text_put(note, len, ": ");
	if (readable) {
		if (put_enables(c, s, iv, kinds, note, len, &owned, e) != 0)
			return -1;
	} else if (s->recorded) {
		text_put(note, len, _("registers not available in a replay"));
	} else {
		text_put(note, len, _("the %s source cannot read its registers back"), s->name);
	}
	if (readable && owned > 0 && c->policy == CONFLICT_RECLAIM && source_can_check(s)) {
		rc = source_check(s, &c->sfresh, true, c->diff, c->maxdiff, e);
		if (rc < 0)
			return errmsg_prefix(e, _("%.1f s: another program stopped a counter, and "
			    "setting httop's bits again failed"), iv->time);
		wrote = rc > 0;
	}
	for (cpu = 0; cpu < c->max_cpu; cpu++)
		if (c->sfresh.has[cpu])
			c->smark[cpu] = wrote ? MARK_GRACE : MARK_INCIDENT;
	switch (c->policy) {
	case CONFLICT_RECLAIM:
		text_put(note, len, "; %s", wrote ? _("httop set its bits again (--on-conflict reclaim)") :
		    _("nothing of httop's to set again (--on-conflict reclaim)"));
		break;
	case CONFLICT_EXIT:
		text_put(note, len, "; %s", policy_tail(c->policy, readable, false));
		break;
	case CONFLICT_REPORT:
	default:
		text_put(note, len, "; %s", _("its figures stay absent while it lasts "
		    "(--on-conflict report)"));
		break;
	}
	return 1;
}

int
conflict_handle(struct conflict_state *c, struct source *s, const struct interval *iv,
    enum conflict_action *act, char *note, size_t len, struct errmsg *e)
{
	int a, b;

	*act = CONFLICT_NONE;
	if (len > 0)
		note[0] = '\0';
	size_for(c, s->m->topo.max_cpu);
	if ((a = handle_reprogrammed(c, s, iv, note, len, e)) < 0)
		return -1;
	if ((b = handle_stopped(c, s, iv, note, len, e)) < 0)
		return -1;
	if (a == 0 && b == 0)
		return 0;
	*act = CONFLICT_NOTED;
	if (c->policy == CONFLICT_EXIT) {
		*act = CONFLICT_STOP;
		if (source_restore(s, e) != 0)
			return errmsg_prefix(e, "%s", note);
	}
	return 0;
}

int
conflict_policy_parse(const char *s, enum conflict_policy *p)
{
	if (s == NULL)
		return -1;
	if (strcmp(s, "report") == 0)
		*p = CONFLICT_REPORT;
	else if (strcmp(s, "reclaim") == 0)
		*p = CONFLICT_RECLAIM;
	else if (strcmp(s, "exit") == 0)
		*p = CONFLICT_EXIT;
	else
		return -1;
	return 0;
}

const char *
conflict_policy_name(enum conflict_policy p)
{
	switch (p) {
	case CONFLICT_RECLAIM:
		return "reclaim";
	case CONFLICT_EXIT:
		return "exit";
	case CONFLICT_REPORT:
	default:
		return "report";
	}
}
