/* msr_state.c: the saved-state files of runs that program MSRs (see
 * msr_state.h). A file is text, one field a line:
 *
 *     httop-state 1
 *     boot 5b0c7d5e-...          /proc/sys/kernel/random/boot_id
 *     pid 4242 123456            the run's PID and its start time
 *     devices /dev/cpu/%u/msr    what it wrote through (the source's detail)
 *     msr 0 0x38d 0x0 0xfff 0x333    CPU, register, saved, owned bits, written
 *     ...
 *     end
 *
 * A file without its "end" line is torn (killed while writing it) and
 * worth nothing. Its name is msr-PID-START: unique in a boot, and a run
 * whose file is empty or torn can still be told alive or ended. */
#include "config.h"
#include "source/msr/msr_state.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/xalloc.h"

#define STATE_MAGIC "httop-state 1"

/* A small file of the kernel's (boot_id, /proc/PID/stat), whole. */
static ssize_t
read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The start time of process `pid` (field 22 of /proc/PID/stat), or -1
 * when there is no such process. */
static int
proc_start(long pid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	int field;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (read_small(path, buf, sizeof buf) < 0 || (p = strrchr(buf, ')')) == NULL)
		return -1;
	/* After the name: field 3 (the state) ... field 22. */
	for (field = 2; field < 22 && p != NULL; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p + 1, "%llu", start) != 1)
		return -1;
	return 0;
}

static bool
run_alive(long pid, unsigned long long start)
{
	unsigned long long now;

	return pid > 0 && proc_start(pid, &now) == 0 && now == start;
}

/* The directory, opened without following a link, owned by us and
 * writable by nobody else. */
static int
open_dir(const char *dir, struct errmsg *e)
{
	struct stat st;
	int fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return errmsg_set(e, _("cannot create %s: %s"), dir, strerror(errno));
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return errmsg_set(e, _("cannot open %s: %s"), dir, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022) != 0) {
		close(fd);
		return errmsg_set(e, _("%s is not httop's: it must be a directory of user %ld that "
		    "no one else can write to"), dir, (long)geteuid());
	}
	return fd;
}

/* One "msr CPU MSR SAVED OWN WROTE" line. */
static int
parse_entry(const char *line, struct msr_state_entry *x)
{
	unsigned long long msr, saved, own, wrote;
	int used = -1;

	if (sscanf(line, "msr %u %llx %llx %llx %llx%n", &x->cpu, &msr, &saved, &own, &wrote,
	    &used) != 5 || used < 0 || line[used] != '\0' || msr > UINT32_MAX)
		return -1;
	x->msr = (uint32_t)msr;
	x->saved = saved;
	x->own = own;
	x->wrote = wrote;
	return 0;
}

/* The header lines: 0, or -1 when one is missing or malformed. */
static int
parse_head(char **line, char *boot, size_t bootlen, long *pid, unsigned long long *start,
    char **devices)
{
	int used = -1;

	if (strcmp(line[0], STATE_MAGIC) != 0 || strncmp(line[1], "boot ", 5) != 0 ||
	    strlen(line[1] + 5) == 0 || strlen(line[1] + 5) >= bootlen ||
	    sscanf(line[2], "pid %ld %llu%n", pid, start, &used) != 2 || used < 0 ||
	    line[2][used] != '\0' || strncmp(line[3], "devices ", 8) != 0)
		return -1;
	snprintf(boot, bootlen, "%s", line[1] + 5);
	*devices = xstrdup(line[3] + 8);
	return 0;
}

