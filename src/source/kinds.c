/* kinds.c: the table of sources (kinds.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "source/kinds.h"
#include "util/i18n.h"

/* In the order of --help. A new source is a row here, its opener in
 * app/open.c and its folder in src/source/ (HACKING.md, "Adding a
 * source"). */
static const struct source_kind_row rows[] = {
	{ SRC_AUTO, "auto", 0, true, true, true, false, false, false,
	    "those of the first source in auto's order that opens",
	    "what that source needs" },
	{ SRC_MSR, "msr", 2, true, true, true, false, false, false,
	    "the core's PMU counters, AnyThread where the plan has it: exact",
	    "the msr module, root or CAP_SYS_RAWIO (/dev/cpu/N/msr)" },
	{ SRC_MSR_SAFE, "msr-safe", 1, true, false, true, false, false, false,
	    "the same counters through LLNL msr-safe's allowlist",
	    "msr-safe loaded, its allowlist naming the plan's MSRs" },
	{ SRC_PERF, "perf", 3, true, false, false, false, false, false,
	    "generic and raw perf events per CPU; no AnyThread without privilege",
	    "hardware perf events, perf_event_paranoid or CAP_PERFMON" },
	{ SRC_BPF, "bpf", 4, true, false, false, true, false, false,
	    "the same as sched, counted in the kernel at each switch (eBPF): exact, none lost",
	    "CAP_BPF and CAP_PERFMON or root, a kernel with BTF, httop built with it" },
	{ SRC_SCHED, "sched", 5, true, false, false, true, false, false,
	    "the time each CPU ran a task, from context switches: exact, no counters",
	    "CPU-wide perf events: perf_event_paranoid <= 0, CAP_PERFMON or root" },
	{ SRC_PROCSTAT, "procstat", 6, true, false, false, true, false, false,
	    "busy time from the kernel's tick accounting: the split a bound",
	    "a readable /proc/stat" },
	{ SRC_SIM, "sim", 0, false, false, false, false, true, false,
	    "the simulator's counters for a scenario on this or a described machine",
	    "nothing" },
	{ SRC_REPLAY, "replay", 0, false, false, false, false, false, true,
	    "those of the recorded run",
	    "a trace (--replay FILE)" },
};

#define NROWS (sizeof rows / sizeof rows[0])
_Static_assert(NROWS == SRC_NKINDS, "a row for every source kind");

const struct source_kind_row *
source_kind_row(enum source_kind k)
{
	size_t i;

	for (i = 0; i < NROWS; i++) {
		if (rows[i].kind == k)
			return &rows[i];
	}
	return &rows[0];
}

const struct source_kind_row *
source_kind_rows(size_t *n)
{
	*n = NROWS;
	return rows;
}

const struct source_kind_row *
source_kind_auto_step(unsigned step)
{
	size_t i;

	for (i = 0; step > 0 && i < NROWS; i++) {
		if (rows[i].auto_step == step)
			return &rows[i];
	}
	return NULL;
}

const char *
source_kind_name(enum source_kind k)
{
	return source_kind_row(k)->name;
}

int
source_kind_parse(const char *s, enum source_kind *k)
{
	size_t i;

	for (i = 0; i < NROWS; i++) {
		if (strcmp(s, rows[i].name) == 0) {
			*k = rows[i].kind;
			return 0;
		}
	}
	return -1;
}

/* Appends names[0..n) to buf: ", " between them, `last` before the last. */
static void
join(char *buf, size_t len, const char *const *names, size_t n, const char *last)
{
	size_t i, used;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", i == 0 ? "" : i + 1 == n ? last : ", ",
		    names[i]);
	}
}

void
source_kind_list(char *buf, size_t len)
{
	const char *names[NROWS];
	size_t i;

	for (i = 0; i < NROWS; i++)
		names[i] = rows[i].name;
	/* TRANSLATORS: before the last of a list of source names. */
	join(buf, len, names, NROWS, _(" or "));
}

void
source_kind_auto_list(char *buf, size_t len, unsigned step, bool only_declaring)
{
	const char *names[NROWS];
	const struct source_kind_row *r;
	size_t n = 0;

	for (; (r = source_kind_auto_step(step)) != NULL; step++) {
		if (!only_declaring || r->declares_topology)
			names[n++] = r->name;
	}
	/* TRANSLATORS: before the last step of --source auto's order. */
	join(buf, len, names, n, only_declaring ? ", " : _(", then "));
}
