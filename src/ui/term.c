/* term.c: the terminal. curses is started on the controlling terminal
 * with the modes saved first, so that a fatal signal can put them back
 * without curses. Frames are drawn into curses' virtual screen and
 * refresh() sends only the cells that changed. */
#include "config.h"
#include "ui/term.h"

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>
#include <term.h>

#include "ui/widgets.h"
#include "util/i18n.h"

/* State for screen_emergency_restore: filled in before curses starts and
 * only read by the signal handler, which has no argument to find it by. */
static struct termios saved_tio;
static int saved_fd = -1;
static char restore_seq[256];
static size_t restore_len;
static volatile sig_atomic_t screen_is_open;

/* LINES and COLUMNS (in that order) as the user set them (NULL: not
 * set), kept while the screen is open; whether httop set them. */
static const char *const size_var[2] = { "LINES", "COLUMNS" };
static char *user_size[2];
static bool size_set[2];

/* A size in LINES or COLUMNS as curses reads it (strtol, base 0, the
 * whole value, above zero, an int); 0 when curses would not take it. */
static long
size_value(const char *v)
{
	char *end;
	long n;

	if (v == NULL)
		return 0;
	errno = 0;
	n = strtol(v, &end, 0);
	if (end == v || *end != '\0' || errno != 0 || n <= 0 || n > INT_MAX)
		return 0;
	return n;
}

/* The user's LINES or COLUMNS back as they were. */
static void
size_restore(int i)
{
	if (!size_set[i])
		return;
	if (user_size[i] != NULL)
		setenv(size_var[i], user_size[i], 1);
	else
		unsetenv(size_var[i]);
	size_set[i] = false;
}

void
screen_bound(struct ui_ctx *u)
{
	static const long most[2] = { SCREEN_MAX_ROWS, SCREEN_MAX_COLS };
	long size[2] = { 0, 0 };
	struct winsize ws;
	char v[24];
	int i;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) {
		size[0] = ws.ws_row;
		size[1] = ws.ws_col;
	}
	u->big_rows = u->big_cols = 0;
	for (i = 0; i < 2; i++) {
		if (size_value(user_size[i]) > 0)
			size[i] = size_value(user_size[i]);
		if (size[i] <= most[i]) {
			size_restore(i);
			continue;
		}
		snprintf(v, sizeof v, "%ld", most[i]);
		setenv(size_var[i], v, 1);
		size_set[i] = true;
	}
	if (size_set[0] || size_set[1]) {
		u->big_rows = (int)size[0];
		u->big_cols = (int)size[1];
	}
}

/* What the user had in LINES and COLUMNS: kept at open, put back and
 * forgotten at close. */
static void
size_keep(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		const char *v = getenv(size_var[i]);

		user_size[i] = v != NULL ? strdup(v) : NULL;
		size_set[i] = false;
	}
}

static void
size_forget(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		size_restore(i);
		free(user_size[i]);
		user_size[i] = NULL;
	}
}

/* A copy of a string into the restore sequence. */
static void
add_raw(const char *s)
{
	size_t len = strlen(s);

	if (restore_len + len < sizeof restore_seq) {
		memcpy(restore_seq + restore_len, s, len);
		restore_len += len;
	}
}

/* A copy of one terminfo string into the restore sequence. */
static void
add_seq(const char *cap)
{
	char *s = tigetstr((char *)cap);

	if (s != NULL && s != (char *)-1)
		add_raw(s);
}

/* Clicks (tabs, column heads) and the wheel (scrolling). */
static void
start_mouse(void)
{
	mmask_t want = BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED;

#if defined(BUTTON5_PRESSED)
	want |= BUTTON5_PRESSED;
#endif
	if (mousemask(want, NULL) != 0) {
		mouseinterval(0);
		add_raw("\033[?1000l");
	}
}

/* The terminal's own checks, before curses touches it. */
static int
check_terminal(const char *term, struct errmsg *e)
{
	if (screen_is_open)
		return errmsg_set(e, _("the screen is already open"));
	if (!isatty(STDOUT_FILENO))
		return errmsg_set(e, _("standard output is not a terminal; use -b for batch output"));
	if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
		return errmsg_set(e, _("the terminal type is %s; set TERM (e.g. TERM=xterm-256color) "
		    "or use -b for batch output"), term == NULL || *term == '\0' ? _("not set") : term);
	return 0;
}

