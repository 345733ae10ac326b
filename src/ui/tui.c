/* tui.c: the curses front end: keys in, frames out. It makes the views
 * (with the settings their keys change), holds what the user changes with
 * keys (view, pause, job's cores or all, help) and draws the header, the
 * active view and the status line; the refresh loop owns the counters and
 * the figures. */
#include "config.h"
#include "ui/tui.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/header.h"
#include "ui/help.h"
#include "ui/screen.h"
#include "ui/settings.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* The smallest screen anything useful fits in. */
#define MIN_COLS 40
#define MIN_ROWS 10
/* How long a key's answer ("settings written to ...") stays. */
#define NOTE_SECONDS 5.0
/* Rows one turn of the mouse wheel scrolls. */
#define WHEEL_ROWS 3

struct tui {
	struct ui_ctx u;
	struct ui_settings *s;
	bool open;
	bool paused;
	bool job_only;
	bool keep;                  /* leave the last frame on the screen at the end */
	bool has_job;               /* a job is watched: j toggles its cores */
	bool replay;             /* the replay keys work */
	bool recorded_pace;      /* a replay paced by its recording: + and - do nothing */
	int speed;               /* TUI_SPEED_MIN .. TUI_SPEED_MAX */
	struct tui_replay_req req;
	struct view *views[VIEW_ALL];
	bool nodes;              /* many nodes: the Nodes view (key 5) is there */
	int node;                /* the node views 1-4 show, -1 none yet */
	const struct cluster *cluster;  /* the last frame's */
	struct ui_area area;     /* where the active view was drawn */
	struct header_tabs tabs;
	char key_note[640];      /* the answer to a key, for NOTE_SECONDS */
	double key_note_until;
	char note[640];          /* the loop's note, until replaced */
	struct help help;        /* last: it is large */
};

static struct view *
active_view(const struct tui *t)
{
	int v = (int)t->s->view;

	return v >= 0 && v < VIEW_ALL ? t->views[v] : NULL;
}

struct tui *
tui_open(struct ui_settings *s, struct errmsg *e)
{
	struct tui *t = xcalloc(1, sizeof *t);
	int v;

	t->s = s;
	t->job_only = true;
	if ((int)s->view < 0 || s->view >= VIEW_COUNT)
		s->view = VIEW_CORES;
	if (screen_open(&t->u, s, e) != 0) {
		free(t);
		return NULL;
	}
	for (v = 0; v < VIEW_ALL; v++)
		t->views[v] = view_new((enum view_id)v, s);
	t->node = -1;
	t->open = true;
	return t;
}

int
tui_fd(const struct tui *t)
{
	return screen_fd(&t->u);
}

bool
tui_paused(const struct tui *t)
{
	return t->paused;
}

void
tui_set_nodes(struct tui *t, bool nodes)
{
	t->nodes = nodes;
	t->node = -1;
	if (nodes)
		t->s->view = VIEW_NODES;
}

int
tui_node(const struct tui *t)
{
	return t->nodes && t->s->view != VIEW_NODES ? t->node : -1;
}

bool
tui_job_only(const struct tui *t)
{
	return t->job_only;
}

void
tui_set_replay(struct tui *t, bool replay, bool recorded_pace)
{
	t->replay = replay;
	t->recorded_pace = replay && recorded_pace;
}

int
tui_speed(const struct tui *t)
{
	return t->speed;
}

bool
tui_replay_take(struct tui *t, struct tui_replay_req *r)
{
	*r = t->req;
	memset(&t->req, 0, sizeof t->req);
	return r->jump != 0 || r->steps > 0;
}

void
tui_note(struct tui *t, const char *msg)
{
	snprintf(t->note, sizeof t->note, "%s", msg != NULL ? msg : "");
}

static void
key_note(struct tui *t, const char *msg)
{
	snprintf(t->key_note, sizeof t->key_note, "%s", msg);
	t->key_note_until = clock_mono() + NOTE_SECONDS;
}

