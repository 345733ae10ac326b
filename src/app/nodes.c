/* nodes.c: what the modes of many nodes (nodes.h) stand on: give the
 * privilege up, expand the node list, make the nodes' command line and
 * transport, open -o FILE; the cluster's configuration both modes share;
 * the one wait over the nodes' pipes; the end. Nothing of this machine is
 * read. */
#include "config.h"
#include "app/nodes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app/context.h"
#include "cluster/nodelist.h"
#include "out/outfile.h"
#include "sys/privilege.h"
#include "sys/signals.h"
#include "util/clock.h"
#include "util/hostname.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Descriptors httop needs besides two per node (terminal, signal pipes,
 * the C library's, a tool's pipes). */
#define FD_SPARE 32

/* Steps of srun counted for: the first and lost nodes' (one a second). */
#define FD_STEPS 8

/* The remote httop's option for compact lines. */
#define NODES_COMPACT "--compact"
#define NODES_ALIGN "--align"

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

/* The nodes are asked for compact lines: the live view and the summary
 * read them; the merged stream of -b --format json is their own lines. */
static bool
nodes_compact(const struct options *o)
{
	return app_wants_screen(o) || o->format == FMT_SUMMARY;
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

	w[k++] = xstrdup(o->remote_httop != NULL ? o->remote_httop : OPT_REMOTE_HTTOP_DEFAULT);
	w[k++] = xstrdup("-b");
	w[k++] = xstrdup("--format");
	w[k++] = xstrdup("json");
	snprintf(num, sizeof num, "%g", o->delay);
	w[k++] = xstrdup("-d");
	w[k++] = xstrdup(num);
	/* Every node reads at the same wall-clock instants: the job's
	 * intervals are the same windows on each (an older httop without
	 * it is started again without it: node_fall_back). */
	w[k++] = xstrdup(NODES_ALIGN);
	if (o->iterations > 0 && (o->batch || !isatty(STDOUT_FILENO))) {
		snprintf(num, sizeof num, "%lld", o->iterations);
		w[k++] = xstrdup("-n");
		w[k++] = xstrdup(num);
	}
	/* Compact lines (httop.1, OUTPUT FORMATS) where the nodes' lines are
	 * only read, not passed on (-b --format json writes them as they came). */
	if (nodes_compact(o))
		w[k++] = xstrdup(NODES_COMPACT);
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
		int err = errno;   /* fdopen's, before close can change it */

		close(fd);
		return errmsg_set(&na->e, _("-o %s: %s"), na->o->output, strerror(err));
	}
	return 0;
}

/* The nodes, the transport: everything before the first node starts. */
int
app_nodes_open(struct nodes_app *na, const struct options *o)
{
	struct nodelist_env env;
	char **w;
	size_t nw, i;
	const char *via = o->via != NULL ? o->via : o->all_nodes ? "srun" : "ssh";
	int rc;

	memset(na, 0, sizeof *na);
	na->o = o;
	/* Nothing here needs privilege: give it up before anything runs. */
	if (privilege_gained() && privilege_drop(0u, NULL, 0, &na->e) != 0)
		return -1;
	nodelist_env(o, &env);
	if (o->all_nodes) {
		if (nodelist_of_job(o->job_id, &env, &na->spec, &na->e) != 0)
			return -1;
	} else {
		na->spec = xstrdup(o->nodes);
	}
	/* A list or a --via that cannot be used is a bad value (status 2). */
	na->usage = true;
	if (nodelist_expand(na->spec, &env, &na->hosts, na->how, sizeof na->how, &na->e) != 0)
		return -1;
	/* Each name goes to its node's httop as --host (transport.h). */
	for (i = 0; i < na->hosts.n; i++)
		if (!host_name_ok(na->hosts.names[i]))
			return errmsg_set(&na->e, _("node %.80s: a node's name is given to its httop "
			    "as --host, which takes at most %d characters; give a shorter name"),
			    na->hosts.names[i], HOST_NAME_LEN);
	na->usage = false;
	w = remote_words(o, &nw);
	rc = transport_init(&na->tr, via, o->job ? o->job_id : NULL, w, nw, privilege_gained(),
	    o->user_env, &na->e);
	words_free(w, nw);
	if (rc != 0)
		return na->usage = true, -1;
	na->have_tr = true;
	/* srun: one step's two pipes (and a few more steps for lost nodes),
	 * however many nodes */
	if (fd_room(na->tr.via == VIA_SRUN ? FD_STEPS : na->hosts.n, &na->e) != 0)
		return -1;
	if (signals_watch_children() != 0)
		return errmsg_set(&na->e, _("cannot watch the nodes' processes: %s"), strerror(errno));
	return open_output(na);
}

void
app_nodes_config(struct nodes_app *na, struct cluster_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->tr = &na->tr;
	cfg->delay = na->o->delay;
	cfg->fanout = na->tr.via == VIA_CMD ? 0 : CLUSTER_FANOUT_SSH;
	/* srun: one job step for all the nodes, a second for those lost */
	cfg->one_step = na->tr.via == VIA_SRUN;
	cfg->retry = true;
	cfg->fallback_word[0] = NODES_ALIGN;
	cfg->fallback_word[1] = nodes_compact(na->o) ? NODES_COMPACT : NULL;
	cfg->envp = na->o->user_env;
	cfg->child_setup = signals_inherit;
	cfg->arg = na;
}

/* The end of a run of many nodes, however it went: the nodes stopped,
 * -o FILE closed (a close that fails is an error too). Returns the exit
 * status. */
int
app_nodes_end(struct nodes_app *na, int status)
{
	if (na->have_cluster) {
		cluster_stop(&na->c);
		cluster_free(&na->c);
	}
	if (na->sum != NULL)
		batch_free(na->sum);
	if (na->out != NULL)
		status = app_close_output(&na->out, na->o->output, na->write_failed, status);
	topology_free(&na->sm.topo);
	if (na->have_tr)
		transport_free(&na->tr);
	hostlist_free(&na->hosts);
	free(na->spec);
	return status;
}

unsigned
app_nodes_wait(struct nodes_app *na, struct evwait *w, unsigned last, double until)
{
	struct cluster *c = &na->c;
	unsigned wake;

	w->nfds = (unsigned)cluster_pollfds(c, &w->fds);
	w->deadline = cluster_deadline(c);
	/* Lines come in bursts from hundreds of nodes: after a wake for them
	 * alone, wait on the keys and signals only for a moment, so that one
	 * poll over every pipe takes many lines, not one; not after a node
	 * gave a pipe's worth (its writer may be waiting). */
	if (last == WAKE_FDS && !c->busy) {
		double hold = cluster_hold(c) < NODES_COALESCE ? cluster_hold(c) : NODES_COALESCE;

		w->nfds = 0;
		if (w->deadline > clock_mono() + hold)
			w->deadline = clock_mono() + hold;
	}
	if (until < w->deadline)
		w->deadline = until;
	wake = evloop_wait(w);
	if (wake & WAKE_SIGNAL)
		return wake;
	if (wake & WAKE_FDS)
		cluster_io(c);
	if (wake & WAKE_CHILD)
		cluster_reap(c);
	return wake;
}
