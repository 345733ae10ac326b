/* settings.h: the settings file, $XDG_CONFIG_HOME/httop/httoprc (else
 * ~/.config/httop/httoprc): plain "key = value" lines and '#' comments.
 * Implemented in ui/config.c; not named config.h, which would hide
 * autoconf's config.h from every file in src/ui.
 * Also the threads view's column names, which the file's `sort` key uses. */
#ifndef HTTOP_UI_SETTINGS_H
#define HTTOP_UI_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "run/pacer.h"
#include "ui/ui.h"
#include "util/errmsg.h"

/* The same limits as -d/--delay: the pacer's (run/pacer.h). */
/* Limits of the averaging window's length, seconds. */
#define UI_AVG_MIN 1.0
#define UI_AVG_MAX 86400.0

/* Columns of the threads view, in screen order; ui_settings.sort_column
 * holds one of them (TCOL_CPU = -1 is the CPU number, the default). The
 * figures after the bar are the table's (metrics/figures.c, a row's
 * col): TCOL_UTIL + i is the i-th, up to ui_thread_ncolumns(). */
enum thread_col {
	TCOL_NONE = -2,
	TCOL_CPU = -1,
	TCOL_PACKAGE = 0,
	TCOL_CORE,
	TCOL_THREAD,
	TCOL_UTIL,      /* the first figure's column */
};

/* The number of columns after TCOL_CPU: the place ones and the figures'. */
int ui_thread_ncolumns(void);
/* "cpu", "package", "core", "thread", then the figures' names (a row's
 * col.key, else its name: "util", ..., "steal", "job"); NULL outside the
 * range. */
const char *ui_thread_column_name(int col);
/* The column of a name, or TCOL_NONE if there is none. */
int ui_thread_column_parse(const char *name);

/* The file's path into buf: $XDG_CONFIG_HOME/httop/httoprc when that is
 * an absolute path, else $HOME/.config/httop/httoprc. -1 with a message
 * when neither is set. */
int ui_config_path(char *buf, size_t len, struct errmsg *e);

/* Read the file into `s`. Returns 0 when read, 1 when there is no file
 * (s untouched), -1 with "PATH:LINE: what is wrong" (or the read error)
 * and `s` untouched when any line is wrong: unknown key, bad value,
 * missing '='. Keys a file leaves out keep the values `s` had. */
int ui_config_load(const char *path, struct ui_settings *s, struct errmsg *e);

/* Write `s` to the file atomically: a temporary file in the same directory
 * (created 0700 if missing), opened with O_NOFOLLOW|O_EXCL, fsync'd, then
 * renamed over the name. An existing file that does not load (malformed,
 * unreadable) is never overwritten: the module does not remember earlier
 * failures, it checks the file as it is now, so a file the user fixed in
 * the meantime is replaced and one still broken is refused with the line
 * that is wrong. A symlink at the name is refused when running privileged
 * (euid 0 or setuid) and replaced by a file (not followed) otherwise. */
int ui_config_save(const char *path, const struct ui_settings *s, struct errmsg *e);

#endif
