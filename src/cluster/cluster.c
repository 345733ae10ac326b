/* cluster.c: many nodes (cluster.h): the nodes' lines read, the pipes
 * polled and drained, the tick and its deadline. The nodes' processes are
 * nodeproc.c's, the srun steps srunstep.c's, the job intervals jobiv.c's. */
#include "config.h"
#include "cluster/cluster_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/passon.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"

/* What one read takes at most: a few lines of a large node. */
#define READ_CHUNK (256u << 10)
/* A pipe holds 64 KiB (Linux's default): a node that gave this much in
 * one wake may have found its pipe full and be waiting to write. */
/* A node's "unix_time" is taken as a time from 1970 up to the end of
 * 9999; any other (1e300, inf, -5) refuses its line: a number that far
 * out would place it billions of job intervals away (a loop over them),
 * and at that size the clock's offset taken from it cancels nothing. */
#define UNIX_TIME_MAX 253402300799.0
/* A line's tokens: httop's lines have one per 7 to 8 bytes (names, figures
 * and their nulls); a hostile one of 16 MiB of "0," would have 8 million
 * (335 MB): at most one per 6 bytes of the longest line (2.8 million,
 * 112 MB) are parsed. And a parse's tokens beyond this many (a line of
 * about 2 MiB) are not kept for the next line. */
#define DOC_TOKENS (NODE_LINE_MAX / 6)
#define DOC_KEEP (1u << 18)
/* A re-written line's room (passon.h) is kept up to this. */
#define PASS_KEEP (1u << 20)
/* The most of a node's standard error line kept (for its reason). */
#define ERR_LINE_MAX 255

void
cluster_init(struct cluster *c, char *const *names, size_t n, const struct cluster_config *cfg)
{
	size_t i, k;

	memset(c, 0, sizeof *c);
	c->cfg = *cfg;
	c->n = n;
	c->nodes = xcalloc(n > 0 ? n : 1, sizeof *c->nodes);
	for (i = 0; i < n; i++) {
		struct node *nd = &c->nodes[i];

		nd->name = xstrdup(names[i]);
		nd->out_fd = nd->err_fd = -1;
		nd->slot = -1;
		nd->step = -1;
		linesplit_grown(&nd->out, NODE_LINE_MAX, LINESPLIT_FAIL);
		linesplit_fixed(&nd->err, ERR_LINE_MAX, LINESPLIT_CUT);
		for (k = 0; k < NODE_RING; k++)
			nd->rec[k].slot = -1;
		nodeiv_init(&nd->nv);
		nodeiv_expect_host(&nd->nv, names[i]);
	}
	jdoc_init(&c->doc, DOC_TOKENS);
	c->rcap = READ_CHUNK;
	c->rbuf = xmalloc(c->rcap);
	c->parts = xcalloc(n > 0 ? n : 1, sizeof *c->parts);
	c->pw = xcalloc(n > 0 ? n : 1, sizeof *c->pw);
	c->start_mono = clock_mono();
	c->top = -1;
	for (k = 0; k < NODE_RING; k++)
		c->ring_slot[k] = -1;
	c->active_hint = n;
	c->may_wait = true;
	c->hold = INFINITY;
}

/* --- its lines ------------------------------------------------------------- */

static void
node_bad_line(struct cluster *c, struct node *nd, const struct errmsg *e)
{
	text_escape(nd->bad_last, sizeof nd->bad_last, e->text);
	if (++nd->bad < NODE_BAD_LINES)
		return;
	node_stop(nd, clock_mono());
	node_lost(c, nd, _("its output is not httop's JSON (%s)"), nd->bad_last);
}

/* A line to be passed on (the merged JSON lines): *s and *len become its
 * re-written form when it holds characters a terminal would act on in
 * its strings (passon.h); -1 when it is refused (a bad line). */
static int
line_pass_on(struct cluster *c, struct node *nd, const char **s, size_t *len)
{
	struct errmsg e;
	size_t need;
	int rc = passon_scan(*s, *len, NODE_LINE_MAX, &need, &e);

	if (rc < 0) {
		node_bad_line(c, nd, &e);
		return -1;
	}
	if (rc == 0)
		return 0;
	if (need > c->pass_cap) {
		c->pass = xrealloc(c->pass, need);
		c->pass_cap = need;
	}
	passon_rewrite(c->pass, *s, *len);
	*s = c->pass;
	*len = need;
	return 0;
}

