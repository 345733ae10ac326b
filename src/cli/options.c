/* options.c: parse and check the command line. Every bad value ends in one
 * message naming the option and what to give instead (exit status 2). */
#include "config.h"
#include "options.h"
#include "source/msr/msr_io.h"
#include "source/msr/msr_safe.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/cases.h"
#include "util/hostname.h"
#include "sim/scenario.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Long-only options get codes above the char range. */
enum {
	OPT_FORMAT = 256,
	OPT_SOURCE,
	OPT_REPLAY,
	OPT_TOPOLOGY,
	OPT_CPUID,
	OPT_MSR_PATH,
	OPT_SIM,
	OPT_SEED,
	OPT_CPUS,
	OPT_FORCE,
	OPT_RESTORE,
	OPT_DEMO,
	OPT_PID,
	OPT_CGROUP,
	OPT_DIE_MAP,
	OPT_SYSFS_ROOT,
	OPT_CAPID6,
	OPT_MSR_SAFE_PATH,
	OPT_MSR_BATCH_PATH,
	OPT_ON_CONFLICT,
	OPT_TEXTFILE,
	OPT_HOST,
	OPT_RECORD,
	OPT_RECORD_COMPRESS,
	OPT_CHECK,
	OPT_CHECK_CASE,
	OPT_SECONDS,
	OPT_JOB,
	OPT_LEVEL,
	OPT_TEXTFILE_LEVEL,
	OPT_NODES,
	OPT_ALL_NODES,
	OPT_VIA,
	OPT_REMOTE_HTTOP,
	OPT_COMPACT,
	OPT_ACCT_RECORD,
	OPT_ACCT_MERGE,
	OPT_ACCT_CPU,
};

static const struct option long_opts[] = {
	{ "delay", required_argument, NULL, 'd' },
	{ "interval", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "batch", no_argument, NULL, 'b' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "cpuid", required_argument, NULL, OPT_CPUID },
	{ "msr-path", required_argument, NULL, OPT_MSR_PATH },
	{ "sim", required_argument, NULL, OPT_SIM },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "restore", no_argument, NULL, OPT_RESTORE },
	{ "demo", no_argument, NULL, OPT_DEMO },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "die-map", required_argument, NULL, OPT_DIE_MAP },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },
	{ "capid6", required_argument, NULL, OPT_CAPID6 },
	{ "msr-safe-path", required_argument, NULL, OPT_MSR_SAFE_PATH },
	{ "msr-batch-path", required_argument, NULL, OPT_MSR_BATCH_PATH },
	{ "on-conflict", required_argument, NULL, OPT_ON_CONFLICT },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "record-compress", no_argument, NULL, OPT_RECORD_COMPRESS },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "check-case", required_argument, NULL, OPT_CHECK_CASE },
	{ "seconds", required_argument, NULL, OPT_SECONDS },
	{ "job", optional_argument, NULL, OPT_JOB },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "all-nodes", no_argument, NULL, OPT_ALL_NODES },
	{ "via", required_argument, NULL, OPT_VIA },
	{ "remote-httop", required_argument, NULL, OPT_REMOTE_HTTOP },
	{ "compact", no_argument, NULL, OPT_COMPACT },
	{ "acct-record", required_argument, NULL, OPT_ACCT_RECORD },
	{ "acct-merge", required_argument, NULL, OPT_ACCT_MERGE },
	{ "acct-cpu", required_argument, NULL, OPT_ACCT_CPU },
	{ "output", required_argument, NULL, 'o' },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "textfile-level", required_argument, NULL, OPT_TEXTFILE_LEVEL },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const char *
source_kind_name(enum source_kind k)
{
	switch (k) {
	case SRC_AUTO: return "auto";
	case SRC_MSR: return "msr";
	case SRC_SIM: return "sim";
	case SRC_REPLAY: return "replay";
	case SRC_MSR_SAFE: return "msr-safe";
	case SRC_PERF: return "perf";
	case SRC_PROCSTAT: return "procstat";
	case SRC_SCHED: return "sched";
	}
	return "?";
}

static int
source_kind_parse(const char *s, enum source_kind *k)
{
	static const enum source_kind all[] = { SRC_AUTO, SRC_MSR, SRC_MSR_SAFE, SRC_PERF,
	    SRC_SCHED, SRC_PROCSTAT, SRC_SIM, SRC_REPLAY };
	size_t i;

	for (i = 0; i < sizeof all / sizeof all[0]; i++) {
		if (strcmp(s, source_kind_name(all[i])) == 0) {
			*k = all[i];
			return 0;
		}
	}
	return -1;
}

/* One entry per option: the option as typed (never translated) and what
 * it does (translated; lines of at most 54 columns, '\n' between them). */
