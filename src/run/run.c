/* run.c: a run from calibration to the last interval (run.h). Everything
 * is allocated by run_prepare; a step only reads, computes into the same
 * interval and hands it on. */
#include "config.h"
#include "run/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/history.h"
#include "source/perf/perf_cgroup.h"
#include "source/calibrate.h"
#include "util/cpulist.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static int jobrec_prepare(struct run *r);

void
run_init(struct run *r, struct source *src, struct plan *plan, const struct run_config *cfg)
{
	memset(r, 0, sizeof *r);
	r->src = src;
	r->m = src->m;
	r->plan = plan;
	r->cfg = *cfg;
}

void
run_add_output(struct run *r, const struct output_ops *ops, void *self)
{
	if (r->nout < RUN_MAX_OUTPUTS) {
		r->out[r->nout].ops = ops;
		r->out[r->nout].self = self;
		r->nout++;
	}
}

void
run_set_job_record(struct run *r, struct source *rec, struct plan *plan, const char *note)
{
	r->job.src = rec;
	r->job.plan = plan;
	r->job.why = R_NONE;
	snprintf(r->job.note, sizeof r->job.note, "%s", note != NULL ? note : "");
}

void
run_set_job_counts(struct run *r, struct perf_cgroup *cg, enum reason why)
{
	r->job.cg = cg;
	r->job.cg_ok = false;
	r->job.cg_why = cg != NULL ? R_NONE : why;
}

void
run_set_job_history(struct run *r, struct history *h)
{
	r->job.hist = h;
}

void
run_job_window(struct run *r, enum avg_window w, double seconds, struct interval *iv)
{
	struct run_jobrec *j = &r->job;

	if (j->hist != NULL && j->have && j->why == R_NONE) {
		if (history_compute(j->hist, &j->mc, w, seconds, &j->wiv) > 0.0)
			metrics_take_job(&r->mc, &j->wiv, R_NONE, iv);
		else
			metrics_take_job(&r->mc, NULL, R_NO_RECORD, iv);
	} else if (j->why != R_NONE) {
		metrics_take_job(&r->mc, NULL, j->why, iv);
	}
}

void
run_set_job_absent(struct run *r, enum reason why, const char *note)
{
	r->job.why = why;
	snprintf(r->job.note, sizeof r->job.note, "%s", note != NULL ? note : "");
}

void
run_set_view(struct run *r, const struct cpulist *cpus)
{
	r->view = cpus;
}

void
run_set_job_cpus(struct run *r, const struct cpulist *cpus)
{
	r->jobcpus = cpus;
}

void
run_view_from_samples(struct run *r, bool narrow)
{
	r->view_from_samples = narrow;
	if (!narrow)
		r->view = NULL;
}

const struct cpulist *
run_sample_job(const struct run *r)
{
	return r->sample_job;
}

/* The sample just read and the job: a live job's CPUs go into it (for
 * the recording), a recorded job's come out of it (for the view). */
static void
sample_job(struct run *r, struct sample *s)
{
	unsigned i, n = s->max_cpu;

	if (r->jobcpus != NULL) {
		if (s->job != NULL) {
			s->has_job = true;
			for (i = 0; i < n; i++)
				s->job[i] = cpulist_has(r->jobcpus, i);
		}
		r->sample_job = r->jobcpus;
		return;
	}
	r->sample_job = NULL;
	if (s->has_job) {
		if (r->sjob.n != n) {
			free(r->sjob.has);
			r->sjob.n = n;
			r->sjob.has = xcalloc(n > 0 ? n : 1, sizeof *r->sjob.has);
		}
		for (i = 0; i < n; i++)
			r->sjob.has[i] = s->job[i] != 0;
		r->sample_job = &r->sjob;
	}
	if (r->view_from_samples)
		r->view = r->sample_job;
}

static void
mark(struct run *r)
{
	if (r->cfg.ph != NULL)
		phases_mark(r->cfg.ph);
}

