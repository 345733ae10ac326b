/* screen.c: the terminal. curses is started on the controlling terminal
 * with the modes saved first, so that a fatal signal can put them back
 * without curses; the glyphs and colours of the four categories; the bar
 * and number helpers the views share. Frames are drawn into curses'
 * virtual screen and refresh() sends only the cells that changed. */
#include "config.h"
#include "ui/screen.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>
#include <term.h>

#include "util/i18n.h"

/* State for screen_emergency_restore: filled in before curses starts and
 * only read by the signal handler. */
static struct termios saved_tio;
static int saved_fd = -1;
static char restore_seq[256];
static size_t restore_len;
static volatile sig_atomic_t screen_is_open;

static SCREEN *scr;
static FILE *tty_in;        /* /dev/tty when stdin is not the terminal */
static bool colours_started;

/* Left eighth blocks, 1/8 to 7/8 of a cell. */
static const char *const eighth[8] = {
	"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589",
};

void
screen_glyphs(struct ui_ctx *u, bool utf8)
{
	int r;

	u->utf8 = utf8;
	for (r = 0; r < ROLE_COUNT; r++)
		u->fill[r] = " ";
	if (utf8) {
		u->fill[ROLE_BOTH] = "\u2588";     /* full block */
		u->fill[ROLE_T0] = "\u2593";       /* dark shade */
		u->fill[ROLE_T1] = "\u2592";       /* medium shade */
		u->fill[ROLE_UTIL] = "\u2588";
		u->fill[ROLE_BOUND] = "\u2591";    /* light shade: in doubt */
	} else {
		u->fill[ROLE_BOTH] = "#";
		u->fill[ROLE_T0] = "0";
		u->fill[ROLE_T1] = "1";
		u->fill[ROLE_UTIL] = "#";
		u->fill[ROLE_BOUND] = "?";
	}
}

/* The colours: 256-colour palette, then the 8 basic ones; -1 is the
 * terminal's default. */
struct role_colour {
	short fg256, bg256, fg8, bg8;
	int attr8;              /* extra attribute with 8 colours */
};

static const struct role_colour palette[ROLE_COUNT] = {
	[ROLE_BOTH] = { 167, -1, COLOR_RED, -1, 0 },
	[ROLE_T0] = { 68, -1, COLOR_BLUE, -1, A_BOLD },
	[ROLE_T1] = { 179, -1, COLOR_YELLOW, -1, 0 },
	[ROLE_NEITHER] = { -1, -1, -1, -1, 0 },
	[ROLE_UTIL] = { 71, -1, COLOR_GREEN, -1, 0 },
	[ROLE_BOUND] = { 181, -1, COLOR_RED, -1, 0 },
	[ROLE_LABEL] = { 109, -1, COLOR_CYAN, -1, 0 },
	[ROLE_INVALID] = { 243, -1, COLOR_WHITE, -1, A_DIM },
	[ROLE_WARN] = { 214, -1, COLOR_YELLOW, -1, A_BOLD },
	[ROLE_TAB_ACTIVE] = { 16, 109, COLOR_BLACK, COLOR_CYAN, 0 },
	[ROLE_TAB] = { 252, 238, -1, -1, 0 },
};

/* Attributes without colour: the fill characters carry the bars. */
static const int mono_attr[ROLE_COUNT] = {
	[ROLE_LABEL] = A_BOLD,
	[ROLE_INVALID] = A_DIM,
	[ROLE_WARN] = A_BOLD,
	[ROLE_TAB_ACTIVE] = A_REVERSE,
};

static short
fg_of(const struct ui_ctx *u, enum ui_role r)
{
	return u->colours >= 256 ? palette[r].fg256 : palette[r].fg8;
}

static short
bg_of(const struct ui_ctx *u, enum ui_role r)
{
	return u->colours >= 256 ? palette[r].bg256 : palette[r].bg8;
}

