/* main.c: httop's entry point: locale, options, signals, then the loop. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "cli/options.h"
#include "sys/privilege.h"
#include "sys/signals.h"
#include "trace/trace.h"
#include "util/errmsg.h"
#include "util/i18n.h"
#include "util/textwrap.h"

int
main(int argc, char **argv)
{
	struct options o;
	struct errmsg e;
	int status;
	/* The user's environment as it came, for the command httop runs and
	 * for scontrol (both run as the user, without httop's privilege):
	 * the scrub below replaces the array, not this one. */
	char **user_env = environ;
#if ENABLE_NLS
	const char *locdir;
#endif

	/* Before anything reads the environment (the C library's locale,
	 * hwloc, ncurses): a set-ID or file-capability httop keeps only an
	 * allowlist (httop(1), SECURITY). */
	privilege_scrub_env();
	/* From here an ending signal ends httop at once, until the first
	 * register is written (signals.h). */
	if (signals_init() != 0) {
		perror("httop: installing signal handlers");
		return EXIT_FAIL;
	}
	trace_wake_fd(signals_fd());
	setlocale(LC_ALL, "");
	/* Messages follow the locale; numbers must not: csv and json need a
	 * decimal point whatever the user's language. */
	setlocale(LC_NUMERIC, "C");
#if ENABLE_NLS
	/* HTTOP_LOCALEDIR lets the tests (and a build tree) use catalogs that
	 * are not installed; secure_getenv ignores it in a set-ID or
	 * file-capability httop, where a foreign catalog's format strings
	 * would be an attack. */
	locdir = secure_getenv("HTTOP_LOCALEDIR");
	bindtextdomain(PACKAGE, locdir != NULL && *locdir != '\0' ? locdir : LOCALEDIR);
	textdomain(PACKAGE);
#endif
	switch (options_parse(argc, argv, &o, &e)) {
	case OPTS_EXIT:
		/* --help and --version wrote to standard output: a full disk is
		 * an error, not a success (GNU's rule); a reader that went away
		 * (EPIPE) ends httop with 0, as in every mode (EXIT STATUS). */
		errno = 0;
		if ((fflush(stdout) != 0 || ferror(stdout)) && errno != EPIPE) {
			fprintf(stderr, _("httop: writing to standard output: %s\n"),
			    strerror(errno != 0 ? errno : EIO));
			return EXIT_FAIL;
		}
		return EXIT_OK;
	case OPTS_ERROR:
		text_msgf("httop: %s\n", e.text);
		return EXIT_USAGE;
	case OPTS_RUN:
		break;
	}
	o.user_env = privilege_gained() ? user_env : NULL;
	status = app_run(&o);
	options_free(&o);
	return status;
}
