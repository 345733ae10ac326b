/* sched_merge.c: busy and any-busy time of a core from its threads'
 * switches (sched_merge.h).
 *
 * Between two consecutive switches of the core (of any of its threads),
 * every thread's state is constant: each busy thread's `ref` gains the
 * gap, and `any` gains it when at least one thread is busy. So with
 * switches at t1 < t2 < ... the counts are sums of gaps, exact to the
 * records' nanosecond stamps.
 *
 * Silent tasks. A switch gives an out record (written while the task
 * leaving runs) and an in record (while the task coming in runs); either
 * says the switch. Some tasks never have a record of their own (on Linux
 * 6.18 in a Firecracker VM: every thread of PID 1, the VM's agent, and
 * the idle task of CPU 1), so a switch from one of them to another is not
 * recorded at all: "X out, next S" then, much later, "Y in, previous
 * idle", and S's switch to idle somewhere between. Counting S busy until
 * Y's record made an idle CPU 4-20% busy (httop --check, case idle).
 * S's end is not known; its span is counted as idle, the error being at
 * most S's run time in the interval, which the source bounds from S's
 * schedstat (sched_source.c). */
#include "config.h"
#include "source/sched/sched_merge.h"

#include <linux/perf_event.h>
#include <string.h>

void
sched_core_init(struct sched_core *c, unsigned n, uint64_t t0)
{
	memset(c, 0, sizeof *c);
	c->n = n > TOPO_MAX_SMT ? TOPO_MAX_SMT : n;
	c->at = t0;
}

void
sched_core_set_job(struct sched_core *c, const struct sched_job *job)
{
	c->job = job;
}

/* The job's counts for dt ns of the states as they are (sched_core's
 * job_both, job_alone, job_shared; each thread's job_ns). */
static void
count_job(struct sched_core *c, uint64_t dt)
{
	unsigned i, nbusy = 0, njob = 0;

	for (i = 0; i < c->n; i++) {
		struct sched_thread *th = &c->t[i];

		if (!th->known || !th->busy)
			continue;
		nbusy++;
		if (th->job) {
			njob++;
			th->job_ns += dt;
		}
	}
	if (njob == 0)
		return;
	if (nbusy > njob)
		c->job_shared += dt;
	else if (njob >= 2)
		c->job_both += dt;
	else
		c->job_alone += dt;
}

/* dt more ns of the core's unended threads (struct sched_thread), counted
 * idle: what counting them busy would have changed. */
static void
unended_keep(struct sched_core *c, uint64_t dt, unsigned nbusy)
{
	unsigned i, njob = 0, nun = 0;

	for (i = 0; i < c->n; i++) {
		const struct sched_thread *th = &c->t[i];

		nun += th->known && th->unended;
		njob += c->job != NULL && th->known && th->busy && th->job;
	}
	for (i = 0; nun > 0 && i < c->n; i++) {
		struct sched_thread *th = &c->t[i];

		if (!th->known || !th->unended)
			continue;
		th->unended_ns += dt;
		th->unended_mixed = th->unended_mixed || nun > 1;
		if (nbusy == 0)
			th->unended_solo += dt;
		if (njob > 0 && nbusy == njob && njob >= 2)
			th->unended_both += dt;
		else if (njob > 0 && nbusy == njob)
			th->unended_alone += dt;
	}
}

void
sched_core_advance(struct sched_core *c, uint64_t t)
{
	uint64_t dt;
	unsigned i, nbusy = 0;

	if (t <= c->at)
		return;
	dt = t - c->at;
	for (i = 0; i < c->n; i++) {
		struct sched_thread *th = &c->t[i];

		if (!th->known) {
			th->unsure |= SCHED_U_UNKNOWN;
			continue;
		}
		if (th->busy) {
			th->ref += dt;
			nbusy++;
			if (th->pending)
				th->ref_since += dt;
		}
	}
	if (nbusy > 0)
		c->any += dt;
	for (i = 0; nbusy == 1 && i < c->n; i++)
		if (c->t[i].known && c->t[i].busy && c->t[i].pending)
			c->t[i].solo_since += dt;
	if (c->job != NULL && nbusy > 0)
		count_job(c, dt);
	unended_keep(c, dt, nbusy);
	c->at = t;
}

void
sched_core_switch(struct sched_core *c, unsigned i, uint64_t t, bool before, bool after,
    bool check)
{
	struct sched_thread *th;

	if (i >= c->n)
		return;
	th = &c->t[i];
	if (!th->known) {
		/* No record of this thread was lost since `at` (a loss would
		 * have been said after it), so it was `before` all the time
		 * from `at` to this switch: count that gap so. Time the core
		 * counted while this thread was unknown (a sibling's switch
		 * came first) is not taken back: advance() made that interval
		 * unsure. */
		th->known = true;
		th->busy = before;
	} else if (check && th->busy != before) {
		th->unsure |= SCHED_U_MISSED;
	}
	sched_core_advance(c, t);
	th->busy = after;
}

