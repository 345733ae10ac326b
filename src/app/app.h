/* app.h: the refresh loop: machine -> plan -> source -> calibration ->
 * program -> read, compute, write, until -n, end of data or a signal. */
#ifndef HTTOP_APP_H
#define HTTOP_APP_H

#include "cli/options.h"

/* Exit status of httop for the OK, runtime-error and bad-usage cases;
 * ending signals give signals_exit_status(). */
#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2

/* Run httop as the options say; errors are printed here, once. Returns
 * the exit status. */
int app_run(const struct options *o);

#endif
