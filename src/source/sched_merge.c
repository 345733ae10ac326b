/* sched_merge.c: busy and any-busy time of a core from its threads'
 * switches (sched_merge.h).
 *
 * Between two consecutive switches of the core (of any of its threads),
 * every thread's state is constant: each busy thread's `ref` gains the
 * gap, and `any` gains it when at least one thread is busy. So with
 * switches at t1 < t2 < ... the counts are sums of gaps, exact to the
 * records' nanosecond stamps. */
#include "config.h"
#include "source/sched_merge.h"

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
sched_core_advance(struct sched_core *c, uint64_t t)
{
	uint64_t dt;
	bool any = false;
	unsigned i;

	if (t <= c->at)
		return;
	dt = t - c->at;
	for (i = 0; i < c->n; i++) {
		struct sched_thread *th = &c->t[i];

		if (!th->known) {
			th->unsure = true;
			continue;
		}
		if (th->busy) {
			th->ref += dt;
			any = true;
		}
	}
	if (any)
		c->any += dt;
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
		th->unsure = true;
	}
	sched_core_advance(c, t);
	th->busy = after;
}

void
sched_core_lost(struct sched_core *c, unsigned i, uint64_t t, uint64_t n)
{
	if (i >= c->n)
		return;
	sched_core_advance(c, t);
	c->t[i].known = false;
	c->t[i].unsure = true;
	c->t[i].lost += n;
}

void
sched_core_forget(struct sched_core *c, unsigned i, uint64_t t)
{
	if (i >= c->n)
		return;
	sched_core_advance(c, t);
	c->t[i].known = false;
	c->t[i].unsure = true;
}

void
sched_core_take(struct sched_core *c)
{
	unsigned i;

	for (i = 0; i < c->n; i++) {
		c->t[i].unsure = !c->t[i].known;
		c->t[i].lost = 0;
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
	switch (type) {
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (size < REC_HDR + 8 + REC_ID)
			return -1;
		r->kind = SCHED_REC_SWITCH;
		r->out = (misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
		r->other = get32(rec + REC_HDR + 4);
		return 0;
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
	bool before, after;

	if (r->kind == SCHED_REC_SWITCH) {
		sched_switch_states(r->out, r->tid, r->other, &before, &after);
		sched_core_switch(c, i, r->time, before, after, r->out);
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
				c->t[i].unsure = true;
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
	sched_core_advance(c, cut);
	return used;
}
