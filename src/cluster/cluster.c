/* cluster.c: the nodes' processes, their lines, and the job intervals
 * (cluster.h). */
#include "config.h"
#include "cluster/cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cluster/passon.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"

extern char **environ;

/* What one read takes at most: a few lines of a large node. */
#define READ_CHUNK (256u << 10)
/* Reads per node per wake (4 MiB): one busy node cannot starve the
 * others, whose pipes the next poll looks at. */
#define READS_PER_WAKE 16
/* A pipe holds 64 KiB (Linux's default): a node that gave this much in
 * one wake may have found its pipe full and be waiting to write. */
#define PIPE_ROOM (64u << 10)
/* A step's standard output (all its nodes' lines): its pipe's size. */
#define STEP_PIPE (1 << 20)
/* A node that gives no interval for 3 of its intervals and this long is
 * taken as stopped; a starting one gets the connection's time too. */
#define STALL_EXTRA 5.0
#define START_EXTRA 15.0
#define STALL_GRAIN 0.5
/* After its end, how long its output may still come (a grandchild that
 * holds the pipe): then the pipes are closed. */
#define DRAIN_SECONDS 1.0
/* SIGTERM, then this long, then SIGKILL. */
#define KILL_GRACE 2.0
#define BACKOFF_MAX 60.0
/* A node's clock is taken as not synchronised with the others' when its
 * first stamp is off by an interval and this much more (the lines' own
 * transport delays differ by less than this). */
#define CLOCK_OFF_MAX 2.0
/* A node's paced lines in a row that came after their job interval had
 * closed: then it is placed by when its lines come (late_clock). */
#define LATE_LINES 3
/* A node's "unix_time" is taken as a time from 1970 up to the end of
 * 9999; any other (1e300, inf, -5) refuses its line: a number that far
 * out would place it billions of job intervals away (a loop over them),
 * and at that size the clock's offset taken from it cancels nothing. */
#define UNIX_TIME_MAX 253402300799.0
/* Job intervals are counted in a long: a count at most this far either
 * side (the times are bounded: an interval of a nanosecond over 9999
 * years is 3e20 slots, so the bound is met only by a huge -d's inverse). */
#define SLOT_MAX ((double)(1L << 52))
/* A line's tokens: httop's lines have one per 7 to 8 bytes (names, figures
 * and their nulls); a hostile one of 16 MiB of "0," would have 8 million
 * (335 MB): at most one per 6 bytes of the longest line (2.8 million,
 * 112 MB) are parsed. And a parse's tokens beyond this many (a line of
 * about 2 MiB) are not kept for the next line. */
#define DOC_TOKENS (NODE_LINE_MAX / 6)
#define DOC_KEEP (1u << 18)
/* A re-written line's room (passon.h) is kept up to this. */
#define PASS_KEEP (1u << 20)

const char *
node_state_name(enum node_state s)
{
	switch (s) {
	case NODE_WAITING: return N_("waiting");
	case NODE_STARTING: return N_("starting");
	case NODE_UP: return N_("up");
	case NODE_LOST: return N_("lost");
	case NODE_ENDED: return N_("ended");
	}
	return "?";
}

double
cluster_backoff(unsigned k)
{
	double d = 1.0;

	while (k-- > 1 && d < BACKOFF_MAX)
		d *= 2.0;
	return d < BACKOFF_MAX ? d : BACKOFF_MAX;
}

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
}

/* --- a node's process ------------------------------------------------------ */

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A node's or a step's process group killed at once and waited for
 * (unless reaped already), its pipes closed. */
