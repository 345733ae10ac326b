/* jobiv.c: the job intervals (cluster.h): each node's interval placed in
 * one by its wall-clock stamp (or by when it came, for a node whose clock
 * is off), and each closed when its nodes have given theirs, or late,
 * their figures combined (metrics_combine). */
#include "config.h"
#include "cluster/cluster_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/xalloc.h"

/* A node's clock is taken as not synchronised with the others' when its
 * first stamp is off by an interval and this much more (the lines' own
 * transport delays differ by less than this). */
#define CLOCK_OFF_MAX 2.0
/* A node's paced lines in a row that came after their job interval had
 * closed: then it is placed by when its lines come (job_late_clock). */
#define LATE_LINES 3
/* Job intervals are numbered in a long: a time's number is clamped to
 * this either side, so that no time makes the conversion undefined (a
 * node's stamps are bounded, 1970 to 9999: this is reached only with a
 * -d far below a microsecond). */
#define SLOT_MAX ((double)(1L << 52))

/* The job interval wall-clock time t falls in (its number, clamped). */
static long
job_slot_at(const struct cluster *c, double t, double d)
{
	double x = floor((t - c->t0) / d);

	return !(x > -SLOT_MAX) ? -(long)SLOT_MAX : x < SLOT_MAX ? (long)x : (long)SLOT_MAX;
}

/* A node whose clock is behind the viewer's by less than the threshold
 * of an unsynchronised one (an interval and CLOCK_OFF_MAX) but more than
 * its lines' delay (a VM without NTP, 2 s behind) has each interval placed
 * in a job interval that has already closed: it would be missing from
 * every one. After LATE_LINES such lines in a row, each coming about an
 * interval after the last (not a burst of lines held up on the way, whose
 * stamps are right), it is placed by when its lines come, as a node far
 * off is. Returns the line's time on the viewer's clock. */
static double
job_late_clock(struct cluster *c, struct node *nd, double t, double d)
{
	double now = clock_wall();
	bool paced = nd->prev_came > 0.0 && now - nd->prev_came >= 0.5 * d;

	nd->prev_came = now;
	if (job_slot_at(c, t, d) >= c->next_slot || !paced) {
		nd->late = 0;
		return t;
	}
	if (++nd->late < LATE_LINES)
		return t;
	nd->late = 0;
	nd->clock_off += t - now;
	return now;
}

/* The first interval lands in the middle of job interval 0; the job's
 * time counts from the first node's start, `since` (its "time") before
 * it: not sooner than this viewer's own start (a node's "time" of 1e300
 * would make every job interval's time as large). */
static void
job_set_t0(struct cluster *c, double t, double since, double d)
{
	double el = clock_mono() - c->start_mono;

	if (!(since >= 0.0 && since <= el + d + CLOCK_OFF_MAX))
		since = el;
	c->t0 = t - d / 2.0;
	c->origin = t - since;
	c->have_t0 = true;
	c->next_slot = 0;
}

/* The interval's reason kept with it: allocated only when there is one
 * (thousands of nodes' rings, most intervals valid), and not again while
 * it stays the same. */
static void
rec_reason(struct node_rec *r, const char *reason)
{
	if (r->reason != NULL && strcmp(r->reason, reason) == 0)
		return;
	free(r->reason);
	r->reason = reason[0] != '\0' ? xstrdup(reason) : NULL;
}

