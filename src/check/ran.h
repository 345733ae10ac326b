/* ran.h: what the load threads really ran in a case, from their own
 * record of bursts (load.h), over the case's measured window: the four
 * shares and each thread's utilisation that the source must show,
 * whatever the schedule meant (a thread that woke late, a window cut by a
 * busy host), and the parts of the tolerance that record leaves: the two
 * reads' ends and the bursts' edges (httop(1), CHECK, Tolerances). */
#ifndef HTTOP_CHECK_RAN_H
#define HTTOP_CHECK_RAN_H

#include <stdbool.h>
#include <stddef.h>

#include "check/load.h"

struct check_ran {
	bool known;                /* the loads' record is whole and the window not empty */
	double from, to;           /* the window: each read's midpoint, s (CLOCK_MONOTONIC) */
	/* How far the window's ends may lie from where the source read,
	 * summed: half of each read's span, s. */
	double read_err;
	double share[4];           /* neither, t0 only, t1 only, both (check_cases's order) */
	double util[2];
	unsigned bursts[2];        /* bursts of each thread that met the window */
	unsigned edges[2];         /* their starts and ends inside it */
};

/* The record of thread k: bursts b[k][0..n[k]) (NULL with n 0: none ran),
 * in time order, of which those on cpu[k] count (the load stops when
 * moved). The window is [from, to] with the reads' spans `span_a` and
 * `span_b` (s) around its ends. */
void check_ran_compute(struct check_ran *r, const struct load_burst *const b[2],
    const size_t n[2], const int cpu[2], double from, double to, double span_a, double span_b);

#endif