static void
kill_now(pid_t *pid, bool reaped, int *out, int *err)
{
	int st;

	if (*pid > 0 && !reaped) {
		kill(-*pid, SIGKILL);
		while (waitpid(*pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	*pid = 0;
	close_fd(out);
	close_fd(err);
}

static void
child(struct cluster *c, char **argv, int out, int err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	/* Its own process group: Ctrl-C in batch mode reaches httop, which
	 * ends the nodes in order; a stop reaches what it started too. */
	setpgid(0, 0);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	if (c->cfg.child_setup != NULL)
		c->cfg.child_setup();
	execve(argv[0], argv, c->cfg.envp != NULL ? c->cfg.envp : environ);
	dprintf(2, "%s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* A node whose httop does not know cfg.fallback_word (an older httop:
 * "unknown option '--compact'", before any interval): the word is dropped
 * for every node started from now on, and this one is started again at
 * once (even with -n: its count has not begun), not counted as a loss. */
static bool
fall_back(struct cluster *c, struct node *nd)
{
	const char *w = c->cfg.fallback_word;

	if (w == NULL || nd->lines > 0 || nd->pid != 0 || strstr(nd->why, w) == NULL)
		return false;
	transport_drop_word(c->cfg.tr, w);
	c->cfg.fallback_word = NULL;
	c->fell_back = true;
	snprintf(nd->why, sizeof nd->why, _("its httop does not know %s (an older httop): "
	    "started again with full lines"), w);
	nd->retry_at = clock_mono();
	if (c->cfg.on_state != NULL)
		c->cfg.on_state(c->cfg.arg, nd);
	/* started again even where lost nodes are not (-n): it gave nothing */
	nd->state = NODE_WAITING;
	return true;
}

static void
lost(struct cluster *c, struct node *nd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void started(struct cluster *c, struct node *nd, double now);

/* Its process could not be made: lost at once. */
static void
start(struct cluster *c, struct node *nd, double now)
{
	int out[2], err[2];
	char **argv;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC) != 0) {
		lost(c, nd, _("cannot start its transport: %s"), strerror(errno));
		return;
	}
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(out[0]);
		close(out[1]);
		lost(c, nd, _("cannot start its transport: %s"), strerror(errno));
		return;
	}
	argv = transport_argv(c->cfg.tr, nd->name);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(c, argv, out[1], err[1]);
	transport_argv_free(argv);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(out[0]);
		close(err[0]);
		lost(c, nd, _("cannot start its transport: %s"), strerror(errno));
		return;
	}
	setpgid(pid, pid);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	nd->pid = pid;
	nd->out_fd = out[0];
	nd->err_fd = err[0];
	started(c, nd, now);
}

/* A node whose process (or task) was just started. */
static void
started(struct cluster *c, struct node *nd, double now)
{
	c->dl_valid = false;
	nd->state = NODE_STARTING;
	nd->started = now;
	nd->last_line = now;
	nd->reaped = false;
	nd->stopping = false;
	nd->kill_at = 0.0;
	nd->lines = 0;
	nd->bad = 0;
	nd->bad_last[0] = '\0';
	nd->plen = 0;
	nd->elen = 0;
	nd->err_last[0] = '\0';
	nd->why[0] = '\0';
	nd->slot = -1;
}

/* End its process (it stopped answering, or sent no JSON): the reason is
 * said now, the process reaped when it goes. */
static void
stop_node(struct node *nd, double now)
{
	if (nd->pid > 0 && !nd->reaped) {
		kill(-nd->pid, SIGTERM);
		nd->kill_at = now + KILL_GRACE;
	}
	/* In a step of many nodes its task cannot be ended alone (Slurm
	 * signals a step's tasks together): its lines are not read from now
	 * on, and a retry starts it in a step of its own. */
	if (nd->step >= 0) {
		nd->step = -1;
		return;
	}
	nd->stopping = true;
}

static void
lost(struct cluster *c, struct node *nd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(nd->why, sizeof nd->why, fmt, ap);
	va_end(ap);
	nd->state = NODE_LOST;
	c->dl_valid = false;
	if (fall_back(c, nd))
		return;
	nd->failures++;
	nd->retry_at = clock_mono() + cluster_backoff(nd->failures);
	if (c->cfg.on_state != NULL)
		c->cfg.on_state(c->cfg.arg, nd);
}

/* Has it given the intervals -n asks for (cfg.max_intervals)? */
static bool
has_enough(const struct cluster *c, const struct node *nd)
{
	return c->cfg.max_intervals > 0 && nd->total >= c->cfg.max_intervals;
}

/* It has given its intervals and goes on (or does not end): httop ends
 * it, as it ends every node on a signal; it counts as ended. */
static void
enough(struct cluster *c, struct node *nd, double now)
{
	stop_node(nd, now);
	nd->stopping = true;
	nd->state = NODE_ENDED;
	snprintf(nd->why, sizeof nd->why, _("ended by httop after its %lu intervals"), nd->total);
	c->dl_valid = false;
}

/* Its process has ended and its output is read: ended, or lost and why. */
static void
finish(struct cluster *c, struct node *nd)
{
	char said[300], st[64];
	int s = nd->wstatus;

	close_fd(&nd->out_fd);
	close_fd(&nd->err_fd);
	nd->pid = 0;
	c->dl_valid = false;
	if (nd->elen > 0) {
		nd->err_part[nd->elen] = '\0';
		text_escape(nd->err_last, sizeof nd->err_last, nd->err_part);
		nd->elen = 0;
	}
	if (nd->stopping) {
		/* httop ended it and said why: lost, if not already (or
		 * ended: it had given its intervals, enough()) */
		if (nd->state != NODE_LOST && nd->state != NODE_ENDED)
			lost(c, nd, "%s", nd->why[0] ? nd->why : _("stopped"));
		return;
	}
	/* lines refused at its end (fewer than make it lost): lost, why */
	if (WIFEXITED(s) && WEXITSTATUS(s) == 0 && nd->lines > 0 && nd->bad == 0) {
		nd->state = NODE_ENDED;
		snprintf(nd->why, sizeof nd->why, "%s", _("ended"));
		if (c->cfg.on_state != NULL)
			c->cfg.on_state(c->cfg.arg, nd);
		return;
	}
	if (WIFEXITED(s))
		snprintf(st, sizeof st, _("exit status %d"), WEXITSTATUS(s));
	else if (WIFSIGNALED(s))
		snprintf(st, sizeof st, _("killed by signal %d"), WTERMSIG(s));
	else
		snprintf(st, sizeof st, "?");
	snprintf(said, sizeof said, "%s", nd->err_last);
	if (said[0] != '\0')
		lost(c, nd, "%s (%s)", said, st);
	else if (nd->bad > 0)
		/* It ended before its refused lines made it lost: their
		 * reason, not "before its first interval" (it gave some). */
		lost(c, nd, _("its output is not httop's JSON (%s)"), nd->bad_last);
	else if (WIFEXITED(s) && WEXITSTATUS(s) == 0)
		lost(c, nd, _("ended before its first interval (%s)"), st);
	else
		lost(c, nd, "%s", st);
}

/* --- its lines ------------------------------------------------------------- */

/* A node whose clock is behind the viewer's by less than the threshold
 * of an unsynchronised one (an interval and CLOCK_OFF_MAX) but more than
 * its lines' delay (a VM without NTP, 2 s behind) has each interval placed
 * in a job interval that has already closed: it would be missing from
 * every one. After LATE_LINES such lines in a row, each coming about an
 * interval after the last (not a burst of lines held up on the way, whose
 * stamps are right), it is placed by when its lines come, as a node far
 * off is. Returns the line's time on the viewer's clock. */
/* The job interval wall-clock time t falls in (its number, clamped). */
static long
slot_at(const struct cluster *c, double t, double d)
{
	double x = floor((t - c->t0) / d);

	return !(x > -SLOT_MAX) ? -(long)SLOT_MAX : x < SLOT_MAX ? (long)x : (long)SLOT_MAX;
}

static double
late_clock(struct cluster *c, struct node *nd, double t, double d)
{
	double now = clock_wall();
	bool paced = nd->prev_came > 0.0 && now - nd->prev_came >= 0.5 * d;

	nd->prev_came = now;
	if (slot_at(c, t, d) >= c->next_slot || !paced) {
		nd->late = 0;
		return t;
	}
	if (++nd->late < LATE_LINES)
		return t;
	nd->late = 0;
	nd->clock_off += t - now;
	return now;
}

/* The first interval lands in the middle of job interval 0; the job's
 * time counts from the first node's start, `since` (its "time") before
 * it: not sooner than this viewer's own start (a node's "time" of 1e300
 * would make every job interval's time as large). */
static void
set_t0(struct cluster *c, double t, double since, double d)
{
	double el = clock_mono() - c->start_mono;

	if (!(since >= 0.0 && since <= el + d + CLOCK_OFF_MAX))
		since = el;
	c->t0 = t - d / 2.0;
	c->origin = t - since;
	c->have_t0 = true;
	c->next_slot = 0;
}

static void
push_rec(struct cluster *c, struct node *nd, double t)
{
	const struct interval *iv = &nd->nv.iv;
	struct node_rec *r;
	double d = c->cfg.delay > 0.0 ? c->cfg.delay : 1.0;
	long s, stamp;

	/* A node whose first stamp is far from this viewer's clock (more than
	 * an interval and a line's delay) is placed by when its lines come. */
	if (nd->slot < 0) {
		double off = t - clock_wall();

		nd->clock_off = fabs(off) > d + CLOCK_OFF_MAX ? off : 0.0;
	}
	t -= nd->clock_off;
	/* A stamp before the last one, or the same: the node's clock was set
	 * back, or stands still (its lines come in order). It is taken as the
	 * next, its offset moved. */
	if (nd->slot >= 0 && t <= nd->prev_t) {
		nd->clock_off += t - (nd->prev_t + d);
		t = nd->prev_t + d;
	}
	/* A stamp ahead of this viewer's clock by more than a line's delay:
	 * the node's clock was set forward. It is taken as coming now (the
	 * slots between would each be waited for, or walked). */
	if (t > clock_wall() + d + CLOCK_OFF_MAX) {
		double now = clock_wall();

		nd->clock_off += t - now;
		t = now;
	}
	if (!c->have_t0)
		set_t0(c, t, iv->time, d);
	t = late_clock(c, nd, t, d);
	stamp = slot_at(c, t, d);
	/* A node paced every d seconds keeps its count whatever its clock's
	 * jitter (a stamp near a job interval's edge); after a gap or a
	 * restart its stamp places it; either way within one job interval of
	 * its stamp's. A line that came sooner than d / 2 after the last
	 * (a node faster than -d) is placed by its stamp, and not at all when
	 * the node has one there already: its surplus pushed its next lines
	 * ahead of time. */
	s = stamp;
	if (nd->slot >= 0 && t - nd->prev_t >= 0.5 * d) {
		if (t - nd->prev_t <= 1.5 * d || s <= nd->slot)
			s = nd->slot + 1;
		s = s > stamp + 1 ? stamp + 1 : s < stamp - 1 ? stamp - 1 : s;
	}
	nd->prev_t = t;
	if (nd->slot >= 0 && s <= nd->slot) {
		nd->surplus++;
		return;
	}
	nd->slot = s;
	if (s < 0)
		return;
	if (s > c->top)
		c->top = s;
	if (c->ring_slot[s % NODE_RING] != s) {
		c->ring_slot[s % NODE_RING] = s;
		c->ring_n[s % NODE_RING] = 0;
	}
	c->ring_n[s % NODE_RING]++;
	r = &nd->rec[s % NODE_RING];
	r->slot = s;
	r->time = iv->time;
	r->wall = t + nd->clock_off;
	r->dt = iv->dt;
	r->valid = iv->valid;
	snprintf(r->reason, sizeof r->reason, "%s", iv->reason_c);
	r->agg = iv->node;
	if (nd->nv.have_weights)
		r->w = nd->nv.w;
	else
		metrics_node_weights(iv, &nd->nv.m.topo, &r->w);
}

/* The node's whole-run record: its figures and weights, apart. */
static void
keep_whole(struct node *nd)
{
	const struct interval *iv = &nd->nv.iv;
	struct node_rec *r = &nd->whole;

	nd->has_whole = true;
	r->slot = -1;
	r->time = iv->time;
	r->dt = iv->dt;
	r->wall = nd->nv.unix_time;
	r->valid = iv->valid;
	snprintf(r->reason, sizeof r->reason, "%s", iv->reason_c);
	r->agg = iv->node;
	if (nd->nv.have_weights)
		r->w = nd->nv.w;
	else
		metrics_node_weights(iv, &nd->nv.m.topo, &r->w);
}

static void
bad_line(struct cluster *c, struct node *nd, const struct errmsg *e)
{
	text_escape(nd->bad_last, sizeof nd->bad_last, e->text);
	if (++nd->bad < NODE_BAD_LINES)
		return;
	stop_node(nd, clock_mono());
	lost(c, nd, _("its output is not httop's JSON (%s)"), nd->bad_last);
}

/* A line to be passed on (the merged JSON lines): *s and *len become its
 * re-written form when it holds characters a terminal would act on in
 * its strings (passon.h); -1 when it is refused (a bad line). */
static int
pass_on(struct cluster *c, struct node *nd, const char **s, size_t *len)
{
	struct errmsg e;
	size_t need;
	int rc = passon_scan(*s, *len, NODE_LINE_MAX, &need, &e);

	if (rc < 0) {
		bad_line(c, nd, &e);
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
unix_time_ok(double t, struct errmsg *e)
{
	if (t == -1.0 || (t >= 0.0 && t <= UNIX_TIME_MAX))
		return true;
	errmsg_set(e, _("\"unix_time\" is %g, not a time from 1970 to 9999"), t);
	return false;
}

static void
line_read(struct cluster *c, struct node *nd, const char *s, size_t len)
{
	static const char *const skip_cores[] = { "packages", "cores", "core_figs", NULL };
	struct errmsg e;
	int rc;

	if (nd->stopping)
		return;
	while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	if (len == 0)
		return;
	if (c->cfg.pass_on && pass_on(c, nd, &s, &len) != 0)
		return;
	/* A node whose views are not shown is read without its cores: what
	 * the rows and the job need costs a parse of half the line; and
	 * without its threads, which httop writes after them, when its lines
	 * carry the node's weights (as the last one did: an older httop's do
	 * not): then the line's head is parsed and the rest not looked at. */
	nd->light = !nd->want_full && nd->nv.have_machine;
	if ((!nd->light ? jdoc_parse(&c->doc, s, len, &e) : nd->nv.have_weights ?
	    jdoc_parse_head(&c->doc, s, len, skip_cores, &e) :
	    jdoc_parse_skip(&c->doc, s, len, skip_cores, &e)) != 0) {
		bad_line(c, nd, &e);
		return;
	}
	rc = nodeiv_read(&nd->nv, &c->doc, &e);
	if (rc == NODEIV_FULL) {
		nd->light = false;
		rc = jdoc_parse(&c->doc, s, len, &e) != 0 ? -1 : nodeiv_read(&nd->nv, &c->doc, &e);
	}
	if (rc < 0) {
		bad_line(c, nd, &e);
		return;
	}
	if (rc > 0)
		nd->generation++;
	if (!unix_time_ok(nd->nv.unix_time, &e)) {
		bad_line(c, nd, &e);
		return;
	}
	/* An interval past -n's: a node that ignores -n, not read. */
	if (!nd->nv.whole && has_enough(c, nd)) {
		enough(c, nd, clock_mono());
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
		keep_whole(nd);
	else
		push_rec(c, nd, nd->nv.unix_time >= 0.0 ? nd->nv.unix_time : clock_wall());
	if (nd->light)
		nodeiv_cores_unread(&nd->nv);
	if (c->cfg.on_line != NULL && c->error == 0)
		c->error = c->cfg.on_line(c->cfg.arg, nd, s, len);
}

/* One line of a node; the tokens of a long one are let go after it. */
static void
line(struct cluster *c, struct node *nd, const char *s, size_t len)
{
	line_read(c, nd, s, len);
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

/* What one read gave: whole lines at once from the shared buffer, the
 * rest kept in the node's own. */
static void
take(struct cluster *c, struct node *nd, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *nl;

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if (nd->plen > 0) {
			size_t add = (size_t)(nl - p);

			if (nd->plen + add <= NODE_LINE_MAX) {
				if (nd->plen + add > nd->pcap) {
					nd->pcap = nd->plen + add;
					nd->part = xrealloc(nd->part, nd->pcap);
				}
				memcpy(nd->part + nd->plen, p, add);
				line(c, nd, nd->part, nd->plen + add);
			}
			nd->plen = 0;
			/* A line's room is not kept for the quiet time between
			 * lines: hundreds of nodes would hold a line each. */
			free(nd->part);
			nd->part = NULL;
			nd->pcap = 0;
		} else {
			line(c, nd, p, (size_t)(nl - p));
		}
		p = nl + 1;
	}
	if (p < end) {
		size_t add = (size_t)(end - p);

		if (nd->plen + add > NODE_LINE_MAX) {
			struct errmsg e;

			nd->plen = 0;
			errmsg_set(&e, _("a line longer than %u MiB"), NODE_LINE_MAX >> 20);
			nd->bad = NODE_BAD_LINES - 1;
			bad_line(c, nd, &e);
			return;
		}
		/* room grown by half again at least: a line that comes in
		 * many reads (or srun's pieces of 1 KiB) is not copied anew on
		 * each */
		if (nd->plen + add > nd->pcap) {
			size_t cap = nd->pcap + nd->pcap / 2;

			nd->pcap = cap > nd->plen + add ? cap : nd->plen + add;
			if (nd->pcap > NODE_LINE_MAX)
				nd->pcap = NODE_LINE_MAX;
			nd->part = xrealloc(nd->part, nd->pcap);
		}
		memcpy(nd->part + nd->plen, p, add);
		nd->plen += add;
	}
}

/* Standard error: only its last complete line is kept (for the reason). */
static void
take_err(struct node *nd, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			/* ssh ends its lines with CR LF */
			if (nd->elen > 0 && nd->err_part[nd->elen - 1] == '\r')
				nd->elen--;
			if (nd->elen > 0) {
				nd->err_part[nd->elen] = '\0';
				text_escape(nd->err_last, sizeof nd->err_last, nd->err_part);
			}
			nd->elen = 0;
		} else if (nd->elen + 1 < sizeof nd->err_part) {
			nd->err_part[nd->elen++] = buf[i];
		}
	}
}

static void step_take_err(struct cluster *c, size_t si, const char *buf, size_t n);
static void step_take(struct cluster *c, size_t si, const char *buf, size_t n);

/* A piece read from a node's pipe, or from a step's, handed on. */
struct piece_to {
	struct node *nd;
	size_t si;
	bool err, step;
};

static void
piece(struct cluster *c, const struct piece_to *to, const char *buf, size_t n)
{
	if (to->step && to->err)
		step_take_err(c, to->si, buf, n);
	else if (to->step)
		step_take(c, to->si, buf, n);
	else if (to->err)
		take_err(to->nd, buf, n);
	else
		take(c, to->nd, buf, n);
}

/* Read *fd until it is empty (or `max` reads), each piece handed on; the
 * descriptor closed at its end. Past a pipe's worth c->busy is set: the
 * writer may be waiting, and a wait before the next read would cap what
 * it can send. */
static void
drain(struct cluster *c, int *fd, unsigned max, const struct piece_to *to)
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
			close_fd(fd);
			break;
		}
		got += (size_t)n;
		piece(c, to, c->rbuf, (size_t)n);
	}
	if (got >= PIPE_ROOM)
		c->busy = true;
}

