/* config.c: the settings file. Loading is all or nothing: the settings
 * are changed only when every line is right, so a typo never leaves half a
 * configuration in force. Saving writes a new file next to the old one and
 * renames it into place, and refuses to replace a file that does not load:
 * the user's hand-edited file is worth more than the settings of the day. */
#include "config.h"
#include "ui/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics/figures.h"
#include "util/i18n.h"
#include "util/infile.h"
#include "util/numparse.h"

#define LINE_MAX_LEN 1024
/* A settings file is a dozen short lines. */
#define CONFIG_MAX_SIZE (64 * 1024)

static const char *const view_names[] = { "cores", "threads", "topology", "die" };
static const char *const colour_names[] = { "auto", "on", "off" };
static const char *const order_names[] = { "ascending", "descending" };
static const char *const window_names[] = { "last", "window", "run" };
static const char *const die_fig_names[DF_COUNT] = { "both", "util", "ghz", "cpi" };

/* Index TCOL_CPU + 1 = 0: the CPU number; the figures' from the table. */
static const char *const place_names[TCOL_UTIL + 1] = { "cpu", "package", "core", "thread" };

int
ui_thread_ncolumns(void)
{
	size_t n;

	(void)figures_columns(&n);
	return TCOL_UTIL + (int)n;
}

void
ui_settings_default(struct ui_settings *s)
{
	memset(s, 0, sizeof *s);
	s->view = VIEW_CORES;
	s->delay = 1.0;
	s->colour = COLOUR_AUTO;
	s->sort_column = TCOL_CPU;
	s->sort_descending = false;
	s->window = AVG_LAST;
	s->avg_seconds = 10.0;
	s->die_figure = DF_BOTH;
}

const char *
ui_thread_column_name(int col)
{
	size_t n;
	const struct figure *const *fl = figures_columns(&n);

	if (col < TCOL_CPU || col >= ui_thread_ncolumns())
		return NULL;
	if (col < TCOL_UTIL)
		return place_names[col + 1];
	return fl[col - TCOL_UTIL]->col.key != NULL ? fl[col - TCOL_UTIL]->col.key :
	    fl[col - TCOL_UTIL]->name;
}

int
ui_thread_column_parse(const char *name)
{
	int i;

	for (i = TCOL_CPU; i < ui_thread_ncolumns(); i++)
		if (strcmp(name, ui_thread_column_name(i)) == 0)
			return i;
	return TCOL_NONE;
}

/* The columns' names, ", " between them, into buf. */
static const char *
column_list(char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = TCOL_CPU; i < ui_thread_ncolumns() && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i > TCOL_CPU ? ", " : "",
		    ui_thread_column_name(i));
	return buf;
}

/* Running as root, or given privilege by the exec (set-user-ID,
 * set-group-ID, file capabilities): do not follow links someone else may
 * own. Not the IDs of the moment: the settings are read and written after
 * a set-ID httop has taken its real user's IDs. AT_SECURE, as
 * privilege_gained() (sys/privilege.c, the program's own) reads it. */
static bool
privileged(void)
{
	return geteuid() == 0 || getauxval(AT_SECURE) != 0;
}

int
ui_config_path(char *buf, size_t len, struct errmsg *e)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	/* The XDG spec says a relative XDG_CONFIG_HOME is to be ignored. */
	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, len, "%s/httop/httoprc", xdg);
	else if (home != NULL && home[0] != '\0')
		n = snprintf(buf, len, "%s/.config/httop/httoprc", home);
	else
		return errmsg_set(e, _("no place for the settings file: neither XDG_CONFIG_HOME "
		    "nor HOME is set; set one of them"));
	if (n < 0 || (size_t)n >= len)
		return errmsg_set(e, _("the settings file's path is too long; set XDG_CONFIG_HOME "
		    "to a shorter directory"));
	return 0;
}

static char *
trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' ||
	    end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static int
pick(const char *v, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0)
			return i;
	return -1;
}

/* A number of seconds in [lo, hi]; a trailing 's' is allowed ("10s"). */
static bool
seconds(const char *v, double lo, double hi, double *out)
{
	size_t len = strlen(v);

	if (len > 0 && v[len - 1] == 's')
		len--;
	return num_double_n(v, len, 0, lo, hi, out) == NUM_OK;
}

