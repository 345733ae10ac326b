/* replay_source.c: a recorded trace as a counter source. Nothing is
 * programmed or restored; each read is the next complete interval. The
 * clock is virtual: batch mode replays as fast as it can.
 *
 * The live view can also jump. Back to the start opens the file again (a
 * trace is a text stream, so there is no offset to seek to). Its length
 * comes from a second reader that goes through the file once, a chunk at
 * a time while the view is idle (its scan operation); it keeps only the
 * last samples it read, so memory does not grow with the trace, and
 * a jump to the end hands those two out without reading the file again. */
#include "config.h"
#include "source/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"

/* A reader with the machine and plan it fills (they must outlive it). */
struct reader {
	struct trace_reader *r;
	struct machine m;
	struct plan plan;
};

struct replay {
	char path[4096];
	struct trace_reader *head;  /* read the header into the source's m, plan */
	struct reader again[2];     /* after a rewind: the data reader (one of them) */
	struct trace_reader *rd;    /* the data reader: head or again[i].r; NULL at end */
	bool rd_done;               /* the data reader has met the end */
	uint64_t pos;               /* samples handed out since the start */

	/* The length, from the scan. */
	struct reader scan;
	bool scanning, scanned, scan_failed;
	char scan_error[512];
	uint64_t total;             /* complete samples seen by the scan */
	double t_first, t_last;     /* times of the first and last of them */
	/* The last two complete samples, in a ring of three: a read that
	 * meets a cut-off interval has already written into its sample. */
	struct sample tail[3];
	char tail_events[3][512];
	unsigned pending;           /* tail samples still to hand out (end jump) */

	/* One sample read ahead, for the live view to pace the next interval
	 * by its recorded length (its peek_time operation). */
	struct sample ahead;
	bool ahead_alloc, have_ahead;
	int ahead_rc;
	struct errmsg ahead_e;
	char ahead_events[512];
	struct job_ident job;       /* the trace's job line (source's recorded_job) */
};

static void
reader_close(struct reader *rd)
{
	if (rd->r == NULL)
		return;
	trace_close(rd->r);
	rd->r = NULL;
	machine_free(&rd->m);
}

/* Open the trace again into rd (closed); it must still be the trace the
 * source describes. */
static int
reader_open(struct replay *rp, const struct source *s, struct reader *rd, struct errmsg *e)
{
	if ((rd->r = trace_open(rp->path, &rd->m, &rd->plan, e)) == NULL)
		return errmsg_prefix(e, _("reading the trace again"));
	if (rd->m.topo.max_cpu != s->m->topo.max_cpu || rd->plan.nslots != s->plan->nslots ||
	    rd->m.topo.ncores != s->m->topo.ncores) {
		reader_close(rd);
		return errmsg_set(e, _("%s is no longer the trace being replayed (its header "
		    "changed); start the replay again"), rp->path);
	}
	return 0;
}

/* The trace holds every CPU it recorded; --cpus leaves the others out,
 * as the live sources do by not reading them. */
static void
select_cpus(const struct source *s, struct sample *out)
{
	unsigned cpu;

	if (s->selected.n == 0)
		return;
	for (cpu = 0; cpu < out->max_cpu; cpu++) {
		if (!cpulist_has(&s->selected, cpu)) {
			out->state[cpu] = CPU_NOT_READ;
			out->err[cpu] = 0;
		}
	}
}

/* The next sample from wherever it comes: the tail after a jump to the
 * end, else the data reader. */
static int
fetch(struct replay *rp, struct sample *out, char *events, size_t len, struct errmsg *e)
{
	int rc;

	if (rp->pending > 0) {
		unsigned k = (unsigned)((rp->total - rp->pending) % 3);

		sample_copy(out, &rp->tail[k]);
		snprintf(events, len, "%s", rp->tail_events[k]);
		rp->pending--;
		return 0;
	}
	events[0] = '\0';
	if (rp->rd == NULL) {
		rp->rd_done = true;
		return 1;
	}
	rc = trace_next(rp->rd, out, e);
	if (rc > 0)
		rp->rd_done = true;
	if (rc == 0)
		snprintf(events, len, "%s", trace_last_event(rp->rd));
	return rc;
}

/* The end came before a second sample: the trace holds no interval, which
 * is an error (a recording cut short), not a replay that ends. The
 * reader's words say where it was cut, if it was. */