/* A node's pipe read until it is empty (or READS_PER_WAKE); at the end of
 * its output, the node finished once reaped. */
static void
read_fd(struct cluster *c, struct node *nd, bool err)
{
	struct piece_to to = { nd, 0, err, false };

	drain(c, err ? &nd->err_fd : &nd->out_fd, READS_PER_WAKE, &to);
	if (nd->out_fd < 0 && nd->err_fd < 0 && nd->reaped && nd->pid > 0)
		finish(c, nd);
}

/* --- one job step for many nodes (--via srun) ---------------------------- */

/* The nodes waiting to start, in one step: srun --label, one task per
 * node (transport_step_argv). A second step starts the nodes lost since,
 * at most one step per CLUSTER_FANOUT_HOLD. */
static void
start_step(struct cluster *c, double now)
{
	struct cluster_step *st;
	char **names, **argv;
	size_t i, k = 0;
	int out[2], err[2];
	pid_t pid;

	if (c->nsteps > 0 && now - c->last_step < CLUSTER_FANOUT_HOLD)
		return;
	for (i = 0; i < c->n; i++)
		k += c->nodes[i].state == NODE_WAITING && c->nodes[i].pid == 0;
	if (k == 0)
		return;
	c->steps = xreallocarray(c->steps, c->nsteps + 1, sizeof *c->steps);
	st = &c->steps[c->nsteps];
	memset(st, 0, sizeof *st);
	st->out_fd = st->err_fd = -1;
	st->task = xcalloc(k, sizeof *st->task);
	names = xcalloc(k, sizeof *names);
	for (i = 0; i < c->n; i++)
		if (c->nodes[i].state == NODE_WAITING && c->nodes[i].pid == 0) {
			names[st->ntask] = c->nodes[i].name;
			st->task[st->ntask++] = i;
		}
	c->last_step = now;
	c->nsteps++;
	argv = transport_step_argv(c->cfg.tr, names, k);
	free(names);
	pid = -1;
	if (pipe2(out, O_CLOEXEC) == 0) {
		if (pipe2(err, O_CLOEXEC) == 0) {
			fflush(NULL);
			pid = fork();
			if (pid == 0)
				child(c, argv, out[1], err[1]);
			close(err[1]);
			if (pid < 0)
				close(err[0]);
		}
		close(out[1]);
		if (pid < 0)
			close(out[0]);
	}
	transport_argv_free(argv);
	for (i = 0; i < st->ntask; i++) {
		struct node *nd = &c->nodes[st->task[i]];

		if (pid < 0) {
			lost(c, nd, _("cannot start its transport: %s"), strerror(errno));
			continue;
		}
		nd->step = (int)(c->nsteps - 1);
		started(c, nd, now);
	}
	if (pid < 0)
		return;
	setpgid(pid, pid);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
#ifdef F_SETPIPE_SZ
	/* all the nodes' lines come through this one pipe: 1 MiB rather than
	 * 64 KiB moves 16 times as much per wake of either side (without
	 * the privilege to go past /proc/sys/fs/pipe-max-size, as it is) */
	fcntl(out[0], F_SETPIPE_SZ, STEP_PIPE);
#endif
	st->pid = pid;
	st->out_fd = out[0];
	st->err_fd = err[0];
	st->started = now;
}

