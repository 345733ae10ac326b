/* options.c: parse and check the command line. Every bad value ends in one
 * message naming the option and what to give instead (exit status 2).
 *
 * Every option is one row of optdefs[] (below): its name, short letter,
 * value, --help text, how it is parsed and whether the nodes' httop gets
 * it; getopt's table, the short options, --help and the options passed on
 * to many nodes are all made from it. Adding an option is a row and, when
 * none of the generic parsers (opt_flag, opt_string) fits, its function;
 * the bash completion (completion/httop) follows the table
 * (tests/cli/test_completion.sh compares them). */
#include "config.h"
#include "options.h"
#include "cli/optcheck.h"
#include "source/msr/msr_io.h"
#include "source/msr/msr_safe.h"

#include <float.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/cases.h"
#include "util/hostname.h"
#include "sim/scenario.h"
#include "util/i18n.h"
#include "util/numparse.h"
#include "util/textwrap.h"
#include "util/xalloc.h"

/* What a parse carries from one option to the next. */
struct optctx {
	struct options *o;
	const struct optdef *d;  /* the option being parsed */
	int argc;
	char **argv;
	const char *source_by;   /* the option that fixed the source */
	const char *value;       /* the last option value taken */
};

/* How an option is parsed, with its value (NULL: none): 0 taken, -1 an
 * error in e, 1 done and exit with status 0 (--help, --version). */
typedef int optparse(struct optctx *x, const char *arg, struct errmsg *e);
/* The values the help text of an option states (its defaults), as text,
 * from the options before any is given (options_defaults): v[0], v[1]. */
#define DFLT_LEN 64
typedef void optdflt(const struct options *o, char v[][DFLT_LEN]);

enum optval { VAL_NONE, VAL_REQUIRED, VAL_OPTIONAL };

/* One option. */
struct optdef {
	const char *name;     /* the long option, without "--" */
	char letter;          /* its short option, or 0 */
	enum optval val;      /* whether it takes a value */
	const char *meta;     /* the value as --help names it ("SECS"), NULL: none */
	optparse *parse;      /* how it is parsed */
	size_t field;         /* the member of struct options opt_flag or opt_string sets */
	bool pass;            /* the nodes' httop gets it as given (httop(1), MANY NODES) */
	const char *help;     /* what it does (translated; lines of at most 54
			       * columns, '\n' between them); each "%s" is
			       * replaced by what `dflt` writes, in order */
	optdflt *dflt;        /* the default(s) the help states, from the
			       * options as parsed without this option and
			       * the code's own constants; NULL: none */
};

/* ---- How the options are parsed ------------------------------------------ */

/* A flag: the row's bool member of struct options. */
static int
opt_flag(struct optctx *x, const char *arg, struct errmsg *e)
{
	(void)arg;
	(void)e;
	*(bool *)(void *)((char *)x->o + x->d->field) = true;
	return 0;
}

/* A value kept as given: the row's const char * member. */
static int
opt_string(struct optctx *x, const char *arg, struct errmsg *e)
{
	(void)e;
	*(const char **)(void *)((char *)x->o + x->d->field) = arg;
	return 0;
}

/* -d, --interval: a decimal number of seconds within [PACER_DELAY_MIN,
 * PACER_DELAY_MAX]. */
static int
opt_delay(struct optctx *x, const char *s, struct errmsg *e)
{
	double d;

	if (num_double(s, 0, -DBL_MAX, DBL_MAX, &d) != NUM_OK)
		return errmsg_set(e, _("-d/--delay: '%s' is not a number of seconds; give e.g. -d 1 or -d 0.5"), s);
	if (d < PACER_DELAY_MIN)
		return errmsg_set(e, _("-d/--delay: %s s is below the minimum of %.2f s; give a longer interval"),
		    s, PACER_DELAY_MIN);
	if (d > PACER_DELAY_MAX)
		return errmsg_set(e, _("-d/--delay: %s s is above the maximum of %.0f s; give a shorter interval"),
		    s, PACER_DELAY_MAX);
	x->o->delay = d;
	x->o->have_delay = true;
	return 0;
}

/* --pid: one PID or a comma-separated list (as `pgrep -d,` prints),
 * appended to o->pids. Linux PIDs are at most 2^22 (PID_MAX_LIMIT). */
