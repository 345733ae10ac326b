/* job.c: the CPUs a watched job may run on. For a PID, the union of the
 * Cpus_allowed_list of every thread in /proc/PID/task (each thread may be
 * pinned on its own, as MPI+OpenMP codes do); for a cgroup, its cpuset: a
 * cgroup v2 directory's cpuset.cpus.effective, a v1 cpuset directory's
 * cpuset.effective_cpus (or cpuset.cpus before Linux 4.x). Everything is
 * re-read at each update, into buffers allocated once; a followed job's
 * new descendants are found from the kernel's children lists
 * (/proc/PID/task/TID/children) or, on a kernel without them, from every
 * process's parent in /proc/N/stat. */
#include "config.h"
#include "watch/job.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/i18n.h"
#include "util/infile.h"
#include "util/textesc.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define CGROUP_ROOT "/sys/fs/cgroup"
/* A status file with the CPU and memory masks of an 8192-CPU kernel is
 * about 6 KiB; anything past the buffer is not needed (Cpus_allowed_list
 * comes before Mems_allowed). */
#define STATUS_MAX 16384
#define LABEL_MAX 128

struct job_watch {
	char *proc_root;
	pid_t *pids;
	bool *ended;
	size_t npids, cap;
	bool follow;             /* watch the PIDs' descendants too */
	int children;            /* -1 unknown, 1 /proc/PID/task/TID/children exists, 0 not */
	size_t npids_given;      /* the PIDs given at the start (job_watch_ident) */
	char job_user[64];       /* job_watch_set_job's, raw */
	char job_name[128];
	char *job_id;            /* the job's name for the label (job_watch_set_job) */
	char *command;           /* job_watch_set_command's name, raw */
	char job_text[LABEL_MAX];/* "(user, name" for the label */
	double job_started;      /* clock_mono() when it started */
	char *cgroup;            /* the directory whose cpuset applies */
	char *cpuset_file;       /* its file re-read each update */
	bool cgroup_gone;
	char label[LABEL_MAX];
	char buf[STATUS_MAX];    /* one status or cpuset file at a time */
};

/* Read `path` into w->buf, NUL-terminated. -1 with errno when it cannot
 * be opened or read. */
static int
read_small(struct job_watch *w, const char *path)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	/* O_NONBLOCK and a regular file only: a named pipe at a --cgroup path
	 * must not hang httop (procfs and cgroupfs files are regular). */
	fd = infile_open_regular(path);
	if (fd < 0)
		return -1;
	while (len < sizeof w->buf - 1) {
		n = read(fd, w->buf + len, sizeof w->buf - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	w->buf[len] = '\0';
	return 0;
}

/* Add the CPUs of a kernel CPU list ("0-3,8\n") to has[0..n): those at n
 * or above are not on this machine's topology and are dropped. Not
 * cpulist_parse(): that allocates, and this runs every refresh. */
static int
list_add(const char *p, bool *has, size_t n)
{
	unsigned long lo, hi, i;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\n' || *p == '\0')
		return 0;          /* an empty list is valid (an empty cpuset) */
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return -1;
		lo = strtoul(p, &end, 10);
		p = end;
		hi = lo;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			hi = strtoul(p, &end, 10);
			p = end;
			if (hi < lo)
				return -1;
		}
		for (i = lo; i <= hi && i < n; i++)
			has[i] = true;
		if (*p != ',')
			break;
		p++;
	}
	return (*p == '\n' || *p == '\0' || *p == ' ') ? 0 : -1;
}

/* The value of "Key:\t..." in a status file in w->buf, or NULL. */
static const char *
status_field(const char *buf, const char *key)
{
	size_t klen = strlen(key);
	const char *p = buf;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return NULL;
}

/* A task that has exited but not been reaped is still listed: Z (zombie)
 * or X (dead) in its State line. */
static bool
status_dead(const char *buf)
{
	const char *s = status_field(buf, "State");

	return s == NULL || *s == 'Z' || *s == 'X';
}

/* Add the affinity of every live thread of `pid`. Returns the number of
 * live threads found (0: the process has ended). */
