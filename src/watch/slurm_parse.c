/* slurm_parse.c: what scontrol prints, read into structs (slurm.h). No
 * shell, no locale: scontrol's output is ASCII keys and values. Nothing is
 * trusted beyond its syntax: the values are copied bounded, and a job's
 * name, which its owner chooses, is only ever shown (escaped). */
#include "config.h"
#include "watch/slurm.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"

long
slurm_parse_duration(const char *s)
{
	long part[4], days = 0;
	unsigned n = 0;
	char *end;

	/* [D-]HH:MM:SS, or MM:SS */
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	part[0] = strtol(s, &end, 10);
	if (*end == '-') {
		days = part[0];
		s = end + 1;
		if (!isdigit((unsigned char)*s))
			return -1;
		part[0] = strtol(s, &end, 10);
	}
	n = 1;
	while (*end == ':' && n < 3) {
		s = end + 1;
		if (!isdigit((unsigned char)*s))
			return -1;
		part[n++] = strtol(s, &end, 10);
	}
	if (errno != 0 || (*end != '\0' && !isspace((unsigned char)*end)) || n < 2 ||
	    days > 100000 || part[0] > 100000)
		return -1;
	if (n == 2)
		return days * 86400 + part[0] * 60 + part[1];
	return days * 86400 + part[0] * 3600 + part[1] * 60 + part[2];
}

/* Copy the value (len bytes at v) into dst, bounded. */
static void
copy(char *dst, size_t size, const char *v, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, v, len);
	dst[len] = '\0';
}

/* "alice(1234)" -> alice, 1234; "(null)(1234)" keeps "(null)". */
static void
set_user(struct slurm_job *j, const char *v, size_t len)
{
	const char *open = NULL;
	size_t i;

	for (i = 0; i < len; i++)
		if (v[i] == '(')
			open = v + i;
	j->uid = -1;
	if (open != NULL && len > 0 && v[len - 1] == ')' && isdigit((unsigned char)open[1])) {
		char num[24];

		copy(num, sizeof num, open + 1, (size_t)(v + len - 1 - (open + 1)));
		j->uid = strtol(num, NULL, 10);
		len = (size_t)(open - v);
	}
	copy(j->user, sizeof j->user, v, len);
}

/* Which of the keys of one job this is, and what to do with its value.
 * Only the first of each counts: a later one is in another field's text. */
enum key { K_JOBID, K_ARRAY_JOB, K_ARRAY_TASK, K_NAME, K_USER, K_STATE, K_RUNTIME,
	K_NODES, K_NKEYS };

static const char *const key_names[K_NKEYS] = {
	"JobId", "ArrayJobId", "ArrayTaskId", "JobName", "UserId", "JobState", "RunTime",
	"NodeList",
};

struct parse {
	const char *text;          /* what is parsed (for nodes_at) */
	struct slurm_job *j;
	bool seen[K_NKEYS];
	char array_job[SLURM_ID_MAX], array_task[SLURM_ID_MAX];
};

static void
set_key(struct parse *p, enum key k, const char *v, size_t len)
{
	char tmp[32];

	if (p->seen[k])
		return;
	p->seen[k] = true;
	switch (k) {
	case K_JOBID: copy(p->j->id, sizeof p->j->id, v, len); break;
	case K_ARRAY_JOB: copy(p->array_job, sizeof p->array_job, v, len); break;
	case K_ARRAY_TASK: copy(p->array_task, sizeof p->array_task, v, len); break;
	case K_NAME: copy(p->j->name, sizeof p->j->name, v, len); break;
	case K_USER: set_user(p->j, v, len); break;
	case K_STATE: copy(p->j->state, sizeof p->j->state, v, len); break;
	case K_RUNTIME:
		copy(tmp, sizeof tmp, v, len);
		p->j->runtime = slurm_parse_duration(tmp);
		break;
	case K_NODES:
		copy(p->j->nodes, sizeof p->j->nodes, v, len);
		p->j->nodes_at = (size_t)(v - p->text);
		p->j->nodes_len = len;
		break;
	case K_NKEYS: break;
	}
}

/* One line of a job's description: KEY=VALUE words; JobName's value is
 * the rest of its line (a name may hold blanks, and it ends the line). */