static void
add_silent(struct sched_thread *th, uint32_t tid)
{
	unsigned k;

	for (k = 0; k < th->nsilent; k++)
		if (th->silent[k] == tid)
			return;
	if (th->nsilent < SCHED_SILENT_MAX)
		th->silent[th->nsilent++] = tid;
	else
		th->unsure |= SCHED_U_SILENT;   /* more than can be bounded */
}

static void
add_seen(struct sched_thread *th, uint32_t tid, uint64_t ns)
{
	unsigned k;

	for (k = 0; k < th->nseen; k++)
		if (th->seen_tid[k] == tid)
			break;
	if (k == th->nseen) {
		if (th->nseen == SCHED_SILENT_MAX)
			return;   /* not counted: the bound only grows */
		th->seen_tid[th->nseen] = tid;
		th->seen_ns[th->nseen++] = 0;
	}
	th->seen_ns[k] += ns;
}

/* The pending task's span, counted busy from `since`, is counted as idle
 * instead: take back what it added; the task is a silent one of this
 * interval. */
static void
idle_since(struct sched_core *c, struct sched_thread *th)
{
	th->silent_ns += th->ref_since;
	th->ref -= th->ref_since;
	c->any -= th->solo_since;
	th->busy = false;
	add_silent(th, th->task);
}

/* An unended span (struct sched_thread), counted idle up to `at`: the
 * silent task may have run any part of it. */
static void
count_unended(struct sched_core *c, struct sched_thread *th)
{
	th->silent_ns += c->at - th->unended_at;
	th->unended_at = c->at;
	th->unended_ns = th->unended_solo = th->unended_both = th->unended_alone = 0;
	th->unended_mixed = false;
	add_silent(th, th->task);
}

/* The unended span ends at a record (at `at`) whose `before` is busy:
 * the task, or one it switched to unrecorded, ran all along, so the span
 * since the cut is counted busy after all, exactly, as the job's split
 * would have (a task of the job's is never left unended so: its records
 * say it). Another thread of the core unended meanwhile, or the job's
 * task: the span is a silent task's, bounded, as when it went idle. */
static void
end_unended(struct sched_core *c, struct sched_thread *th, bool busy)
{
	if (!busy || th->unended_mixed || (c->job != NULL && th->job)) {
		count_unended(c, th);
	} else {
		th->ref += th->unended_ns;
		c->any += th->unended_solo;
		c->job_both -= th->unended_both;
		c->job_alone -= th->unended_alone;
		c->job_shared += th->unended_both + th->unended_alone;
	}
	th->unended = false;
	th->busy = busy;
}

/* Thread i was believed to run the pending task, and an in record at t
 * says what ran before it: the pending task itself (it ran until t), or
 * another task (the pending one switched to it unrecorded: busy all
 * along), or idle (its end went unrecorded). */
static void
resolve_in(struct sched_core *c, unsigned i, uint32_t prev)
{
	struct sched_thread *th = &c->t[i];

	if (prev != 0)
		return;
	if (th->crossed) {
		th->unsure |= SCHED_U_CROSSED;
		return;
	}
	idle_since(c, th);
}

static void
pend(struct sched_thread *th, uint32_t task, uint64_t t)
{
	th->pending = task != 0;
	th->crossed = false;
	th->task = task;
	th->since = t;
	th->ref_since = th->solo_since = 0;
}

void
sched_core_record(struct sched_core *c, unsigned i, uint64_t t, bool out, uint32_t tid,
    uint32_t other)
{
	struct sched_thread *th;
	bool before, after;

	if (i >= c->n)
		return;
	th = &c->t[i];
	sched_switch_states(out, tid, other, &before, &after);
	if (th->known && th->unended) {
		/* What ran since the cut was not known: the record's `before`
		 * says it, and contradicts nothing. */
		sched_core_advance(c, t);
		end_unended(c, th, before);
	}
	if (th->known && th->pending) {
		sched_core_advance(c, t);
		if (!out && tid != th->task && other != th->task)
			resolve_in(c, i, other);
		else if (!out && tid != th->task && !th->crossed)
			add_seen(th, th->task, th->ref_since);
		th->pending = false;
	}
	sched_core_switch(c, i, t, before, after, out);
	/* An out record names the next task; its own in record says it
	 * came, unless it is silent. */
	if (out && th->known && th->busy)
		pend(th, other, t);
}