int
msr_state_parse(const char *text, size_t len, char *boot, size_t bootlen, long *pid,
    unsigned long long *start, char **devices, struct msr_state_entry **ent, size_t *n)
{
	char *copy, **line, *p;
	size_t nl = 0, k, i, cap = 1;
	int rc = -1;

	*devices = NULL;
	*ent = NULL;
	*n = 0;
	if (len == 0 || len > MSR_STATE_MAX_BYTES || memchr(text, '\0', len) != NULL ||
	    text[len - 1] != '\n')
		return -1;
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (k = 0; k < len; k++)
		cap += copy[k] == '\n';
	line = xcalloc(cap, sizeof *line);
	for (p = copy; *p != '\0'; p++) {
		line[nl++] = p;
		p = strchr(p, '\n');
		*p = '\0';
	}
	/* Header, entries, the end line; nothing after it. */
	if (nl < 5 || strcmp(line[nl - 1], "end") != 0 ||
	    parse_head(line, boot, bootlen, pid, start, devices) != 0)
		goto out;
	*ent = xcalloc(nl > 5 ? nl - 5 : 1, sizeof **ent);
	for (i = 4; i + 1 < nl; i++) {
		if (parse_entry(line[i], &(*ent)[i - 4]) != 0)
			goto out;
	}
	*n = nl - 5;
	rc = 0;
out:
	if (rc != 0) {
		free(*devices);
		free(*ent);
		*devices = NULL;
		*ent = NULL;
	}
	free(line);
	free(copy);
	return rc;
}

/* The whole of an open file, bounded. NULL if it is not a plain file of
 * ours of a sane size. */
static char *
slurp(int fd, size_t *len)
{
	struct stat st;
	char *buf;
	ssize_t got;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_nlink != 1 || (st.st_mode & 077) != 0 || st.st_size < 0 ||
	    (uint64_t)st.st_size > MSR_STATE_MAX_BYTES)
		return NULL;
	buf = xmalloc((size_t)st.st_size + 1);
	got = pread(fd, buf, (size_t)st.st_size, 0);
	if (got < 0) {
		free(buf);
		return NULL;
	}
	*len = (size_t)got;
	buf[got] = '\0';
	return buf;
}

/* Are the devices of a template gone: the directory of the part before
 * its %u no longer exists (a test's fake device, unmounted)? */
static bool
devices_gone(const char *devices)
{
	const char *u = strstr(devices, "%u");
	char dir[4096];
	struct stat sb;
	size_t n;

	if (u == NULL)
		return true;
	n = (size_t)(u - devices);
	while (n > 0 && devices[n - 1] != '/')
		n--;
	if (n == 0 || n >= sizeof dir)
		return false;
	memcpy(dir, devices, n);
	dir[n] = '\0';
	return stat(dir, &sb) != 0 && errno == ENOENT;
}

/* One other run's file `name`: kept (a run of this boot, live or ended
 * with its state), removed (an earlier boot, an ended run that left no
 * state, or one whose devices are gone), or passed over (not ours, or a
 * live run's file being written). */
