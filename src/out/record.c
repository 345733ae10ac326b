/* record.c: httop --record (record.h). The file is opened with care (it
 * may be root that writes it), the trace writer does the format and the
 * crash safety; this file decides what goes in: the header once the plan
 * is final, every sample as read, and the events a replay must show. */
#include "config.h"
#include "out/record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/outfile.h"
#include "trace/trace.h"
#include "util/cpulist.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Longest event text: the trace cuts strings at 1000 bytes. */
#define EVENT_MAX 1000

struct recorder {
	char path[4096];
	int fd;                    /* until the writer owns it */
	bool gzip;
	struct trace_writer *w;
	bool failed;               /* a write failed: nothing more is written */
	unsigned max_cpu;
	bool *offline;             /* per CPU, as last recorded */
	bool *changed;             /* scratch: the CPUs of one event */
	char text[EVENT_MAX + 1];
	bool has_job;
	struct job_ident job;
};

bool
record_gzip(const char *path, bool compress)
{
	size_t n = strlen(path);

	return compress || (n > 3 && strcmp(path + n - 3, ".gz") == 0);
}

struct recorder *
record_open(const char *path, bool compress, bool privileged, struct errmsg *e)
{
	struct recorder *r;
	int fd;

	if (*path == '\0') {
		errmsg_set(e, _("--record: empty file name; give the trace file to write"));
		return NULL;
	}
	if ((fd = outfile_open("--record", path, privileged, e)) < 0)
		return NULL;
	r = xcalloc(1, sizeof *r);
	snprintf(r->path, sizeof r->path, "%s", path);
	r->fd = fd;
	r->gzip = record_gzip(path, compress);
	return r;
}

void
record_set_job(struct recorder *r, const struct job_ident *job)
{
	r->has_job = job != NULL;
	if (job != NULL)
		r->job = *job;
}

int
record_job_ended(struct recorder *r, double time, const char *note, struct errmsg *e)
{
	char ev[EVENT_MAX];

	if (r == NULL || r->failed || r->w == NULL)
		return 0;
	snprintf(ev, sizeof ev, "%s: %s", TRACE_EVENT_JOB_ENDED, note);
	return trace_write_event(r->w, time, ev, e);
}

int
record_start(struct recorder *r, const struct machine *m, const struct plan *plan, bool truth,
    const char *note, struct errmsg *e)
{
	struct trace_wopts o;
	unsigned cpu;

	memset(&o, 0, sizeof o);
	o.name = r->path;
	o.note = note;
	o.gzip = r->gzip;
	o.truth = truth;
	o.job = r->has_job ? &r->job : NULL;
	r->w = trace_writer_open_fd(r->fd, &o, m, plan, e);
	r->fd = -1;                /* the writer's now, closed even on failure */
	if (r->w == NULL) {
		r->failed = true;
		return errmsg_prefix(e, "--record");
	}
	/* The header says which CPUs were online: changes are events. */
	r->max_cpu = m->topo.max_cpu;
	r->offline = xcalloc(r->max_cpu ? r->max_cpu : 1, sizeof *r->offline);
	r->changed = xcalloc(r->max_cpu ? r->max_cpu : 1, sizeof *r->changed);
	for (cpu = 0; cpu < r->max_cpu; cpu++)
		r->offline[cpu] = m->topo.cpus[cpu].present && !m->topo.cpus[cpu].online;
	return 0;
}

/* One event for the CPUs that went offline (or came back) since the last
 * recorded sample: "offline cpu 3", "online cpus 4-7,9". */
static int
state_events(struct recorder *r, const struct sample *s, bool to_offline, struct errmsg *e)
{
	char ev[EVENT_MAX + 32];
	unsigned cpu, count = 0;
	bool off;

	for (cpu = 0; cpu < r->max_cpu; cpu++) {
		off = cpu < s->max_cpu && s->state[cpu] == CPU_OFFLINE;
		r->changed[cpu] = cpu < s->max_cpu && off != r->offline[cpu] && off == to_offline;
		count += r->changed[cpu];
	}
	if (count == 0)
		return 0;
	r->text[0] = '\0';
	cpulist_append(r->text, sizeof r->text, r->changed, r->max_cpu);
	snprintf(ev, sizeof ev, "%s %s %s", to_offline ? "offline" : "online",
	    count == 1 ? "cpu" : "cpus", r->text);
	return trace_write_event(r->w, s->time, ev, e);
}