static int
opt_pid(struct optctx *x, const char *arg, struct errmsg *e)
{
	struct options *o = x->o;
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
		if (num_uint(tok, 4194304ull, &u) == NUM_RANGE)
			return errmsg_set(e, _("--pid: %s is larger than any process ID (Linux's are at "
			    "most 4194304); give the PID of a running process"), tok);
		if (num_uint(tok, 4194304ull, &u) != NUM_OK || u == 0)
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

/* --msr-path, --msr-safe-path: a template with one %u. */
static int
opt_msr_path(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (check_template("--msr-path", arg, MSR_DEV_TEMPLATE, e) != 0)
		return -1;
	x->o->msr_path = arg;
	x->o->have_msr_path = true;
	return 0;
}

static int
opt_msr_safe_path(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (check_template("--msr-safe-path", arg, MSR_SAFE_DEV_DEFAULT, e) != 0)
		return -1;
	x->o->msr_safe_path = arg;
	x->o->have_msr_safe_path = true;
	return 0;
}

static int
opt_host(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (check_host(arg, e) != 0)
		return -1;
	x->o->host = arg;
	return 0;
}

/* -n: a whole number of intervals, 1 to OPT_ITERATIONS_MAX. */
static int
opt_iterations(struct optctx *x, const char *arg, struct errmsg *e)
{
	unsigned long long u;
	int r = num_uint(arg, OPT_ITERATIONS_MAX, &u);

	if (r == NUM_RANGE)
		return errmsg_set(e, _("-n/--iterations: %s is too large: at most %llu intervals; "
		    "leave -n out to run until stopped"), arg, OPT_ITERATIONS_MAX);
	if (r != NUM_OK)
		return errmsg_set(e, _("-n/--iterations: '%s' is not a whole number of intervals from "
		    "1 to %llu; give e.g. -n 10, or leave -n out to run until stopped"), arg,
		    OPT_ITERATIONS_MAX);
	if (u == 0)
		return errmsg_set(e, _("-n/--iterations: 0 intervals would show nothing; give 1 or more, "
		    "or leave -n out to run until stopped"));
	x->o->iterations = (long long)u;
	return 0;
}

/* Options that imply a source must agree with an explicit --source and
 * with each other; x->source_by remembers which option set it, for the
 * message. */
static int
imply_source(struct optctx *x, enum source_kind k, const char *opt, struct errmsg *e)
{
	struct options *o = x->o;

	if (x->source_by != NULL && o->source != k)
		return errmsg_set(e, _("%s conflicts with %s (--source %s); drop one of them"),
		    opt, x->source_by, source_kind_name(o->source));
	o->source = k;
	x->source_by = opt;
	return 0;
}

/* --sim SCENARIO: a built-in name or a file that exists; anything else is
 * a bad value (status 2), said before anything is opened. */
static int
opt_sim(struct optctx *x, const char *arg, struct errmsg *e)
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
	x->o->scenario = arg;
	return imply_source(x, SRC_SIM, "--sim", e);
}

static int
opt_demo(struct optctx *x, const char *arg, struct errmsg *e)
{
	(void)arg;
	if (imply_source(x, SRC_SIM, "--demo", e) != 0)
		return -1;
	x->o->demo = true;
	return 0;
}

static int
opt_seed(struct optctx *x, const char *arg, struct errmsg *e)
{
	unsigned long long u;
	int r = num_uint(arg, UINT64_MAX, &u);

	if (r == NUM_RANGE)
		return errmsg_set(e, _("--seed: %s is too large: the largest seed is %llu"), arg,
		    (unsigned long long)UINT64_MAX);
	if (r != NUM_OK)
		return errmsg_set(e, _("--seed: '%s' is not a whole number from 0 to %llu; give e.g. --seed 1"),
		    arg, (unsigned long long)UINT64_MAX);
	x->o->seed = u;
	return 0;
}

/* --cpus: a number beyond any machine is "not in this machine", said with
 * what it has once the topology is known (app_select_cpus). */
