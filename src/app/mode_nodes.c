/* mode_nodes.c: many nodes in batch mode (nodes.h): each node's JSON line
 * written as it comes (json: the merged stream, each line carrying its
 * host), or, with --format summary, each job interval as one line per node
 * and one for the job. The one wait (app_nodes_wait) takes the nodes'
 * pipes with the signal pipes; SIGCHLD reaps them. */
#include "config.h"
#include "app/nodes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/context.h"
#include "sys/evloop.h"
#include "sys/signals.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/textwrap.h"

/* A write to standard output or -o FILE failed with `err`: 1 (the reader
 * went away: end quietly), or -1 after saying why. */
static int
write_failed(struct nodes_app *na, int err)
{
	if (err == EPIPE)
		return 1;
	errmsg_set(&na->e, _("writing the merged JSON lines to %s failed: %s; check the disk or "
	    "the program reading httop's output"), na->o->output != NULL ? na->o->output :
	    _("standard output"), strerror(err));
	app_report(&na->e);
	na->write_failed = true;
	return -1;
}

static int
on_line(void *arg, const struct node *n, const char *line, size_t len)
{
	struct nodes_app *na = arg;

	(void)n;
	if (na->o->format != FMT_JSON)
		return 0;
	/* errno from the first call that fails: each line is flushed, so
	 * nothing of an earlier one can fail here. */
	errno = 0;
	if (fwrite(line, 1, len, na->fp) == len && fputc('\n', na->fp) != EOF &&
	    fflush(na->fp) == 0 && !ferror(na->fp))
		return 0;
	return write_failed(na, errno != 0 ? errno : EIO);
}

/* One summary line: a node's interval or the job's. */
static int
summary_line(struct nodes_app *na, const char *host, double time, double wall, bool valid,
    const char *reason, const struct agg_fig *agg, bool whole)
{
	struct interval iv;
	struct errmsg e;

	memset(&iv, 0, sizeof iv);
	iv.time = time;
	iv.wall = wall;
	iv.valid = valid;
	snprintf(iv.reason, sizeof iv.reason, "%s", reason);
	snprintf(iv.reason_c, sizeof iv.reason_c, "%s", reason);
	iv.node = *agg;
	snprintf(na->sm.hostname, sizeof na->sm.hostname, "%s", host);
	if ((whole ? batch_write_whole(na->sum, &iv, &e) : batch_write(na->sum, &iv, &e)) == 0)
		return 0;
	if (batch_errno(na->sum) == EPIPE)
		return 1;
	app_report(&e);
	na->write_failed = true;
	return -1;
}

/* Every node interval of job interval `j` into the whole job: the
 * aggregate so far and each interval's, weighed by their weights. */
static void
add_whole(struct nodes_app *na, const struct cluster *c, const struct cluster_job *j)
{
	struct agg_fig parts[2];
	struct agg_weights w[2];
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct node_rec *r = cluster_rec(&c->nodes[i], j->slot);

		if (r == NULL)
			continue;
		parts[0] = na->whole;
		w[0] = na->whole_w;
		parts[1] = r->agg;
		w[1] = r->w;
		if (na->have_whole)
			metrics_combine(parts, w, 2, &na->whole);
		else
			na->whole = r->agg;
		na->whole_w.time += r->w.time;
		na->whole_w.ref += r->w.ref;
		na->whole_w.inst += r->w.inst;
		na->whole_valid = (na->have_whole ? na->whole_valid : true) && r->valid;
		na->have_whole = true;
	}
	if (j->agg.ncores > na->whole_cores)
		na->whole_cores = j->agg.ncores;
	na->whole_end = j->time;
	na->whole_wall = j->wall;
}

/* --format summary: a job interval as a line per node that gave one (its
 * host as the node says, its own times), then the job's line (host "job",
 * the middle of the job interval: time since the first node started, and
 * as wall-clock time). */
