/* context.c: the run context every mode of this machine stands on: open
 * what a run reads in its order (open.c), report an error, the run's
 * settings, the outputs every mode has, the pacing of the refreshes (the
 * one place where -d meets the pacer), and the end. Every way out after
 * the source exists goes through app_end(), which restores the registers;
 * everything a mode adds is closed by run_finish() first. */
#include "config.h"
#include "app/context.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/record.h"
#include "out/textfile.h"
#include "out/outputs.h"
#include "sys/privilege.h"
#include "source/msr/msr_io.h"
#include "source/msr/msr_state.h"
#include "source/perf/perf_cgroup.h"
#include "sys/signals.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/textwrap.h"
#include "util/textesc.h"
#include "watch/job.h"
#include "watch/slurm.h"

/* Long enough for the ratio of two counters to be an integer beyond
 * doubt, short enough not to be noticed at start. */
#define CALIBRATE_SECONDS 0.1

/* An error as httop says it, on standard error. */
void
app_report(const struct errmsg *e)
{
	text_msgf("httop: %s\n", e->text);
}

void
app_run_config(const struct app *a, struct run_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->force = a->o->force;
	cfg->on_conflict = a->o->on_conflict;
	cfg->calibrate_seconds = CALIBRATE_SECONDS;
	cfg->sleep = signals_sleep;
	cfg->ph = (struct phases *)&a->ph;
}

bool
app_test_clock(const struct source *src)
{
	/* Never in a privileged httop (secure_getenv), and only where time
	 * is the program's to give: the simulator. */
	const char *clock = secure_getenv("HTTOP_CLOCK");

	return src->virtual_clock && !src->recorded && clock != NULL &&
	    strcmp(clock, "virtual") == 0;
}

void
app_add_common_outputs(struct app *a, struct run *r)
{
	if (a->rec != NULL) {
		struct job_ident id;

		/* The job's name in the trace's header; its CPUs go with each
		 * sample (run_set_job_cpus, or a replayed job's own). */
		if (a->job != NULL) {
			job_watch_ident(a->job, &id);
			record_set_job(a->rec, &id);
		} else {
			record_set_job(a->rec, a->src->recorded_job);
		}
		run_add_output(r, &output_record, a->rec);
	}
	if (a->tf != NULL)
		run_add_output(r, &output_textfile, a->tf);
}

int
app_close_output(FILE **fp, const char *name, bool said, int status)
{
	/* A close that fails (NFS, a full disk) is an error too, said once. */
	if (fclose(*fp) != 0 && !said) {
		struct errmsg e;

		errmsg_set(&e, _("-o %s: %s; check the disk"), name, strerror(errno));
		app_report(&e);
		if (status == EXIT_OK)
			status = EXIT_FAIL;
	}
	*fp = NULL;
	return status;
}

bool
app_wants_screen(const struct options *o)
{
	return !o->batch && isatty(STDOUT_FILENO);
}

/* A fatal signal's restore of the registers (signals.h): pwrite() only. */
static void
emergency_restore(void *src)
{
	source_emergency_restore(src);
}

/* Put the registers back and free everything; a failed restore turns a
 * success into a failure (the PMU is left as httop set it). */
