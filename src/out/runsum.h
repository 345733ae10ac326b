/* runsum.h: the summary of a command's run (httop -- COMMAND) or of a
 * watched job that ended (-b with --job, --pid, --cgroup), for a person, as perf stat and likwid-perfctr print theirs: what ran, how it
 * ended, then the four shares, utilisation, both threads' share of busy
 * core time, threads per busy core, GHz and CPI per package and for the
 * node, over the whole run. The figures come computed (the averaging
 * history over the whole run, narrowed to the command's cores); this only
 * prints them, with the reason of every absent one. */
#ifndef HTTOP_RUNSUM_H
#define HTTOP_RUNSUM_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/machine.h"
#include "metrics/metrics.h"

struct run_summary {
	char *const *argv;          /* the command and its arguments, or NULL: */
	const char *job;            /* a watched job's label ("8 (alice, run, 0:01:02)") */
	long pid;
	const char *ended;          /* "exit status 0", "killed by signal 2 (Interrupt)" */
	double seconds;             /* the command's wall-clock time */
	double covered;             /* what the figures cover, s */
	const char *source;         /* the source's name */
	const char *meaning;        /* what its figures mean (plan_meaning), or NULL */
	const char *cpus;           /* the CPUs its processes could run on: "0-3" */
	bool have_cpu;              /* user and system are known (wait4) */
	double user, system;        /* its CPU time and its waited-for children's, s */
};

/* Write it to fp (translated: it is for a person), in one write: 0, or
 * the errno of the write or flush that failed. */
int out_run_summary(FILE *fp, const struct machine *m, const struct interval *iv,
    const struct run_summary *s);

/* A command run without any counter source (httop -- COMMAND where none
 * opens): what could be measured of it, and why the rest could not. */
struct run_bare {
	char *const *argv;
	long pid;
	const char *ended;          /* translated, for the text */
	int status;                 /* as a shell gives it */
	int signal;                 /* the signal that ended it, 0: none */
	double seconds;             /* wall-clock time from its start to its end */
	bool have_cpu;
	double user, system;        /* CPU time (wait4), s */
	const char *host;
	double unix_time;           /* its end, s since the epoch (0: unknown) */
	const char *why;            /* why no source works (the sources' errors) */
};

/* For a person (translated). Both: 0, or the errno of the write or
 * flush that failed. */
int out_run_bare(FILE *fp, const struct run_bare *r);
/* One JSON object on one line (untranslated; httop(1), A command from
 * start to end). */
int out_run_bare_json(FILE *fp, const struct run_bare *r);

#endif
