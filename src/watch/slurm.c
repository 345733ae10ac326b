/* slurm.c: run scontrol and find a job's CPUs on this node (slurm.h). */
#include "config.h"
#include "watch/slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
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
#include "watch/job.h"

extern char **environ;

/* scontrol answers within its MessageTimeout (10 s by default), retried;
 * past this it is stopped and the reason said. */
#define SCONTROL_SECONDS 30.0
/* listpids on a node with thousands of processes: a few hundred KiB. */
#define OUT_MAX (4u << 20)
#define ERR_MAX 2048

static const char *const fixed_dirs[] = { "/usr/bin", "/bin", "/usr/sbin", "/sbin" };

/* Where Slurm's tool `name` is: $env, the directory of the configure-time
 * scontrol, then the fixed directories. */
static int
tool_path(const char *name, const char *env_name, char *buf, size_t len, struct errmsg *e)
{
	const char *env = secure_getenv(env_name);
	char tried[512];
	size_t i, n = 0;

	tried[0] = '\0';
	if (env != NULL && *env != '\0') {
		if (access(env, X_OK) != 0)
			return errmsg_set(e, _("%s=%s: not an executable file (%s)"), env_name, env,
			    strerror(errno));
		snprintf(buf, len, "%s", env);
		return 0;
	}
#ifdef SCONTROL_PATH
	{
		const char *slash = strrchr(SCONTROL_PATH, '/');

		snprintf(buf, len, "%.*s/%s", slash != NULL ? (int)(slash - SCONTROL_PATH) : 1,
		    slash != NULL ? SCONTROL_PATH : ".", name);
		if (access(buf, X_OK) == 0)
			return 0;
		n += (size_t)snprintf(tried + n, sizeof tried - n, "%s", buf);
	}
#endif
	for (i = 0; i < sizeof fixed_dirs / sizeof fixed_dirs[0]; i++) {
		snprintf(buf, len, "%s/%s", fixed_dirs[i], name);
		if (access(buf, X_OK) == 0)
			return 0;
		if (n < sizeof tried)
			n += (size_t)snprintf(tried + n, sizeof tried - n, "%s%s", n ? ", " : "", buf);
	}
	return errmsg_set(e, _("Slurm's %s is not installed here (looked for %s); --job "
	    "needs it: build httop with --with-scontrol=PATH where Slurm is elsewhere; "
	    "without Slurm, watch the job by --pid PID or --cgroup DIR"), name, tried);
}

int
slurm_scontrol_path(char *buf, size_t len, struct errmsg *e)
{
	return tool_path("scontrol", "HTTOP_SCONTROL", buf, len, e);
}

int
slurm_sacct_path(char *buf, size_t len, struct errmsg *e)
{
	return tool_path("sacct", "HTTOP_SACCT", buf, len, e);
}

/* What one run of scontrol gave. */
struct scontrol_out {
	char *out;                  /* standard output, NUL-terminated */
	char err[ERR_MAX];          /* standard error, cut short */
	int status;                 /* exit status, or -1 (killed, timed out) */
};

/* Read what is there on `fd` into *buf (growing it), up to `max`. 0 at end
 * of file, 1 when more may come. */
static int
drain_into(int fd, char **buf, size_t *len, size_t *cap, size_t max)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof tmp);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (*len + (size_t)n + 1 > *cap && *len < max) {
		while (*len + (size_t)n + 1 > *cap)
			*cap = *cap > 0 ? 2 * *cap : 8192;
		*buf = xrealloc(*buf, *cap);
	}
	if (*len + (size_t)n + 1 <= *cap) {
		memcpy(*buf + *len, tmp, (size_t)n);
		*len += (size_t)n;
		(*buf)[*len] = '\0';
	}
	return 1;
}

/* In the child: its output to the pipes, nothing to read, then scontrol. */
static void
child(const char *path, char *const argv[], char *const envp[], int out, int err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	/* SIGPIPE is ignored by httop; scontrol expects the default. */
	signal(SIGPIPE, SIG_DFL);
	execve(path, argv, envp != NULL ? envp : environ);
	dprintf(2, "%s: %s\n", path, strerror(errno));
	_exit(127);
}