static const struct {
	const char *opt;
	const char *what;
} usage_opts[] = {
	{ "-d, --delay SECS",
	    N_("refresh interval in seconds (default 1, minimum 0.05)") },
	{ "--interval SECS",
	    N_("the same as -d") },
	{ "-n, --iterations N",
	    N_("stop after N intervals (default: until stopped)") },
	{ "-b, --batch",
	    N_("write each interval to standard output, no screen") },
	{ "--format FMT",
	    N_("batch output format: text, csv, json, openmetrics or\nsummary (default text); implies -b") },
	{ "--textfile DIR",
	    N_("after every interval write DIR/httop.prom for the\nnode exporter's textfile collector") },
	{ "--textfile-level LEVEL",
	    N_("how far down --textfile goes: node, package, core or\nthread (default thread: every series)") },
	{ "--level LEVEL",
	    N_("the same for --format openmetrics") },
	{ "--host NAME",
	    N_("the host name the outputs give (default: the node's)") },
	{ "--source SRC",
	    N_("counter source: auto, msr, msr-safe, perf, sched,\nprocstat, sim or replay (default auto: msr-safe,\nmsr, perf, sched, then procstat)") },
	{ "--replay FILE",
	    N_("replay a recorded trace (implies --source replay)") },
	{ "--record FILE",
	    N_("write a trace of the run to FILE while monitoring\n(gzip when FILE ends in .gz; format: httop-trace(5))") },
	{ "--record-compress",
	    N_("gzip the --record trace whatever its name") },
	{ "--topology PATH",
	    N_("read the topology from an hwloc XML file, or from a\ndirectory with a copy of a machine's /sys and /proc\n(made by hwloc-gather-topology)") },
	{ "--cpuid FILE",
	    N_("read the CPU identity from a libcpuid raw dump") },
	{ "--msr-path TMPL",
	    N_("MSR device path with one %u for the CPU number\n(default /dev/cpu/%u/msr)") },
	{ "--msr-safe-path TMPL",
	    N_("msr-safe's per-CPU device with one %u for the CPU\nnumber (default /dev/cpu/%u/msr_safe)") },
	{ "--msr-batch-path FILE",
	    N_("msr-safe's batch device (default /dev/cpu/msr_batch)") },
	{ "--sim SCENARIO",
	    N_("simulate this machine (or --topology's) running a load:\na scenario name (idle, busy, ..., demo) or file;\nthe machine stays this one: --demo is the demo machine\n(implies --source sim; default scenario: demo)") },
	{ "--seed N",
	    N_("random seed of the simulator (default 0)") },
	{ "--cpus LIST",
	    N_("read only these CPUs' cores, e.g. 0-3,8") },
	{ "--force",
	    N_("use the counters even if another program holds them") },
	{ "--restore",
	    N_("put back the counter registers a killed httop left\nprogrammed, and exit") },
	{ "--on-conflict POLICY",
	    N_("when another program reprograms the counters mid-run:\nreport, reclaim or exit (default report)") },
	{ "--demo",
	    N_("simulate the demo machine (a built-in two-socket\nSkylake-SP) running the demo scenario; with --sim,\nthat scenario instead") },
	{ "-p, --pid PID",
	    N_("watch a job: show the cores its threads may run on\n(repeatable, or PID,PID...; key j shows all cores)") },
	{ "--cgroup PATH",
	    N_("watch a job: the cores of its cgroup's cpuset (v2, or\nv1 cpuset; absolute, or as /proc/PID/cgroup says)") },
	{ "--job [ID]",
	    N_("watch a Slurm job: the cores of its cgroup, or of its\nprocesses, on this node (without ID: the only job\nrunning here)") },
	{ "--nodes LIST",
	    N_("watch many nodes: run httop -b --format json on each\n(Slurm's hostlist syntax: c[001-128,200]) and show\nthem together; with -b merge their lines") },
	{ "--all-nodes",
	    N_("with --job ID: watch every node of the job") },
	{ "--via HOW",
	    N_("how the nodes' httop is started: ssh, srun (in the\njob given with --job ID) or a command with %h for\nthe host (default: srun with --all-nodes, else ssh)") },
	{ "--remote-httop PATH",
	    N_("the httop the nodes run (default httop)") },
	{ "--compact",
	    N_("with --format json: each line's cores and threads as\npositional arrays, 5 to 10 times shorter (many nodes\nask their nodes for it)") },
	{ "--acct-record FILE",
	    N_("print the compact record (httop1) of the whole job\nin FILE (httop's JSON lines) for Slurm's accounting,\nand exit (the Slurm epilog's work; httop(1), JOBS)") },
	{ "--acct-merge TEXT",
	    N_("with --acct-record: print TEXT (a job's AdminComment)\nwith this node's record added or replaced") },
	{ "--acct-cpu SECONDS",
	    N_("with --acct-record: httop's own CPU time to record") },
	{ "-o, --output FILE",
	    N_("write the batch output (or --check's report) to FILE,\nnot standard output; implies -b. With a command: its\nsummary (and, with -b or --format, its intervals)") },
	{ "--die-map FILE",
	    N_("place the cores on the die grid as FILE says\n(format: httop-diemap(5))") },
	{ "--sysfs-root DIR",
	    N_("read the die's tile registers (CAPID6) under DIR\ninstead of /sys") },
	{ "--capid6 VALUE[,VALUE...]",
	    N_("the die's tile registers (CAPID6), one per package,\nfor a machine that is not this one (--topology,\n--replay) or without root") },
	{ "--check",
	    N_("check the figures on this machine against loads whose\nanswer is known, then exit (httop(1), CHECK)") },
	{ "--check-case NAME",
	    N_("--check runs only this case: idle, t0, t1, both, half,\napart or uneven") },
	{ "--seconds N",
	    N_("--check measures each case for N seconds (default 2)") },
	{ "-V, --version",
	    N_("print the version and exit") },
	{ "-h, --help",
	    N_("print this help and exit") },
};

void
options_usage(FILE *fp)
{
	size_t i;

	fputs(_("Usage: httop [options]\n"
	    "       httop [options] -- COMMAND [ARGS...]\n"
	    "Show, for every physical core, how its time splits between neither, one or\n"
	    "both SMT threads active, with per-thread utilisation, CPI and frequency,\n"
	    "from the performance counters. With a command: run it, watch the cores its\n"
	    "processes may run on, and print a summary of the whole run when it ends.\n"), fp);
	fputc('\n', fp);
	/* The option indented as getopt_long users expect (short options at
	 * column 2, long-only ones at 6), its text from column 25; an option
	 * too long for that gets a line of its own. */
	for (i = 0; i < sizeof usage_opts / sizeof usage_opts[0]; i++) {
		const char *opt = usage_opts[i].opt, *w = _(usage_opts[i].what), *nl;
		const char *ind = opt[1] == '-' ? "      " : "  ";
		int len = (int)(strlen(ind) + strlen(opt));

		if (len > 23)
			fprintf(fp, "%s%s\n%25s", ind, opt, "");
		else
			fprintf(fp, "%s%-*s", ind, 25 - (int)strlen(ind), opt);
		for (; (nl = strchr(w, '\n')) != NULL; w = nl + 1)
			fprintf(fp, "%.*s\n%25s", (int)(nl - w), w, "");
		fprintf(fp, "%s\n", w);
	}
	fputc('\n', fp);
	fputs(_("See httop(1) for the figures, their formulas and the output formats.\n"), fp);
}

