/* command.c: fork the command early, hold it before its exec, release it,
 * reap it (command.h). Two close-on-exec pipes: "go" (httop -> child: one
 * byte lets it exec; end of file, when httop gives up or dies, makes it
 * exit without running anything) and "err" (child -> httop: the exec's
 * errno, or end of file once the exec has succeeded). */
#include "config.h"
#include "command.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "privilege.h"
#include "signals.h"
#include "util/clock.h"
#include "util/i18n.h"

extern char **environ;

static void
child_main(int go, int err, char *const argv[], char *const envp[])
{
	ssize_t n;
	char b;
	int en;

	/* httop's handlers must not run in it; it gets the dispositions
	 * httop got (SIGPIPE, which httop ignores, back to what it was). */
	signals_inherit();
	do
		n = read(go, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127);            /* httop gave up before the start */
	close(go);
	/* execvp looks argv[0] up in the PATH of the environment it runs
	 * with: the user's, not the one a set-ID httop kept for itself. */
	if (envp != NULL)
		environ = (char **)envp;
	execvp(argv[0], argv);
	en = errno;
	(void)!write(err, &en, sizeof en);
	_exit(en == ENOENT ? 127 : 126);
}

/* One file execvp would try: 0 (it may run, or cannot be judged: -1),
 * ENOENT or ENOTDIR (nothing there), EACCES (there, but the user may
 * not run it). access(X_OK) lets a directory pass (search permission),
 * execve(2) refuses one: "FILE/" names it, with the same rights. A
 * device or a pipe with an execute bit passes: its exec says no. */
static int
probe(const char *path, bool trust_denied)
{
	char dir[PATH_MAX];
	int n;

	if (access(path, X_OK) == 0) {
		n = snprintf(dir, sizeof dir, "%s/", path);
		if (n > 0 && (size_t)n < sizeof dir && access(dir, F_OK) == 0)
			return EACCES;
		return 0;
	}
	if (errno == ENOENT || errno == ENOTDIR)
		return errno;
	if (errno == EACCES && trust_denied)
		return EACCES;
	return -1;
}

/* PATH as the child's execvp reads it: envp's first, else httop's. */
static const char *
env_path(char *const envp[])
{
	size_t i;

	if (envp == NULL)
		return getenv("PATH");
	for (i = 0; envp[i] != NULL; i++)
		if (strncmp(envp[i], "PATH=", 5) == 0)
			return envp[i] + 5;
	return NULL;
}

int
command_lookup(const char *file, const char *name, char *const envp[], struct errmsg *e)
{
	/* A set-ID httop's command runs without the privilege, so access(2)
	 * judges for it; else it has this process's capabilities. */
	bool trust = privilege_gained() || !privilege_access_understates();
	const char *path, *p, *end;
	char cand[PATH_MAX];
	bool denied = false;
	int r, n;

	if (file[0] == '\0') {
		errmsg_set(e, _("cannot run %s: %s"), name, strerror(ENOENT));
		return 127;
	}
	if (strchr(file, '/') != NULL) {
		if ((r = probe(file, trust)) <= 0)
			return 0;
		errmsg_set(e, _("cannot run %s: %s"), name, strerror(r));
		return r == ENOENT ? 127 : 126;
	}
	if ((path = env_path(envp)) == NULL)
		return 0;
	for (p = path;; p = end + 1) {
		end = strchrnul(p, ':');
		/* An empty entry is the current directory: the name alone. */
		if (end == p)
			n = snprintf(cand, sizeof cand, "%s", file);
		else
			n = snprintf(cand, sizeof cand, "%.*s/%s", (int)(end - p), p, file);
		if (n < 0 || (size_t)n >= sizeof cand)
			return 0;
		if ((r = probe(cand, trust)) <= 0)
			return 0;
		denied = denied || r == EACCES;
		if (*end == '\0')
			break;
	}
	/* As a shell: one it may not run is 126, none at all 127. */
	if (denied) {
		errmsg_set(e, _("cannot run %s: %s"), name, strerror(EACCES));
		return 126;
	}
	errmsg_set(e, _("cannot run %s: not found in PATH; give the command's path, or add its "
	    "directory to PATH"), name);
	return 127;
}