static unsigned
pid_add(struct job_watch *w, pid_t pid, bool *has, size_t n)
{
	char path[PATH_MAX];
	struct dirent *d;
	unsigned live = 0;
	DIR *dir;

	snprintf(path, sizeof path, "%s/%ld/task", w->proc_root, (long)pid);
	dir = opendir(path);
	if (dir == NULL)
		return 0;
	while ((d = readdir(dir)) != NULL) {
		const char *cpus;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof path, "%s/%ld/task/%s/status", w->proc_root, (long)pid,
		    d->d_name);
		/* A thread may end between readdir and open: skip it. */
		if (read_small(w, path) != 0 || status_dead(w->buf))
			continue;
		cpus = status_field(w->buf, "Cpus_allowed_list");
		if (cpus == NULL || list_add(cpus, has, n) != 0)
			continue;
		live++;
	}
	closedir(dir);
	return live;
}

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool
has_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int n;

	n = snprintf(path, sizeof path, "%s/%s", dir, name);
	return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

/* The cpuset file of one candidate directory `dir`, or NULL (why[] says
 * what the directory is, for the message when no candidate has one).
 * v2 (cgroup.controllers): cpuset.cpus.effective of it or, without the
 * cpuset controller, of its nearest parent that has it (it runs on that
 * one's CPUs), not above the hierarchy's top `top`. v1: a cpuset
 * hierarchy's directory has cpuset.effective_cpus (cpuset.cpus before
 * Linux 4.x): every v1 cpuset has its own. */
static char *
cpuset_of(const char *dir, const char *top, char *why, size_t whylen)
{
	char path[PATH_MAX], *slash;
	size_t toplen = strlen(top);

	if (has_file(dir, "cgroup.controllers")) {
		if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
			return NULL;
		for (;;) {
			if (has_file(path, "cpuset.cpus.effective")) {
				size_t n = strlen(path) + sizeof "/cpuset.cpus.effective";
				char *f = xmalloc(n);

				snprintf(f, n, "%s/cpuset.cpus.effective", path);
				return f;
			}
			slash = strrchr(path, '/');
			if (slash == NULL || slash == path || (size_t)(slash - path) < toplen)
				break;
			*slash = '\0';
			if (!has_file(path, "cgroup.controllers"))
				break;
		}
		snprintf(why, whylen, _("%s is a cgroup v2 directory, but neither it nor a parent "
		    "has cpuset.cpus.effective: the cpuset controller is not enabled there (see "
		    "cgroup.subtree_control)"), dir);
		return NULL;
	}
	if (has_file(dir, "cpuset.effective_cpus") || has_file(dir, "cpuset.cpus")) {
		const char *name = has_file(dir, "cpuset.effective_cpus") ? "cpuset.effective_cpus" :
		    "cpuset.cpus";
		size_t n = strlen(dir) + strlen(name) + 2;
		char *f = xmalloc(n);

		snprintf(f, n, "%s/%s", dir, name);
		return f;
	}
	snprintf(why, whylen, _("%s is neither a cgroup v2 directory (no cgroup.controllers) nor "
	    "a v1 cpuset (no cpuset.cpus)"), dir);
	return NULL;
}

/* Where a relative --cgroup may be, in order: the path as it is under the
 * root (cgroup v2 mounted there, or a path that names its hierarchy, as
 * "cpuset/slurm/..."); under "unified", where a hybrid host mounts v2
 * (the "0::" line of /proc/PID/cgroup names it); under every v1 hierarchy
 * that has the cpuset controller ("cpuset", "cpuset,cpu", ...; the
 * "N:cpuset:" line), where Slurm's task/cgroup puts its jobs. */
static unsigned
candidates(const char *root, const char *rel, char list[][PATH_MAX], unsigned max)
{
	unsigned n = 0;
	struct dirent *d;
	DIR *dp;

	snprintf(list[n++], PATH_MAX, "%s/%s", root, rel);
	snprintf(list[n++], PATH_MAX, "%s/unified/%s", root, rel);
	if ((dp = opendir(root)) == NULL)
		return n;
	while (n < max && (d = readdir(dp)) != NULL) {
		const char *c = strstr(d->d_name, "cpuset");
		size_t k = strlen("cpuset");

		/* a controller name in a comma-separated list, whole */
		if (c == NULL || (c != d->d_name && c[-1] != ',') || (c[k] != '\0' && c[k] != ','))
			continue;
		snprintf(list[n++], PATH_MAX, "%s/%s/%s", root, d->d_name, rel);
	}
	closedir(dp);
	return n;
}