/* The heat scale, cool to hot, as backgrounds under dark text; pairs
 * after the roles'. On 8 colours five colours share the eight steps. */
#define HEAT_PAIR0 (ROLE_COUNT + 1)
static const short heat256[HEAT_STEPS] = { 33, 38, 43, 78, 184, 214, 208, 196 };
static const short heat8[HEAT_STEPS] = {
	COLOR_BLUE, COLOR_BLUE, COLOR_CYAN, COLOR_CYAN, COLOR_GREEN, COLOR_YELLOW,
	COLOR_YELLOW, COLOR_RED,
};

static void
heat_pairs(struct ui_ctx *u)
{
	int i;

	for (i = 0; i < HEAT_STEPS; i++) {
		if (u->colours >= 256)
			init_pair((short)(HEAT_PAIR0 + i), 16, heat256[i]);
		else    /* white reads better than black on blue and red */
			init_pair((short)(HEAT_PAIR0 + i),
			    heat8[i] == COLOR_BLUE || heat8[i] == COLOR_RED ? COLOR_WHITE : COLOR_BLACK,
			    heat8[i]);
	}
}

static void
start_colours(struct ui_ctx *u)
{
	int r;

	if (colours_started || u->colours == 0)
		return;
	if (start_color() != OK)
		return;
	use_default_colors();
	for (r = 0; r < ROLE_COUNT; r++)
		init_pair((short)(r + 1), fg_of(u, r), bg_of(u, r));
	heat_pairs(u);
	colours_started = true;
}

void
screen_set_colour(struct ui_ctx *u, bool on)
{
	if (on)
		start_colours(u);
	u->colour_on = on && colours_started;
}

static bool
colour_active(const struct ui_ctx *u)
{
	return u->colour_on && colours_started && u->colours > 0;
}

int
screen_attr(const struct ui_ctx *u, enum ui_role r)
{
	if (r >= ROLE_COUNT)
		return A_NORMAL;
	if (!colour_active(u))
		return mono_attr[r];
	return COLOR_PAIR(r + 1) | (u->colours >= 256 ? 0 : palette[r].attr8);
}

/* A copy of one terminfo string into the restore sequence. */
static void
add_seq(const char *cap)
{
	char *s = tigetstr((char *)cap);
	size_t len;

	if (s == NULL || s == (char *)-1)
		return;
	len = strlen(s);
	if (restore_len + len < sizeof restore_seq) {
		memcpy(restore_seq + restore_len, s, len);
		restore_len += len;
	}
}

static void
add_raw(const char *s)
{
	size_t len = strlen(s);

	if (restore_len + len < sizeof restore_seq) {
		memcpy(restore_seq + restore_len, s, len);
		restore_len += len;
	}
}

int
screen_open(struct ui_ctx *u, const struct ui_settings *s, struct errmsg *e)
{
	const char *term = getenv("TERM");
	FILE *in = stdin;
	bool colour;
	int n;

	memset(u, 0, sizeof *u);
	if (screen_is_open)
		return errmsg_set(e, _("the screen is already open"));
	if (!isatty(STDOUT_FILENO))
		return errmsg_set(e, _("standard output is not a terminal; use -b for batch output"));
	if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
		return errmsg_set(e, _("the terminal type is %s; set TERM (e.g. TERM=xterm-256color) "
		    "or use -b for batch output"), term == NULL || *term == '\0' ? _("not set") : term);
	if (!isatty(STDIN_FILENO)) {
		tty_in = fopen("/dev/tty", "r");
		if (tty_in == NULL)
			return errmsg_set(e, _("no terminal to read keys from (/dev/tty: %s); "
			    "run httop in a terminal or use -b"), strerror(errno));
		in = tty_in;
	}
	if (tcgetattr(STDOUT_FILENO, &saved_tio) == 0)
		saved_fd = STDOUT_FILENO;
	scr = newterm(NULL, stdout, in);
	if (scr == NULL) {
		if (tty_in != NULL)
			fclose(tty_in);
		tty_in = NULL;
		return errmsg_set(e, _("terminal type '%s' is not known to curses; set TERM to one "
		    "that is (e.g. xterm-256color) or use -b"), term);
	}
	set_term(scr);

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
	if (mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL) != 0) {
		mouseinterval(0);
		add_raw("\033[?1000l");
	}
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
	(void)u;
	if (!screen_is_open)
		return;
	screen_is_open = 0;
	endwin();
	delscreen(scr);
	scr = NULL;
	colours_started = false;
	if (saved_fd >= 0)
		tcsetattr(saved_fd, TCSADRAIN, &saved_tio);
	if (tty_in != NULL)
		fclose(tty_in);
	tty_in = NULL;
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
	(void)u;
	return tty_in != NULL ? fileno(tty_in) : STDIN_FILENO;
}

