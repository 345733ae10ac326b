/* optcheck.h: the options' combinations, checked after the last option
 * (and the command after "--") is read: what goes only with what, what
 * excludes what, and the defaults that depend on others. Private to
 * src/cli/. */
#ifndef HTTOP_OPTCHECK_H
#define HTTOP_OPTCHECK_H

#include "cli/options.h"
#include "util/errmsg.h"

/* 0, or -1 with the message naming the options and the fix. */
int options_check(struct options *o, struct errmsg *e);

#endif