int
app_end(struct app *a, int status)
{
	phases_report(&a->ph);
	if (a->ph.on && a->src != NULL) {
		char st[160];

		/* Machine-read (bench/sched.sh): not translated. */
		if (source_stats(a->src, st, sizeof st))
			fprintf(stderr, "httop: source stats: %s\n", st);
	}
	/* The gzip trailer; a close that fails (NFS) is an error too. */
	if (a->rec != NULL && record_close(a->rec, &a->e) != 0) {
		app_report(&a->e);
		if (status == EXIT_OK)
			status = EXIT_FAIL;
	}
	a->rec = NULL;
	if (a->job != NULL)
		job_watch_free(a->job);
	/* A command that did not start is stopped before its exec; one that
	 * runs still is waited for: httop leaves none behind. */
	command_wait(&a->cmd);
	free(a->auto_said);
	a->auto_said = NULL;
	free(a->auto_why);
	a->auto_why = NULL;
	textfile_free(a->tf);
	if (a->out != NULL)
		status = app_close_output(&a->out, a->o->output, false, status);
	if (a->pre_msr != NULL)
		a->pre_msr->destroy(a->pre_msr);
	msr_state_free(a->state);
	a->state = NULL;
	if (a->src != NULL) {
		if (source_restore(a->src, &a->e) != 0) {
			app_report(&a->e);
			if (status == EXIT_OK)
				status = EXIT_FAIL;
		}
		signals_set_restore(NULL, NULL);
		source_close(a->src);
	}
	if (a->beside != NULL)
		source_close(a->beside);
	a->beside = NULL;
	/* After the sources that ask it: a scheduler source's drain thread
	 * (the source's or the record beside) runs until its close. */
	job_tasks_free(a->tasks);
	a->tasks = NULL;
	perf_cgroup_close(a->jobcg);
	a->jobcg = NULL;
	if (a->jobcg_sys != NULL)
		a->jobcg_sys->destroy(a->jobcg_sys);
	a->jobcg_sys = NULL;
	if (a->have_layout)
		die_layout_free(&a->layout);
	if (a->have_machine)
		machine_free(&a->m);
	return status;
}

/* --job alone, several jobs here: their list on standard output, for the
 * user to choose from; the line that says so on standard error. */
static int
job_choice(struct app *a, struct slurm_choice *c)
{
	char user[80], name[160];
	size_t i;

	printf("%-14s %-12s %s\n", _("JOBID"), _("USER"), _("NAME"));
	for (i = 0; i < c->n; i++)
		printf("%-14s %-12s %s\n", c->jobs[i].shown, text_quote(user, sizeof user,
		    c->jobs[i].user[0] ? c->jobs[i].user : "?", 32), text_quote(name, sizeof name,
		    c->jobs[i].name, 80));
	fflush(stdout);
	errmsg_set(&a->e, _("--job: %zu jobs run on this node (listed above); choose one with "
	    "--job ID"), c->n);
	slurm_choice_free(c);
	return EXIT_USAGE;
}

/* The job watched: a command httop runs (forked now, held before its
 * exec), a Slurm job, or --pid and --cgroup. Before any register is
 * touched: a wrong PID or job is a plain error. Returns an exit status. */
