/* cluster.h: many nodes, each running httop -b --format json through a
 * transport (transport.h), read as they go. A remote node is not a
 * counter source: it delivers computed figures, not counts, so it does
 * not go through run_step(); its lines are read here into the node's
 * interval (nodeiv.h) and lined up into job intervals, whose figures are
 * the nodes' combined through metrics_combine.
 *
 * A node's life: waiting (not started: the fan-out bound), starting
 * (started, no interval yet), up, lost (its process ended, or it stopped
 * answering: the reason kept; started again after a back-off of 1, 2, 4,
 * 8, 16, 32, then every 60 s, from its last loss, the count starting over
 * once it answers), ended (it ended normally after its last interval: -n).
 *
 * Nothing here blocks: the front end polls the descriptors this gives
 * (cluster_pollfds) with its own in the one wait (evloop_wait), hands the
 * result back (cluster_io), reaps on SIGCHLD (cluster_reap) and calls
 * cluster_tick when the deadline comes. */
#ifndef HTTOP_CLUSTER_H
#define HTTOP_CLUSTER_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cluster/jsonl.h"
#include "cluster/nodeiv.h"
#include "cluster/transport.h"
#include "metrics/metrics.h"
#include "util/errmsg.h"
#include "util/linesplit.h"

/* The longest line a node may send: a 1024-CPU node's is about 1 MiB. */
#define NODE_LINE_MAX (16u << 20)
/* Job intervals a node's interval is kept for, waiting for the others. */
#define NODE_RING 4
/* Nodes started at once when the fan-out is bounded, and how long a node
 * counts as starting for that bound (or until its first interval). */
#define CLUSTER_FANOUT_SSH 32
#define CLUSTER_FANOUT_HOLD 1.0
/* Consecutive lines that are not httop's JSON before a node is lost. */
#define NODE_BAD_LINES 3

enum node_state { NODE_WAITING = 0, NODE_STARTING, NODE_UP, NODE_LOST, NODE_ENDED };

/* A node's interval as a job interval takes it. */
struct node_rec {
	long slot;                 /* the job interval it belongs to; -1 empty */
	double time, dt;           /* the node's own */
	double wall;               /* its wall-clock stamp (unix_time) */
	bool valid;
	char *reason;              /* its reason (node_rec_reason): NULL for
				    * none, most intervals (255 bytes at most) */
	struct agg_fig agg;        /* the node's aggregate */
	struct agg_weights w;      /* and its weights (metrics_node_weights) */
};

/* The remote words an older httop may refuse (--align, --compact). */
#define CLUSTER_FALLBACK_WORDS 2

struct node {
	char *name;                /* as the list gives it */
	enum node_state state;
	pid_t pid;                 /* the transport's process (its own group); 0 none */
	int out_fd, err_fd;        /* -1 closed */
	struct linesplit out;      /* standard output: the line so far (up to
				    * NODE_LINE_MAX, let go after each line) */
	struct linesplit err;      /* standard error: the line so far (255
				    * bytes of it kept) */
	char err_last[256];        /* its last complete non-empty line */
	bool reaped;
	int wstatus;
	/* each fallback word it was started again without (node_fall_back):
	 * a second refusal of the same word is a loss, not a loop */
	unsigned char fell_back;
	double started, last_line, retry_at, reaped_at;
	double kill_at;            /* SIGKILL after a SIGTERM that was not heeded; 0 none */
	bool stopping;             /* httop ended it: its `why` is already said */
	unsigned failures;         /* losses since it last answered */
	unsigned bad;              /* lines in a row that were not httop's JSON */
	char bad_last[200];        /* why the last of them was refused, escaped */
	unsigned long lines;       /* intervals read, since it was started */
	unsigned long total;       /* intervals read in all */
	char why[400];             /* lost: why ("" while up) */
	struct nodeiv nv;          /* its machine and last interval */
	bool have;                 /* nv holds an interval */
	bool want_full;            /* its cores are read (its views are shown) */
	bool light;                /* its last line was read without its cores */
	unsigned long generation;  /* counts the times nv's machine was made anew */
	long slot;                 /* its last interval's job interval, -1 */
	double prev_t;             /* its last line's time (wall clock), placed or not */
	unsigned long surplus;     /* lines not placed: a second in a job interval */
	double clock_off;          /* its clock's offset from this viewer's,
				    * when far off (no NTP) or found behind
				    * (late); else 0 */
	double prev_came;          /* when its last line came (this viewer's
				    * wall clock) */
	unsigned late;             /* paced lines in a row whose job interval
				    * had closed when they came */
	struct node_rec rec[NODE_RING];
	/* The node's whole-run record (a watched job's, after its last
	 * interval): kept apart, not an interval. */
	bool has_whole;
	struct node_rec whole;
	int step;                  /* the srun step it runs in (index); -1 none */
};