/* A decimal number of seconds within [PACER_DELAY_MIN, PACER_DELAY_MAX]. */
static int
parse_delay(const char *s, double *out, struct errmsg *e)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(d))
		return errmsg_set(e, _("-d/--delay: '%s' is not a number of seconds; give e.g. -d 1 or -d 0.5"), s);
	if (d < PACER_DELAY_MIN)
		return errmsg_set(e, _("-d/--delay: %s s is below the minimum of %.2f s; give a longer interval"),
		    s, PACER_DELAY_MIN);
	if (d > PACER_DELAY_MAX)
		return errmsg_set(e, _("-d/--delay: %s s is above the maximum of %.0f s; give a shorter interval"),
		    s, PACER_DELAY_MAX);
	*out = d;
	return 0;
}

/* A decimal unsigned integer, all of the string, at most max: 0; -1 when
 * it is not a whole number; -2 when it is one, but above max (so the
 * message can say "too large" rather than "not a number"). */
static int
parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0')
		return -1;
	if (errno == ERANGE || v > max)
		return -2;
	if (errno != 0)
		return -1;
	*out = v;
	return 0;
}

/* --pid: one PID or a comma-separated list (as `pgrep -d,` prints),
 * appended to o->pids. Linux PIDs are at most 2^22 (PID_MAX_LIMIT). */
static int
add_pids(struct options *o, const char *arg, struct errmsg *e)
{
	unsigned long long u;
	char tok[32];
	const char *p = arg, *comma;
	size_t len;

	do {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (len == 0 || len >= sizeof tok)
			goto bad;
		memcpy(tok, p, len);
		tok[len] = '\0';
		if (parse_uint(tok, 4194304ull, &u) == -2)
			return errmsg_set(e, _("--pid: %s is larger than any process ID (Linux's are at "
			    "most 4194304); give the PID of a running process"), tok);
		if (parse_uint(tok, 4194304ull, &u) != 0 || u == 0)
			goto bad;
		o->pids = xreallocarray(o->pids, o->npids + 1, sizeof *o->pids);
		o->pids[o->npids++] = (pid_t)u;
		p = comma + 1;
	} while (comma != NULL);
	return 0;
bad:
	return errmsg_set(e, _("--pid: '%s' is not a process ID; give a positive whole number "
	    "such as --pid 1234, or a list such as --pid 1234,5678"), arg);
}

/* Exactly one %u and no other conversion: the path is a printf format.
 * `opt` is the option's name, for the message. */
static int
check_template(const char *opt, const char *t, const char *example, struct errmsg *e)
{
	const char *p;
	unsigned nu = 0;

	for (p = t; *p != '\0'; p++) {
		if (*p != '%')
			continue;
		if (p[1] == 'u') {
			nu++;
			p++;
			continue;
		}
		return errmsg_set(e, _("%s: '%s' has a '%%' other than %%u; "
		    "give a path with exactly one %%u for the CPU number, e.g. %s"), opt, t, example);
	}
	if (nu != 1)
		return errmsg_set(e, _("%s: '%s' must contain exactly one %%u (it has %u); "
		    "give e.g. %s"), opt, t, nu, example);
	return 0;
}

/* --host: it becomes a JSON string, a label value, the summary's first
 * column and a trace's host line: a host name as hostname.h has it. */
static int
check_host(const char *s, struct errmsg *e)
{
	if (!host_name_ok(s))
		return errmsg_set(e, _("--host: '%s' is not a host name: give 1 to %d letters, "
		    "digits, '.', '-' and '_' (not '-' first), such as node01"), s, HOST_NAME_LEN);
	return 0;
}

/* -n: a whole number of intervals, 1 to OPT_ITERATIONS_MAX. */
static int
parse_iterations(const char *arg, struct options *o, struct errmsg *e)
{
	unsigned long long u;
	int r = parse_uint(arg, OPT_ITERATIONS_MAX, &u);

	if (r == -2)
		return errmsg_set(e, _("-n/--iterations: %s is too large: at most %llu intervals; "
		    "leave -n out to run until stopped"), arg, OPT_ITERATIONS_MAX);
	if (r != 0)
		return errmsg_set(e, _("-n/--iterations: '%s' is not a whole number; give e.g. -n 10"),
		    arg);
	if (u == 0)
		return errmsg_set(e, _("-n/--iterations: 0 intervals would show nothing; give 1 or more, "
		    "or leave -n out to run until stopped"));
	o->iterations = (long long)u;
	return 0;
}

/* --sim SCENARIO: a built-in name or a file that exists; anything else is
 * a bad value (status 2), said before anything is opened. */
static int
parse_sim(const char *arg, struct options *o, struct errmsg *e)
{
	size_t i;

	if (*arg == '\0')
		return errmsg_set(e, _("--sim: empty scenario; give a built-in name such as demo, or "
		    "a file"));
	for (i = 0; scenario_builtins[i] != NULL; i++)
		if (strcmp(arg, scenario_builtins[i]) == 0)
			break;
	if (scenario_builtins[i] == NULL && access(arg, F_OK) != 0)
		return errmsg_set(e, _("--sim: no built-in scenario and no file named %s: give a "
		    "built-in name (idle, busy, one-per-core, both, alternate, bursts, demo) or a "
		    "scenario file; --sim chooses the load, --demo the demo machine"), arg);
	o->scenario = arg;
	return 0;
}

