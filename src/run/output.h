/* output.h: what every consumer of a run looks like to the run: the batch
 * writers, the node exporter's textfile, the recorder, the averaging
 * history and the live view. The run hands each interval and each event to
 * every output in the order they were added; adding an output touches no
 * loop. */
#ifndef HTTOP_OUTPUT_H
#define HTTOP_OUTPUT_H

#include <stdbool.h>

#include "metrics/metrics.h"
#include "sample/sample.h"
#include "util/errmsg.h"
#include "util/phases.h"

struct run;

/* One refresh: the interval between two samples and what came with it. */
struct run_step {
	const struct sample *prev, *cur;
	const struct interval *iv;
	const char *note;          /* the conflict policy's line ("" none) */
	const char *events;        /* what the data recorded before cur ("" none) */
	const char *source;        /* the source's name, for saying them */
	bool stop;                 /* the run ends after this interval
	                            * (--on-conflict exit); note says why */
};

enum run_event_kind {
	/* A sample that starts a run of intervals (s): the first of the
	 * run, or a fresh one after a pause or a jump; why is NULL for the
	 * first. With `jumped` the data moved: what came before is not
	 * before it any more (averages start afresh). */
	RUN_EV_FIRST,
	/* A line for the user (text): the reference-scale note, what a
	 * replay's data recorded before its first sample. */
	RUN_EV_NOTE,
	/* The data has ended: a replay read its last sample. */
	RUN_EV_END,
};

struct run_event {
	enum run_event_kind kind;
	const struct sample *s;
	const char *text;
	bool jumped;
};

/* Every operation may be NULL. start: the plan is programmed and the
 * run's machine, plan and source are final. interval: 0, 1 to end the
 * run normally (the reader of standard output went away), -1 with a
 * message to end it with a failure. close: flush and free, -1 with a
 * message when data may be lost (the run's status becomes a failure). */
struct output_ops {
	const char *name;
	enum phase phase;          /* where its time goes (HTTOP_PHASE_TIMES) */
	int (*start)(void *self, const struct run *r, struct errmsg *e);
	int (*interval)(void *self, const struct run_step *st, struct errmsg *e);
	int (*event)(void *self, const struct run_event *ev, struct errmsg *e);
	int (*close)(void *self, struct errmsg *e);
};

struct output {
	const struct output_ops *ops;
	void *self;
};

#endif
