/* ppc.h: the converter behind httop-ppc2trace, apart from its command line
 * so that tests and the fuzzer (fuzz/) drive it on streams: read the
 * output of periodic-performance-counters and the register programming it
 * was recorded with, write an httop trace. */
#ifndef HTTOP_PPC_H
#define HTTOP_PPC_H

#include <stdbool.h>
#include <stdio.h>

#include "util/errmsg.h"

/* One input: an open stream and the name its messages use. */
struct ppc_input {
	FILE *fp;
	const char *name;
};

/* What the command line decides; -1 / 0 / NULL: not given. */
struct ppc_opts {
	const char *topology;      /* hwloc XML, or */
	long sockets, smt;         /* the Linux Intel numbering */
	long family, model, stepping;
	long scale;                /* TSC ticks per reference-event count */
	const char *brand;
	const char *host;          /* the trace's host name */
	const char *note;          /* added to the trace's note */
};

/* Convert `lua` (the counter file) with the programming in `perfevtsel`
 * and, if its fp is not NULL, `control`; write the trace to `out`.
 * The streams stay the caller's. 0, or -1 with a message naming the file
 * and line. A last sample cut short is dropped with a note on stderr
 * unless `quiet`. */
int ppc_convert(const struct ppc_opts *o, struct ppc_input lua, struct ppc_input perfevtsel,
    struct ppc_input control, FILE *out, int quiet, struct errmsg *e);

/* A whole decimal (or 0x hex) number within [lo, hi]: the importer's
 * fields and the command line's numbers alike. */
bool ppc_parse_long(const char *s, long lo, long hi, long *out);

#endif
