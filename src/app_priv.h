/* app_priv.h: what the parts of the program core share: struct app, the
 * state of one run, and the steps more than one part calls. app.c runs
 * the steps in order and ends the run, app_open.c opens and selects what
 * a run reads, app_batch.c and app_tui.c are the two refresh loops. Not
 * for use outside these files; the rest of httop sees only app.h. */
#ifndef HTTOP_APP_PRIV_H
#define HTTOP_APP_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"
#include "machine/dielayout.h"
#include "machine/machine.h"
#include "metrics/metrics.h"
#include "options.h"
#include "phases.h"
#include "plan/plan.h"
#include "sample/sample.h"
#include "source/source.h"
#include "ui/ui.h"
#include "util/cpulist.h"
#include "util/errmsg.h"

/* Only pointed to here; the parts that use them include their headers. */
struct batch;
struct conflict_state;
struct history;
struct job_watch;
struct recorder;
struct textfile;
struct tui;

struct app {
	const struct options *o;
	struct phases ph;          /* HTTOP_PHASE_TIMES=1: CPU time per phase */
	struct machine m;
	bool have_machine;
	struct plan plan;
	struct source *src;
	struct sample s[2];
	bool have_samples;
	struct interval iv;
	bool have_iv;
	struct metrics_ctx mc;
	struct batch *out;
	struct errmsg e;

	/* The screen (without -b, on a terminal). */
	bool tui_mode;
	struct tui *tui;
	struct history *hist;
	struct interval wiv;        /* figures over the averaging window */
	bool have_wiv;
	struct job_watch *job;
	struct cpulist jobcpus;
	struct job_view jv;
	char replay_pos[160];       /* the replay's position, for the header */
	struct ui_settings set;     /* the screen's settings (httoprc, keys) */
	char set_note[512];         /* a settings file that did not load */
	struct die_layout layout;   /* where each core sits: built once */
	bool have_layout;
	struct conflict_state *conflict;  /* --on-conflict */
	struct textfile *tf;        /* --textfile */
	struct recorder *rec;       /* --record */
};

/* app.c: steps both refresh loops take. */
void app_report(const struct errmsg *e);
const char *app_replay_events(struct app *a);
double app_now(void);
int app_check_first_read(struct app *a, const struct sample *s);
int app_conflict_check(struct app *a, char *note, size_t len);

/* app_open.c: before any register is touched. Each returns 0, or -1
 * with the reason in a->e. */
int app_open_source(struct app *a);
int app_select_cpus(struct app *a);
int app_build_layout(struct app *a);
int app_drop_privilege(struct app *a);
int app_open_record(struct app *a);

/* app_batch.c: the loop with -b or without a terminal. Returns the exit
 * status. */
int app_run_batch(struct app *a);

/* app_tui.c: the live view. app_open_screen returns 0, or -1 with the
 * reason in a->e; the others return the exit status. */
int app_open_screen(struct app *a);
int app_close_screen(struct app *a, const struct errmsg *e, int status);
int app_run_tui(struct app *a);

#endif