/* An answer said in forms for the width: the whole, then shorter ones
 * with the key information first, for a narrow terminal where the whole
 * would be cut before what to do (the status line takes the first that
 * fits: text_fit_forms). */
static void
key_note_forms(struct tui *t, const char *whole, const char *shorter, const char *shortest)
{
	snprintf(t->key_note, sizeof t->key_note, "%s\n%s\n%s", whole, shorter, shortest);
	t->key_note_until = clock_mono() + NOTE_SECONDS;
}

/* A key changed what the last answer spoke of ("already at its
 * minimum"): that answer is stale. */
static void
key_note_clear(struct tui *t)
{
	t->key_note[0] = '\0';
	t->key_note_until = 0.0;
}

/* Keep the more important of two commands. */
static enum tui_cmd
stronger(enum tui_cmd a, enum tui_cmd b)
{
	static const int rank[] = {
		[TUI_NONE] = 0, [TUI_REDRAW] = 1, [TUI_PAUSE] = 2, [TUI_DELAY] = 3,
		[TUI_JOB] = 4, [TUI_WINDOW] = 5, [TUI_SPEED] = 6, [TUI_STEP] = 7,
		[TUI_JUMP] = 8, [TUI_QUIT] = 9,
	};

	return rank[b] > rank[a] ? b : a;
}

static void
write_settings(struct tui *t)
{
	struct errmsg e;
	char path[4096], msg[sizeof e.text + 64];

	if (ui_config_path(path, sizeof path, &e) != 0 ||
	    ui_config_save(path, t->s, &e) != 0) {
		key_note(t, e.text);
		return;
	}
	snprintf(msg, sizeof msg, _("settings written to %s"), path);
	key_note(t, msg);
}

static enum tui_cmd
set_view(struct tui *t, int v)
{
	/* Many nodes: a node's views once Enter has opened one. */
	if (t->nodes && v != VIEW_NODES && t->node < 0) {
		key_note(t, _("Enter on a node in the Nodes view opens its views"));
		return TUI_REDRAW;
	}
	t->s->view = (enum view_id)v;
	return TUI_REDRAW;
}

/* The views a Tab goes through. */
static int
nviews(const struct tui *t)
{
	return t->nodes ? VIEW_ALL : VIEW_COUNT;
}

/* Enter in the Nodes view: open that node's Cores view (or the node
 * view last shown). */
static enum tui_cmd
open_node(struct tui *t, int k)
{
	if (t->cluster == NULL || k < 0 || (size_t)k >= t->cluster->n || !t->cluster->nodes[k].have) {
		key_note(t, _("no interval from this node yet"));
		return TUI_REDRAW;
	}
	t->node = k;
	t->s->view = t->s->view == VIEW_NODES ? VIEW_CORES : t->s->view;
	return TUI_REDRAW;
}

double
tui_delay_step(double d, int dir)
{
	static const double mant[3] = { 1.0, 2.0, 5.0 };
	double best = dir > 0 ? PACER_DELAY_MAX : PACER_DELAY_MIN, e;
	int i;

	/* The ladder 0.01, 0.02, 0.05, 0.1 ... 50000, 100000 s: the next
	 * step above (or below) d, within the limits. */
	for (e = 0.01; e <= 100000.0; e *= 10.0) {
		for (i = 0; i < 3; i++) {
			double step = mant[i] * e;

			if (dir > 0 && step > d * (1.0 + 1e-9) && step < best)
				best = step;
			if (dir < 0 && step < d * (1.0 - 1e-9) && step > best)
				best = step;
		}
	}
	if (best < PACER_DELAY_MIN)
		best = PACER_DELAY_MIN;
	if (best > PACER_DELAY_MAX)
		best = PACER_DELAY_MAX;
	return best;
}

static enum tui_cmd
change_delay(struct tui *t, int dir)
{
	double d = tui_delay_step(t->s->delay, dir);
	char msg[96];

	if (t->recorded_pace) {
		key_note(t, _("+ and - set the interval; a replay keeps its recorded pace: "
		    "> and < change its speed (-d N paces it by N s)"));
		return TUI_REDRAW;
	}
	if (d == t->s->delay) {
		snprintf(msg, sizeof msg, _("the interval is already at its %s (%g s)"),
		    dir < 0 ? _("minimum") : _("maximum"), d);
		key_note(t, msg);
		return TUI_REDRAW;
	}
	t->s->delay = d;
	key_note_clear(t);
	return TUI_DELAY;
}

