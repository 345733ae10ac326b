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
 * new incident. exit restores every register and tells the loop to stop. */
#include "config.h"
#include "run/conflict.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

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
	c->maxdiff = (max_cpu ? max_cpu : 1) * PLAN_MAX_WRITES;
	c->diff = xcalloc(c->maxdiff, sizeof *c->diff);
	c->done = xcalloc(c->maxdiff, sizeof *c->done);
	c->cpus = xcalloc(max_cpu ? max_cpu : 1, sizeof *c->cpus);
}

/* Append to a note; a full buffer just stops growing. */
static void put(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
put(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
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
		put(note, len, _("%s%s 0x%llx -> 0x%llx on %s "), shown > 1 ? "; " : "",
		    source_msr_name(g->msr, name, sizeof name), (unsigned long long)g->wrote,
		    (unsigned long long)g->now, ncpus == 1 ? _("CPU") : _("CPUs"));
		cpulist_append(note, len, c->cpus, c->max_cpu);
	}
	if (more > 0)
		put(note, len, ngettext("; and %u more change", "; and %u more changes", more), more);
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

int
conflict_handle(struct conflict_state *c, struct source *s, const struct interval *iv,
    enum conflict_action *act, char *note, size_t len, struct errmsg *e)
{
	const struct topology *t = &s->m->topo;
	unsigned cpu, n = 0;
	bool readable = source_can_check(s);
	int got = 0;

	*act = CONFLICT_NONE;
	if (len > 0)
		note[0] = '\0';
	size_for(c, t->max_cpu);
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

	put(note, len, _("%.1f s: counts impossible for the programmed events on CPUs "), iv->time);
	cpulist_append(note, len, c->fresh.has, c->max_cpu);
	put(note, len, ": ");
	if (n > 0) {
		put(note, len, _("another program changed "));
		put_changes(c, n, note, len);
	} else if (!readable && s->recorded) {
		put(note, len, _("another program reprogrammed the PMU; registers not available "
		    "in a replay"));
	} else if (!readable) {
		put(note, len, _("another program reprogrammed the PMU; the %s source cannot "
		    "read its registers back"), s->name);
	} else {
		put(note, len, _("httop's registers still hold its settings: another program "
		    "wrote a counter"));
	}
	put(note, len, "; %s", policy_tail(c->policy, readable, n > 0));

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