#define CG_CANDIDATES 6

/* The directory and cpuset file for the cgroup `arg`: an absolute path as
 * given, when it exists; else the path (relative, or absolute as
 * /proc/PID/cgroup prints it) looked up as candidates() says. */
static int
cgroup_resolve(struct job_watch *w, const char *arg, const char *root, struct errmsg *e)
{
	char list[CG_CANDIDATES][PATH_MAX], why[2][PATH_MAX + 200], tops[CG_CANDIDATES][PATH_MAX];
	char tried[3 * PATH_MAX];
	const char *rel = arg;
	unsigned n, i, ndirs = 0;
	size_t len = 0;

	while (*rel == '/')
		rel++;
	n = 0;
	/* An absolute path that exists is first taken as it is ("/" from a
	 * "0::/" line is not the file system's root, though: the others follow). */
	if (arg[0] == '/' && is_dir(arg)) {
		snprintf(list[0], PATH_MAX, "%s", arg);
		tops[0][0] = '\0';      /* its parents are cgroups as long as they say so */
		n = 1;
	}
	n += candidates(root, rel, list + n, CG_CANDIDATES - n);
	for (i = arg[0] == '/' && is_dir(arg) ? 1 : 0; i < n; i++) {
		size_t k = strlen(list[i]) - strlen(rel);

		snprintf(tops[i], PATH_MAX, "%.*s", (int)(k > 0 ? k - 1 : 0), list[i]);
	}
	why[0][0] = why[1][0] = '\0';
	tried[0] = '\0';
	for (i = 0; i < n; i++) {
		char *f;

		/* "a, b and c": what was looked for, for the message */
		len = strlen(tried);
		if (snprintf(tried + len, sizeof tried - len, "%s%s", i == 0 ? "" : i + 1 == n ?
		    _(" and ") : ", ", list[i]) < 0)
			tried[len] = '\0';
		if (!is_dir(list[i]))
			continue;
		f = cpuset_of(list[i], tops[i], why[ndirs < 2 ? ndirs : 1], sizeof why[0]);
		if (f != NULL) {
			w->cgroup = xstrdup(list[i]);
			w->cpuset_file = f;
			return 0;
		}
		ndirs++;
	}
	if (ndirs == 0)
		return errmsg_set(e, _("--cgroup %s: no such cgroup: looked for %s; give a cgroup "
		    "directory, absolute or as the 0:: (v2) or cpuset (v1) line of /proc/PID/cgroup "
		    "names it"), arg, tried);
	return errmsg_set(e, _("--cgroup %s: no cpuset for it: %s%s%s"), arg, why[0],
	    why[1][0] ? "; " : "", why[1]);
}

/* "pid 1234, 5678", "cgroup PATH", or both; cut short with "..." when
 * there are too many PIDs for the header. */
static void
make_label(struct job_watch *w, const char *cgroup_arg)
{
	size_t len = 0, i;
	char item[32];

	w->label[0] = '\0';
	for (i = 0; i < w->npids; i++) {
		snprintf(item, sizeof item, "%s%ld", i == 0 ? "pid " : ", ", (long)w->pids[i]);
		if (len + strlen(item) + 8 >= sizeof w->label) {
			snprintf(w->label + len, sizeof w->label - len, ", ...");
			len = strlen(w->label);
			break;
		}
		snprintf(w->label + len, sizeof w->label - len, "%s", item);
		len += strlen(item);
	}
	if (cgroup_arg != NULL)
		snprintf(w->label + len, sizeof w->label - len, "%s%s", len > 0 ? ", " : "", cgroup_arg);
}

struct job_watch *
job_watch_new(const pid_t *pids, size_t npids, const char *cgroup, const char *proc_root,
    struct errmsg *e)
{
	return job_watch_new_at(pids, npids, cgroup, proc_root, NULL, e);
}