/* The replay keys: . n > < [ ]. */
static enum tui_cmd
replay_key(struct tui *t, int ch)
{
	char msg[96], sp[16];
	int want;

	if (!t->replay) {
		key_note(t, _("only in a replay (httop --replay FILE)"));
		return TUI_REDRAW;
	}
	switch (ch) {
	case '.':
	case 'n':
		/* Stepping through a replay that keeps moving makes no sense. */
		t->paused = true;
		t->req.steps++;
		return TUI_STEP;
	case '[':
	case ']':
		t->req.jump = ch == '[' ? -1 : 1;
		t->req.steps = 0;
		return TUI_JUMP;
	default:
		want = t->speed + (ch == '>' ? 1 : -1);
		if (want < TUI_SPEED_MIN || want > TUI_SPEED_MAX) {
			header_speed_text(sp, sizeof sp, t->speed);
			snprintf(msg, sizeof msg, _("the replay speed is already at its %s (%s)"),
			    ch == '>' ? _("maximum") : _("minimum"), sp);
			key_note(t, msg);
			return TUI_REDRAW;
		}
		t->speed = want;
		key_note_clear(t);
		return TUI_SPEED;
	}
}

/* A key's name for a message: 'x', Ctrl-X, F5, or curses' name. */
static void
key_label(char *buf, size_t len, int ch)
{
	const char *n;

	if (ch > ' ' && ch < 0x7f)
		snprintf(buf, len, "'%c'", ch);
	else if (ch == 0x1b)
		snprintf(buf, len, "Esc");
	else if (ch >= 0 && ch < ' ')
		snprintf(buf, len, "Ctrl-%c", ch + '@');
	else if (ch >= 0x80 && ch < 0x100)
		snprintf(buf, len, "%s", _("(a character outside ASCII)"));
	else if (ch >= KEY_F(1) && ch <= KEY_F(63))
		snprintf(buf, len, "F%d", ch - KEY_F(0));
	else if ((n = keyname(ch)) != NULL && strncmp(n, "KEY_", 4) == 0)
		snprintf(buf, len, "%s", n + 4);
	else
		snprintf(buf, len, "%d", ch);
}

/* Keys that mean something elsewhere say where; the others are unknown. */
static enum tui_cmd
other_key(struct tui *t, int ch)
{
	char name[64], msg[160];

	if (ch == 's' || ch == 'S') {
		key_note(t, _("sorting applies to the Threads view (key 2)"));
	} else if (ch == 'f' || ch == 'F') {
		key_note(t, _("f and F choose the Die grid's figure (key 4)"));
	} else if (ch == '5') {
		key_note(t, _("5 is the Nodes view of httop --nodes"));
	} else if ((ch == '\r' || ch == '\n' || ch == KEY_ENTER) && t->nodes) {
		key_note(t, _("Enter opens the node under the cursor in the Nodes view (key 5)"));
	} else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER || ch == 0x1b) {
		key_note(t, _("Enter and Esc open and leave a node in the Nodes view of httop "
		    "--nodes"));
	} else {
		key_label(name, sizeof name, ch);
		snprintf(msg, sizeof msg, _("unknown key %s: h lists the keys"), name);
		key_note(t, msg);
	}
	return TUI_REDRAW;
}

/* The wheel scrolls the help when it is open, else the view. */
static enum tui_cmd
wheel(struct tui *t, int ch)
{
	struct view *v = active_view(t);
	int i;

	for (i = 0; i < WHEEL_ROWS; i++) {
		if (t->help.open)
			help_key(&t->help, ch);
		else if (v != NULL && v->key != NULL)
			v->key(v, ch);
	}
	return TUI_REDRAW;
}

