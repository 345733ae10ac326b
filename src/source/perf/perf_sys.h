/* perf_sys.h: the kernel as the perf source sees it: perf_event_open(2),
 * read(2) and close(2) on its descriptors, and small text files under
 * /proc and /sys. A struct of function pointers, so unit tests can drive
 * the real source with a fake kernel (chosen counts, multiplexing, errors). */
#ifndef HTTOP_PERF_SYS_H
#define HTTOP_PERF_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct perf_event_attr;

/* What the process holds when perf_event_open refuses an event. */
#define PERF_PRIV_CAP    1u   /* CAP_PERFMON or CAP_SYS_ADMIN, effective */
#define PERF_PRIV_GAINED 2u   /* the exec gave it privilege: set-ID or file
                               * capabilities (AT_SECURE), which httop gives
                               * up before it opens the events */

struct perf_sys {
	/* perf_event_open(attr, pid -1, cpu, group_fd, FD_CLOEXEC): a
	 * descriptor, or -errno. */
	int (*open)(struct perf_sys *sys, const struct perf_event_attr *attr, int cpu,
	    int group_fd);
	/* perf_event_open(attr, cgroup_fd, cpu, group_fd, PERF_FLAG_PID_CGROUP |
	 * FD_CLOEXEC): an event that counts only while a task of the cgroup
	 * whose directory cgroup_fd is open runs on `cpu` (perf_cgroup.h). A
	 * descriptor, or -errno. NULL: the kernel has none (-EOPNOTSUPP). */
	int (*open_cgroup)(struct perf_sys *sys, const struct perf_event_attr *attr,
	    int cgroup_fd, int cpu, int group_fd);
	/* read(2): bytes read (0: a pinned group that lost the PMU), or -errno. */
	ssize_t (*read)(struct perf_sys *sys, int fd, void *buf, size_t len);
	void (*close)(struct perf_sys *sys, int fd);
	/* The first line of a file such as "/proc/sys/kernel/perf_event_paranoid"
	 * or "/sys/bus/event_source/devices/msr/type", without its newline:
	 * 0, or -errno. */
	int (*read_file)(struct perf_sys *sys, const char *path, char *buf, size_t len);
	/* Make room for `nfd` more descriptors (RLIMIT_NOFILE soft limit up to
	 * the hard one). NULL: nothing to do. */
	void (*want_fds)(struct perf_sys *sys, unsigned long nfd);
	/* PERF_PRIV_* of the process now. NULL: none of them. */
	unsigned (*privilege)(struct perf_sys *sys);
	void (*destroy)(struct perf_sys *sys);
};

/* PERF_PRIV_* of this process now (capget, AT_SECURE). */
unsigned perf_sys_privilege(void);
/* Why the kernel refused a CPU-wide event with EACCES or EPERM, and the
 * fix, as the rest of a sentence after "...refused ... on CPU N (ERR)":
 * a security module or lockdown where httop holds CAP_PERFMON or the
 * sysctl allows; else kernel.perf_event_paranoid (`known`: it could be
 * read), and where httop was installed set-ID or with file capabilities,
 * that it gave those up before it opened the event, so that the fix is
 * the sysctl or root, not a capability on the file. */
void perf_refused_why(char *buf, size_t len, bool known, int paranoid, unsigned priv);

/* The real syscalls; files are read under `root` ("" or NULL: /). */
struct perf_sys *perf_sys_real(const char *root);

#endif
