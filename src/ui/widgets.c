/* widgets.c: text, figures and bars into curses' virtual screen. Most of
 * a frame's cells are bars and plain ASCII numbers, so both go in as
 * arrays of ready-made curses characters: no multibyte conversion, no
 * attribute change and no cursor step per cell. */
#include "config.h"
#include "ui/widgets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "util/textesc.h"
#include "util/xalloc.h"

/* Left blocks for a solid run that ends 1/8 to 7/8 into a cell. 1/8 is
 * drawn as 2/8: the left one-eighth block (U+258F) is the bar's right
 * edge (BAR_EDGE_RIGHT), and a bar at 1/8 drawn with it looked like an
 * empty bar's edge. A run that short still shows, an eighth too long. */
static const char *const eighth[8] = {
	"", "\u258e", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589",
};

/* --- text --------------------------------------------------------------- */

bool
widgets_plain(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return true;
}

/* Columns of a UTF-8 string; `*bytes` gets the bytes of the first `max`
 * columns. */
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

int
text_width(const char *s)
{
	size_t bytes;

	return text_columns(s, 1 << 20, &bytes);
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

/* `width` cells at (y, x): `pad` spaces, the first `bytes` bytes of s
 * (`cols` columns), spaces to the end; all in `attr`. Plain ASCII goes in
 * as one array of curses characters; anything else (UTF-8, control
 * characters) through addnstr. */
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

void
draw_text(struct ui_ctx *u, int y, int x, int width, enum ui_role r, const char *s)
{
	size_t bytes;
	int cols;
	char shown[1024];
	const unsigned char *p;

	if (x < 0 || y < 0 || x >= u->cols || y >= u->rows || width <= 0)
		return;
	if (x + width > u->cols)
		width = u->cols - x;
	for (p = (const unsigned char *)s; *p >= 0x20 && *p < 0x7f; p++)
		;
	if (*p != '\0' && !text_is_clean(s))
		s = text_escape(shown, sizeof shown, s);
	cols = text_columns(s, width, &bytes);
	put_field(y, x, width, 0, s, bytes, cols, screen_attr(u, r));
}

int
text_fit(char *dst, size_t len, const char *s, int width, bool utf8)
{
	const char *more = utf8 ? "\u2026" : "...";
	int w = text_width(s), mw = text_width(more);
	size_t n;

	if (len == 0)
		return 0;
	dst[0] = '\0';
	if (w <= width) {
		snprintf(dst, len, "%s", s);
		return w;
	}
	if (width <= mw)
		return 0;
	/* The words that fit before the ellipsis; none: nothing. */
	n = text_line_len(s, width - mw);
	if (s[n] != ' ' && s[n] != '\0') {
		while (n > 0 && s[n] != ' ')
			n--;
	}
	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n == 0)
		return 0;
	snprintf(dst, len, "%.*s%s", (int)n, s, more);
	return text_width(dst);
}

int
text_fit_forms(char *dst, size_t len, const char *forms, int width, bool utf8)
{
	char form[1024];
	const char *p = forms, *nl;

	while ((nl = strchr(p, '\n')) != NULL) {
		snprintf(form, sizeof form, "%.*s", (int)(nl - p), p);
		if (text_width(form) <= width)
			return text_fit(dst, len, form, width, utf8);
		p = nl + 1;
	}
	return text_fit(dst, len, p, width, utf8);
}

void
draw_words(struct ui_ctx *u, int y, int x, int width, enum ui_role r, const char *s)
{
	char text[1024];

	text_fit(text, sizeof text, s, width, u->utf8);
	draw_text(u, y, x, width, r, text);
}

int
val_text(char *buf, size_t len, const char *fmt, const struct val *v, double scale)
{
	char a[32], b[32];

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
	return text_width(buf);
}

void
draw_val(struct ui_ctx *u, int y, int x, int width, enum ui_role r, const char *fmt,
    const struct val *v, double scale)
{
	char text[72];
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
		cols = text_width(text);
		if (cols > width) {
			memset(text, '*', (size_t)width);
			text[width] = '\0';
			cols = width;
		}
	}
	pad = width - cols;
	if (x + width > u->cols)
		width = u->cols - x;
	if (width > 0 && y >= 0 && y < u->rows)
		put_field(y, x, width, pad, text, strlen(text), cols, screen_attr(u, r));
}

/* --- bars --------------------------------------------------------------- */

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