/* A line's "unix_time": absent (nodeiv's -1), or from 1970 to 9999. */
static bool
line_unix_time_ok(double t, struct errmsg *e)
{
	if (t == -1.0 || (t >= 0.0 && t <= UNIX_TIME_MAX))
		return true;
	errmsg_set(e, _("\"unix_time\" is %g, not a time from 1970 to 9999"), t);
	return false;
}

/* The line parsed and read into the node's interval (nodeiv.h): -1 when
 * it is refused, and why in *e. */
static int
node_line_parse(struct cluster *c, struct node *nd, const char *s, size_t len, struct errmsg *e)
{
	static const char *const skip_cores[] = { "packages", "cores", "core_figs", NULL };
	int rc;

	/* A node whose views are not shown is read without its cores: what
	 * the rows and the job need costs a parse of half the line; and
	 * without its threads, which httop writes after them, when its lines
	 * carry the node's weights (as the last one did: an older httop's do
	 * not): then the line's head is parsed and the rest not looked at. */
	/* Its first line too: a compact line's machine ("core_list") comes
	 * before "packages", and its rows would be let go after it (the
	 * first line of thousands of nodes read whole was most of the time
	 * to the first full frame). A full line's cores, or a line without
	 * weights, are read whole again (nodeiv_read's NODEIV_FULL). */
	nd->light = !nd->want_full;
	if ((!nd->light ? jdoc_parse(&c->doc, s, len, e) :
	    nd->nv.have_weights || !nd->nv.have_machine ?
	    jdoc_parse_head(&c->doc, s, len, skip_cores, e) :
	    jdoc_parse_skip(&c->doc, s, len, skip_cores, e)) != 0)
		return -1;
	rc = nodeiv_read(&nd->nv, &c->doc, e);
	if (rc == NODEIV_FULL) {
		nd->light = false;
		rc = jdoc_parse(&c->doc, s, len, e) != 0 ? -1 : nodeiv_read(&nd->nv, &c->doc, e);
	}
	if (rc < 0)
		return -1;
	if (rc > 0)
		nd->generation++;
	return line_unix_time_ok(nd->nv.unix_time, e) ? 0 : -1;
}

static void
node_line_read(struct cluster *c, struct node *nd, const char *s, size_t len)
{
	struct errmsg e;

	if (nd->stopping)
		return;
	while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	if (len == 0)
		return;
	if (c->cfg.pass_on && line_pass_on(c, nd, &s, &len) != 0)
		return;
	if (node_line_parse(c, nd, s, len, &e) != 0) {
		node_bad_line(c, nd, &e);
		return;
	}
	/* An interval past -n's: a node that ignores -n, not read. */
	if (!nd->nv.whole && node_has_enough(c, nd)) {
		node_end_enough(c, nd, clock_mono());
		return;
	}
	nd->bad = 0;
	nd->have = true;
	nd->lines++;
	nd->total++;
	nd->failures = 0;
	nd->last_line = clock_mono();
	nd->why[0] = '\0';
	if (nd->state == NODE_STARTING || nd->state == NODE_WAITING) {
		nd->state = NODE_UP;
		c->dl_valid = false;
	}
	if (nd->nv.whole)
		node_keep_whole(nd);
	else
		job_place(c, nd, nd->nv.unix_time >= 0.0 ? nd->nv.unix_time : clock_wall());
	if (nd->light)
		nodeiv_cores_unread(&nd->nv);
	/* a node not shown lets its rows go after its first line, or a
	 * light one (the next light one needs none); one whose lines are
	 * each read whole (a core not valid) keeps them, not made anew for
	 * each */
	if (!nd->want_full && (nd->nv.rows_light || nd->lines == 1))
		nodeiv_shed_rows(&nd->nv);
	if (c->cfg.on_line != NULL && c->error == 0)
		c->error = c->cfg.on_line(c->cfg.arg, nd, s, len);
}

