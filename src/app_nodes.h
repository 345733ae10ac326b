/* app_nodes.h: httop --nodes LIST, httop --job ID --all-nodes: the front
 * ends for many nodes (app_nodes.c: the set-up and batch mode;
 * app_nodes_tui.c: the live view). Nothing of this machine is read: no
 * device, no source; httop's privilege is given up first. */
#ifndef HTTOP_APP_NODES_H
#define HTTOP_APP_NODES_H

#include <stdio.h>

#include "cluster/cluster.h"
#include "cluster/hostlist.h"
#include "cluster/transport.h"
#include "machine/machine.h"
#include "options.h"
#include "out/batch.h"
#include "plan/plan.h"
#include "util/errmsg.h"

/* After a wake for the nodes' pipes alone, how long the next wait looks
 * at the keys and signals only, so that one poll over hundreds of pipes
 * takes a burst of lines rather than one (seconds). */
#define NODES_COALESCE 0.02

struct nodes_app {
	const struct options *o;
	struct hostlist hosts;
	char how[16];              /* what expanded the list */
	char spec[256];            /* the list as given (or the job's NodeList) */
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
	/* --job --all-nodes, summary: every node interval so far, combined
	 * (metrics_combine) with their summed weights: the whole job. */
	struct agg_fig whole;
	struct agg_weights whole_w;
	unsigned whole_cores;      /* the most cores of a job interval */
	double whole_end, whole_wall;
	bool whole_valid, have_whole;
};

int app_run_nodes(const struct options *o);
/* The live view over the nodes (app_nodes_tui.c); returns the status. */
int app_nodes_tui(struct nodes_app *na);
/* The cluster's configuration both front ends share. */
void app_nodes_config(struct nodes_app *na, struct cluster_config *cfg);

#endif
