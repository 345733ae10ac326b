/* outputs.c: the run's outputs over the batch writers, the textfile, the
 * recorder and the averaging history (outputs.h). */
#include "config.h"
#include "outputs.h"

#include <errno.h>
#include <stdio.h>

#include "run/run.h"
#include "util/i18n.h"
#include "util/textwrap.h"

static int
batch_interval(void *self, const struct run_step *st, struct errmsg *e)
{
	struct batch *b = self;

	if (st->events[0] != '\0')
		text_msgf(_("httop: %s, %.3f s: %s\n"), st->source != NULL ? st->source : "?",
		    st->cur->time, st->events);
	/* The policy's exit is said once, when the run ends. */
	if (st->note[0] != '\0' && !st->stop)
		text_msgf("httop: %s\n", st->note);
	if (batch_write(b, st->iv, e) == 0)
		return 0;
	/* The reader went away (httop -b | head): a normal end. */
	return batch_errno(b) == EPIPE ? 1 : -1;
}

static int
batch_event(void *self, const struct run_event *ev, struct errmsg *e)
{
	(void)self;
	(void)e;
	if (ev->kind == RUN_EV_NOTE && ev->text != NULL) {
		if (ev->s != NULL)
			text_msgf(_("httop: replay, %.3f s: %s\n"), ev->s->time, ev->text);
		else
			text_msgf("httop: %s\n", ev->text);
	}
	return 0;
}

const struct output_ops output_batch = {
	.name = "batch",
	.phase = PHASE_DRAW,       /* the batch format's "drawing" */
	.interval = batch_interval,
	.event = batch_event,
};

static int
textfile_interval(void *self, const struct run_step *st, struct errmsg *e)
{
	return textfile_write(self, st->iv, e);
}

const struct output_ops output_textfile = {
	.name = "textfile",
	.phase = PHASE_DRAW,
	.interval = textfile_interval,
};

static int
record_start_out(void *self, const struct run *r, struct errmsg *e)
{
	char note[sizeof r->src->detail + 64];

	/* The plan as programmed: after calibration, with its scale. */
	/* The detail only where the source has one (bpf has none). */
	snprintf(note, sizeof note, "recorded from the %s source%s%s", r->src->name,
	    r->src->detail[0] != '\0' ? " " : "", r->src->detail);
	return record_start(self, r->m, r->src->plan, r->src->has_truth, note, e);
}

static int
record_event(void *self, const struct run_event *ev, struct errmsg *e)
{
	if (ev->kind != RUN_EV_FIRST)
		return 0;
	return record_first(self, ev->s, ev->text, e);
}

/* Recorded before it is shown: a full disk stops the run here. */
static int
record_interval_out(void *self, const struct run_step *st, struct errmsg *e)
{
	return record_interval(self, st->cur, st->iv, st->note, e);
}

const struct output_ops output_record = {
	.name = "record",
	.phase = PHASE_COMPUTE,
	.start = record_start_out,
	.interval = record_interval_out,
	.event = record_event,
};

static int
history_interval(void *self, const struct run_step *st, struct errmsg *e)
{
	(void)e;
	history_add(self, st->prev, st->cur, st->iv);
	return 0;
}

static int
history_event(void *self, const struct run_event *ev, struct errmsg *e)
{
	(void)e;
	/* After a jump the window holds nothing from before it. */
	if (ev->kind == RUN_EV_FIRST && ev->jumped)
		history_reset(self);
	return 0;
}

const struct output_ops output_history = {
	.name = "history",
	.phase = PHASE_COMPUTE,
	.interval = history_interval,
	.event = history_event,
};
