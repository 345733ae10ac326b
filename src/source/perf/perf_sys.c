/* perf_sys.c: the real kernel behind perf_sys.h. */
#include "config.h"
#include "source/perf/perf_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/xalloc.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

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

static int
real_open_cgroup(struct perf_sys *sys, const struct perf_event_attr *attr, int cgroup_fd,
    int cpu, int group_fd)
{
	long fd;

	(void)sys;
	fd = syscall(SYS_perf_event_open, attr, cgroup_fd, cpu, group_fd,
	    PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
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

unsigned
perf_sys_privilege(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	unsigned priv = getauxval(AT_SECURE) != 0 ? PERF_PRIV_GAINED : 0u;
	uint64_t eff;

	memset(d, 0, sizeof d);
	if (syscall(SYS_capget, &h, d) != 0)
		return priv;
	eff = (uint64_t)d[1].effective << 32 | d[0].effective;
	if (eff & (1ull << CAP_PERFMON | 1ull << CAP_SYS_ADMIN))
		priv |= PERF_PRIV_CAP;
	return priv;
}

static unsigned
real_privilege(struct perf_sys *sys)
{
	(void)sys;
	return perf_sys_privilege();
}

void
perf_refused_why(char *buf, size_t len, bool known, int paranoid, unsigned priv)
{
	/* What a user can do where httop did not give it up first. */
	const char *fix = _("run 'sysctl kernel.perf_event_paranoid=0' as root, or run httop as "
	    "root or with CAP_PERFMON as an ambient capability (setpriv --inh-caps +perfmon "
	    "--ambient-caps +perfmon), not a file capability");
	const char *fix_gained = _("run 'sysctl kernel.perf_event_paranoid=0' as root, or run "
	    "httop as root");

	if (priv & PERF_PRIV_CAP)
		snprintf(buf, len, _(" although httop holds CAP_PERFMON or CAP_SYS_ADMIN, so "
		    "kernel.perf_event_paranoid is not the cause: a security module (SELinux, "
		    "AppArmor) or lockdown forbids it; ask the administrator"));
	else if (known && paranoid <= 0)
		snprintf(buf, len, _(" although kernel.perf_event_paranoid is %d: a security module "
		    "(SELinux, AppArmor) or lockdown forbids it; ask the administrator"), paranoid);
	else if (known && (priv & PERF_PRIV_GAINED))
		snprintf(buf, len, _(": kernel.perf_event_paranoid is %d, which allows CPU-wide "
		    "events only with CAP_PERFMON, and httop, installed set-ID or with file "
		    "capabilities, gives its privilege up before it opens them (httop(1), "
		    "PRIVILEGE); %s"), paranoid, fix_gained);
	else if (priv & PERF_PRIV_GAINED)
		snprintf(buf, len, _(": kernel.perf_event_paranoid could not be read and CPU-wide "
		    "events need it at 0 or less without CAP_PERFMON, which httop, installed set-ID "
		    "or with file capabilities, gives up before it opens them (httop(1), "
		    "PRIVILEGE); %s"), fix_gained);
	else if (known)
		snprintf(buf, len, _(": kernel.perf_event_paranoid is %d and CPU-wide events need 0 "
		    "or less without CAP_PERFMON; %s"), paranoid, fix);
	else
		snprintf(buf, len, _(": kernel.perf_event_paranoid could not be read and CPU-wide "
		    "events need it at 0 or less without CAP_PERFMON; %s"), fix);
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
	r->sys.open_cgroup = real_open_cgroup;
	r->sys.read = real_read;
	r->sys.close = real_close;
	r->sys.read_file = real_read_file;
	r->sys.want_fds = real_want_fds;
	r->sys.privilege = real_privilege;
	r->sys.destroy = real_destroy;
	snprintf(r->root, sizeof r->root, "%s", root != NULL ? root : "");
	return &r->sys;
}
