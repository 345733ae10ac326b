/* tui.c: the curses front end: keys in, frames out. It holds what the
 * user changes with keys (view, pause, job's cores or all, help) and
 * draws the header, the active view and the status line; the refresh
 * loop owns the counters and the figures. */
#include "config.h"
#include "ui/tui.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/header.h"
#include "ui/help.h"
#include "ui/screen.h"
#include "ui/settings.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* The smallest screen anything useful fits in. */
#define MIN_COLS 40
#define MIN_ROWS 10
/* How long a key's answer ("settings written to ...") stays. */
#define NOTE_SECONDS 5.0

struct tui {
	struct ui_ctx u;
	struct ui_settings *s;
	bool open;
	bool paused;
	bool help;
	bool job_only;
	bool replay;             /* the replay keys work */
	int speed;               /* TUI_SPEED_MIN .. TUI_SPEED_MAX */
	struct tui_replay_req req;
	struct header_tabs tabs;
	char key_note[640];      /* the answer to a key, for NOTE_SECONDS */
	double key_note_until;
	char note[640];          /* the loop's note, until replaced */
};

static double
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct view *
view_of(enum view_id id)
{
	switch (id) {
	case VIEW_CORES: return &view_cores;
	case VIEW_THREADS: return &view_threads;
	case VIEW_TOPOLOGY: return &view_topology;
	case VIEW_DIE: return &view_die;
	default: return NULL;
	}
}

struct tui *
tui_open(struct ui_settings *s, struct errmsg *e)
{
	struct tui *t = xcalloc(1, sizeof *t);

	t->s = s;
	t->job_only = true;
	if ((int)s->view < 0 || s->view >= VIEW_COUNT)
		s->view = VIEW_CORES;
	if (screen_open(&t->u, s, e) != 0) {
		free(t);
		return NULL;
	}
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

bool
tui_job_only(const struct tui *t)
{
	return t->job_only;
}

void
tui_set_replay(struct tui *t, bool replay)
{
	t->replay = replay;
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
	t->key_note_until = mono_now() + NOTE_SECONDS;
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
	t->s->view = (enum view_id)v;
	return TUI_REDRAW;
}

static enum tui_cmd
change_delay(struct tui *t, double factor)
{
	double d = t->s->delay * factor;
	char msg[96];

	if (d < UI_DELAY_MIN)
		d = UI_DELAY_MIN;
	if (d > UI_DELAY_MAX)
		d = UI_DELAY_MAX;
	if (d == t->s->delay) {
		snprintf(msg, sizeof msg, _("the interval is already at its %s (%g s)"),
		    factor < 1.0 ? _("minimum") : _("maximum"), d);
		key_note(t, msg);
		return TUI_REDRAW;
	}
	t->s->delay = d;
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
		return TUI_SPEED;
	}
}

static enum tui_cmd
mouse(struct tui *t)
{
	MEVENT ev;
	int v;

	if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return TUI_NONE;
	v = header_tab_at(&t->tabs, ev.y, ev.x);
	return v >= 0 ? set_view(t, v) : TUI_NONE;
}

static enum tui_cmd
key(struct tui *t, int ch)
{
	struct ui_settings *s = t->s;
	struct view *v = view_of(s->view);

	if (ch == KEY_RESIZE) {
		screen_resize(&t->u);
		return TUI_REDRAW;
	}
	if (t->help && ch != KEY_MOUSE) {
		t->help = false;    /* any key closes the help */
		return TUI_REDRAW;
	}
	switch (ch) {
	case 'q':
	case 'Q':
		return TUI_QUIT;
	case '\t':
		return set_view(t, ((int)s->view + 1) % VIEW_COUNT);
	case KEY_BTAB:
		return set_view(t, ((int)s->view + VIEW_COUNT - 1) % VIEW_COUNT);
	case '1': case '2': case '3': case '4':
		return set_view(t, ch - '1');
	case 'p':
	case ' ':
		t->paused = !t->paused;
		return TUI_PAUSE;
	case '+':
	case '=':
		return change_delay(t, 2.0);
	case '-':
	case '_':
		return change_delay(t, 0.5);
	case '.':
	case 'n':
	case '>':
	case '<':
	case '[':
	case ']':
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
		t->job_only = !t->job_only;
		return TUI_JOB;
	case 'w':
		write_settings(t);
		return TUI_REDRAW;
	case 'h':
	case '?':
	case KEY_F(1):
		t->help = true;
		return TUI_REDRAW;
	case 12:     /* Ctrl-L */
		screen_repaint(&t->u);
		return TUI_REDRAW;
	case KEY_MOUSE:
		return mouse(t);
	default:
		break;
	}
	if (v != NULL && v->key != NULL && v->key(v, &t->u, ch, s))
		return TUI_REDRAW;
	if (ch == 's' || ch == 'S') {
		key_note(t, _("sorting applies to the Threads view (key 2)"));
		return TUI_REDRAW;
	}
	return TUI_NONE;
}

