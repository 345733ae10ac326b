/* mode_acct.c: a Slurm job's httop summary in Slurm's accounting
 * (httop(1), JOBS): --acct-record turns the whole-job JSON record the
 * prolog's httop wrote into the compact form the epilog stores in the
 * job's AdminComment, merged with the other nodes' records; --job ID of a
 * job that has ended reads it back from sacct and prints it. */
#include "config.h"
#include "app/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/acct.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "watch/slurm.h"

int
app_acct_record(const struct options *o)
{
	struct acct_node n;
	struct acct_rec r;
	struct errmsg e;
	static char text[ACCT_TEXT_MAX + 1];
	int len;

	memset(&e, 0, sizeof e);
	if (acct_from_file(o->acct_record, &n, &e) != 0) {
		errmsg_prefix(&e, "--acct-record");
		app_report(&e);
		return EXIT_FAIL;
	}
	if (o->acct_merge != NULL &&
	    acct_parse(o->acct_merge, strlen(o->acct_merge), &r, &e) != 0) {
		errmsg_prefix(&e, _("--acct-merge: the text is not httop's record, it is left as "
		    "it is"));
		app_report(&e);
		return EXIT_FAIL;
	}
	if (o->acct_merge == NULL)
		memset(&r, 0, sizeof r);
	if (acct_merge(&r, &n) != 0 || (len = acct_format(&r, text, sizeof text)) < 0) {
		errmsg_set(&e, _("--acct-record: with node %s the record would be longer than %d "
		    "bytes (or %d nodes); it is left as it is"), n.name, ACCT_TEXT_MAX,
		    ACCT_NODES_MAX);
		acct_free(&r);
		app_report(&e);
		return EXIT_FAIL;
	}
	acct_free(&r);
	printf("%.*s\n", len, text);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

int
app_job_ended(const struct options *o, struct errmsg *e)
{
	char state[64], why[512], id[96];
	struct acct_rec r;
	struct errmsg pe;
	char *comment;
	int rc;

	snprintf(why, sizeof why, "%s", e->text);
	text_quote(id, sizeof id, o->job_id, 32);
	rc = slurm_acct_comment(o->job_id, o->user_env, state, sizeof state, &comment, e);
	if (rc < 0)
		return errmsg_prefix(e, _("%s; and its record in Slurm's accounting cannot be "
		    "read"), why), EXIT_FAIL;
	if (rc > 0)
		return errmsg_set(e, _("%s; and Slurm's accounting (sacct) has no such job"), why),
		    EXIT_FAIL;
	memset(&pe, 0, sizeof pe);
	if (comment[0] == '\0' || acct_parse(comment, strlen(comment), &r, &pe) != 0 || r.n == 0) {
		free(comment);
		if (pe.text[0] != '\0')
			return errmsg_set(e, _("--job %s (%s, not running): its AdminComment in Slurm's "
			    "accounting is not httop's record (%s)"), id, state, pe.text), EXIT_FAIL;
		return errmsg_set(e, _("--job %s (%s, not running): Slurm's accounting holds no "
		    "httop record of it (its AdminComment is empty: httop-epilog stored none)"), id,
		    state), EXIT_FAIL;
	}
	free(comment);
	acct_print(stdout, o->job_id, &r);
	acct_free(&r);
	return fflush(stdout) == 0 ? EXIT_DONE : EXIT_FAIL;
}
