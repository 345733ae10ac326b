/* optcheck.c: what the options exclude or need of each other, checked
 * once every option is read (optcheck.h). */
#include "config.h"
#include "cli/optcheck.h"

#include <string.h>
#include <unistd.h>

#include "util/i18n.h"

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
	else if (source_kind_row(o->source)->trace)
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
	if (!source_kind_row(o->source)->writes_msrs)
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
	if (source_kind_row(o->source)->trace && o->replay == NULL)
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
	if (source_kind_row(o->source)->simulated && o->scenario == NULL)
		o->scenario = OPT_SCENARIO_DEFAULT;
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

/* --align: where live counters are read in batch mode (or a command's
 * run); after check_output_options (-o implies -b). */
static int
check_align(const struct options *o, struct errmsg *e)
{
	if (!o->align)
		return 0;
	if (o->nodes != NULL || o->all_nodes)
		return errmsg_set(e, _("--align: many nodes ask their nodes for it themselves; "
		    "drop it"));
	if (o->replay != NULL || o->check)
		return errmsg_set(e, _("--align paces the reading of live counters: a replay goes "
		    "at its recording's pace, --check at its own; drop --align"));
	if (!o->batch && o->command == NULL && isatty(STDOUT_FILENO))
		return errmsg_set(e, _("--align paces batch mode's readings; the live view "
		    "refreshes from its start: add -b, or drop --align"));
	return 0;
}

/* --acct-record is all a run does: the others need it, it goes alone. */
static int
check_acct(const struct options *o, struct errmsg *e)
{
	if (o->acct_record == NULL) {
		if (o->acct_merge != NULL)
			return errmsg_set(e, _("%s goes with --acct-record FILE; add it"),
			    "--acct-merge");
		return 0;
	}
	if (o->job || o->nodes != NULL || o->command != NULL || o->check || o->output != NULL ||
	    o->record != NULL || o->textfile != NULL || o->replay != NULL || o->npids > 0 ||
	    o->cgroup != NULL)
		return errmsg_set(e, _("--acct-record only turns a record into its compact form; "
		    "drop the options of a run"));
	return 0;
}

int
options_check(struct options *o, struct errmsg *e)
{
	if (check_job_command(o, e) != 0 || check_output_options(o, e) != 0 ||
	    check_align(o, e) != 0 || check_nodes(o, e) != 0 || check_acct(o, e) != 0)
		return -1;
	return check_combination(o, e);
}
