/* datadir.c: find a data file in the first directory that has it. */
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

int
datadir_find(const char *name, char *buf, size_t len, struct errmsg *e)
{
	const char *dirs[3];
	char tried[384] = "";
	size_t i, n = 0;
	const char *env = getenv("HTTOP_DATA_DIR");

	if (env != NULL && *env != '\0')
		dirs[n++] = env;
	dirs[n++] = HTTOP_DATADIR;
#ifdef HTTOP_SRCDATADIR
	dirs[n++] = HTTOP_SRCDATADIR;
#endif
	for (i = 0; i < n; i++) {
		int w = snprintf(buf, len, "%s/%s", dirs[i], name);

		if (w > 0 && (size_t)w < len && access(buf, R_OK) == 0)
			return 0;
		if (strlen(tried) + strlen(dirs[i]) + 3 < sizeof tried) {
			if (i > 0)
				strcat(tried, ", ");
			strcat(tried, dirs[i]);
		}
	}
	return errmsg_set(e, _("data file %s not found in %s; install httop (make install) "
	    "or set HTTOP_DATA_DIR to the directory that holds it"), name, tried);
}