void
job_place(struct cluster *c, struct node *nd, double t)
{
	const struct interval *iv = &nd->nv.iv;
	struct node_rec *r;
	double d = c->cfg.delay > 0.0 ? c->cfg.delay : 1.0;
	long s, stamp;

	/* A node whose first stamp is far from this viewer's clock (more than
	 * an interval and a line's delay) is placed by when its lines come. */
	if (nd->slot < 0) {
		double off = t - clock_wall();

		nd->clock_off = fabs(off) > d + CLOCK_OFF_MAX ? off : 0.0;
	}
	t -= nd->clock_off;
	/* A stamp before the last one, or the same: the node's clock was set
	 * back, or stands still (its lines come in order). It is taken as the
	 * next, its offset moved. */
	if (nd->slot >= 0 && t <= nd->prev_t) {
		nd->clock_off += t - (nd->prev_t + d);
		t = nd->prev_t + d;
	}
	/* A stamp ahead of this viewer's clock by more than a line's delay:
	 * the node's clock was set forward. It is taken as coming now (the
	 * slots between would each be waited for, or walked). */
	if (t > clock_wall() + d + CLOCK_OFF_MAX) {
		double now = clock_wall();

		nd->clock_off += t - now;
		t = now;
	}
	if (!c->have_t0)
		job_set_t0(c, t, iv->time, d);
	t = job_late_clock(c, nd, t, d);
	stamp = job_slot_at(c, t, d);
	/* A node paced every d seconds keeps its count whatever its clock's
	 * jitter (a stamp near a job interval's edge); after a gap or a
	 * restart its stamp places it; either way within one job interval of
	 * its stamp's. A line that came sooner than d / 2 after the last
	 * (a node faster than -d) is placed by its stamp, and not at all when
	 * the node has one there already: its surplus pushed its next lines
	 * ahead of time. */
	s = stamp;
	if (nd->slot >= 0 && t - nd->prev_t >= 0.5 * d) {
		if (t - nd->prev_t <= 1.5 * d || s <= nd->slot)
			s = nd->slot + 1;
		s = s > stamp + 1 ? stamp + 1 : s < stamp - 1 ? stamp - 1 : s;
	}
	nd->prev_t = t;
	if (nd->slot >= 0 && s <= nd->slot) {
		nd->surplus++;
		return;
	}
	nd->slot = s;
	if (s < 0)
		return;
	if (s > c->top)
		c->top = s;
	if (c->ring_slot[s % NODE_RING] != s) {
		c->ring_slot[s % NODE_RING] = s;
		c->ring_n[s % NODE_RING] = 0;
	}
	c->ring_n[s % NODE_RING]++;
	r = &nd->rec[s % NODE_RING];
	r->slot = s;
	r->time = iv->time;
	r->wall = t + nd->clock_off;
	r->dt = iv->dt;
	r->valid = iv->valid;
	rec_reason(r, iv->reason_c);
	r->agg = iv->node;
	if (nd->nv.have_weights)
		r->w = nd->nv.w;
	else
		metrics_node_weights(iv, &nd->nv.m.topo, &r->w);
}

void
node_keep_whole(struct node *nd)
{
	const struct interval *iv = &nd->nv.iv;
	struct node_rec *r = &nd->whole;

	nd->has_whole = true;
	r->slot = -1;
	r->time = iv->time;
	r->dt = iv->dt;
	r->wall = nd->nv.unix_time;
	r->valid = iv->valid;
	rec_reason(r, iv->reason_c);
	r->agg = iv->node;
	if (nd->nv.have_weights)
		r->w = nd->nv.w;
	else
		metrics_node_weights(iv, &nd->nv.m.topo, &r->w);
}

const struct node_rec *
cluster_rec(const struct node *n, long slot)
{
	const struct node_rec *r = slot >= 0 ? &n->rec[slot % NODE_RING] : NULL;

	return r != NULL && r->slot == slot ? r : NULL;
}

