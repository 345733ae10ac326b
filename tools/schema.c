/* schema.c: httop-schema TEMPLATE, the JSON Schema of --format json
 * (installed as httop.schema.json) made when httop is built: the template
 * (data/httop.schema.in.json: what is no figure) with each figure's
 * members put in from the table of figures (src/metrics/figures.c), so
 * that a figure added to the table is in the schema without an edit of
 * it. The template marks the places (it stays valid JSON):
 *
 *   "@figures@": "LEVEL"      the level's figures as members x, x_lo, x_hi
 *                             (a $ref by the row's kind, its description);
 *   "@absent@": "LEVEL"       the members of the level's "absent" object;
 *   "@required LEVEL@"        in a "required" list: the members of the
 *                             figures every httop writes (not the late ones);
 *   @list LEVEL@, @early LEVEL@, @late LEVEL@   in a string: the names of
 *                             the level's figures, all, before and after the
 *                             compact form's flags, ", " between them;
 *   "@min LEVEL N@", "@max LEVEL N@"   a number: the level's figures that
 *                             every line has (the early ones), or all of
 *                             them, plus N (the compact arrays' lengths).
 *
 * LEVEL is agg, core or thread. The output is indented as Python's
 * json.dumps(indent=1) writes it, as the template is. Prints the schema
 * on standard output; 1 with a message on a template it cannot read or a
 * mark it does not know. httop-schema --table prints the table as the
 * schema sees it instead, a line per figure and level in JSON order:
 * LEVEL NAME REF early|late (tests/cli/test_schema.sh compares them). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/figures.h"

static const char *const level_names[FIG_NLEVELS] = { "agg", "core", "thread" };

/* The level named at s (up to a blank, '@' or '"'), -1 for none; *end
 * past the name. */
static int
level_at(const char *s, const char **end)
{
	size_t n = strcspn(s, " @\"");
	int l;

	*end = s + n;
	for (l = 0; l < FIG_NLEVELS; l++)
		if (strlen(level_names[l]) == n && strncmp(s, level_names[l], n) == 0)
			return l;
	return -1;
}

static const char *
ref_of(const struct figure *f)
{
	switch (f->kind) {
	case FIG_SHARE: return "frac";
	case FIG_FRACTION: return "slots";
	default: return "rate";
	}
}

/* A JSON string: the table's texts are ASCII; quotes, backslashes and
 * control characters escaped all the same. */
static void
put_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(o, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(o, "\\u%04x", (unsigned)(unsigned char)*s);
		else
			fputc(*s, o);
	}
	fputc('"', o);
}

/* The row's description at level l: its desc, else the level's
 * OpenMetrics help. */
static void
put_desc(FILE *o, const struct figure *f, enum fig_level l)
{
	char buf[1024];
	const char *d = f->desc != NULL ? f->desc : f->at[l].help != NULL ? f->at[l].help : f->name;

	snprintf(buf, sizeof buf, "%s%s", d, f->late ?
	    "; missing in the lines of an httop older than it" : "");
	put_str(o, buf);
}

static void
put_member(FILE *o, int ind, const char *name, const struct figure *f, enum fig_level l,
    const char *bound)
{
	char buf[256];

	fprintf(o, "%*s\"%s\": {\n%*s\"$ref\": \"#/$defs/%s\",\n%*s\"description\": ", ind, "",
	    name, ind + 1, "", ref_of(f), ind + 1, "");
	if (bound == NULL) {
		put_desc(o, f, l);
	} else {
		snprintf(buf, sizeof buf, "%s bound of %s when it is only known as a bound, else null",
		    bound, f->name);
		put_str(o, buf);
	}
	fprintf(o, "\n%*s}", ind, "");
}

enum mark { M_FIGURES, M_ABSENT, M_REQUIRED };

/* The members (or list items) a line's mark stands for, ",\n" between
 * them, indented as the mark was. */
static void
put_mark(FILE *o, enum mark m, enum fig_level l, int ind)
{
	size_t n, i;
	const struct figure *const *fl = figures_of(l, FIG_JSON, &n);
	bool first = true;

	for (i = 0; i < n; i++) {
		const struct figure *f = fl[i];

		if (m == M_REQUIRED && f->late)
			continue;
		if (!first)
			fputs(",\n", o);
		first = false;
		if (m == M_FIGURES) {
			put_member(o, ind, f->name, f, l, NULL);
			fputs(",\n", o);
			put_member(o, ind, f->lo, f, l, "lower");
			fputs(",\n", o);
			put_member(o, ind, f->hi, f, l, "upper");
		} else if (m == M_ABSENT) {
			fprintf(o, "%*s\"%s\": {\n%*s\"type\": \"string\"\n%*s}", ind, "", f->name,
			    ind + 1, "", ind, "");
		} else {
			fprintf(o, "%*s\"%s\",\n%*s\"%s\",\n%*s\"%s\"", ind, "", f->name, ind, "",
			    f->lo, ind, "", f->hi);
		}
	}
}

