/* cluster_int.h: what the parts of cluster.h share among themselves, for
 * them alone: the nodes' lines and the glue (cluster.c), the nodes'
 * processes (nodeproc.c), the srun steps (srunstep.c) and the job
 * intervals (jobiv.c). */
#ifndef HTTOP_CLUSTER_INT_H
#define HTTOP_CLUSTER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cluster/cluster.h"
#include "util/errmsg.h"

/* Reads per node per wake (4 MiB): one busy node cannot starve the
 * others, whose pipes the next poll looks at. */
#define READS_PER_WAKE 16
/* A pipe's room as the kernel makes it */
#define PIPE_ROOM (64u << 10)
/* After its end, how long its output may still come (a grandchild that
 * holds the pipe): then the pipes are closed. */
#define DRAIN_SECONDS 1.0
/* SIGTERM, then this long, then SIGKILL. */
#define KILL_GRACE 2.0

/* --- cluster.c: the lines, the pipes ---------------------------------- */

/* What one read of a pipe gave, handed on to `to`. */
typedef void pipe_take_fn(struct cluster *c, void *to, const char *buf, size_t n);
/* Read *fd until it is empty (or `max` reads), each read handed to take;
 * the descriptor closed at its end; c->busy past a pipe's worth. */
/* `room`: c->busy when a drain gave that much (the writer may be
 * waiting); the bytes it gave. */
size_t pipe_drain(struct cluster *c, int *fd, unsigned max, size_t room, pipe_take_fn *take,
    void *to);
/* A node's standard output and standard error as they come. */
void node_take_out(struct cluster *c, struct node *nd, const char *buf, size_t n);
/* The same for bytes that hold no '\n' (a piece srun cut): not looked
 * through for one. */
void node_take_piece(struct cluster *c, struct node *nd, const char *buf, size_t n);
void node_take_err(struct node *nd, const char *buf, size_t n);
/* A node's pipe read until it is empty (or READS_PER_WAKE); at the end of
 * its output, the node finished once reaped. */
void node_read(struct cluster *c, struct node *nd, bool err);

/* --- nodeproc.c: the nodes' processes ---------------------------------- */

void fd_close(int *fd);
/* A node's or a step's process group killed at once and waited for
 * (unless reaped already), its pipes closed. */
void group_kill_now(pid_t *pid, bool reaped, int *out, int *err);
/* In the child: its own process group, /dev/null in, the pipes out,
 * cfg.child_setup, argv run; never returns. */
void child_exec(struct cluster *c, char **argv, int out, int err) __attribute__((noreturn));
/* A node whose process (or task) was just started. */
void node_started(struct cluster *c, struct node *nd, double now);
/* End its process (it stopped answering, or sent no JSON): the reason is
 * said now, the process reaped when it goes. */
void node_stop(struct node *nd, double now);
/* Lost, and why: retried after its back-off (cluster_backoff). */
void node_lost(struct cluster *c, struct node *nd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Has it given the intervals -n asks for (cfg.max_intervals)? */
bool node_has_enough(const struct cluster *c, const struct node *nd);
/* It has given its intervals and goes on: httop ends it; ended. */
void node_end_enough(struct cluster *c, struct node *nd, double now);
/* Its process has ended and its output is read: ended, or lost and why. */
void node_finish(struct cluster *c, struct node *nd);
/* Each node's part of the tick, and its next deadline. */
void nodes_tick(struct cluster *c, double now);
double nodes_deadline(struct cluster *c, double now);

/* --- srunstep.c: one job step for many nodes (--via srun) -------------- */

/* A child that was a step's srun, reaped with `status`: true. */
bool step_reap(struct cluster *c, pid_t pid, int status);
/* Step si's pipe read until it is empty. */
void step_read(struct cluster *c, size_t si, bool err);
/* The steps' part of the tick (and a new step for the nodes waiting),
 * their deadline (the earliest of `next` and theirs). */
void steps_tick(struct cluster *c, double now);
double steps_deadline(const struct cluster *c, double next);
/* cluster_stop's: a signal to each step's srun, a reaped child marked,
 * the steps not reaped yet, each killed at once. */
void steps_signal(struct cluster *c, int sig);
void steps_mark_reaped(struct cluster *c, pid_t pid);
size_t steps_left(const struct cluster *c);
void steps_kill(struct cluster *c);

/* --- jobiv.c: the job intervals ---------------------------------------- */

/* A node's interval, stamped t (wall clock), into its job interval. */
void job_place(struct cluster *c, struct node *nd, double t);
/* The node's whole-run record: its figures and weights, apart. */
void node_keep_whole(struct node *nd);
/* Close the job intervals that are due (all: every one with intervals). */
void jobs_close_due(struct cluster *c, bool all);

#endif