/* Bars. */

static double
clamp01(double x)
{
	if (!(x > 0.0))
		return 0.0;
	return x > 1.0 ? 1.0 : x;
}

static bool
solid(enum ui_role r)
{
	return r == ROLE_BOTH || r == ROLE_UTIL;
}

void
bar_cells(const struct ui_ctx *u, int width, const enum ui_role *roles, const double *fracs,
    int n, struct bar_cell *out)
{
	int edge[BAR_MAX_SEGS + 2];
	enum ui_role role[BAR_MAX_SEGS + 1];
	double cum = 0.0;
	long total;
	int i, c, nseg;

	if (width <= 0)
		return;
	if (n > BAR_MAX_SEGS)
		n = BAR_MAX_SEGS;
	total = 8L * width;
	/* Cumulative edges in eighths of a cell: rounding the running sum,
	 * not each part, keeps the parts adding up to the whole bar. */
	edge[0] = 0;
	for (i = 0; i < n; i++) {
		long e;

		cum += clamp01(fracs[i]);
		e = lround(clamp01(cum) * (double)total);
		edge[i + 1] = (int)(e < edge[i] ? edge[i] : e);
		role[i] = roles[i];
	}
	role[n] = ROLE_NEITHER;
	edge[n + 1] = (int)total;
	nseg = n + 1;

	for (c = 0; c < width; c++) {
		int lo = 8 * c, hi = lo + 8, best = -1, bestcov = 0, first = -1, firstcov = 0;
		int rest = -1, restcov = 0;     /* the part after the first */

		for (i = 0; i < nseg; i++) {
			int a = edge[i] > lo ? edge[i] : lo;
			int b = edge[i + 1] < hi ? edge[i + 1] : hi;
			int cov = b - a;

			if (cov <= 0)
				continue;
			if (first < 0) {
				first = i;
				firstcov = cov;
			} else if (cov > restcov) {
				rest = i;
				restcov = cov;
			}
			if (cov > bestcov) {
				best = i;
				bestcov = cov;
			}
		}
		if (first < 0) {        /* cannot happen: the edges cover the bar */
			out[c].glyph = u->fill[ROLE_NEITHER];
			out[c].role = ROLE_NEITHER;
			continue;
		}
		if (u->utf8 && firstcov < 8 && solid(role[first]) && rest >= 0) {
			/* The end of a solid run inside this cell: an eighth block;
			 * the next part starts in the next cell. A background in
			 * the next part's colour would look seamless but costs two
			 * colour changes per cell on every refresh. */
			out[c].glyph = eighth[firstcov];
			out[c].role = role[first];
			continue;
		}
		out[c].glyph = u->fill[role[best]];
		out[c].role = role[best];
	}
}

static double
lo_of(const struct val *v)
{
	if (v == NULL)
		return 0.0;
	if (v->kind == V_EXACT)
		return clamp01(v->v);
	if (v->kind == V_BOUND)
		return clamp01(v->lo);
	return 0.0;
}