static void
remember_states(struct recorder *r, const struct sample *s)
{
	unsigned cpu;

	for (cpu = 0; cpu < s->max_cpu && cpu < r->max_cpu; cpu++)
		r->offline[cpu] = s->state[cpu] == CPU_OFFLINE;
}

/* After a failed write: one message that says what the file keeps. */
static int
stopped(struct recorder *r, struct errmsg *e)
{
	uint64_t n = r->w != NULL ? trace_writer_count(r->w) : 0;

	r->failed = true;
	return errmsg_prefix(e, ngettext("recording stopped; %s keeps its first %llu sample",
	    "recording stopped; %s keeps its first %llu samples", n), r->path,
	    (unsigned long long)n);
}

/* Were the job's own figures of the interval absent because the source
 * could not follow a process of it (R_JOB_UNTRACKED)? A replay cannot
 * tell it from the counts: an event says it (replay_source.c). */
static bool
job_untracked(const struct interval *iv)
{
	unsigned ci;

	for (ci = 0; iv != NULL && ci < iv->ncores; ci++)
		if (iv->cores[ci].job_both.kind == V_NONE &&
		    iv->cores[ci].job_both.why == R_JOB_UNTRACKED)
			return true;
	return false;
}

/* The events, then the sample: one block, one write. */
static int
put_sample(struct recorder *r, const struct sample *s, const struct interval *iv,
    const char *why, const char *conflict_note, struct errmsg *e)
{
	char ev[EVENT_MAX + 32];

	if (r->failed || r->w == NULL)
		return errmsg_set(e, _("--record %s: the recording has stopped"), r->path);
	if (why != NULL && *why != '\0' && trace_write_event(r->w, s->time, why, e) != 0)
		return stopped(r, e);
	if (state_events(r, s, true, e) != 0 || state_events(r, s, false, e) != 0)
		return stopped(r, e);
	if (iv != NULL && !iv->valid) {
		snprintf(ev, sizeof ev, "invalid: %s", iv->reason_c[0] != '\0' ? iv->reason_c : "?");
		if (trace_write_event(r->w, s->time, ev, e) != 0)
			return stopped(r, e);
	}
	if (job_untracked(iv) && trace_write_event(r->w, s->time, TRACE_EVENT_JOB_UNTRACKED ": "
	    "the job's own figures absent: a process of it was not tracked", e) != 0)
		return stopped(r, e);
	if (conflict_note != NULL && *conflict_note != '\0') {
		snprintf(ev, sizeof ev, "reprogrammed: %s", conflict_note);
		if (trace_write_event(r->w, s->time, ev, e) != 0)
			return stopped(r, e);
	}
	if (trace_write_sample(r->w, s, e) != 0)
		return stopped(r, e);
	remember_states(r, s);
	return 0;
}

int
record_first(struct recorder *r, const struct sample *s, const char *why, struct errmsg *e)
{
	return put_sample(r, s, NULL, why, NULL, e);
}

int
record_interval(struct recorder *r, const struct sample *cur, const struct interval *iv,
    const char *conflict_note, struct errmsg *e)
{
	return put_sample(r, cur, iv, NULL, conflict_note, e);
}

uint64_t
record_samples(const struct recorder *r)
{
	return r->w != NULL ? trace_writer_count(r->w) : 0;
}

int
record_close(struct recorder *r, struct errmsg *e)
{
	int rc = 0;

	if (r == NULL)
		return 0;
	if (r->w != NULL)
		rc = trace_writer_close(r->w, e);
	if (r->fd >= 0)
		close(r->fd);
	free(r->offline);
	free(r->changed);
	free(r);
	return rc;
}
