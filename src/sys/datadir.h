/* datadir.h: where httop's data files (the demo machine, scenarios) are.
 * Looked up in $HTTOP_DATA_DIR, the installed data directory, then, when
 * the program runs from a build tree, that tree's data/ (so src/httop
 * --demo works before `make install`); neither the variable nor the build
 * tree counts in a set-ID or file-capability httop. With $HTTOP_DEBUG_DATA
 * set, each lookup says on stderr which of them answered (the install
 * tests rely on it). */
#ifndef HTTOP_DATADIR_H
#define HTTOP_DATADIR_H

#include <stddef.h>

#include "util/errmsg.h"

/* Full path of data file `name` in buf. 0, or -1 naming every directory
 * tried and the fix. */
int datadir_find(const char *name, char *buf, size_t len, struct errmsg *e);

#endif
