/* nodeproc.c: the nodes' processes (cluster.h): started within the
 * fan-out, ended, reaped, lost and retried after a back-off, stalled. */
#include "config.h"
#include "cluster/cluster_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/i18n.h"
#include "util/textesc.h"

extern char **environ;

/* A node that gives no interval for 3 of its intervals and this long is
 * taken as stopped; a starting one gets the connection's time too. */
#define STALL_EXTRA 5.0
#define START_EXTRA 15.0
#define STALL_GRAIN 0.5
#define BACKOFF_MAX 60.0

const char *
node_state_name(enum node_state s)
{
	switch (s) {
	case NODE_WAITING: return N_("waiting");
	case NODE_STARTING: return N_("starting");
	case NODE_UP: return N_("up");
	case NODE_LOST: return N_("lost");
	case NODE_ENDED: return N_("ended");
	}
	return "?";
}

double
cluster_backoff(unsigned k)
{
	double d = 1.0;

	while (k-- > 1 && d < BACKOFF_MAX)
		d *= 2.0;
	return d < BACKOFF_MAX ? d : BACKOFF_MAX;
}

void
fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void
group_kill_now(pid_t *pid, bool reaped, int *out, int *err)
{
	int st;

	if (*pid > 0 && !reaped) {
		kill(-*pid, SIGKILL);
		while (waitpid(*pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	*pid = 0;
	fd_close(out);
	fd_close(err);
}

void
child_exec(struct cluster *c, char **argv, int out, int err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	/* Its own process group: Ctrl-C in batch mode reaches httop, which
	 * ends the nodes in order; a stop reaches what it started too. */
	setpgid(0, 0);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	if (c->cfg.child_setup != NULL)
		c->cfg.child_setup();
	execve(argv[0], argv, c->cfg.envp != NULL ? c->cfg.envp : environ);
	dprintf(2, "%s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* A node whose httop does not know one of cfg.fallback_word (an older
 * httop: "unknown option '--compact'", before any interval): the word is
 * dropped for every node started from now on (said once, with the first
 * such node), and this one is started again at once (even with -n: its
 * count has not begun), not counted as a loss; so is every other node
 * started with the word before it was dropped (an upgrade's whole
 * cluster of older httops). */
static bool
node_fall_back(struct cluster *c, struct node *nd)
{
	const char *w = NULL;
	unsigned i;

	if (nd->lines > 0 || nd->pid != 0)
		return false;
	for (i = 0; i < CLUSTER_FALLBACK_WORDS; i++) {
		w = c->cfg.fallback_word[i];
		if (w != NULL && strstr(nd->why, w) != NULL)
			break;
	}
	if (i == CLUSTER_FALLBACK_WORDS || (nd->fell_back & (1u << i)))
		return false;
	nd->fell_back |= (unsigned char)(1u << i);
	snprintf(nd->why, sizeof nd->why, _("its httop does not know %s (an older httop): "
	    "started again without it"), w);
	nd->retry_at = clock_mono();
	if (!c->dropped[i]) {
		transport_drop_word(c->cfg.tr, w);
		c->dropped[i] = true;
		if (c->cfg.on_state != NULL)
			c->cfg.on_state(c->cfg.arg, nd);
	}
	/* started again even where lost nodes are not (-n): it gave nothing */
	nd->state = NODE_WAITING;
	c->may_wait = true;
	return true;
}

/* Its process could not be made: lost at once. */
static void
node_start(struct cluster *c, struct node *nd, double now)
{
	int out[2], err[2];
	char **argv;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC) != 0) {
		node_lost(c, nd, _("cannot start its transport: %s"), strerror(errno));
		return;
	}
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(out[0]);
		close(out[1]);
		node_lost(c, nd, _("cannot start its transport: %s"), strerror(errno));
		return;
	}
	argv = transport_argv(c->cfg.tr, nd->name);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child_exec(c, argv, out[1], err[1]);
	transport_argv_free(argv);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(out[0]);
		close(err[0]);
		node_lost(c, nd, _("cannot start its transport: %s"), strerror(errno));
		return;
	}
	setpgid(pid, pid);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	nd->pid = pid;
	nd->out_fd = out[0];
	nd->err_fd = err[0];
	node_started(c, nd, now);
}

void
node_started(struct cluster *c, struct node *nd, double now)
{
	c->dl_valid = false;
	nd->state = NODE_STARTING;
	nd->started = now;
	nd->last_line = now;
	nd->reaped = false;
	nd->stopping = false;
	nd->kill_at = 0.0;
	nd->lines = 0;
	nd->bad = 0;
	nd->bad_last[0] = '\0';
	linesplit_reset(&nd->out);
	linesplit_reset(&nd->err);
	nd->err_last[0] = '\0';
	nd->why[0] = '\0';
	nd->slot = -1;
}