/* One line of a node; the tokens of a long one are let go after it. */
static void
node_line(struct cluster *c, struct node *nd, const char *s, size_t len)
{
	node_line_read(c, nd, s, len);
	if (c->doc.cap > DOC_KEEP) {
		jdoc_free(&c->doc);
		jdoc_init(&c->doc, DOC_TOKENS);
	}
	if (c->pass_cap > PASS_KEEP) {
		free(c->pass);
		c->pass = NULL;
		c->pass_cap = 0;
	}
}

/* A node's line as the splitter hands it on. */
struct node_to {
	struct cluster *c;
	struct node *nd;
};

static void
out_line(void *arg, const char *s, size_t len)
{
	const struct node_to *to = arg;

	node_line(to->c, to->nd, s, len);
}

/* What one read gave: whole lines at once from the shared buffer, the
 * rest kept in the node's own (util/linesplit.h); a line longer than
 * NODE_LINE_MAX makes the node lost at once. */
static void
line_too_long(struct cluster *c, struct node *nd)
{
	struct errmsg e;

	errmsg_set(&e, _("a line longer than %u MiB"), NODE_LINE_MAX >> 20);
	nd->bad = NODE_BAD_LINES - 1;
	node_bad_line(c, nd, &e);
}

void
node_take_out(struct cluster *c, struct node *nd, const char *buf, size_t n)
{
	struct node_to to = { c, nd };

	if (linesplit_feed(&nd->out, buf, n, out_line, &to) != 0)
		line_too_long(c, nd);
}

void
node_take_piece(struct cluster *c, struct node *nd, const char *buf, size_t n)
{
	struct node_to to = { c, nd };

	if (linesplit_feed_piece(&nd->out, buf, n, out_line, &to) != 0)
		line_too_long(c, nd);
}

/* A line of its standard error: kept, escaped, when it is not empty. */
static void
err_line(void *arg, const char *s, size_t len)
{
	struct node *nd = arg;
	char line[ERR_LINE_MAX + 1];

	/* ssh ends its lines with CR LF */
	if (len > 0 && s[len - 1] == '\r')
		len--;
	if (len == 0)
		return;
	memcpy(line, s, len);
	line[len] = '\0';
	text_escape(nd->err_last, sizeof nd->err_last, line);
}

/* Standard error: only its last complete line is kept (for the reason). */
void
node_take_err(struct node *nd, const char *buf, size_t n)
{
	linesplit_feed(&nd->err, buf, n, err_line, nd);
}

size_t
pipe_drain(struct cluster *c, int *fd, unsigned max, size_t room, pipe_take_fn *take, void *to)
{
	size_t got = 0;
	unsigned k;
	ssize_t n;

	for (k = 0; k < max && *fd >= 0; k++) {
		n = read(*fd, c->rbuf, c->rcap);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			fd_close(fd);
			break;
		}
		got += (size_t)n;
		take(c, to, c->rbuf, (size_t)n);
	}
	/* past a pipe's worth, the writer may be waiting: a wait before the
	 * next read would cap what it can send */
	if (got >= room)
		c->busy = true;
	return got;
}

static void
take_out(struct cluster *c, void *nd, const char *buf, size_t n)
{
	node_take_out(c, nd, buf, n);
}

static void
take_err(struct cluster *c, void *nd, const char *buf, size_t n)
{
	(void)c;
	node_take_err(nd, buf, n);
}

void
node_read(struct cluster *c, struct node *nd, bool err)
{
	pipe_drain(c, err ? &nd->err_fd : &nd->out_fd, READS_PER_WAKE, PIPE_ROOM,
	    err ? take_err : take_out, nd);
	if (nd->out_fd < 0 && nd->err_fd < 0 && nd->reaped && nd->pid > 0)
		node_finish(c, nd);
}

