/* report.h: everything httop --check found, and the two ways it is
 * written: text for a person (translated) and one JSON object for a
 * site's records (never translated; members in httop(1), CHECK). */
#ifndef HTTOP_CHECK_REPORT_H
#define HTTOP_CHECK_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "check/beside.h"
#include "check/cases.h"
#include "check/measure.h"
#include "check/verdict.h"
#include "plan/plan.h"

/* The JSON object's format; a reader checks it first. */
#define CHECK_JSON_VERSION 1

/* One case on one core. */
struct check_result {
	const struct check_case *cs;
	unsigned package, core;    /* the package's and the core's ids, as every
				    * view and output names the core */
	unsigned ncpus;            /* the threads used: 1 or 2 */
	unsigned cpus[2];
	struct check_timing timing;
	/* What httop's load did (CL_THREADS), per thread. */
	bool loaded[2];
	double late_s[2], over_s[2];
	bool os_known[2];
	double os_busy[2];
	bool steal_known[2];
	double os_steal[2];        /* the share a hypervisor took (steal) */
	/* What httop's load threads ran (known: the rows of the split and
	 * the utilisations expect it, basis "loads"). */
	struct check_ran ran;
	struct check_disturbance dist;
	char note[256];            /* the conflict policy's line for the interval ("" none) */
	enum check_verdict verdict;  /* the worst of its rows */
	unsigned nrows;
	struct check_row rows[CHECK_MAX_ROWS];
	/* The scheduler's record of the same case (not judged). */
	struct check_beside beside;
};

enum check_outcome {
	CO_PASS = 0,     /* every family trusted, a bound, or not checkable here */
	CO_FAIL,         /* some figure beyond its tolerance */
	CO_DISTURBED,    /* other work or another program spoiled some case */
	CO_ERROR,        /* the check could not run (message in error) */
	CO_INTERRUPTED,  /* an ending signal stopped it */
};

struct check_report {
	/* The node (all untranslated: they go to files). */
	const char *version, *host, *cpu, *group, *source, *split, *plan;
	enum plan_basis basis;  /* what the source counts (the plan's basis) */
	enum check_load_mode mode;
	double period;             /* s */
	double seconds;            /* each case's interval, s */
	bool loop_known;           /* the loop's instructions are known (x86-64) */
	/* The reference-clock scale (CF_SCALE). */
	bool scale_used;           /* the split rests on it */
	bool scale_measured;
	unsigned scale_table, scale;
	bool has_scale_row;
	struct check_row scale_row;
	/* The scheduler's record beside the check's source: asked for
	 * (a live source other than the scheduler, httop's own load), read
	 * (source "sched"), or why not (beside_why). */
	bool beside_wanted;
	const char *beside_source;
	char beside_why[512];
	/* The CPUs' busy share before the check (CL_THREADS). */
	unsigned nbg;
	unsigned *bg_cpu;
	double *bg_busy;
	unsigned nres, capres;
	struct check_result *res;
	/* Why a family could not be checked here (N_() text), or NULL. */
	const char *unchecked[CF_NFAMILIES];
	bool interrupted;
	char error[512];           /* CO_ERROR: why, as said on standard error */
	/* From check_report_finish. */
	enum check_trust trust[CF_NFAMILIES];
	enum check_outcome outcome;
};

void check_report_init(struct check_report *r);
void check_report_free(struct check_report *r);
/* Room for one more result (zeroed), or NULL when none is left. */
struct check_result *check_report_add(struct check_report *r);
/* The families' trust and the outcome, from the rows. */
void check_report_finish(struct check_report *r);
/* 0 when the outcome is CO_PASS, else 1. */
int check_report_status(const struct check_report *r);
const char *check_outcome_key(enum check_outcome o);

/* A case's verdict from its rows (check_report_finish does it for all). */
void check_result_finish(struct check_result *x);

/* -1 if a write failed (errno set). The whole text report, or in parts
 * as the check goes: the head once the source is prepared, each case as
 * it is judged (check_result_finish first), the summary and verdict at
 * the end (after check_report_finish). */
int check_report_text(FILE *fp, const struct check_report *r);
int check_report_text_head(FILE *fp, const struct check_report *r);
int check_report_text_case(FILE *fp, const struct check_report *r, const struct check_result *x);
int check_report_text_end(FILE *fp, const struct check_report *r);
int check_report_json(FILE *fp, const struct check_report *r);

#endif
