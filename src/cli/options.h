/* options.h: the command line, parsed and checked once at start. Nothing
 * here touches the machine: values that need the topology (--cpus against
 * the CPUs present) are checked later by the loop. */
#ifndef HTTOP_OPTIONS_H
#define HTTOP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "machine/capid.h"
#include "run/conflict.h"
#include "out/batch.h"
#include "source/kinds.h"
#include "run/pacer.h"
#include "util/cpulist.h"
#include "util/errmsg.h"

#define OPT_SCENARIO_DEFAULT "demo"
#define OPT_REMOTE_HTTOP_DEFAULT "httop"   /* --remote-httop: the nodes' httop */
/* --version's copyright line: COPYING's first line. */
#define HTTOP_COPYRIGHT_YEARS "2026"
#define HTTOP_COPYRIGHT_HOLDER "the httop authors"
#define OPT_ITERATIONS_MAX 1000000000000ull  /* -n: 31700 years at -d 1 */
#define OPT_CHECK_SECONDS_DEFAULT 2.0
#define OPT_CHECK_SECONDS_MIN 0.2   /* 40 periods: the partial one is 2.5% at most */
#define OPT_CHECK_SECONDS_MAX 600.0

struct options {
	double delay;               /* -d, seconds */
	bool have_delay;            /* -d given: it overrides the settings file */
	long long iterations;       /* -n; -1: until stopped */
	bool batch;                 /* -b */
	bool align;                 /* --align: samples on the wall clock's grid of -d */
	enum out_format format;     /* --format */
	enum source_kind source;    /* --source, or implied by --replay/--sim/--demo */
	const char *replay;         /* --replay FILE */
	const char *topology;       /* --topology FILE or DIR */
	const char *cpuid;          /* --cpuid FILE */
	const char *msr_path;       /* --msr-path TEMPLATE */
	const char *scenario;       /* --sim SCENARIO */
	uint64_t seed;              /* --seed */
	bool have_cpus;
	struct cpulist cpus;        /* --cpus, as given (not yet widened to cores) */
	unsigned long long cpus_beyond; /* --cpus: the first CPU number no machine has, or 0 */
	bool force;                 /* --force */
	bool verbose;               /* -v: --source auto's reasons */
	bool restore;               /* --restore: put back what a killed httop left, exit */
	bool demo;                  /* --demo */
	pid_t *pids;                /* --pid, repeatable: the job's processes */
	size_t npids;
	const char *cgroup;         /* --cgroup: the job's cgroup v2 directory */
	const char *die_map;        /* --die-map FILE: a measured die layout */
	const char *sysfs_root;     /* --sysfs-root DIR: where CAPID6 is read (default /sys) */
	struct capid6_given capid6; /* --capid6 VALUE[,VALUE...] (n 0: not given) */
	bool have_msr_path;         /* --msr-path given: auto means the msr device */
	const char *msr_safe_path;  /* --msr-safe-path TEMPLATE */
	const char *msr_batch_path; /* --msr-batch-path FILE */
	bool have_msr_safe_path;    /* either of them given: auto starts with msr-safe */
	enum conflict_policy on_conflict;  /* --on-conflict (default report) */
	const char *textfile;       /* --textfile DIR: DIR/httop.prom for the node exporter */
	const char *host;           /* --host NAME: the host name the outputs give */
	const char *record;         /* --record FILE: write a trace while monitoring */
	bool record_compress;       /* --record-compress (or FILE ending in .gz): gzip */
	/* --check: prove the figures on this machine (httop(1), CHECK) */
	bool check;                 /* --check (or --check-case) */
	const char *check_case;     /* --check-case NAME: that case only */
	double check_seconds;       /* --seconds N: each case's interval */
	bool have_check_seconds;
	/* A Slurm job on this node, a command run from start to end. */
	bool job;                   /* --job [ID] given */
	const char *job_id;         /* --job ID; NULL: the only job on this node */
	/* Files other programs read. -o FILE: the batch output, --check's
	 * report, or a command's summary (and intervals with -b); "-" is
	 * standard output. Without a command it implies -b. */
	const char *output;
	enum out_level level;       /* --level: --format openmetrics (default thread) */
	enum out_level textfile_level; /* --textfile-level (default package) */
	bool have_level, have_textfile_level;
	char *const *command;       /* -- COMMAND [ARGS], NULL-terminated; NULL: none */
	/* Many nodes (httop(1), MANY NODES): one httop -b --format json per
	 * node, started through a transport, read and shown together. */
	const char *nodes;          /* --nodes LIST (Slurm's hostlist syntax) */
	bool all_nodes;             /* --all-nodes: the nodes of --job ID */
	const char *via;            /* --via ssh|srun|CMD (NULL: srun with --all-nodes, else ssh) */
	const char *remote_httop;   /* --remote-httop PATH (default "httop") */
	bool have_format;           /* --format given (many nodes: json by default) */
	bool compact;               /* --compact: json's cores and threads compact */
	/* A Slurm epilog's work (httop(1), JOBS): the job's whole-run JSON
	 * record turned into the compact form of Slurm's accounting. */
	const char *acct_record;    /* --acct-record FILE */
	const char *acct_merge;     /* --acct-merge TEXT: the AdminComment so far */
	/* The options given that the nodes' httop takes as they are: "--sim",
	 * "busy", "--cpus", "0-3", ... (httop.1, MANY NODES). */
	char **remote_args;
	size_t nremote_args;
	/* Not from the command line: main sets it. The environment the
	 * command and scontrol get: the user's as httop was started with it
	 * (a set-ID httop scrubs its own, privilege.h); NULL: httop's. */
	char *const *user_env;
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

#endif
