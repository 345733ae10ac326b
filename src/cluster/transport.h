/* transport.h: how the httop of each node is started: the command line
 * for one node, by --via (httop.1, MANY NODES).
 *
 *   ssh   ssh -T -x -a -o BatchMode=yes -o ConnectTimeout=10
 *             -o ServerAliveInterval=10 -o ServerAliveCountMax=3 -- HOST WORDS
 *         (the remote shell parses the words: each is quoted for sh)
 *   srun  srun --jobid=ID --overlap --nodes=N --ntasks=N
 *             --ntasks-per-node=1 --nodelist=HOST,... --label
 *             --kill-on-bad-exit=0 --quiet -- /bin/sh -c SCRIPT WORDS:
 *             one step for all
 *             (transport_step_argv); per node (--nodes=1 --ntasks=1
 *             --nodelist=HOST) only in transport_argv
 *   CMD   CMD's own words, split as sh would split them (quotes, no
 *         expansion), every %h replaced by the host, then WORDS as
 *         separate arguments
 *
 * WORDS are the remote httop's (remote.h). The program is found on the
 * user's PATH, or, in a set-ID or file-capability httop, only in /usr/bin,
 * /bin, /usr/sbin and /sbin (a CMD's may also be an absolute path);
 * HTTOP_SSH and HTTOP_SRUN name another ssh or srun where httop gained no
 * privilege (tests, unusual sites). */
#ifndef HTTOP_TRANSPORT_H
#define HTTOP_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errmsg.h"

enum via { VIA_SSH = 0, VIA_SRUN, VIA_CMD };

struct transport {
	enum via via;
	char *prog;                /* the program: a path, or a name for PATH */
	char **words;              /* CMD's words (words[0] the program) */
	size_t nwords;
	char jobid[64];            /* srun */
	char **remote;             /* the remote httop's words */
	size_t nremote;
};

/* `via`: "ssh", "srun" or a command; `jobid` for srun; `remote` the
 * remote httop's words (copied); `fixed_path` in a privileged httop;
 * `envp` the environment the transport will run with (its PATH is
 * searched). 0, or -1 with a message. */
int transport_init(struct transport *t, const char *via, const char *jobid,
    char *const *remote, size_t nremote, bool fixed_path, char *const envp[], struct errmsg *e);
/* The command line for `host`, NULL-terminated, allocated (free with
 * transport_argv_free): the remote httop's words with "--host HOST" after
 * the first (the program). */
char **transport_argv(const struct transport *t, const char *host);
/* srun only: ONE job step for all of `hosts`, one task per node, each
 * task's lines labelled "TASK: " (srun --label); task k runs on hosts[k]
 * (Slurm numbers a step's tasks in the order of its nodes: the job's
 * node list gives them in that order). The remote httop is started by
 * /bin/sh with "--host $SLURMD_NODENAME" (Slurm's name of the node it runs
 * on, which the reader checks against hosts[k]; the node's own host name
 * may be another, such as its FQDN); without that variable it names its
 * own host. */
char **transport_step_argv(const struct transport *t, char *const *hosts, size_t nhosts);
void transport_argv_free(char **argv);
/* Drop every remote word equal to `word` (--compact, for an older
 * httop): the command lines made from now on are without it. */
void transport_drop_word(struct transport *t, const char *word);
void transport_free(struct transport *t);
const char *transport_name(const struct transport *t);   /* "ssh", "srun", the CMD */

/* Split a command into words as sh would (blanks separate, '...' and
 * "..." quote, a backslash escapes; nothing is expanded). 0, or -1 with
 * a message (an unclosed quote, no word). */
int transport_split(const char *cmd, char ***words, size_t *n, struct errmsg *e);
/* A word quoted for a POSIX shell when it needs it (into buf). */
const char *transport_quote(const char *word, char *buf, size_t len);

#endif
