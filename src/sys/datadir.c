/* datadir.c: find a data file in the first directory that has it. The
 * environment and the build tree are ignored in a set-ID or file-capability
 * httop (AT_SECURE, secure_getenv): a user must not be able to feed it die
 * maps or a demo machine. No build directory is compiled in: an installed
 * binary names only its installed data directory. */
#include "config.h"
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/textwrap.h"

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
		text_msgf(_("httop: data file %s: %s (%s)\n"), name, path, what);
}

/* When httop runs from a build tree, BUILD/src/httop with BUILD/config.status
 * beside it, the directory BUILD/data: the source tree's data/ itself, or in
 * a separate build directory the link to it that make creates (Makefile.am,
 * all-local). Found through /proc/self/exe at run time, so that
 * src/httop --demo works before make install. 0, or -1 when not in a build
 * tree or privileged. */
static int
build_tree_data(char *dir, size_t len)
{
	char exe[PATH_MAX], mark[PATH_MAX + 16];
	char *slash;
	ssize_t n;

	if (getauxval(AT_SECURE) != 0)
		return -1;
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');                 /* BUILD/src/httop */
	if (slash == NULL)
		return -1;
	*slash = '\0';
	slash = strrchr(exe, '/');                 /* BUILD/src */
	if (slash == NULL || strcmp(slash, "/src") != 0)
		return -1;
	*slash = '\0';
	snprintf(mark, sizeof mark, "%s/config.status", exe);
	if (access(mark, F_OK) != 0)
		return -1;
	n = snprintf(dir, len, "%s/data", exe);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int
datadir_find(const char *name, char *buf, size_t len, struct errmsg *e)
{
	struct place dirs[3];
	char tried[384] = "", build[PATH_MAX];
	size_t i, n = 0;
	const char *env = secure_getenv("HTTOP_DATA_DIR");

	if (env != NULL && *env != '\0') {
		dirs[n].dir = env;
		dirs[n++].what = _("HTTOP_DATA_DIR");
	}
	dirs[n].dir = HTTOP_DATADIR;
	dirs[n++].what = _("installed data directory");
	if (build_tree_data(build, sizeof build) == 0) {
		dirs[n].dir = build;
		dirs[n++].what = _("source tree");
	}
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
