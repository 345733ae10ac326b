/* test_config.c: the settings file (ui/config.c): defaults, the path
 * rules, a save/load round trip, every error class with its line number,
 * the refusal to overwrite a file that does not load, symlinks. Each test
 * works in its own mkdtemp directory. */
#include "unit/testutil.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/settings.h"

struct dir {
	char base[64];
	char path[256];     /* base/cfg/httop/httoprc */
};

static void
dir_init(struct dir *d)
{
	snprintf(d->base, sizeof d->base, "/tmp/httop-test-config.XXXXXX");
	assert_non_null(mkdtemp(d->base));
	snprintf(d->path, sizeof d->path, "%s/cfg/httop/httoprc", d->base);
}

static void
dir_free(struct dir *d)
{
	char cmd[160];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->base);
	assert_int_equal(system(cmd), 0);
}

static void
write_file(const char *path, const char *text)
{
	char dir[256], *p;
	FILE *fp;

	snprintf(dir, sizeof dir, "%s", path);
	p = strrchr(dir, '/');
	*p = '\0';
	p = strrchr(dir, '/');
	*p = '\0';
	mkdir(dir, 0700);
	*p = '/';
	mkdir(dir, 0700);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static size_t
read_file(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return n;
}

static void
assert_settings_equal(const struct ui_settings *a, const struct ui_settings *b)
{
	assert_int_equal(a->view, b->view);
	assert_true(a->delay == b->delay);
	assert_int_equal(a->colour, b->colour);
	assert_int_equal(a->sort_column, b->sort_column);
	assert_int_equal(a->sort_descending, b->sort_descending);
	assert_int_equal(a->window, b->window);
	assert_true(a->avg_seconds == b->avg_seconds);
	assert_int_equal(a->die_figure, b->die_figure);
}

static void
test_defaults(void **state)
{
	struct ui_settings s;
	int c;

	(void)state;
	memset(&s, 0x5a, sizeof s);
	ui_settings_default(&s);
	assert_int_equal(s.view, VIEW_CORES);
	assert_true(s.delay == 1.0);
	assert_int_equal(s.colour, COLOUR_AUTO);
	assert_int_equal(s.sort_column, -1);
	assert_false(s.sort_descending);
	assert_int_equal(s.window, AVG_LAST);
	assert_true(s.avg_seconds == 10.0);
	assert_int_equal(s.die_figure, DF_BOTH);
	/* every column name reads back as its column */
	for (c = TCOL_CPU; c < ui_thread_ncolumns(); c++)
		assert_int_equal(ui_thread_column_parse(ui_thread_column_name(c)), c);
	assert_string_equal(ui_thread_column_name(TCOL_CPU), "cpu");
	/* the figures' columns come from the table (metrics/figures.c),
	 * in its thread order: util first, net_ghz fifth; the job's
	 * share is named job in the file */
	assert_int_equal(ui_thread_column_parse("util"), TCOL_UTIL);
	assert_int_equal(ui_thread_column_parse("net_ghz"), TCOL_UTIL + 4);
	assert_string_equal(ui_thread_column_name(TCOL_UTIL + 4), "net_ghz");
	assert_true(ui_thread_column_parse("job") > TCOL_UTIL);
	assert_int_equal(ui_thread_column_parse("job_util"), TCOL_NONE);
	assert_null(ui_thread_column_name(ui_thread_ncolumns()));
	assert_int_equal(ui_thread_column_parse("GHz"), -2);
}

static void
test_path(void **state)
{
	char buf[256];
	struct errmsg e;

	(void)state;
	setenv("HOME", "/home/ada", 1);
	unsetenv("XDG_CONFIG_HOME");
	assert_int_equal(ui_config_path(buf, sizeof buf, &e), 0);
	assert_string_equal(buf, "/home/ada/.config/httop/httoprc");
	setenv("XDG_CONFIG_HOME", "/srv/conf", 1);
	assert_int_equal(ui_config_path(buf, sizeof buf, &e), 0);
	assert_string_equal(buf, "/srv/conf/httop/httoprc");
	/* a relative XDG_CONFIG_HOME is ignored, as the spec says */
	setenv("XDG_CONFIG_HOME", "conf", 1);
	assert_int_equal(ui_config_path(buf, sizeof buf, &e), 0);
	assert_string_equal(buf, "/home/ada/.config/httop/httoprc");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	assert_int_equal(ui_config_path(buf, sizeof buf, &e), -1);
	assert_non_null(strstr(e.text, "HOME"));
	/* too small a buffer */
	setenv("HOME", "/home/ada", 1);
	assert_int_equal(ui_config_path(buf, 10, &e), -1);
}

static void
test_round_trip(void **state)
{
	struct dir d;
	struct ui_settings s, r;
	struct errmsg e;
	struct stat st;
	char text[1024], sub[300];

	(void)state;
	dir_init(&d);
	ui_settings_default(&r);
	/* no file yet: 1, settings untouched */
	assert_int_equal(ui_config_load(d.path, &r, &e), 1);
	ui_settings_default(&s);
	s.view = VIEW_TOPOLOGY;
	s.delay = 0.1;           /* not exact in binary: must read back the same */
	s.colour = COLOUR_OFF;
	s.sort_column = ui_thread_column_parse("ghz");
	s.sort_descending = true;
	s.window = AVG_WINDOW;
	s.avg_seconds = 30.0;
	s.die_figure = DF_GHZ;
	assert_int_equal(ui_config_save(d.path, &s, &e), 0);
	/* the missing directories were made, 0700 */
	snprintf(sub, sizeof sub, "%s/cfg/httop", d.base);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	read_file(d.path, text, sizeof text);
	assert_non_null(strstr(text, "\nview = topology\n"));
	assert_non_null(strstr(text, "\ndelay = 0.1\n"));
	assert_non_null(strstr(text, "\nsort = ghz\n"));
	assert_non_null(strstr(text, "\nsort_order = descending\n"));
	assert_non_null(strstr(text, "\nwindow = window\n"));
	assert_non_null(strstr(text, "\navg_seconds = 30\n"));
	assert_non_null(strstr(text, "\ndie_figure = ghz\n"));
	assert_int_equal(ui_config_load(d.path, &r, &e), 0);
	assert_settings_equal(&r, &s);
	/* the die grid view is saved by name and read back */
	s.view = VIEW_DIE;
	assert_int_equal(ui_config_save(d.path, &s, &e), 0);
	read_file(d.path, text, sizeof text);
	assert_non_null(strstr(text, "\nview = die\n"));
	assert_int_equal(ui_config_load(d.path, &r, &e), 0);
	assert_int_equal(r.view, VIEW_DIE);
	s.view = VIEW_TOPOLOGY;
	/* saving again over a good file replaces it, leaving no temporary */
	s.sort_column = TCOL_CPU;
	s.window = AVG_RUN;
	assert_int_equal(ui_config_save(d.path, &s, &e), 0);
	assert_int_equal(ui_config_load(d.path, &r, &e), 0);
	assert_settings_equal(&r, &s);
	snprintf(text, sizeof text, "ls -A '%s/cfg/httop' | wc -l | grep -qx 1", d.base);
	assert_int_equal(system(text), 0);
	dir_free(&d);
}

/* Comments, blanks, spaces, a partial file, "window = 30s", "color". */
static void
test_partial(void **state)
{
	struct dir d;
	struct ui_settings s, want;
	struct errmsg e;

	(void)state;
	dir_init(&d);
	write_file(d.path, "# mine\n\n   view=threads  \n\tcolor = on\nwindow = 30s\r\n");
	ui_settings_default(&s);
	assert_int_equal(ui_config_load(d.path, &s, &e), 0);
	ui_settings_default(&want);
	want.view = VIEW_THREADS;
	want.colour = COLOUR_ON;
	want.window = AVG_WINDOW;
	want.avg_seconds = 30.0;
	assert_settings_equal(&s, &want);
	dir_free(&d);
}

/* Every kind of error names the file and the line, and changes nothing
 * (the good lines before the bad one included). */
static void
test_errors(void **state)
{
	static const struct {
		const char *text;
		const char *want;   /* in the message after "PATH:LINE: " */
		unsigned line;
	} cases[] = {
		{ "view = threads\ndelay 2\n", "no '='", 2 },
		{ "# c\nview = threads\n\nspeed = 3\n", "unknown key 'speed'", 4 },
		{ "view = cpus\n", "view: 'cpus'", 1 },
		{ "delay = 0.01\n", "delay: '0.01'", 1 },
		{ "delay = 1e999\n", "delay: '1e999'", 1 },
		{ "delay = fast\n", "delay: 'fast'", 1 },
		{ "colour = 256\n", "colour: '256'", 1 },
		{ "sort = speed\n", "sort: 'speed'", 1 },
		{ "sort_order = up\n", "sort_order: 'up'", 1 },
		{ "view = cores\nwindow = forever\n", "window: 'forever'", 2 },
		{ "avg_seconds = 0\n", "avg_seconds: '0'", 1 },
		{ "avg_seconds = 10 s\n", "avg_seconds: '10 s'", 1 },
		{ "= cores\n", "unknown key ''", 1 },
		{ "die_figure = ipc\n", "die_figure: 'ipc'", 1 },
	};
	struct dir d;
	struct ui_settings s, orig;
	struct errmsg e;
	char want[512];
	size_t i;

	(void)state;
	dir_init(&d);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		write_file(d.path, cases[i].text);
		ui_settings_default(&s);
		orig = s;
		assert_int_equal(ui_config_load(d.path, &s, &e), -1);
		snprintf(want, sizeof want, "%s:%u: %s", d.path, cases[i].line, cases[i].want);
		if (strncmp(e.text, want, strlen(want)) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s...\"", i, e.text, want);
		assert_settings_equal(&s, &orig);
	}
	dir_free(&d);
}