void
node_stop(struct node *nd, double now)
{
	if (nd->pid > 0 && !nd->reaped) {
		kill(-nd->pid, SIGTERM);
		nd->kill_at = now + KILL_GRACE;
	}
	/* In a step of many nodes its task cannot be ended alone (Slurm
	 * signals a step's tasks together): its lines are not read from now
	 * on, and a retry starts it in a step of its own. */
	if (nd->step >= 0) {
		nd->step = -1;
		return;
	}
	nd->stopping = true;
}

void
node_lost(struct cluster *c, struct node *nd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(nd->why, sizeof nd->why, fmt, ap);
	va_end(ap);
	nd->state = NODE_LOST;
	c->dl_valid = false;
	if (node_fall_back(c, nd))
		return;
	nd->failures++;
	nd->retry_at = clock_mono() + cluster_backoff(nd->failures);
	if (c->cfg.on_state != NULL)
		c->cfg.on_state(c->cfg.arg, nd);
}

bool
node_has_enough(const struct cluster *c, const struct node *nd)
{
	return c->cfg.max_intervals > 0 && nd->total >= c->cfg.max_intervals;
}

/* It has given its intervals and goes on (or does not end): httop ends
 * it, as it ends every node on a signal; it counts as ended. */
void
node_end_enough(struct cluster *c, struct node *nd, double now)
{
	node_stop(nd, now);
	nd->stopping = true;
	nd->state = NODE_ENDED;
	snprintf(nd->why, sizeof nd->why, _("ended by httop after its %lu intervals"), nd->total);
	c->dl_valid = false;
}

void
node_finish(struct cluster *c, struct node *nd)
{
	char said[300], st[64];
	int s = nd->wstatus;
	const char *rest;
	size_t len;

	fd_close(&nd->out_fd);
	fd_close(&nd->err_fd);
	nd->pid = 0;
	c->dl_valid = false;
	c->may_wait = true;
	rest = linesplit_rest(&nd->err, &len);
	if (len > 0) {
		text_escape(nd->err_last, sizeof nd->err_last, rest);
		linesplit_reset(&nd->err);
	}
	if (nd->stopping) {
		/* httop ended it and said why: lost, if not already (or
		 * ended: it had given its intervals, node_end_enough()) */
		if (nd->state != NODE_LOST && nd->state != NODE_ENDED)
			node_lost(c, nd, "%s", nd->why[0] ? nd->why : _("stopped"));
		return;
	}
	/* lines refused at its end (fewer than make it lost): lost, why */
	if (WIFEXITED(s) && WEXITSTATUS(s) == 0 && nd->lines > 0 && nd->bad == 0) {
		nd->state = NODE_ENDED;
		snprintf(nd->why, sizeof nd->why, "%s", _("ended"));
		if (c->cfg.on_state != NULL)
			c->cfg.on_state(c->cfg.arg, nd);
		return;
	}
	if (WIFEXITED(s))
		snprintf(st, sizeof st, _("exit status %d"), WEXITSTATUS(s));
	else if (WIFSIGNALED(s))
		snprintf(st, sizeof st, _("killed by signal %d"), WTERMSIG(s));
	else
		snprintf(st, sizeof st, "?");
	snprintf(said, sizeof said, "%s", nd->err_last);
	if (said[0] != '\0')
		node_lost(c, nd, "%s (%s)", said, st);
	else if (nd->bad > 0)
		/* It ended before its refused lines made it lost: their
		 * reason, not "before its first interval" (it gave some). */
		node_lost(c, nd, _("its output is not httop's JSON (%s)"), nd->bad_last);
	else if (WIFEXITED(s) && WEXITSTATUS(s) == 0)
		node_lost(c, nd, _("ended before its first interval (%s)"), st);
	else
		node_lost(c, nd, "%s", st);
}

/* Its process was reaped with `status`: what it wrote before it went is
 * read first; finished when its pipes are closed (else once DRAIN_SECONDS
 * have passed). */
static void
node_reaped(struct cluster *c, struct node *nd, int status)
{
	nd->reaped = true;
	nd->wstatus = status;
	nd->reaped_at = clock_mono();
	c->dl_valid = false;
	if (nd->out_fd >= 0)
		node_read(c, nd, false);
	if (nd->err_fd >= 0)
		node_read(c, nd, true);
	if (nd->out_fd < 0 && nd->err_fd < 0 && nd->pid > 0)
		node_finish(c, nd);
}

void
cluster_reap(struct cluster *c)
{
	size_t i;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (step_reap(c, pid, st))
			continue;
		for (i = 0; i < c->n; i++) {
			if (c->nodes[i].pid != pid)
				continue;
			node_reaped(c, &c->nodes[i], st);
			break;
		}
	}
}

static unsigned
nodes_starting(const struct cluster *c, double now)
{
	unsigned k = 0;
	size_t i;

	for (i = 0; i < c->n; i++)
		k += c->nodes[i].state == NODE_STARTING && now - c->nodes[i].started <
		    CLUSTER_FANOUT_HOLD;
	return k;
}

