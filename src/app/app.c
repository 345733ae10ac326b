/* app.c: which mode a run of httop is, from one table: the first whose
 * test the options pass runs, on its own context (context.c). */
#include "config.h"
#include "app/context.h"
#include "app/nodes.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "sys/signals.h"

/* The modes of this machine, in the order they are tried: the first whose
 * test the opened context passes runs. */
struct mode {
	const char *name;
	bool (*wants)(const struct app *a);
	int (*run)(struct app *a);
};

static bool
wants_check(const struct app *a)
{
	return a->o->check;
}

/* A command where no source opened: it runs all the same. */
static bool
wants_bare_command(const struct app *a)
{
	return a->o->command != NULL && a->src == NULL;
}

static int
run_bare_command(struct app *a)
{
	return app_run_command_bare(a, &a->bare_why);
}

static bool
wants_command(const struct app *a)
{
	return a->o->command != NULL;
}

static bool
wants_screen(const struct app *a)
{
	return app_wants_screen(a->o);
}

static bool
wants_batch(const struct app *a)
{
	(void)a;
	return true;
}

static const struct mode modes[] = {
	{ "check", wants_check, app_run_check },
	{ "bare command", wants_bare_command, run_bare_command },
	{ "command", wants_command, app_run_command },
	{ "live", wants_screen, app_run_tui },
	{ "batch", wants_batch, app_run_batch },
};

/* Many nodes: nothing of this machine is opened; their context (nodes.c)
 * and the live view or batch mode. */
static int
run_nodes(const struct options *o)
{
	struct nodes_app na;
	int status;

	if (app_nodes_open(&na, o) != 0) {
		app_report(&na.e);
		return app_nodes_end(&na, na.usage ? EXIT_USAGE : EXIT_FAIL);
	}
	/* From here an ending signal ends the loop, which ends the nodes. */
	signals_defer();
	status = app_wants_screen(o) ? app_nodes_tui(&na) : app_nodes_batch(&na);
	return app_nodes_end(&na, status);
}

int
app_run(const struct options *o)
{
	struct app a;
	size_t i;
	int status;

	if (o->nodes != NULL || o->all_nodes)
		return run_nodes(o);
	if (o->acct_record != NULL)
		return app_acct_record(o);
	memset(&a, 0, sizeof a);
	a.o = o;
	phases_init(&a.ph);
	if ((status = app_open_all(&a)) == EXIT_RESTORED || status == EXIT_DONE)
		return app_end(&a, EXIT_OK);
	if (status != EXIT_OK) {
		app_report(&a.e);
		return app_end(&a, status);
	}
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (modes[i].wants(&a))
			break;
	return app_end(&a, modes[i].run(&a));
}
