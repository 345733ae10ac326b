/* textfile.c: DIR/httop.prom for the node exporter's textfile collector,
 * replaced atomically after every interval; a watched job's httop writes
 * DIR/httop-job-ID.prom instead (its series labelled jobid, openmetrics.c)
 * and removes it when it ends.
 *
 * The temporary file is created in DIR itself (rename is atomic only
 * within a file system) with O_EXCL|O_NOFOLLOW, so nothing planted at its
 * name is followed or reused; its name, .httop.prom.PID.RANDOM, does not
 * end in .prom, so the collector never reads it, and cannot be guessed, so
 * names created in advance by someone else cannot make it fail (a name
 * that is taken anyway is skipped for another). Every error path removes
 * it.
 * httop's ending signals are blocked except while it waits (signals.h), so
 * none can stop a write half-way; a temporary file left by a crash or
 * SIGKILL is removed by the next httop that writes to DIR. */
#include "config.h"
#include "out/textfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "out/batch.h"
#include "util/i18n.h"
#include "util/fdwrite.h"
#include "watch/slurmjobs.h"
#include "util/xalloc.h"

#define TMP_PREFIX "." TEXTFILE_NAME "."
/* Names tried before giving up on O_EXCL collisions. */
#define TMP_TRIES 100

struct textfile {
	int dirfd;
	char *dir;             /* for messages */
	struct batch *b;       /* the writer, into mem */
	FILE *mem;             /* an interval's text, built in memory: a failed
				* write is then one write(2), whose errno is
				* the cause (a stdio stream's buffer fills
				* and fails inside some fprintf) */
	char *buf;
	size_t buflen;
	unsigned long seq;     /* mixed into each temporary name */
	char tmp[64];          /* the temporary file while it exists, else "" */
	bool scan_jobs;        /* level core, no watched job: the cores' Slurm jobs */
	char name[128];        /* the file: TEXTFILE_NAME, or a watched job's
				* (textfile_set_job), removed when httop ends */
	bool job_file;
	struct slurm_cpu_jobs jobs;
};

/* Remove the temporary file, if there is one. */
static void
drop_tmp(struct textfile *t)
{
	if (t->tmp[0] != '\0') {
		(void)unlinkat(t->dirfd, t->tmp, 0);
		t->tmp[0] = '\0';
	}
}

/* 64 bits nobody can guess: the kernel's random source, or (it never
 * fails on Linux >= 3.17 once booted) the clock and a counter. */
static unsigned long long
random_part(struct textfile *t)
{
	unsigned long long r;
	struct timespec ts;

	if (getrandom(&r, sizeof r, GRND_NONBLOCK) == (ssize_t)sizeof r)
		return r ^ t->seq++;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((unsigned long long)ts.tv_nsec << 20) ^ (unsigned long long)ts.tv_sec ^
	    (t->seq++ * 0x9e3779b97f4a7c15ULL);
}

/* Create a new temporary file; its name goes to t->tmp. */
static int
create_tmp(struct textfile *t, struct errmsg *e)
{
	char taken[sizeof t->tmp] = "";
	int fd = -1, i;

	for (i = 0; i < TMP_TRIES; i++) {
		snprintf(t->tmp, sizeof t->tmp, TMP_PREFIX "%ld.%016llx", (long)getpid(),
		    random_part(t));
		fd = openat(t->dirfd, t->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0644);
		if (fd >= 0 || errno != EEXIST)
			break;
		memcpy(taken, t->tmp, sizeof taken);
	}
	if (fd < 0) {
		int err = errno;

		t->tmp[0] = '\0';
		if (err == EEXIST)
			return errmsg_set(e, _("--textfile: %d random names for the temporary file "
			    "in %s were all taken (the last: %s): something is creating files there; "
			    "stop it, or give another directory"), TMP_TRIES, t->dir, taken);
		return errmsg_set(e, _("--textfile: cannot create a file in %s: %s; give a directory "
		    "httop may write to (the node exporter's --collector.textfile.directory)"),
		    t->dir, strerror(err));
	}
	/* The collector runs as another user (prometheus): it must read the
	 * file whatever the umask. The figures are not secret. */
	(void)fchmod(fd, 0644);
	return fd;
}

/* A temporary file whose httop no longer exists (it crashed or was
 * killed): remove it. Another running httop's file is left alone. */
static void
remove_stale(struct textfile *t)
{
	struct dirent *d;
	DIR *dp;
	int fd = dup(t->dirfd);

	if (fd < 0)
		return;
	dp = fdopendir(fd);
	if (dp == NULL) {
		close(fd);
		return;
	}
	while ((d = readdir(dp)) != NULL) {
		const char *p = d->d_name;
		char *end;
		long pid;

		if (strncmp(p, TMP_PREFIX, strlen(TMP_PREFIX)) != 0)
			continue;
		p += strlen(TMP_PREFIX);
		errno = 0;
		pid = strtol(p, &end, 10);
		if (end == p || *end != '.' || errno != 0 || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			(void)unlinkat(t->dirfd, d->d_name, 0);
	}
	closedir(dp);
}

/* textfile.h */
int
textfile_check(const char *dir, bool create, struct errmsg *e)
{
	struct textfile t;
	int fd;

	memset(&t, 0, sizeof t);
	t.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t.dirfd < 0)
		return errmsg_set(e, _("--textfile: cannot open the directory %s: %s; give the "
		    "node exporter's --collector.textfile.directory"), dir, strerror(errno));
	t.dir = (char *)dir;
	fd = create ? create_tmp(&t, e) : -2;
	if (fd >= 0) {
		close(fd);
		drop_tmp(&t);
	}
	close(t.dirfd);
	return fd == -1 ? -1 : 0;
}

