/* linesplit.c: a stream's reads cut into lines (linesplit.h). */
#include "config.h"
#include "util/linesplit.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void
linesplit_fixed(struct linesplit *ls, size_t max, enum linesplit_over over)
{
	memset(ls, 0, sizeof *ls);
	ls->max = max > 0 ? max : 1;
	ls->cap = ls->max + 1;
	ls->part = xmalloc(ls->cap);
	ls->over = over;
}

void
linesplit_grown(struct linesplit *ls, size_t max, enum linesplit_over over)
{
	memset(ls, 0, sizeof *ls);
	ls->max = max > 0 ? max : 1;
	ls->over = over;
	ls->grown = true;
}

/* One grown room let go, kept for the next line that starts in pieces,
 * of any stream: thousands of nodes' lines through one srun stream then
 * allocate nothing a line. At most LINESPLIT_HINT_MAX: a huge line's room
 * is let go. */
static char *spare;
static size_t spare_cap;

/* Room for `need` bytes: grown by half again at least, so that a line
 * that comes in many reads (or srun's pieces of 1 KiB) is not copied anew
 * on each; never past max. */
static void
room_for(struct linesplit *ls, size_t need)
{
	size_t cap = ls->cap + ls->cap / 2;

	if (!ls->grown || need <= ls->cap)
		return;
	if (ls->cap == 0 && spare != NULL && spare_cap >= need && spare_cap >= ls->last) {
		ls->part = spare;
		ls->cap = spare_cap;
		spare = NULL;
		spare_cap = 0;
		return;
	}
	/* a new line's first room: what the last one needed */
	if (ls->cap == 0 && ls->last > cap)
		cap = ls->last;
	cap = cap > need ? cap : need;
	ls->cap = cap < ls->max ? cap : ls->max;
	ls->part = xrealloc(ls->part, ls->cap);
}

static void
let_go(struct linesplit *ls)
{
	ls->len = 0;
	if (!ls->grown)
		return;
	if (ls->part != NULL && ls->cap <= LINESPLIT_HINT_MAX && ls->cap > spare_cap) {
		free(spare);
		spare = ls->part;
		spare_cap = ls->cap;
	} else {
		free(ls->part);
	}
	ls->part = NULL;
	ls->cap = 0;
}

/* The line kept, handed on; the part then empty. */
static void
hand_on(struct linesplit *ls, linesplit_fn *fn, void *arg)
{
	if (!ls->grown)
		ls->part[ls->len] = '\0';
	else
		ls->last = ls->len < LINESPLIT_HINT_MAX ? ls->len : LINESPLIT_HINT_MAX;
	fn(arg, ls->part, ls->len);
	let_go(ls);
}

/* add bytes at p, of a line not ended at them: kept as `over` says;
 * -1 when they do not fit (LINESPLIT_FAIL). */
static int
keep(struct linesplit *ls, const char *p, size_t add, linesplit_fn *fn, void *arg)
{
	size_t k;

	while (add > 0) {
		if (ls->len + add > ls->max && ls->over == LINESPLIT_FAIL) {
			ls->len = 0;
			return -1;
		}
		if (ls->len == ls->max && ls->over == LINESPLIT_SPLIT)
			hand_on(ls, fn, arg);
		k = ls->max - ls->len < add ? ls->max - ls->len : add;
		room_for(ls, ls->len + k);
		memcpy(ls->part + ls->len, p, k);
		ls->len += k;
		p += k;
		add -= k;
		if (ls->over == LINESPLIT_CUT)
			break;
	}
	return 0;
}

int
linesplit_feed(struct linesplit *ls, const char *buf, size_t n, linesplit_fn *fn, void *arg)
{
	const char *p = buf, *end = buf + n, *nl;

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		size_t add = (size_t)(nl - p);

		if (ls->grown && ls->len == 0 && add <= ls->max) {
			fn(arg, p, add);
		} else if (ls->over == LINESPLIT_FAIL && ls->len + add > ls->max) {
			let_go(ls);
		} else {
			keep(ls, p, add, fn, arg);
			hand_on(ls, fn, arg);
		}
		p = nl + 1;
	}
	return p < end ? keep(ls, p, (size_t)(end - p), fn, arg) : 0;
}

int
linesplit_feed_piece(struct linesplit *ls, const char *buf, size_t n, linesplit_fn *fn,
    void *arg)
{
	return n > 0 ? keep(ls, buf, n, fn, arg) : 0;
}

void
linesplit_reset(struct linesplit *ls)
{
	ls->len = 0;
}

const char *
linesplit_rest(const struct linesplit *ls, size_t *len)
{
	if (!ls->grown && ls->part != NULL)
		ls->part[ls->len] = '\0';
	*len = ls->len;
	return ls->part;
}

void
linesplit_free(struct linesplit *ls)
{
	free(ls->part);
	ls->part = NULL;
	ls->len = ls->cap = 0;
}