int
command_spawn(struct command *c, char *const argv[], char *const envp[], struct errmsg *e)
{
	int go[2], err[2];
	pid_t pid;

	memset(c, 0, sizeof *c);
	c->go_fd = c->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) != 0)
		return errmsg_set(e, _("cannot start the command: %s"), strerror(errno));
	if (pipe2(err, O_CLOEXEC) != 0) {
		int saved = errno;

		close(go[0]);
		close(go[1]);
		return errmsg_set(e, _("cannot start the command: %s"), strerror(saved));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int saved = errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return errmsg_set(e, _("cannot start the command: %s"), strerror(saved));
	}
	if (pid == 0) {
		/* Its own copy of the write end would hide httop's end. */
		close(go[1]);
		close(err[0]);
		child_main(go[0], err[1], argv, envp);
	}
	close(go[0]);
	close(err[1]);
	c->pid = pid;
	c->go_fd = go[1];
	c->err_fd = err[0];
	return 0;
}

/* Record the end from a wait status. */
static void
reaped(struct command *c, int wstatus)
{
	c->reaped = true;
	c->wstatus = wstatus;
	c->ended = clock_mono();
}

int
command_release(struct command *c, const char *name, struct errmsg *e)
{
	ssize_t n;
	int en = 0;

	c->started = clock_mono();
	c->released = true;
	/* A child that already died (Ctrl-C during the start) gives EPIPE
	 * here (SIGPIPE is ignored): its end is reaped as any other. */
	(void)!write(c->go_fd, "g", 1);
	close(c->go_fd);
	c->go_fd = -1;
	do
		n = read(c->err_fd, &en, sizeof en);
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	if (n != (ssize_t)sizeof en)
		return 0;
	c->exec_errno = en;
	command_wait(c);
	return errmsg_set(e, _("cannot run %s: %s"), name, strerror(en));
}

bool
command_ended(struct command *c)
{
	struct rusage ru;
	int st;
	pid_t r;

	if (c->pid == 0 || c->reaped)
		return true;
	r = wait4(c->pid, &st, WNOHANG, &ru);
	if (r == c->pid) {
		reaped(c, st);
		c->ru = ru;
		c->have_ru = true;
		return true;
	}
	if (r < 0 && errno == ECHILD) {
		/* Not ours any more: nothing can be learnt of its status. */
		reaped(c, 0);
		return true;
	}
	return false;
}

void
command_wait(struct command *c)
{
	struct rusage ru;
	int st;
	pid_t r;

	if (c->pid == 0 || c->reaped)
		return;
	if (!c->released && c->go_fd >= 0) {
		close(c->go_fd);       /* it exits without running anything */
		c->go_fd = -1;
	}
	if (c->err_fd >= 0) {
		close(c->err_fd);
		c->err_fd = -1;
	}
	do
		r = wait4(c->pid, &st, 0, &ru);
	while (r < 0 && errno == EINTR);
	reaped(c, r == c->pid ? st : 0);
	if (r == c->pid) {
		c->ru = ru;
		c->have_ru = true;
	}
}

void
command_signal(const struct command *c, int sig)
{
	if (c->pid > 0 && !c->reaped)
		kill(c->pid, sig);
}

bool
command_cpu_time(const struct command *c, double *user, double *system)
{
	*user = *system = 0.0;
	if (!c->have_ru)
		return false;
	*user = (double)c->ru.ru_utime.tv_sec + (double)c->ru.ru_utime.tv_usec / 1e6;
	*system = (double)c->ru.ru_stime.tv_sec + (double)c->ru.ru_stime.tv_usec / 1e6;
	return true;
}

int
command_status(const struct command *c)
{
	if (c->exec_errno != 0)
		return c->exec_errno == ENOENT ? 127 : 126;
	if (WIFEXITED(c->wstatus))
		return WEXITSTATUS(c->wstatus);
	if (WIFSIGNALED(c->wstatus))
		return 128 + WTERMSIG(c->wstatus);
	return 1;
}

void
command_describe(const struct command *c, char *buf, size_t len)
{
	if (c->exec_errno != 0)
		snprintf(buf, len, _("could not be run (%s)"), strerror(c->exec_errno));
	else if (WIFSIGNALED(c->wstatus))
		snprintf(buf, len, _("killed by signal %d (%s)"), WTERMSIG(c->wstatus),
		    strsignal(WTERMSIG(c->wstatus)));
	else
		snprintf(buf, len, _("exit status %d"), command_status(c));
}