static enum tui_cmd
mouse(struct tui *t)
{
	struct view *v = active_view(t);
	const struct ui_area *a = &t->area;
	MEVENT ev;
	int tab;

	if (getmouse(&ev) != OK)
		return TUI_NONE;
	if (ev.bstate & BUTTON4_PRESSED)
		return wheel(t, KEY_UP);
#if defined(BUTTON5_PRESSED)
	if (ev.bstate & BUTTON5_PRESSED)
		return wheel(t, KEY_DOWN);
#endif
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) || t->help.open)
		return TUI_NONE;
	tab = header_tab_at(&t->tabs, ev.y, ev.x);
	if (tab >= 0)
		return set_view(t, tab);
	if (v != NULL && v->click != NULL && ev.y >= a->top && ev.y < a->top + a->rows &&
	    ev.x >= a->left && ev.x < a->left + a->cols &&
	    v->click(v, ev.y - a->top, ev.x - a->left))
		return TUI_REDRAW;
	return TUI_NONE;
}

/* The keys of the whole screen; the rest go to the view. */
static enum tui_cmd
screen_key(struct tui *t, int ch)
{
	struct ui_settings *s = t->s;

	switch (ch) {
	case 'q': case 'Q': case KEY_F(10):
		return TUI_QUIT;
	case '\t':
		return set_view(t, ((int)s->view + 1) % nviews(t));
	case KEY_BTAB:
		return set_view(t, ((int)s->view + nviews(t) - 1) % nviews(t));
	case '1': case '2': case '3': case '4':
		return set_view(t, ch - '1');
	case '5': case 0x1b:
		if (!t->nodes)
			return TUI_NONE;
		return set_view(t, VIEW_NODES);
	case 'p': case ' ':
		t->paused = !t->paused;
		return TUI_PAUSE;
	case '+': case '=':
		return change_delay(t, 1);
	case '-': case '_':
		return change_delay(t, -1);
	case '.': case 'n': case '>': case '<': case '[': case ']':
		return replay_key(t, ch);
	case 'a':
		s->window = (enum avg_window)(((int)s->window + 1) % AVG_COUNT);
		return TUI_WINDOW;
	case 'c':
		screen_set_colour(&t->u, !t->u.colour_on);
		s->colour = t->u.colour_on ? COLOUR_ON : COLOUR_OFF;
		if (t->u.colours == 0)
			key_note(t, _("this terminal has no colours"));
		return TUI_REDRAW;
	case 'j':
		if (!t->has_job) {
			key_note_forms(t, _("j: no job is watched; start httop with --pid, --cgroup, "
			    "--job or -- COMMAND"),
			    _("j: no job; start httop with --pid, --cgroup, --job, -- CMD"),
			    _("no job: --pid, --cgroup, --job, -- CMD"));
			return TUI_REDRAW;
		}
		t->job_only = !t->job_only;
		return TUI_JOB;
	case 'w':
		write_settings(t);
		return TUI_REDRAW;
	case 'h': case '?': case KEY_F(1):
		t->help.open = true;
		t->help.scroll = 0;
		t->help.page = 0;
		return TUI_REDRAW;
	case 12:     /* Ctrl-L */
		screen_repaint(&t->u);
		return TUI_REDRAW;
	default:
		return TUI_NONE;
	}
}

static enum tui_cmd
key(struct tui *t, int ch)
{
	struct view *v = active_view(t);
	enum tui_cmd cmd;

	if (ch == KEY_RESIZE) {
		screen_resize(&t->u);
		return TUI_REDRAW;
	}
	if (t->u.cols < MIN_COLS || t->u.rows < MIN_ROWS) {
		/* Only the request for room is shown: a key acts on nothing
		 * the user can see (a help, a view), except to quit. */
		if (ch == 'q' || ch == 'Q' || ch == KEY_F(10))
			return TUI_QUIT;
		if (ch == 12)
			screen_repaint(&t->u);
		return ch == 12 ? TUI_REDRAW : TUI_NONE;
	}
	if (ch == KEY_MOUSE)
		return mouse(t);
	if (t->help.open) {
		/* Scrolling keys scroll the help; any other closes it. */
		if (!help_key(&t->help, ch))
			t->help.open = false;
		return TUI_REDRAW;
	}
	if ((cmd = screen_key(t, ch)) != TUI_NONE)
		return cmd;
	if (v != NULL && v->key != NULL && v->key(v, ch)) {
		int k = view_nodes_take(v);

		return k >= 0 ? open_node(t, k) : TUI_REDRAW;
	}
	return other_key(t, ch);
}

