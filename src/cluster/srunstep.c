/* srunstep.c: one job step for many nodes (--via srun, cluster.h): one
 * srun, a task per node; its standard output the tasks' labelled pieces,
 * handed to their nodes; its standard error srun's own words on a task
 * (which node is lost, and why). */
#include "config.h"
#include "cluster/cluster_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"

/* A step's standard output (all its nodes' lines): its pipe's size. */
#define STEP_PIPE (1 << 20)

/* A step's pipe as its lines are handed on. */
struct step_to {
	struct cluster *c;
	size_t si;
};

/* The nodes waiting to start, in one step: srun --label, one task per
 * node (transport_step_argv). A second step starts the nodes lost since,
 * at most one step per CLUSTER_FANOUT_HOLD. */
static void
step_start(struct cluster *c, double now)
{
	struct cluster_step *st;
	char **names, **argv;
	size_t i, k = 0;
	int out[2], err[2];
	pid_t pid;

	if (!c->may_wait || (c->nsteps > 0 && now - c->last_step < CLUSTER_FANOUT_HOLD))
		return;
	/* every node found waiting is started below (or lost) */
	c->may_wait = false;
	for (i = 0; i < c->n; i++)
		k += c->nodes[i].state == NODE_WAITING && c->nodes[i].pid == 0;
	if (k == 0)
		return;
	c->steps = xreallocarray(c->steps, c->nsteps + 1, sizeof *c->steps);
	st = &c->steps[c->nsteps];
	memset(st, 0, sizeof *st);
	/* srun's pieces of SRUN_PIECE, a label before them: a longer one is
	 * not srun's, cut; a line of srun's own longer than 511 bytes comes
	 * in pieces. The pieces whole in a read are handed on from it (a
	 * grown room), not each copied through a room first. */
	linesplit_grown(&st->out, SRUN_PIECE + 64, LINESPLIT_CUT);
	linesplit_fixed(&st->err, 511, LINESPLIT_SPLIT);
	st->out_fd = st->err_fd = -1;
	st->task = xcalloc(k, sizeof *st->task);
	names = xcalloc(k, sizeof *names);
	for (i = 0; i < c->n; i++)
		if (c->nodes[i].state == NODE_WAITING && c->nodes[i].pid == 0) {
			names[st->ntask] = c->nodes[i].name;
			st->task[st->ntask++] = i;
		}
	c->last_step = now;
	c->nsteps++;
	argv = transport_step_argv(c->cfg.tr, names, k);
	free(names);
	pid = -1;
	if (pipe2(out, O_CLOEXEC) == 0) {
		if (pipe2(err, O_CLOEXEC) == 0) {
			fflush(NULL);
			pid = fork();
			if (pid == 0)
				child_exec(c, argv, out[1], err[1]);
			close(err[1]);
			if (pid < 0)
				close(err[0]);
		}
		close(out[1]);
		if (pid < 0)
			close(out[0]);
	}
	transport_argv_free(argv);
	for (i = 0; i < st->ntask; i++) {
		struct node *nd = &c->nodes[st->task[i]];

		if (pid < 0) {
			node_lost(c, nd, _("cannot start its transport: %s"), strerror(errno));
			continue;
		}
		nd->step = (int)(c->nsteps - 1);
		node_started(c, nd, now);
	}
	if (pid < 0)
		return;
	setpgid(pid, pid);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
#ifdef F_SETPIPE_SZ
	/* all the nodes' lines come through this one pipe: 1 MiB rather than
	 * 64 KiB moves 16 times as much per wake of either side (without
	 * the privilege to go past /proc/sys/fs/pipe-max-size, as it is) */
	fcntl(out[0], F_SETPIPE_SZ, STEP_PIPE);
#endif
	st->room = PIPE_ROOM;
#ifdef F_GETPIPE_SZ
	{
		int room = fcntl(out[0], F_GETPIPE_SZ);

		if (room > 0)
			st->room = (size_t)room;
	}
#endif
	st->pid = pid;
	st->out_fd = out[0];
	st->err_fd = err[0];
	st->started = now;
}

/* "  12: rest": the task's node (in this step), the rest after it; NULL
 * when the line has no label or names no task of the step's. */