/* Cumulative edges in eighths of a cell: rounding the running sum, not
 * each part, keeps the parts adding up to the whole bar. The rest after
 * the n segments is ROLE_NEITHER. Returns the segments (n + 1). */
static int
bar_edges(int width, const enum ui_role *roles, const double *fracs, int n,
    int edge[BAR_MAX_SEGS + 2], enum ui_role role[BAR_MAX_SEGS + 1])
{
	long total = 8L * width;
	double cum = 0.0;
	int i;

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
	return n + 1;
}

void
bar_cells(const struct ui_ctx *u, int width, const enum ui_role *roles, const double *fracs,
    int n, struct bar_cell *out)
{
	int edge[BAR_MAX_SEGS + 2];
	enum ui_role role[BAR_MAX_SEGS + 1];
	int i, c, nseg;

	if (width <= 0)
		return;
	if (n > BAR_MAX_SEGS)
		n = BAR_MAX_SEGS;
	nseg = bar_edges(width, roles, fracs, n, edge, role);
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
 * attribute (a few dozen: the fills, the eighth blocks, the roles). The
 * attribute is part of the key because the c key and the colour count
 * change it. */
#define CELL_CACHE 96
struct ui_cache {
	struct cell_cc {
		const char *glyph;
		int attr;
		cchar_t cc;
	} cell[CELL_CACHE];
	int n;
	cchar_t spare;
};

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
cell_cc(struct ui_ctx *u, const struct bar_cell *c)
{
	struct ui_cache *k;
	int attr = screen_attr(u, c->role), i;

	if (u->cache == NULL)
		u->cache = xcalloc(1, sizeof *u->cache);
	k = u->cache;
	for (i = 0; i < k->n; i++)
		if (k->cell[i].glyph == c->glyph && k->cell[i].attr == attr)
			return &k->cell[i].cc;
	if (k->n == CELL_CACHE) {   /* not expected: make it each time */
		make_cc(&k->spare, c->glyph, attr);
		return &k->spare;
	}
	k->cell[k->n].glyph = c->glyph;
	k->cell[k->n].attr = attr;
	make_cc(&k->cell[k->n].cc, c->glyph, attr);
	return &k->cell[k->n++].cc;
}

void
widgets_forget(struct ui_ctx *u)
{
	free(u->cache);
	u->cache = NULL;
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
	/* Grey with colours, plain without: the edge is a frame, not data.
	 * Two cells of every row: made once, like a bar's. */
	enum ui_role r = screen_heat_colour(u) ? ROLE_INVALID : ROLE_PLAIN;
	struct bar_cell left = { u->utf8 ? BAR_EDGE_LEFT : "[", r };
	struct bar_cell right = { u->utf8 ? BAR_EDGE_RIGHT : "]", r };

	if (x > 0)
		draw_cells(u, y, x - 1, 1, &left);
	if (x + width < u->cols)
		draw_cells(u, y, x + width, 1, &right);
}

/* --- frames ------------------------------------------------------------- */

void
draw_box(struct ui_ctx *u, int top, int left, int h, int w, enum ui_role r)
{
	/* Box-drawing characters only where the terminal speaks UTF-8. */
	const char *hz = u->utf8 ? "\u2500" : "-", *vt = u->utf8 ? "\u2502" : "|";
	const char *c[4] = { "+", "+", "+", "+" };
	char line[512 * 3 + 1];
	int y, i, n = 0;

	if (h < 2 || w < 2)
		return;
	if (u->utf8) {
		c[0] = "\u250c";
		c[1] = "\u2510";
		c[2] = "\u2514";
		c[3] = "\u2518";
	}
	for (i = 1; i < w - 1 && n + 4 < (int)sizeof line; i++)
		n += snprintf(line + n, sizeof line - (size_t)n, "%s", hz);
	draw_text(u, top, left, 1, r, c[0]);
	draw_text(u, top, left + 1, w - 2, r, line);
	draw_text(u, top, left + w - 1, 1, r, c[1]);
	for (y = 1; y < h - 1; y++) {
		draw_text(u, top + y, left, 1, r, vt);
		draw_text(u, top + y, left + 1, w - 2, ROLE_PLAIN, "");
		draw_text(u, top + y, left + w - 1, 1, r, vt);
	}
	draw_text(u, top + h - 1, left, 1, r, c[2]);
	draw_text(u, top + h - 1, left + 1, w - 2, r, line);
	draw_text(u, top + h - 1, left + w - 1, 1, r, c[3]);
}