static void
job_close(struct cluster *c, long s)
{
	struct cluster_job *j = &c->job;
	size_t i, k = 0, nmiss = 0;
	char miss[200];
	bool valid = true;
	double dt = 0.0;
	int first_bad = -1;

	miss[0] = '\0';
	for (i = 0; i < c->n; i++) {
		const struct node_rec *r = cluster_rec(&c->nodes[i], s);

		if (r == NULL) {
			size_t len = strlen(miss);

			if (nmiss++ < 4)
				snprintf(miss + len, sizeof miss - len, "%s%s", len ? ", " : "",
				    c->nodes[i].name);
			continue;
		}
		c->parts[k] = r->agg;
		c->pw[k++] = r->w;
		dt += r->dt;
		if (!r->valid && first_bad < 0)
			first_bad = (int)i;
		valid = valid && r->valid;
	}
	memset(j, 0, sizeof *j);
	j->slot = s;
	j->nnodes = (unsigned)c->n;
	j->nin = (unsigned)k;
	/* The middle of its span, where its nodes' stamps fall. */
	j->wall = c->t0 + ((double)s + 0.5) * c->cfg.delay;
	j->time = j->wall - c->origin;
	j->dt = k > 0 ? dt / (double)k : 0.0;
	metrics_combine(c->parts, c->pw, k, &j->agg);
	j->valid = valid && nmiss == 0;
	/* Files get this text: never translated. */
	if (nmiss > 0)
		snprintf(j->reason, sizeof j->reason, "%zu of %zu nodes missing: %s%s", nmiss, c->n,
		    miss, nmiss > 4 ? ", ..." : "");
	else if (first_bad >= 0)
		snprintf(j->reason, sizeof j->reason, "%.60s: %.190s", c->nodes[first_bad].name,
		    node_rec_reason(cluster_rec(&c->nodes[first_bad], s)));
	c->have_job = true;
	c->jobs++;
	if (c->cfg.on_job != NULL && c->error == 0)
		c->error = c->cfg.on_job(c->cfg.arg, c, j);
}

/* The first job interval from s on that is not late yet (closes when
 * its nodes have given theirs, not a whole interval after its end). */
static long
job_first_not_late(const struct cluster *c, double now, long s)
{
	long k = job_slot_at(c, now, c->cfg.delay) - 1;

	return k > s ? k : s;
}

/* Job interval s: whether any node has an interval in it, whether a node
 * up or starting may give one yet, and the next job interval after s any
 * node has one in (*next; c->top + 1 none). */
static bool
job_slot_scan(const struct cluster *c, long s, bool *waiting, long *next)
{
	bool any = false;
	size_t i, k;

	*waiting = false;
	*next = c->top + 1;
	for (i = 0; i < c->n; i++) {
		const struct node *nd = &c->nodes[i];

		any = any || cluster_rec(nd, s) != NULL;
		/* one still starting may give its first interval yet */
		if ((nd->state == NODE_UP || nd->state == NODE_STARTING) && nd->slot < s)
			*waiting = true;
		for (k = 0; k < NODE_RING; k++)
			if (nd->rec[k].slot > s && nd->rec[k].slot < *next)
				*next = nd->rec[k].slot;
	}
	return any;
}

/* Job interval s closes when every node that is up or starting has given
 * its interval, or a whole interval after its end, without those that
 * have not. Empty ones that are late are passed over at once, up to the
 * next that any node has an interval in: the walk is never longer than
 * the nodes' intervals kept, whatever their stamps (a node's clock set
 * forward by years). */
void
jobs_close_due(struct cluster *c, bool all)
{
	double now = clock_wall(), d = c->cfg.delay;
	long next;

	if (!c->have_t0)
		return;
	while (c->next_slot <= c->top) {
		long s = c->next_slot;
		bool waiting, late = all || now >= c->t0 + (double)(s + 2) * d;

		/* fewer intervals in it than nodes up, and not yet late: no
		 * need to look at each node */
		if (!late && (c->ring_slot[s % NODE_RING] != s ||
		    c->ring_n[s % NODE_RING] < c->active_hint))
			return;
		if (job_slot_scan(c, s, &waiting, &next)) {
			if (waiting && !late)
				return;
			job_close(c, s);
			c->next_slot++;
		} else if (waiting && !late) {
			return;
		} else if (!late) {
			c->next_slot++;
		} else {
			c->next_slot = all ? next : next < job_first_not_late(c, now, s + 1) ? next :
			    job_first_not_late(c, now, s + 1);
		}
	}
}

void
cluster_flush(struct cluster *c)
{
	jobs_close_due(c, true);
}