enum tui_cmd
tui_input(struct tui *t)
{
	enum tui_cmd cmd = TUI_NONE;
	int ch;

	if (!t->open)
		return TUI_NONE;
	while ((ch = getch()) != ERR) {
		cmd = stronger(cmd, key(t, ch));
		if (cmd == TUI_QUIT)
			break;
	}
	return cmd;
}

static void
status_line(struct tui *t, const struct ui_frame *f)
{
	struct ui_ctx *u = &t->u;
	int y = u->rows - 1, x = 0, w;
	const char *hint = t->replay ?
	    _("p pause  . step  <> speed  [] start/end  h help  q quit") :
	    _("Tab view  p pause  +- interval  a window  h help  q quit");
	int hlen = (int)strlen(hint);
	char text[700];

	draw_text(u, y, 0, u->cols, ROLE_PLAIN, "");
	if (f->iv != NULL && !f->iv->valid && f->iv->reason[0] != '\0') {
		snprintf(text, sizeof text, _("invalid: %s  "), f->iv->reason);
		w = (int)strlen(text);
		draw_text(u, y, x, w < u->cols ? w : u->cols, ROLE_INVALID, text);
		x += w;
	}
	if (t->key_note[0] != '\0' && mono_now() < t->key_note_until) {
		snprintf(text, sizeof text, "%s  ", t->key_note);
		w = (int)strlen(text);
		if (x < u->cols)
			draw_text(u, y, x, w < u->cols - x ? w : u->cols - x, ROLE_WARN, text);
		x += w;
	}
	if (t->note[0] != '\0') {
		snprintf(text, sizeof text, "%s  ", t->note);
		w = (int)strlen(text);
		if (x < u->cols)
			draw_text(u, y, x, w < u->cols - x ? w : u->cols - x, ROLE_WARN, text);
		x += w;
	}
	if (f->paused && x < u->cols) {
		snprintf(text, sizeof text, "%s  ", _("paused: p resumes"));
		w = (int)strlen(text);
		draw_text(u, y, x, w < u->cols - x ? w : u->cols - x, ROLE_WARN, text);
		x += w;
	}
	if (x + hlen < u->cols)
		draw_text(u, y, u->cols - hlen, hlen, ROLE_LABEL, hint);
}

static void
not_available(struct tui *t, const struct ui_area *a)
{
	char text[128];

	snprintf(text, sizeof text, _("%s: not available yet"),
	    header_view_name(t->s->view));
	draw_text(&t->u, a->top + a->rows / 2, a->left + 2, a->cols - 2, ROLE_INVALID, text);
}

/* `s` from the top left, broken at blanks into lines of the screen's
 * width, as many lines as there are rows: the request for more room must
 * be readable in a 20 x 5 pane. */
static void
draw_wrapped(struct ui_ctx *u, enum ui_role r, const char *s)
{
	char line[256];
	int row = 0;
	size_t n;

	while (*s == ' ')
		s++;
	while (*s != '\0' && row < u->rows) {
		n = text_line_len(s, u->cols);
		snprintf(line, sizeof line, "%.*s", (int)n, s);
		draw_text(u, row++, 0, u->cols, r, line);
		s += n;
		while (*s == ' ')
			s++;
	}
}

void
tui_draw(struct tui *t, const struct ui_frame *f)
{
	struct ui_ctx *u = &t->u;
	struct ui_area a;
	struct view *v;
	int h;

	if (!t->open)
		return;
	/* Draw into the virtual screen from blank; refresh() then sends only
	 * the cells that differ from what the terminal shows. */
	erase();
	if (u->cols < MIN_COLS || u->rows < MIN_ROWS) {
		char text[96];

		snprintf(text, sizeof text, _("httop needs at least %d x %d (now %d x %d)"),
		    MIN_COLS, MIN_ROWS, u->cols, u->rows);
		draw_wrapped(u, ROLE_WARN, text);
		refresh();
		return;
	}
	h = header_draw(u, f, t->s->view, &t->tabs);
	a.top = h;
	a.left = 0;
	a.rows = u->rows - h - 1;
	a.cols = u->cols;
	v = view_of(t->s->view);
	if (v == NULL || v->draw == NULL)
		not_available(t, &a);
	else if (a.rows > 0)
		v->draw(v, u, &a, f);
	status_line(t, f);
	if (t->help)
		help_draw(u);
	refresh();
}

void
tui_close(struct tui *t)
{
	if (t == NULL)
		return;
	if (t->open)
		screen_close(&t->u);
	t->open = false;
}

void
tui_free(struct tui *t)
{
	tui_close(t);
	free(t);
}
