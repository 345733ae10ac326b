/* ppc2trace.c: httop-ppc2trace, convert the output of John McCalpin's
 * periodic-performance-counters (one Lua/Python assignment per line, e.g.
 * core_fixed_counts[LP]["CPU_CLK_Unhalted.Ref"][S] = V) into an httop
 * trace (man/httop-trace.5), so that httop replays it through the same
 * metrics as a live run. See man/httop-ppc2trace.1. This file is the command
 * line; the conversion is in ppc.c. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if ENABLE_NLS
#include <locale.h>
#endif

#include "machine/topology.h"
#include "ppc.h"
#include "util/errmsg.h"
#include "util/hostname.h"
#include "util/i18n.h"
#include "util/infile.h"
#include "util/xalloc.h"

/* The importer's limits on what it reads (ppc.c enforces them while
 * reading too): a register list is a few lines, a counter file every
 * sample of a run. */
#define MAX_LIST_SIZE (64 * 1024)
#define MAX_COUNTER_SIZE ((off_t)1 << 30)

struct opts {
	const char *in, *out, *perfevtsel, *control, *topology, *host, *brand, *note;
	long sockets, smt, family, model, stepping, scale;
};

static void
usage(FILE *fp)
{
	fprintf(fp, _("usage: httop-ppc2trace [options] IN.lua > OUT.trace\n"
	    "Convert periodic-performance-counters output into an httop trace.\n"
	    "  --topology FILE.xml   the node's hwloc topology, or\n"
	    "  --sockets N --smt N   Linux Intel numbering (thread 0 of all cores, socket by\n"
	    "                        socket, then thread 1)\n"
	    "  --perfevtsel FILE     core_msr_perfevtsel.input (default: beside IN)\n"
	    "  --control FILE        core_msr_control.input (default: beside IN, optional)\n"
	    "  --family N --model N --stepping N --brand TEXT   the CPU (default: inferred)\n"
	    "  --scale N             TSC ticks per reference-event count (default: table)\n"
	    "  --host NAME           host name (default: IN's name up to the first dot)\n"
	    "  --note TEXT           added to the trace's note\n"
	    "  -o FILE               write to FILE instead of standard output\n"));
}

static int
opt_num(const char *arg, const char *name, long lo, long hi, long *out, struct errmsg *e)
{
	if (!ppc_parse_long(arg, lo, hi, out))
		return errmsg_set(e, _("%s wants a number from %ld to %ld, not \"%s\""), name, lo, hi,
		    arg);
	return 0;
}

