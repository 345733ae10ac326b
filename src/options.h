/* options.h: the command line, parsed and checked once at start. Nothing
 * here touches the machine: values that need the topology (--cpus against
 * the CPUs present) are checked later by the loop. */
#ifndef HTTOP_OPTIONS_H
#define HTTOP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "out/batch.h"
#include "util/cpulist.h"
#include "util/errmsg.h"

enum source_kind {
	SRC_AUTO = 0,   /* msr on the live machine, with advice when it fails */
	SRC_MSR,
	SRC_SIM,
	SRC_REPLAY,
};

#define OPT_DELAY_MIN 0.05          /* seconds: below this the IPIs dominate */
#define OPT_DELAY_MAX 86400.0
#define OPT_MSR_PATH_DEFAULT "/dev/cpu/%u/msr"
#define OPT_SCENARIO_DEFAULT "demo"

struct options {
	double delay;               /* -d, seconds */
	bool have_delay;            /* -d given: it overrides the settings file */
	long long iterations;       /* -n; -1: until stopped */
	bool batch;                 /* -b */
	enum out_format format;     /* --format */
	enum source_kind source;    /* --source, or implied by --replay/--sim/--demo */
	const char *replay;         /* --replay FILE */
	const char *topology;       /* --topology FILE */
	const char *cpuid;          /* --cpuid FILE */
	const char *msr_path;       /* --msr-path TEMPLATE */
	const char *scenario;       /* --sim SCENARIO */
	uint64_t seed;              /* --seed */
	bool have_cpus;
	struct cpulist cpus;        /* --cpus, as given (not yet widened to cores) */
	bool force;                 /* --force */
	bool demo;                  /* --demo */
	pid_t *pids;                /* --pid, repeatable: the job's processes */
	size_t npids;
	const char *cgroup;         /* --cgroup: the job's cgroup v2 directory */
	const char *die_map;        /* --die-map FILE: a measured die layout */
	const char *sysfs_root;     /* --sysfs-root DIR: where CAPID6 is read (default /sys) */
};

enum options_result {
	OPTS_RUN = 0,    /* go on */
	OPTS_EXIT = 1,   /* --help or --version printed: exit 0 */
	OPTS_ERROR = -1, /* message in e: exit 2 */
};

/* Parse argv into *o. The message in e names the option and the fix. */
enum options_result options_parse(int argc, char **argv, struct options *o, struct errmsg *e);
void options_free(struct options *o);
void options_usage(FILE *fp);
const char *source_kind_name(enum source_kind k);

#endif