static double
hi_of(const struct val *v)
{
	if (v != NULL && v->kind == V_BOUND)
		return clamp01(v->hi);
	return lo_of(v);
}

int
split_segments(const struct val *both, const struct val *t0, const struct val *t1,
    enum ui_role roles[BAR_MAX_SEGS], double fracs[BAR_MAX_SEGS])
{
	int n = 0;

	/* The certain part of each share is solid; a bound's doubt sits next
	 * to the both run: that time was both, or else each thread alone. */
	roles[n] = ROLE_BOTH;
	fracs[n++] = lo_of(both);
	if (hi_of(both) > lo_of(both)) {
		roles[n] = ROLE_BOUND;
		fracs[n++] = hi_of(both) - lo_of(both);
	}
	roles[n] = ROLE_T0;
	fracs[n++] = lo_of(t0);
	roles[n] = ROLE_T1;
	fracs[n++] = lo_of(t1);
	return n;
}

/* Bar cells as curses complex characters, made once per glyph and
 * attribute (a few dozen: the fills, the eighth blocks, the roles), so
 * that drawing a bar costs no multibyte conversion and no attribute change
 * per cell: bars are most of a frame's cells. The attribute is part of the
 * key because the c key and the colour count change it. */
#define CELL_CACHE 96
static struct cell_cc {
	const char *glyph;
	int attr;
	cchar_t cc;
} cell_cache[CELL_CACHE];
static int ncell_cache;

static void
make_cc(cchar_t *cc, const char *glyph, int attr)
{
	wchar_t w[4] = { 0 };
	mbstate_t st;
	const char *p = glyph;
	size_t n;

	memset(&st, 0, sizeof st);
	n = mbsrtowcs(w, &p, 2, &st);
	if (n == (size_t)-1)
		w[0] = L'?';       /* not in this locale's charset */
	else if (n == 0)
		w[0] = L' ';       /* an empty glyph still fills its cell */
	w[1] = 0;                  /* one column each */
	setcchar(cc, w, (attr_t)(attr & ~A_COLOR), (short)PAIR_NUMBER(attr), NULL);
}

static const cchar_t *
cell_cc(const struct ui_ctx *u, const struct bar_cell *c)
{
	static cchar_t spare;
	int attr = screen_attr(u, c->role), i;

	for (i = 0; i < ncell_cache; i++)
		if (cell_cache[i].glyph == c->glyph && cell_cache[i].attr == attr)
			return &cell_cache[i].cc;
	if (ncell_cache == CELL_CACHE) {   /* not expected: make it each time */
		make_cc(&spare, c->glyph, attr);
		return &spare;
	}
	cell_cache[ncell_cache].glyph = c->glyph;
	cell_cache[ncell_cache].attr = attr;
	make_cc(&cell_cache[ncell_cache].cc, c->glyph, attr);
	return &cell_cache[ncell_cache++].cc;
}

void
draw_cells(struct ui_ctx *u, int y, int x, int width, const struct bar_cell *c)
{
	cchar_t line[512];
	int i, n = width;

	if (x + n > u->cols)
		n = u->cols - x;
	if (n > (int)(sizeof line / sizeof line[0]))
		n = (int)(sizeof line / sizeof line[0]);
	if (n <= 0 || y < 0 || y >= u->rows)
		return;
	for (i = 0; i < n; i++)
		line[i] = *cell_cc(u, &c[i]);
	mvadd_wchnstr(y, x, line, n);
}

void
draw_split_bar(struct ui_ctx *u, int y, int x, int width, const struct val *both,
    const struct val *t0, const struct val *t1)
{
	enum ui_role roles[BAR_MAX_SEGS];
	double fracs[BAR_MAX_SEGS];
	struct bar_cell cells[512];
	int n;

	if (width > (int)(sizeof cells / sizeof cells[0]))
		width = (int)(sizeof cells / sizeof cells[0]);
	if (width <= 0)
		return;
	n = split_segments(both, t0, t1, roles, fracs);
	bar_cells(u, width, roles, fracs, n, cells);
	draw_cells(u, y, x, width, cells);
}

