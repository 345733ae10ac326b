/* nodeiv_int.h: what nodeiv.c (the figures of a node's line) and
 * nodeiv_machine.c (the machine it describes) share; private to them. */
#ifndef HTTOP_NODEIV_INT_H
#define HTTOP_NODEIV_INT_H

#include <stdbool.h>

#include "cluster/nodeiv.h"

static inline bool
is(const struct jdoc *d, int i, enum jtype t)
{
	return i >= 0 && d->t[i].type == t;
}

/* A whole number member within [0, max]. */
int nodeiv_get_uint(struct jobj *o, const char *key, unsigned max, unsigned *v,
    struct errmsg *e);
/* A whole number member within [0, max] into *v: true, or false (absent,
 * or not one) with no message made (an optional member). */
bool nodeiv_opt_uint(struct jobj *o, const char *key, unsigned max, unsigned *v);
/* A whole number token within [0, max]. */
int nodeiv_tok_uint(const struct jdoc *d, int i, const char *key, unsigned max, unsigned *v,
    struct errmsg *e);

/* Is the line read light: its cores, or all from its packages on, passed
 * over (jdoc_parse_skip, jdoc_parse_head; cluster.c)? */
static inline bool
passed_over(const struct jdoc *d, const struct jobj *root)
{
	return is(d, jobj_peek(root, "packages"), J_SKIP) ||
	    is(d, jobj_peek(root, "cores"), J_SKIP) || is(d, jobj_peek(root, "core_figs"), J_SKIP);
}

/* The elements of array member `key` of the line's root, for a loop. */
#define EACH(d, arr, i) \
	for ((i) = jfirst((d), (arr)); (i) >= 0 && (unsigned)(i) < (d)->t[(arr)].next; \
	    (i) = (int)(d)->t[(i)].next)

/* The node's plan (n->plan) made from its split, basis and scale. */
void nodeiv_make_plan(struct nodeiv *n);
/* Forget the machine of the last line (and its interval). */
void nodeiv_drop_machine(struct nodeiv *n);
/* The machine the line's figures are of: that of the last line (0), made
 * anew (1), NODEIV_FULL (a light full line before any machine), or -1. */
int nodeiv_machine_of(struct nodeiv *n, const struct jdoc *d, struct jobj *root,
    struct errmsg *e);

#endif