/* A silent task is never taken for the job's here: the job's tasks write
 * their records. Should a pending task of the job's end unrecorded
 * (resolve_in), its span's job time stays counted; that interval is
 * already unsure or bounded as the busy time is. */
void
sched_core_record_job(struct sched_core *c, unsigned i, uint64_t t, bool out, uint32_t pid,
    uint32_t tid, uint32_t opid, uint32_t other)
{
	const struct sched_job *j = c->job;
	struct sched_thread *th;

	if (j == NULL || i >= c->n) {
		sched_core_record(c, i, t, out, tid, other);
		return;
	}
	th = &c->t[i];
	if (!th->known)
		th->job = out ? j->is(j->ctx, pid, tid) : j->is(j->ctx, opid, other);
	sched_core_record(c, i, t, out, tid, other);
	th->on_pid = out ? opid : pid;
	th->on_tid = out ? other : tid;
	th->job = j->is(j->ctx, th->on_pid, th->on_tid);
}

void
sched_core_job_tick(struct sched_core *c)
{
	const struct sched_job *j = c->job;
	unsigned i;

	for (i = 0; j != NULL && i < c->n; i++) {
		struct sched_thread *th = &c->t[i];

		if (th->known && th->busy && th->on_tid != 0)
			th->job = j->is(j->ctx, th->on_pid, th->on_tid);
	}
}

void
sched_core_cut(struct sched_core *c)
{
	unsigned i;

	for (i = 0; i < c->n; i++) {
		struct sched_thread *th = &c->t[i];

		if (th->unended) {
			count_unended(c, th);
			continue;
		}
		if (!th->pending)
			continue;
		if (!th->held) {
			idle_since(c, th);
			th->pending = false;
			th->unended = true;
			th->unended_at = c->at;
			count_unended(c, th);
			continue;
		}
		th->crossed = true;
		th->ref_since = th->solo_since = 0;
	}
}

void
sched_core_lost(struct sched_core *c, unsigned i, uint64_t t, uint64_t n)
{
	if (i >= c->n)
		return;
	sched_core_advance(c, t);
	c->t[i].known = false;
	c->t[i].unsure |= SCHED_U_LOST;
	c->t[i].pending = c->t[i].unended = false;
	c->t[i].lost += n;
}

void
sched_core_forget(struct sched_core *c, unsigned i, uint64_t t)
{
	if (i >= c->n)
		return;
	sched_core_advance(c, t);
	c->t[i].known = false;
	c->t[i].unsure |= SCHED_U_UNKNOWN;
	c->t[i].pending = c->t[i].unended = false;
}

void
sched_core_take(struct sched_core *c)
{
	unsigned i;

	for (i = 0; i < c->n; i++) {
		c->t[i].unsure = c->t[i].known ? 0 : SCHED_U_UNKNOWN;
		c->t[i].lost = 0;
		c->t[i].nsilent = 0;
		c->t[i].silent_ns = 0;
		c->t[i].nseen = 0;
	}
}

void
sched_switch_states(bool out, uint32_t tid, uint32_t other, bool *before, bool *after)
{
	*before = out ? tid != 0 : other != 0;
	*after = out ? other != 0 : tid != 0;
}

static uint32_t
get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

/* Header: u32 type, u16 misc, u16 size (linux/perf_event.h). */
#define REC_HDR 8u
/* The sample_id at the end: u32 pid, u32 tid, u64 time. */
#define REC_ID 16u

/* FORK and EXIT: u32 pid, ppid, tid, ptid; u64 time; then the sample_id. */
static int
parse_task(const unsigned char *rec, size_t size, uint32_t type, struct sched_rec *r)
{
	if (size < REC_HDR + 24 + REC_ID)
		return -1;
	r->kind = type == PERF_RECORD_FORK ? SCHED_REC_FORK : SCHED_REC_EXIT;
	r->task_pid = get32(rec + REC_HDR);
	r->ppid = get32(rec + REC_HDR + 4);
	r->task_tid = get32(rec + REC_HDR + 8);
	return 0;
}