static void
take_file(struct msr_state *st, const char *name)
{
	struct msr_state_run *r = &st->run[st->nrun];
	unsigned long long start, fstart;
	long pid, fpid;
	char boot[64], *text;
	size_t len;
	int used = -1, fd;

	if (sscanf(name, "msr-%ld-%llu%n", &pid, &start, &used) != 2 || used < 0 ||
	    name[used] != '\0' || strlen(name) >= sizeof r->name)
		return;
	fd = openat(st->dirfd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if ((text = slurp(fd, &len)) == NULL) {
		close(fd);
		return;
	}
	memset(r, 0, sizeof *r);
	if (msr_state_parse(text, len, boot, sizeof boot, &fpid, &fstart, &r->devices, &r->ent,
	    &r->n) != 0 || fpid != pid || fstart != start) {
		/* Empty (a clean end that could not unlink) or torn. */
		if (!run_alive(pid, start))
			(void)unlinkat(st->dirfd, name, 0);
		close(fd);
	} else if (strcmp(boot, st->boot) != 0 ||
	    (!run_alive(pid, start) && devices_gone(r->devices))) {
		(void)unlinkat(st->dirfd, name, 0);
		close(fd);
		free(r->devices);
		free(r->ent);
	} else {
		r->fd = fd;
		r->pid = pid;
		r->live = run_alive(pid, start);
		snprintf(r->name, sizeof r->name, "%s", name);
		st->nrun++;
	}
	free(text);
}

static void
scan_dir(struct msr_state *st)
{
	int fd = dup(st->dirfd);
	struct dirent *d;
	DIR *dir;

	if (fd < 0)
		return;
	if ((dir = fdopendir(fd)) == NULL) {
		close(fd);
		return;
	}
	while ((d = readdir(dir)) != NULL && st->nrun < MSR_STATE_MAX_RUNS) {
		if (strncmp(d->d_name, "msr-", 4) == 0)
			take_file(st, d->d_name);
	}
	closedir(dir);
}

struct msr_state *
msr_state_open(const char *dir, struct errmsg *e)
{
	struct msr_state *st;
	char boot[64];
	int dirfd;

	if (read_small("/proc/sys/kernel/random/boot_id", boot, sizeof boot) <= 0) {
		errmsg_set(e, _("cannot read /proc/sys/kernel/random/boot_id"));
		return NULL;
	}
	boot[strcspn(boot, "\n")] = '\0';
	if ((dirfd = open_dir(dir, e)) < 0)
		return NULL;
	st = xcalloc(1, sizeof *st);
	st->dirfd = dirfd;
	st->fd = -1;
	snprintf(st->boot, sizeof st->boot, "%s", boot);
	st->pid = (long)getpid();
	if (proc_start(st->pid, &st->start) != 0) {
		errmsg_set(e, _("cannot read /proc/self/stat"));
		msr_state_free(st);
		return NULL;
	}
	scan_dir(st);
	snprintf(st->name, sizeof st->name, "msr-%ld-%llu", st->pid, st->start);
	st->fd = openat(dirfd, st->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (st->fd < 0) {
		errmsg_set(e, _("cannot create %s/%s: %s"), dir, st->name, strerror(errno));
		msr_state_free(st);
		return NULL;
	}
	return st;
}

/* Append to the write buffer, growing it. */
static void
add(struct msr_state *st, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
add(struct msr_state *st, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(st->buf + *used, st->cap - *used, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < st->cap - *used) {
			*used += (size_t)n;
			return;
		}
		st->cap = st->cap * 2 + (size_t)(n > 0 ? n : 0) + 1;
		st->buf = xrealloc(st->buf, st->cap);
	}
}

int
msr_state_write(struct msr_state *st, const char *devices, const struct msr_state_entry *ent,
    size_t n)
{
	size_t used = 0, i;

	if (st == NULL || st->fd < 0)
		return -1;
	if (strchr(devices, '\n') != NULL) {
		(void)!ftruncate(st->fd, 0);
		return -1;
	}
	if (st->buf == NULL) {
		st->cap = 4096;
		st->buf = xmalloc(st->cap);
	}
	add(st, &used, "%s\nboot %s\npid %ld %llu\ndevices %s\n", STATE_MAGIC, st->boot, st->pid,
	    st->start, devices);
	for (i = 0; i < n; i++)
		add(st, &used, "msr %u 0x%" PRIx32 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n",
		    ent[i].cpu, ent[i].msr, ent[i].saved, ent[i].own, ent[i].wrote);
	add(st, &used, "end\n");
	if (used > MSR_STATE_MAX_BYTES || pwrite(st->fd, st->buf, used, 0) != (ssize_t)used ||
	    ftruncate(st->fd, (off_t)used) != 0) {
		(void)!ftruncate(st->fd, 0);
		return -1;
	}
	return 0;
}

/* Empty the file (that works through the descriptor after privilege is
 * given up), then try to remove it (which does not, in a set-ID httop:
 * the next start removes the empty file). */
static void
drop_file(int dirfd, int *fd, const char *name)
{
	if (*fd < 0)
		return;
	(void)!ftruncate(*fd, 0);
	(void)unlinkat(dirfd, name, 0);
	close(*fd);
	*fd = -1;
}

void
msr_state_remove(struct msr_state *st)
{
	if (st != NULL)
		drop_file(st->dirfd, &st->fd, st->name);
}

void
msr_state_run_done(struct msr_state *st, size_t i)
{
	if (st != NULL && i < st->nrun)
		drop_file(st->dirfd, &st->run[i].fd, st->run[i].name);
}

void
msr_state_free(struct msr_state *st)
{
	struct stat sb;
	size_t i;

	if (st == NULL)
		return;
	if (st->fd >= 0) {
		if (fstat(st->fd, &sb) == 0 && sb.st_size == 0)
			(void)unlinkat(st->dirfd, st->name, 0);
		close(st->fd);
	}
	for (i = 0; i < st->nrun; i++) {
		if (st->run[i].fd >= 0)
			close(st->run[i].fd);
		free(st->run[i].devices);
		free(st->run[i].ent);
	}
	if (st->dirfd >= 0)
		close(st->dirfd);
	free(st->buf);
	free(st);
}