static void
add(struct run *r, enum phase ph)
{
	if (r->cfg.ph != NULL)
		phases_add(r->cfg.ph, ph);
}

int
run_event(struct run *r, enum run_event_kind kind, const char *text)
{
	struct run_event ev;
	unsigned i;

	memset(&ev, 0, sizeof ev);
	ev.kind = kind;
	ev.text = text;
	for (i = 0; i < r->nout; i++) {
		const struct output *o = &r->out[i];

		if (o->ops->event != NULL && o->ops->event(o->self, &ev, &r->e) != 0)
			return -1;
	}
	return 0;
}

/* The split rests on the reference-clock scale and the table and the
 * hardware disagree, or it could not be measured: the user must know
 * which number the split rests on. */
static int
scale_note(struct run *r)
{
	const struct plan *p = r->plan;
	char msg[sizeof p->scale_note + 64];

	if (r->src->recorded || p->scale_expected == 0 || !calibrate_scale_used(p) ||
	    (p->scale_measured && p->scale == p->scale_expected))
		return 0;
	snprintf(msg, sizeof msg, _("reference-clock scale: %s"), p->scale_note);
	return run_event(r, RUN_EV_NOTE, msg);
}

/* A recorded plan carries its scale; a live one is measured first. */
static int
calibrate(struct run *r)
{
	struct calibration c;
	int rc;

	if (r->src->recorded)
		return RUN_OK;
	if (calibrate_start(&c, r->src, r->plan, r->m, r->cfg.force, &r->e) != 0)
		return -1;
	if (c.active) {
		if (r->src->virtual_clock)
			source_advance(r->src, r->cfg.calibrate_seconds);
		else if (r->cfg.sleep != NULL && r->cfg.sleep(r->cfg.calibrate_seconds) != 0) {
			calibrate_free(&c, r->src);
			return RUN_INTERRUPTED;
		}
	}
	rc = calibrate_finish(&c, r->src, r->plan, r->m, &r->e);
	return rc != 0 ? -1 : RUN_OK;
}

int
run_prepare(struct run *r)
{
	const struct topology *t = &r->m->topo;
	unsigned i;
	int rc;

	if ((rc = calibrate(r)) != RUN_OK)
		return rc;
	if (source_program(r->src, r->plan, r->cfg.force, &r->e) != 0)
		return -1;
	/* A replay too: the trace may hold another program's interference. */
	r->conflict = conflict_new(r->cfg.on_conflict);
	for (i = 0; i < 2; i++)
		sample_init(&r->s[i], t->max_cpu, r->src->plan->nslots, t->ncores,
		    r->src->has_truth);
	r->have_samples = true;
	r->prev = &r->s[0];
	r->cur = &r->s[1];
	metrics_ctx_init(&r->mc, r->m, r->src->plan);
	interval_init(&r->iv, r->m);
	r->have_iv = true;
	for (i = 0; i < r->nout; i++) {
		const struct output *o = &r->out[i];

		if (o->ops->start != NULL && o->ops->start(o->self, r, &r->e) != 0)
			return -1;
	}
	r->started = true;
	/* After the outputs started: a record that fails is said to them. */
	if (r->job.note[0] != '\0' && run_event(r, RUN_EV_NOTE, r->job.note) != 0)
		return -1;
	if (jobrec_prepare(r) != 0)
		return -1;
	return scale_note(r) != 0 ? -1 : RUN_OK;
}

/* The record stops; the job's figures are absent from now on, said once
 * (`why`: the record's error). */
static int
jobrec_fail(struct run *r, const char *why)
{
	char msg[sizeof r->e.text + 128];

	r->job.ok = false;
	r->job.src = NULL;
	r->job.why = R_NO_RECORD;
	snprintf(msg, sizeof msg, _("the job's own figures: the scheduler's record stopped (%s); "
	    "they are absent from here on"), why);
	return run_event(r, RUN_EV_NOTE, msg);
}