/* One "key = value" line into s; -1 with what is wrong (no location). */
static int
parse_line(char *line, struct ui_settings *s, struct errmsg *e)
{
	char *eq = strchr(line, '='), *key, *val, names[512];
	int i;

	if (eq == NULL)
		return errmsg_set(e, _("no '=' in \"%s\"; write key = value"), line);
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (strcmp(key, "view") == 0) {
		if ((i = pick(val, view_names, 4)) < 0)
			return errmsg_set(e, _("view: '%s' is not cores, threads, topology or die"), val);
		s->view = (enum view_id)i;
	} else if (strcmp(key, "delay") == 0) {
		if (!seconds(val, PACER_DELAY_MIN, PACER_DELAY_MAX, &s->delay))
			return errmsg_set(e, _("delay: '%s' is not a number of seconds from %.2f to "
			    "%.0f"), val, PACER_DELAY_MIN, PACER_DELAY_MAX);
	} else if (strcmp(key, "colour") == 0 || strcmp(key, "color") == 0) {
		if ((i = pick(val, colour_names, 3)) < 0)
			return errmsg_set(e, _("%s: '%s' is not auto, on or off"), key, val);
		s->colour = (enum colour_mode)i;
	} else if (strcmp(key, "sort") == 0) {
		if ((i = ui_thread_column_parse(val)) < TCOL_CPU)
			return errmsg_set(e, _("sort: '%s' is not a column of the threads view (%s)"),
			    val, column_list(names, sizeof names));
		s->sort_column = i;
	} else if (strcmp(key, "sort_order") == 0) {
		if ((i = pick(val, order_names, 2)) < 0)
			return errmsg_set(e, _("sort_order: '%s' is not ascending or descending"), val);
		s->sort_descending = i == 1;
	} else if (strcmp(key, "window") == 0) {
		if ((i = pick(val, window_names, 3)) >= 0) {
			s->window = (enum avg_window)i;
		} else if (seconds(val, UI_AVG_MIN, UI_AVG_MAX, &s->avg_seconds)) {
			s->window = AVG_WINDOW;    /* "window = 30s" */
		} else {
			return errmsg_set(e, _("window: '%s' is not last, window, run or a number of "
			    "seconds such as 10s"), val);
		}
	} else if (strcmp(key, "avg_seconds") == 0) {
		if (!seconds(val, UI_AVG_MIN, UI_AVG_MAX, &s->avg_seconds))
			return errmsg_set(e, _("avg_seconds: '%s' is not a number of seconds from "
			    "%.0f to %.0f"), val, UI_AVG_MIN, UI_AVG_MAX);
	} else if (strcmp(key, "die_figure") == 0) {
		if ((i = pick(val, die_fig_names, DF_COUNT)) < 0)
			return errmsg_set(e, _("die_figure: '%s' is not both, util, ghz or cpi"), val);
		s->die_figure = (enum die_fig)i;
	} else {
		return errmsg_set(e, _("unknown key '%s'; the keys are view, delay, colour, sort, "
		    "sort_order, window, avg_seconds and die_figure"), key);
	}
	return 0;
}