enum tui_cmd
tui_input(struct tui *t)
{
	enum tui_cmd cmd = TUI_NONE;
	int ch;

	if (!t->open)
		return TUI_NONE;
	/* A SIGWINCH woke the wait: getch() reads the new size. */
	screen_bound(&t->u);
	while ((ch = getch()) != ERR) {
		cmd = stronger(cmd, key(t, ch));
		if (cmd == TUI_QUIT)
			break;
	}
	return cmd;
}

/* --- the status line ---------------------------------------------------- */

/* One message of the status line at x, whole, or as many words as fit and
 * an ellipsis (a message in several forms: the first that fits whole);
 * returns the columns used (0: none fit). */
static int
status_message(struct ui_ctx *u, int y, int x, int room, enum ui_role r, const char *msg)
{
	char text[700];
	int w = text_fit_forms(text, sizeof text, msg, room, u->utf8);

	if (w > 0)
		draw_text(u, y, x, w, r, text);
	return w;
}

/* A terminal larger than httop draws (term.h): its size and the bound. */
static bool
big_note(const struct ui_ctx *u, char *buf, size_t size)
{
	if (u->big_rows <= 0 && u->big_cols <= 0)
		return false;
	snprintf(buf, size, _("the terminal is %d x %d: httop draws at most %d x %d"),
	    u->big_cols > 0 ? u->big_cols : u->cols, u->big_rows > 0 ? u->big_rows : u->rows,
	    SCREEN_MAX_COLS, SCREEN_MAX_ROWS);
	return true;
}

/* The messages, the answer to a key first (it is the newest), then what
 * is wrong with the figures, the loop's note, the pause; a bar between
 * them. The keys' hint at the right when there is room. */
static void
status_line(struct tui *t, const struct ui_frame *f)
{
	struct ui_ctx *u = &t->u;
	const char *sep = u->utf8 ? " \u2502 " : " | ";
	/* Only the keys that do something here: many nodes run at their -d
	 * and give their last interval (no +-, no a). */
	const char *hint = t->replay ?
	    _("p pause  . step  <> speed  [] start/end  h help  q quit") :
	    !t->nodes ? _("Tab view  p pause  +- interval  a window  h help  q quit") :
	    t->s->view == VIEW_NODES ? _("Enter node  sS sort  p pause  h help  q quit") :
	    _("Esc nodes  Tab view  p pause  h help  q quit");
	const char *msg[5];
	enum ui_role role[5];
	char invalid[700], big[200];
	int y = u->rows - 1, x = 0, n = 0, i, w;

	if (t->key_note[0] != '\0' && clock_mono() < t->key_note_until) {
		msg[n] = t->key_note;
		role[n++] = ROLE_WARN;
	}
	if (f->iv != NULL && !f->iv->valid && f->iv->reason[0] != '\0') {
		snprintf(invalid, sizeof invalid, _("invalid: %s"), f->iv->reason);
		msg[n] = invalid;
		role[n++] = ROLE_INVALID;
	}
	if (t->note[0] != '\0') {
		msg[n] = t->note;
		role[n++] = ROLE_WARN;
	}
	if (f->paused) {
		msg[n] = _("paused: p resumes");
		role[n++] = ROLE_WARN;
	}
	if (big_note(u, big, sizeof big)) {
		msg[n] = big;
		role[n++] = ROLE_WARN;
	}
	draw_text(u, y, 0, u->cols, ROLE_PLAIN, "");
	for (i = 0; i < n; i++) {
		int sw = i > 0 ? text_width(sep) : 0;

		if (x + sw >= u->cols)
			break;
		w = status_message(u, y, x + sw, u->cols - x - sw, role[i], msg[i]);
		if (w == 0)
			break;
		if (i > 0)
			draw_text(u, y, x, sw, ROLE_LABEL, sep);
		x += sw + w;
	}
	w = text_width(hint);
	if (x + (x > 0 ? 2 : 0) + w <= u->cols)
		draw_text(u, y, u->cols - w, w, ROLE_LABEL, hint);
}