static int
no_interval(const struct replay *rp, struct errmsg *e)
{
	char path[256];

	if (e == NULL || e->text[0] != '\0')
		return -1;
	text_escape(path, sizeof path, rp->path);
	return errmsg_set(e, ngettext("%s: the trace ends after %u complete sample, before its "
	    "first interval (the difference of two samples): there is nothing to replay; record "
	    "again and let the recording run for two intervals at least",
	    "%s: the trace ends after %u complete samples, before its first interval (the "
	    "difference of two samples): there is nothing to replay; record again and let the "
	    "recording run for two intervals at least", (unsigned long)rp->pos), path,
	    (unsigned)rp->pos);
}

/* The job's end the events before this sample recorded: its note (up to
 * the next event), or "". */
static void
job_ended_note(struct source *s)
{
	const char *p = strstr(s->events, TRACE_EVENT_JOB_ENDED ": "), *end;
	size_t n;

	s->job_ended[0] = '\0';
	if (p == NULL)
		return;
	p += strlen(TRACE_EVENT_JOB_ENDED ": ");
	end = strstr(p, "; ");
	n = end != NULL ? (size_t)(end - p) : strlen(p);
	snprintf(s->job_ended, sizeof s->job_ended, "%.*s", (int)(n < 255 ? n : 255), p);
}

static int
replay_read(struct source *s, struct sample *out, struct errmsg *e)
{
	struct replay *rp = s->priv;
	int rc;

	if (rp->have_ahead) {
		rp->have_ahead = false;
		if (rp->ahead_rc != 0) {
			if (e != NULL)
				*e = rp->ahead_e;
			return rp->ahead_rc > 0 && rp->pos < 2 ? no_interval(rp, e) : rp->ahead_rc;
		}
		sample_copy(out, &rp->ahead);
		snprintf(s->events, sizeof s->events, "%s", rp->ahead_events);
	} else if ((rc = fetch(rp, out, s->events, sizeof s->events, e)) != 0) {
		return rc > 0 && rp->pos < 2 ? no_interval(rp, e) : rc;
	}
	rp->pos++;
	s->job_untracked = strstr(s->events, TRACE_EVENT_JOB_UNTRACKED ":") != NULL;
	job_ended_note(s);
	if (rp->pos == 1)
		rp->t_first = out->time;
	/* A trace still being recorded grows past what the scan saw. */
	if (rp->scanned && rp->pos > rp->total) {
		rp->total = rp->pos;
		rp->t_last = out->time;
	}
	select_cpus(s, out);
	return 0;
}

static int
replay_peek_time(struct source *s, double *t, struct errmsg *e)
{
	struct replay *rp = s->priv;
	const struct topology *topo = &s->m->topo;

	if (!rp->ahead_alloc) {
		sample_init(&rp->ahead, topo->max_cpu, s->plan->nslots, topo->ncores, true);
		rp->ahead_alloc = true;
	}
	if (!rp->have_ahead) {
		rp->ahead_e.text[0] = '\0';
		rp->ahead_rc = fetch(rp, &rp->ahead, rp->ahead_events, sizeof rp->ahead_events,
		    &rp->ahead_e);
		rp->have_ahead = true;
	}
	if (rp->ahead_rc == 0)
		*t = rp->ahead.time;
	else if (e != NULL)
		*e = rp->ahead_e;
	return rp->ahead_rc;
}

static void
replay_close(struct source *s)
{
	struct replay *rp = s->priv;

	reader_close(&rp->again[0]);
	reader_close(&rp->again[1]);
	reader_close(&rp->scan);
	if (rp->scanning || rp->scanned) {
		sample_free(&rp->tail[0]);
		sample_free(&rp->tail[1]);
		sample_free(&rp->tail[2]);
	}
	if (rp->ahead_alloc)
		sample_free(&rp->ahead);
	trace_close(rp->head);
	free(rp);
	free(s);
}

static int
scan_fail(struct replay *rp, struct errmsg *e)
{
	rp->scan_failed = true;
	snprintf(rp->scan_error, sizeof rp->scan_error, "%s", e->text);
	reader_close(&rp->scan);
	return -1;
}