/* Program the record and allocate what its steps use. */
static int
jobrec_prepare(struct run *r)
{
	struct run_jobrec *j = &r->job;
	const struct topology *t = &r->m->topo;
	struct errmsg e;
	unsigned i;

	if (j->src == NULL)
		return 0;
	if (source_program(j->src, j->plan, false, &e) != 0)
		return jobrec_fail(r, e.text);
	for (i = 0; i < 2; i++)
		sample_init(&j->s[i], t->max_cpu, j->src->plan->nslots, t->ncores, false);
	j->prev = &j->s[0];
	j->cur = &j->s[1];
	metrics_ctx_init(&j->mc, r->m, j->src->plan);
	interval_init(&j->iv, r->m);
	interval_init(&j->wiv, r->m);
	j->have = true;
	return 0;
}

/* The record's sample a run of intervals starts from. */
static int
jobrec_first(struct run *r)
{
	struct errmsg e;

	if (r->job.src == NULL || !r->job.have)
		return 0;
	r->job.ok = source_read(r->job.src, r->job.prev, &e) == 0;
	return r->job.ok ? 0 : jobrec_fail(r, e.text);
}

/* Why the record's interval is unsure (the job's figures then absent,
 * reason lost), or anything else it said of it: said with the interval,
 * as a source's own events are, so that no absent figure goes unexplained
 * (httop(1), JOBS). */
static int
jobrec_events(struct run *r)
{
	const struct source *rec = r->job.src;
	char msg[sizeof rec->events + 160];

	if (rec->events[0] == '\0')
		return 0;
	snprintf(msg, sizeof msg, _("the scheduler's record beside the %s counters, %.3f s: %s"),
	    r->src->name, r->job.cur->time, rec->events);
	return run_event(r, RUN_EV_NOTE, msg);
}

/* After the source's interval: the job's figures from the record's
 * interval of the same moment, or absent with the reason. */
static int
jobrec_step(struct run *r)
{
	struct run_jobrec *j = &r->job;
	struct sample *tmp;
	struct errmsg e;

	if (j->src != NULL && j->ok) {
		if (source_read(j->src, j->cur, &e) != 0) {
			if (jobrec_fail(r, e.text) != 0)
				return -1;
		} else {
			if (jobrec_events(r) != 0)
				return -1;
			metrics_compute(&j->mc, j->prev, j->cur, &j->iv);
			metrics_take_job(&r->mc, &j->iv, R_NONE, &r->iv);
			if (j->hist != NULL) {
				if (r->view != NULL)
					metrics_restrict(&j->mc, r->view, &j->iv);
				history_add(j->hist, j->prev, j->cur, &j->iv);
			}
			tmp = j->prev;
			j->prev = j->cur;
			j->cur = tmp;
			return 0;
		}
	}
	if (j->why != R_NONE)
		metrics_take_job(&r->mc, NULL, j->why, &r->iv);
	return 0;
}

/* The job's cgroup counts now; at the start of a run of intervals (first)
 * only kept, else the interval's CPI and GHz from their deltas. */
static int
jobcg_read(struct run *r, bool first)
{
	struct run_jobrec *j = &r->job;
	uint64_t now[3], d[3];
	struct errmsg e;
	char msg[sizeof e.text + 96];
	bool scaled;
	unsigned i;

	if (j->cg == NULL) {
		if (!first && j->cg_why != R_NONE)
			metrics_job_rates(&r->mc, NULL, j->cg_why, &r->iv);
		return 0;
	}
	if (perf_cgroup_read(j->cg, now, &scaled, &e) != 0) {
		j->cg = NULL;
		j->cg_why = R_READ_ERROR;
		if (!first)
			metrics_job_rates(&r->mc, NULL, j->cg_why, &r->iv);
		snprintf(msg, sizeof msg, _("the job's CPI and GHz are the CPUs' from here on: %s"),
		    e.text);
		return run_event(r, RUN_EV_NOTE, msg);
	}
	if (!first && j->cg_ok) {
		bool back = false;

		/* Counts scaled up for multiplexing are estimates: one that
		 * went back gives no figure. */
		for (i = 0; i < 3; i++) {
			back = back || now[i] < j->cg_prev[i];
			d[i] = now[i] - j->cg_prev[i];
		}
		metrics_job_rates(&r->mc, back ? NULL : d, R_READ_ERROR, &r->iv);
	}
	memcpy(j->cg_prev, now, sizeof now);
	j->cg_ok = true;
	return 0;
}

