/* app_nodes.c: many nodes (app_nodes.h): give the privilege up, expand
 * the node list, make the nodes' command line, then the live view or
 * batch mode. In batch mode each node's JSON line is written as it comes
 * (json: the merged stream, each line carrying its host), or, with
 * --format summary, each job interval as one line per node and one for
 * the job. The one wait (evloop_wait) takes the nodes' pipes with the
 * signal pipes; SIGCHLD reaps them. */
#include "config.h"
#include "app_nodes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app.h"
#include "cluster/nodelist.h"
#include "evloop.h"
#include "out/outfile.h"
#include "privilege.h"
#include "signals.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Descriptors httop needs besides two per node (terminal, signal pipes,
 * the C library's, a tool's pipes). */
#define FD_SPARE 32

static void
report(const struct errmsg *e)
{
	fprintf(stderr, "httop: %s\n", e->text);
}

/* Two descriptors a node: raise the soft limit as far as the hard one
 * allows, or say how many nodes fit. */
static int
fd_room(size_t n, struct errmsg *e)
{
	struct rlimit r;
	rlim_t want = (rlim_t)(2 * n + FD_SPARE);

	if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur >= want)
		return 0;
	r.rlim_cur = r.rlim_max == RLIM_INFINITY || r.rlim_max >= want ? want : r.rlim_max;
	setrlimit(RLIMIT_NOFILE, &r);
	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur >= want)
		return 0;
	return errmsg_set(e, _("%zu nodes need %lu open files, and this process may open %lu; "
	    "raise the limit (ulimit -n) or watch fewer nodes"), n, (unsigned long)want,
	    (unsigned long)r.rlim_cur);
}

static void
nodelist_env(const struct options *o, struct nodelist_env *env)
{
	const char *b = secure_getenv("HTTOP_HOSTLIST");

	memset(env, 0, sizeof *env);
	env->fixed_path = privilege_gained();
	env->envp = o->user_env;
	env->child_setup = signals_inherit;
	env->builtin_only = b != NULL && strcmp(b, "builtin") == 0;
}

/* The remote httop's words: itself, batch JSON, -d, -n in batch mode,
 * --job, and the options it takes as given. */
static char **
remote_words(const struct options *o, size_t *n)
{
	char **w = xcalloc(o->nremote_args + 16, sizeof *w), num[32];
	size_t k = 0, i;

	w[k++] = xstrdup(o->remote_httop != NULL ? o->remote_httop : "httop");
	w[k++] = xstrdup("-b");
	w[k++] = xstrdup("--format");
	w[k++] = xstrdup("json");
	snprintf(num, sizeof num, "%g", o->delay);
	w[k++] = xstrdup("-d");
	w[k++] = xstrdup(num);
	if (o->iterations > 0 && (o->batch || !isatty(STDOUT_FILENO))) {
		snprintf(num, sizeof num, "%lld", o->iterations);
		w[k++] = xstrdup("-n");
		w[k++] = xstrdup(num);
	}
	if (o->job && o->job_id != NULL) {
		w[k++] = xstrdup("--job");
		w[k++] = xstrdup(o->job_id);
	}
	for (i = 0; i < o->nremote_args; i++)
		w[k++] = xstrdup(o->remote_args[i]);
	*n = k;
	return w;
}

