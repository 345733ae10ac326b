/* test_slurm.c: what scontrol prints, parsed (slurm_parse.c), and --job
 * end to end (slurm.c) with a stand-in scontrol that answers with the
 * same recorded outputs, over fake cgroup and /proc trees. The outputs in
 * tests/data/slurm were recorded from Slurm 22.05 (tests/data/slurm/README
 * says how). */
#define _GNU_SOURCE
#include "unit/testutil.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cpulist.h"
#include "watch/job.h"
#include "watch/slurm.h"

static char root[PATH_MAX];   /* the temporary directory */

/* A recorded output, whole. */
static char *
recorded(const char *name)
{
	char rel[256];
	const char *path;
	FILE *f;
	char *buf;
	long n;

	snprintf(rel, sizeof rel, "tests/data/slurm/%s", name);
	path = srcfile(rel);
	f = fopen(path, "r");
	if (f == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* --- The parsers. --------------------------------------------------- */

static void
test_duration(void **state)
{
	(void)state;
	assert_int_equal(slurm_parse_duration("00:00:02"), 2);
	assert_int_equal(slurm_parse_duration("01:02:03"), 3723);       /* 3600 + 120 + 3 */
	assert_int_equal(slurm_parse_duration("1-02:03:04"), 93784);    /* 86400 + 7384 */
	assert_int_equal(slurm_parse_duration("03:04"), 184);           /* MM:SS */
	assert_int_equal(slurm_parse_duration("12"), -1);
	assert_int_equal(slurm_parse_duration("1-"), -1);
	assert_int_equal(slurm_parse_duration("UNLIMITED"), -1);
	assert_int_equal(slurm_parse_duration("00:0x:02"), -1);
}

/* A running job whose name has blanks: the name is the rest of its line. */
static void
test_show_running(void **state)
{
	struct slurm_job j[2];
	struct errmsg e;
	char *t = recorded("show-job-running.txt");

	(void)state;
	assert_int_equal(slurm_parse_show_job(t, j, 2, &e), 1);
	assert_string_equal(j[0].id, "3");
	assert_string_equal(j[0].shown, "3");
	assert_string_equal(j[0].name, "my job with spaces");
	assert_string_equal(j[0].user, "root");
	assert_int_equal(j[0].uid, 0);
	assert_string_equal(j[0].state, "RUNNING");
	assert_string_equal(j[0].nodes, "localhost");
	assert_int_equal(j[0].runtime, 2);
	free(t);
}

/* An array task: its own JobId (5) and the name the user knows (4_1); a
 * pending one has no node yet; an array's ID names all its tasks. */
static void
test_show_array(void **state)
{
	struct slurm_job j[4];
	struct errmsg e;
	char *t = recorded("show-job-array-task.txt");

	(void)state;
	assert_int_equal(slurm_parse_show_job(t, j, 4, &e), 1);
	assert_string_equal(j[0].id, "5");
	assert_string_equal(j[0].shown, "4_1");
	assert_string_equal(j[0].name, "second");
	free(t);
	t = recorded("show-job-pending.txt");
	assert_int_equal(slurm_parse_show_job(t, j, 4, &e), 1);
	assert_string_equal(j[0].shown, "4_2");
	assert_string_equal(j[0].state, "PENDING");
	assert_string_equal(j[0].nodes, "");
	assert_int_equal(j[0].runtime, 0);
	free(t);
	t = recorded("show-job-array.txt");
	assert_int_equal(slurm_parse_show_job(t, j, 4, &e), 2);
	assert_string_equal(j[0].shown, "8_2");
	assert_string_equal(j[1].id, "9");
	assert_string_equal(j[1].shown, "8_1");
	/* Room for one: still counted. */
	assert_int_equal(slurm_parse_show_job(t, j, 1, &e), 2);
	free(t);
}

/* What scontrol says when it has no job to show: not its job output. A
 * name cannot pass for another field: the first of each key counts, and
 * JobName takes the rest of its line. */
static void
test_show_errors(void **state)
{
	struct slurm_job j[1];
	struct errmsg e;
	char *t;

	(void)state;
	t = recorded("show-job-invalid.txt");
	assert_int_equal(slurm_parse_show_job(t, j, 1, &e), -1);
	assert_non_null(strstr(e.text, "JobId="));
	free(t);
	t = recorded("show-job-noctld.txt");
	assert_int_equal(slurm_parse_show_job(t, j, 1, &e), -1);
	free(t);
	assert_int_equal(slurm_parse_show_job("", j, 1, &e), -1);
	assert_int_equal(slurm_parse_show_job("JobId=12 JobName=x UserId=evil(1) JobState=FAKE\n"
	    "   UserId=alice(1000) GroupId=alice(1000)\n   JobState=RUNNING Reason=None\n"
	    "   RunTime=UNLIMITED\n   Comment=NodeList=elsewhere\n   NodeList=c[01-04]\n", j, 1, &e), 1);
	assert_string_equal(j[0].name, "x UserId=evil(1) JobState=FAKE");
	assert_string_equal(j[0].user, "alice");
	assert_int_equal(j[0].uid, 1000);
	assert_string_equal(j[0].state, "RUNNING");
	assert_int_equal(j[0].runtime, -1);
	/* "Comment=NodeList=elsewhere" is the key Comment: NodeList is the
	 * real one. */
	assert_string_equal(j[0].nodes, "c[01-04]");
	/* A user Slurm cannot name: its number. */
	assert_int_equal(slurm_parse_show_job("JobId=1 JobName=a\n UserId=(null)(4321)\n", j, 1,
	    &e), 1);
	assert_string_equal(j[0].user, "(null)");
	assert_int_equal(j[0].uid, 4321);
}

/* A NodeList longer than the room kept for messages (a large job's, 43
 * hosts in 300 bytes): nodes holds its start, nodes_at and nodes_len the
 * whole of it in the text (--all-nodes watches every node of it). */
static void
test_show_long_nodelist(void **state)
{
	struct slurm_job j[1];
	struct errmsg e;
	char text[1024], list[400];
	size_t k, len = 0;

	(void)state;
	for (k = 1000; k <= 1041; k++)
		len += (size_t)snprintf(list + len, sizeof list - len, "cn%zu,", k);
	len += (size_t)snprintf(list + len, sizeof list - len, "cn9999");
	assert_int_equal(len, 300);
	snprintf(text, sizeof text, "JobId=7 JobName=wide\n   JobState=RUNNING Reason=None\n"
	    "   NodeList=%s BatchHost=cn1000\n   Nodes=cn1000 CPU_IDs=0-3 Mem=0\n", list);
	assert_int_equal(slurm_parse_show_job(text, j, 1, &e), 1);
	assert_int_equal(j[0].nodes_len, 300);
	assert_memory_equal(text + j[0].nodes_at, list, 300);
	/* the message copy: its first 255 bytes */
	assert_int_equal(strlen(j[0].nodes), 255);
	assert_memory_equal(j[0].nodes, list, 255);
}

static void
test_listpids(void **state)
{
	struct slurm_pid *p;
	struct errmsg e;
	size_t n;
	char *t;

	(void)state;
	t = recorded("listpids-two.txt");
	p = slurm_parse_listpids(t, &n, &e);
	assert_non_null(p);
	assert_int_equal(n, 4);
	assert_int_equal(p[0].pid, 30868);
	assert_string_equal(p[0].job, "5");
	assert_int_equal(p[3].pid, 30616);
	assert_string_equal(p[3].job, "3");
	free(p);
	free(t);
	t = recorded("listpids-job.txt");
	p = slurm_parse_listpids(t, &n, &e);
	assert_int_equal(n, 2);
	assert_int_equal(p[1].pid, 30616);
	free(p);
	free(t);
	/* No process: the header alone (scontrol exits 1 and says so). */
	t = recorded("listpids-none.txt");
	p = slurm_parse_listpids(t, &n, &e);
	assert_null(p);
	assert_int_equal(n, 0);
	assert_string_equal(e.text, "");
	free(t);
	/* Not its output. */
	p = slurm_parse_listpids("slurm_load_jobs error: Invalid job id\n", &n, &e);
	assert_null(p);
	assert_non_null(strstr(e.text, "header"));
	p = slurm_parse_listpids("PID JOBID STEPID LOCALID GLOBALID\n12 3 batch 0 0\nx y\n", &n,
	    &e);
	assert_null(p);
	assert_int_equal(n, 0);
	assert_non_null(strstr(e.text, "unexpected line"));
	p = slurm_parse_listpids("PID JOBID\n12 3;rm\n", &n, &e);
	assert_null(p);
}

/* --- --job end to end. ---------------------------------------------- */

/* Write `text` to root/rel, creating the directories on the way. */
static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	char *p;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
put_recorded(const char *rel, const char *name)
{
	char *t = recorded(name);

	put(rel, t);
	free(t);
}

static void
rm(const char *rel)
{
	char cmd[PATH_MAX * 2];

	snprintf(cmd, sizeof cmd, "rm -rf '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

/* root/rel; four buffers in turn, so that one call may take two. */
static const char *
at(const char *rel)
{
	static char path[4][PATH_MAX * 2];
	static unsigned next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof path[0], "%s/%s", root, rel);
	return p;
}

/* The stand-in scontrol: "listpids [ID]" and "show job -d ID" answer from
 * slurm/listpids[-ID].{out,err,rc} and slurm/show-ID.{out,err,rc}. */
static int
setup(void **state)
{
	char script[PATH_MAX * 3];

	(void)state;
	snprintf(root, sizeof root, "/tmp/test_slurm.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(script, sizeof script, "#!/bin/sh\n"
	    "d='%s/slurm'\n"
	    "case $1 in\n"
	    "listpids) f=$d/listpids${2:+-$2} ;;\n"
	    "show) f=$d/show-$4 ;;\n"
	    "*) echo \"fake scontrol: $*\" >&2; exit 2 ;;\n"
	    "esac\n"
	    "[ -f \"$f.out\" ] && cat \"$f.out\"\n"
	    "[ -f \"$f.err\" ] && cat \"$f.err\" >&2\n"
	    "[ -f \"$f.rc\" ] && exit \"$(cat \"$f.rc\")\"\n"
	    "exit 0\n", root);
	put("bin/scontrol", script);
	assert_int_equal(chmod(at("bin/scontrol"), 0755), 0);
	setenv("HTTOP_SCONTROL", at("bin/scontrol"), 1);
	put_recorded("slurm/show-3.out", "show-job-running.txt");
	put_recorded("slurm/show-5.out", "show-job-array-task.txt");
	put_recorded("slurm/show-8.out", "show-job-array.txt");
	put_recorded("slurm/show-4.out", "show-job-pending.txt");
	put_recorded("slurm/show-99.err", "show-job-invalid.txt");
	put("slurm/show-99.rc", "1\n");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	unsetenv("HTTOP_SCONTROL");
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

/* The job's CPUs and label through the watch slurm_job_watch made. */
static void
expect_watch(const char *id, const char *cpus, const char *label_start)
{
	struct cpulist l = { 0, NULL };
	struct slurm_choice c;
	struct job_watch *w;
	struct errmsg e;
	char note[128], got[64];

	if (slurm_job_watch(id, NULL, at("cg"), at("proc"), &w, &c, &e) != SLURM_OK)
		fail_msg("--job %s: %s", id != NULL ? id : "(none)", e.text);
	assert_int_equal(job_watch_update(w, 8, &l, note, sizeof note) > 0, 1);
	got[0] = '\0';
	cpulist_append(got, sizeof got, l.has, l.n);
	assert_string_equal(got, cpus);
	if (strncmp(job_watch_label(w), label_start, strlen(label_start)) != 0)
		fail_msg("label '%s', expected it to start '%s'", job_watch_label(w), label_start);
	job_watch_free(w);
	cpulist_free(&l);
}

/* The cgroup where each of Slurm's layouts puts it; 3 is uid 0's. */
static void
test_cgroup_layouts(void **state)
{
	(void)state;
	/* cgroup/v1: the cpuset hierarchy, slurm/uid_U/job_ID. */
	put("cg/cpuset/slurm/uid_0/job_3/cpuset.cpus", "1\n");
	expect_watch("3", "1", "3 (root, my job with spaces, 0:00:0");
	rm("cg");
	/* ... on a node running several slurmd: slurm_NODE (any node name,
	 * in a joint hierarchy). */
	put("cg/cpu,cpuset/slurm_n7/uid_0/job_3/cpuset.effective_cpus", "2-3\n");
	put("cg/cpu,cpuset/slurm_n7/uid_0/job_3/cpuset.cpus", "0-7\n");
	expect_watch("3", "2-3", "3 (root");
	rm("cg");
	/* cgroup/v2: system.slice/slurmstepd.scope/job_ID, cpuset enabled. */
	put("cg/system.slice/slurmstepd.scope/job_3/cgroup.controllers", "cpuset memory\n");
	put("cg/system.slice/slurmstepd.scope/job_3/cpuset.cpus.effective", "0,4\n");
	expect_watch("3", "0,4", "3 (root");
	rm("cg");
	put("cg/system.slice/n7_slurmstepd.scope/job_3/cgroup.controllers", "cpuset memory\n");
	put("cg/system.slice/n7_slurmstepd.scope/job_3/cpuset.cpus.effective", "5\n");
	expect_watch("3", "5", "3 (root");
	rm("cg");
}

/* No cgroup: the processes scontrol listpids gives, and their threads'
 * affinity; one that has gone since is left out. */
static void
test_processes(void **state)
{
	(void)state;
	put_recorded("slurm/listpids-3.out", "listpids-job.txt");
	put("proc/30615/status", "State:\tS (sleeping)\nCpus_allowed_list:\t0\n");
	put("proc/30615/task/30615/status", "State:\tS (sleeping)\nCpus_allowed_list:\t0\n");
	put("proc/30616/status", "State:\tS (sleeping)\nCpus_allowed_list:\t6\n");
	put("proc/30616/task/30616/status", "State:\tS (sleeping)\nCpus_allowed_list:\t6\n");
	expect_watch("3", "0,6", "3 (root, my job with spaces");
	rm("proc/30616");
	expect_watch("3", "0", "3 (root");
	rm("proc");
	/* None here: scontrol says so and exits 1. */
	put_recorded("slurm/listpids-3.out", "listpids-invalid.txt");
	put_recorded("slurm/listpids-3.err", "listpids-invalid.err");
	put("slurm/listpids-3.rc", "1\n");
	{
		struct slurm_choice c;
		struct job_watch *w;
		struct errmsg e;

		assert_int_equal(slurm_job_watch("3", NULL, at("cg"), at("proc"), &w, &c, &e), -1);
		assert_non_null(strstr(e.text, "no process on this node"));
		assert_non_null(strstr(e.text, "RUNNING on localhost"));
	}
	rm("slurm/listpids-3.out");
	rm("slurm/listpids-3.err");
	rm("slurm/listpids-3.rc");
}

/* --job alone: none, one or several jobs with processes here. */
static void
test_alone(void **state)
{
	struct slurm_choice c;
	struct job_watch *w;
	struct errmsg e;

	(void)state;
	put_recorded("slurm/listpids.out", "listpids-none.txt");
	put_recorded("slurm/listpids.err", "listpids-none.err");
	put("slurm/listpids.rc", "1\n");
	assert_int_equal(slurm_job_watch(NULL, NULL, at("cg"), at("proc"), &w, &c, &e), -1);
	assert_non_null(strstr(e.text, "no Slurm job has a process on this node"));
	rm("slurm/listpids.err");
	rm("slurm/listpids.rc");

	put_recorded("slurm/listpids.out", "listpids-one.txt");
	put("cg/cpuset/slurm/uid_0/job_3/cpuset.cpus", "1\n");
	expect_watch(NULL, "1", "3 (root, my job with spaces");

	/* Two: each described for the user's choice, as listpids orders them. */
	put_recorded("slurm/listpids.out", "listpids-two.txt");
	assert_int_equal(slurm_job_watch(NULL, NULL, at("cg"), at("proc"), &w, &c, &e),
	    SLURM_CHOOSE);
	assert_null(w);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.jobs[0].shown, "4_1");
	assert_string_equal(c.jobs[0].name, "second");
	assert_string_equal(c.jobs[1].shown, "3");
	assert_string_equal(c.jobs[1].user, "root");
	slurm_choice_free(&c);
	rm("cg");
	rm("slurm/listpids.out");
}

/* What Slurm says is said; a job not running, or an array with two tasks
 * running, is named as such. */
static void
test_job_errors(void **state)
{
	struct slurm_choice c;
	struct job_watch *w;
	struct errmsg e;

	(void)state;
	/* A job slurmctld does not know (any more): ended, for Slurm's
	 * accounting to say (app/mode_acct.c); what scontrol said is kept. */
	assert_int_equal(slurm_job_watch("99", NULL, at("cg"), at("proc"), &w, &c, &e),
	    SLURM_ENDED);
	assert_non_null(strstr(e.text, "--job 99: scontrol show job says: slurm_load_jobs error: "
	    "Invalid job id specified"));
	assert_int_equal(slurm_job_watch("4", NULL, at("cg"), at("proc"), &w, &c, &e), -1);
	assert_non_null(strstr(e.text, "--job 4_2: the job is PENDING, not running"));
	assert_int_equal(slurm_job_watch("8", NULL, at("cg"), at("proc"), &w, &c, &e), -1);
	assert_non_null(strstr(e.text, "names 2 jobs (an array: 8_2, 8_1"));
	/* No scontrol at all. */
	setenv("HTTOP_SCONTROL", at("bin/none"), 1);
	assert_int_equal(slurm_job_watch("3", NULL, at("cg"), at("proc"), &w, &c, &e), -1);
	assert_non_null(strstr(e.text, "HTTOP_SCONTROL="));
	setenv("HTTOP_SCONTROL", at("bin/scontrol"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_show_running),
		cmocka_unit_test(test_show_array),
		cmocka_unit_test(test_show_errors),
		cmocka_unit_test(test_show_long_nodelist),
		cmocka_unit_test(test_listpids),
		cmocka_unit_test(test_cgroup_layouts),
		cmocka_unit_test(test_processes),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_job_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