static int
parse_seed(const char *arg, struct options *o, struct errmsg *e)
{
	unsigned long long u;
	int r = parse_uint(arg, UINT64_MAX, &u);

	if (r == -2)
		return errmsg_set(e, _("--seed: %s is too large: the largest seed is %llu"), arg,
		    (unsigned long long)UINT64_MAX);
	if (r != 0)
		return errmsg_set(e, _("--seed: '%s' is not a whole number from 0 to %llu; give e.g. --seed 1"),
		    arg, (unsigned long long)UINT64_MAX);
	o->seed = u;
	return 0;
}

/* --cpus: a number beyond any machine is "not in this machine", said with
 * what it has once the topology is known (app_select_cpus). */
static int
parse_cpus(const char *arg, struct options *o, struct errmsg *e)
{
	if (o->have_cpus)
		cpulist_free(&o->cpus);
	o->have_cpus = false;
	if (cpulist_parse_any(arg, &o->cpus, &o->cpus_beyond, e) != 0)
		return errmsg_prefix(e, "--cpus");
	o->have_cpus = true;
	return 0;
}

/* --job, -o and a command (httop -- COMMAND): a Slurm job on this node,
 * a command's run from start to end. */

/* A Slurm job ID: 123, an array task 123_4, a het job component 123+1. */
static bool
is_job_id(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (n == 0 || n > 20)
		return false;
	if (s[n] == '\0')
		return true;
	if (s[n] != '_' && s[n] != '+')
		return false;
	s += n + 1;
	n = strspn(s, "0123456789");
	return n > 0 && n <= 10 && s[n] == '\0';
}

/* --job, --job=ID, --job ID (the next word, when it is a job ID). */
static int
parse_job(int argc, char **argv, struct options *o, const char **value, struct errmsg *e)
{
	const char *id = optarg;

	if (id == NULL && optind < argc && is_job_id(argv[optind])) {
		id = argv[optind++];
		*value = id;
	}
	if (id != NULL && !is_job_id(id))
		return errmsg_set(e, _("--job: '%s' is not a Slurm job ID; give e.g. --job 1234 or "
		    "--job 1234_7 (squeue lists them), or --job alone for the only job here"), id);
	o->job = true;
	o->job_id = id;
	return 0;
}

/* What a command's run or --job cannot go with. */
static int
check_job_command(struct options *o, struct errmsg *e)
{
	if (o->job && (o->npids > 0 || o->cgroup != NULL))
		return errmsg_set(e, _("--job finds the job's processes and cgroup itself; drop "
		    "--pid and --cgroup"));
	if (o->job && o->replay != NULL)
		return errmsg_set(e, _("--job watches a job running on this node now; it cannot go "
		    "with --replay"));
	/* A trace is another time, often another machine: this machine's
	 * processes say nothing of its cores. */
	if ((o->npids > 0 || o->cgroup != NULL) && o->replay != NULL)
		return errmsg_set(e, _("%s watches processes running on this machine now; it cannot "
		    "go with --replay"), o->npids > 0 ? "--pid" : "--cgroup");
	if (o->command == NULL)
		return 0;
	if (o->job || o->npids > 0 || o->cgroup != NULL)
		return errmsg_set(e, _("a command's run watches the command's own processes; drop "
		    "--job, --pid and --cgroup"));
	if (o->replay != NULL)
		return errmsg_set(e, _("a command's run measures this machine while it runs; it "
		    "cannot go with --replay"));
	if (o->iterations > 0)
		return errmsg_set(e, _("-n/--iterations: a command's run lasts as long as the "
		    "command; drop -n"));
	return 0;
}

/* --nodes, --all-nodes, --via, --remote-httop: many nodes. */
static int
parse_nodes_option(int c, const char *arg, struct options *o, struct errmsg *e)
{
	switch (c) {
	case OPT_NODES:
		if (*arg == '\0')
			return errmsg_set(e, _("--nodes: an empty list; give the nodes, e.g. --nodes "
			    "c[001-016]"));
		o->nodes = arg;
		return 0;
	case OPT_ALL_NODES:
		o->all_nodes = true;
		return 0;
	case OPT_VIA:
		if (*arg == '\0')
			return errmsg_set(e, _("--via: empty; give ssh, srun or a command with %%h for "
			    "the host"));
		o->via = arg;
		return 0;
	default:     /* OPT_REMOTE_HTTOP */
		if (*arg == '\0' || arg[0] == '-')
			return errmsg_set(e, _("--remote-httop: '%s' is not a program; give the path of "
			    "httop on the nodes, e.g. /opt/httop/bin/httop"), arg);
		o->remote_httop = arg;
		return 0;
	}
}

/* An option the nodes' httop gets as it was given: the source and what
 * it reads, the CPUs, the conflict policy. -d, -n and --job are added
 * from their values (mode_nodes.c). */
static void
note_remote(struct options *o, int c, const char *arg)
{
	static const int pass[] = { OPT_SOURCE, OPT_SIM, OPT_SEED, OPT_DEMO, OPT_TOPOLOGY,
	    OPT_CPUID, OPT_MSR_PATH, OPT_MSR_SAFE_PATH, OPT_MSR_BATCH_PATH, OPT_CPUS, OPT_FORCE,
	    OPT_ON_CONFLICT, OPT_CGROUP, OPT_DIE_MAP, OPT_SYSFS_ROOT, OPT_CAPID6 };
	char name[64];
	size_t i, k;

	for (i = 0; i < sizeof pass / sizeof pass[0] && pass[i] != c; i++)
		;
	if (i == sizeof pass / sizeof pass[0])
		return;
	for (k = 0; long_opts[k].name != NULL && long_opts[k].val != c; k++)
		;
	snprintf(name, sizeof name, "--%s", long_opts[k].name);
	o->remote_args = xreallocarray(o->remote_args, o->nremote_args + 2, sizeof *o->remote_args);
	o->remote_args[o->nremote_args++] = xstrdup(name);
	if (arg != NULL)
		o->remote_args[o->nremote_args++] = xstrdup(arg);
}