static struct node *
step_task_of(struct cluster *c, size_t si, const char *s, size_t len, size_t *skip)
{
	const struct cluster_step *st = &c->steps[si];
	size_t i = 0, id = 0;
	bool digit = false;
	struct node *nd;

	while (i < len && s[i] == ' ')
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && id <= st->ntask; i++, digit = true)
		id = id * 10 + (size_t)(s[i] - '0');
	if (!digit || i >= len || s[i] != ':' || id >= st->ntask)
		return NULL;
	i++;
	if (i < len && s[i] == ' ')
		i++;
	*skip = i;
	nd = &c->nodes[st->task[id]];
	return nd->step == (int)si ? nd : NULL;
}

/* One labelled piece: a piece of SRUN_PIECE bytes goes on in the task's
 * next piece; a shorter one (empty too) ends the line. */
static void
step_piece(struct cluster *c, size_t si, const char *s, size_t len)
{
	struct node *nd;
	size_t skip = 0;

	nd = step_task_of(c, si, s, len, &skip);
	if (nd == NULL)
		return;
	node_take_piece(c, nd, s + skip, len - skip);
	if (len - skip != SRUN_PIECE && nd->step == (int)si)
		node_take_out(c, nd, "\n", 1);
}

/* srun's own words on a task ("srun: error: HOST: task 3: Exited with
 * exit code 1"): that task's node is lost with them; a task's labelled
 * line is its node's standard error. Other lines are kept for the step. */
static void
step_err_line(struct cluster *c, size_t si, const char *s, size_t len)
{
	struct cluster_step *st = &c->steps[si];
	const char *t = strstr(s, ": task ");
	char text[256];
	size_t skip = 0, id = 0;
	struct node *nd;

	(void)len;
	nd = step_task_of(c, si, s, len, &skip);
	if (nd != NULL) {
		node_take_err(nd, s + skip, len - skip);
		node_take_err(nd, "\n", 1);
		return;
	}
	if (t == NULL || sscanf(t, ": task %zu:", &id) != 1 || id >= st->ntask) {
		/* srun's own (it could not start the step): every task's */
		if (len > 0)
			text_escape(st->err_last, sizeof st->err_last, s);
		return;
	}
	{
		nd = &c->nodes[st->task[id]];
		if (nd->step == (int)si) {
			nd->step = -1;
			text_escape(text, sizeof text, t + 2);
			/* its own last words first, as a process's end says them */
			if (nd->err.len > 0)
				node_take_err(nd, "\n", 1);
			if (nd->err_last[0] != '\0')
				node_lost(c, nd, "%s (%s)", nd->err_last, text);
			else
				node_lost(c, nd, "%s", text);
		}
	}
}

static void
step_out_line(void *arg, const char *s, size_t len)
{
	const struct step_to *to = arg;

	step_piece(to->c, to->si, s, len);
}

static void
step_err_piece(void *arg, const char *s, size_t len)
{
	const struct step_to *to = arg;

	step_err_line(to->c, to->si, s, len);
}

static void
step_take_out(struct cluster *c, void *to, const char *buf, size_t n)
{
	struct step_to *st = to;

	linesplit_feed(&c->steps[st->si].out, buf, n, step_out_line, st);
}

static void
step_take_err(struct cluster *c, void *to, const char *buf, size_t n)
{
	struct step_to *st = to;

	linesplit_feed(&c->steps[st->si].err, buf, n, step_err_piece, st);
}

/* Its members that are still in it when it has ended: ended, or lost. */
static void
step_finish(struct cluster *c, size_t si)
{
	struct cluster_step *st = &c->steps[si];
	size_t i;

	fd_close(&st->out_fd);
	fd_close(&st->err_fd);
	for (i = 0; i < st->ntask; i++) {
		struct node *nd = &c->nodes[st->task[i]];

		if (nd->step != (int)si)
			continue;
		nd->step = -1;
		/* srun's status is its tasks' worst, and it names each task that
		 * failed (step_err_line): one that gave lines and was not named
		 * ended well */
		nd->wstatus = nd->lines > 0 && WIFEXITED(st->wstatus) ? 0 : st->wstatus;
		nd->stopping = false;
		if (nd->err_last[0] == '\0')
			snprintf(nd->err_last, sizeof nd->err_last, "%s", st->err_last);
		nd->pid = 1;          /* node_finish() takes it as its process's end */
		node_finish(c, nd);
	}
	st->pid = 0;
}