/* "  12: rest": the task's node (in this step), the rest after it; NULL
 * when the line has no label or names no task of the step's. */
static struct node *
labelled(struct cluster *c, size_t si, const char *s, size_t len, size_t *skip)
{
	const struct cluster_step *st = &c->steps[si];
	size_t i = 0, id = 0;
	bool digit = false;
	struct node *nd;

	while (i < len && s[i] == ' ')
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && id <= st->ntask; i++, digit = true)
		id = id * 10 + (size_t)(s[i] - '0');
	if (!digit || i >= len || s[i] != ':' || id >= st->ntask)
		return NULL;
	i++;
	if (i < len && s[i] == ' ')
		i++;
	*skip = i;
	nd = &c->nodes[st->task[id]];
	return nd->step == (int)si ? nd : NULL;
}

/* One labelled piece: a piece of SRUN_PIECE bytes goes on in the task's
 * next piece; a shorter one (empty too) ends the line. */
static void
step_piece(struct cluster *c, size_t si, const char *s, size_t len)
{
	struct node *nd;
	size_t skip = 0;

	nd = labelled(c, si, s, len, &skip);
	if (nd == NULL)
		return;
	take(c, nd, s + skip, len - skip);
	if (len - skip != SRUN_PIECE && nd->step == (int)si)
		take(c, nd, "\n", 1);
}

