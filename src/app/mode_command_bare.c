/* mode_command_bare.c: httop -- COMMAND where no counter source opens (none
 * works here, or the one asked for does not). The command runs all the
 * same, as httop(1) JOBS promises: it is let go at once, httop waits for
 * its end on the one wait (SIGCHLD's pipe, as mode_command.c does), and the
 * summary says what could be measured without counters (the wall-clock
 * time, and its CPU time from wait4(2)) and why the rest could not. The
 * exit status is the command's, or 1 where it succeeded and the summary
 * could not be written to -o FILE (standard error's failure cannot be
 * said, as in mode_command.c). */
#include "config.h"
#include "app/context.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "sys/evloop.h"
#include "out/runsum.h"
#include "sys/signals.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/textwrap.h"
#include "util/textesc.h"

/* Until the command ends; SIGTERM to httop is passed on to it, the other
 * ending signals reach it from the terminal (mode_command.c's top). */
static void
wait_end(struct app *a)
{
	struct evwait w = { .in_fd = -1, .out_fd = -1, .deadline = INFINITY };

	while (!command_ended(&a->cmd)) {
		if (evloop_wait(&w) & WAKE_SIGNAL) {
			int sig = signals_take();

			if (sig == SIGTERM)
				command_signal(&a->cmd, SIGTERM);
		}
	}
}

int
app_run_command_bare(struct app *a, const struct errmsg *why)
{
	const struct options *o = a->o;
	const struct command *cmd = &a->cmd;
	FILE *out = a->out != NULL ? a->out : o->output != NULL ? stdout : stderr;
	struct run_bare r;
	char name[96], ended[128];
	struct errmsg e;
	int err;

	text_quote(name, sizeof name, o->command[0], 64);
	/* The reason goes with the summary, once. */
	text_msgf(_("httop: no counter source opens; running %s without counters\n"), name);
	if (o->record != NULL)
		text_msgf(_("httop: --record %s: nothing is recorded without a counter "
		    "source\n"), o->record);
	if (o->textfile != NULL)
		text_msgf(_("httop: --textfile %s: nothing is written without a counter "
		    "source\n"), o->textfile);
	signals_defer();
	if (command_release(&a->cmd, name, &e) != 0) {
		app_report(&e);
		return command_status(cmd);
	}
	wait_end(a);
	command_describe(cmd, ended, sizeof ended);
	memset(&r, 0, sizeof r);
	r.argv = o->command;
	r.pid = (long)cmd->pid;
	r.ended = ended;
	r.status = command_status(cmd);
	r.signal = WIFSIGNALED(cmd->wstatus) ? WTERMSIG(cmd->wstatus) : 0;
	r.seconds = cmd->ended - cmd->started;
	r.have_cpu = command_cpu_time(cmd, &r.user, &r.system);
	r.host = a->m.hostname[0] != '\0' ? a->m.hostname : NULL;
	r.unix_time = clock_wall();
	r.why = why->text;
	if (o->batch && o->format == FMT_JSON)
		err = out_run_bare_json(out, &r);
	else
		err = out_run_bare(out, &r);
	/* On standard error a failed write cannot be said (the message would
	 * go there too) and is no failure of httop's; a reader that went away
	 * is a normal end. -o FILE or -o - (the data): httop's failure where
	 * the command succeeded, as with a source (mode_command.c). */
	if (err != 0 && err != EPIPE && out != stderr) {
		clearerr(out);
		errmsg_set(&e, _("writing the summary: %s"), strerror(err));
		app_report(&e);
		if (r.status == 0)
			return EXIT_FAIL;
	}
	return command_status(cmd);
}
