/* nodelist.c: the nodes to watch, from a list or a job (nodelist.h). */
#include "config.h"
#include "cluster/nodelist.h"

#include <errno.h>
#include <fcntl.h>
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
#include "watch/slurm.h"

extern char **environ;

#define OUT_MAX (4u << 20)
/* scontrol answers within its MessageTimeout (10 s by default). */
#define TOOL_SECONDS 30.0

static const char *const fixed_dirs[] = { "/usr/bin", "/bin", "/usr/sbin", "/sbin" };

/* The child: /dev/null in, the pipes out, the program. */
static void
run_child(const char *path, char *const argv[], const struct nodelist_env *env, int out, int err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	if (env->child_setup != NULL)
		env->child_setup();
	execve(path, argv, env->envp != NULL ? env->envp : environ);
	dprintf(2, "%s: %s\n", path, strerror(errno));
	_exit(127);
}

/* What comes on the two pipes until both close or `end`: standard output
 * into *out (len), standard error's start into ebuf. True when both
 * closed in time. */
static bool
gather(const int fd[2], double end, char **out, size_t *len, char *ebuf, size_t elen_max)
{
	size_t cap = 4096, elen = 0;
	bool live[2] = { true, true };
	char tmp[4096];

	*out = xmalloc(cap);
	*len = 0;
	while ((live[0] || live[1]) && clock_mono() < end) {
		struct pollfd p[2];
		unsigned i;

		for (i = 0; i < 2; i++) {
			p[i].fd = live[i] ? fd[i] : -1;
			p[i].events = POLLIN;
			p[i].revents = 0;
		}
		if (poll(p, 2, (int)((end - clock_mono()) * 1000.0) + 1) < 0 && errno != EINTR)
			break;
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (!live[i] || p[i].revents == 0)
				continue;
			n = read(fd[i], tmp, sizeof tmp);
			if (n <= 0) {
				live[i] = n < 0 && errno == EINTR;
				continue;
			}
			if (i == 0 && *len + (size_t)n < OUT_MAX) {
				while (*len + (size_t)n + 1 > cap)
					cap *= 2;
				*out = xrealloc(*out, cap);
				memcpy(*out + *len, tmp, (size_t)n);
				*len += (size_t)n;
			} else if (i == 1) {
				size_t k = (size_t)n < elen_max - 1 - elen ? (size_t)n : elen_max - 1 - elen;

				memcpy(ebuf + elen, tmp, k);
				elen += k;
			}
		}
	}
	(*out)[*len] = '\0';
	ebuf[elen] = '\0';
	return !live[0] && !live[1];
}

