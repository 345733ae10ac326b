/* cases.c: the check's cases and the shares they imply (cases.h). */
#include "config.h"
#include "check/cases.h"

#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

/* The edge cases (idle, one thread, both all the time), windows that
 * overlap by half and never overlap, and one whose four shares all differ
 * (so that no two categories can be swapped unseen). */
const struct check_case check_cases[] = {
	{ "idle", N_("both threads asleep"), { { 0, 0 }, { 0, 0 } }, N_("the thread asleep") },
	{ "t0", N_("thread 0 busy all the time, thread 1 asleep"), { { 0, 1 }, { 0, 0 } },
	    N_("the thread busy all the time") },
	{ "t1", N_("thread 1 busy all the time, thread 0 asleep"), { { 0, 0 }, { 0, 1 } }, NULL },
	{ "both", N_("both threads busy all the time"), { { 0, 1 }, { 0, 1 } }, NULL },
	{ "half", N_("thread 0 busy in [0, 0.5), thread 1 in [0.25, 0.75) of each period"),
	    { { 0, 0.5 }, { 0.25, 0.75 } }, NULL },
	{ "apart", N_("thread 0 busy in [0, 0.5), thread 1 in [0.5, 1): never together"),
	    { { 0, 0.5 }, { 0.5, 1 } }, NULL },
	{ "uneven", N_("thread 0 busy in [0, 0.6), thread 1 in [0.2, 0.9) of each period"),
	    { { 0, 0.6 }, { 0.2, 0.9 } }, NULL },
};
const unsigned check_ncases = sizeof check_cases / sizeof check_cases[0];

const struct check_case *
check_case_find(const char *name)
{
	unsigned i;

	for (i = 0; i < check_ncases; i++)
		if (strcmp(check_cases[i].name, name) == 0)
			return &check_cases[i];
	return NULL;
}

const char *
check_case_names(void)
{
	static char buf[128];
	size_t n = 0;
	unsigned i;

	if (buf[0] != '\0')
		return buf;
	for (i = 0; i < check_ncases && n < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i > 0 ? ", " : "",
		    check_cases[i].name);
	return buf;
}

double
check_window_len(const struct check_window *w)
{
	return w->end > w->start ? w->end - w->start : 0.0;
}

bool
check_window_has_edges(const struct check_window *w)
{
	double len = check_window_len(w);

	return len > 0.0 && len < 1.0;
}

bool
check_case_uses_sibling(const struct check_case *c)
{
	return check_window_len(&c->w[1]) > 0.0;
}

void
check_case_shares(const struct check_case *c, double out[4])
{
	const struct check_window *a = &c->w[0], *b = &c->w[1];
	double la = check_window_len(a), lb = check_window_len(b);
	double lo = a->start > b->start ? a->start : b->start;
	double hi = a->end < b->end ? a->end : b->end;
	/* Both windows lie inside one period, so they meet in one piece. */
	double both = la > 0.0 && lb > 0.0 && hi > lo ? hi - lo : 0.0;

	out[CHECK_BOTH] = both;
	out[CHECK_T0_ONLY] = la - both;
	out[CHECK_T1_ONLY] = lb - both;
	out[CHECK_NEITHER] = 1.0 - (la + lb - both);
}
