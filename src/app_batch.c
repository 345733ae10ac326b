/* app_batch.c: the refresh loop with -b, or when standard output is not a
 * terminal: read, compute, write the batch format (and --record,
 * --textfile) every interval until -n, the end of a trace or a signal. */
#include "config.h"
#include "app_priv.h"

#include <errno.h>
#include <stdio.h>

#include "out/batch.h"
#include "out/textfile.h"
#include "record.h"
#include "signals.h"
#include "util/i18n.h"

/* Let one interval pass. A virtual clock in batch mode just advances; a
 * real wait aims at fixed deadlines so the intervals do not drift, and
 * skips ahead when a refresh took longer than the delay. Returns the
 * ending signal, or 0. */
static int
wait_interval(struct app *a, double *deadline)
{
	double delay = a->o->delay, left;
	int sig;

	if (a->src->virtual_clock && a->o->batch) {
		source_advance(a->src, delay);
		return signals_wait(0);
	}
	left = *deadline - app_now();
	if (left < 0) {
		*deadline -= left;
		left = 0;
	}
	sig = signals_wait(left);
	*deadline += delay;
	if (sig == 0)
		source_advance(a->src, delay);
	return sig;
}

/* The loop proper; returns the exit status. */
int
app_run_batch(struct app *a)
{
	struct sample *prev = &a->s[0], *cur = &a->s[1], *tmp;
	char note[sizeof a->e.text];
	long long n;
	double deadline;
	int rc, sig = 0, stop;

	rc = source_read(a->src, prev, &a->e);
	if (rc != 0)
		goto read_end;
	if (app_check_first_read(a, prev) != 0) {
		app_report(&a->e);
		return EXIT_FAIL;
	}
	if (*app_replay_events(a) != '\0')
		fprintf(stderr, _("httop: replay, %.3f s: %s\n"), prev->time, app_replay_events(a));
	if (a->rec != NULL && record_first(a->rec, prev, NULL, &a->e) != 0) {
		app_report(&a->e);
		return EXIT_FAIL;
	}
	deadline = app_now() + a->o->delay;
	for (n = 0; a->o->iterations < 0 || n < a->o->iterations; n++) {
		if ((sig = signals_caught()) != 0 || (sig = wait_interval(a, &deadline)) != 0)
			break;
		phases_mark(&a->ph);
		rc = source_read(a->src, cur, &a->e);
		phases_add(&a->ph, PHASE_READ);
		if (rc != 0)
			goto read_end;
		if (*app_replay_events(a) != '\0')
			fprintf(stderr, _("httop: replay, %.3f s: %s\n"), cur->time,
			    app_replay_events(a));
		phases_mark(&a->ph);
		metrics_compute(&a->mc, prev, cur, &a->iv);
		phases_add(&a->ph, PHASE_COMPUTE);
		stop = app_conflict_check(a, note, sizeof note);
		if (note[0] != '\0')
			fprintf(stderr, "httop: %s\n", note);
		/* Recorded before it is shown: a full disk stops the run here. */
		if (a->rec != NULL && record_interval(a->rec, cur, &a->iv, stop ? a->e.text : note,
		    &a->e) != 0) {
			app_report(&a->e);
			return EXIT_FAIL;
		}
		phases_mark(&a->ph);
		rc = batch_write(a->out, &a->iv, &a->e);
		phases_add(&a->ph, PHASE_DRAW);   /* the batch format's "drawing" */
		if (rc != 0) {
			/* The reader went away (httop -b | head): a normal end. */
			if (batch_errno(a->out) == EPIPE)
				return stop ? EXIT_FAIL : EXIT_OK;
			app_report(&a->e);
			return EXIT_FAIL;
		}
		if (a->tf != NULL && textfile_write(a->tf, &a->iv, &a->e) != 0) {
			app_report(&a->e);
			return EXIT_FAIL;
		}
		if (stop) {
			/* The interval is written first: it shows what happened. */
			app_report(&a->e);
			return EXIT_FAIL;
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	return signals_exit_status(sig);
read_end:
	if (rc > 0 && a->e.text[0] != '\0')
		fprintf(stderr, "httop: %s\n", a->e.text);   /* a trace cut off: where */
	if (rc > 0)
		return EXIT_OK;     /* end of the trace */
	app_report(&a->e);
	return EXIT_FAIL;
}