struct job_watch *
job_watch_new_at(const pid_t *pids, size_t npids, const char *cgroup, const char *proc_root,
    const char *cgroup_root, struct errmsg *e)
{
	struct job_watch *w;
	char path[PATH_MAX];
	size_t i;

	w = xcalloc(1, sizeof *w);
	w->proc_root = xstrdup(proc_root != NULL ? proc_root : "/proc");
	if (npids > 0) {
		w->pids = xcalloc(npids, sizeof *w->pids);
		w->ended = xcalloc(npids, sizeof *w->ended);
		memcpy(w->pids, pids, npids * sizeof *pids);
	}
	w->npids = w->cap = w->npids_given = npids;
	w->children = -1;
	for (i = 0; i < npids; i++) {
		snprintf(path, sizeof path, "%s/%ld/status", w->proc_root, (long)pids[i]);
		if (read_small(w, path) != 0) {
			if (errno == EACCES)
				errmsg_set(e, _("--pid %ld: cannot read %s (permission denied); "
				    "run httop as the job's user or as root"), (long)pids[i], path);
			else
				errmsg_set(e, _("--pid %ld: no such process; give the PID of a running "
				    "process (see ps or squeue)"), (long)pids[i]);
			goto fail;
		}
		if (status_dead(w->buf)) {
			errmsg_set(e, _("--pid %ld: the process has already ended; give the PID of a "
			    "running process"), (long)pids[i]);
			goto fail;
		}
	}
	if (cgroup != NULL &&
	    cgroup_resolve(w, cgroup, cgroup_root != NULL ? cgroup_root : CGROUP_ROOT, e) != 0)
		goto fail;
	make_label(w, cgroup);
	return w;
fail:
	job_watch_free(w);
	return NULL;
}

/* Is `pid` watched already (live or ended)? */
static bool
watched(const struct job_watch *w, pid_t pid)
{
	size_t i;

	for (i = 0; i < w->npids; i++)
		if (w->pids[i] == pid)
			return true;
	return false;
}

static void
watch_add(struct job_watch *w, pid_t pid)
{
	if (pid <= 0 || watched(w, pid))
		return;
	if (w->npids == w->cap) {
		w->cap = w->cap > 0 ? 2 * w->cap : 8;
		w->pids = xreallocarray(w->pids, w->cap, sizeof *w->pids);
		w->ended = xreallocarray(w->ended, w->cap, sizeof *w->ended);
	}
	w->pids[w->npids] = pid;
	w->ended[w->npids] = false;
	w->npids++;
}

/* Add every PID listed in w->buf (a children file: "123 456 "). */
static void
add_listed(struct job_watch *w, const char *p)
{
	char *end;
	long v;

	for (;;) {
		while (*p == ' ' || *p == '\n')
			p++;
		if (!isdigit((unsigned char)*p))
			return;
		v = strtol(p, &end, 10);
		p = end;
		if (v > 0 && v <= INT_MAX)
			watch_add(w, (pid_t)v);
	}
}

/* The children of every thread of `pid`, from the kernel's own list
 * (CONFIG_PROC_CHILDREN). */
static void
children_of(struct job_watch *w, pid_t pid)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof path, "%s/%ld/task", w->proc_root, (long)pid);
	if ((dir = opendir(path)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof path, "%s/%ld/task/%s/children", w->proc_root, (long)pid,
		    d->d_name);
		if (read_small(w, path) == 0)
			add_listed(w, w->buf);
	}
	closedir(dir);
}

/* The parent in a stat file ("PID (comm) S PPID ..."): after the last ')',
 * since the command name may hold anything. -1 if unreadable. */
static long
stat_ppid(const char *buf)
{
	const char *p = strrchr(buf, ')');
	char *end;
	long v;

	if (p == NULL || p[1] != ' ' || p[2] == '\0' || p[3] != ' ')
		return -1;
	v = strtol(p + 4, &end, 10);
	return end == p + 4 ? -1 : v;
}

/* Without the children files: every process of the system whose parent
 * is a live watched one (a grandchild is found at the next update). */
