/* perf_sys.c: the real kernel behind perf_sys.h. */
#include "config.h"
#include "source/perf_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/xalloc.h"

struct perf_sys_real {
	struct perf_sys sys;
	char root[256];
};

static int
real_open(struct perf_sys *sys, const struct perf_event_attr *attr, int cpu, int group_fd)
{
	long fd;

	(void)sys;
	/* glibc has no wrapper for this one. */
	fd = syscall(SYS_perf_event_open, attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

static ssize_t
real_read(struct perf_sys *sys, int fd, void *buf, size_t len)
{
	ssize_t n;

	(void)sys;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static void
real_close(struct perf_sys *sys, int fd)
{
	(void)sys;
	close(fd);
}

static int
real_read_file(struct perf_sys *sys, const char *path, char *buf, size_t len)
{
	struct perf_sys_real *r = (struct perf_sys_real *)sys;
	char full[512];
	FILE *f;
	int err;

	snprintf(full, sizeof full, "%s%s", r->root, path);
	if ((f = fopen(full, "re")) == NULL)
		return -errno;
	if (fgets(buf, (int)len, f) == NULL) {
		err = ferror(f) ? EIO : ENODATA;
		fclose(f);
		return -err;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* A node with hundreds of CPUs needs more descriptors than the usual
 * soft limit of 1024; the hard limit is usually far higher. */
static void
real_want_fds(struct perf_sys *sys, unsigned long nfd)
{
	struct rlimit rl;

	(void)sys;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return;
	if (rl.rlim_cur >= nfd + 64)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > nfd + 64 ?
	    (rlim_t)(nfd + 64) : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static void
real_destroy(struct perf_sys *sys)
{
	free(sys);
}

struct perf_sys *
perf_sys_real(const char *root)
{
	struct perf_sys_real *r = xcalloc(1, sizeof *r);

	r->sys.open = real_open;
	r->sys.read = real_read;
	r->sys.close = real_close;
	r->sys.read_file = real_read_file;
	r->sys.want_fds = real_want_fds;
	r->sys.destroy = real_destroy;
	snprintf(r->root, sizeof r->root, "%s", root != NULL ? root : "");
	return &r->sys;
}