static void
words_free(char **w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

/* -o FILE (which implies -b): the merged lines or the summary go there,
 * opened as every output file is (out/outfile.h). */
static int
open_output(struct nodes_app *na)
{
	int fd;

	if (na->o->output == NULL || strcmp(na->o->output, "-") == 0)
		return 0;
	if ((fd = outfile_open("-o", na->o->output, privilege_held(), &na->e)) < 0)
		return -1;
	if ((na->out = fdopen(fd, "w")) == NULL) {
		close(fd);
		return errmsg_set(&na->e, _("-o %s: %s"), na->o->output, strerror(errno));
	}
	return 0;
}

/* The nodes, the transport: everything before the first node starts. */
static int
prepare(struct nodes_app *na)
{
	const struct options *o = na->o;
	struct nodelist_env env;
	char **w;
	size_t nw;
	const char *via = o->via != NULL ? o->via : o->all_nodes ? "srun" : "ssh";
	int rc;

	/* Nothing here needs privilege: give it up before anything runs. */
	if (privilege_gained() && privilege_drop(false, NULL, 0, &na->e) != 0)
		return -1;
	nodelist_env(o, &env);
	if (o->all_nodes) {
		if (nodelist_of_job(o->job_id, &env, na->spec, sizeof na->spec, &na->e) != 0)
			return -1;
	} else {
		snprintf(na->spec, sizeof na->spec, "%s", o->nodes);
	}
	/* A list or a --via that cannot be used is a bad value (status 2). */
	na->usage = true;
	if (nodelist_expand(na->spec, &env, &na->hosts, na->how, sizeof na->how, &na->e) != 0)
		return -1;
	na->usage = false;
	if (fd_room(na->hosts.n, &na->e) != 0)
		return -1;
	w = remote_words(o, &nw);
	rc = transport_init(&na->tr, via, o->job ? o->job_id : NULL, w, nw, privilege_gained(),
	    o->user_env, &na->e);
	words_free(w, nw);
	if (rc != 0)
		return na->usage = true, -1;
	na->have_tr = true;
	if (signals_watch_children() != 0)
		return errmsg_set(&na->e, _("cannot watch the nodes' processes: %s"), strerror(errno));
	return open_output(na);
}

/* --- batch ------------------------------------------------------------------- */

static int
on_line(void *arg, const struct node *n, const char *line, size_t len)
{
	struct nodes_app *na = arg;

	(void)n;
	if (na->o->format != FMT_JSON)
		return 0;
	fwrite(line, 1, len, na->fp);
	fputc('\n', na->fp);
	if (fflush(na->fp) != 0 || ferror(na->fp))
		return errno == EPIPE ? 1 : -1;
	return 0;
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
	return batch_errno(na->sum) == EPIPE ? 1 : (report(&e), -1);
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
		rc = summary_line(na, nd->nv.m.hostname[0] ? nd->nv.m.hostname : nd->name, r->time,
		    r->wall, r->valid, r->reason, &r->agg, false);
		if (rc != 0)
			return rc;
	}
	add_whole(na, c, j);
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
on_state(void *arg, const struct node *n)
{
	const struct nodes_app *na = arg;
	long long want = na->o->iterations;

	/* An end is news when it comes before the intervals asked for (with
	 * -n), or at all (without: the nodes run until httop ends). */
	if (n->state == NODE_ENDED) {
		if (want <= 0 || (long long)n->total < want)
			fprintf(stderr, ngettext("httop: node %s ended after %lu interval\n",
			    "httop: node %s ended after %lu intervals\n", n->total), n->name, n->total);
		return;
	}
	if (n->failures > 0 && n->total > 0 && n->state == NODE_LOST)
		fprintf(stderr, _("httop: node %s lost: %s\n"), n->name, n->why);
	else
		fprintf(stderr, _("httop: node %s: %s\n"), n->name, n->why);
}

void
app_nodes_config(struct nodes_app *na, struct cluster_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->tr = &na->tr;
	cfg->delay = na->o->delay;
	cfg->fanout = na->tr.via == VIA_CMD ? 0 : CLUSTER_FANOUT_SSH;
	cfg->retry = true;
	cfg->envp = na->o->user_env;
	cfg->child_setup = signals_inherit;
	cfg->arg = na;
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
	fprintf(stderr, ngettext("httop: %zu of %zu nodes gave no interval\n",
	    "httop: %zu of %zu nodes gave no interval\n", c->n), n, c->n);
	return EXIT_FAIL;
}

static int
batch(struct nodes_app *na)
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
	cfg.on_line = on_line;
	cfg.on_job = on_job;
	cfg.on_state = on_state;
	cluster_init(c, na->hosts.names, na->hosts.n, &cfg);
	na->have_cluster = true;
	memset(&w, 0, sizeof w);
	w.in_fd = w.out_fd = -1;
	for (;;) {
		cluster_tick(c);
		if (c->error != 0 || cluster_done(c))
			break;
		w.nfds = (unsigned)cluster_pollfds(c, &w.fds);
		w.deadline = cluster_deadline(c);
		if (wake == WAKE_FDS) {
			/* as in the live view (app_nodes_tui.c) */
			w.nfds = 0;
			if (w.deadline > clock_mono() + NODES_COALESCE)
				w.deadline = clock_mono() + NODES_COALESCE;
		}
		wake = evloop_wait(&w);
		if (wake & WAKE_SIGNAL)
			break;
		if (wake & WAKE_FDS)
			cluster_io(c);
		if (wake & WAKE_CHILD)
			cluster_reap(c);
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

int
app_run_nodes(const struct options *o)
{
	struct nodes_app na;
	int status;

	memset(&na, 0, sizeof na);
	na.o = o;
	if (prepare(&na) != 0) {
		report(&na.e);
		status = na.usage ? EXIT_USAGE : EXIT_FAIL;
	} else {
		/* From here an ending signal ends the loop, which ends the nodes. */
		signals_defer();
		if (!o->batch && isatty(STDOUT_FILENO))
			status = app_nodes_tui(&na);
		else
			status = batch(&na);
	}
	if (na.have_cluster) {
		cluster_stop(&na.c);
		cluster_free(&na.c);
	}
	if (na.sum != NULL)
		batch_free(na.sum);
	/* -o FILE: a close that fails (NFS, a full disk) is an error too. */
	if (na.out != NULL && fclose(na.out) != 0) {
		errmsg_set(&na.e, _("-o %s: %s; check the disk"), o->output, strerror(errno));
		report(&na.e);
		if (status == EXIT_OK)
			status = EXIT_FAIL;
	}
	topology_free(&na.sm.topo);
	if (na.have_tr)
		transport_free(&na.tr);
	hostlist_free(&na.hosts);
	return status;
}