static void
scan_proc(struct job_watch *w)
{
	char path[PATH_MAX];
	struct dirent *d;
	size_t i, n = w->npids;
	DIR *dir;
	long pp;

	if ((dir = opendir(w->proc_root)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof path, "%s/%s/stat", w->proc_root, d->d_name);
		if (read_small(w, path) != 0 || (pp = stat_ppid(w->buf)) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (!w->ended[i] && w->pids[i] == (pid_t)pp) {
				watch_add(w, (pid_t)strtol(d->d_name, NULL, 10));
				break;
			}
		}
	}
	closedir(dir);
}

/* New descendants of the live watched PIDs join the watch. */
static void
follow(struct job_watch *w)
{
	char path[PATH_MAX];
	size_t i;

	if (w->children < 0) {
		snprintf(path, sizeof path, "%s/self/task/%ld/children", w->proc_root,
		    (long)getpid());
		w->children = access(path, R_OK) == 0;
	}
	if (!w->children) {
		scan_proc(w);
		return;
	}
	/* A child added here is looked at in turn: its own children too. */
	for (i = 0; i < w->npids; i++)
		if (!w->ended[i])
			children_of(w, w->pids[i]);
}

void
job_watch_follow(struct job_watch *w)
{
	w->follow = true;
}

void
job_watch_set_job(struct job_watch *w, const char *id, const char *user, const char *name,
    double started)
{
	char u[48], n[80];

	free(w->job_id);
	w->job_id = xstrdup(id);
	w->job_started = started;
	snprintf(w->job_user, sizeof w->job_user, "%s", user);
	snprintf(w->job_name, sizeof w->job_name, "%s", name);
	/* From another user's job, perhaps: no escape reaches the terminal. */
	snprintf(w->job_text, sizeof w->job_text, "%s, %s", text_quote(u, sizeof u, user, 24),
	    text_quote(n, sizeof n, name, 40));
}

void
job_watch_set_command(struct job_watch *w, const char *name)
{
	free(w->command);
	w->command = xstrdup(name);
}

