/* nodelist.h: the nodes to watch: a list in Slurm's hostlist syntax
 * expanded by Slurm's own `scontrol show hostnames`, else ClusterShell's
 * `nodeset -e`, else httop's parser (hostlist.h); or the nodes of a
 * running job (`scontrol show job -d ID`, its NodeList). The programs are
 * found as transport.h finds ssh (scontrol as slurm.h finds it), run
 * without a shell after a set-ID httop gave its privilege up, and one
 * that fails or is absent is passed over. */
#ifndef HTTOP_NODELIST_H
#define HTTOP_NODELIST_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/hostlist.h"
#include "util/errmsg.h"

struct nodelist_env {
	bool fixed_path;           /* a privileged httop: only the fixed directories */
	char *const *envp;         /* the programs' environment (NULL: httop's) */
	void (*child_setup)(void); /* in the child before its exec */
	bool builtin_only;         /* HTTOP_HOSTLIST=builtin: the parser only */
};

/* Expand `spec` into *h; `how` gets what expanded it ("scontrol",
 * "nodeset", "httop"). 0, or -1 with a message. */
int nodelist_expand(const char *spec, const struct nodelist_env *env, struct hostlist *h,
    char *how, size_t len, struct errmsg *e);
/* The NodeList of running job `id` (its hostlist text, whole, however
 * long) into *spec (allocated). */
int nodelist_of_job(const char *id, const struct nodelist_env *env, char **spec,
    struct errmsg *e);

/* Run `path` with argv (no shell), its standard output into *out
 * (allocated, NUL-ended, at most 4 MiB), the first line of its standard
 * error into err; within `seconds` or it is killed. Returns its exit
 * status (-1 killed or timed out), or -2 with a message when it could
 * not be run. */
int nodelist_run(const char *path, char *const argv[], const struct nodelist_env *env,
    double seconds, char **out, char *err, size_t errlen, struct errmsg *e);

#endif