size_t
cluster_pollfds(struct cluster *c, struct pollfd **pfd)
{
	size_t i, k = 0;

	if (c->pfd_cap < 2 * (c->n + c->nsteps)) {
		c->pfd_cap = 2 * (c->n + c->nsteps);
		c->pfd = xreallocarray(c->pfd, c->pfd_cap, sizeof *c->pfd);
		c->pfd_node = xreallocarray(c->pfd_node, c->pfd_cap, sizeof *c->pfd_node);
	}
	/* in one step, the nodes have no pipes of their own */
	for (i = 0; i < c->n && !c->cfg.one_step; i++) {
		int fds[2] = { c->nodes[i].out_fd, c->nodes[i].err_fd }, j;

		for (j = 0; j < 2; j++) {
			if (fds[j] < 0)
				continue;
			c->pfd[k].fd = fds[j];
			c->pfd[k].events = POLLIN;
			c->pfd[k].revents = 0;
			c->pfd_node[k++] = i;
		}
	}
	/* a step's two pipes: index n + the step's */
	for (i = 0; i < c->nsteps; i++) {
		int fds[2] = { c->steps[i].out_fd, c->steps[i].err_fd }, j;

		for (j = 0; j < 2; j++) {
			if (fds[j] < 0)
				continue;
			c->pfd[k].fd = fds[j];
			c->pfd[k].events = POLLIN;
			c->pfd[k].revents = 0;
			c->pfd_node[k++] = c->n + i;
		}
	}
	c->npfd = k;
	*pfd = c->pfd;
	return k;
}

double
cluster_hold(const struct cluster *c)
{
	return c->hold;
}

void
cluster_io(struct cluster *c)
{
	size_t k;

	c->busy = false;
	c->hold = INFINITY;
	for (k = 0; k < c->npfd; k++) {
		struct node *nd;
		size_t i = c->pfd_node[k];

		if (c->pfd[k].revents == 0)
			continue;
		if (i >= c->n) {
			step_read(c, i - c->n, c->pfd[k].fd == c->steps[i - c->n].err_fd);
			continue;
		}
		nd = &c->nodes[i];
		node_read(c, nd, c->pfd[k].fd == nd->err_fd);
	}
	c->npfd = 0;
}

void
cluster_tick(struct cluster *c)
{
	double now = clock_mono();

	if (!c->dl_valid || now >= c->dl_nodes)
		nodes_tick(c, now);
	steps_tick(c, now);
	jobs_close_due(c, false);
}

double
cluster_deadline(struct cluster *c)
{
	double now = clock_mono(), t, next = nodes_deadline(c, now);

	next = steps_deadline(c, next);
	/* The next job interval's latest close, on the monotonic clock: only
	 * when a node has an interval in it or later (jobs_close_due has something
	 * to close). Past every node's last interval the time is long gone
	 * once no node sends lines, and waiting up to it would not wait. */
	if (c->have_t0 && c->next_slot <= c->top) {
		t = c->t0 + (double)(c->next_slot + 2) * c->cfg.delay - clock_wall() + now;
		if (t < next)
			next = t;
	}
	return next;
}

bool
cluster_done(const struct cluster *c)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++)
		if (c->steps[i].pid > 0)
			return false;
	for (i = 0; i < c->n; i++) {
		const struct node *nd = &c->nodes[i];

		if (nd->pid > 0 || nd->state == NODE_WAITING || nd->state == NODE_STARTING ||
		    nd->state == NODE_UP || (nd->state == NODE_LOST && c->cfg.retry))
			return false;
	}
	return true;
}

void
cluster_want_full(struct cluster *c, int k)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		c->nodes[i].want_full = (int)i == k;
	/* its views are drawn from its interval's cores and threads */
	if (k >= 0 && (size_t)k < c->n)
		nodeiv_unshed_rows(&c->nodes[k].nv);
}

void
cluster_counts(const struct cluster *c, unsigned count[5])
{
	size_t i;

	memset(count, 0, 5 * sizeof *count);
	for (i = 0; i < c->n; i++)
		count[c->nodes[i].state]++;
}

void
cluster_free(struct cluster *c)
{
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		free(c->nodes[i].name);
		linesplit_free(&c->nodes[i].out);
		linesplit_free(&c->nodes[i].err);
		nodeiv_free(&c->nodes[i].nv);
		for (k = 0; k < NODE_RING; k++)
			free(c->nodes[i].rec[k].reason);
		free(c->nodes[i].whole.reason);
	}
	free(c->nodes);
	jdoc_free(&c->doc);
	free(c->rbuf);
	free(c->pass);
	free(c->pfd);
	free(c->pfd_node);
	for (i = 0; i < c->nsteps; i++) {
		free(c->steps[i].task);
		linesplit_free(&c->steps[i].out);
		linesplit_free(&c->steps[i].err);
	}
	free(c->steps);
	free(c->parts);
	free(c->pw);
	memset(c, 0, sizeof *c);
}