/* A blank that draw_wrapped does not break a line at (drawn as one). */
#define GLUE '\x1f'

/* `s` from the left of `row`, broken at blanks into lines of the
 * screen's width, as many lines as there are rows: the request for more
 * room must be readable in a 20 x 5 pane. Returns the row after it. */
static int
draw_wrapped(struct ui_ctx *u, int row, enum ui_role r, const char *s)
{
	char line[256];
	size_t n;

	while (*s == ' ')
		s++;
	while (*s != '\0' && row < u->rows) {
		size_t k;

		n = text_line_len(s, u->cols);
		snprintf(line, sizeof line, "%.*s", (int)n, s);
		/* GLUE: a blank no line breaks at ("40 x 10" stays whole). */
		for (k = 0; line[k] != '\0'; k++)
			if (line[k] == GLUE)
				line[k] = ' ';
		draw_text(u, row++, 0, u->cols, r, line);
		s += n;
		while (*s == ' ')
			s++;
	}
	return row;
}

/* The header's rows at most: a third of the screen and one, and never
 * less than a row for each of its lines and the tabs. */
static int
header_room(const struct ui_ctx *u, const struct ui_frame *f)
{
	int least = header_lines(f) + 1;

	return u->rows / 3 + 1 > least ? u->rows / 3 + 1 : least;
}

void
tui_draw(struct tui *t, const struct ui_frame *f)
{
	struct ui_ctx *u = &t->u;
	struct view *v;
	int h;

	if (!t->open)
		return;
	t->cluster = f->cluster;
	/* Draw into the virtual screen from blank; refresh() then sends only
	 * the cells that differ from what the terminal shows. */
	erase();
	if (u->cols < MIN_COLS || u->rows < MIN_ROWS) {
		char text[160], least[32], now[32];

		/* The sizes glued: a line never ends in "(now 39 x". */
		snprintf(least, sizeof least, "%d%cx%c%d", MIN_COLS, GLUE, GLUE, MIN_ROWS);
		snprintf(now, sizeof now, "(%s%c%d%cx%c%d)", _("now"), GLUE, u->cols, GLUE, GLUE,
		    u->rows);
		snprintf(text, sizeof text, _("httop needs at least %s %s"), least, now);
		/* and the one key that works here, on a line of its own */
		draw_wrapped(u, draw_wrapped(u, 0, ROLE_WARN, text), ROLE_LABEL, _("q quits"));
		refresh();
		return;
	}
	h = header_draw(u, f, t->s->view, &t->tabs, header_room(u, f));
	t->area.top = h;
	t->area.left = 0;
	t->area.rows = u->rows - h - 1;
	t->area.cols = u->cols;
	v = active_view(t);
	if (v != NULL && t->area.rows > 0)
		v->draw(v, u, &t->area, f);
	status_line(t, f);
	if (t->help.open)
		help_draw(u, &t->help);
	refresh();
}

void
tui_set_job(struct tui *t, bool on)
{
	if (t != NULL)
		t->has_job = on;
}

void
tui_keep_frame(struct tui *t)
{
	if (t != NULL)
		t->keep = true;
}

void
tui_close(struct tui *t)
{
	if (t == NULL)
		return;
	if (t->open && t->keep)
		screen_close_keep(&t->u);
	else if (t->open)
		screen_close(&t->u);
	t->open = false;
}

void
tui_free(struct tui *t)
{
	int v;

	if (t == NULL)
		return;
	tui_close(t);
	for (v = 0; v < VIEW_ALL; v++)
		view_free(t->views[v]);
	free(t);
}