static void
parse_line(struct parse *p, const char *s, const char *eol)
{
	while (s < eol) {
		const char *eq, *end;
		size_t klen;
		int k;

		while (s < eol && isspace((unsigned char)*s))
			s++;
		end = s;
		while (end < eol && !isspace((unsigned char)*end))
			end++;
		eq = memchr(s, '=', (size_t)(end - s));
		if (eq != NULL) {
			klen = (size_t)(eq - s);
			for (k = 0; k < K_NKEYS; k++)
				if (strlen(key_names[k]) == klen && memcmp(s, key_names[k], klen) == 0)
					break;
			if (k == K_NAME) {
				end = eol;
				while (end > eq + 1 && isspace((unsigned char)end[-1]))
					end--;
			}
			if (k < K_NKEYS)
				set_key(p, (enum key)k, eq + 1, (size_t)(end - (eq + 1)));
			if (k == K_NAME)
				return;
		}
		s = end;
	}
}

/* The job after its last line: what the user calls it. */
static void
finish(struct parse *p)
{
	struct slurm_job *j = p->j;

	if (p->array_task[0] != '\0' && p->array_job[0] != '\0' &&
	    strcmp(p->array_task, "N/A") != 0)
		snprintf(j->shown, sizeof j->shown, "%.15s_%.15s", p->array_job, p->array_task);
	else
		snprintf(j->shown, sizeof j->shown, "%s", j->id);
}

int
slurm_parse_show_job(const char *text, struct slurm_job *jobs, size_t max, struct errmsg *e)
{
	struct slurm_job scratch;
	struct parse p;
	const char *s = text, *eol;
	int n = 0;

	memset(&p, 0, sizeof p);
	while (*s != '\0') {
		eol = strchr(s, '\n');
		if (eol == NULL)
			eol = s + strlen(s);
		/* A job starts at a line that begins with "JobId=". */
		if (strncmp(s, "JobId=", 6) == 0) {
			if (n > 0)
				finish(&p);
			memset(&p, 0, sizeof p);
			p.text = text;
			p.j = (size_t)n < max ? &jobs[n] : &scratch;
			memset(p.j, 0, sizeof *p.j);
			p.j->uid = -1;
			p.j->runtime = -1;
			if (n == INT_MAX)
				break;
			n++;
		}
		if (p.j != NULL)
			parse_line(&p, s, eol);
		s = *eol == '\n' ? eol + 1 : eol;
	}
	if (n == 0)
		return errmsg_set(e, _("scontrol show job printed no job (no line starting with "
		    "JobId=)"));
	finish(&p);
	return n;
}

/* "  30615    3        batch ..." -> pid, job; false if not such a row. */
static bool
parse_row(const char *s, const char *eol, struct slurm_pid *row)
{
	const char *t;
	long v;
	char *end;

	while (s < eol && isspace((unsigned char)*s))
		s++;
	if (s == eol || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || v <= 0 || v > INT_MAX || end >= eol || !isspace((unsigned char)*end))
		return false;
	row->pid = (pid_t)v;
	s = end;
	while (s < eol && isspace((unsigned char)*s))
		s++;
	for (t = s; t < eol && !isspace((unsigned char)*t); t++)
		if (!isdigit((unsigned char)*t) && *t != '_' && *t != '+')
			return false;
	if (t == s || (size_t)(t - s) >= sizeof row->job)
		return false;
	copy(row->job, sizeof row->job, s, (size_t)(t - s));
	return true;
}

struct slurm_pid *
slurm_parse_listpids(const char *text, size_t *n, struct errmsg *e)
{
	struct slurm_pid *rows = NULL;
	const char *s = text, *eol;
	size_t cap = 0;
	bool header = false;

	*n = 0;
	e->text[0] = '\0';
	for (; *s != '\0'; s = *eol == '\n' ? eol + 1 : eol) {
		eol = strchr(s, '\n');
		if (eol == NULL)
			eol = s + strlen(s);
		if (!header) {
			while (s < eol && isspace((unsigned char)*s))
				s++;
			if (s == eol)
				continue;
			if (strncmp(s, "PID", 3) != 0 || !isspace((unsigned char)s[3]))
				break;
			header = true;
			continue;
		}
		if (eol == s)
			continue;
		if (*n == cap) {
			cap = cap > 0 ? 2 * cap : 16;
			rows = xreallocarray(rows, cap, sizeof *rows);
		}
		if (!parse_row(s, eol, &rows[*n])) {
			char line[64], shown[256];

			copy(line, sizeof line, s, (size_t)(eol - s));
			errmsg_set(e, _("scontrol listpids printed an unexpected line: %s"),
			    text_escape(shown, sizeof shown, line));
			free(rows);
			*n = 0;
			return NULL;
		}
		(*n)++;
	}
	if (!header) {
		errmsg_set(e, _("scontrol listpids printed no PID/JOBID header"));
		free(rows);
		*n = 0;
		return NULL;
	}
	return rows;
}