/* srun's own words on a task ("srun: error: HOST: task 3: Exited with
 * exit code 1"): that task's node is lost with them; a task's labelled
 * line is its node's standard error. Other lines are kept for the step. */
static void
step_err_line(struct cluster *c, size_t si, char *s, size_t len)
{
	struct cluster_step *st = &c->steps[si];
	const char *t = strstr(s, ": task ");
	char text[256];
	size_t skip = 0, id = 0;
	struct node *nd;

	(void)len;
	nd = labelled(c, si, s, len, &skip);
	if (nd != NULL) {
		take_err(nd, s + skip, len - skip);
		take_err(nd, "\n", 1);
		return;
	}
	if (t == NULL || sscanf(t, ": task %zu:", &id) != 1 || id >= st->ntask) {
		/* srun's own (it could not start the step): every task's */
		if (len > 0)
			text_escape(st->err_last, sizeof st->err_last, s);
		return;
	}
	{
		nd = &c->nodes[st->task[id]];
		if (nd->step == (int)si) {
			nd->step = -1;
			text_escape(text, sizeof text, t + 2);
			/* its own last words first, as a process's end says them */
			if (nd->elen > 0)
				take_err(nd, "\n", 1);
			if (nd->err_last[0] != '\0')
				lost(c, nd, "%s (%s)", nd->err_last, text);
			else
				lost(c, nd, "%s", text);
		}
	}
}

static void
step_take_err(struct cluster *c, size_t si, const char *buf, size_t n)
{
	struct cluster_step *st = &c->steps[si];
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' || st->elen + 1 >= sizeof st->epart) {
			st->epart[st->elen] = '\0';
			step_err_line(c, si, st->epart, st->elen);
			st->elen = 0;
		}
		if (buf[i] != '\n')
			st->epart[st->elen++] = buf[i];
	}
}

