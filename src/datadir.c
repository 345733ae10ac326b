/* datadir.c: find a data file in the first directory that has it. The
 * environment is ignored in a set-ID or file-capability httop (secure_getenv):
 * a user must not be able to feed it die maps or a demo machine. */
#include "config.h"
#include "datadir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/i18n.h"

#ifndef HTTOP_DATADIR
#define HTTOP_DATADIR "/usr/local/share/httop"
#endif

/* One place searched, and what to call it when telling the user. */
struct place {
	const char *dir;
	const char *what;
};

/* With HTTOP_DEBUG_DATA set, say which directory answered: an installed
 * httop that quietly reads the source tree it was built from looks right
 * and is not. */
static void
tell(const char *name, const char *path, const char *what)
{
	const char *v = secure_getenv("HTTOP_DEBUG_DATA");

	if (v != NULL && *v != '\0')
		fprintf(stderr, _("httop: data file %s: %s (%s)\n"), name, path, what);
}

int
datadir_find(const char *name, char *buf, size_t len, struct errmsg *e)
{
	struct place dirs[3];
	char tried[384] = "";
	size_t i, n = 0;
	const char *env = secure_getenv("HTTOP_DATA_DIR");

	if (env != NULL && *env != '\0') {
		dirs[n].dir = env;
		dirs[n++].what = _("HTTOP_DATA_DIR");
	}
	dirs[n].dir = HTTOP_DATADIR;
	dirs[n++].what = _("installed data directory");
#ifdef HTTOP_SRCDATADIR
	dirs[n].dir = HTTOP_SRCDATADIR;
	dirs[n++].what = _("source tree");
#endif
	for (i = 0; i < n; i++) {
		int w = snprintf(buf, len, "%s/%s", dirs[i].dir, name);

		if (w > 0 && (size_t)w < len && access(buf, R_OK) == 0) {
			tell(name, buf, dirs[i].what);
			return 0;
		}
		if (strlen(tried) + strlen(dirs[i].dir) + 3 < sizeof tried) {
			if (i > 0)
				strcat(tried, ", ");
			strcat(tried, dirs[i].dir);
		}
	}
	tell(name, _("not found"), tried);
	return errmsg_set(e, _("data file %s not found in %s; install httop (make install) "
	    "or set HTTOP_DATA_DIR to the directory that holds it"), name, tried);
}
