/* flow.c: fields laid out in rows without cutting one. The layout is
 * greedy (a field goes on the current row if it fits, else on the next,
 * under the line's second field), and dropping is by importance alone: a
 * field that fits on no row goes first, then the least important fields,
 * the last added first among equals, until the rows fit the room. */
#include "config.h"
#include "ui/flow.h"

#include <stdio.h>
#include <string.h>

#include "ui/widgets.h"
#include "util/textesc.h"

/* Blanks between two fields, and between two words of one. */
#define GAP_FIELD 2
#define GAP_WORD 1

void
flow_init(struct flow *f)
{
	f->used = 0;
	f->nseg = f->nch = f->ngroups = 0;
	f->nlines = 1;
	f->full = false;
}

void
flow_line(struct flow *f)
{
	f->nlines++;
}

/* A new chunk of the current group; false when there is no room. */
static bool
new_chunk(struct flow *f, bool glue)
{
	struct flow_chunk *c;

	if (f->nch == FLOW_CHUNKS || f->ngroups == 0) {
		f->full = true;
		return false;
	}
	c = &f->ch[f->nch++];
	memset(c, 0, sizeof *c);
	c->seg0 = f->nseg;
	c->group = f->ngroups - 1;
	c->line = f->nlines - 1;
	c->glue = glue;
	c->row = -1;
	return true;
}

static bool
new_group(struct flow *f, int prio)
{
	if (f->ngroups == FLOW_GROUPS) {
		f->full = true;
		return false;
	}
	f->prio[f->ngroups] = prio;
	f->dropped[f->ngroups] = false;
	f->ngroups++;
	return true;
}

void
flow_field(struct flow *f, int prio)
{
	if (new_group(f, prio))
		new_chunk(f, false);
}

void
flow_piece(struct flow *f)
{
	new_chunk(f, true);
}

/* `n` bytes of s as a segment of the last chunk. */
static void
put_n(struct flow *f, enum ui_role r, const char *s, size_t n)
{
	struct flow_chunk *c;
	struct flow_seg *g;

	if (f->nch == 0 || f->nseg == FLOW_SEGS || f->used + n + 1 > sizeof f->text) {
		f->full = true;
		return;
	}
	c = &f->ch[f->nch - 1];
	g = &f->seg[f->nseg++];
	g->off = (unsigned)f->used;
	g->role = r;
	/* Anything but printable ASCII: what a terminal would act on is
	 * shown escaped (textesc.h), whoever put the text here. */
	if (widgets_plain(s, n)) {
		memcpy(f->text + f->used, s, n);
		f->text[f->used + n] = '\0';
	} else {
		text_escape_n(f->text + f->used, sizeof f->text - f->used, s, n);
		n = strlen(f->text + f->used);
	}
	f->used += n + 1;
	c->nseg++;
	c->width += text_width(f->text + g->off);
}

void
flow_put(struct flow *f, enum ui_role r, const char *s)
{
	put_n(f, r, s, strlen(s));
}

/* The words of s as chunks of the current group; the first glued to
 * what is before it unless `first`. */
static void
words(struct flow *f, enum ui_role r, const char *s, bool first)
{
	size_t n;

	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		n = strcspn(s, " ");
		if (!new_chunk(f, !first))
			return;
		put_n(f, r, s, n);
		first = false;
		s += n;
	}
}

void
flow_put_words(struct flow *f, enum ui_role r, const char *s)
{
	if (f->ngroups > 0)
		words(f, r, s, false);
}

void
flow_words(struct flow *f, int prio, enum ui_role r, const char *s)
{
	if (new_group(f, prio))
		words(f, r, s, true);
}

void
flow_phrase_words(struct flow *f, int prio, enum ui_role r, const char *s)
{
	const char *colon = strstr(s, ": ");
	size_t n = colon != NULL ? (size_t)(colon - s) + 1 : strlen(s);

	if (!new_group(f, prio) || !new_chunk(f, false))
		return;
	put_n(f, r, s, n);
	if (colon != NULL)
		words(f, r, colon + 2, false);
}

/* Place the chunks of the groups not dropped, from row 0. Returns the rows
 * used; a chunk wider than any row gets row -1 and sets *over. */