static void
step_take(struct cluster *c, size_t si, const char *buf, size_t n)
{
	struct cluster_step *st = &c->steps[si];
	const char *p = buf, *end = buf + n, *nl;

	while (p < end) {
		size_t add;

		nl = memchr(p, '\n', (size_t)(end - p));
		add = (size_t)((nl != NULL ? nl : end) - p);
		/* a piece longer than srun's: not srun's output, cut */
		if (st->plen + add > sizeof st->part)
			add = sizeof st->part - st->plen;
		memcpy(st->part + st->plen, p, add);
		st->plen += add;
		if (nl == NULL)
			break;
		step_piece(c, si, st->part, st->plen);
		st->plen = 0;
		p = nl + 1;
	}
}

/* Its members that are still in it when it has ended: ended, or lost. */
static void
step_finish(struct cluster *c, size_t si)
{
	struct cluster_step *st = &c->steps[si];
	size_t i;

	close_fd(&st->out_fd);
	close_fd(&st->err_fd);
	for (i = 0; i < st->ntask; i++) {
		struct node *nd = &c->nodes[st->task[i]];

		if (nd->step != (int)si)
			continue;
		nd->step = -1;
		/* srun's status is its tasks' worst, and it names each task that
		 * failed (step_err_line): one that gave lines and was not named
		 * ended well */
		nd->wstatus = nd->lines > 0 && WIFEXITED(st->wstatus) ? 0 : st->wstatus;
		nd->stopping = false;
		if (nd->err_last[0] == '\0')
			snprintf(nd->err_last, sizeof nd->err_last, "%s", st->err_last);
		nd->pid = 1;          /* finish() takes it as its process's end */
		finish(c, nd);
	}
	st->pid = 0;
}

static void
step_read(struct cluster *c, size_t si, bool err)
{
	struct cluster_step *st = &c->steps[si];
	struct piece_to to = { NULL, si, err, true };

	/* one pipe for every node: more reads a wake than a node's */
	drain(c, err ? &st->err_fd : &st->out_fd, 4 * READS_PER_WAKE, &to);
	if (st->out_fd < 0 && st->err_fd < 0 && st->reaped && st->pid > 0)
		step_finish(c, si);
}

/* A node's process (nd) or step si's srun (nd NULL) was reaped with
 * `status`: what it wrote before it went is read first; finished when
 * its pipes are closed (else once DRAIN_SECONDS have passed). */
static void
reaped(struct cluster *c, struct node *nd, size_t si, int status)
{
	struct cluster_step *st = nd == NULL ? &c->steps[si] : NULL;
	const int *out = st != NULL ? &st->out_fd : &nd->out_fd;
	const int *err = st != NULL ? &st->err_fd : &nd->err_fd;
	const pid_t *pid = st != NULL ? &st->pid : &nd->pid;
	bool *done = st != NULL ? &st->reaped : &nd->reaped;
	int *wstatus = st != NULL ? &st->wstatus : &nd->wstatus, k;
	double *at = st != NULL ? &st->reaped_at : &nd->reaped_at;

	*done = true;
	*wstatus = status;
	*at = clock_mono();
	c->dl_valid = false;
	for (k = 0; k < 2; k++) {
		if (*(k == 0 ? out : err) < 0)
			continue;
		if (st != NULL)
			step_read(c, si, k == 1);
		else
			read_fd(c, nd, k == 1);
	}
	if (*out >= 0 || *err >= 0 || *pid <= 0)
		return;
	if (st != NULL)
		step_finish(c, si);
	else
		finish(c, nd);
}

/* A child that was a step's srun: 1. */
static int
step_reaped(struct cluster *c, pid_t pid, int status)
{
	size_t si;

	for (si = 0; si < c->nsteps; si++) {
		if (c->steps[si].pid != pid)
			continue;
		reaped(c, NULL, si, status);
		return 1;
	}
	return 0;
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

void
cluster_io(struct cluster *c)
{
	size_t k;

	c->busy = false;
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
		read_fd(c, nd, c->pfd[k].fd == nd->err_fd);
	}
	c->npfd = 0;
}

void
cluster_reap(struct cluster *c)
{
	size_t i;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (step_reaped(c, pid, st))
			continue;
		for (i = 0; i < c->n; i++) {
			if (c->nodes[i].pid != pid)
				continue;
			reaped(c, &c->nodes[i], 0, st);
			break;
		}
	}
}

/* --- job intervals --------------------------------------------------------- */

const struct node_rec *
cluster_rec(const struct node *n, long slot)
{
	const struct node_rec *r = slot >= 0 ? &n->rec[slot % NODE_RING] : NULL;

	return r != NULL && r->slot == slot ? r : NULL;
}

static void
close_job(struct cluster *c, long s)
{
	struct cluster_job *j = &c->job;
	size_t i, k = 0, nmiss = 0;
	char miss[200];
	bool valid = true;
	double dt = 0.0;
	int first_bad = -1;

	miss[0] = '\0';
	for (i = 0; i < c->n; i++) {
		const struct node_rec *r = cluster_rec(&c->nodes[i], s);

		if (r == NULL) {
			size_t len = strlen(miss);

			if (nmiss++ < 4)
				snprintf(miss + len, sizeof miss - len, "%s%s", len ? ", " : "",
				    c->nodes[i].name);
			continue;
		}
		c->parts[k] = r->agg;
		c->pw[k++] = r->w;
		dt += r->dt;
		if (!r->valid && first_bad < 0)
			first_bad = (int)i;
		valid = valid && r->valid;
	}
	memset(j, 0, sizeof *j);
	j->slot = s;
	j->nnodes = (unsigned)c->n;
	j->nin = (unsigned)k;
	/* The middle of its span, where its nodes' stamps fall. */
	j->wall = c->t0 + ((double)s + 0.5) * c->cfg.delay;
	j->time = j->wall - c->origin;
	j->dt = k > 0 ? dt / (double)k : 0.0;
	metrics_combine(c->parts, c->pw, k, &j->agg);
	j->valid = valid && nmiss == 0;
	/* Files get this text: never translated. */
	if (nmiss > 0)
		snprintf(j->reason, sizeof j->reason, "%zu of %zu nodes missing: %s%s", nmiss, c->n,
		    miss, nmiss > 4 ? ", ..." : "");
	else if (first_bad >= 0)
		snprintf(j->reason, sizeof j->reason, "%.60s: %.190s", c->nodes[first_bad].name,
		    cluster_rec(&c->nodes[first_bad], s)->reason);
	c->have_job = true;
	c->jobs++;
	if (c->cfg.on_job != NULL && c->error == 0)
		c->error = c->cfg.on_job(c->cfg.arg, c, j);
}