/* What many nodes cannot go with: what is this machine's only. */
static int
check_nodes(struct options *o, struct errmsg *e)
{
	const char *bad = NULL;

	if (o->all_nodes && (!o->job || o->job_id == NULL))
		return errmsg_set(e, _("--all-nodes watches the nodes of a job: give it with --job ID"));
	if (o->all_nodes && o->nodes != NULL)
		return errmsg_set(e, _("--all-nodes and --nodes both name the nodes; drop one"));
	if (o->nodes == NULL && !o->all_nodes) {
		if (o->via != NULL || o->remote_httop != NULL)
			return errmsg_set(e, _("%s is for many nodes: add --nodes LIST or --job ID "
			    "--all-nodes"), o->via != NULL ? "--via" : "--remote-httop");
		return 0;
	}
	if (o->npids > 0)
		bad = "--pid";
	else if (o->replay != NULL)
		bad = "--replay";
	else if (o->record != NULL)
		bad = "--record";
	else if (o->textfile != NULL)
		bad = "--textfile";
	else if (o->check)
		bad = "--check";
	else if (o->command != NULL)
		bad = "-- COMMAND";
	else if (o->host != NULL)
		bad = "--host";
	if (bad != NULL)
		return errmsg_set(e, _("%s cannot go with many nodes (--nodes, --all-nodes): it "
		    "is about this machine; drop it"), bad);
	if (o->have_format && o->format != FMT_JSON && o->format != FMT_SUMMARY)
		return errmsg_set(e, _("--format %s: many nodes are written as json (their lines "
		    "merged) or summary (a line per node and per job interval); give one of them"),
		    out_format_name(o->format));
	if (!o->have_format)
		o->format = FMT_JSON;
	return 0;
}

/* After the options: "--" and the command, or a stray word. `value` is
 * the last option value taken, so that "--host --" is not the end of the
 * options. */
static int
take_command(int argc, char **argv, struct options *o, const char *value, struct errmsg *e)
{
	bool dashes = optind > 1 && strcmp(argv[optind - 1], "--") == 0 &&
	    argv[optind - 1] != value;

	if (optind >= argc && dashes)
		return errmsg_set(e, _("-- ends the options and names a command to run: give the "
		    "command after it (httop -- COMMAND [ARGS])"));
	if (optind >= argc)
		return 0;
	if (dashes) {
		o->command = &argv[optind];
		return 0;
	}
	return errmsg_set(e, _("unexpected argument '%s': httop takes only options, or a command "
	    "after --; see httop --help"), argv[optind]);
}

static void
options_defaults(struct options *o)
{
	memset(o, 0, sizeof *o);
	o->delay = 1.0;
	o->iterations = -1;
	o->format = FMT_TEXT;
	o->source = SRC_AUTO;
	o->msr_path = MSR_DEV_TEMPLATE;
	o->msr_safe_path = MSR_SAFE_DEV_DEFAULT;
	o->msr_batch_path = MSR_SAFE_BATCH_DEFAULT;
	o->on_conflict = CONFLICT_REPORT;
	o->level = OUT_LEVEL_THREAD;
	o->textfile_level = OUT_LEVEL_PACKAGE;
	o->scenario = NULL;
	o->seed = 0;
}

/* Options that imply a source must agree with an explicit --source and
 * with each other; `*by` remembers which option set it, for the message. */
static int
imply_source(struct options *o, const char **by, enum source_kind k, const char *opt,
    struct errmsg *e)
{
	if (*by != NULL && o->source != k)
		return errmsg_set(e, _("%s conflicts with %s (--source %s); drop one of them"),
		    opt, *by, source_kind_name(o->source));
	o->source = k;
	*by = opt;
	return 0;
}

/* --check, --check-case NAME, --seconds N. */
static int
parse_check_option(struct options *o, int c, const char *arg, struct errmsg *e)
{
	char *end;
	double d;

	if (c == OPT_CHECK_CASE) {
		if (check_case_find(arg) == NULL)
			return errmsg_set(e, _("--check-case: no case '%s'; give one of %s"), arg,
			    check_case_names());
		o->check_case = arg;
	} else if (c == OPT_SECONDS) {
		errno = 0;
		d = strtod(arg, &end);
		if (end == arg || *end != '\0' || errno != 0 || !isfinite(d) ||
		    d < OPT_CHECK_SECONDS_MIN || d > OPT_CHECK_SECONDS_MAX)
			return errmsg_set(e, _("--seconds: '%s' is not a number of seconds from %.1f to "
			    "%.0f; give e.g. --seconds 2"), arg, OPT_CHECK_SECONDS_MIN,
			    OPT_CHECK_SECONDS_MAX);
		o->check_seconds = d;
		o->have_check_seconds = true;
		return 0;
	}
	o->check = true;
	return 0;
}

/* --check runs its own cases and writes only its report. */
static int
check_check_options(struct options *o, struct errmsg *e)
{
	const char *bad = NULL;

	if (!o->check) {
		if (o->have_check_seconds)
			return errmsg_set(e, _("--seconds is the length of each case of --check; add "
			    "--check"));
		return 0;
	}
	if (o->replay != NULL)
		bad = "--replay";
	else if (o->source == SRC_REPLAY)
		bad = "--source replay";
	else if (o->scenario != NULL)
		bad = "--sim";
	else if (o->record != NULL)
		bad = "--record";
	else if (o->textfile != NULL)
		bad = "--textfile";
	else if (o->npids > 0)
		bad = "--pid";
	else if (o->cgroup != NULL)
		bad = "--cgroup";
	else if (o->job)
		bad = "--job";
	else if (o->command != NULL)
		bad = "-- COMMAND";
	else if (o->have_delay)
		bad = "-d";
	else if (o->iterations >= 0)
		bad = "-n";
	if (bad == NULL && o->format != FMT_TEXT && o->format != FMT_JSON)
		return errmsg_set(e, _("--check writes its report as text or json, not %s: give "
		    "--format text or --format json"), out_format_name(o->format));
	if (bad != NULL)
		return errmsg_set(e, _("--check cannot be combined with %s: it runs its own cases on "
		    "live counters or the simulator (--source sim, --demo) for --seconds each and "
		    "writes its report as text or json; drop %s"), bad, bad);
	if (!o->have_check_seconds)
		o->check_seconds = OPT_CHECK_SECONDS_DEFAULT;
	return 0;
}