void
step_read(struct cluster *c, size_t si, bool err)
{
	struct cluster_step *st = &c->steps[si];
	struct step_to to = { c, si };
	double now;
	size_t got;

	/* one pipe for every node: more reads a wake than a node's; its
	 * writer may wait once it is half full */
	got = pipe_drain(c, err ? &st->err_fd : &st->out_fd, 4 * READS_PER_WAKE,
	    err ? PIPE_ROOM : st->room / 2, err ? step_take_err : step_take_out, &to);
	/* How long the stream may be left unread: the time it takes to fill
	 * half the pipe at the rate it came since the last read. Thousands of
	 * nodes' lines are then read in reads of half a pipe, not woken for
	 * as each piece comes (which slowed the writer on a busy machine, and
	 * cost a wake each). */
	now = clock_mono();
	if (!err && st->last_read > 0.0 && now > st->last_read && got > 0) {
		double hold = (double)(st->room / 2) / ((double)got / (now - st->last_read));

		if (hold < c->hold)
			c->hold = hold;
	}
	if (!err)
		st->last_read = now;
	if (st->out_fd < 0 && st->err_fd < 0 && st->reaped && st->pid > 0)
		step_finish(c, si);
}

/* Step si's srun was reaped with `status`: what it wrote before it went
 * is read first; finished when its pipes are closed (else once
 * DRAIN_SECONDS have passed). */
static void
step_reaped(struct cluster *c, size_t si, int status)
{
	struct cluster_step *st = &c->steps[si];

	st->reaped = true;
	st->wstatus = status;
	st->reaped_at = clock_mono();
	c->dl_valid = false;
	if (st->out_fd >= 0)
		step_read(c, si, false);
	if (st->err_fd >= 0)
		step_read(c, si, true);
	if (st->out_fd < 0 && st->err_fd < 0 && st->pid > 0)
		step_finish(c, si);
}

bool
step_reap(struct cluster *c, pid_t pid, int status)
{
	size_t si;

	for (si = 0; si < c->nsteps; si++) {
		if (c->steps[si].pid != pid)
			continue;
		step_reaped(c, si, status);
		return true;
	}
	return false;
}

/* A step none of whose tasks is read any more (each gave its intervals
 * and went on, or was started again in another step): ended, SIGTERM
 * then SIGKILL, as a node's process is. */
static void
step_unread(struct cluster *c, size_t si, double now)
{
	struct cluster_step *st = &c->steps[si];
	size_t i;

	if (st->pid <= 0 || st->reaped)
		return;
	if (st->ending) {
		if (st->kill_at > 0.0 && now >= st->kill_at) {
			kill(-st->pid, SIGKILL);
			st->kill_at = 0.0;
		}
		return;
	}
	for (i = 0; i < st->ntask; i++)
		if (c->nodes[st->task[i]].step == (int)si)
			return;
	kill(-st->pid, SIGTERM);
	st->ending = true;
	st->kill_at = now + KILL_GRACE;
}

void
steps_tick(struct cluster *c, double now)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++) {
		struct cluster_step *st = &c->steps[i];

		if (st->pid > 0 && st->reaped && now - st->reaped_at >= DRAIN_SECONDS)
			step_finish(c, i);
		step_unread(c, i, now);
	}
	if (c->cfg.one_step)
		step_start(c, now);
}

double
steps_deadline(const struct cluster *c, double next)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++) {
		if (c->steps[i].pid > 0 && c->steps[i].reaped &&
		    c->steps[i].reaped_at + DRAIN_SECONDS < next)
			next = c->steps[i].reaped_at + DRAIN_SECONDS;
		if (c->steps[i].pid > 0 && !c->steps[i].reaped && c->steps[i].kill_at > 0.0 &&
		    c->steps[i].kill_at < next)
			next = c->steps[i].kill_at;
	}
	return next;
}

void
steps_signal(struct cluster *c, int sig)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++)
		if (c->steps[i].pid > 0 && !c->steps[i].reaped)
			kill(-c->steps[i].pid, sig);
}

void
steps_mark_reaped(struct cluster *c, pid_t pid)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++)
		if (c->steps[i].pid == pid)
			c->steps[i].reaped = true;
}

size_t
steps_left(const struct cluster *c)
{
	size_t i, left = 0;

	for (i = 0; i < c->nsteps; i++)
		left += c->steps[i].pid > 0 && !c->steps[i].reaped;
	return left;
}

void
steps_kill(struct cluster *c)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++) {
		struct cluster_step *sp = &c->steps[i];

		group_kill_now(&sp->pid, sp->reaped, &sp->out_fd, &sp->err_fd);
	}
}
