/* cases.h: what httop --check runs on the two SMT threads of a core. A
 * case gives each thread one busy window per period (a fraction of the
 * period, the same in every period, on CLOCK_MONOTONIC); outside it the
 * thread sleeps. From the two windows the four shares of the split and each
 * thread's utilisation are known exactly. */
#ifndef HTTOP_CHECK_CASES_H
#define HTTOP_CHECK_CASES_H

#include <stdbool.h>

/* The period of every case: a few milliseconds, so that a measurement of
 * a second or two holds hundreds of periods (the partial period at its
 * ends is at most period / interval of any share) while the kernel's wake
 * up, tens of microseconds, stays a small part of each window. */
#define CHECK_PERIOD_S 0.005

/* Busy in [start, end) of each period, as fractions of it; start == end:
 * the thread sleeps all the time (no load runs on it), [0, 1): busy all
 * the time. 0 <= start <= end <= 1. */
struct check_window {
	double start, end;
};

struct check_case {
	const char *name;          /* "half": the command line's and JSON's */
	const char *what;          /* N_(): a line for the text report */
	struct check_window w[2];  /* thread 0, thread 1 of the core */
	const char *what1;         /* N_(): the line on a core of one thread (the
	                            * cases that need no sibling), else NULL */
};

enum { CHECK_NEITHER = 0, CHECK_T0_ONLY, CHECK_T1_ONLY, CHECK_BOTH };

extern const struct check_case check_cases[];
extern const unsigned check_ncases;

/* The case of that name, or NULL. */
const struct check_case *check_case_find(const char *name);
/* "idle, t0, ..." for messages (a static string). */
const char *check_case_names(void);
/* The length of the window, a fraction of the period. */
double check_window_len(const struct check_window *w);
/* Busy some of the time but not all: the window has two edges a period
 * (where the thread wakes and where it goes to sleep). */
bool check_window_has_edges(const struct check_window *w);
/* Does the case run anything on thread 1? (A core without a sibling can
 * run only the cases that do not.) */
bool check_case_uses_sibling(const struct check_case *c);
/* The four shares the two windows give: out[CHECK_NEITHER..CHECK_BOTH],
 * fractions of the period that sum to 1. */
void check_case_shares(const struct check_case *c, double out[4]);

#endif
