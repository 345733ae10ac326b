/* context.h: the run context the modes of this machine share (context.c,
 * open.c). app.c picks a mode from its table; the context opens what the
 * run reads, the mode builds the run (run/run.h) with its outputs, and its
 * loop waits on the event loop (sys/evloop.h) for the deadline the pacer
 * (run/pacer.h) gives; the context ends it. Not for use outside src/app/;
 * the rest of httop sees only app.h. */
#ifndef HTTOP_APP_CONTEXT_H
#define HTTOP_APP_CONTEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "app/app.h"
#include "sys/command.h"
#include "machine/capid.h"
#include "machine/dielayout.h"
#include "machine/machine.h"
#include "cli/options.h"
#include "plan/plan.h"
#include "run/pacer.h"
#include "run/run.h"
#include "source/source.h"
#include "util/errmsg.h"
#include "util/phases.h"

struct job_watch;
struct job_tasks;
struct perf_cgroup;
struct perf_sys;
struct msr_io;
struct msr_state;
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
	struct job_tasks *tasks;   /* the job's tasks for --source sched (NULL: none) */
	struct command cmd;        /* httop -- COMMAND (pid 0: none) */
	struct recorder *rec;      /* --record */
	struct textfile *tf;       /* --textfile */
	FILE *out;                 /* -o FILE; NULL: standard output (a command's
				    * summary: standard error) */
	struct msr_io *pre_msr;    /* msr devices opened while privileged */
	struct msr_state *state;   /* the saved-state file, opened while privileged,
				    * until the source takes it (NULL: none) */
	struct capid_info capid;   /* CAPID6 read while privileged (this machine) */
	bool have_capid;
	struct errmsg e;
	struct errmsg bare_why;    /* httop -- COMMAND with no source (src NULL): why */
	/* httop --check with a live source other than the scheduler's: the
	 * scheduler's record of the same cases, read beside it; a watched job
	 * under a counter source: the record that tells its tasks apart
	 * (NULL: none; beside_why says why when one was wanted). Opened
	 * while httop may still hold privilege, as the main source is. */
	struct source *beside;
	struct plan beside_plan;
	bool beside_wanted;
	struct errmsg beside_why;
	/* A watched job with a cgroup under the perf source: its own
	 * instructions, cycles and reference cycles from perf's cgroup
	 * events (NULL: none; jobcg_why says why when a job is watched). */
	struct perf_cgroup *jobcg;
	struct perf_sys *jobcg_sys;
	struct errmsg jobcg_why;
	char *auto_said;           /* --source auto's note on the sources that failed,
				    * printed once the run's options are known good
				    * (NULL: none) */
	char *auto_why;            /* every failed step's reason, for the run
				    * (the Topology view; NULL: none) */
};

/* context.c */
/* app_open_all()'s "--restore is done", not an exit status. */
#define EXIT_RESTORED (-2)
/* app_open_all()'s "all was done and said" (an ended job's record
 * printed): exit 0, no mode runs. */
#define EXIT_DONE (-3)
/* Everything before the mode, in its order; EXIT_OK, EXIT_RESTORED, or
 * the exit status with the reason in a->e. */
int app_open_all(struct app *a);
/* Put the registers back and free everything; a failed restore turns a
 * success into a failure. Returns the exit status. */
int app_end(struct app *a, int status);
void app_report(const struct errmsg *e);
/* -o FILE closed: a close that fails is said (unless `said`: its write
 * failed and was said already) and turns a success into EXIT_FAIL.
 * Returns the status. */
int app_close_output(FILE **fp, const char *name, bool said, int status);
/* The live view without -b when standard output is a terminal; else
 * batch, as a pipe or a file expects (this machine's modes and the nodes'). */
bool app_wants_screen(const struct options *o);
/* The run's settings from the options. */
void app_run_config(const struct app *a, struct run_config *cfg);
/* HTTOP_CLOCK=virtual on a simulator: its time advances by exactly -d a
 * refresh (httop(1), ENVIRONMENT). */
bool app_test_clock(const struct source *src);
/* Adds the outputs every mode has (the recorder, the textfile). */
void app_add_common_outputs(struct app *a, struct run *r);
/* How a mode paces its refreshes. */
enum app_pace {
	APP_PACE_BATCH,   /* a recording as fast as it is read, the test clock's
			   * steps, else the wall clock */
	APP_PACE_SCREEN,  /* a recording at its recorded pace (or -d's when
			   * given), else the wall clock */
	APP_PACE_WALL,    /* the wall clock: a command's run */
	APP_PACE_CHECK,   /* the simulator's own clock, else the wall clock */
};
/* The one place where the refresh interval meets the pacer: `delay` is
 * -d (the live view: -d or the settings file's; --check: its seconds). */
void app_pacer_init(const struct app *a, struct pacer *p, enum app_pace how, double delay);

/* open.c: before any register is touched. Each returns 0, or -1
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
/* --check: open the scheduler's record beside the source where the check
 * loads this machine's CPUs with its own threads and the source is live
 * and not the scheduler's; a failure is kept in beside_why, never an
 * error. */
void app_open_beside(struct app *a);
/* A watched job (--pid, --cgroup, --job, a command) under a live counter
 * source (msr, msr-safe, perf): the scheduler's record beside it, which
 * tells the job's tasks apart (a->beside; a failure is kept in beside_why
 * and makes the job's figures absent, never an error). */
void app_open_job_record(struct app *a);
/* The run's job figures: from the record beside (app_open_job_record),
 * or absent with the reason its failure gives; said once on standard
 * error. Nothing without a job or under a source that has its own. */
void app_job_record(struct app *a, struct run *r);
/* A recorded job's label, as a live one reads: "3 (alice, my run)",
 * "pid 4242 (make)", the cgroup; escaped (it comes from a file). */
void app_recorded_job_label(const struct job_ident *j, char *buf, size_t len);
int app_build_layout(struct app *a);
int app_drop_privilege(struct app *a);
int app_open_record(struct app *a);
/* -o FILE, opened as --record's file is (out/outfile.h), after privilege
 * is given up; "-" is standard output (a->out stays NULL). */
int app_open_output(struct app *a);
/* The saved-state file (httop(1), RECOVERY), while privileged: opened
 * for the MSR sources, never an error (httop runs without one). */
void app_open_state(struct app *a);
/* The source takes the state file when it writes real MSRs; then what a
 * killed httop left is put back (or, with --restore, only that, and the
 * exit status is returned: EXIT_OK or EXIT_FAIL; -1 means go on). */
int app_recover(struct app *a);
/* Where the batch output and --check's report go: -o FILE or stdout. */
FILE *app_out(const struct app *a);

/* The modes (app.c's table); each returns the exit status, errors said. */
int app_run_batch(struct app *a);
int app_run_tui(struct app *a);
/* httop -- COMMAND (mode_command.c): returns the command's status. */
int app_run_command(struct app *a);
/* The same where no counter source opens (mode_command_bare.c): the command
 * runs, its time and CPU time are said, and `why` nothing else is. */
int app_run_command_bare(struct app *a, const struct errmsg *why);
/* mode_check.c: httop --check, and the simulator playing its cases. */
int app_run_check(struct app *a);
/* mode_acct.c: --acct-record (an exit status), and --job ID of a job that
 * has ended (EXIT_DONE once printed, or EXIT_FAIL with the reason in e,
 * which holds what scontrol said on entry). */
int app_acct_record(const struct options *o);
int app_job_ended(const struct options *o, struct errmsg *e);

#endif