int
ui_config_load(const char *path, struct ui_settings *s, struct errmsg *e)
{
	struct ui_settings tmp = *s;
	char buf[LINE_MAX_LEN];
	struct infile f;
	int fd, r;

	/* O_NONBLOCK: a named pipe at the settings' path must not hang the
	 * start; infile refuses it, and anything but a regular file. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
	    (privileged() ? O_NOFOLLOW : 0));
	if (fd < 0 && errno == ENOENT)
		return 1;
	if (fd < 0 && errno == ELOOP)
		return errmsg_set(e, _("%s is a symbolic link, which httop does not follow when "
		    "running as root, set-ID or with file capabilities; replace it with the "
		    "file itself"), path);
	if (fd < 0)
		return errmsg_set(e, _("cannot read %s: %s; check its permissions"), path,
		    strerror(errno));
	if (infile_fdopen(&f, fd, path, _("settings file"), CONFIG_MAX_SIZE, LINE_MAX_LEN - 2,
	    e) != 0)
		return -1;
	while ((r = infile_getline(&f, buf, sizeof buf, e)) == 1) {
		char *line = trim(buf);

		if (*line == '\0' || *line == '#')
			continue;
		if (parse_line(line, &tmp, e) != 0) {
			infile_close(&f);
			return errmsg_prefix(e, "%s:%lu", path, f.line);
		}
	}
	infile_close(&f);
	if (r < 0)
		return -1;
	*s = tmp;
	return 0;
}

/* Create the directory of `path` and any missing parents, mode 0700. */
static int
make_dirs(const char *path, struct errmsg *e)
{
	char dir[4096];
	char *p;
	size_t n;

	n = strlen(path);
	if (n >= sizeof dir)
		return errmsg_set(e, _("%s: path too long"), path);
	memcpy(dir, path, n + 1);
	if ((p = strrchr(dir, '/')) == NULL || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		{
			char c = *p;

			*p = '\0';
			if (mkdir(dir, 0700) != 0 && errno != EEXIST)
				return errmsg_set(e, _("cannot create the directory %s: %s; create it "
				    "or set XDG_CONFIG_HOME elsewhere"), dir, strerror(errno));
			*p = c;
			if (c == '\0')
				break;
		}
	}
	return 0;
}

/* A number that reads back as the same double, short when it can be. */
static void
fmt_num(char *buf, size_t len, double d)
{
	snprintf(buf, len, "%g", d);
	if (strtod(buf, NULL) != d)
		snprintf(buf, len, "%.17g", d);
}

static int
write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int
write_settings(int fd, const struct ui_settings *s)
{
	char text[1024], delay[40], avg[40];
	int n;
	const char *col = ui_thread_column_name(s->sort_column);

	fmt_num(delay, sizeof delay, s->delay);
	fmt_num(avg, sizeof avg, s->avg_seconds);
	n = snprintf(text, sizeof text,
	    "# httop settings, written by httop (key w); see httop(1), FILES.\n"
	    "view = %s\n"
	    "delay = %s\n"
	    "colour = %s\n"
	    "sort = %s\n"
	    "sort_order = %s\n"
	    "window = %s\n"
	    "avg_seconds = %s\n"
	    "die_figure = %s\n",
	    view_names[s->view < VIEW_COUNT ? s->view : VIEW_CORES], delay,
	    colour_names[s->colour <= COLOUR_OFF ? s->colour : COLOUR_AUTO],
	    col != NULL ? col : "cpu", order_names[s->sort_descending ? 1 : 0],
	    window_names[s->window < AVG_COUNT ? s->window : AVG_LAST], avg,
	    die_fig_names[s->die_figure < DF_COUNT ? s->die_figure : DF_BOTH]);
	if (n < 0 || (size_t)n >= sizeof text)
		return -1;
	return write_all(fd, text, (size_t)n);
}

int
ui_config_save(const char *path, const struct ui_settings *s, struct errmsg *e)
{
	struct ui_settings scratch;
	struct stat st;
	char tmp[4200];
	int fd = -1, i, saved;
	char *slash;

	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode) && privileged())
			return errmsg_set(e, _("not writing %s: it is a symbolic link and httop runs "
			    "as root, set-ID or with file capabilities; replace it with the file "
			    "itself"), path);
		if (!S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode))
			return errmsg_set(e, _("not writing %s: it is not a regular file; remove "
			    "it"), path);
		ui_settings_default(&scratch);
		if (ui_config_load(path, &scratch, e) < 0)
			return errmsg_prefix(e, _("not overwriting a settings file that does not "
			    "load (fix or remove it, then save again)"));
	} else if (errno != ENOENT) {
		return errmsg_set(e, _("cannot check %s: %s"), path, strerror(errno));
	}
	if (make_dirs(path, e) != 0)
		return -1;

	/* O_EXCL|O_NOFOLLOW: a name planted where the temporary file goes is
	 * never followed nor reused. */
	for (i = 0; i < 100 && fd < 0; i++) {
		snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%d", path, (long)getpid(), i);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0)
		return errmsg_set(e, _("cannot create a file next to %s: %s; check the "
		    "directory's permissions"), path, strerror(errno));
	if (write_settings(fd, s) != 0 || fsync(fd) != 0) {
		saved = errno;
		close(fd);
		unlink(tmp);
		return errmsg_set(e, _("cannot write %s: %s"), tmp, strerror(saved));
	}
	if (close(fd) != 0 || rename(tmp, path) != 0) {
		saved = errno;
		unlink(tmp);
		return errmsg_set(e, _("cannot replace %s: %s"), path, strerror(saved));
	}
	/* Make the rename itself durable. */
	snprintf(tmp, sizeof tmp, "%s", path);
	if ((slash = strrchr(tmp, '/')) != NULL) {
		*(slash == tmp ? slash + 1 : slash) = '\0';
		if ((fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
			fsync(fd);
			close(fd);
		}
	}
	return 0;
}