void
draw_value_bar(struct ui_ctx *u, int y, int x, int width, const struct val *v, enum ui_role r)
{
	enum ui_role roles[2] = { r, ROLE_BOUND };
	double fracs[2];
	struct bar_cell cells[512];

	if (width > (int)(sizeof cells / sizeof cells[0]))
		width = (int)(sizeof cells / sizeof cells[0]);
	if (width <= 0)
		return;
	fracs[0] = lo_of(v);
	fracs[1] = hi_of(v) - lo_of(v);
	bar_cells(u, width, roles, fracs, 2, cells);
	draw_cells(u, y, x, width, cells);
}

void
draw_bar_edges(struct ui_ctx *u, int y, int x, int width)
{
	int attr = colour_active(u) ? screen_attr(u, ROLE_INVALID) : (int)A_NORMAL;

	attrset(attr);
	if (x > 0)
		mvaddstr(y, x - 1, u->utf8 ? "\u2595" : "[");
	if (x + width < u->cols)
		mvaddstr(y, x + width, u->utf8 ? "\u258f" : "]");
	attrset(A_NORMAL);
}

/* Columns of a UTF-8 string, counting every character as one column (the
 * strings httop draws have no wide characters); `*bytes` gets the bytes
 * of the first `max` columns. */
static int
text_columns(const char *s, int max, size_t *bytes)
{
	int cols = 0;
	size_t i = 0;

	while (s[i] != '\0') {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (cols == max)
				break;
			cols++;
		}
		i++;
	}
	*bytes = i;
	return cols;
}

/* `width` cells at (y, x): `pad` spaces, the first `bytes` bytes of s
 * (`cols` columns), spaces to the end; all in `attr`. Plain ASCII, most of
 * what is drawn, goes in as one array of curses characters: no multibyte
 * conversion and no cursor step per character. Anything else (UTF-8,
 * control characters) goes through addnstr. */
static void
put_field(int y, int x, int width, int pad, const char *s, size_t bytes, int cols, int attr)
{
	chtype line[512];
	size_t i;
	int n = 0;

	if (width > (int)(sizeof line / sizeof line[0]))
		width = (int)(sizeof line / sizeof line[0]);
	for (i = 0; i < bytes; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			break;
	if (i == bytes) {
		for (; n < pad && n < width; n++)
			line[n] = ' ' | (chtype)attr;
		for (i = 0; i < bytes && n < width; i++)
			line[n++] = (unsigned char)s[i] | (chtype)attr;
		for (; n < width; n++)
			line[n] = ' ' | (chtype)attr;
		mvaddchnstr(y, x, line, width);
		return;
	}
	attrset(attr);
	move(y, x);
	for (; n < pad && n < width; n++)
		addch(' ');
	if (n < width)
		addnstr(s, (int)bytes);
	for (n += cols; n < width; n++)
		addch(' ');
	attrset(A_NORMAL);
}

size_t
text_line_len(const char *s, int cols)
{
	int used = 0, brk = -1, i = 0;

	while (s[i] != '\0') {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (used == cols)
				break;
			used++;
		}
		if (s[i] == ' ')
			brk = i;
		i++;
	}
	/* Cut inside a word: back to the last blank, if there is one. */
	if (s[i] != '\0' && s[i] != ' ' && brk > 0)
		i = brk;
	/* At least one character, so a caller's loop always moves on. */
	if (i == 0 && s[0] != '\0')
		for (i = 1; ((unsigned char)s[i] & 0xC0) == 0x80; i++)
			;
	return (size_t)i;
}