/* "3 (alice, my run, 1:02:03)": the job, and how long it has run. */
static void
job_label(struct job_watch *w)
{
	double t = clock_mono() - w->job_started;
	unsigned long s = t > 0 ? (unsigned long)t : 0;
	char el[32];

	if (s >= 86400)
		snprintf(el, sizeof el, "%lu-%02lu:%02lu:%02lu", s / 86400, s / 3600 % 24,
		    s / 60 % 60, s % 60);
	else
		snprintf(el, sizeof el, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
	snprintf(w->label, sizeof w->label, "%.32s (%.64s, %.20s)", w->job_id, w->job_text, el);
}

/* Append "pid N" style text to the note, separated by "; ". */
static void
note_add(char *note, size_t notelen, const char *text)
{
	size_t len = strlen(note);

	if (len + 1 >= notelen)
		return;
	snprintf(note + len, notelen - len, "%s%s", len > 0 ? "; " : "", text);
}

int
job_watch_update(struct job_watch *w, unsigned max_cpu, struct cpulist *cpus, char *note,
    size_t notelen)
{
	char text[96];
	int live = 0;
	size_t i;

	/* Sized once for the machine; the caller frees it with cpulist_free.
	 * Allocated even for no CPUs: memset must not get a null pointer. */
	if (cpus->n != max_cpu || cpus->has == NULL) {
		cpulist_free(cpus);
		cpus->has = xcalloc(max_cpu > 0 ? max_cpu : 1, sizeof *cpus->has);
		cpus->n = max_cpu;
	}
	memset(cpus->has, 0, cpus->n * sizeof *cpus->has);
	if (notelen > 0)
		note[0] = '\0';

	if (w->follow)
		follow(w);
	for (i = 0; i < w->npids; i++) {
		if (!w->ended[i] && pid_add(w, w->pids[i], cpus->has, cpus->n) == 0)
			w->ended[i] = true;
		if (!w->ended[i]) {
			live++;
		} else if (w->job_id == NULL && !w->follow) {
			/* The note stays while the PID is gone, so the user sees
			 * why the job has fewer cores whenever they look. A job's
			 * own processes come and go: only its end is said. */
			snprintf(text, sizeof text, _("pid %ld has ended"), (long)w->pids[i]);
			note_add(note, notelen, text);
		}
	}
	if (w->cgroup != NULL && !w->cgroup_gone) {
		if (read_small(w, w->cpuset_file) != 0 || list_add(w->buf, cpus->has, cpus->n) != 0)
			w->cgroup_gone = true;
	}
	if (w->cgroup != NULL) {
		if (!w->cgroup_gone) {
			live++;
		} else if (w->job_id == NULL) {
			snprintf(text, sizeof text, _("cgroup %.64s has gone"), w->cgroup);
			note_add(note, notelen, text);
		}
	}
	if (w->job_id != NULL) {
		job_label(w);
		if (live == 0) {
			snprintf(text, sizeof text, _("job %.32s has ended"), w->job_id);
			note_add(note, notelen, text);
		}
	}
	return live;
}

const char *
job_watch_label(const struct job_watch *w)
{
	return w->label;
}

void
job_watch_ident(const struct job_watch *w, struct job_ident *id)
{
	size_t i, used = 0;

	memset(id, 0, sizeof *id);
	for (i = 0; i < w->npids_given && used + 1 < sizeof id->pid; i++)
		used += (size_t)snprintf(id->pid + used, sizeof id->pid - used, "%s%ld",
		    i > 0 ? "," : "", (long)w->pids[i]);
	if (used >= sizeof id->pid)
		id->pid[0] = '\0';    /* cut short: better none than a wrong list */
	if (w->cgroup != NULL)
		snprintf(id->cgroup, sizeof id->cgroup, "%s", w->cgroup);
	if (w->job_id != NULL) {
		snprintf(id->kind, sizeof id->kind, "slurm");
		snprintf(id->id, sizeof id->id, "%s", w->job_id);
		snprintf(id->user, sizeof id->user, "%s", w->job_user);
		snprintf(id->name, sizeof id->name, "%s", w->job_name);
	} else if (w->cgroup != NULL) {
		snprintf(id->kind, sizeof id->kind, "cgroup");
		snprintf(id->id, sizeof id->id, "%s", w->cgroup);
	} else {
		/* A command: a kind of its own, named; its id and pid stay the
		 * PID's, as for --pid (the label a query by job uses). */
		snprintf(id->kind, sizeof id->kind, "%s", w->command != NULL ? "command" : "pid");
		snprintf(id->id, sizeof id->id, "%s", id->pid);
		if (w->command != NULL)
			utf8_copy_whole(id->name, sizeof id->name, w->command);
	}
}

/* The cgroup's path below its hierarchy's mount point: a v2 unified or
 * a v1 cpuset hierarchy under /sys/fs/cgroup, or /sys/fs/cgroup itself. */
static const char *
cgroup_rel(const char *dir)
{
	static const char *const mounts[] = { CGROUP_ROOT "/unified", CGROUP_ROOT "/cpuset",
	    CGROUP_ROOT };
	size_t i, n;

	for (i = 0; i < sizeof mounts / sizeof mounts[0]; i++) {
		n = strlen(mounts[i]);
		if (strncmp(dir, mounts[i], n) == 0 && dir[n] == '/')
			return dir + n;
	}
	return NULL;
}

struct job_tasks *
job_watch_tasks(const struct job_watch *w, const char *proc_root)
{
	const char *rel;

	if (w->cgroup != NULL) {
		rel = cgroup_rel(w->cgroup);
		return rel != NULL ? job_tasks_new(proc_root, NULL, 0, rel) : NULL;
	}
	return job_tasks_new(proc_root, w->pids, w->npids_given, NULL);
}

const char *
job_watch_cgroup_dir(const struct job_watch *w)
{
	return w->cgroup;
}

void
job_watch_free(struct job_watch *w)
{
	if (w == NULL)
		return;
	free(w->proc_root);
	free(w->pids);
	free(w->ended);
	free(w->cgroup);
	free(w->cpuset_file);
	free(w->job_id);
	free(w->command);
	free(w);
}