/* A first read in which no selected CPU could be read would only ever
 * show errors: say why once instead (a wrong --msr-path, say). */
static int
check_first_read(struct run *r, const struct sample *s)
{
	unsigned cpu, bad = 0, first_bad = 0;

	for (cpu = 0; cpu < s->max_cpu; cpu++) {
		if (!source_cpu_selected(r->src, cpu))
			continue;
		/* Lost records make an interval unsure, not the CPU unreadable. */
		if (s->state[cpu] == CPU_READ_OK || s->state[cpu] == CPU_LOST)
			return 0;
		if (bad++ == 0)
			first_bad = cpu;
	}
	if (bad == 0)
		return 0;
	if (s->state[first_bad] == CPU_READ_ERROR && s->err[first_bad] != 0)
		return errmsg_set(&r->e, _("no CPU could be read (%s source %s): CPU %u: %s; check "
		    "the device or file it reads"), r->src->name, r->src->detail, first_bad,
		    strerror(s->err[first_bad]));
	return errmsg_set(&r->e, _("no CPU could be read (%s source %s): CPU %u is %s; check the "
	    "device or file it reads"), r->src->name, r->src->detail, first_bad,
	    s->state[first_bad] == CPU_OFFLINE ? _("offline") : _("not readable"));
}

int
run_first(struct run *r, const char *why, bool jumped, double elapsed)
{
	struct run_event ev;
	unsigned i;
	int rc;

	if (r->src->virtual_clock && elapsed > 0)
		source_advance(r->src, elapsed);
	rc = source_read(r->src, r->prev, &r->e);
	if (rc != 0)
		return rc > 0 ? RUN_END : -1;
	sample_job(r, r->prev);
	if (why == NULL && check_first_read(r, r->prev) != 0)
		return -1;
	if (jobrec_first(r) != 0 || jobcg_read(r, true) != 0)
		return -1;
	if (jumped) {
		conflict_free(r->conflict);
		r->conflict = conflict_new(r->cfg.on_conflict);
	}
	memset(&ev, 0, sizeof ev);
	ev.kind = RUN_EV_FIRST;
	ev.s = r->prev;
	ev.text = why;
	ev.jumped = jumped;
	for (i = 0; i < r->nout; i++) {
		const struct output *o = &r->out[i];

		if (o->ops->event != NULL && o->ops->event(o->self, &ev, &r->e) != 0)
			return -1;
	}
	if (r->src->events[0] != '\0' && run_event(r, RUN_EV_NOTE, r->src->events) != 0)
		return -1;
	return RUN_OK;
}

/* After an interval's metrics: the --on-conflict policy. Fills r->note
 * with the line to show (empty if none); true when the run must end,
 * the reason in r->e. */
static bool
conflict_check(struct run *r)
{
	enum conflict_action act = CONFLICT_NONE;

	r->note[0] = '\0';
	if (conflict_handle(r->conflict, r->src, &r->iv, &act, r->note, sizeof r->note,
	    &r->e) != 0) {
		snprintf(r->note, sizeof r->note, "%s", r->e.text);
		return true;
	}
	if (act == CONFLICT_STOP) {
		if (r->note[0] != '\0')
			errmsg_set(&r->e, "%s", r->note);
		else
			errmsg_set(&r->e, _("another program reprogrammed the counters; stopped as "
			    "--on-conflict exit asks"));
		snprintf(r->note, sizeof r->note, "%s", r->e.text);
		return true;
	}
	if (act != CONFLICT_NOTED)
		r->note[0] = '\0';
	return false;
}