/* Collect both pipes until both close or the time runs out. */
static bool
collect(int out, int err, struct scontrol_out *r)
{
	size_t len[2] = { 0, 0 }, cap[2] = { 0, 0 };
	const size_t max[2] = { OUT_MAX, ERR_MAX };
	char *buf[2] = { NULL, NULL };
	int fd[2] = { out, err };
	bool open[2] = { true, true };
	double end = clock_mono() + SCONTROL_SECONDS;
	struct pollfd p[2];
	unsigned i;

	while (open[0] || open[1]) {
		double left = end - clock_mono();

		if (left <= 0)
			break;
		for (i = 0; i < 2; i++) {
			/* A closed one is left out of the poll (negative fd). */
			p[i].fd = open[i] ? fd[i] : -1;
			p[i].events = POLLIN;
			p[i].revents = 0;
		}
		if (poll(p, 2, (int)(left * 1000.0) + 1) < 0 && errno != EINTR)
			break;
		for (i = 0; i < 2; i++)
			if (open[i] && (p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				open[i] = drain_into(fd[i], &buf[i], &len[i], &cap[i], max[i]) != 0;
	}
	r->out = buf[0] != NULL ? buf[0] : xstrdup("");
	if (buf[1] != NULL)
		snprintf(r->err, sizeof r->err, "%s", buf[1]);
	free(buf[1]);
	return !open[0] && !open[1];
}

/* Run the tool at `path` with `args` (after argv[0]); 0 with r filled
 * (whatever its exit status), or -1 with a message when it could not be
 * run at all. */
static int
run_tool(const char *path, const char *const args[], char *const envp[],
    struct scontrol_out *r, struct errmsg *e)
{
	char *argv[12];
	int out[2], err[2], st;
	size_t i;
	pid_t pid;
	bool done;

	memset(r, 0, sizeof *r);
	argv[0] = (char *)path;
	for (i = 0; args[i] != NULL && i + 2 < sizeof argv / sizeof argv[0]; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	if (pipe2(out, O_CLOEXEC) != 0)
		return errmsg_set(e, _("cannot run %s: %s"), path, strerror(errno));
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(out[0]);
		close(out[1]);
		return errmsg_set(e, _("cannot run %s: %s"), path, strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(path, argv, envp, out[1], err[1]);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(out[0]);
		close(err[0]);
		return errmsg_set(e, _("cannot run %s: %s"), path, strerror(errno));
	}
	done = collect(out[0], err[0], r);
	close(out[0]);
	close(err[0]);
	if (!done)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (!done) {
		free(r->out);
		r->out = NULL;
		return errmsg_set(e, _("%s %s did not answer within %.0f s; is slurmctld "
		    "reachable (scontrol ping)?"), path, args[0], SCONTROL_SECONDS);
	}
	return 0;
}

static int
scontrol(const char *const args[], char *const envp[], struct scontrol_out *r,
    struct errmsg *e)
{
	char path[PATH_MAX];

	memset(r, 0, sizeof *r);
	if (slurm_scontrol_path(path, sizeof path, e) != 0)
		return -1;
	return run_tool(path, args, envp, r, e);
}

/* scontrol's first line of complaint, escaped, for a message. */
static const char *
said(const struct scontrol_out *r, char *buf, size_t len)
{
	char line[256];

	snprintf(line, sizeof line, "%.*s", (int)strcspn(r->err, "\n"), r->err);
	if (line[0] == '\0')
		snprintf(line, sizeof line, "exit status %d", r->status);
	return text_escape(buf, len, line);
}

static bool
running(const struct slurm_job *j)
{
	return strcmp(j->state, "RUNNING") == 0 || strcmp(j->state, "SUSPENDED") == 0 ||
	    strcmp(j->state, "CONFIGURING") == 0;
}

/* Over, or its epilogs running (COMPLETING): its record is in Slurm's
 * accounting, or soon will be. PENDING, REQUEUED, RESIZING, ... are not. */
static bool
ended(const struct slurm_job *j)
{
	static const char *const over[] = { "COMPLETED", "COMPLETING", "CANCELLED", "FAILED",
	    "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY" };
	size_t i;

	for (i = 0; i < sizeof over / sizeof over[0]; i++)
		if (strcmp(j->state, over[i]) == 0)
			return true;
	return false;
}

/* Of the jobs an ID names (an array job's ID names all its tasks): the
 * one whose own JobId it is when `exact` (an ID scontrol listpids gave),
 * else the only one running; -1 when none or several. */
static int
pick(const struct slurm_job *jobs, int n, const char *id, bool exact)
{
	int i, found = -1;

	for (i = 0; i < n; i++) {
		if (exact ? strcmp(jobs[i].id, id) == 0 : running(&jobs[i])) {
			if (found >= 0)
				return -1;
			found = i;
		}
	}
	return found;
}

#define SHOW_MAX 16

/* `scontrol show job -d ID`: the one job. */
static int
show_job(const char *id, bool exact, char *const envp[], struct slurm_job *j,
    bool *gone, struct errmsg *e)
{
	const char *args[] = { "show", "job", "-d", id, NULL };
	struct slurm_job more[SHOW_MAX];
	struct scontrol_out r;
	char msg[512], qid[96];
	int n, k;

	text_quote(qid, sizeof qid, id, 32);
	if (scontrol(args, envp, &r, e) != 0)
		return errmsg_prefix(e, "--job");
	if (r.status != 0) {
		free(r.out);
		/* slurmctld forgets an ended job after MinJobAge (300 s). */
		if (gone != NULL)
			*gone = strstr(r.err, "Invalid job id") != NULL;
		if (strstr(r.err, "Invalid job id") != NULL)
			return errmsg_set(e, _("--job %s: scontrol show job says: %s"), qid,
			    said(&r, msg, sizeof msg));
		/* Not the job: Slurm itself (no controller, no slurm.conf). */
		return errmsg_set(e, _("--job %s: scontrol show job says: %s; is this a node of a "
		    "Slurm cluster (scontrol ping)? Without Slurm, watch the job by --pid PID or "
		    "--cgroup DIR"), qid, said(&r, msg, sizeof msg));
	}
	n = slurm_parse_show_job(r.out, more, sizeof more / sizeof more[0], e);
	free(r.out);
	if (n < 0)
		return errmsg_prefix(e, "--job");
	k = n == 1 ? 0 : pick(more, n < SHOW_MAX ? n : SHOW_MAX, id, exact);
	if (k < 0)
		return errmsg_set(e, _("--job %s names %d jobs (an array: %s, %s, ...); give one of "
		    "them, as ID_TASK"), qid, n, more[0].shown, more[1].shown);
	*j = more[k];
	return 0;
}

/* `scontrol listpids [ID]`: the processes Slurm knows on this node. No
 * process is not an error (*n = 0): scontrol then says so and exits 1. */
static struct slurm_pid *
list_pids(const char *id, char *const envp[], size_t *n, struct errmsg *e)
{
	const char *args[] = { "listpids", id, NULL };
	struct slurm_pid *rows;
	struct scontrol_out r;
	char msg[512];

	*n = 0;
	if (scontrol(args, envp, &r, e) != 0)
		return NULL;
	rows = slurm_parse_listpids(r.out, n, e);
	if (rows == NULL && e->text[0] != '\0' && r.status != 0)
		errmsg_set(e, _("scontrol listpids says: %s; is this a node of a Slurm cluster "
		    "(scontrol ping)? Without Slurm, watch the job by --pid PID or --cgroup DIR"),
		    said(&r, msg, sizeof msg));
	free(r.out);
	return rows;
}

/* The job's cgroup, where Slurm's cgroup plugins put it: the watch over
 * it, or NULL. The node's name in the "several slurmd" forms is Slurm's,
 * which may not be the host's: any is taken (a job ID is the cluster's). */
static struct job_watch *
job_cgroup(const struct slurm_job *j, const char *cgroup_root, const char *proc_root)
{
	static const char *const forms[] = {
		"%s/system.slice/slurmstepd.scope/job_%s",        /* cgroup/v2 */
		"%s/system.slice/*_slurmstepd.scope/job_%s",
		"%s/*cpuset*/slurm/uid_%s/job_%s",                 /* cgroup/v1 */
		"%s/*cpuset*/slurm_*/uid_%s/job_%s",
	};
	const char *root = cgroup_root != NULL ? cgroup_root : "/sys/fs/cgroup";
	struct job_watch *w = NULL;
	struct errmsg ignore;
	char pattern[PATH_MAX], uid[24];
	size_t i, k;
	glob_t g;

	if (j->uid >= 0)
		snprintf(uid, sizeof uid, "%ld", j->uid);
	else
		snprintf(uid, sizeof uid, "*");
	for (i = 0; i < sizeof forms / sizeof forms[0] && w == NULL; i++) {
		if (i < 2)
			snprintf(pattern, sizeof pattern, forms[i], root, j->id);
		else
			snprintf(pattern, sizeof pattern, forms[i], root, uid, j->id);
		if (glob(pattern, GLOB_NOSORT | GLOB_ONLYDIR, NULL, &g) != 0)
			continue;
		for (k = 0; k < g.gl_pathc && w == NULL; k++)
			w = job_watch_new_at(NULL, 0, g.gl_pathv[k], proc_root, cgroup_root, &ignore);
		globfree(&g);
	}
	return w;
}

/* The job's processes on this node, and their descendants. */
static struct job_watch *
job_pids(const struct slurm_job *j, char *const envp[], const char *proc_root,
    struct errmsg *e)
{
	struct slurm_pid *rows;
	struct job_watch *w;
	pid_t *pids;
	size_t n, i, k = 0;
	char path[PATH_MAX];

	rows = list_pids(j->id, envp, &n, e);
	if (rows == NULL && e->text[0] != '\0')
		return NULL;
	pids = xcalloc(n > 0 ? n : 1, sizeof *pids);
	for (i = 0; i < n; i++) {
		/* One that ended since scontrol listed it is not an error. */
		snprintf(path, sizeof path, "%s/%ld", proc_root != NULL ? proc_root : "/proc",
		    (long)rows[i].pid);
		if (strcmp(rows[i].job, j->id) == 0 && access(path, F_OK) == 0)
			pids[k++] = rows[i].pid;
	}
	free(rows);
	if (k == 0) {
		free(pids);
		errmsg_set(e, _("--job %s: the job (%s on %s) has no process on this node and "
		    "no cgroup of it was found; run httop on one of its nodes"), j->shown,
		    j->state, j->nodes[0] != '\0' ? j->nodes : "?");
		return NULL;
	}
	w = job_watch_new(pids, k, NULL, proc_root, e);
	free(pids);
	if (w != NULL)
		job_watch_follow(w);
	return w;
}

/* --job alone: the job IDs `scontrol listpids` lists, each once. */
static int
jobs_here(char *const envp[], char ids[][SLURM_ID_MAX], size_t max, size_t *n,
    struct errmsg *e)
{
	struct slurm_pid *rows;
	size_t nrows, i, k;

	*n = 0;
	rows = list_pids(NULL, envp, &nrows, e);
	if (rows == NULL && e->text[0] != '\0')
		return errmsg_prefix(e, "--job");
	for (i = 0; i < nrows; i++) {
		for (k = 0; k < *n && strcmp(ids[k], rows[i].job) != 0; k++)
			;
		if (k == *n && *n < max)
			snprintf(ids[(*n)++], SLURM_ID_MAX, "%s", rows[i].job);
	}
	free(rows);
	return 0;
}

#define CHOICE_MAX 64

/* Several jobs: each described for the user's choice. */
static int
make_choice(char ids[][SLURM_ID_MAX], size_t n, char *const envp[], struct slurm_choice *c,
    struct errmsg *e)
{
	size_t i;

	c->jobs = xcalloc(n, sizeof *c->jobs);
	c->n = 0;
	for (i = 0; i < n; i++) {
		if (show_job(ids[i], true, envp, &c->jobs[c->n], NULL, e) != 0) {
			/* Ended since: its id alone. */
			memset(&c->jobs[c->n], 0, sizeof c->jobs[c->n]);
			snprintf(c->jobs[c->n].shown, SLURM_ID_MAX, "%s", ids[i]);
		}
		c->n++;
	}
	return SLURM_CHOOSE;
}

int
slurm_job_watch(const char *id, char *const envp[], const char *cgroup_root,
    const char *proc_root, struct job_watch **w, struct slurm_choice *choice, struct errmsg *e)
{
	char ids[CHOICE_MAX][SLURM_ID_MAX];
	struct slurm_job j;
	bool gone = false;
	size_t n;

	*w = NULL;
	memset(choice, 0, sizeof *choice);
	if (id == NULL) {
		if (jobs_here(envp, ids, CHOICE_MAX, &n, e) != 0)
			return -1;
		if (n == 0)
			return errmsg_set(e, _("--job: no Slurm job has a process on this node "
			    "(scontrol listpids lists none); give the job's ID, --job ID"));
		if (n > 1)
			return make_choice(ids, n, envp, choice, e);
	}
	if (show_job(id != NULL ? id : ids[0], id == NULL, envp, &j, &gone, e) != 0)
		return gone && id != NULL ? SLURM_ENDED : -1;
	if (ended(&j) && id != NULL) {
		errmsg_set(e, _("--job %s: the job is %s"), j.shown, j.state);
		return SLURM_ENDED;
	}
	if (!running(&j))
		return errmsg_set(e, _("--job %s: the job is %s, not running; give a running "
		    "job (squeue -t R)"), j.shown, j.state);
	*w = job_cgroup(&j, cgroup_root, proc_root);
	if (*w == NULL && (*w = job_pids(&j, envp, proc_root, e)) == NULL)
		return -1;
	job_watch_set_job(*w, j.shown, j.user, j.name,
	    clock_mono() - (j.runtime > 0 ? (double)j.runtime : 0.0));
	return SLURM_OK;
}

void
slurm_choice_free(struct slurm_choice *c)
{
	free(c->jobs);
	c->jobs = NULL;
	c->n = 0;
}

/* sacct's row of the job: "JobID|State|AdminComment" (-P: '|' between
 * fields; the comment last, as it may hold '|'). The first row whose
 * JobID is id, cut at its line's end. */
static int
sacct_row(const char *out, const char *id, char *state, size_t slen, char **comment)
{
	size_t idlen = strlen(id);
	const char *p, *end, *bar;

	for (p = out; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		if ((size_t)(end - p) <= idlen || strncmp(p, id, idlen) != 0 || p[idlen] != '|')
			continue;
		p += idlen + 1;
		bar = memchr(p, '|', (size_t)(end - p));
		if (bar == NULL)
			continue;
		snprintf(state, slen, "%.*s", (int)(bar - p < 32 ? bar - p : 32), p);
		*comment = xmalloc((size_t)(end - bar));
		memcpy(*comment, bar + 1, (size_t)(end - bar - 1));
		(*comment)[end - bar - 1] = '\0';
		return 0;
	}
	return 1;
}

int
slurm_acct_comment(const char *id, char *const envp[], char *state, size_t slen,
    char **comment, struct errmsg *e)
{
	const char *args[] = { "-n", "-X", "-P", "-j", id, "-o", "JobID,State,AdminComment",
	    NULL };
	struct scontrol_out r;
	char path[PATH_MAX], msg[512], st[64];
	int rc;

	*comment = NULL;
	if (slurm_sacct_path(path, sizeof path, e) != 0 || run_tool(path, args, envp, &r, e) != 0)
		return -1;
	if (r.status != 0) {
		free(r.out);
		return errmsg_set(e, _("sacct says: %s"), said(&r, msg, sizeof msg));
	}
	rc = sacct_row(r.out, id, st, sizeof st, comment);
	free(r.out);
	text_escape(state, slen, st);
	return rc;
}