void
draw_text(struct ui_ctx *u, int y, int x, int width, enum ui_role r, const char *s)
{
	size_t bytes;
	int cols;

	if (x >= u->cols || y >= u->rows || width <= 0)
		return;
	if (x + width > u->cols)
		width = u->cols - x;
	cols = text_columns(s, width, &bytes);
	put_field(y, x, width, 0, s, bytes, cols, screen_attr(u, r));
}

int
val_text(char *buf, size_t len, const char *fmt, const struct val *v, double scale)
{
	char a[32], b[32];
	size_t bytes;

	if (v == NULL || v->kind == V_NONE || (v->kind == V_EXACT && !isfinite(v->v)) ||
	    (v->kind == V_BOUND && !(isfinite(v->lo) && isfinite(v->hi)))) {
		snprintf(buf, len, "-");
	} else if (v->kind == V_EXACT) {
		snprintf(buf, len, fmt, v->v * scale);
	} else {
		snprintf(a, sizeof a, fmt, v->lo * scale);
		snprintf(b, sizeof b, fmt, v->hi * scale);
		if (strcmp(a, b) == 0)
			snprintf(buf, len, "%s", a);
		else
			snprintf(buf, len, "%s-%s", a, b);
	}
	return text_columns(buf, 1 << 20, &bytes);
}

void
draw_val(struct ui_ctx *u, int y, int x, int width, const char *fmt, const struct val *v,
    double scale)
{
	char text[72];
	size_t bytes;
	int cols, pad;

	if (width <= 0)
		return;
	cols = val_text(text, sizeof text, fmt, v, scale);
	if (cols > width) {
		/* Too long for the column: never show a cut number as if it
		 * were whole; a bound keeps its low end and says there is more. */
		if (v->kind == V_BOUND) {
			char a[32];

			snprintf(a, sizeof a, fmt, v->lo * scale);
			snprintf(text, sizeof text, "%s+", a);
		}
		cols = text_columns(text, 1 << 20, &bytes);
		if (cols > width) {
			memset(text, '*', (size_t)width);
			text[width] = '\0';
			cols = width;
		}
	}
	pad = width - cols;
	if (x + width > u->cols)
		width = u->cols - x;
	if (width > 0 && y < u->rows)
		put_field(y, x, width, pad, text, strlen(text), cols, A_NORMAL);
}

/* The heat scale. */

int
heat_step(double x)
{
	int s;

	if (!(x > 0.0))
		return 0;
	if (x >= 1.0)
		return HEAT_STEPS - 1;
	s = (int)(x * HEAT_STEPS);
	return s < HEAT_STEPS ? s : HEAT_STEPS - 1;
}

bool
screen_heat_colour(const struct ui_ctx *u)
{
	return colour_active(u);
}

int
screen_heat_attr(const struct ui_ctx *u, int step)
{
	if (step < 0)
		step = 0;
	if (step >= HEAT_STEPS)
		step = HEAT_STEPS - 1;
	if (!colour_active(u))
		return A_NORMAL;
	return COLOR_PAIR(HEAT_PAIR0 + step);
}

const char *
screen_heat_glyph(const struct ui_ctx *u, int step)
{
	static const char *const shade[4] = { "\u2591", "\u2592", "\u2593", "\u2588" };
	static const char *const ascii[4] = { ".", ":", "+", "#" };
	int g;

	if (step < 0)
		step = 0;
	g = step * 4 / HEAT_STEPS;
	if (g > 3)
		g = 3;
	return u->utf8 ? shade[g] : ascii[g];
}

void
draw_heat_text(struct ui_ctx *u, int y, int x, int width, int step, const char *s)
{
	size_t bytes;
	int cols;

	if (x >= u->cols || y >= u->rows || width <= 0)
		return;
	if (x + width > u->cols)
		width = u->cols - x;
	cols = text_columns(s, width, &bytes);
	put_field(y, x, width, 0, s, bytes, cols, screen_heat_attr(u, step));
}