static int
open_job(struct app *a)
{
	const struct options *o = a->o;
	struct slurm_choice choice;
	int rc;

	if (o->command != NULL) {
		/* Here: after a set-ID httop gave up its privilege, before the
		 * later drop takes root's capabilities from httop, so that the
		 * command runs as the user who ran httop, with what that user
		 * has. A failed start stops it before its exec (app_end). */
		if (signals_watch_children() != 0) {
			errmsg_set(&a->e, _("cannot watch the command's end: %s"), strerror(errno));
			return EXIT_FAIL;
		}
		if (command_spawn(&a->cmd, o->command, o->user_env, &a->e) != 0)
			return EXIT_FAIL;
		a->job = job_watch_new(&a->cmd.pid, 1, NULL, NULL, &a->e);
		if (a->job == NULL)
			return EXIT_FAIL;
		job_watch_follow(a->job);
		job_watch_set_command(a->job, o->command[0]);
		return EXIT_OK;
	}
	if (o->job) {
		rc = slurm_job_watch(o->job_id, o->user_env, NULL, NULL, &a->job, &choice, &a->e);
		if (rc == SLURM_CHOOSE)
			return job_choice(a, &choice);
		if (rc == SLURM_ENDED)
			return app_job_ended(o, &a->e);
		return rc == SLURM_OK ? EXIT_OK : EXIT_FAIL;
	}
	if (o->npids > 0 || o->cgroup != NULL) {
		a->job = job_watch_new(o->pids, o->npids, o->cgroup, NULL, &a->e);
		if (a->job == NULL)
			return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* httop -- COMMAND where no source opens: the command runs all the same
 * (app_run_command_bare), with only what needs no counters: the
 * privilege given up, -o FILE. The sources' errors say why. */
static int
open_bare(struct app *a)
{
	const struct options *o = a->o;

	a->bare_why = a->e;
	if (o->host != NULL)
		snprintf(a->m.hostname, sizeof a->m.hostname, "%s", o->host);
	else if (a->m.hostname[0] == '\0' && gethostname(a->m.hostname, sizeof a->m.hostname) != 0)
		a->m.hostname[0] = '\0';
	a->m.hostname[sizeof a->m.hostname - 1] = '\0';
	if (app_drop_privilege(a) != 0)
		return EXIT_FAIL;
	if (o->output != NULL && app_open_output(a) != 0)
		return EXIT_FAIL;
	return EXIT_OK;
}

/* --source auto's note, once (open.c). */
static void
auto_said(struct app *a)
{
	if (a->auto_said != NULL)
		text_msgf("%s", a->auto_said);
	free(a->auto_said);
	a->auto_said = NULL;
}

int
app_open_all(struct app *a)
{
	const struct options *o = a->o;
	char name[96];
	int status;

	/* A command that cannot be run ends httop here, before anything is
	 * opened (no source, no file, no process), with a shell's status:
	 * looked up as the command's own exec will, with the rights of the
	 * user it runs as (command_lookup). The exec still says its own
	 * error where this could not tell. */
	if (o->command != NULL && (status = command_lookup(o->command[0], text_quote(name,
	    sizeof name, o->command[0], 64), o->user_env, &a->e)) != 0)
		return status;
	/* Installed set-ID or with file capabilities: open what needs the
	 * privilege, give it up, and only then read what the user names
	 * (httop(1), SECURITY). Otherwise it is given up once the source and
	 * the die's registers are open, below. */
	if (app_open_devices(a) != 0)
		return EXIT_FAIL;
	if (privilege_gained() && app_drop_privilege(a) != 0)
		return EXIT_FAIL;
	/* A bad --textfile is a usage error before the job, the command or
	 * the source is opened (httop(1), EXIT STATUS: nothing was touched).
	 * A file is tried where httop now has the rights it keeps; root's,
	 * kept until the source is open, are tried again below. */
	if (o->textfile != NULL && textfile_check(o->textfile, !privilege_held(), &a->e) != 0)
		return EXIT_USAGE;
	if ((status = open_job(a)) != EXIT_OK)
		return status;
	if (app_open_source(a) != 0)
		return a->cmd.pid != 0 ? open_bare(a) : EXIT_FAIL;
	/* --host: before anything records or prints the name. */
	if (o->host != NULL)
		snprintf(a->m.hostname, sizeof a->m.hostname, "%s", o->host);
	signals_set_restore(emergency_restore, a->src);
	/* What a killed httop left, put back before anything is read or
	 * written (--restore: only that). */
	if ((status = app_recover(a)) >= 0) {
		auto_said(a);
		return status == EXIT_OK ? EXIT_RESTORED : status;
	}
	if (app_select_cpus(a) != 0 || app_build_layout(a) != 0)
		return EXIT_USAGE;
	auto_said(a);
	if (o->check)
		app_open_beside(a);
	else
		app_open_job_record(a);
	if (app_drop_privilege(a) != 0)
		return EXIT_FAIL;
	if (o->record != NULL && app_open_record(a) != 0)
		return EXIT_FAIL;
	if (o->output != NULL && app_open_output(a) != 0)
		return EXIT_FAIL;
	/* With the rights httop keeps, before any register is touched: a
	 * directory it cannot write to is a bad --textfile. The plan is
	 * read only when a file is written. */
	if (o->textfile != NULL &&
	    (a->tf = textfile_open(o->textfile, a->src->m, &a->plan, a->src->name, &a->e)) == NULL)
		return EXIT_USAGE;
	textfile_set_level(a->tf, o->textfile_level);
	if (a->job != NULL) {
		struct job_ident id;

		job_watch_ident(a->job, &id);
		textfile_set_job(a->tf, &id);
	}
	return EXIT_OK;
}

/* context.h */
void
app_job_record(struct app *a, struct run *r)
{
	char note[sizeof a->beside_why.text + sizeof a->jobcg_why.text + 240], rates[300];

	if (a->o->check || !a->beside_wanted)
		return;
	run_set_job_counts(r, a->jobcg, R_NO_CGROUP_EVENTS);
	if (a->jobcg != NULL)
		snprintf(rates, sizeof rates, "%s", _("its own CPI and GHz from perf's cgroup events"));
	else
		snprintf(rates, sizeof rates, _("the job's CPI and GHz are the CPUs' (%s)"),
		    a->jobcg_why.text);
	if (a->beside != NULL) {
		snprintf(note, sizeof note, _("the job's own figures (job_util, the job's split, "
		    "cpu_s) come from the scheduler's record beside the %s counters; %s"),
		    a->src->name, rates);
		run_set_job_record(r, a->beside, &a->beside_plan, note);
		return;
	}
	snprintf(note, sizeof note, _("the job's own figures are absent (no-record): the "
	    "scheduler's record beside the %s counters did not open: %s; %s"), a->src->name,
	    a->beside_why.text, rates);
	run_set_job_absent(r, R_NO_RECORD, note);
}

void
app_recorded_job_label(const struct job_ident *j, char *buf, size_t len)
{
	const char *pid = strcmp(j->kind, "command") == 0 || strcmp(j->kind, "pid") == 0 ?
	    "pid " : "";
	char id[40], a[32], b[40];

	text_quote(id, sizeof id, j->id, 32);
	text_quote(a, sizeof a, j->user, 24);
	text_quote(b, sizeof b, j->name, 32);
	if (a[0] != '\0' || b[0] != '\0')
		snprintf(buf, len, "%s%s (%s%s%s)", pid, id, a, a[0] != '\0' && b[0] != '\0' ?
		    ", " : "", b);
	else
		snprintf(buf, len, "%s%s", pid, id);
}

void
app_pacer_init(const struct app *a, struct pacer *p, enum app_pace how, double delay)
{
	const struct source *src = a->src;
	enum pace_mode mode = PACE_WALL;

	switch (how) {
	case APP_PACE_BATCH:
		/* A recording as fast as it is read; the simulator by the
		 * test clock when HTTOP_CLOCK=virtual asks for it; else real
		 * time, like top -b. */
		mode = src->recorded ? PACE_FREE : app_test_clock(src) ? PACE_VIRTUAL : PACE_WALL;
		break;
	case APP_PACE_SCREEN:
		/* A recording at its own pace unless -d says otherwise. */
		mode = src->recorded ? PACE_RECORDED : PACE_WALL;
		break;
	case APP_PACE_CHECK:
		mode = src->virtual_clock ? PACE_VIRTUAL : PACE_WALL;
		break;
	case APP_PACE_WALL:
		break;
	}
	pacer_init(p, mode, delay, a->src, how == APP_PACE_SCREEN && a->o->have_delay);
	/* --align: batch mode's and a command's readings on the wall
	 * clock's grid (a node of many, or the user's wish) */
	if (a->o->align && how != APP_PACE_SCREEN && how != APP_PACE_CHECK)
		pacer_set_align(p, clock_wall() - clock_mono() - src->cut_lag);
	/* The test clock on the screen: real deadlines, the simulator's
	 * figures exact. */
	if (how == APP_PACE_SCREEN)
		p->fixed_step = app_test_clock(src);
}
