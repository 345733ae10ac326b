/* command.h: the command httop runs and watches (httop [options] --
 * COMMAND [ARGS]). It is forked early and held before its exec until the
 * counters run: then the whole of it is measured, and its process (its
 * PID, its CPUs) is known to the job watch from the start. It runs in
 * httop's process group (Ctrl-C reaches it), as the user who ran httop,
 * with that user's environment. */
#ifndef HTTOP_COMMAND_H
#define HTTOP_COMMAND_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "util/errmsg.h"

struct command {
	pid_t pid;                 /* 0: none */
	int go_fd;                 /* write end: a byte releases it, EOF stops it */
	int err_fd;                /* read end: the exec's errno, or EOF on success */
	bool released;
	bool reaped;
	int wstatus;               /* waitpid's status once reaped */
	int exec_errno;            /* the exec failed with this (0: it did not) */
	double started, ended;     /* clock_mono() at release and at the end */
	/* Its CPU time and that of the descendants it waited for, as wait4(2)
	 * reports it when it is reaped (have_ru false: not known, e.g. reaped
	 * elsewhere). */
	struct rusage ru;
	bool have_ru;
};

/* Would execvp(3) find `file` (argv[0]) and be let run it, with the
 * PATH of `envp` (NULL: httop's own environment), as the command runs?
 * Asked before anything is opened, so that a command that cannot run
 * ends httop at once, as a shell says it: 0 (it may run: the exec
 * decides, and says its own error), else 127 (not found) or 126 (found,
 * not executable), with "cannot run NAME: ..." (`name`: file quoted for
 * a message). It follows execvp: a name with a slash is the file, else
 * each directory of PATH in turn (an empty one: the current directory),
 * a file it may not run passed over for a later one. Each file is judged
 * by access(2), as the real user (the one the command runs as: a set-ID
 * httop gives its IDs up before the fork), so it learns nothing that
 * user could not. Where it cannot be sure (no PATH: the C libraries'
 * defaults differ; a capability access(2) leaves out; an error other
 * than not found or not permitted) it answers 0. */
int command_lookup(const char *file, const char *name, char *const envp[], struct errmsg *e);
/* Fork the process that will run argv (argv[0] looked up in the PATH of
 * `envp`, the environment it gets). It waits for command_release. Call
 * after signals_watch_children. 0, or -1 with a message. */
int command_spawn(struct command *c, char *const argv[], char *const envp[], struct errmsg *e);
/* Let it exec, and wait until the exec has happened or failed. 0, or -1
 * with "cannot run ...: reason" (it has ended then; command_status gives
 * 126 or 127 as a shell does). */
int command_release(struct command *c, const char *name, struct errmsg *e);
/* Has it ended? Reaps it without waiting (after WAKE_CHILD, or any time). */
bool command_ended(struct command *c);
/* Wait for its end (httop is ending for another reason: it must not leave
 * the command behind unwatched, nor a zombie). A command never released
 * is stopped before its exec. */
void command_wait(struct command *c);
/* Pass a signal on to it (SIGTERM sent to httop). */
void command_signal(const struct command *c, int sig);
/* Its user and system CPU time in seconds (wait4's rusage): false when
 * not known. */
bool command_cpu_time(const struct command *c, double *user, double *system);
/* Its exit status as a shell gives it: the code it exited with, 128 +
 * the signal that killed it, 126/127 when it could not be run. */
int command_status(const struct command *c);
/* "exit status 3", "killed by signal 9 (Killed)"... for the summary. */
void command_describe(const struct command *c, char *buf, size_t len);

#endif