int
run_step(struct run *r, double elapsed)
{
	struct run_step st;
	struct sample *tmp;
	struct errmsg stop_e;
	bool stop, done = false;
	unsigned i;
	int rc;

	if (r->src->virtual_clock)
		source_advance(r->src, elapsed);
	mark(r);
	rc = source_read(r->src, r->cur, &r->e);
	add(r, PHASE_READ);
	if (rc > 0)
		return run_event(r, RUN_EV_END, r->e.text[0] != '\0' ? r->e.text : NULL) != 0 ? -1 :
		    RUN_END;
	if (rc < 0)
		return -1;
	sample_job(r, r->cur);
	metrics_compute(&r->mc, r->prev, r->cur, &r->iv);
	if (jobrec_step(r) != 0 || jobcg_read(r, false) != 0)
		return -1;
	if (r->src->job_untracked)
		metrics_take_job(&r->mc, NULL, R_JOB_UNTRACKED, &r->iv);
	stop = conflict_check(r);
	if (r->view != NULL)
		metrics_restrict(&r->mc, r->view, &r->iv);
	if (r->cfg.min_dt > 0.0 && r->iv.dt < r->cfg.min_dt)
		metrics_too_short(&r->mc, &r->iv);
	add(r, PHASE_COMPUTE);
	stop_e = r->e;
	st.prev = r->prev;
	st.cur = r->cur;
	st.iv = &r->iv;
	st.note = r->note;
	st.events = r->src->events;
	st.source = r->src->name;
	st.stop = stop;
	for (i = 0; i < r->nout; i++) {
		const struct output *o = &r->out[i];

		if (o->ops->interval == NULL)
			continue;
		rc = o->ops->interval(o->self, &st, &r->e);
		add(r, o->ops->phase);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			/* The reader went away: the others need nothing more. */
			done = true;
			break;
		}
	}
	tmp = r->prev;
	r->prev = r->cur;
	r->cur = tmp;
	r->steps++;
	if (r->cfg.ph != NULL)
		phases_count(r->cfg.ph);
	if (stop) {
		r->e = stop_e;
		return -1;
	}
	return done ? RUN_DONE : RUN_OK;
}

int
run_finish(struct run *r, int status, void (*report)(const struct errmsg *e))
{
	struct errmsg e;
	unsigned i;

	for (i = r->nout; i-- > 0;) {
		const struct output *o = &r->out[i];

		if (o->ops->close != NULL && o->ops->close(o->self, &e) != 0) {
			report(&e);
			if (status == 0)
				status = 1;
		}
	}
	r->nout = 0;
	conflict_free(r->conflict);
	r->conflict = NULL;
	if (r->have_iv)
		interval_free(&r->iv);
	r->have_iv = false;
	if (r->have_samples) {
		sample_free(&r->s[0]);
		sample_free(&r->s[1]);
	}
	cpulist_free(&r->sjob);
	r->sample_job = NULL;
	if (r->view == &r->sjob)
		r->view = NULL;
	r->have_samples = false;
	if (r->job.have) {
		sample_free(&r->job.s[0]);
		sample_free(&r->job.s[1]);
		interval_free(&r->job.iv);
		interval_free(&r->job.wiv);
	}
	r->job.have = false;
	if (source_restore(r->src, &e) != 0) {
		report(&e);
		if (status == 0)
			status = 1;
	}
	/* Not an error: restoring it would break the other program. */
	if (r->src->restore_left[0] != '\0') {
		errmsg_set(&e, _("left %s as another program set it (it took the counters over "
		    "while httop ran)"), r->src->restore_left);
		report(&e);
	}
	return status;
}
