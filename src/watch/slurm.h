/* slurm.h: a Slurm job on this node (--job), found from Slurm itself:
 * `scontrol show job -d ID` names it (user, name, state, how long it has
 * run, its nodes); its CPUs are its cgroup's cpuset, looked for where
 * Slurm's cgroup plugins put it (v1: cpuset/slurm/uid_U/job_ID, v2:
 * system.slice/slurmstepd.scope/job_ID, and the slurm_NODE and
 * NODE_slurmstepd.scope forms of a node running several slurmd), or,
 * without one, the affinity of the processes `scontrol listpids ID` lists
 * and of their descendants. `--job` alone takes the one job `scontrol
 * listpids` lists on this node.
 *
 * scontrol is run without a shell, from a fixed list of directories (see
 * slurm_scontrol_path), never from the user's PATH, and only after a
 * set-ID httop has given up its privilege. Its output is parsed here; the
 * parsers are separate so that recorded outputs can test them. */
#ifndef HTTOP_SLURM_H
#define HTTOP_SLURM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/errmsg.h"

struct job_watch;

#define SLURM_ID_MAX 32
#define SLURM_NAME_MAX 256

/* One job as `scontrol show job -d` describes it. */
struct slurm_job {
	char id[SLURM_ID_MAX];      /* JobId: an array task's or a het component's own */
	char shown[SLURM_ID_MAX];   /* as the user knows it: "4_1" for an array task */
	char user[64];              /* UserId's name ("1234" when Slurm has none) */
	long uid;                   /* UserId's number, -1 if not given */
	char name[SLURM_NAME_MAX];  /* JobName (may hold blanks) */
	char state[32];             /* JobState: RUNNING, PENDING, ... */
	char nodes[256];            /* NodeList, cut to fit (for messages) */
	/* The whole NodeList, which a large job's can exceed nodes[] by far:
	 * nodes_len bytes at nodes_at in the text parsed (0, 0: none). */
	size_t nodes_at, nodes_len;
	long runtime;               /* RunTime, seconds, as read */
};

/* One row of `scontrol listpids`. */
struct slurm_pid {
	pid_t pid;
	char job[SLURM_ID_MAX];
};

/* Parse `scontrol show job -d` output (one or more jobs, the multi-line
 * form). Fills up to `max` jobs; returns how many the text holds (it may
 * be more than max), or -1 with a message when it is not that output. */
int slurm_parse_show_job(const char *text, struct slurm_job *jobs, size_t max,
    struct errmsg *e);
/* Parse `scontrol listpids [ID]` output: its header line, then one row per
 * process. Returns the rows (allocated, *n of them; NULL when none), or
 * sets *n = 0 and returns NULL with a message when the text is not that
 * output (e->text[0] != '\0'). */
struct slurm_pid *slurm_parse_listpids(const char *text, size_t *n, struct errmsg *e);
/* "1-02:03:04", "02:03:04", "03:04" -> seconds; -1 if not a time. */
long slurm_parse_duration(const char *s);

/* Where scontrol is: the configure-time --with-scontrol path, then
 * /usr/bin, /bin, /usr/sbin and /sbin; HTTOP_SCONTROL overrides them
 * when httop gained no privilege at its exec (tests, unusual sites).
 * 0, or -1 with a message naming where it looked. */
int slurm_scontrol_path(char *buf, size_t len, struct errmsg *e);
/* The same for sacct (HTTOP_SACCT; beside the configured scontrol). */
int slurm_sacct_path(char *buf, size_t len, struct errmsg *e);

/* From Slurm's accounting (sacct, run with `envp` as scontrol is): the
 * job's state (escaped, into state) and its AdminComment (*comment,
 * allocated, as sacct wrote it: untrusted, unescaped; free it). 0; 1 when
 * sacct has no such job; -1 with a message. */
int slurm_acct_comment(const char *id, char *const envp[], char *state, size_t slen,
    char **comment, struct errmsg *e);

/* Several jobs run here and --job named none: their list, for the user
 * to choose from. */
struct slurm_choice {
	struct slurm_job *jobs;
	size_t n;
};

enum {
	SLURM_OK = 0,
	SLURM_CHOOSE = 1,           /* --job alone, several jobs: see the choice */
	SLURM_ENDED = 2,            /* --job ID: the job is over (slurmctld says so,
				     * or has forgotten it): its record is in
				     * Slurm's accounting (slurm_acct_comment);
				     * what scontrol said in e */
};

/* The watch over job `id` (NULL: the only job with processes on this
 * node), scontrol run with the environment `envp` (NULL: httop's own).
 * SLURM_OK with *w set, SLURM_CHOOSE with `choice` filled (free it with
 * slurm_choice_free), or -1 with a message. `cgroup_root` and
 * `proc_root` are NULL but in tests. */
int slurm_job_watch(const char *id, char *const envp[], const char *cgroup_root,
    const char *proc_root, struct job_watch **w, struct slurm_choice *choice, struct errmsg *e);
void slurm_choice_free(struct slurm_choice *c);

#endif
