/* app_batch.c: the front end with -b, or when standard output is not a
 * terminal: the batch format (and --record, --textfile) every interval
 * until -n, the end of the data or a signal. It waits only in evloop_wait,
 * for the pacer's deadline or an ending signal. */
#include "config.h"
#include "app_priv.h"

#include <unistd.h>

#include "evloop.h"
#include "out/batch.h"
#include "outputs.h"
#include "run/pacer.h"
#include "signals.h"
#include "util/clock.h"

/* How the batch loop is paced: a replay as fast as it reads; the
 * simulator by the test clock when HTTOP_CLOCK=virtual asks for it;
 * everything else in real time, like top -b. */
static enum pace_mode
batch_pace(const struct source *src)
{
	if (src->recorded)
		return PACE_FREE;
	if (app_test_clock(src))
		return PACE_VIRTUAL;
	return PACE_WALL;
}

/* The loop proper; returns the exit status. */
static int
loop(struct app *a, struct run *r)
{
	struct pacer p;
	struct evwait w = { -1, -1, 0.0 };
	long long n;
	int rc;

	rc = run_first(r, NULL, false, 0.0);
	if (rc != RUN_OK)
		return rc == RUN_END ? EXIT_OK : (app_report(&r->e), EXIT_FAIL);
	pacer_init(&p, batch_pace(a->src), a->o->delay, a->src, false);
	pacer_start(&p, clock_mono(), a->o->delay, r->prev->time);
	for (n = 0; a->o->iterations < 0 || n < a->o->iterations;) {
		w.deadline = pacer_deadline(&p);
		if (evloop_wait(&w) & WAKE_SIGNAL)
			break;
		if (!pacer_due(&p, clock_mono()))
			continue;
		rc = run_step(r, pacer_take(&p, clock_mono()));
		if (rc == RUN_END || rc == RUN_DONE)
			return EXIT_OK;
		if (rc < 0) {
			/* The interval is written first: it shows what happened. */
			app_report(&r->e);
			return EXIT_FAIL;
		}
		pacer_stepped(&p, clock_mono(), r->prev->time);
		n++;
	}
	return signals_exit_status(signals_caught());
}

int
app_run_batch(struct app *a)
{
	struct run_config cfg;
	struct run r;
	struct batch *b;
	int status, rc;

	app_run_config(a, &cfg);
	run_init(&r, a->src, &a->plan, &cfg);
	app_add_common_outputs(a, &r);
	b = batch_new(a->o->format, stdout, a->src->m, &a->plan, a->src->name);
	batch_set_layout(b, &a->layout);
	/* A header line would repeat once per node in merged output (pdsh). */
	batch_set_header(b, isatty(STDOUT_FILENO));
	run_add_output(&r, &output_batch, b);
	/* From here an ending signal ends the loop, which restores. */
	signals_defer();
	rc = run_prepare(&r);
	if (rc == RUN_OK)
		status = loop(a, &r);
	else if (rc == RUN_INTERRUPTED)
		status = signals_exit_status(signals_caught());
	else
		status = (app_report(&r.e), EXIT_FAIL);
	status = run_finish(&r, status, app_report);
	batch_free(b);
	return status;
}
