/* diemap.c: read a die map file (format: man/httop-diemap.5).
 *
 * One pass over the lines with a fixed buffer. Syntax is checked line by
 * line; what depends on lines that may come later (the grid, the
 * numbering) is checked for each core line as soon as both are known, and
 * at the end of the file for the rest, so messages still name the core's
 * own line. Every message is "FILE:LINE: what is wrong; what to write". */
#include "config.h"
#include "machine/diemap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/infile.h"
#include "util/textesc.h"
#include "util/xalloc.h"

#define DM_MAGIC       "httop-diemap"
#define DM_VERSION     1
#define DM_LINE_MAX    1023       /* bytes of a line, without LF / CRLF */
#define DM_MAX_TOKENS  (DM_MAX_COLS + 2)
#define DM_MAX_PACKAGE 255
#define DM_MAX_CORE_ID 65535
#define DM_MAX_CORES   8192       /* core lines in one file */
/* 8192 core lines and a grid are far below this, with comments. */
#define DM_MAX_SIZE    (4 * 1024 * 1024)

struct parser {
	struct diemap *d;
	const char *file;
	struct errmsg *e;
	unsigned line;               /* current line, 1-based */

	bool have_header;
	unsigned name_line, numbering_line, grid_line;   /* 0: not given */
	unsigned rows_given;
	unsigned cores_checked;      /* core lines validated so far */
	size_t cores_cap;
	unsigned slot_line[DM_MAX_SLOT + 1];  /* line a number was used on, 0: unused */
};

static int check_cores(struct parser *p);

/* "FILE:LINE: message" from a translated format. */
static int perr(struct parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
perr(struct parser *p, unsigned line, const char *fmt, ...)
{
	char msg[sizeof p->e->text];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return errmsg_set(p->e, "%s:%u: %s", p->file, line, msg);
}

/* A token fit for a message: at most 32 bytes of it, control bytes and
 * invalid UTF-8 as \xHH, so a binary file cannot write escape sequences to
 * the terminal. */
static const char *
tokq(const char *tok, char *out, size_t size)
{
	return text_quote(out, size, tok, 32);
}

/* A decimal number 0..max: digits only, no sign, no overflow.
 * 0 ok, -1 not a number, -2 too large. */
static int
parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		/* Keep counting digits after passing max, without overflow. */
		if (v <= max)
			v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > max)
		return -2;
	*out = v;
	return 0;
}

/* ---- reading lines ----------------------------------------------------- */

/* One line into buf (DM_LINE_MAX + 2 bytes), LF and a CR before it
 * removed. 1: a line; 0: end of file; -1: error (message set). */