/* A file that does not load is never replaced; once fixed, it is. */
/* What the settings path may hold besides a settings file: a named pipe
 * (refused at once, not waited on), a file of NUL bytes or a huge one
 * (refused, not read line by empty line), a line that does not end. */
static void
test_limits(void **state)
{
	struct dir d;
	struct ui_settings s;
	struct errmsg e;
	char big[2000];
	FILE *fp;
	size_t i;

	(void)state;
	dir_init(&d);
	write_file(d.path, "");
	unlink(d.path);
	assert_int_equal(mkfifo(d.path, 0600), 0);
	ui_settings_default(&s);
	assert_int_equal(ui_config_load(d.path, &s, &e), -1);
	assert_non_null(strstr(e.text, "named pipe"));
	unlink(d.path);

	fp = fopen(d.path, "w");
	assert_non_null(fp);
	for (i = 0; i < 70000; i++)
		fputc('\0', fp);
	fclose(fp);
	assert_int_equal(ui_config_load(d.path, &s, &e), -1);
	assert_non_null(strstr(e.text, "64 KiB"));   /* the limit, named */
	assert_int_equal(truncate(d.path, 100), 0);
	assert_int_equal(ui_config_load(d.path, &s, &e), -1);
	assert_non_null(strstr(e.text, ":1: a NUL byte"));

	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	write_file(d.path, big);
	assert_int_equal(ui_config_load(d.path, &s, &e), -1);
	assert_non_null(strstr(e.text, ":1: line longer than 1022 bytes"));
	dir_free(&d);
}

