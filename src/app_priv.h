/* app_priv.h: what the parts of the program core share. app.c opens what a
 * run reads (with app_open.c), hands it to one of the two front ends
 * (app_batch.c, app_tui.c) and closes it. A front end builds the run
 * (run/run.h) with its outputs, and its loop waits on the event loop
 * (evloop.h) for the deadline the pacer (run/pacer.h) gives. Not for use
 * outside these files; the rest of httop sees only app.h. */
#ifndef HTTOP_APP_PRIV_H
#define HTTOP_APP_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include "app.h"
#include "command.h"
#include "machine/capid.h"
#include "machine/dielayout.h"
#include "machine/machine.h"
#include "options.h"
#include "plan/plan.h"
#include "run/run.h"
#include "source/source.h"
#include "util/errmsg.h"
#include "util/phases.h"

struct job_watch;
struct msr_io;
struct recorder;
struct textfile;

/* What is open for a run, before the run itself. */
struct app {
	const struct options *o;
	struct phases ph;          /* HTTOP_PHASE_TIMES=1: CPU time per phase */
	struct machine m;
	bool have_machine;
	struct plan plan;
	struct source *src;
	struct die_layout layout;  /* where each core sits: built once */
	bool have_layout;
	struct job_watch *job;     /* --pid, --cgroup, --job, the command's processes */
	struct command cmd;        /* httop -- COMMAND (pid 0: none) */
	struct recorder *rec;      /* --record */
	struct textfile *tf;       /* --textfile */
	FILE *out;                 /* -o FILE; NULL: standard output (a command's
				    * summary: standard error) */
	struct msr_io *pre_msr;    /* msr devices opened while privileged */
	struct capid_info capid;   /* CAPID6 read while privileged (this machine) */
	bool have_capid;
	struct errmsg e;
	struct errmsg bare_why;    /* httop -- COMMAND with no source (src NULL): why */
};

/* app.c */
void app_report(const struct errmsg *e);
/* The run's settings from the options. */
void app_run_config(const struct app *a, struct run_config *cfg);
/* HTTOP_CLOCK=virtual on a simulator: its time advances by exactly -d a
 * refresh (httop(1), ENVIRONMENT). */
bool app_test_clock(const struct source *src);
/* Adds the outputs both front ends have (the recorder, the textfile). */
void app_add_common_outputs(struct app *a, struct run *r);

/* app_open.c: before any register is touched. Each returns 0, or -1
 * with the reason in a->e. */
int app_open_devices(struct app *a);
int app_open_source(struct app *a);
/* --topology FILE with a source that reads this machine's kernel rather
 * than its PMU (sched, procstat): FILE declares which of this machine's
 * CPUs share a core, and its CPUs must be this machine's online CPUs
 * (machine_declare_here); the identity becomes this machine's. Call after
 * the machine is loaded, before such a source is opened; does nothing
 * without --topology or when done already. 0, or -1 with the reason in *e. */
int app_declare_topology(struct app *a, struct errmsg *e);
int app_select_cpus(struct app *a);
int app_build_layout(struct app *a);
int app_drop_privilege(struct app *a);
int app_open_record(struct app *a);
/* -o FILE, opened as --record's file is (out/outfile.h), after privilege
 * is given up; "-" is standard output (a->out stays NULL). */
int app_open_output(struct app *a);
/* Where the batch output and --check's report go: -o FILE or stdout. */
FILE *app_out(const struct app *a);

/* The front ends; each returns the exit status, errors said. */
int app_run_batch(struct app *a);
int app_run_tui(struct app *a);
/* httop -- COMMAND (app_cmd.c): returns the command's status. */
int app_run_command(struct app *a);
/* The same where no counter source opens (app_cmdbare.c): the command
 * runs, its time and CPU time are said, and `why` nothing else is. */
int app_run_command_bare(struct app *a, const struct errmsg *why);
/* app_check.c: httop --check, and the simulator playing its cases. */
int app_run_check(struct app *a);
struct source *app_check_sim_open(struct app *a);

#endif