/* srun --label cuts a line into pieces of this many bytes (its I/O
 * message), each on a line of its own after the task's label; a line of
 * exactly k pieces is followed by an empty piece (seen in Slurm 22.05;
 * httop(1), MANY NODES). */
#define SRUN_PIECE 1024
/* A job step of many nodes (--via srun): one srun, one task per node,
 * its standard output the tasks' labelled lines. */
struct cluster_step {
	pid_t pid;                 /* 0: ended and finished */
	int out_fd, err_fd;
	bool reaped;
	int wstatus;
	double started, reaped_at;
	size_t *task;              /* task k: node index */
	size_t ntask;
	struct linesplit out;      /* a labelled piece so far (cut at
				    * SRUN_PIECE + 64 bytes; grown) */
	struct linesplit err;      /* standard error: the line so far (a line
				    * of more than 511 bytes in pieces) */
	char err_last[256];        /* srun's own last line, not a task's */
	double kill_at;            /* ended by httop (no task of it is read any
				    * more): SIGKILL then; 0 none */
	bool ending;               /* ... SIGTERM sent */
	double last_read;          /* its output last read (clock_mono); 0 never */
	size_t room;               /* its output pipe's size */
};

/* A job interval: the nodes' intervals of one period combined. */
struct cluster_job {
	long slot;
	double time;               /* its middle, s since the first node started */
	double wall;               /* and as the nodes' wall-clock time */
	double dt;                 /* the mean length of its nodes' intervals */
	unsigned nin;              /* nodes in it */
	unsigned nnodes;           /* nodes in the job */
	bool valid;                /* every node in it, each valid */
	char reason[256];
	struct agg_fig agg;
};

struct cluster;

struct cluster_config {
	struct transport *tr;      /* its remote words lose fallback_word on a fallback */
	double delay;              /* the nodes' -d */
	unsigned fanout;           /* nodes starting at once; 0: no bound */
	bool one_step;             /* srun: one step for the nodes (transport_step_argv),
				    * a second one for those lost */
	bool retry;                /* a lost node is started again (back-off) */
	/* Words of the remote httop's (--compact, --align) that an older
	 * httop does not know: a node lost before its first interval whose
	 * last words name one is started again at once, and every node
	 * started after it, without that word (dropped from cfg.tr; so is
	 * every other node that names it). NULL: none. */
	const char *fallback_word[CLUSTER_FALLBACK_WORDS];
	/* -n: the intervals each node gives (0: no end). A node that has
	 * given them and goes on (an httop that ignores -n), or does not end
	 * within an interval and KILL_GRACE, is ended by httop and counts
	 * as ended; its lines after them are not read. */
	unsigned long max_intervals;
	bool pass_on;              /* on_line writes each line out as it came,
				    * what a terminal would act on in its
				    * strings as \u escapes; a line with any
				    * other such byte raw is a bad line
				    * (passon.h) */
	char *const *envp;         /* the transports' environment (NULL: httop's) */
	void (*child_setup)(void); /* in each child before its exec (signals) */
	/* Each line a node gave that was read as an interval, as it came;
	 * non-zero ends the run (a write error). May be NULL. */
	int (*on_line)(void *arg, const struct node *n, const char *line, size_t len);
	/* A job interval closed; non-zero ends the run. May be NULL. */
	int (*on_job)(void *arg, const struct cluster *c, const struct cluster_job *j);
	/* A node was lost or ended (n->why, n->state). May be NULL. */
	void (*on_state)(void *arg, const struct node *n);
	void *arg;
};

