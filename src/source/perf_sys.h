/* perf_sys.h: the kernel as the perf source sees it: perf_event_open(2),
 * read(2) and close(2) on its descriptors, and small text files under
 * /proc and /sys. A struct of function pointers, so unit tests can drive
 * the real source with a fake kernel (chosen counts, multiplexing, errors). */
#ifndef HTTOP_PERF_SYS_H
#define HTTOP_PERF_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct perf_event_attr;

struct perf_sys {
	/* perf_event_open(attr, pid -1, cpu, group_fd, FD_CLOEXEC): a
	 * descriptor, or -errno. */
	int (*open)(struct perf_sys *sys, const struct perf_event_attr *attr, int cpu,
	    int group_fd);
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
	void (*destroy)(struct perf_sys *sys);
};

/* The real syscalls; files are read under `root` ("" or NULL: /). */
struct perf_sys *perf_sys_real(const char *root);

#endif