static int
parse_opts(int argc, char **argv, struct opts *o, struct errmsg *e)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 'T' },
		{ "sockets", required_argument, NULL, 'S' },
		{ "smt", required_argument, NULL, 'M' },
		{ "perfevtsel", required_argument, NULL, 'P' },
		{ "control", required_argument, NULL, 'C' },
		{ "family", required_argument, NULL, 'f' },
		{ "model", required_argument, NULL, 'm' },
		{ "stepping", required_argument, NULL, 's' },
		{ "brand", required_argument, NULL, 'b' },
		{ "scale", required_argument, NULL, 'x' },
		{ "host", required_argument, NULL, 'H' },
		{ "note", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	memset(o, 0, sizeof *o);
	o->family = 6;   /* TSC_ratio and REF_XCLK are Intel family 6 notions */
	o->model = o->stepping = -1;
	while ((ch = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
		int rc = 0;

		switch (ch) {
		case 'T': o->topology = optarg; break;
		case 'S': rc = opt_num(optarg, "--sockets", 1, 64, &o->sockets, e); break;
		case 'M': rc = opt_num(optarg, "--smt", 1, TOPO_MAX_SMT, &o->smt, e); break;
		case 'P': o->perfevtsel = optarg; break;
		case 'C': o->control = optarg; break;
		case 'f': rc = opt_num(optarg, "--family", 0, 0xfff, &o->family, e); break;
		case 'm': rc = opt_num(optarg, "--model", 0, 0xff, &o->model, e); break;
		case 's': rc = opt_num(optarg, "--stepping", 0, 0xf, &o->stepping, e); break;
		case 'b': o->brand = optarg; break;
		case 'x': rc = opt_num(optarg, "--scale", 1, 100000, &o->scale, e); break;
		case 'H': o->host = optarg; break;
		case 'n': o->note = optarg; break;
		case 'o': o->out = optarg; break;
		case 'h': usage(stdout); exit(0);
		case 'V': printf("httop-ppc2trace %s\n", PACKAGE_VERSION); exit(0);
		default: usage(stderr); exit(2);
		}
		if (rc != 0)
			return -1;
	}
	if (optind != argc - 1) {
		usage(stderr);
		exit(2);
	}
	o->in = argv[optind];
	if ((o->sockets > 0) != (o->smt > 0))
		return errmsg_set(e, _("--sockets and --smt go together"));
	if (o->topology != NULL && o->sockets > 0)
		return errmsg_set(e, _("give --topology or --sockets/--smt, not both"));
	return 0;
}

/* FILE beside `in`, or NULL if it does not exist and is optional. */
static char *
beside(const char *in, const char *file)
{
	char *copy = xstrdup(in), *dir = dirname(copy), *path;
	size_t len = strlen(dir) + strlen(file) + 2;

	path = xmalloc(len);
	snprintf(path, len, "%s/%s", dir, file);
	free(copy);
	return path;
}

/* A regular file within its limit (a named pipe or a device is refused at
 * once), as a stream for ppc_convert; NULL with the message in e. */
static FILE *
open_input(const char *path, const char *what, off_t max, struct errmsg *e)
{
	struct infile f;

	/* Line limits are ppc.c's: it reads the stream with its own. */
	if (infile_open(&f, path, what, max, 0, e) != 0)
		return NULL;
	return f.fp;
}

/* Open the inputs, convert, write OUT. */
static int
run(const struct opts *o, struct errmsg *e)
{
	struct ppc_opts po;
	struct ppc_input lua = { NULL, o->in }, sel = { NULL, NULL }, ctl = { NULL, NULL };
	char *selpath, *ctlpath, *copy, *dot, host[64];
	FILE *out = stdout;
	int rc = -1;

	selpath = o->perfevtsel != NULL ? xstrdup(o->perfevtsel) :
	    beside(o->in, "core_msr_perfevtsel.input");
	ctlpath = o->control != NULL ? xstrdup(o->control) :
	    beside(o->in, "core_msr_control.input");
	if (access(selpath, R_OK) != 0 && o->perfevtsel == NULL) {
		errmsg_set(e, _("%s: the counter programming is not in the counter file: give "
		    "--perfevtsel FILE (the core_msr_perfevtsel.input it was recorded with)"),
		    selpath);
		goto out;
	}
	sel.name = selpath;
	if ((sel.fp = open_input(selpath, _("register list"), MAX_LIST_SIZE, e)) == NULL)
		goto out;
	ctl.name = ctlpath;
	if ((o->control != NULL || access(ctlpath, R_OK) == 0) &&
	    (ctl.fp = open_input(ctlpath, _("register list"), MAX_LIST_SIZE, e)) == NULL)
		goto out;
	if ((lua.fp = open_input(o->in, _("counter file"), MAX_COUNTER_SIZE, e)) == NULL)
		goto out;

	memset(&po, 0, sizeof po);
	po.topology = o->topology;
	po.sockets = o->sockets;
	po.smt = o->smt;
	po.family = o->family;
	po.model = o->model;
	po.stepping = o->stepping;
	po.scale = o->scale;
	po.brand = o->brand;
	po.note = o->note;
	/* The host: --host, else IN's name up to the first dot. */
	copy = xstrdup(o->in);
	snprintf(host, sizeof host, "%s", o->host != NULL ? o->host : basename(copy));
	free(copy);
	if (o->host == NULL && (dot = strchr(host, '.')) != NULL)
		*dot = '\0';
	/* a trace's host is a host name or none (hostname.h): httop refuses
	 * any other */
	if (o->host != NULL && !host_name_ok(host)) {
		errmsg_set(e, _("--host: '%s' is not a host name: give 1 to %d letters, digits, "
		    "'.', '-' and '_' (not '-' first), such as node01"), o->host, HOST_NAME_LEN);
		goto out;
	}
	if (!host_name_ok(host))
		host[0] = '\0';
	po.host = host;

	if (o->out != NULL && (out = fopen(o->out, "w")) == NULL) {
		errmsg_set(e, _("cannot create %s: %s"), o->out, strerror(errno));
		goto out;
	}
	rc = ppc_convert(&po, lua, sel, ctl, out, 0, e);
	if (out != stdout && fclose(out) != 0 && rc == 0)
		rc = errmsg_set(e, _("writing %s: %s"), o->out, strerror(errno));
out:
	if (lua.fp != NULL)
		fclose(lua.fp);
	if (sel.fp != NULL)
		fclose(sel.fp);
	if (ctl.fp != NULL)
		fclose(ctl.fp);
	free(selpath);
	free(ctlpath);
	return rc;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct errmsg e;

#if ENABLE_NLS
	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
#endif
	e.text[0] = '\0';
	if (parse_opts(argc, argv, &o, &e) != 0 || run(&o, &e) != 0) {
		fprintf(stderr, "httop-ppc2trace: %s\n", e.text);
		return 1;
	}
	return 0;
}