static void
test_no_overwrite(void **state)
{
	static const char bad[] = "view = threads\nsort = fastest\n";
	struct dir d;
	struct ui_settings s;
	struct errmsg e;
	char text[512];

	(void)state;
	dir_init(&d);
	write_file(d.path, bad);
	ui_settings_default(&s);
	assert_int_equal(ui_config_load(d.path, &s, &e), -1);
	assert_int_equal(ui_config_save(d.path, &s, &e), -1);
	assert_non_null(strstr(e.text, "not overwriting"));
	assert_non_null(strstr(e.text, ":2: sort: 'fastest'"));
	read_file(d.path, text, sizeof text);
	assert_string_equal(text, bad);
	write_file(d.path, "view = threads\nsort = ipc\n");
	assert_int_equal(ui_config_save(d.path, &s, &e), 0);
	read_file(d.path, text, sizeof text);
	assert_non_null(strstr(text, "view = cores"));
	dir_free(&d);
}

/* A symlink at the name: as root it is neither read nor replaced; as a
 * user, rename replaces the link itself and its target is untouched. */
static void
test_symlink(void **state)
{
	struct dir d;
	struct ui_settings s;
	struct errmsg e;
	char target[300], text[512];
	struct stat st;

	(void)state;
	dir_init(&d);
	snprintf(target, sizeof target, "%s/target", d.base);
	write_file(d.path, "view = threads\n");
	assert_int_equal(unlink(d.path), 0);
	{
		FILE *fp = fopen(target, "w");

		assert_non_null(fp);
		fputs("view = topology\n", fp);
		fclose(fp);
	}
	assert_int_equal(symlink(target, d.path), 0);
	ui_settings_default(&s);
	if (geteuid() == 0) {
		assert_int_equal(ui_config_load(d.path, &s, &e), -1);
		assert_non_null(strstr(e.text, "symbolic link"));
		assert_int_equal(ui_config_save(d.path, &s, &e), -1);
		assert_non_null(strstr(e.text, "symbolic link"));
		assert_int_equal(lstat(d.path, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
	} else {
		assert_int_equal(ui_config_load(d.path, &s, &e), 0);
		assert_int_equal(s.view, VIEW_TOPOLOGY);
		s.view = VIEW_CORES;
		assert_int_equal(ui_config_save(d.path, &s, &e), 0);
		assert_int_equal(lstat(d.path, &st), 0);
		assert_true(S_ISREG(st.st_mode));
	}
	read_file(target, text, sizeof text);
	assert_string_equal(text, "view = topology\n");
	dir_free(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_no_overwrite),
		cmocka_unit_test(test_symlink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