/* The first job interval from s on that is not late yet (closes when
 * its nodes have given theirs, not a whole interval after its end). */
static long
first_not_late(const struct cluster *c, double now, long s)
{
	long k = slot_at(c, now, c->cfg.delay) - 1;

	return k > s ? k : s;
}

/* Job interval s: whether any node has an interval in it, whether a node
 * up or starting may give one yet, and the next job interval after s any
 * node has one in (*next; c->top + 1 none). */
static bool
slot_scan(const struct cluster *c, long s, bool *waiting, long *next)
{
	bool any = false;
	size_t i, k;

	*waiting = false;
	*next = c->top + 1;
	for (i = 0; i < c->n; i++) {
		const struct node *nd = &c->nodes[i];

		any = any || cluster_rec(nd, s) != NULL;
		/* one still starting may give its first interval yet */
		if ((nd->state == NODE_UP || nd->state == NODE_STARTING) && nd->slot < s)
			*waiting = true;
		for (k = 0; k < NODE_RING; k++)
			if (nd->rec[k].slot > s && nd->rec[k].slot < *next)
				*next = nd->rec[k].slot;
	}
	return any;
}

/* Job interval s closes when every node that is up or starting has given
 * its interval, or a whole interval after its end, without those that
 * have not. Empty ones that are late are passed over at once, up to the
 * next that any node has an interval in: the walk is never longer than
 * the nodes' intervals kept, whatever their stamps (a node's clock set
 * forward by years). */
static void
close_due(struct cluster *c, bool all)
{
	double now = clock_wall(), d = c->cfg.delay;
	long next;

	if (!c->have_t0)
		return;
	while (c->next_slot <= c->top) {
		long s = c->next_slot;
		bool waiting, late = all || now >= c->t0 + (double)(s + 2) * d;

		/* fewer intervals in it than nodes up, and not yet late: no
		 * need to look at each node */
		if (!late && (c->ring_slot[s % NODE_RING] != s ||
		    c->ring_n[s % NODE_RING] < c->active_hint))
			return;
		if (slot_scan(c, s, &waiting, &next)) {
			if (waiting && !late)
				return;
			close_job(c, s);
			c->next_slot++;
		} else if (waiting && !late) {
			return;
		} else if (!late) {
			c->next_slot++;
		} else {
			c->next_slot = all ? next : next < first_not_late(c, now, s + 1) ? next :
			    first_not_late(c, now, s + 1);
		}
	}
}

void
cluster_flush(struct cluster *c)
{
	close_due(c, true);
}

/* --- the steps' share of the tick, the deadline and the end --------------- */

/* A step none of whose tasks is read any more (each gave its intervals
 * and went on, or was started again in another step): ended, SIGTERM
 * then SIGKILL, as a node's process is. */
static void
step_unread(struct cluster *c, size_t si, double now)
{
	struct cluster_step *st = &c->steps[si];
	size_t i;

	if (st->pid <= 0 || st->reaped)
		return;
	if (st->ending) {
		if (st->kill_at > 0.0 && now >= st->kill_at) {
			kill(-st->pid, SIGKILL);
			st->kill_at = 0.0;
		}
		return;
	}
	for (i = 0; i < st->ntask; i++)
		if (c->nodes[st->task[i]].step == (int)si)
			return;
	kill(-st->pid, SIGTERM);
	st->ending = true;
	st->kill_at = now + KILL_GRACE;
}

static void
steps_tick(struct cluster *c, double now)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++) {
		struct cluster_step *st = &c->steps[i];

		if (st->pid > 0 && st->reaped && now - st->reaped_at >= DRAIN_SECONDS)
			step_finish(c, i);
		step_unread(c, i, now);
	}
	if (c->cfg.one_step)
		start_step(c, now);
}

/* When a waiting node may start. */
static double
waiting_until(const struct cluster *c, double now)
{
	if (c->cfg.one_step)
		return c->nsteps > 0 ? c->last_step + CLUSTER_FANOUT_HOLD : now;
	return c->cfg.fanout > 0 ? now + 0.05 : now;
}

static double
steps_deadline(const struct cluster *c, double next)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++) {
		if (c->steps[i].pid > 0 && c->steps[i].reaped &&
		    c->steps[i].reaped_at + DRAIN_SECONDS < next)
			next = c->steps[i].reaped_at + DRAIN_SECONDS;
		if (c->steps[i].pid > 0 && !c->steps[i].reaped && c->steps[i].kill_at > 0.0 &&
		    c->steps[i].kill_at < next)
			next = c->steps[i].kill_at;
	}
	return next;
}

static void
steps_signal(struct cluster *c, int sig)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++)
		if (c->steps[i].pid > 0 && !c->steps[i].reaped)
			kill(-c->steps[i].pid, sig);
}

static void
steps_reaped_pid(struct cluster *c, pid_t pid)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++)
		if (c->steps[i].pid == pid)
			c->steps[i].reaped = true;
}

static size_t
steps_left(const struct cluster *c)
{
	size_t i, left = 0;

	for (i = 0; i < c->nsteps; i++)
		left += c->steps[i].pid > 0 && !c->steps[i].reaped;
	return left;
}

static void
steps_kill(struct cluster *c)
{
	size_t i;

	for (i = 0; i < c->nsteps; i++) {
		struct cluster_step *sp = &c->steps[i];

		kill_now(&sp->pid, sp->reaped, &sp->out_fd, &sp->err_fd);
	}
}

/* --- the tick --------------------------------------------------------------- */