/* --restore writes this machine's MSRs and exits: nothing that reads
 * counters, another source or other nodes goes with it. */
static int
check_restore_options(const struct options *o, struct errmsg *e)
{
	const char *bad = NULL;

	if (!o->restore)
		return 0;
	if (o->source != SRC_AUTO && o->source != SRC_MSR && o->source != SRC_MSR_SAFE)
		bad = "--source";
	else if (o->demo || o->scenario != NULL)
		bad = o->demo ? "--demo" : "--sim";
	else if (o->check)
		bad = "--check";
	else if (o->record != NULL)
		bad = "--record";
	else if (o->textfile != NULL)
		bad = "--textfile";
	else if (o->npids > 0 || o->cgroup != NULL || o->job)
		bad = o->npids > 0 ? "--pid" : o->cgroup != NULL ? "--cgroup" : "--job";
	else if (o->command != NULL)
		bad = "-- COMMAND";
	else if (o->nodes != NULL || o->all_nodes)
		bad = o->nodes != NULL ? "--nodes" : "--all-nodes";
	else if (o->force)
		bad = "--force";
	if (bad != NULL)
		return errmsg_set(e, _("--restore only puts back this machine's counter registers "
		    "(msr or msr-safe devices) and exits; drop %s"), bad);
	return 0;
}

static int
check_combination(struct options *o, struct errmsg *e)
{
	if (check_check_options(o, e) != 0 || check_restore_options(o, e) != 0)
		return -1;
	if (o->source == SRC_REPLAY && o->replay == NULL)
		return errmsg_set(e, _("--source replay needs a trace: add --replay FILE"));
	if (o->replay != NULL && (o->topology != NULL || o->cpuid != NULL))
		return errmsg_set(e, _("--replay: the trace records its own machine; drop --topology and --cpuid"));
	if (o->demo && (o->topology != NULL || o->cpuid != NULL))
		return errmsg_set(e, _("--demo: the demo brings its own machine; drop --topology and --cpuid, "
		    "or use --sim SCENARIO with them"));
	if (o->record_compress && o->record == NULL)
		return errmsg_set(e, _("--record-compress: nothing to compress; add --record FILE"));
	if (o->record != NULL && o->replay != NULL && strcmp(o->record, o->replay) == 0)
		return errmsg_set(e, _("--record %s would overwrite the trace being replayed; give "
		    "another file"), o->record);
	if (o->source == SRC_SIM && o->scenario == NULL)
		o->scenario = OPT_SCENARIO_DEFAULT;
	return 0;
}

/* --format: a format is for a batch run: on a terminal it would be
 * ignored for the live view, so it implies -b. */
static int
parse_format(const char *arg, struct options *o, struct errmsg *e)
{
	o->batch = true;
	o->have_format = true;
	if (out_format_parse(arg, &o->format) != 0)
		return errmsg_set(e, _("--format: unknown format '%s'; give text, csv, json, openmetrics "
		    "or summary"), arg);
	return 0;
}

static int
parse_source(const char *arg, struct options *o, const char **by, struct errmsg *e)
{
	enum source_kind k;

	if (source_kind_parse(arg, &k) != 0)
		return errmsg_set(e, _("--source: unknown source '%s'; give auto, msr, msr-safe, perf, "
		    "sched, procstat, sim or replay"), arg);
	if (*by != NULL && o->source != k)
		return errmsg_set(e, _("--source %s conflicts with %s (--source %s); drop one of them"),
		    arg, *by, source_kind_name(o->source));
	o->source = k;
	*by = "--source";
	return 0;
}

/* The options whose value is a file or directory name: none may be empty
 * (each says what to give instead), and only one --cgroup. */
static int
set_name(int c, const char *arg, struct options *o, struct errmsg *e)
{
	switch (c) {
	case OPT_MSR_BATCH_PATH:
		o->msr_batch_path = arg;
		o->have_msr_safe_path = true;
		if (*arg == '\0')
			return errmsg_set(e, _("--msr-batch-path: empty file name; give e.g. "
			    "--msr-batch-path /dev/cpu/msr_batch"));
		return 0;
	case OPT_TEXTFILE:
		o->textfile = arg;
		if (*arg == '\0')
			return errmsg_set(e, _("--textfile: empty directory name; give the node exporter's "
			    "--collector.textfile.directory, e.g. /var/lib/prometheus/node-exporter"));
		return 0;
	case OPT_RECORD:
		o->record = arg;
		if (*arg == '\0')
			return errmsg_set(e, _("--record: empty file name; give the trace file to write, "
			    "e.g. --record run.trace"));
		return 0;
	case OPT_CGROUP:
		if (*arg == '\0')
			return errmsg_set(e, _("--cgroup: empty path; give a cgroup directory such as "
			    "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_1234"));
		if (o->cgroup != NULL && strcmp(o->cgroup, arg) != 0)
			return errmsg_set(e, _("--cgroup given twice (%s, %s); give one cgroup, "
			    "and --pid for other processes"), o->cgroup, arg);
		o->cgroup = arg;
		return 0;
	case OPT_DIE_MAP:
		o->die_map = arg;
		if (*arg == '\0')
			return errmsg_set(e, _("--die-map: empty file name; give a die map file (httop-diemap(5))"));
		return 0;
	default:      /* OPT_SYSFS_ROOT */
		o->sysfs_root = arg;
		if (*arg == '\0')
			return errmsg_set(e, _("--sysfs-root: empty directory name; give e.g. --sysfs-root /sys"));
		return 0;
	}
}

