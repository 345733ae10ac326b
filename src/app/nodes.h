/* nodes.h: httop --nodes LIST, httop --job ID --all-nodes: the modes for
 * many nodes (nodes.c: what they stand on; mode_nodes.c: batch mode;
 * nodes_tui.c: the live view). Nothing of this machine is read: no
 * device, no source; httop's privilege is given up first. */
#ifndef HTTOP_APP_NODES_H
#define HTTOP_APP_NODES_H

#include <stdio.h>

#include "cluster/cluster.h"
#include "cluster/hostlist.h"
#include "cluster/transport.h"
#include "machine/machine.h"
#include "cli/options.h"
#include "out/batch.h"
#include "plan/plan.h"
#include "sys/evloop.h"
#include "util/errmsg.h"

/* After a wake for the nodes' pipes alone, how long the next wait looks
 * at the keys and signals only, so that one poll over hundreds of pipes
 * takes a burst of lines rather than one (seconds); not after a node gave
 * a pipe's worth (cluster.busy): its writer may be waiting. */
#define NODES_COALESCE 0.02

struct nodes_app {
	const struct options *o;
	struct hostlist hosts;
	char how[16];              /* what expanded the list */
	char *spec;                /* the list as given (or the job's NodeList), whole */
	struct transport tr;
	bool have_tr;
	struct cluster c;
	bool have_cluster;
	/* batch */
	FILE *fp;                  /* standard output, or -o FILE (out) */
	FILE *out;
	struct batch *sum;         /* the summary writer */
	struct machine sm;         /* its machine: only the host name changes */
	struct plan sp;
	struct errmsg e;
	bool usage;                /* the error is a bad --nodes or --via value */
	bool write_failed;         /* and said so: the close need not say it again */
	/* --job --all-nodes, summary: every node interval so far, combined
	 * (metrics_combine) with their summed weights: the whole job. */
	struct agg_fig whole;
	struct agg_weights whole_w;
	unsigned whole_cores;      /* the most cores of a job interval */
	double whole_end, whole_wall;
	bool whole_valid, have_whole;
};

/* nodes.c: everything before the first node starts (na is set up
 * here); 0, or -1 with the reason in na->e (na->usage: a bad --nodes or
 * --via value, status 2). */
int app_nodes_open(struct nodes_app *na, const struct options *o);
/* The cluster's configuration both modes share. */
void app_nodes_config(struct nodes_app *na, struct cluster_config *cfg);
/* The one wait of many nodes: the nodes' pipes (after a wake for them
 * alone, the keys and signals only for NODES_COALESCE), up to the
 * cluster's next deadline or `until`; reads what came and reaps the ended.
 * `last` is the previous wake; returns this one's (sys/evloop.h). */
unsigned app_nodes_wait(struct nodes_app *na, struct evwait *w, unsigned last, double until);
/* Stop the nodes, close -o FILE, free; returns the exit status. */
int app_nodes_end(struct nodes_app *na, int status);
/* The modes (app.c's table): the live view (nodes_tui.c) and batch
 * (mode_nodes.c); each returns the exit status, errors said. */
int app_nodes_tui(struct nodes_app *na);
int app_nodes_batch(struct nodes_app *na);

#endif