/* The names of level l's figures: which 0 all, 1 the early, 2 the late. */
static void
put_names(FILE *o, enum fig_level l, int which)
{
	size_t n, i;
	const struct figure *const *fl = figures_of(l, FIG_JSON, &n);
	bool first = true;

	for (i = 0; i < n; i++) {
		if ((which == 1 && fl[i]->late) || (which == 2 && !fl[i]->late))
			continue;
		fprintf(o, "%s%s", first ? "" : ", ", fl[i]->name);
		first = false;
	}
	if (first)
		fputs("none", o);
}

static size_t
count_of(enum fig_level l, bool early_only)
{
	size_t n, i, k = 0;
	const struct figure *const *fl = figures_of(l, FIG_JSON, &n);

	for (i = 0; i < n; i++)
		k += !early_only || !fl[i]->late;
	return k;
}

/* One inline mark at s ("@list L@", ... or "\"@min L N@\""); the text
 * after it, NULL when s holds no mark it knows. */
static const char *
put_inline(FILE *o, const char *s)
{
	static const char *const words[] = { "@list ", "@early ", "@late ", "\"@min ", "\"@max " };
	const char *p, *end;
	unsigned w;
	int l;
	long add;

	for (w = 0; w < sizeof words / sizeof words[0]; w++)
		if (strncmp(s, words[w], strlen(words[w])) == 0)
			break;
	if (w == sizeof words / sizeof words[0])
		return NULL;
	l = level_at(s + strlen(words[w]), &p);
	if (l < 0)
		return NULL;
	if (w < 3) {
		if (*p != '@')
			return NULL;
		put_names(o, (enum fig_level)l, (int)w);
		return p + 1;
	}
	add = strtol(p, (char **)&end, 10);
	if (end == p || strncmp(end, "@\"", 2) != 0)
		return NULL;
	fprintf(o, "%zu", count_of((enum fig_level)l, w == 3) + (size_t)add);
	return end + 2;
}

/* A line of the template: a line's mark, else the text with its inline
 * marks replaced. -1 on a mark it does not know. */
static int
put_line(FILE *o, const char *line)
{
	static const struct { const char *pre; enum mark m; } marks[] = {
		{ "\"@figures@\": \"", M_FIGURES },
		{ "\"@absent@\": \"", M_ABSENT },
		{ "\"@required ", M_REQUIRED },
	};
	int ind = (int)strspn(line, " "), l;
	const char *s = line + ind, *p, *next;
	unsigned i;

	for (i = 0; i < sizeof marks / sizeof marks[0]; i++) {
		if (strncmp(s, marks[i].pre, strlen(marks[i].pre)) != 0)
			continue;
		l = level_at(s + strlen(marks[i].pre), &p);
		if (l < 0)
			return -1;
		put_mark(o, marks[i].m, (enum fig_level)l, ind);
		fputs(strchr(p, ',') != NULL ? ",\n" : "\n", o);
		return 0;
	}
	for (p = line; *p != '\0'; ) {
		if (*p == '@' || (*p == '"' && p[1] == '@')) {
			next = put_inline(o, p);
			if (next == NULL && *p == '@')
				return -1;
			if (next != NULL) {
				p = next;
				continue;
			}
		}
		fputc(*p++, o);
	}
	return 0;
}

static void
put_table(FILE *o)
{
	size_t n, i;
	int l;

	for (l = 0; l < FIG_NLEVELS; l++) {
		const struct figure *const *fl = figures_of((enum fig_level)l, FIG_JSON, &n);

		for (i = 0; i < n; i++)
			fprintf(o, "%s %s %s %s\n", level_names[l], fl[i]->name, ref_of(fl[i]),
			    fl[i]->late ? "late" : "early");
	}
}

int
main(int argc, char **argv)
{
	char line[8192];
	FILE *in;
	unsigned long n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: httop-schema data/httop.schema.in.json >httop.schema.json\n"
		    "       httop-schema --table\n");
		return 2;
	}
	if (strcmp(argv[1], "--table") == 0) {
		put_table(stdout);
		return fflush(stdout) != 0 || ferror(stdout);
	}
	in = fopen(argv[1], "r");
	if (in == NULL) {
		perror(argv[1]);
		return 1;
	}
	while (fgets(line, sizeof line, in) != NULL) {
		n++;
		if (strchr(line, '\n') == NULL && !feof(in)) {
			fprintf(stderr, "%s:%lu: line too long\n", argv[1], n);
			return 1;
		}
		if (put_line(stdout, line) < 0) {
			fprintf(stderr, "%s:%lu: a mark httop-schema does not know: %s", argv[1], n,
			    line);
			return 1;
		}
	}
	fclose(in);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("httop-schema: standard output");
		return 1;
	}
	return 0;
}
