/* procstat.c: per-CPU idle time from /proc/stat (procstat.h). The idle
 * and iowait columns are the kernel's own measure of the time the CPU had
 * nothing to run (exact to the tick with a tickless kernel); steal is the
 * time a hypervisor ran something else. Busy time is what is left of the
 * elapsed time, as the procstat source counts it, so the tick-sampled
 * user and system columns are not needed. */
#include "config.h"
#include "check/procstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

#define PROCSTAT_PATH "/proc/stat"

void
procstat_init(struct procstat *ps, unsigned max_cpu)
{
	memset(ps, 0, sizeof *ps);
	ps->n = max_cpu;
	ps->idle = xcalloc(max_cpu ? max_cpu : 1, sizeof *ps->idle);
	ps->steal = xcalloc(max_cpu ? max_cpu : 1, sizeof *ps->steal);
	ps->have = xcalloc(max_cpu ? max_cpu : 1, sizeof *ps->have);
}

void
procstat_free(struct procstat *ps)
{
	free(ps->idle);
	free(ps->steal);
	free(ps->have);
	memset(ps, 0, sizeof *ps);
}

/* One "cpuN user nice system idle iowait irq softirq steal ..." line;
 * kernels before 2.6.11 end after softirq (no steal: 0). */
static bool
parse_line(const char *line, struct procstat *ps)
{
	unsigned long long v[8] = { 0 };
	unsigned cpu;
	char *end;
	int i;

	if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
		return false;
	errno = 0;
	cpu = (unsigned)strtoul(line + 3, &end, 10);
	if (errno != 0 || *end != ' ' || cpu >= ps->n)
		return false;
	for (i = 0; i < 8; i++) {
		const char *p = end;

		v[i] = strtoull(p, &end, 10);
		if (end == p && i < 5)
			return false;
		if (end == p)
			break;
	}
	ps->steal[cpu] = v[7];
	ps->idle[cpu] = v[3] + v[4] + v[7];
	ps->have[cpu] = true;
	return true;
}

int
procstat_parse(const char *text, struct procstat *ps)
{
	const char *p = text;
	bool any = false;

	memset(ps->have, 0, (ps->n ? ps->n : 1) * sizeof *ps->have);
	while (p != NULL && *p != '\0') {
		if (parse_line(p, ps))
			any = true;
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return any ? 0 : -1;
}

int
procstat_read(struct procstat *ps, struct errmsg *e)
{
	/* A line per CPU of about 80 bytes, and the rest of the file. */
	size_t cap = 4096 + (size_t)ps->n * 160, len = 0, got;
	char *buf = xmalloc(cap);
	FILE *f = fopen(PROCSTAT_PATH, "re");
	int rc;

	if (f == NULL) {
		free(buf);
		return errmsg_set(e, _("cannot read %s: %s; the check needs /proc mounted"),
		    PROCSTAT_PATH, strerror(errno));
	}
	while ((got = fread(buf + len, 1, cap - 1 - len, f)) > 0) {
		len += got;
		if (len == cap - 1) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	fclose(f);
	buf[len] = '\0';
	ps->time = clock_mono();
	rc = procstat_parse(buf, ps);
	free(buf);
	if (rc != 0)
		return errmsg_set(e, _("%s has no per-CPU lines; the check needs them"), PROCSTAT_PATH);
	return 0;
}

double
procstat_busy(const struct procstat *a, const struct procstat *b, unsigned cpu, long hz)
{
	double dt = b->time - a->time, idle, busy;

	if (cpu >= a->n || cpu >= b->n || !a->have[cpu] || !b->have[cpu] || dt <= 0.0 || hz <= 0 ||
	    b->idle[cpu] < a->idle[cpu])
		return -1.0;
	idle = (double)(b->idle[cpu] - a->idle[cpu]) / (double)hz;
	busy = 1.0 - idle / dt;
	return busy < 0.0 ? 0.0 : busy > 1.0 ? 1.0 : busy;
}

double
procstat_steal(const struct procstat *a, const struct procstat *b, unsigned cpu, long hz)
{
	double dt = b->time - a->time, st;

	if (cpu >= a->n || cpu >= b->n || !a->have[cpu] || !b->have[cpu] || dt <= 0.0 || hz <= 0 ||
	    b->steal[cpu] < a->steal[cpu])
		return -1.0;
	st = (double)(b->steal[cpu] - a->steal[cpu]) / (double)hz / dt;
	return st > 1.0 ? 1.0 : st;
}

long
procstat_hz(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? hz : 100;
}