struct textfile *
textfile_open(const char *dir, const struct machine *m, const struct plan *p,
    const char *source_name, struct errmsg *e)
{
	struct textfile *t;
	int fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		errmsg_set(e, _("--textfile: cannot open the directory %s: %s; give the node "
		    "exporter's --collector.textfile.directory"), dir, strerror(errno));
		return NULL;
	}
	t = xcalloc(1, sizeof *t);
	t->dirfd = fd;
	t->dir = xstrdup(dir);
	remove_stale(t);
	/* Find out now, not after the first interval, that DIR is not
	 * writable (read-only, wrong owner, privilege given up). */
	fd = create_tmp(t, e);
	if (fd < 0) {
		textfile_free(t);
		return NULL;
	}
	close(fd);
	drop_tmp(t);
	t->mem = open_memstream(&t->buf, &t->buflen);
	if (t->mem == NULL) {
		errmsg_set(e, _("--textfile: %s"), strerror(errno));
		textfile_free(t);
		return NULL;
	}
	t->b = batch_new(FMT_OPENMETRICS, t->mem, m, p, source_name);
	snprintf(t->name, sizeof t->name, "%s", TEXTFILE_NAME);
	return t;
}

void
textfile_set_level(struct textfile *t, enum out_level l)
{
	if (t == NULL)
		return;
	batch_set_level(t->b, l);
	/* The whole node at core level: each core's Slurm job, if any. */
	t->scan_jobs = l >= OUT_LEVEL_CORE;
	if (t->scan_jobs && t->jobs.job == NULL)
		slurm_cpu_jobs_init(&t->jobs, t->b->m->topo.max_cpu);
}

/* A watched job's file: httop-job-ID.prom, the id's characters other
 * than letters, digits, '.', '_' and '-' as '_' (a cgroup's path), cut
 * at 64: beside the node's httop.prom in the same directory, never it. */
void
textfile_set_job(struct textfile *t, const struct job_ident *j)
{
	size_t i, o;

	if (t == NULL)
		return;
	batch_set_job(t->b, j);
	o = (size_t)snprintf(t->name, sizeof t->name, "%s", TEXTFILE_JOB_PREFIX);
	for (i = 0; j->id[i] != '\0' && i < 64 && o + 1 < sizeof t->name; i++) {
		char c = j->id[i];
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';

		t->name[o++] = keep ? c : '_';
	}
	snprintf(t->name + o, sizeof t->name - o, ".prom");
	t->job_file = true;
}

int
textfile_write(struct textfile *t, const struct interval *iv, struct errmsg *e)
{
	const char *what = "write";
	off_t len;
	int fd, err;

	rewind(t->mem);
	if (t->scan_jobs && !t->b->has_job) {
		slurm_cpu_jobs_scan(&t->jobs, NULL);
		t->b->cpu_job = (const char (*)[SLURM_ID_MAX])t->jobs.job;
		t->b->cpu_job_n = t->jobs.max_cpu;
	}
	out_prom_write(t->b, iv, false);
	if (fflush(t->mem) != 0 || (len = ftello(t->mem)) < 0)
		return errmsg_set(e, _("--textfile: %s"), strerror(errno));
	fd = create_tmp(t, e);
	if (fd < 0)
		return -1;
	err = fd_write_all(fd, t->buf, (size_t)len);
	/* On the disk before the name points at it: after a crash the name
	 * holds the old figures or the new, never an empty file. */
	if (err == 0 && fsync(fd) != 0) {
		err = errno;
		what = "fsync";
	}
	if (close(fd) != 0 && err == 0)
		err = errno;
	if (err == 0 && renameat(t->dirfd, t->tmp, t->dirfd, t->name) != 0) {
		err = errno;
		what = "rename";
	}
	if (err == 0) {
		t->tmp[0] = '\0';
		return 0;
	}
	drop_tmp(t);
	return errmsg_set(e, _("--textfile: %s of %s/%s failed: %s; check the disk (free space, "
	    "read-only mount) or give another directory"), what, t->dir, t->name,
	    strerror(err));
}

void
textfile_free(struct textfile *t)
{
	if (t == NULL)
		return;
	drop_tmp(t);
	/* A watched job's series end with httop: the collector would
	 * otherwise serve its last figures for ever. */
	if (t->job_file)
		(void)unlinkat(t->dirfd, t->name, 0);
	close(t->dirfd);
	batch_free(t->b);
	if (t->mem != NULL)
		fclose(t->mem);
	free(t->buf);
	if (t->jobs.job != NULL)
		slurm_cpu_jobs_free(&t->jobs);
	free(t->dir);
	free(t);
}
