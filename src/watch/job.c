/* job.c: the CPUs a watched job may run on. For a PID, the union of the
 * Cpus_allowed_list of every thread in /proc/PID/task (each thread may be
 * pinned on its own, as MPI+OpenMP codes do); for a cgroup v2 directory,
 * its cpuset.cpus.effective. Everything is re-read at each update, into
 * buffers allocated once. */
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

#include "util/i18n.h"
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
	size_t npids;
	char *cgroup;            /* the directory holding cpuset.cpus.effective */
	bool cgroup_gone;
	char label[LABEL_MAX];
	char buf[STATUS_MAX];    /* one status or cpuset file at a time */
};

/* Read `path` into w->buf, NUL-terminated. -1 with errno when it cannot
 * be opened or read. */
static int
read_small(struct job_watch *w, const char *path)
{
	struct stat st;
	size_t len = 0;
	ssize_t n;
	int fd;

	/* O_NONBLOCK and a regular file only: a named pipe at a --cgroup path
	 * must not hang httop (procfs and cgroupfs files are regular). */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
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

/* The directory whose cpuset.cpus.effective applies to the cgroup `arg`:
 * an absolute path as given or, failing that, under /sys/fs/cgroup (the
 * form /proc/PID/cgroup prints: "0::/system.slice/..."); a relative path
 * under /sys/fs/cgroup. A cgroup without the cpuset controller runs on
 * its nearest ancestor's CPUs: walk up to the one that has the file. */
static char *
cgroup_resolve(const char *arg, struct errmsg *e)
{
	char path[PATH_MAX];
	char *slash;

	if (arg[0] == '/' && is_dir(arg))
		snprintf(path, sizeof path, "%s", arg);
	else
		snprintf(path, sizeof path, "%s/%s", CGROUP_ROOT, arg[0] == '/' ? arg + 1 : arg);
	if (!is_dir(path)) {
		errmsg_set(e, _("--cgroup %s: no such directory (tried %s); give a cgroup v2 directory, "
		    "absolute or relative to %s, e.g. the path in /proc/PID/cgroup"), arg, path,
		    CGROUP_ROOT);
		return NULL;
	}
	if (!has_file(path, "cgroup.controllers") && !has_file(path, "cpuset.cpus.effective")) {
		errmsg_set(e, _("--cgroup %s: %s is not a cgroup v2 directory (no cgroup.controllers); "
		    "give a directory under %s"), arg, path, CGROUP_ROOT);
		return NULL;
	}
	while (!has_file(path, "cpuset.cpus.effective")) {
		slash = strrchr(path, '/');
		if (slash == NULL || slash == path) {
			errmsg_set(e, _("--cgroup %s: neither it nor a parent has cpuset.cpus.effective; "
			    "the cpuset controller is not enabled (see cgroup.subtree_control)"), arg);
			return NULL;
		}
		*slash = '\0';
		if (!has_file(path, "cgroup.controllers") && !has_file(path, "cpuset.cpus.effective")) {
			errmsg_set(e, _("--cgroup %s: no cpuset.cpus.effective in it or its parents; "
			    "enable the cpuset controller (see cgroup.subtree_control)"), arg);
			return NULL;
		}
	}
	return xstrdup(path);
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
	w->npids = npids;
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
	if (cgroup != NULL) {
		w->cgroup = cgroup_resolve(cgroup, e);
		if (w->cgroup == NULL)
			goto fail;
	}
	make_label(w, cgroup);
	return w;
fail:
	job_watch_free(w);
	return NULL;
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
	char path[PATH_MAX];
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

	for (i = 0; i < w->npids; i++) {
		if (!w->ended[i] && pid_add(w, w->pids[i], cpus->has, cpus->n) == 0)
			w->ended[i] = true;
		if (w->ended[i]) {
			/* The note stays while the PID is gone, so the user sees
			 * why the job has fewer cores whenever they look. */
			snprintf(text, sizeof text, _("pid %ld has ended"), (long)w->pids[i]);
			note_add(note, notelen, text);
		} else {
			live++;
		}
	}
	if (w->cgroup != NULL && !w->cgroup_gone) {
		snprintf(path, sizeof path, "%s/cpuset.cpus.effective", w->cgroup);
		if (read_small(w, path) != 0 || list_add(w->buf, cpus->has, cpus->n) != 0)
			w->cgroup_gone = true;
	}
	if (w->cgroup != NULL) {
		if (w->cgroup_gone) {
			snprintf(text, sizeof text, _("cgroup %.64s has gone"), w->cgroup);
			note_add(note, notelen, text);
		} else {
			live++;
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
job_watch_free(struct job_watch *w)
{
	if (w == NULL)
		return;
	free(w->proc_root);
	free(w->pids);
	free(w->ended);
	free(w->cgroup);
	free(w);
}