static int
read_line(struct parser *p, FILE *fp, char *buf)
{
	size_t n = 0;
	int c;

	c = getc(fp);
	if (c == EOF) {
		if (ferror(fp))
			return perr(p, p->line + 1, _("cannot read: %s; give a readable text file"),
			    strerror(errno));
		return 0;
	}
	p->line++;
	for (; c != EOF && c != '\n'; c = getc(fp)) {
		if (c == '\0')
			return perr(p, p->line, _("the line holds a NUL byte; a die map is plain "
			    "text (is this the right file?)"));
		/* Room for DM_LINE_MAX bytes and a CR of a CRLF ending. */
		if (n == DM_LINE_MAX + 1)
			return perr(p, p->line, _("line longer than %d bytes; split it or shorten "
			    "the comment"), DM_LINE_MAX);
		buf[n++] = (char)c;
	}
	if (c == EOF && ferror(fp))
		return perr(p, p->line, _("cannot read: %s; give a readable text file"),
		    strerror(errno));
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	if (n > DM_LINE_MAX)
		return perr(p, p->line, _("line longer than %d bytes; split it or shorten "
		    "the comment"), DM_LINE_MAX);
	buf[n] = '\0';
	/* A UTF-8 byte order mark some editors write: not part of the text. */
	if (p->line == 1 && strncmp(buf, "\xef\xbb\xbf", 3) == 0)
		memmove(buf, buf + 3, n - 3 + 1);
	return 1;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Split in place on blanks and tabs. Returns the number of tokens, which
 * may exceed max: only the first max are stored. */
static unsigned
tokenize(char *s, char **tok, unsigned max)
{
	unsigned n = 0;

	for (;;) {
		while (is_blank(*s))
			s++;
		if (*s == '\0')
			return n;
		if (n < max)
			tok[n] = s;
		n++;
		while (*s != '\0' && !is_blank(*s))
			s++;
		if (*s == '\0')
			return n;
		*s++ = '\0';
	}
}

/* ---- the keywords ------------------------------------------------------ */

static int
do_header(struct parser *p, char **tok, unsigned ntok)
{
	char q[136];
	unsigned long v;

	if (strcmp(tok[0], DM_MAGIC) != 0)
		return perr(p, p->line, _("missing header: the first line that is not a "
		    "comment must be '%s %d', not '%s'"), DM_MAGIC, DM_VERSION,
		    tokq(tok[0], q, sizeof q));
	if (ntok != 2)
		return perr(p, p->line, _("the header takes one word, the version; write "
		    "'%s %d'"), DM_MAGIC, DM_VERSION);
	if (parse_uint(tok[1], 1000000, &v) != 0 || v != DM_VERSION)
		return perr(p, p->line, _("version %s is not supported; this httop reads "
		    "version %d"), tokq(tok[1], q, sizeof q), DM_VERSION);
	p->have_header = true;
	return 0;
}

/* name: the rest of the line, without the blanks around it. */
static int
do_name(struct parser *p, char *rest)
{
	size_t n;

	if (p->name_line != 0)
		return perr(p, p->line, _("second 'name' line (the first is line %u); give "
		    "the name once"), p->name_line);
	while (is_blank(*rest))
		rest++;
	n = strlen(rest);
	while (n > 0 && is_blank(rest[n - 1]))
		n--;
	if (n == 0)
		return perr(p, p->line, _("'name' without a name; write e.g. 'name Xeon "
		    "Platinum 8160 (XCC die)'"));
	if (n >= sizeof p->d->name)
		return perr(p, p->line, _("name longer than %zu bytes; shorten it"),
		    sizeof p->d->name - 1);
	memcpy(p->d->name, rest, n);
	p->d->name[n] = '\0';
	/* The view shows the name as it is: no escape sequence in it. */
	if (!text_is_clean(p->d->name)) {
		p->d->name[0] = '\0';
		return perr(p, p->line, _("the name holds a tab, a control character or bytes "
		    "that are not UTF-8; write it as plain text"));
	}
	p->name_line = p->line;
	return 0;
}

static int
do_numbering(struct parser *p, char **tok, unsigned ntok)
{
	char q[136];

	if (p->numbering_line != 0)
		return perr(p, p->line, _("second 'numbering' line (the first is line %u); "
		    "give it once"), p->numbering_line);
	if (ntok != 2)
		return perr(p, p->line, _("'numbering' takes one word; write 'numbering "
		    "capid6', 'numbering tile' or 'numbering core'"));
	if (strcmp(tok[1], "capid6") == 0)
		p->d->numbering = DM_NUM_CAPID6;
	else if (strcmp(tok[1], "tile") == 0)
		p->d->numbering = DM_NUM_TILE;
	else if (strcmp(tok[1], "core") == 0)
		p->d->numbering = DM_NUM_CORE;
	else
		return perr(p, p->line, _("unknown numbering '%s'; write capid6, tile or "
		    "core"), tokq(tok[1], q, sizeof q));
	p->numbering_line = p->line;
	return 0;
}

static int
do_grid(struct parser *p, char **tok, unsigned ntok)
{
	char q[136];
	unsigned long rows, cols;
	int r;

	if (p->grid_line != 0)
		return perr(p, p->line, _("second 'grid' line (the first is line %u); a map "
		    "has one grid"), p->grid_line);
	if (ntok != 3)
		return perr(p, p->line, _("'grid' takes two numbers; write 'grid ROWS "
		    "COLS', e.g. 'grid 5 6'"));
	r = parse_uint(tok[1], DM_MAX_ROWS, &rows);
	if (r == -1)
		return perr(p, p->line, _("grid rows '%s' is not a number; write 'grid ROWS "
		    "COLS'"), tokq(tok[1], q, sizeof q));
	if (r == -2 || rows == 0)
		return perr(p, p->line, _("grid too big or empty: %s rows; give 1 to %d"),
		    tokq(tok[1], q, sizeof q), DM_MAX_ROWS);
	r = parse_uint(tok[2], DM_MAX_COLS, &cols);
	if (r == -1)
		return perr(p, p->line, _("grid columns '%s' is not a number; write 'grid "
		    "ROWS COLS'"), tokq(tok[2], q, sizeof q));
	if (r == -2 || cols == 0)
		return perr(p, p->line, _("grid too big or empty: %s columns; give 1 to %d"),
		    tokq(tok[2], q, sizeof q), DM_MAX_COLS);
	p->d->rows = (unsigned)rows;
	p->d->cols = (unsigned)cols;
	p->d->pos = xcalloc(rows * cols, sizeof *p->d->pos);
	p->grid_line = p->line;
	p->rows_given = 0;
	return 0;
}

static int
do_row(struct parser *p, char **tok, unsigned ntok)
{
	struct diemap *d = p->d;
	struct dm_pos *row;
	char q[136];
	unsigned long v;
	unsigned i;
	int r;

	if (p->grid_line == 0)
		return perr(p, p->line, _("'row' before 'grid'; give 'grid ROWS COLS' "
		    "first"));
	if (p->rows_given == d->rows)
		return perr(p, p->line, _("too many rows: the grid (line %u) has %u; remove "
		    "this row or change the grid line"), p->grid_line, d->rows);
	if (ntok - 1 != d->cols)
		return perr(p, p->line, _("row has %u cells but the grid (line %u) has %u "
		    "columns; write one cell per column: a number, MC, IO or ."),
		    ntok - 1, p->grid_line, d->cols);
	row = d->pos + (size_t)p->rows_given * d->cols;
	for (i = 0; i < d->cols; i++) {
		const char *c = tok[i + 1];

		row[i].slot = -1;
		if (strcmp(c, ".") == 0) {
			row[i].kind = DM_EMPTY;
			continue;
		}
		if (strcmp(c, "MC") == 0) {
			row[i].kind = DM_MC;
			continue;
		}
		if (strcmp(c, "IO") == 0) {
			row[i].kind = DM_IO;
			continue;
		}
		r = parse_uint(c, DM_MAX_SLOT, &v);
		if (r == -1)
			return perr(p, p->line, _("bad cell '%s' (column %u); write a number "
			    "0..%d, MC, IO or ."), tokq(c, q, sizeof q), i, DM_MAX_SLOT);
		if (r == -2)
			return perr(p, p->line, _("number %s (column %u) too large; positions "
			    "are numbered 0..%d"), tokq(c, q, sizeof q), i, DM_MAX_SLOT);
		if (p->slot_line[v] != 0)
			return perr(p, p->line, _("number %lu used twice (first on line %u); "
			    "each position number may appear once"), v, p->slot_line[v]);
		p->slot_line[v] = p->line;
		row[i].kind = DM_TILE;
		row[i].slot = (int)v;
		d->ntiles++;
		if ((int)v > d->max_slot)
			d->max_slot = (int)v;
	}
	p->rows_given++;
	/* The grid is complete: core lines given before it can be checked. */
	return p->rows_given == d->rows ? check_cores(p) : 0;
}

/* Do two core lines' packages overlap? -1 is every package. */
static bool
same_package(int a, int b)
{
	return a == -1 || b == -1 || a == b;
}

/* Where a core line puts its core: the slot, or the CHA number offset past
 * every slot so the two never compare equal. */
static long
dm_place_key(const struct dm_core *c)
{
	return c->slot >= 0 ? c->slot : (long)DM_MAX_SLOT + 1 + c->cha;
}

/* Cores among the first n core lines at the same place as c, in the
 * package that holds most of them among those c's line covers: its own
 * package, or for an every-package line, any package. *pkg is set to that
 * package (-1: only every-package lines count). */
static unsigned
place_load(const struct diemap *d, unsigned n, const struct dm_core *c, int *pkg)
{
	unsigned per[DM_MAX_PACKAGE + 1] = { 0 };
	unsigned i, all = 0, most = 0;

	*pkg = c->package;
	for (i = 0; i < n; i++) {
		const struct dm_core *o = &d->cores[i];

		if (dm_place_key(o) != dm_place_key(c))
			continue;
		if (o->package == -1) {
			all++;
		} else if (++per[o->package] > most) {
			most = per[o->package];
			if (c->package == -1)
				*pkg = o->package;
		}
	}
	return all + (c->package == -1 ? most : per[c->package]);
}

/* Checks of core line i that need the grid and the numbering; earlier
 * lines are already checked. */
static int
check_core(struct parser *p, unsigned i)
{
	const struct diemap *d = p->d;
	const struct dm_core *c = &d->cores[i];
	unsigned j, limit, load, first = 0;
	int busy;
	char pk[24];

	if (c->package >= 0)
		snprintf(pk, sizeof pk, "%d:", c->package);
	else
		pk[0] = '\0';
	if (c->cha >= 0 && d->numbering != DM_NUM_CAPID6)
		return perr(p, c->line, _("'cha' in a map numbered by %s (line %u); CHA "
		    "numbers exist only with 'numbering capid6': write 'core %s%u slot N'"),
		    diemap_numbering_name(d->numbering), p->numbering_line, pk, c->core_id);
	if (c->slot >= 0 && diemap_find_slot(d, c->slot) < 0)
		return perr(p, c->line, _("core %s%u at slot %d, but the grid has no "
		    "position numbered %d; use a number of the grid"), pk, c->core_id,
		    c->slot, c->slot);
	for (j = 0; j < i; j++) {
		const struct dm_core *o = &d->cores[j];

		if (o->core_id == c->core_id && same_package(o->package, c->package))
			return perr(p, c->line, _("core %s%u given twice (also on line %u); "
			    "give each core once"), pk, c->core_id, o->line);
	}

	/* Xeon Phi: two cores per tile; elsewhere one core per position. */
	limit = d->numbering == DM_NUM_TILE ? 2 : 1;
	load = place_load(d, i, c, &busy);
	if (load < limit)
		return 0;
	/* Name the first line that fills the place in the busiest package. */
	for (j = 0; j < i; j++) {
		if (dm_place_key(&d->cores[j]) == dm_place_key(c) &&
		    same_package(d->cores[j].package, busy)) {
			first = d->cores[j].line;
			break;
		}
	}
	if (c->slot >= 0)
		return perr(p, c->line, _("slot %d already holds %u core(s) of the same "
		    "package (from line %u); at most %u per slot in a map numbered by %s"),
		    c->slot, load, first, limit, diemap_numbering_name(d->numbering));
	return perr(p, c->line, _("cha %d already holds a core of the same package "
	    "(from line %u); one core per CHA"), c->cha, first);
}

/* Check the core lines not checked yet, when grid and numbering are known. */
static int
check_cores(struct parser *p)
{
	if (p->numbering_line == 0 || p->grid_line == 0 || p->rows_given < p->d->rows)
		return 0;
	for (; p->cores_checked < p->d->ncores; p->cores_checked++) {
		if (check_core(p, p->cores_checked) != 0)
			return -1;
	}
	return 0;
}

/* core [P:]CORE_ID slot N | core [P:]CORE_ID cha N */
static int
do_core(struct parser *p, char **tok, unsigned ntok)
{
	struct diemap *d = p->d;
	struct dm_core c;
	char q[136], *id, *colon;
	unsigned long v;
	int r;

	if (ntok != 4 || (strcmp(tok[2], "slot") != 0 && strcmp(tok[2], "cha") != 0))
		return perr(p, p->line, _("a core line is 'core [PACKAGE:]CORE_ID slot N' "
		    "or 'core [PACKAGE:]CORE_ID cha N', e.g. 'core 0:5 slot 12'"));
	if (d->ncores == DM_MAX_CORES)
		return perr(p, p->line, _("more than %d core lines; a map places at most "
		    "that many cores"), DM_MAX_CORES);
	memset(&c, 0, sizeof c);
	c.line = p->line;
	c.package = -1;
	c.slot = -1;
	c.cha = -1;
	id = tok[1];
	colon = strchr(id, ':');
	if (colon != NULL) {
		*colon = '\0';
		r = parse_uint(id, DM_MAX_PACKAGE, &v);
		if (r != 0)
			return perr(p, p->line, _("bad package '%s'; write a package id "
			    "0..%d before the colon, or leave 'PACKAGE:' out for every "
			    "package"), tokq(id, q, sizeof q), DM_MAX_PACKAGE);
		c.package = (int)v;
		id = colon + 1;
	}
	r = parse_uint(id, DM_MAX_CORE_ID, &v);
	if (r != 0)
		return perr(p, p->line, _("bad core id '%s'; write a core id 0..%d (as in "
		    "/sys/devices/system/cpu/cpuN/topology/core_id)"), tokq(id, q, sizeof q),
		    DM_MAX_CORE_ID);
	c.core_id = (unsigned)v;
	r = parse_uint(tok[3], DM_MAX_SLOT, &v);
	if (r != 0)
		return perr(p, p->line, _("bad %s number '%s'; write a number 0..%d"),
		    tok[2], tokq(tok[3], q, sizeof q), DM_MAX_SLOT);
	if (strcmp(tok[2], "slot") == 0)
		c.slot = (int)v;
	else
		c.cha = (int)v;

	if (d->ncores == p->cores_cap) {
		p->cores_cap = p->cores_cap ? 2 * p->cores_cap : 16;
		d->cores = xreallocarray(d->cores, p->cores_cap, sizeof *d->cores);
	}
	d->cores[d->ncores++] = c;
	return check_cores(p);
}

static int
do_line(struct parser *p, char *buf)
{
	char *tok[DM_MAX_TOKENS], *s, *hash, q[40];
	unsigned ntok;

	hash = strchr(buf, '#');
	if (hash != NULL)
		*hash = '\0';
	for (s = buf; is_blank(*s); s++)
		;
	if (*s == '\0')
		return 0;

	/* name keeps its blanks, so it is taken before splitting. */
	if (p->have_header && strncmp(s, "name", 4) == 0 && (s[4] == '\0' || is_blank(s[4]))) {
		if (p->grid_line != 0 && p->rows_given < p->d->rows)
			goto short_grid;
		return do_name(p, s + 4);
	}
	ntok = tokenize(s, tok, DM_MAX_TOKENS);
	if (!p->have_header)
		return do_header(p, tok, ntok < DM_MAX_TOKENS ? ntok : DM_MAX_TOKENS);
	if (strcmp(tok[0], "row") == 0)
		return do_row(p, tok, ntok);
	if (p->grid_line != 0 && p->rows_given < p->d->rows)
		goto short_grid;
	if (strcmp(tok[0], "numbering") == 0)
		return do_numbering(p, tok, ntok) != 0 ? -1 : check_cores(p);
	if (strcmp(tok[0], "grid") == 0)
		return do_grid(p, tok, ntok);
	if (strcmp(tok[0], "core") == 0)
		return do_core(p, tok, ntok);
	if (strcmp(tok[0], DM_MAGIC) == 0)
		return perr(p, p->line, _("a second '%s' header; it belongs on the first "
		    "line only"), DM_MAGIC);
	return perr(p, p->line, _("unknown keyword '%s'; a line starts with name, "
	    "numbering, grid, row or core"), tokq(tok[0], q, sizeof q));

short_grid:
	return perr(p, p->line, _("too few rows: the grid (line %u) has %u rows but only "
	    "%u row lines follow it; give all rows right after the grid line"),
	    p->grid_line, p->d->rows, p->rows_given);
}

/* What must be there once the file has ended. */
static int
check_end(struct parser *p)
{
	if (p->line == 0)
		return errmsg_set(p->e, _("%s: empty file; a die map starts with the line "
		    "'%s %d' (see httop-diemap(5))"), p->file, DM_MAGIC, DM_VERSION);
	if (!p->have_header)
		return errmsg_set(p->e, _("%s: missing header: only comments and blank "
		    "lines; a die map starts with the line '%s %d'"), p->file, DM_MAGIC,
		    DM_VERSION);
	if (p->name_line == 0)
		return errmsg_set(p->e, _("%s: no 'name' line; add one, e.g. 'name Xeon "
		    "Platinum 8160 (XCC die)'"), p->file);
	if (p->numbering_line == 0)
		return errmsg_set(p->e, _("%s: no 'numbering' line; add 'numbering capid6', "
		    "'numbering tile' or 'numbering core'"), p->file);
	if (p->grid_line == 0)
		return errmsg_set(p->e, _("%s: no 'grid' line; add 'grid ROWS COLS' and one "
		    "'row' line per row"), p->file);
	if (p->rows_given < p->d->rows)
		return perr(p, p->grid_line, _("too few rows: the grid has %u rows but the "
		    "file ends after %u row lines; add the missing rows"), p->d->rows,
		    p->rows_given);
	return check_cores(p);
}

int
diemap_parse(struct diemap *d, const char *name, FILE *fp, struct errmsg *e)
{
	struct parser *p;
	char buf[DM_LINE_MAX + 2];
	int r;

	memset(d, 0, sizeof *d);
	d->max_slot = -1;
	snprintf(d->path, sizeof d->path, "%s", name);
	p = xcalloc(1, sizeof *p);
	p->d = d;
	p->file = name;
	p->e = e;
	while ((r = read_line(p, fp, buf)) == 1) {
		if (do_line(p, buf) != 0) {
			r = -1;
			break;
		}
	}
	if (r == 0)
		r = check_end(p);
	free(p);
	if (r != 0) {
		diemap_free(d);
		return -1;
	}
	return 0;
}

int
diemap_load(struct diemap *d, const char *path, struct errmsg *e)
{
	struct infile f;
	int r;

	memset(d, 0, sizeof *d);
	/* Lines are limited by the parser (DM_LINE_MAX, with its own message). */
	if (infile_open(&f, path, _("die map"), DM_MAX_SIZE, DM_LINE_MAX + 2, e) != 0) {
		if (errno != EINVAL)
			return errmsg_set(e, _("%s: cannot open the die map: %s; check the file "
			    "name (format: httop-diemap(5))"), path, strerror(errno));
		return -1;
	}
	r = diemap_parse(d, path, f.fp, e);
	infile_close(&f);
	return r;
}

void
diemap_free(struct diemap *d)
{
	free(d->pos);
	free(d->cores);
	memset(d, 0, sizeof *d);
}

int
diemap_find_slot(const struct diemap *d, int slot)
{
	size_t i, n;

	if (d->pos == NULL || slot < 0 || slot > d->max_slot)
		return -1;
	n = (size_t)d->rows * d->cols;
	for (i = 0; i < n; i++) {
		if (d->pos[i].kind == DM_TILE && d->pos[i].slot == slot)
			return (int)i;
	}
	return -1;
}

const char *
diemap_numbering_name(enum dm_numbering n)
{
	switch (n) {
	case DM_NUM_CAPID6: return "capid6";
	case DM_NUM_TILE: return "tile";
	case DM_NUM_CORE: return "core";
	}
	return "?";
}
