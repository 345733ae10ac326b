/* kinds.h: the table of sources, one row each: the name --source takes,
 * its place in --source auto's order, what its figures mean, what it needs,
 * and the properties the rest of httop asks instead of comparing names.
 * --source's parsing, its --help text and error texts, the completion
 * (tests/cli/test_completion.sh checks it against --help) and auto's order
 * come from it; the openers are app/open.c's (app_open_source). */
#ifndef HTTOP_SOURCE_KINDS_H
#define HTTOP_SOURCE_KINDS_H

#include <stdbool.h>
#include <stddef.h>

enum source_kind {
	SRC_AUTO = 0,   /* the rows with an auto_step, in that order (app/open.c) */
	SRC_MSR,
	SRC_SIM,
	SRC_REPLAY,
	SRC_MSR_SAFE,   /* LLNL msr-safe: per-CPU devices and the batch device */
	SRC_PERF,       /* perf_event_open(2) */
	SRC_PROCSTAT,   /* /proc/stat: the kernel's busy time, no counters */
	SRC_SCHED,      /* the scheduler's context switches (no counters) */
	SRC_BPF,        /* the same counted in the kernel by an eBPF program */
	SRC_NKINDS
};

struct source_kind_row {
	enum source_kind kind;
	const char *name;        /* as --source takes it and the header shows it */
	unsigned auto_step;      /* its place in --source auto's order (1 first);
				  * 0: auto does not try it */
	bool this_machine;       /* reads the machine httop runs on (its die's
				  * CAPID6 is read from /sys) */
	bool msr_devices;        /* may read /dev/cpu/N/msr: opened before
				  * privilege is given up */
	bool writes_msrs;        /* may write MSRs: a saved-state file, and
				  * --restore goes with it */
	bool declares_topology;  /* --topology is a declaration about this
				  * machine (which CPUs share a core) */
	bool simulated;          /* the simulator: a scenario (default demo);
				  * --check's cases played at check_sim_ghz */
	bool trace;              /* reads --replay FILE, which brings its own
				  * machine and plan; --check has no cases there */
	const char *figures;     /* what its figures mean */
	const char *needs;       /* privilege, files */
};

/* The row of k (never NULL for a value of the enum). */
const struct source_kind_row *source_kind_row(enum source_kind k);
/* The rows in the order of --help; n gets their number. */
const struct source_kind_row *source_kind_rows(size_t *n);
/* The row of auto's step `step` (1 first), NULL past the last. */
const struct source_kind_row *source_kind_auto_step(unsigned step);
const char *source_kind_name(enum source_kind k);
/* 0 and *k, or -1 for a name no row has. */
int source_kind_parse(const char *s, enum source_kind *k);
/* Every name, "auto, msr, ... or replay" (translated joints). */
void source_kind_list(char *buf, size_t len);
/* Auto's steps from `step` on, "msr-safe, msr, ..., then procstat"; with
 * only_declaring just the steps that declare the topology, ", " between
 * them. */
void source_kind_auto_list(char *buf, size_t len, unsigned step, bool only_declaring);

#endif