static int
on_job(void *arg, const struct cluster *c, const struct cluster_job *j)
{
	struct nodes_app *na = arg;
	size_t i;
	int rc;

	if (na->o->format != FMT_SUMMARY)
		return 0;
	for (i = 0; i < c->n; i++) {
		const struct node *nd = &c->nodes[i];
		const struct node_rec *r = cluster_rec(nd, j->slot);

		if (r == NULL)
			continue;
		batch_set_scope(na->sum, OUT_SCOPE_NODE);
		rc = summary_line(na, nd->nv.m.hostname[0] ? nd->nv.m.hostname : nd->name, r->time,
		    r->wall, r->valid, node_rec_reason(r), &r->agg, false);
		if (rc != 0)
			return rc;
	}
	add_whole(na, c, j);
	batch_set_scope(na->sum, OUT_SCOPE_JOB);
	return summary_line(na, "job", j->time, j->wall, j->valid, j->reason, &j->agg, false);
}

/* The whole job, the job over: the job line once more, over every node
 * interval of the run (summary's "whole run"). */
static int
whole_job(struct nodes_app *na)
{
	if (!na->have_whole)
		return 0;
	na->whole.ncores = na->whole_cores;
	return summary_line(na, "job", na->whole_end, na->whole_wall, na->whole_valid,
	    na->whole_valid ? "" : "some intervals were not valid", &na->whole, true);
}

static void
say_state(void *arg, const struct node *n)
{
	const struct nodes_app *na = arg;
	long long want = na->o->iterations;

	/* An end is news when it comes before the intervals asked for (with
	 * -n), or at all (without: the nodes run until httop ends). */
	if (n->state == NODE_ENDED) {
		if (want <= 0 || (long long)n->total < want)
			text_msgf(ngettext("httop: node %s ended after %lu interval\n",
			    "httop: node %s ended after %lu intervals\n", n->total), n->name, n->total);
		return;
	}
	if (n->failures > 0 && n->total > 0 && n->state == NODE_LOST)
		text_msgf(_("httop: node %s lost: %s\n"), n->name, n->why);
	else
		text_msgf(_("httop: node %s: %s\n"), n->name, n->why);
}

/* A node that never answered makes the run a failure (each said why
 * when it was lost). */
static int
never_answered(const struct cluster *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->n; i++)
		n += c->nodes[i].total == 0;
	if (n == 0)
		return EXIT_OK;
	text_msgf(ngettext("httop: %zu of %zu nodes gave no interval\n",
	    "httop: %zu of %zu nodes gave no interval\n", c->n), n, c->n);
	return EXIT_FAIL;
}

int
app_nodes_batch(struct nodes_app *na)
{
	const struct options *o = na->o;
	struct cluster_config cfg;
	struct evwait w;
	struct cluster *c = &na->c;
	unsigned wake = 0;
	int status = EXIT_OK;

	na->fp = na->out != NULL ? na->out : stdout;
	if (o->format == FMT_SUMMARY) {
		topology_init(&na->sm.topo);
		na->sum = batch_new(FMT_SUMMARY, na->fp, &na->sm, &na->sp, "nodes");
		batch_set_header(na->sum, isatty(fileno(na->fp)));
	}
	app_nodes_config(na, &cfg);
	/* With -n each node ends after its intervals: a lost one is not
	 * started again (it would begin its count anew). */
	cfg.retry = o->iterations <= 0;
	/* ... and httop ends a node that goes on after them (an httop that
	 * ignores -n): the run ends after N intervals of each. */
	cfg.max_intervals = o->iterations > 0 ? (unsigned long)o->iterations : 0;
	cfg.pass_on = o->format == FMT_JSON;
	cfg.on_line = on_line;
	cfg.on_job = on_job;
	cfg.on_state = say_state;
	cluster_init(c, na->hosts.names, na->hosts.n, &cfg);
	na->have_cluster = true;
	memset(&w, 0, sizeof w);
	w.in_fd = w.out_fd = -1;
	for (;;) {
		cluster_tick(c);
		if (c->error != 0 || cluster_done(c))
			break;
		wake = app_nodes_wait(na, &w, wake, INFINITY);
		if (wake & WAKE_SIGNAL)
			break;
	}
	if (c->error == 0)
		cluster_flush(c);
	/* The whole job: when the run ends other than by -n (the nodes
	 * ended, or a signal). */
	if (c->error == 0 && o->format == FMT_SUMMARY && o->job && o->iterations <= 0 &&
	    whole_job(na) < 0)
		c->error = -1;
	if (c->error < 0)
		status = EXIT_FAIL;
	else if (signals_caught() != 0)
		status = signals_exit_status(signals_caught());
	else if (c->error == 0)
		status = never_answered(c);
	return status;
}
