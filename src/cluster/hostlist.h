/* hostlist.h: a list of node names in Slurm's hostlist syntax, expanded:
 * "c[001-128,200]", "c[01-03]-ib", "rack[1-2]n[01-04]" (every
 * combination), several items separated by commas. A range's numbers are
 * padded to the width of its first number when that has a leading zero
 * ("[08-10]": 08 09 10), as Slurm and ClusterShell do. The names come out
 * in the order written, each once. */
#ifndef HTTOP_HOSTLIST_H
#define HTTOP_HOSTLIST_H

#include <stddef.h>

#include "util/errmsg.h"

/* The most nodes one list may name: a whole large machine. */
#define HOSTLIST_MAX 65536
/* The longest node name (a DNS name is at most 253). */
#define HOSTLIST_NAME_MAX 255

struct hostlist {
	char **names;
	size_t n, cap;
	size_t *index;             /* open addressing: name index + 1, 0 empty */
	size_t nindex;             /* a power of two, > 2 n */
};

/* Expand `spec` with httop's own parser into *h (empty at the call).
 * 0, or -1 with a message naming what is wrong and where. */
int hostlist_parse(const char *spec, struct hostlist *h, struct errmsg *e);
/* Add one name (checked as hostlist_parse checks a name), unless it is
 * there already. 0, or -1 with a message. */
int hostlist_add(struct hostlist *h, const char *name, struct errmsg *e);
/* Fill *h from text holding names separated by blanks or newlines (what
 * `scontrol show hostnames` and `nodeset -e` print). 0, or -1. */
int hostlist_from_words(const char *text, struct hostlist *h, struct errmsg *e);
/* Is `name` usable as a node name: 1 to HOSTLIST_NAME_MAX letters,
 * digits, '.', '-' and '_', not starting with '-' (it would be an option
 * to ssh)? */
int hostlist_name_ok(const char *name);
void hostlist_free(struct hostlist *h);

#endif
