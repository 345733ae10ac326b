/* acct.h: a Slurm job's httop summary in the compact form the epilog
 * stores in the job's AdminComment (contrib/slurm/httop-epilog), read back
 * by `httop --job ID` once the job has ended (httop(1), JOBS).
 *
 *   httop1;NODE:c=8,s=723.1,n=6.80,t0=10.00,t1=8.10,b=75.10,u=93.20,
 *     bb=80.60,ghz=2.480,cpi=0.810,at=1.740,cpu=1.23,src=msr;NODE2:...
 *
 * (one line, no blank). "httop1" is the version; a record per node,
 * separated by ';'. NODE is [A-Za-z0-9._-]{1,64}. Fields, each at most
 * once, in any order (httop writes them in this one): c cores (integer,
 * required), s seconds of the whole job (required), n t0 t1 b the four
 * shares in percent (neither, thread 0 only, thread 1 only, both), u util
 * in percent, bb both of busy in percent, ghz, cpi, at the active threads
 * per core, cpu the job's own CPU seconds on the node (the whole run's
 * cpu_s: its tasks' time on its cores, --source sched), src the source (a
 * word). A figure is a number, a bound "LO-HI", or absent: "-" or
 * "-REASON" (httop's JSON absent code: "-no-job" under a source that does
 * not tell the job's tasks apart). The
 * whole text is at most ACCT_TEXT_MAX bytes. Everything read is
 * untrusted: anything else is an error with the byte offset, and the
 * parse costs no more than the text's length. */
#ifndef HTTOP_ACCT_H
#define HTTOP_ACCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/errmsg.h"

#define ACCT_VERSION "httop1"
/* Below MariaDB's TEXT (65535 bytes), which slurmdbd keeps it in: about
 * 500 nodes of ~110 bytes. */
#define ACCT_TEXT_MAX 60000
#define ACCT_NODES_MAX 1024
#define ACCT_NAME_MAX 64

enum acct_fig { AF_NEITHER, AF_T0, AF_T1, AF_BOTH, AF_UTIL, AF_BOTH_BUSY, AF_GHZ, AF_CPI,
	AF_THREADS, AF_CPU, AF_N };

struct acct_val {
	enum { AV_ABSENT = 0, AV_EXACT, AV_BOUND } kind;
	double v, lo, hi;           /* AV_EXACT: v; AV_BOUND: lo <= hi */
	char why[24];               /* AV_ABSENT: httop's reason code, or "" */
};

struct acct_node {
	char name[ACCT_NAME_MAX + 1];
	unsigned long cores;
	double secs;
	/* shares, util and both/busy in percent; AF_CPU the job's CPU seconds */
	struct acct_val fig[AF_N];
	char src[16];               /* "" when not said */
};

struct acct_rec {
	struct acct_node *nodes;
	size_t n;
};

/* The node's record from one of httop's JSON lines, which must be a whole
 * run ("window":"run"). 0, or -1 with the reason. */
int acct_from_json(const char *line, size_t len, struct acct_node *out, struct errmsg *e);
/* The last whole-run line of a file of httop's JSON lines. */
int acct_from_file(const char *path, struct acct_node *out, struct errmsg *e);

/* One node's record ("NODE:c=...") into buf; its length, or -1 when it
 * does not fit. */
int acct_format_node(const struct acct_node *n, char *buf, size_t len);
/* The whole text ("httop1;..."); -1 when it does not fit in len or is
 * longer than ACCT_TEXT_MAX. */
int acct_format(const struct acct_rec *r, char *buf, size_t len);

/* Parse text (len bytes) into r (allocated; acct_free). An empty text is
 * a record of no node. 0, or -1 with "byte N: what". */
int acct_parse(const char *text, size_t len, struct acct_rec *r, struct errmsg *e);
/* n into r: it replaces the record of the node of that name, or is
 * added. -1 when r already holds ACCT_NODES_MAX nodes. */
int acct_merge(struct acct_rec *r, const struct acct_node *n);
void acct_free(struct acct_rec *r);

/* The job's line from its nodes': cores summed, the longest time, shares
 * and util weighted by each node's cores and seconds (a bound where a
 * node's is one), both/busy, GHz and CPI exact when the nodes agree and
 * otherwise bounded by theirs (a ratio of sums lies between the nodes'
 * ratios), the job's CPU seconds summed (a bound where a node's is one,
 * absent where a node's is). */
void acct_combine(const struct acct_rec *r, struct acct_node *job);

/* The table: a line per node and one for the job. */
void acct_print(FILE *fp, const char *jobid, const struct acct_rec *r);

#endif