static int
place(struct flow *f, int cols, bool *over)
{
	int row = 0, x = 0, line = -1, line_row = 0, indent = -1, fields = 0, i;
	bool used = false;

	*over = false;
	for (i = 0; i < f->nch; i++) {
		struct flow_chunk *c = &f->ch[i];
		int sep;

		c->row = -1;
		if (f->dropped[c->group])
			continue;
		if (c->line != line) {
			if (used)
				row++;
			line = c->line;
			line_row = row;
			x = 0;
			used = false;
			indent = -1;
			fields = 0;
		}
		sep = used ? (c->glue ? GAP_WORD : GAP_FIELD) : 0;
		if (used && x + sep + c->width > cols) {
			/* On the next row, under the line's second field. */
			row++;
			x = indent >= 0 ? indent : GAP_FIELD;
			if (x + c->width > cols)
				x = 0;
			used = false;
			sep = 0;
		}
		if (x + sep + c->width > cols) {
			*over = true;
			continue;
		}
		c->row = row;
		c->x = x + sep;
		x = c->x + c->width;
		used = true;
		/* The hanging indent: where the second field starts, if on the
		 * line's first row and in the row's left half. */
		if (!c->glue && ++fields == 2 && c->row == line_row)
			indent = c->x <= cols / 2 ? c->x : GAP_FIELD;
	}
	return used ? row + 1 : row;
}

/* The group to drop next: the least important droppable one, the last of
 * equals; -1 if none. */
static int
victim(const struct flow *f)
{
	int g, best = -1;

	for (g = 0; g < f->ngroups; g++) {
		if (f->dropped[g] || f->prio[g] == FLOW_KEEP)
			continue;
		if (best < 0 || f->prio[g] >= f->prio[best])
			best = g;
	}
	return best;
}

int
flow_layout(struct flow *f, int cols, int max_rows)
{
	bool over;
	int rows, i, g;

	for (g = 0; g < f->ngroups; g++)
		f->dropped[g] = false;
	if (cols < 1 || max_rows < 1) {
		for (i = 0; i < f->nch; i++)
			f->ch[i].row = -1;
		return 0;
	}
	rows = place(f, cols, &over);
	/* What fits on no row cannot be shown whatever else goes. */
	if (over) {
		for (i = 0; i < f->nch; i++) {
			g = f->ch[i].group;
			if (f->ch[i].row < 0 && !f->dropped[g] && f->prio[g] != FLOW_KEEP)
				f->dropped[g] = true;
		}
		rows = place(f, cols, &over);
	}
	while (rows > max_rows && (g = victim(f)) >= 0) {
		f->dropped[g] = true;
		rows = place(f, cols, &over);
	}
	for (i = 0; i < f->nch; i++)
		if (f->ch[i].row >= max_rows)
			f->ch[i].row = -1;
	return rows < max_rows ? rows : max_rows;
}

void
flow_draw(const struct flow *f, struct ui_ctx *u, int top, int left)
{
	int i, s;

	for (i = 0; i < f->nch; i++) {
		const struct flow_chunk *c = &f->ch[i];
		int x = left + c->x;

		if (c->row < 0)
			continue;
		for (s = c->seg0; s < c->seg0 + c->nseg; s++) {
			const char *t = f->text + f->seg[s].off;
			int w = text_width(t);

			draw_text(u, top + c->row, x, w, f->seg[s].role, t);
			x += w;
		}
	}
}

void
flow_row_text(const struct flow *f, int row, char *buf, size_t len)
{
	size_t n = 0;
	int col = 0, i, s;

	buf[0] = '\0';
	for (i = 0; i < f->nch; i++) {
		const struct flow_chunk *c = &f->ch[i];

		if (c->row != row)
			continue;
		for (; col < c->x && n + 1 < len; col++)
			buf[n++] = ' ';
		for (s = c->seg0; s < c->seg0 + c->nseg; s++) {
			const char *t = f->text + f->seg[s].off;
			size_t tl = strlen(t);

			if (n + tl + 1 > len)
				break;
			memcpy(buf + n, t, tl);
			n += tl;
			col += text_width(t);
		}
		buf[n] = '\0';
	}
}