/* An option getopt did not accept; `arg` is the word it was in. */
static void
unknown_option(const char *arg, struct errmsg *e)
{
	/* glibc sets optopt to the option's code when a long option that
	 * takes no value is given one (--force=1). */
	if (strncmp(arg, "--", 2) == 0 && optopt != 0)
		errmsg_set(e, _("%s: this option takes no value; see httop --help"), arg);
	else if (optopt != 0)
		errmsg_set(e, _("unknown option '-%c'; see httop --help"), optopt);
	else
		errmsg_set(e, _("unknown option '%s'; see httop --help"), arg);
}

/* Files other programs read: -o, --level, --textfile-level. */

/* --level LEVEL, --textfile-level LEVEL. */
static int
parse_level(int c, const char *arg, struct options *o, struct errmsg *e)
{
	const char *opt = c == OPT_LEVEL ? "--level" : "--textfile-level";
	enum out_level l;

	if (out_level_parse(arg, &l) != 0)
		return errmsg_set(e, _("%s: unknown level '%s'; give node, package, core or thread"),
		    opt, arg);
	if (c == OPT_LEVEL) {
		o->level = l;
		o->have_level = true;
	} else {
		o->textfile_level = l;
		o->have_textfile_level = true;
	}
	return 0;
}

/* -o FILE: the file must have a name and must not be one httop reads or
 * also writes; without a command it is where the batch output goes, so
 * it implies -b. --level and --textfile-level need what they bound. */
static int
check_output_options(struct options *o, struct errmsg *e)
{
	if (o->output != NULL && *o->output == '\0')
		return errmsg_set(e, _("-o/--output: empty file name; give the file to write, or - "
		    "for standard output"));
	if (o->output != NULL && o->record != NULL && strcmp(o->output, o->record) == 0)
		return errmsg_set(e, _("-o %s is also the --record file; give two files"), o->output);
	if (o->output != NULL && o->replay != NULL && strcmp(o->output, o->replay) == 0)
		return errmsg_set(e, _("-o %s would overwrite the trace being replayed; give another "
		    "file"), o->output);
	if (o->output != NULL && o->command == NULL)
		o->batch = true;
	if (o->have_level && (o->format != FMT_OPENMETRICS || o->check))
		return errmsg_set(e, _("--level bounds the series of --format openmetrics; add it, "
		    "or give --textfile-level for --textfile"));
	if (o->compact && (o->nodes != NULL || o->all_nodes))
		return errmsg_set(e, _("--compact: many nodes ask their nodes for compact lines "
		    "themselves (and pass full lines on with -b --format json); drop it"));
	if (o->compact && o->check)
		return errmsg_set(e, _("--compact: --check writes a report, not intervals; drop "
		    "--compact"));
	if (o->compact && o->format != FMT_JSON)
		return errmsg_set(e, _("--compact writes the intervals of --format json in a "
		    "shorter form; add --format json, or drop it"));
	if (o->have_textfile_level && o->textfile == NULL)
		return errmsg_set(e, _("--textfile-level: no text file to bound; add --textfile DIR"));
	return 0;
}

/* --acct-record, --acct-merge, --acct-cpu. */
static int
parse_acct(int c, const char *arg, struct options *o, struct errmsg *e)
{
	char *end;

	if (c == OPT_ACCT_RECORD) {
		if (*arg == '\0')
			return errmsg_set(e, _("--acct-record: empty file name; give httop's JSON "
			    "lines of the job"));
		o->acct_record = arg;
		return 0;
	}
	if (c == OPT_ACCT_MERGE) {
		o->acct_merge = arg;
		return 0;
	}
	errno = 0;
	o->acct_cpu = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno != 0 || !isfinite(o->acct_cpu) ||
	    o->acct_cpu < 0.0 || o->acct_cpu > 1e9)
		return errmsg_set(e, _("--acct-cpu: '%s' is not a number of seconds"), arg);
	o->have_acct_cpu = true;
	return 0;
}

/* --acct-record is all a run does: the others need it, it goes alone. */
static int
check_acct(const struct options *o, struct errmsg *e)
{
	if (o->acct_record == NULL) {
		if (o->acct_merge != NULL || o->have_acct_cpu)
			return errmsg_set(e, _("%s goes with --acct-record FILE; add it"),
			    o->acct_merge != NULL ? "--acct-merge" : "--acct-cpu");
		return 0;
	}
	if (o->job || o->nodes != NULL || o->command != NULL || o->check || o->output != NULL ||
	    o->record != NULL || o->textfile != NULL || o->replay != NULL || o->npids > 0 ||
	    o->cgroup != NULL)
		return errmsg_set(e, _("--acct-record only turns a record into its compact form; "
		    "drop the options of a run"));
	return 0;
}

/* After the last option: the command, then what options exclude. */
static int
options_finish(int argc, char **argv, struct options *o, const char *value, struct errmsg *e)
{
	if (take_command(argc, argv, o, value, e) != 0 || check_job_command(o, e) != 0 ||
	    check_output_options(o, e) != 0 || check_nodes(o, e) != 0 || check_acct(o, e) != 0)
		return -1;
	return check_combination(o, e);
}

/* The options of what a run reads and writes: 0 taken, -1 an error, 1
 * not one of these. */