static unsigned
starting(const struct cluster *c, double now)
{
	unsigned k = 0;
	size_t i;

	for (i = 0; i < c->n; i++)
		k += c->nodes[i].state == NODE_STARTING && now - c->nodes[i].started <
		    CLUSTER_FANOUT_HOLD;
	return k;
}

static double
stall_after(const struct cluster *c, const struct node *nd)
{
	/* its intervals given: an interval to end, and KILL_GRACE */
	if (has_enough(c, nd))
		return c->cfg.delay + KILL_GRACE;
	return 3.0 * c->cfg.delay + (nd->state == NODE_STARTING ? START_EXTRA : STALL_EXTRA);
}

/* A node that gave no interval for too long: lost (or, with its -n
 * intervals given, ended: enough). */
static void
stall_check(struct cluster *c, struct node *nd, double now)
{
	if ((nd->state != NODE_STARTING && nd->state != NODE_UP) || nd->stopping ||
	    now - nd->last_line <= stall_after(c, nd))
		return;
	if (has_enough(c, nd)) {
		enough(c, nd, now);
		return;
	}
	stop_node(nd, now);
	lost(c, nd, nd->state == NODE_UP ? _("no interval for %.0f s") :
	    _("no first interval within %.0f s"), now - nd->last_line);
}

/* Each node's part of the tick: due when cluster_deadline's nodes'
 * deadline has come, or a node changed state since. */
static void
tick_nodes(struct cluster *c, double now)
{
	unsigned busy = c->cfg.fanout > 0 ? starting(c, now) : 0;
	size_t i, active = 0;

	for (i = 0; i < c->n; i++) {
		struct node *nd = &c->nodes[i];

		if (nd->pid > 0 && nd->kill_at > 0.0 && now >= nd->kill_at && !nd->reaped) {
			kill(-nd->pid, SIGKILL);
			nd->kill_at = 0.0;
		}
		if (nd->pid > 0 && nd->reaped && now - nd->reaped_at >= DRAIN_SECONDS)
			finish(c, nd);
		stall_check(c, nd, now);
		if (nd->state == NODE_LOST && c->cfg.retry && nd->pid == 0 && now >= nd->retry_at)
			nd->state = NODE_WAITING;
		active += nd->state == NODE_UP || nd->state == NODE_STARTING;
		if (nd->state == NODE_WAITING && nd->pid == 0 && !c->cfg.one_step &&
		    (c->cfg.fanout == 0 || busy < c->cfg.fanout)) {
			start(c, nd, now);
			busy++;
		}
	}
	c->active_hint = active;
	c->dl_valid = false;
}

void
cluster_tick(struct cluster *c)
{
	double now = clock_mono();

	if (!c->dl_valid || now >= c->dl_nodes)
		tick_nodes(c, now);
	steps_tick(c, now);
	close_due(c, false);
}

/* The nodes' next deadline; kept until a node changes state. */
static double
nodes_deadline(struct cluster *c, double now)
{
	double next = INFINITY, t;
	size_t i;

	if (c->dl_valid)
		return c->dl_nodes;
	for (i = 0; i < c->n; i++) {
		const struct node *nd = &c->nodes[i];

		if (nd->state == NODE_WAITING)
			t = waiting_until(c, now);
		else if (nd->state == NODE_LOST && c->cfg.retry && nd->pid == 0)
			t = nd->retry_at;
		else if ((nd->state == NODE_STARTING || nd->state == NODE_UP) && !nd->stopping)
			/* not sooner than STALL_GRAIN: thousands of nodes
			 * whose lines come one after the other would each
			 * move the earliest a little, and every wake would
			 * look at every node */
			t = fmax(nd->last_line + stall_after(c, nd), now + STALL_GRAIN);
		else
			t = INFINITY;
		if (nd->pid > 0 && nd->kill_at > 0.0 && nd->kill_at < t)
			t = nd->kill_at;
		if (nd->pid > 0 && nd->reaped && nd->reaped_at + DRAIN_SECONDS < t)
			t = nd->reaped_at + DRAIN_SECONDS;
		if (t < next)
			next = t;
	}
	c->dl_nodes = next;
	c->dl_valid = true;
	return next;
}

double
cluster_deadline(struct cluster *c)
{
	double now = clock_mono(), t, next = nodes_deadline(c, now);

	next = steps_deadline(c, next);
	/* The next job interval's latest close, on the monotonic clock: only
	 * when a node has an interval in it or later (close_due has something
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
cluster_stop(struct cluster *c)
{
	double end = clock_mono() + KILL_GRACE;
	size_t i, left;
	pid_t pid;
	int st;

	for (i = 0; i < c->n; i++)
		if (c->nodes[i].pid > 0 && !c->nodes[i].reaped)
			kill(-c->nodes[i].pid, SIGTERM);
	/* srun passes SIGTERM on to the step's tasks and ends the step */
	steps_signal(c, SIGTERM);
	for (;;) {
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			for (i = 0; i < c->n; i++)
				if (c->nodes[i].pid == pid)
					c->nodes[i].reaped = true;
			steps_reaped_pid(c, pid);
		}
		for (left = 0, i = 0; i < c->n; i++)
			left += c->nodes[i].pid > 0 && !c->nodes[i].reaped;
		left += steps_left(c);
		if (left == 0 || clock_mono() >= end)
			break;
		usleep(20000);
	}
	for (i = 0; i < c->n; i++) {
		struct node *nd = &c->nodes[i];

		kill_now(&nd->pid, nd->reaped, &nd->out_fd, &nd->err_fd);
	}
	steps_kill(c);
}

void
cluster_free(struct cluster *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->nodes[i].name);
		free(c->nodes[i].part);
		nodeiv_free(&c->nodes[i].nv);
	}
	free(c->nodes);
	jdoc_free(&c->doc);
	free(c->rbuf);
	free(c->pass);
	free(c->pfd);
	free(c->pfd_node);
	for (i = 0; i < c->nsteps; i++)
		free(c->steps[i].task);
	free(c->steps);
	free(c->parts);
	free(c->pw);
	memset(c, 0, sizeof *c);
}