struct cluster {
	struct cluster_config cfg;
	struct node *nodes;
	size_t n;
	struct jdoc doc;           /* one parse at a time, shared */
	char *rbuf;                /* one read at a time, shared */
	size_t rcap;
	char *pass;                /* a line re-written to be passed on (passon.h) */
	size_t pass_cap;
	struct pollfd *pfd;        /* cluster_pollfds */
	size_t *pfd_node;
	size_t npfd, pfd_cap;
	double start_mono;
	/* Job intervals are placed by the nodes' own wall-clock stamps
	 * (unix_time), so that nodes whose clocks agree with this viewer's
	 * line up whatever the transport's delays; a node whose clock does
	 * not is placed by when its lines come (node.clock_off). */
	double t0;                 /* wall time where job interval 0 starts */
	double origin;             /* wall time of the first node's start */
	bool have_t0;
	long next_slot;            /* the next job interval to close */
	bool busy;                 /* cluster_io: a node's pipe may have been full */
	double hold;               /* cluster_io: how long the pipes may be left
				    * unread (cluster_hold) */
	struct cluster_job job;    /* the last one closed */
	bool have_job;
	unsigned long jobs;        /* closed so far */
	int error;                 /* a callback asked to end: its status */
	struct agg_fig *parts;     /* scratch for metrics_combine */
	struct agg_weights *pw;
	struct cluster_step *steps;/* one_step: the steps started */
	size_t nsteps;
	double last_step;          /* when the last one started (clock_mono) */
	/* No work per node on a wake when nothing is due (thousands of
	 * nodes, a wake for each read of one srun stream): */
	long top;                  /* the latest job interval any node is in */
	long ring_slot[NODE_RING]; /* job interval s: nodes that gave one */
	size_t ring_n[NODE_RING];
	size_t active_hint;        /* nodes up or starting, at the last full tick */
	double dl_nodes;           /* the nodes' next deadline (cluster_deadline) */
	bool dl_valid;             /* ... still holds: no node changed state */
	bool dropped[CLUSTER_FALLBACK_WORDS]; /* cfg.fallback_word[i] was dropped */
	bool may_wait;             /* a node may be waiting to start (no
				    * process): the step's start looks at each
				    * node only then, not on every wake */
};

/* Everything allocated; nothing started yet. */
void cluster_init(struct cluster *c, char *const *names, size_t n,
    const struct cluster_config *cfg);
/* Start nodes (within the fan-out), retry lost ones, end those that
 * stopped answering, close job intervals that are due. */
void cluster_tick(struct cluster *c);
/* The descriptors to poll: *pfd (events set, revents cleared), count. */
size_t cluster_pollfds(struct cluster *c, struct pollfd **pfd);
/* After the poll: read what came on them (revents), each pipe until it
 * is empty (or 4 MiB); c->busy when a node gave a pipe's worth (64 KiB)
 * or more: the next wait should not hold its reading up. */
void cluster_io(struct cluster *c);
/* A child ended (SIGCHLD): reap every node that ended, without waiting. */
void cluster_reap(struct cluster *c);
/* After cluster_io: how long the next wait may leave the pipes unread
 * (a busy srun stream: the time to fill half its pipe at its rate);
 * INFINITY when nothing says. */
double cluster_hold(const struct cluster *c);
/* When cluster_tick has something to do next (clock_mono); INFINITY none. */
double cluster_deadline(struct cluster *c);
/* Every node ended (-n) or, without retries, lost: nothing more comes. */
bool cluster_done(const struct cluster *c);
/* Read node k's lines whole from now on (its views are shown), and the
 * others' without their cores (nodeiv.h); k < 0: none. */
void cluster_want_full(struct cluster *c, int k);
/* Counts of nodes by state. */
void cluster_counts(const struct cluster *c, unsigned count[5]);
/* The node's interval that belongs to job interval `slot`, or NULL. */
const struct node_rec *cluster_rec(const struct node *n, long slot);
/* A node's interval's reason, "" for none. */
static inline const char *
node_rec_reason(const struct node_rec *r)
{
	return r->reason != NULL ? r->reason : "";
}
/* Close every job interval that has any interval now (the end). */
void cluster_flush(struct cluster *c);
/* End every node's process: SIGTERM to its group, up to 2 s, then
 * SIGKILL; every child reaped. */
void cluster_stop(struct cluster *c);
void cluster_free(struct cluster *c);
/* The back-off before the k-th retry (k >= 1): 1, 2, 4 ... 32, 60 s. */
double cluster_backoff(unsigned k);
const char *node_state_name(enum node_state s);   /* untranslated, marked N_() */

#endif