static int
replay_scan(struct source *s, unsigned budget, struct errmsg *e)
{
	struct replay *rp = s->priv;
	const struct topology *t = &s->m->topo;
	unsigned n;
	int rc;

	if (rp->scanned)
		return 1;
	if (rp->scan_failed)
		return errmsg_set(e, "%s", rp->scan_error);
	if (!rp->scanning) {
		if (reader_open(rp, s, &rp->scan, e) != 0)
			return scan_fail(rp, e);
		/* Room for simulator truth whether or not the trace has it:
		 * sample_copy copies it only where the reader's sample has it. */
		for (n = 0; n < 3; n++)
			sample_init(&rp->tail[n], t->max_cpu, s->plan->nslots, t->ncores, true);
		rp->scanning = true;
	}
	for (n = 0; budget == 0 || n < budget; n++) {
		unsigned k = (unsigned)(rp->total % 3);

		rc = trace_next(rp->scan.r, &rp->tail[k], e);
		if (rc < 0)
			return scan_fail(rp, e);
		if (rc > 0) {
			/* A cut-off last interval is not an error here either. */
			reader_close(&rp->scan);
			rp->scanning = false;
			rp->scanned = true;
			if (rp->pos > rp->total)
				rp->total = rp->pos;
			return 1;
		}
		snprintf(rp->tail_events[k], sizeof rp->tail_events[k], "%s",
		    trace_last_event(rp->scan.r));
		if (rp->total == 0)
			rp->t_first = rp->tail[k].time;
		rp->t_last = rp->tail[k].time;
		rp->total++;
	}
	return 0;
}

static int
replay_rewind(struct source *s, struct errmsg *e)
{
	struct replay *rp = s->priv;

	struct reader *rd = &rp->again[rp->again[0].r == rp->rd ? 1 : 0];

	/* Into the reader not in use: a failure leaves the replay as it was. */
	reader_close(rd);
	if (reader_open(rp, s, rd, e) != 0)
		return -1;
	reader_close(&rp->again[rd == &rp->again[0] ? 1 : 0]);
	rp->rd = rd->r;
	rp->rd_done = false;
	rp->have_ahead = false;
	rp->pending = 0;
	rp->pos = 0;
	s->events[0] = '\0';
	return 0;
}

static int
replay_seek_end(struct source *s, struct errmsg *e)
{
	struct replay *rp = s->priv;

	if (replay_scan(s, 0, e) < 0)
		return -1;
	/* The data reader is done with: the rest comes from the tail. */
	reader_close(&rp->again[0]);
	reader_close(&rp->again[1]);
	rp->rd = NULL;
	rp->rd_done = false;
	rp->have_ahead = false;
	rp->pending = rp->total < 2 ? (unsigned)rp->total : 2;
	rp->pos = rp->total - rp->pending;
	s->events[0] = '\0';
	return 0;
}

static void
replay_pos(const struct source *s, struct source_pos *ri)
{
	const struct replay *rp = s->priv;

	memset(ri, 0, sizeof *ri);
	ri->pos = rp->pos;
	ri->total_known = rp->scanned;
	ri->total = rp->scanned ? rp->total : 0;
	ri->t_first = rp->t_first;
	ri->t_last = rp->scanned ? rp->t_last : 0.0;
	ri->at_end = rp->rd_done || (rp->scanned && rp->pos >= rp->total && rp->pending == 0);
}

static const struct source_ops replay_ops = {
	.program = NULL,
	.read = replay_read,
	.advance = NULL,
	.restore = NULL,
	.emergency_restore = NULL,
	.close = replay_close,
};

static const struct source_seek_ops replay_seek_ops = {
	.peek_time = replay_peek_time,
	.scan = replay_scan,
	.rewind = replay_rewind,
	.seek_end = replay_seek_end,
	.pos = replay_pos,
};

static struct source *
replay_open(const char *path, bool once, struct machine *m, struct plan *plan, struct errmsg *e)
{
	struct trace_reader *r;
	struct replay *rp;
	struct source *s;

	r = once ? trace_open_once(path, m, plan, e) : trace_open(path, m, plan, e);
	if (r == NULL)
		return NULL;
	rp = xcalloc(1, sizeof *rp);
	snprintf(rp->path, sizeof rp->path, "%s", path);
	rp->head = r;
	rp->rd = r;
	s = xcalloc(1, sizeof *s);
	s->ops = &replay_ops;
	/* Read once: no going back, no second reading for the length. */
	s->seek = once ? NULL : &replay_seek_ops;
	s->priv = rp;
	s->name = "replay";
	s->force_moot = N_("a replay programs no counters");
	s->virtual_clock = true;
	s->recorded = true;
	/* A replay of a simulator's recording brings its truth along. */
	s->has_truth = trace_has_truth(r);
	if (trace_job(r) != NULL) {
		rp->job = *trace_job(r);
		s->recorded_job = &rp->job;
	}
	s->m = m;
	s->plan = plan;
	snprintf(s->detail, sizeof s->detail, "%s (%s)", path, trace_producer(r));
	return s;
}

struct source *
replay_source_new(const char *path, struct machine *m, struct plan *plan, struct errmsg *e)
{
	return replay_open(path, false, m, plan, e);
}

struct source *
replay_source_once(const char *path, struct machine *m, struct plan *plan, struct errmsg *e)
{
	return replay_open(path, true, m, plan, e);
}