static int
opt_cpus(struct optctx *x, const char *arg, struct errmsg *e)
{
	struct options *o = x->o;

	if (o->have_cpus)
		cpulist_free(&o->cpus);
	o->have_cpus = false;
	if (arg[strspn(arg, " \t\n")] == '\0')
		return errmsg_set(e, _("--cpus: empty CPU list; give CPUs in the kernel's list "
		    "syntax, such as 0-3,8"));
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
opt_job(struct optctx *x, const char *arg, struct errmsg *e)
{
	const char *id = arg;

	if (id == NULL && optind < x->argc && is_job_id(x->argv[optind])) {
		id = x->argv[optind++];
		x->value = id;
	}
	if (id != NULL && !is_job_id(id))
		return errmsg_set(e, _("--job: '%s' is not a Slurm job ID; give e.g. --job 1234 or "
		    "--job 1234_7 (squeue lists them), or --job alone for the only job here"), id);
	x->o->job = true;
	x->o->job_id = id;
	return 0;
}

/* --nodes, --via, --remote-httop: many nodes (--all-nodes is a flag). */
static int
opt_nodes(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (*arg == '\0')
		return errmsg_set(e, _("--nodes: an empty list; give the nodes, e.g. --nodes "
		    "c[001-016]"));
	x->o->nodes = arg;
	return 0;
}

static int
opt_via(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (*arg == '\0')
		return errmsg_set(e, _("--via: empty; give ssh, srun or a command with %%h for "
		    "the host"));
	x->o->via = arg;
	return 0;
}

static int
opt_remote_httop(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (*arg == '\0' || arg[0] == '-')
		return errmsg_set(e, _("--remote-httop: '%s' is not a program; give the path of "
		    "httop on the nodes, e.g. /opt/httop/bin/httop"), arg);
	x->o->remote_httop = arg;
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

/* --check-case NAME (implies --check), --seconds N. */
static int
opt_check_case(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (check_case_find(arg) == NULL)
		return errmsg_set(e, _("--check-case: no case '%s'; give one of %s"), arg,
		    check_case_names());
	x->o->check_case = arg;
	x->o->check = true;
	return 0;
}

static int
opt_seconds(struct optctx *x, const char *arg, struct errmsg *e)
{
	double d;

	if (num_double(arg, 0, OPT_CHECK_SECONDS_MIN, OPT_CHECK_SECONDS_MAX, &d) != NUM_OK)
		return errmsg_set(e, _("--seconds: '%s' is not a number of seconds from %.1f to "
		    "%.0f; give e.g. --seconds 2"), arg, OPT_CHECK_SECONDS_MIN,
		    OPT_CHECK_SECONDS_MAX);
	x->o->check_seconds = d;
	x->o->have_check_seconds = true;
	return 0;
}

/* --format: a format is for a batch run: on a terminal it would be
 * ignored for the live view, so it implies -b. */
static int
opt_format(struct optctx *x, const char *arg, struct errmsg *e)
{
	struct options *o = x->o;

	o->batch = true;
	o->have_format = true;
	if (out_format_parse(arg, &o->format) != 0)
		return errmsg_set(e, _("--format: unknown format '%s'; give text, csv, json, openmetrics "
		    "or summary"), arg);
	return 0;
}

static int
opt_source(struct optctx *x, const char *arg, struct errmsg *e)
{
	enum source_kind k;
	char all[160];

	if (source_kind_parse(arg, &k) != 0) {
		source_kind_list(all, sizeof all);
		return errmsg_set(e, _("--source: unknown source '%s'; give %s"), arg, all);
	}
	if (x->source_by != NULL && x->o->source != k)
		return errmsg_set(e, _("--source %s conflicts with %s (--source %s); drop one of them"),
		    arg, x->source_by, source_kind_name(x->o->source));
	x->o->source = k;
	x->source_by = "--source";
	return 0;
}

static int
opt_replay(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (*arg == '\0')
		return errmsg_set(e, _("--replay: empty file name; give the trace file --record "
		    "wrote, e.g. --replay run.trace"));
	/* "-" is standard output for -o; the live view cannot read a pipe
	 * (it counts the trace's length and goes back by reading it again),
	 * batch mode reads one as /dev/stdin: say that rather than "cannot
	 * open the trace -". */
	if (strcmp(arg, "-") == 0)
		return errmsg_set(e, _("--replay -: a trace is replayed from a file; to replay "
		    "standard input in batch mode give --replay /dev/stdin -b (the live view reads "
		    "the trace again to go back: save it to a file first), or give ./- for a file "
		    "named -"));
	if (imply_source(x, SRC_REPLAY, "--replay", e) != 0)
		return -1;
	x->o->replay = arg;
	return 0;
}

static int
opt_on_conflict(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (conflict_policy_parse(arg, &x->o->on_conflict) != 0)
		return errmsg_set(e, _("--on-conflict: unknown policy '%s'; give report, reclaim "
		    "or exit"), arg);
	return 0;
}

static int
opt_capid6(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (capid6_parse_list(arg, &x->o->capid6, e) != 0)
		return errmsg_prefix(e, "--capid6");
	x->o->capid6.origin = CAPID6_FROM_OPTION;
	return 0;
}

/* The options whose value is a file or directory name: none may be empty
 * (each says what to give instead), and only one --cgroup. */
static int
opt_msr_batch_path(struct optctx *x, const char *arg, struct errmsg *e)
{
	x->o->msr_batch_path = arg;
	x->o->have_msr_safe_path = true;
	if (*arg == '\0')
		return errmsg_set(e, _("--msr-batch-path: empty file name; give e.g. "
		    "--msr-batch-path /dev/cpu/msr_batch"));
	return 0;
}

static int
opt_textfile(struct optctx *x, const char *arg, struct errmsg *e)
{
	x->o->textfile = arg;
	if (*arg == '\0')
		return errmsg_set(e, _("--textfile: empty directory name; give the node exporter's "
		    "--collector.textfile.directory, e.g. /var/lib/prometheus/node-exporter"));
	return 0;
}

static int
opt_record(struct optctx *x, const char *arg, struct errmsg *e)
{
	x->o->record = arg;
	if (*arg == '\0')
		return errmsg_set(e, _("--record: empty file name; give the trace file to write, "
		    "e.g. --record run.trace"));
	return 0;
}

static int
opt_cgroup(struct optctx *x, const char *arg, struct errmsg *e)
{
	struct options *o = x->o;

	if (*arg == '\0')
		return errmsg_set(e, _("--cgroup: empty path; give a cgroup directory such as "
		    "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_1234"));
	if (o->cgroup != NULL && strcmp(o->cgroup, arg) != 0)
		return errmsg_set(e, _("--cgroup given twice (%s, %s); give one cgroup, "
		    "and --pid for other processes"), o->cgroup, arg);
	o->cgroup = arg;
	return 0;
}

static int
opt_die_map(struct optctx *x, const char *arg, struct errmsg *e)
{
	x->o->die_map = arg;
	if (*arg == '\0')
		return errmsg_set(e, _("--die-map: empty file name; give a die map file (httop-diemap(5))"));
	return 0;
}

static int
opt_topology(struct optctx *x, const char *arg, struct errmsg *e)
{
	x->o->topology = arg;
	if (*arg == '\0')
		return errmsg_set(e, _("--topology: empty path; give an hwloc XML file "
		    "(lstopo-no-graphics --of xml FILE) or a sysfs root directory"));
	return 0;
}

static int
opt_cpuid(struct optctx *x, const char *arg, struct errmsg *e)
{
	x->o->cpuid = arg;
	if (*arg == '\0')
		return errmsg_set(e, _("--cpuid: empty file name; give a libcpuid raw dump "
		    "(cpuid_tool --save=FILE)"));
	return 0;
}

static int
opt_sysfs_root(struct optctx *x, const char *arg, struct errmsg *e)
{
	x->o->sysfs_root = arg;
	if (*arg == '\0')
		return errmsg_set(e, _("--sysfs-root: empty directory name; give e.g. --sysfs-root /sys"));
	return 0;
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

/* --level LEVEL, --textfile-level LEVEL: the level, or -1 with the
 * message. */
static int
level_of(const char *opt, const char *arg, enum out_level *l, struct errmsg *e)
{
	if (out_level_parse(arg, l) != 0)
		return errmsg_set(e, _("%s: unknown level '%s'; give node, package, core or thread"),
		    opt, arg);
	return 0;
}

static int
opt_level(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (level_of("--level", arg, &x->o->level, e) != 0)
		return -1;
	x->o->have_level = true;
	return 0;
}

static int
opt_textfile_level(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (level_of("--textfile-level", arg, &x->o->textfile_level, e) != 0)
		return -1;
	x->o->have_textfile_level = true;
	return 0;
}

/* --acct-record FILE: the Slurm epilog's work (httop(1), JOBS). */
static int
opt_acct_record(struct optctx *x, const char *arg, struct errmsg *e)
{
	if (*arg == '\0')
		return errmsg_set(e, _("--acct-record: empty file name; give httop's JSON "
		    "lines of the job"));
	x->o->acct_record = arg;
	return 0;
}

/* After the last option: the command, then what options exclude. */
static int
options_finish(struct optctx *x, struct errmsg *e)
{
	struct options *o = x->o;

	if (take_command(x->argc, x->argv, o, x->value, e) != 0)
		return -1;
	return options_check(o, e);
}

static int
opt_version(struct optctx *x, const char *arg, struct errmsg *e)
{
	(void)x;
	(void)arg;
	(void)e;
	/* GNU's coding standards, --version: name and version, the copyright
	 * (COPYING's first line), the licence, free software, no warranty. */
	printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	printf("Copyright (C) %s %s.\n", HTTOP_COPYRIGHT_YEARS, HTTOP_COPYRIGHT_HOLDER);
	fputs(_("License BSD-2-Clause: <https://spdx.org/licenses/BSD-2-Clause.html>\n"
	    "This is free software: you are free to change and redistribute it.\n"
	    "There is NO WARRANTY, to the extent permitted by law.\n"), stdout);
	return 1;
}

static int
opt_help(struct optctx *x, const char *arg, struct errmsg *e)
{
	(void)x;
	(void)arg;
	(void)e;
	options_usage(stdout);
	return 1;
}

/* ---- The defaults --help states, from the code's own values ---------------- */

static void
dflt_delay(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%g", o->delay);
	snprintf(v[1], DFLT_LEN, "%g", PACER_DELAY_MIN);
}

static void
dflt_format(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", out_format_name(o->format));
}

static void
dflt_textfile_level(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", out_level_name(o->textfile_level));
}

static void
dflt_level(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", out_level_name(o->level));
}

static void
dflt_source(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", source_kind_name(o->source));
}

static void
dflt_msr_path(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", o->msr_path);
}

static void
dflt_msr_safe_path(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", o->msr_safe_path);
}

static void
dflt_msr_batch_path(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", o->msr_batch_path);
}

static void
dflt_scenario(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", o->scenario != NULL ? o->scenario : OPT_SCENARIO_DEFAULT);
}

static void
dflt_seed(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%llu", (unsigned long long)o->seed);
}

static void
dflt_on_conflict(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", conflict_policy_name(o->on_conflict));
}

static void
dflt_remote_httop(const struct options *o, char v[][DFLT_LEN])
{
	snprintf(v[0], DFLT_LEN, "%s", o->remote_httop != NULL ? o->remote_httop :
	    OPT_REMOTE_HTTOP_DEFAULT);
}

static void
dflt_seconds(const struct options *o, char v[][DFLT_LEN])
{
	(void)o;
	snprintf(v[0], DFLT_LEN, "%g", OPT_CHECK_SECONDS_DEFAULT);
}

/* ---- The options, one row each, in the order of --help -------------------- */

#define F(member) offsetof(struct options, member)

static const struct optdef optdefs[] = {
	{ "delay", 'd', VAL_REQUIRED, "SECS", opt_delay, 0, false,
	    N_("refresh interval in seconds (default %s, minimum %s)"), dflt_delay },
	{ "interval", 0, VAL_REQUIRED, "SECS", opt_delay, 0, false,
	    N_("the same as -d"), NULL },
	{ "iterations", 'n', VAL_REQUIRED, "N", opt_iterations, 0, false,
	    N_("stop after N intervals (default: until stopped)"), NULL },
	{ "batch", 'b', VAL_NONE, NULL, opt_flag, F(batch), false,
	    N_("write each interval to standard output, no screen"), NULL },
	{ "align", 0, VAL_NONE, NULL, opt_flag, F(align), false,
	    N_("in batch mode read the counters when the wall clock is\nat a multiple of -d (many nodes ask their nodes for it)"), NULL },
	{ "format", 0, VAL_REQUIRED, "FMT", opt_format, 0, false,
	    N_("batch output format: text, csv, json, openmetrics or\nsummary (default %s); implies -b"), dflt_format },
	{ "textfile", 0, VAL_REQUIRED, "DIR", opt_textfile, 0, false,
	    N_("after every interval write DIR/httop.prom for the\nnode exporter's textfile collector"), NULL },
	{ "textfile-level", 0, VAL_REQUIRED, "LEVEL", opt_textfile_level, 0, false,
	    N_("how far down --textfile goes: node, package, core or\nthread (default %s)"), dflt_textfile_level },
	{ "level", 0, VAL_REQUIRED, "LEVEL", opt_level, 0, false,
	    N_("the same for --format openmetrics (default %s)"), dflt_level },
	{ "host", 0, VAL_REQUIRED, "NAME", opt_host, 0, false,
	    N_("the host name the outputs give (default: the node's)"), NULL },
	{ "source", 0, VAL_REQUIRED, "SRC", opt_source, 0, true,
	    NULL /* from the table of sources: source_help() */, dflt_source },
	{ "replay", 0, VAL_REQUIRED, "FILE", opt_replay, 0, false,
	    N_("replay a recorded trace (implies --source replay)"), NULL },
	{ "record", 0, VAL_REQUIRED, "FILE", opt_record, 0, false,
	    N_("write a trace of the run to FILE while monitoring\n(gzip when FILE ends in .gz; format: httop-trace(5))"), NULL },
	{ "record-compress", 0, VAL_NONE, NULL, opt_flag, F(record_compress), false,
	    N_("gzip the --record trace whatever its name"), NULL },
	{ "topology", 0, VAL_REQUIRED, "PATH", opt_topology, 0, true,
	    N_("read the topology from an hwloc XML file, or from a\ndirectory with a copy of a machine's /sys and /proc\n(made by hwloc-gather-topology)"), NULL },
	{ "cpuid", 0, VAL_REQUIRED, "FILE", opt_cpuid, 0, true,
	    N_("read the CPU identity from a libcpuid raw dump"), NULL },
	{ "msr-path", 0, VAL_REQUIRED, "TMPL", opt_msr_path, 0, true,
	    N_("MSR device path with one %u for the CPU number\n(default %s)"), dflt_msr_path },
	{ "msr-safe-path", 0, VAL_REQUIRED, "TMPL", opt_msr_safe_path, 0, true,
	    N_("msr-safe's per-CPU device with one %u for the CPU\nnumber (default %s)"), dflt_msr_safe_path },
	{ "msr-batch-path", 0, VAL_REQUIRED, "FILE", opt_msr_batch_path, 0, true,
	    N_("msr-safe's batch device (default %s)"), dflt_msr_batch_path },
	{ "sim", 0, VAL_REQUIRED, "SCENARIO", opt_sim, 0, true,
	    N_("simulate this machine (or --topology's) running a load:\na scenario name (idle, busy, ..., demo) or file;\nthe machine stays this one: --demo is the demo machine\n(implies --source sim; default scenario: %s)"), dflt_scenario },
	{ "seed", 0, VAL_REQUIRED, "N", opt_seed, 0, true,
	    N_("random seed of the simulator (default %s)"), dflt_seed },
	{ "cpus", 0, VAL_REQUIRED, "LIST", opt_cpus, 0, true,
	    N_("read only these CPUs' cores, e.g. 0-3,8"), NULL },
	{ "force", 0, VAL_NONE, NULL, opt_flag, F(force), true,
	    N_("use the counters even if another program holds them"), NULL },
	{ "restore", 0, VAL_NONE, NULL, opt_flag, F(restore), false,
	    N_("put back the counter registers a killed httop left\nprogrammed, and exit"), NULL },
	{ "on-conflict", 0, VAL_REQUIRED, "POLICY", opt_on_conflict, 0, true,
	    N_("when another program reprograms the counters mid-run:\nreport, reclaim or exit (default %s)"), dflt_on_conflict },
	{ "demo", 0, VAL_NONE, NULL, opt_demo, 0, true,
	    N_("simulate the demo machine (a built-in two-socket\nSkylake-SP) running the demo scenario; with --sim,\nthat scenario instead"), NULL },
	{ "pid", 'p', VAL_REQUIRED, "PID", opt_pid, 0, false,
	    N_("watch a job: show the cores its threads may run on\n(repeatable, or PID,PID...; key j shows all cores)"), NULL },
	{ "cgroup", 0, VAL_REQUIRED, "PATH", opt_cgroup, 0, true,
	    N_("watch a job: the cores of its cgroup's cpuset (v2, or\nv1 cpuset; absolute, or as /proc/PID/cgroup says)"), NULL },
	{ "job", 0, VAL_OPTIONAL, "[ID]", opt_job, 0, false,
	    N_("watch a Slurm job: the cores of its cgroup, or of its\nprocesses, on this node (without ID: the only job\nrunning here)"), NULL },
	{ "nodes", 0, VAL_REQUIRED, "LIST", opt_nodes, 0, false,
	    N_("watch many nodes: run httop -b --format json on each\n(Slurm's hostlist syntax: c[001-128,200]) and show\nthem together; with -b merge their lines"), NULL },
	{ "all-nodes", 0, VAL_NONE, NULL, opt_flag, F(all_nodes), false,
	    N_("with --job ID: watch every node of the job"), NULL },
	{ "via", 0, VAL_REQUIRED, "HOW", opt_via, 0, false,
	    N_("how the nodes' httop is started: ssh, srun (in the\njob given with --job ID) or a command with %h for\nthe host (default: srun with --all-nodes, else ssh)"), NULL },
	{ "remote-httop", 0, VAL_REQUIRED, "PATH", opt_remote_httop, 0, false,
	    N_("the httop the nodes run (default %s)"), dflt_remote_httop },
	{ "compact", 0, VAL_NONE, NULL, opt_flag, F(compact), false,
	    N_("with --format json: each line's cores and threads as\npositional arrays, 5 to 10 times shorter (many nodes\nask their nodes for it)"), NULL },
	{ "acct-record", 0, VAL_REQUIRED, "FILE", opt_acct_record, 0, false,
	    N_("print the compact record (httop1) of the whole job\nin FILE (httop's JSON lines) for Slurm's accounting,\nand exit (the Slurm epilog's work; httop(1), JOBS)"), NULL },
	{ "acct-merge", 0, VAL_REQUIRED, "TEXT", opt_string, F(acct_merge), false,
	    N_("with --acct-record: print TEXT (a job's AdminComment)\nwith this node's record added or replaced"), NULL },
	{ "output", 'o', VAL_REQUIRED, "FILE", opt_string, F(output), false,
	    N_("write the batch output (or --check's report) to FILE,\nnot standard output; implies -b. With a command: its\nsummary (and, with -b or --format, its intervals)"), NULL },
	{ "die-map", 0, VAL_REQUIRED, "FILE", opt_die_map, 0, true,
	    N_("place the cores on the die grid as FILE says\n(format: httop-diemap(5))"), NULL },
	{ "sysfs-root", 0, VAL_REQUIRED, "DIR", opt_sysfs_root, 0, true,
	    N_("read the die's tile registers (CAPID6) under DIR\ninstead of /sys"), NULL },
	{ "capid6", 0, VAL_REQUIRED, "VALUE[,VALUE...]", opt_capid6, 0, true,
	    N_("the die's tile registers (CAPID6), one per package,\nfor a machine that is not this one (--topology,\n--replay) or without root"), NULL },
	{ "check", 0, VAL_NONE, NULL, opt_flag, F(check), false,
	    N_("check the figures on this machine against loads whose\nanswer is known, then exit (httop(1), CHECK)"), NULL },
	{ "check-case", 0, VAL_REQUIRED, "NAME", opt_check_case, 0, false,
	    N_("--check runs only this case: idle, t0, t1, both, half,\napart or uneven"), NULL },
	{ "seconds", 0, VAL_REQUIRED, "N", opt_seconds, 0, false,
	    N_("--check measures each case for N seconds (default %s)"), dflt_seconds },
	{ "verbose", 'v', VAL_NONE, NULL, opt_flag, F(verbose), false,
	    N_("say more: --source auto's reason for each source\nbefore the one it chose (without -v: their names)"), NULL },
	{ "version", 'V', VAL_NONE, NULL, opt_version, 0, false,
	    N_("print the version and exit"), NULL },
	{ "help", 'h', VAL_NONE, NULL, opt_help, 0, false,
	    N_("print this help and exit"), NULL },
};

#undef F

#define NOPTS (sizeof optdefs / sizeof optdefs[0])
/* A long option's code from getopt: LONG_CODE + its row (above any char). */
#define LONG_CODE 256

/* The option as --help shows it: "-d, --delay SECS", "--job [ID]". */
static void
usage_name(char *buf, size_t len, const struct optdef *d)
{
	int n = 0;

	if (d->letter != 0)
		n = snprintf(buf, len, "-%c, ", d->letter);
	snprintf(buf + n, len - (size_t)n, "--%s%s%s", d->name, d->meta != NULL ? " " : "",
	    d->meta != NULL ? d->meta : "");
}

/* --source's help from the table of sources (source/kinds.h): every name,
 * the default `dflt` and auto's order, broken into lines of at most 50
 * columns. */
static const char *
source_help(char *buf, size_t len, const char *dflt)
{
	char all[160], steps[160], *text = NULL;
	size_t n = 0;
	FILE *mem;
	int k;

	source_kind_list(all, sizeof all);
	source_kind_auto_list(steps, sizeof steps, 1, false);
	k = snprintf(buf, len, _("counter source: %s (default %s: %s)"), all, dflt, steps);
	mem = open_memstream(&text, &n);
	if (k < 0 || mem == NULL)
		return buf;
	text_wrap(mem, 0, 50, buf);
	if (fclose(mem) == 0 && n > 0 && n < len) {
		memcpy(buf, text, n);
		buf[n - (text[n - 1] == '\n')] = '\0';
	}
	free(text);
	return buf;
}

/* An option's help, translated, each "%s" replaced by the default its
 * row's dflt gives from the options `d` (those before any is given). */
static const char *
help_text(char *buf, size_t len, const struct optdef *row, const struct options *d)
{
	char v[2][DFLT_LEN] = { "", "" };
	const char *w = row->help != NULL ? _(row->help) : NULL;
	size_t o = 0, k = 0, n;

	if (row->dflt == NULL)
		return w;
	row->dflt(d, v);
	if (w == NULL)
		return source_help(buf, len, v[0]);
	while (*w != '\0' && o + 1 < len) {
		if (w[0] == '%' && w[1] == 's' && k < 2) {
			n = strlen(v[k]);
			if (n > len - 1 - o)
				n = len - 1 - o;
			memcpy(buf + o, v[k++], n);
			o += n;
			w += 2;
		} else {
			buf[o++] = *w++;
		}
	}
	buf[o] = '\0';
	return buf;
}

void
options_usage(FILE *fp)
{
	char opt[64], text[1024];
	struct options d;
	size_t i;

	/* A line for each way of running httop (its modes, app.c; many
	 * nodes, --acct-record, --restore): httop(1)'s SYNOPSIS has the same
	 * lines (tests/cli/test_docs.sh). */
	fputs(_("Usage: httop [options]\n"
	    "       httop -b [--format FMT] [-d SECS] [-n N] [options]\n"
	    "       httop --demo [options]\n"
	    "       httop --replay FILE [options]\n"
	    "       httop {--pid PID | --cgroup PATH | --job [ID]} [options]\n"
	    "       httop --nodes LIST [options]\n"
	    "       httop --job ID --all-nodes [options]\n"
	    "       httop --check [options]\n"
	    "       httop --restore [options]\n"
	    "       httop --acct-record FILE [--acct-merge TEXT]\n"
	    "       httop [options] -- COMMAND [ARGS...]\n"), fp);
	fputs(_("Show, for every physical core, how its time splits between neither, one or\n"
	    "both SMT threads active, with per-thread utilisation, CPI and frequency,\n"
	    "from the performance counters. With a command: run it, watch the cores its\n"
	    "processes may run on, and print a summary of the whole run when it ends.\n"), fp);
	fputc('\n', fp);
	/* The option indented as getopt_long users expect (short options at
	 * column 2, long-only ones at 6), its text from column 25; an option
	 * too long for that gets a line of its own. */
	options_defaults(&d);
	for (i = 0; i < NOPTS; i++) {
		const char *w = help_text(text, sizeof text, &optdefs[i], &d), *nl;
		const char *ind = optdefs[i].letter == 0 ? "      " : "  ";
		int len;

		usage_name(opt, sizeof opt, &optdefs[i]);
		len = (int)(strlen(ind) + strlen(opt));
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
	fputc('\n', fp);
	/* GNU's coding standards, --help: where to report bugs, the home page
	 * (AC_INIT's bug-report and URL arguments). */
	fprintf(fp, _("Report bugs to: %s\n"), PACKAGE_BUGREPORT);
	fprintf(fp, _("%s home page: <%s>\n"), PACKAGE_NAME, PACKAGE_URL);
}

/* getopt_long's tables from the rows: long options (each coded LONG_CODE
 * + its row) and the short ones. '+': the options end at the first word
 * that is not one, so that a command's own options after "--" are its
 * own; ':': a missing value is told apart from an unknown option. */
static void
getopt_tables(struct option *lo, char *shorts)
{
	static const int has[] = { no_argument, required_argument, optional_argument };
	const struct optdef *d;
	size_t i, k = 0;

	shorts[k++] = '+';
	shorts[k++] = ':';
	for (i = 0; i < NOPTS; i++) {
		d = &optdefs[i];
		lo[i] = (struct option){ d->name, has[d->val], NULL, LONG_CODE + (int)i };
		if (d->letter == 0)
			continue;
		shorts[k++] = d->letter;
		if (d->val != VAL_NONE)
			shorts[k++] = ':';
		if (d->val == VAL_OPTIONAL)
			shorts[k++] = ':';
	}
	shorts[k] = '\0';
	lo[NOPTS] = (struct option){ NULL, 0, NULL, 0 };
}

/* The row of getopt's code c; NULL: not an option ('?', ':'). */
static const struct optdef *
optdef_of(int c)
{
	size_t i;

	if (c >= LONG_CODE && (size_t)(c - LONG_CODE) < NOPTS)
		return &optdefs[c - LONG_CODE];
	for (i = 0; i < NOPTS; i++)
		if (optdefs[i].letter != 0 && optdefs[i].letter == c)
			return &optdefs[i];
	return NULL;
}

/* An option the nodes' httop gets as it was given (the row's pass): the
 * source and what it reads, the CPUs, the conflict policy. -d, -n and
 * --job are added from their values (mode_nodes.c). */
static void
note_remote(struct options *o, const struct optdef *d, const char *arg)
{
	char name[64];

	if (!d->pass)
		return;
	snprintf(name, sizeof name, "--%s", d->name);
	o->remote_args = xreallocarray(o->remote_args, o->nremote_args + 2, sizeof *o->remote_args);
	o->remote_args[o->nremote_args++] = xstrdup(name);
	if (arg != NULL)
		o->remote_args[o->nremote_args++] = xstrdup(arg);
}

enum options_result
options_parse(int argc, char **argv, struct options *o, struct errmsg *e)
{
	struct optctx x = { o, NULL, argc, argv, NULL, NULL };
	struct option lo[NOPTS + 1];
	char shorts[3 + 3 * NOPTS];
	int c, rc = 0;

	options_defaults(o);
	getopt_tables(lo, shorts);
	opterr = 0;
	optind = 1;
	while (rc == 0 && (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (optarg != NULL)
			x.value = optarg;
		if ((x.d = optdef_of(c)) == NULL) {
			if (c == ':')
				errmsg_set(e, _("%s needs a value; see httop --help"), argv[optind - 1]);
			else
				unknown_option(argv[optind - 1], e);
			rc = -1;
			break;
		}
		note_remote(o, x.d, optarg);
		rc = x.d->parse(&x, optarg, e);
	}
	if (rc == 0)
		rc = options_finish(&x, e);
	if (rc != 0)
		options_free(o);
	return rc == 0 ? OPTS_RUN : rc > 0 ? OPTS_EXIT : OPTS_ERROR;
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