int
nodelist_run(const char *path, char *const argv[], const struct nodelist_env *env,
    double seconds, char **out, char *err, size_t errlen, struct errmsg *e)
{
	int po[2], pe[2], st = 0, fd[2];
	char ebuf[512];
	size_t len;
	bool done;
	pid_t pid;

	*out = NULL;
	err[0] = '\0';
	if (pipe2(po, O_CLOEXEC) != 0)
		return errmsg_set(e, _("cannot run %s: %s"), path, strerror(errno)), -2;
	if (pipe2(pe, O_CLOEXEC) != 0) {
		close(po[0]);
		close(po[1]);
		return errmsg_set(e, _("cannot run %s: %s"), path, strerror(errno)), -2;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		run_child(path, argv, env, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	if (pid < 0) {
		close(po[0]);
		close(pe[0]);
		return errmsg_set(e, _("cannot run %s: %s"), path, strerror(errno)), -2;
	}
	fd[0] = po[0];
	fd[1] = pe[0];
	done = gather(fd, clock_mono() + seconds, out, &len, ebuf, sizeof ebuf);
	ebuf[strcspn(ebuf, "\n")] = '\0';
	text_escape(err, errlen, ebuf);
	close(po[0]);
	close(pe[0]);
	if (!done)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!done)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* `name` in the fixed directories, or in PATH; false when absent. */
static bool
find(const char *name, const struct nodelist_env *env, char *buf, size_t len)
{
	const char *path = NULL, *p;
	size_t i, n;

	for (i = 0; i < sizeof fixed_dirs / sizeof fixed_dirs[0]; i++) {
		snprintf(buf, len, "%s/%s", fixed_dirs[i], name);
		if (access(buf, X_OK) == 0)
			return true;
	}
	if (env->fixed_path)
		return false;
	for (i = 0; env->envp != NULL && env->envp[i] != NULL; i++)
		if (strncmp(env->envp[i], "PATH=", 5) == 0)
			path = env->envp[i] + 5;
	if (path == NULL)
		path = getenv("PATH");
	for (p = path; p != NULL && *p != '\0'; p += n + (p[n] == ':')) {
		n = strcspn(p, ":");
		if (n > 0) {
			snprintf(buf, len, "%.*s/%s", (int)n, p, name);
			if (access(buf, X_OK) == 0)
				return true;
		}
		if (p[n] == '\0')
			break;
	}
	return false;
}

/* A tool's expansion, or -1 (absent, failed, or gave no names). */
static int
tool(const char *path, char *const argv[], const struct nodelist_env *env, struct hostlist *h)
{
	char *out = NULL, err[256];
	struct errmsg e;
	int st = nodelist_run(path, argv, env, TOOL_SECONDS, &out, err, sizeof err, &e);

	if (st != 0 || hostlist_from_words(out, h, &e) != 0) {
		free(out);
		hostlist_free(h);
		return -1;
	}
	free(out);
	return 0;
}

int
nodelist_expand(const char *spec, const struct nodelist_env *env, struct hostlist *h,
    char *how, size_t len, struct errmsg *e)
{
	char path[PATH_MAX], *arg = xstrdup(spec);
	struct errmsg ignore;

	memset(h, 0, sizeof *h);
	if (!env->builtin_only) {
		char *sc[] = { path, "show", "hostnames", arg, NULL };
		char *ns[] = { path, "-e", arg, NULL };

		if (slurm_scontrol_path(path, sizeof path, &ignore) == 0 && tool(path, sc, env, h) == 0) {
			snprintf(how, len, "scontrol");
			free(arg);
			return 0;
		}
		if (find("nodeset", env, path, sizeof path) && tool(path, ns, env, h) == 0) {
			snprintf(how, len, "nodeset");
			free(arg);
			return 0;
		}
	}
	free(arg);
	snprintf(how, len, "httop");
	if (hostlist_parse(spec, h, e) != 0)
		return errmsg_prefix(e, "--nodes");
	return 0;
}

int
nodelist_of_job(const char *id, const struct nodelist_env *env, char **spec,
    struct errmsg *e)
{
	char path[PATH_MAX], *out = NULL, err[256], *arg = xstrdup(id);
	char *argv[] = { path, "show", "job", "-d", arg, NULL };
	struct slurm_job j;
	int st, n;

	if (slurm_scontrol_path(path, sizeof path, e) != 0) {
		free(arg);
		return errmsg_prefix(e, "--all-nodes");
	}
	st = nodelist_run(path, argv, env, TOOL_SECONDS, &out, err, sizeof err, e);
	free(arg);
	if (st == -2)
		return errmsg_prefix(e, "--all-nodes");
	if (st != 0) {
		free(out);
		return errmsg_set(e, _("--all-nodes: scontrol show job %s says: %s"), id,
		    err[0] ? err : _("nothing (it failed)"));
	}
	n = slurm_parse_show_job(out, &j, 1, e);
	if (n == 1 && strcmp(j.state, "RUNNING") == 0 && j.nodes[0] != '\0' &&
	    strcmp(j.nodes, "(null)") != 0) {
		/* the whole NodeList, not j.nodes (cut to its size) */
		*spec = xmalloc(j.nodes_len + 1);
		memcpy(*spec, out + j.nodes_at, j.nodes_len);
		(*spec)[j.nodes_len] = '\0';
		free(out);
		return 0;
	}
	free(out);
	if (n < 0)
		return errmsg_prefix(e, "--all-nodes");
	if (n != 1)
		return errmsg_set(e, _("--all-nodes: --job %s names %d jobs; give one (ID_TASK for an "
		    "array's task)"), id, n);
	return errmsg_set(e, _("--all-nodes: job %s is %s and has no nodes to watch; give a "
	    "running job (squeue -t R)"), j.shown, j.state);
}