static double
node_stall_after(const struct cluster *c, const struct node *nd)
{
	/* its intervals given: an interval to end, and KILL_GRACE */
	if (node_has_enough(c, nd))
		return c->cfg.delay + KILL_GRACE;
	return 3.0 * c->cfg.delay + (nd->state == NODE_STARTING ? START_EXTRA : STALL_EXTRA);
}

/* A node that gave no interval for too long: lost (or, with its -n
 * intervals given, ended: enough). */
static void
node_stall_check(struct cluster *c, struct node *nd, double now)
{
	if ((nd->state != NODE_STARTING && nd->state != NODE_UP) || nd->stopping ||
	    now - nd->last_line <= node_stall_after(c, nd))
		return;
	if (node_has_enough(c, nd)) {
		node_end_enough(c, nd, now);
		return;
	}
	node_stop(nd, now);
	node_lost(c, nd, nd->state == NODE_UP ? _("no interval for %.0f s") :
	    _("no first interval within %.0f s"), now - nd->last_line);
}

/* When a waiting node may start. */
static double
waiting_until(const struct cluster *c, double now)
{
	if (c->cfg.one_step)
		return c->nsteps > 0 ? c->last_step + CLUSTER_FANOUT_HOLD : now;
	return c->cfg.fanout > 0 ? now + 0.05 : now;
}

void
nodes_tick(struct cluster *c, double now)
{
	unsigned busy = c->cfg.fanout > 0 ? nodes_starting(c, now) : 0;
	size_t i, active = 0;

	for (i = 0; i < c->n; i++) {
		struct node *nd = &c->nodes[i];

		if (nd->pid > 0 && nd->kill_at > 0.0 && now >= nd->kill_at && !nd->reaped) {
			kill(-nd->pid, SIGKILL);
			nd->kill_at = 0.0;
		}
		if (nd->pid > 0 && nd->reaped && now - nd->reaped_at >= DRAIN_SECONDS)
			node_finish(c, nd);
		node_stall_check(c, nd, now);
		if (nd->state == NODE_LOST && c->cfg.retry && nd->pid == 0 && now >= nd->retry_at) {
			nd->state = NODE_WAITING;
			c->may_wait = true;
		}
		active += nd->state == NODE_UP || nd->state == NODE_STARTING;
		if (nd->state == NODE_WAITING && nd->pid == 0 && !c->cfg.one_step &&
		    (c->cfg.fanout == 0 || busy < c->cfg.fanout)) {
			node_start(c, nd, now);
			busy++;
		}
	}
	c->active_hint = active;
	c->dl_valid = false;
}

double
nodes_deadline(struct cluster *c, double now)
{
	double next = INFINITY, t;
	size_t i;

	if (c->dl_valid)
		return c->dl_nodes;
	for (i = 0; i < c->n; i++) {
		const struct node *nd = &c->nodes[i];

		if (nd->state == NODE_WAITING)
			t = waiting_until(c, now);
		else if (nd->state == NODE_LOST && c->cfg.retry && nd->pid == 0)
			t = nd->retry_at;
		else if ((nd->state == NODE_STARTING || nd->state == NODE_UP) && !nd->stopping)
			/* not sooner than STALL_GRAIN: thousands of nodes
			 * whose lines come one after the other would each
			 * move the earliest a little, and every wake would
			 * look at every node */
			t = fmax(nd->last_line + node_stall_after(c, nd), now + STALL_GRAIN);
		else
			t = INFINITY;
		if (nd->pid > 0 && nd->kill_at > 0.0 && nd->kill_at < t)
			t = nd->kill_at;
		if (nd->pid > 0 && nd->reaped && nd->reaped_at + DRAIN_SECONDS < t)
			t = nd->reaped_at + DRAIN_SECONDS;
		if (t < next)
			next = t;
	}
	c->dl_nodes = next;
	c->dl_valid = true;
	return next;
}

void
cluster_stop(struct cluster *c)
{
	double end = clock_mono() + KILL_GRACE;
	size_t i, left;
	pid_t pid;
	int st;

	for (i = 0; i < c->n; i++)
		if (c->nodes[i].pid > 0 && !c->nodes[i].reaped)
			kill(-c->nodes[i].pid, SIGTERM);
	/* srun passes SIGTERM on to the step's tasks and ends the step */
	steps_signal(c, SIGTERM);
	for (;;) {
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			for (i = 0; i < c->n; i++)
				if (c->nodes[i].pid == pid)
					c->nodes[i].reaped = true;
			steps_mark_reaped(c, pid);
		}
		for (left = 0, i = 0; i < c->n; i++)
			left += c->nodes[i].pid > 0 && !c->nodes[i].reaped;
		left += steps_left(c);
		if (left == 0 || clock_mono() >= end)
			break;
		usleep(20000);
	}
	for (i = 0; i < c->n; i++) {
		struct node *nd = &c->nodes[i];

		group_kill_now(&nd->pid, nd->reaped, &nd->out_fd, &nd->err_fd);
	}
	steps_kill(c);
}