int
screen_open(struct ui_ctx *u, const struct ui_settings *s, struct errmsg *e)
{
	const char *term = getenv("TERM");
	FILE *in = stdin;
	SCREEN *scr;
	bool colour;
	int n;

	memset(u, 0, sizeof *u);
	if (check_terminal(term, e) != 0)
		return -1;
	if (!isatty(STDIN_FILENO)) {
		u->tty_in = fopen("/dev/tty", "r");
		if (u->tty_in == NULL)
			return errmsg_set(e, _("no terminal to read keys from (/dev/tty: %s); "
			    "run httop in a terminal or use -b"), strerror(errno));
		in = u->tty_in;
	}
	if (tcgetattr(STDOUT_FILENO, &saved_tio) == 0)
		saved_fd = STDOUT_FILENO;
	size_keep();
	screen_bound(u);
	scr = newterm(NULL, stdout, in);
	if (scr == NULL) {
		size_forget();
		if (u->tty_in != NULL)
			fclose(u->tty_in);
		u->tty_in = NULL;
		return errmsg_set(e, _("terminal type '%s' is not known to curses; set TERM to one "
		    "that is (e.g. xterm-256color) or use -b"), term);
	}
	set_term(scr);
	u->scr = scr;

	/* What puts the terminal back without curses, fetched now. */
	restore_len = 0;
	add_seq("sgr0");
	restore_seq[restore_len] = '\0';

	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	leaveok(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	start_mouse();
	add_seq("rmkx");
	add_seq("cnorm");
	add_seq("rmcup");

	screen_glyphs(u, strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
	n = tigetnum((char *)"colors");
	u->colours = !has_colors() || n < 8 ? 0 : n >= 256 ? 256 : 8;
	colour = s->colour == COLOUR_ON ||
	    (s->colour == COLOUR_AUTO && getenv("NO_COLOR") == NULL);
	screen_set_colour(u, colour);
	getmaxyx(stdscr, u->rows, u->cols);
	screen_is_open = 1;
	return 0;
}

void
screen_close(struct ui_ctx *u)
{
	if (!screen_is_open || u->scr == NULL)
		return;
	screen_is_open = 0;
	endwin();
	delscreen(u->scr);
	u->scr = NULL;
	u->colours_started = false;
	widgets_forget(u);
	if (saved_fd >= 0)
		tcsetattr(saved_fd, TCSADRAIN, &saved_tio);
	if (u->tty_in != NULL)
		fclose(u->tty_in);
	u->tty_in = NULL;
	size_forget();
}

void
screen_close_keep(struct ui_ctx *u)
{
	char *text, mb[MB_LEN_MAX];
	wchar_t *line;
	size_t len = 0, cap, keep = 0, k;
	int y, x, n;
	mbstate_t st;

	if (!screen_is_open || u->scr == NULL || u->rows <= 0 || u->cols <= 0) {
		screen_close(u);
		return;
	}
	/* Each cell a character of up to MB_LEN_MAX bytes, and a newline. */
	cap = (size_t)u->rows * ((size_t)u->cols * MB_LEN_MAX + 1) + 1;
	text = malloc(cap);
	line = malloc(((size_t)u->cols + 1) * sizeof *line);
	for (y = 0; text != NULL && line != NULL && y < u->rows; y++) {
		n = mvinnwstr(y, 0, line, u->cols);
		for (x = n < 0 ? 0 : n; x > 0 && line[x - 1] == L' '; x--)
			;
		memset(&st, 0, sizeof st);
		for (n = 0; n < x; n++) {
			k = wcrtomb(mb, line[n], &st);
			if (k == (size_t)-1)
				mb[0] = '?', k = 1;
			memcpy(text + len, mb, k);
			len += k;
		}
		text[len++] = '\n';
		if (x > 0)
			keep = len;
	}
	screen_close(u);
	if (text != NULL && keep > 0) {
		fwrite(text, 1, keep, stdout);
		fflush(stdout);
	}
	free(text);
	free(line);
}

/* Only write() and tcsetattr(), both async-signal-safe, on data prepared
 * at open time. */
void
screen_emergency_restore(void)
{
	if (!screen_is_open)
		return;
	screen_is_open = 0;
	if (restore_len > 0 && write(STDOUT_FILENO, restore_seq, restore_len) < 0)
		restore_len = 0;    /* nothing more to try in a signal handler */
	if (saved_fd >= 0)
		tcsetattr(saved_fd, TCSANOW, &saved_tio);
}

void
screen_resize(struct ui_ctx *u)
{
	getmaxyx(stdscr, u->rows, u->cols);
}

void
screen_repaint(struct ui_ctx *u)
{
	(void)u;
	clearok(curscr, TRUE);
}

int
screen_fd(const struct ui_ctx *u)
{
	return u->tty_in != NULL ? fileno(u->tty_in) : STDIN_FILENO;
}