int
sched_rec_parse(const unsigned char *rec, size_t size, struct sched_rec *r)
{
	uint32_t type;
	uint16_t misc;

	memset(r, 0, sizeof *r);
	if (size < REC_HDR + REC_ID)
		return -1;
	type = get32(rec);
	memcpy(&misc, rec + 4, sizeof misc);
	r->time = get64(rec + size - 8);
	r->tid = get32(rec + size - 12);
	r->pid = get32(rec + size - 16);
	switch (type) {
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (size < REC_HDR + 8 + REC_ID)
			return -1;
		r->kind = SCHED_REC_SWITCH;
		r->out = (misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
		r->other_pid = get32(rec + REC_HDR);
		r->other = get32(rec + REC_HDR + 4);
		return 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return parse_task(rec, size, type, r);
	case PERF_RECORD_LOST:
		if (size < REC_HDR + 16 + REC_ID)
			return -1;
		r->kind = SCHED_REC_LOST;
		r->lost = get64(rec + REC_HDR + 8);
		return 0;
	default:
		r->kind = SCHED_REC_OTHER;
		return 0;
	}
}

const unsigned char *
sched_ring_at(const unsigned char *data, size_t dsize, uint64_t head, uint64_t tail,
    unsigned char *buf, size_t *size)
{
	size_t off = (size_t)(tail % dsize), first = dsize - off;
	struct perf_event_header h;

	*size = 0;
	if (head - tail < sizeof h)
		return NULL;
	if (first >= sizeof h) {
		memcpy(&h, data + off, sizeof h);
	} else {
		memcpy(&h, data + off, first);
		memcpy((unsigned char *)&h + first, data, sizeof h - first);
	}
	if (h.size < sizeof h || h.size > head - tail)
		return NULL;
	*size = h.size;
	if (h.size > SCHED_REC_MAX)
		return buf;
	if (first >= h.size)
		return data + off;
	memcpy(buf, data + off, first);
	memcpy(buf + first, data, h.size - first);
	return buf;
}

struct peeked {
	bool have;
	size_t size;
	struct sched_rec r;
};

/* The next record of ring r (thread i), parsed, or have = false. */
static void
peek(struct sched_core *c, unsigned i, struct sched_ring *r, struct peeked *p, uint64_t cut)
{
	unsigned char buf[SCHED_REC_MAX];
	const unsigned char *rec;

	p->have = false;
	while (r->data != NULL && r->tail < r->head) {
		rec = sched_ring_at(r->data, r->dsize, r->head, r->tail, buf, &p->size);
		if (rec == NULL) {
			r->tail = r->head;
			sched_core_forget(c, i, cut);
			c->t[i].unsure |= SCHED_U_BROKEN;
			return;
		}
		if (p->size > SCHED_REC_MAX || sched_rec_parse(rec, p->size, &p->r) != 0) {
			r->tail += p->size;
			continue;
		}
		p->have = true;
		return;
	}
}

static void
apply(struct sched_core *c, unsigned i, const struct sched_rec *r, uint64_t *lost)
{
	const struct sched_job *j = c->job;

	if (r->kind == SCHED_REC_SWITCH) {
		sched_core_record_job(c, i, r->time, r->out, r->pid, r->tid, r->other_pid, r->other);
	} else if (r->kind == SCHED_REC_FORK && j != NULL && j->fork != NULL) {
		j->fork(j->ctx, r->ppid, r->task_pid, r->task_tid);
	} else if (r->kind == SCHED_REC_EXIT && j != NULL && j->exit != NULL) {
		j->exit(j->ctx, r->task_pid, r->task_tid);
	} else if (r->kind == SCHED_REC_LOST) {
		*lost += r->lost;
		sched_core_lost(c, i, r->time, r->lost);
	}
}

/* The thread whose next record is the earliest at or before cut, or n. */
static unsigned
earliest(struct sched_core *c, const struct peeked *p, uint64_t cut)
{
	unsigned i, best = c->n;

	for (i = 0; i < c->n; i++) {
		if (!p[i].have)
			continue;
		if (p[i].r.time > cut) {
			if (p[i].r.kind == SCHED_REC_LOST)
				c->t[i].unsure |= SCHED_U_LOST;
			continue;
		}
		if (best == c->n || p[i].r.time < p[best].r.time)
			best = i;
	}
	return best;
}

uint64_t
sched_drain(struct sched_core *c, struct sched_ring *r, uint64_t cut, uint64_t *lost)
{
	struct peeked p[TOPO_MAX_SMT];
	uint64_t used = 0;
	unsigned i, best;

	for (i = 0; i < c->n; i++)
		peek(c, i, &r[i], &p[i], cut);
	while ((best = earliest(c, p, cut)) < c->n) {
		apply(c, best, &p[best].r, lost);
		used++;
		r[best].tail += p[best].size;
		peek(c, best, &r[best], &p[best], cut);
	}
	/* What the next record, after the cut, says of a pending task. */
	for (i = 0; i < c->n; i++)
		c->t[i].held = c->t[i].pending && p[i].have && p[i].r.kind == SCHED_REC_SWITCH &&
		    (p[i].r.tid == c->t[i].task || (!p[i].r.out && p[i].r.other == c->t[i].task));
	sched_core_advance(c, cut);
	return used;
}