static int
parse_run_option(int c, const char *arg, struct options *o, struct errmsg *e)
{
	switch (c) {
	case 'o':
		o->output = arg;
		return 0;
	case 'd':
		if (parse_delay(arg, &o->delay, e) != 0)
			return -1;
		o->have_delay = true;
		return 0;
	case 'n':
		return parse_iterations(arg, o, e);
	case 'b':
		o->batch = true;
		return 0;
	case OPT_FORMAT:
		return parse_format(arg, o, e);
	case OPT_RECORD_COMPRESS:
		o->record_compress = true;
		return 0;
	case OPT_COMPACT:
		o->compact = true;
		return 0;
	case OPT_ACCT_RECORD:
	case OPT_ACCT_MERGE:
	case OPT_ACCT_CPU:
		return parse_acct(c, arg, o, e);
	case OPT_LEVEL:
	case OPT_TEXTFILE_LEVEL:
		return parse_level(c, arg, o, e);
	case OPT_SEED:
		return parse_seed(arg, o, e);
	case OPT_CPUS:
		return parse_cpus(arg, o, e);
	case OPT_FORCE:
		o->force = true;
		return 0;
	case OPT_RESTORE:
		o->restore = true;
		return 0;
	case 'p':
	case OPT_PID:
		return add_pids(o, arg, e);
	default:
		return 1;
	}
}

enum options_result
options_parse(int argc, char **argv, struct options *o, struct errmsg *e)
{
	const char *source_by = NULL;   /* the option that fixed the source */
	const char *value = NULL;       /* the last option value taken */
	int c, rc;

	options_defaults(o);
	opterr = 0;
	optind = 1;
	/* '+': the options end at the first word that is not one, so that a
	 * command's own options after "--" are its own. */
	while ((c = getopt_long(argc, argv, "+:d:n:bhVo:p:", long_opts, NULL)) != -1) {
		if (optarg != NULL)
			value = optarg;
		note_remote(o, c, optarg);
		switch (c) {
		case OPT_JOB:
			if (parse_job(argc, argv, o, &value, e) != 0)
				goto fail;
			break;
		case OPT_NODES:
		case OPT_ALL_NODES:
		case OPT_VIA:
		case OPT_REMOTE_HTTOP:
			if (parse_nodes_option(c, optarg, o, e) != 0)
				goto fail;
			break;
		case OPT_SOURCE:
			if (parse_source(optarg, o, &source_by, e) != 0)
				goto fail;
			break;
		case OPT_REPLAY:
			if (imply_source(o, &source_by, SRC_REPLAY, "--replay", e) != 0)
				goto fail;
			o->replay = optarg;
			break;
		case OPT_TOPOLOGY:
			o->topology = optarg;
			break;
		case OPT_CPUID:
			o->cpuid = optarg;
			break;
		case OPT_MSR_PATH:
			if (check_template("--msr-path", optarg, MSR_DEV_TEMPLATE, e) != 0)
				goto fail;
			o->msr_path = optarg;
			o->have_msr_path = true;
			break;
		case OPT_MSR_SAFE_PATH:
			if (check_template("--msr-safe-path", optarg, MSR_SAFE_DEV_DEFAULT, e) != 0)
				goto fail;
			o->msr_safe_path = optarg;
			o->have_msr_safe_path = true;
			break;
		case OPT_MSR_BATCH_PATH:
		case OPT_TEXTFILE:
		case OPT_RECORD:
		case OPT_CGROUP:
		case OPT_DIE_MAP:
		case OPT_SYSFS_ROOT:
			if (set_name(c, optarg, o, e) != 0)
				goto fail;
			break;
		case OPT_HOST:
			if (check_host(optarg, e) != 0)
				goto fail;
			o->host = optarg;
			break;
		case OPT_ON_CONFLICT:
			if (conflict_policy_parse(optarg, &o->on_conflict) != 0) {
				errmsg_set(e, _("--on-conflict: unknown policy '%s'; give report, reclaim "
				    "or exit"), optarg);
				goto fail;
			}
			break;
		case OPT_SIM:
			if (parse_sim(optarg, o, e) != 0 ||
			    imply_source(o, &source_by, SRC_SIM, "--sim", e) != 0)
				goto fail;
			break;
		case OPT_CAPID6:
			if (capid6_parse_list(optarg, &o->capid6, e) != 0) {
				errmsg_prefix(e, "--capid6");
				goto fail;
			}
			o->capid6.origin = CAPID6_FROM_OPTION;
			break;
		case OPT_DEMO:
			if (imply_source(o, &source_by, SRC_SIM, "--demo", e) != 0)
				goto fail;
			o->demo = true;
			break;
		case OPT_CHECK:
		case OPT_CHECK_CASE:
		case OPT_SECONDS:
			if (parse_check_option(o, c, optarg, e) != 0)
				goto fail;
			break;
		case 'V':
			printf("httop %s\n", PACKAGE_VERSION);
			options_free(o);
			return OPTS_EXIT;
		case 'h':
			options_usage(stdout);
			options_free(o);
			return OPTS_EXIT;
		case ':':
			errmsg_set(e, _("%s needs a value; see httop --help"), argv[optind - 1]);
			goto fail;
		default:
			rc = parse_run_option(c, optarg, o, e);
			if (rc > 0)
				unknown_option(argv[optind - 1], e);
			if (rc != 0)
				goto fail;
		}
	}
	if (options_finish(argc, argv, o, value, e) != 0)
		goto fail;
	return OPTS_RUN;
fail:
	options_free(o);
	return OPTS_ERROR;
}

void
options_free(struct options *o)
{
	size_t i;

	if (o->have_cpus)
		cpulist_free(&o->cpus);
	o->have_cpus = false;
	free(o->pids);
	o->pids = NULL;
	o->npids = 0;
	for (i = 0; i < o->nremote_args; i++)
		free(o->remote_args[i]);
	free(o->remote_args);
	o->remote_args = NULL;
	o->nremote_args = 0;
}
