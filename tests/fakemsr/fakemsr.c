/* fakemsr: a FUSE file system that looks like the kernel's msr driver, with
 * a virtual PMU (src/sim/vpmu.h) behind it, so the real msr source of
 * httop can be tested end to end on a machine without /dev/cpu/N/msr.
 *
 * Usage: fakemsr MOUNTPOINT --topology XML --cpuid DUMP [--scenario S]
 *            [--seed N] [--realtime] [--cutoff SECONDS] [--step SECONDS]
 *            [--counters-start VALUE]
 *            [--foreground]
 *
 * MOUNTPOINT/N/msr   for every present CPU N: pread/pwrite of 8 bytes at
 *                    offset = MSR index reach vpmu_rdmsr/vpmu_wrmsr and fail
 *                    with EIO/ENXIO as the msr driver does; open fails with
 *                    ENXIO while the CPU is offline. Files are opened with
 *                    direct_io so every access arrives with its offset.
 * MOUNTPOINT/ctl     write one command per line; reading the file then gives
 *                    the answer to the last write:
 *   advance SECONDS      let virtual time pass
 *   poke CPU MSR VALUE   set a register as another program would (no log entry)
 *   offline CPU          the CPU's accesses and opens fail with ENXIO
 *   online CPU           ... and work again
 *   unplug CPU           CPU hotplug: the CPU goes offline and its msr file
 *                        vanishes (open: ENOENT; open files: ENXIO)
 *   plug CPU             ... and it is back, with its PMU as after power-on:
 *                        every control register and counter 0
 *   takeover CPU|all EVTSEL  another program takes counter 0, as perf or a
 *                        site monitor would: PERFEVTSEL0 = EVTSEL and PMC0 = 0
 *                        on that CPU (or every CPU), no log entry
 *   snapshot             note how many msr files are open now (with "at":
 *                        at a given refresh)
 *   snapshots            answer: the numbers noted, in order, one a line
 *   at N COMMAND...      run COMMAND at the start of httop's N-th refresh
 *                        from now (0: the next one), i.e. just before its
 *                        read of the first CPU's TSC, so a test can act
 *                        between two given refreshes without timing; the
 *                        first CPU must stay online for it
 *   fail CPU ERRNO       the next access to CPU fails with ERRNO (number or
 *                        EIO, ENXIO, EPERM, EACCES, ENOENT)
 *   deny open CPU|all ERRNO  opening CPU's msr file (or every CPU's) fails
 *                        with ERRNO from now on, as the device refuses an
 *                        unprivileged user (EACCES, EPERM) or a CPU whose
 *                        device went away (ENXIO, ENOENT); open files stay
 *   allow open CPU|all   ... and opens work again
 *   get CPU MSR          answer: the value, 0x...
 *   dump                 the non-zero PMU control registers httop may write,
 *                        "cpu msr value" per line (PERFEVTSEL0..7,
 *                        FIXED_CTR_CTRL, PERF_GLOBAL_CTRL, HWCR on AMD)
 *   truth CORE           answer: "neither t0only t1only both" in TSC ticks
 *   log                  the writes received through the files, in order,
 *                        "cpu msr value" per line
 *   clearlog             forget them
 *   counts               answer: "reads N writes N" through the files
 *   now                  answer: virtual time in TSC ticks
 * Numbers may be decimal or 0x hex. Registers are printed "%u 0x%x 0x%llx".
 * dump and get read through the vpmu, so they consume an armed "fail".
 *
 * Time: with --realtime virtual time follows CLOCK_MONOTONIC (it is brought
 * up to date before every access and command), except that a gap shorter
 * than --cutoff SECONDS (default 0.02) between two accesses counts as 1 us,
 * the cost of an IPI: FUSE round trips and scheduling on a small VM take
 * milliseconds and would show as read skew between sibling threads, while
 * httop's own sleeps (-d >= 0.05 s) pass in full. --cutoff 0 gives plain
 * real time. With --step SECONDS time is deterministic instead: every access
 * costs 1 us, and reading the TSC of the first CPU (the first read of each
 * of httop's refreshes) lets SECONDS pass; accuracy tests use it, so a
 * loaded machine cannot turn FUSE stalls into read skew. Without --realtime
 * or --step only "advance" moves time. --counters-start pokes every fixed and programmable counter of
 * every CPU with VALUE at start (e.g. near 2^48 to exercise wrap handling).
 * Runs single-threaded; SIGTERM/SIGINT/SIGHUP unmount (libfuse's handlers). */
#include "config.h"

#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fuse.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "machine/machine.h"
#include "plan/plan.h"
#include "sim/scenario.h"
#include "sim/vpmu.h"
#include "util/errmsg.h"
#include "util/xalloc.h"

/* "at" commands pending at once. */
#define MAX_LATER 64

/* Large enough that no kernel size check stops an access at offset 0xC00000E9. */
#define MSR_FILE_SIZE (1ll << 40)

struct wlog {
	unsigned cpu;
	uint32_t msr;
	uint64_t val;
};

static struct fake {
	struct machine m;
	struct vpmu *v;
	bool realtime;
	struct timespec last;       /* real time of the last access */
	double cutoff;              /* shorter gaps count as RT_IPI_S */
	double step;                /* --step: seconds per refresh, 0 if off */
	unsigned step_cpu;          /* whose TSC read starts a refresh */
	double tsc_hz;
	uint64_t nreads, nwrites;
	int *deny_open;             /* per CPU: errno for open(), 0 allowed */
	bool *unplugged;            /* per CPU: its files have vanished */
	struct later {              /* "at": commands waiting for a refresh */
		unsigned wait;          /* refresh starts still to pass */
		char line[96];
	} later[MAX_LATER];
	unsigned nlater;
	long nopen;                 /* msr files open now (open - release) */
	long snap[MAX_LATER];       /* "snapshot" */
	unsigned nsnap;
	struct wlog *log;
	size_t nlog, caplog;
	char *ans;                  /* answer to the last ctl write */
	size_t anslen, anscap;
} F;

/* Gaps between accesses shorter than F.cutoff are FUSE latency, not time
 * the program meant to let pass; they count as one IPI. */
#define RT_IPI_S 1e-6

static void
catch_up(void)
{
	struct timespec now;
	double gap;

	if (F.step > 0) {
		vpmu_advance(F.v, (uint64_t)(RT_IPI_S * F.tsc_hz + 0.5));
		return;
	}
	if (!F.realtime)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	gap = (double)(now.tv_sec - F.last.tv_sec) + (double)(now.tv_nsec - F.last.tv_nsec) * 1e-9;
	F.last = now;
	if (gap < F.cutoff)
		gap = RT_IPI_S;
	vpmu_advance(F.v, (uint64_t)(gap * F.tsc_hz + 0.5));
}

static int command(char *line);
static void refresh_starts(void);

/* "/12/msr" -> 12; -1 when the path is not a CPU's msr file. */
static int
msr_path_cpu(const char *path, bool dir_only)
{
	unsigned cpu;
	int n = -1;

	if (dir_only) {
		if (sscanf(path, "/%u%n", &cpu, &n) != 1 || path[n] != '\0')
			return -1;
	} else if (sscanf(path, "/%u/msr%n", &cpu, &n) != 1 || n < 0 || path[n] != '\0') {
		return -1;
	}
	if (cpu >= F.m.topo.max_cpu || !F.m.topo.cpus[cpu].present || F.unplugged[cpu])
		return -1;
	return (int)cpu;
}

/* msr_path_cpu() for a file already open: unplugging does not close it,
 * its accesses fail with ENXIO as the CPU is offline. */
static int
open_path_cpu(const char *path)
{
	unsigned cpu;
	int n = -1;

	if (sscanf(path, "/%u/msr%n", &cpu, &n) != 1 || n < 0 || path[n] != '\0')
		return -1;
	if (cpu >= F.m.topo.max_cpu || !F.m.topo.cpus[cpu].present)
		return -1;
	return (int)cpu;
}

static void *
fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	return NULL;
}

static int
fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof *st);
	if (strcmp(path, "/") == 0 || msr_path_cpu(path, true) >= 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (strcmp(path, "/ctl") == 0) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
	} else if (msr_path_cpu(path, false) >= 0) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = MSR_FILE_SIZE;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int
fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
    struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	char name[16];
	unsigned cpu;

	(void)off;
	(void)fi;
	(void)flags;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	if (strcmp(path, "/") == 0) {
		fill(buf, "ctl", NULL, 0, 0);
		for (cpu = 0; cpu < F.m.topo.max_cpu; cpu++) {
			if (F.m.topo.cpus[cpu].present && !F.unplugged[cpu]) {
				snprintf(name, sizeof name, "%u", cpu);
				fill(buf, name, NULL, 0, 0);
			}
		}
		return 0;
	}
	if (msr_path_cpu(path, true) >= 0) {
		fill(buf, "msr", NULL, 0, 0);
		return 0;
	}
	return -ENOENT;
}

static int
fs_open(const char *path, struct fuse_file_info *fi)
{
	int cpu;

	fi->direct_io = 1;
	fi->keep_cache = 0;
	if (strcmp(path, "/ctl") == 0)
		return 0;
	if ((cpu = msr_path_cpu(path, false)) < 0)
		return -ENOENT;
	if (F.deny_open[cpu] != 0)
		return -F.deny_open[cpu];
	if (!vpmu_cpu_online(F.v, (unsigned)cpu))
		return -ENXIO;   /* the msr driver refuses offline CPUs */
	F.nopen++;
	return 0;
}

static int
fs_release(const char *path, struct fuse_file_info *fi)
{
	(void)fi;
	if (open_path_cpu(path) >= 0)
		F.nopen--;
	return 0;
}

static int
fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)path;
	(void)size;
	(void)fi;
	return 0;   /* "> ctl" truncates; nothing to do */
}

static void
answer(const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(F.ans + F.anslen, F.anscap - F.anslen, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < F.anscap - F.anslen)
			break;
		F.anscap = F.anscap * 2 + (size_t)n + 64;
		F.ans = xrealloc(F.ans, F.anscap);
	}
	F.anslen += (size_t)n;
}

static int
fs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	size_t done;
	int cpu, rc;

	(void)fi;
	if (strcmp(path, "/ctl") == 0) {
		if (off < 0 || (size_t)off >= F.anslen)
			return 0;
		if (size > F.anslen - (size_t)off)
			size = F.anslen - (size_t)off;
		memcpy(buf, F.ans + off, size);
		return (int)size;
	}
	if ((cpu = open_path_cpu(path)) < 0)
		return -ENOENT;
	if (size % 8 != 0)
		return -EINVAL;
	/* The driver reads the same register for every 8 bytes asked. */
	for (done = 0; done < size; done += 8) {
		uint64_t v;

		catch_up();
		if (off == 0x10 && (unsigned)cpu == F.step_cpu)
			refresh_starts();
		if (F.step > 0 && off == 0x10 && (unsigned)cpu == F.step_cpu)
			vpmu_advance(F.v, (uint64_t)(F.step * F.tsc_hz + 0.5));
		F.nreads++;
		if ((rc = vpmu_rdmsr(F.v, (unsigned)cpu, (uint32_t)off, &v)) != 0)
			return done > 0 ? (int)done : rc;
		memcpy(buf + done, &v, 8);
	}
	return (int)size;
}

static int
parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno != 0 || *end != '\0') ? -1 : 0;
}

static int
parse_errno(const char *s)
{
	static const struct { const char *name; int err; } names[] = {
		{ "EIO", EIO }, { "ENXIO", ENXIO }, { "EPERM", EPERM }, { "EACCES", EACCES },
		{ "ENOENT", ENOENT },
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (s != NULL && strcmp(s, names[i].name) == 0)
			return names[i].err;
	}
	return (parse_u64(s, &v) == 0 && v > 0 && v < 4096) ? (int)v : -1;
}

static void
dump(void)
{
	uint32_t regs[12];
	unsigned cpu, n = 0, k;
	uint64_t v;

	for (k = 0; k < 8; k++)
		regs[n++] = MSR_PERFEVTSEL0 + k;
	regs[n++] = MSR_FIXED_CTR_CTRL;
	regs[n++] = MSR_PERF_GLOBAL_CTRL;
	if (F.m.id.vendor == CPU_VENDOR_AMD)
		regs[n++] = MSR_AMD_HWCR;
	for (cpu = 0; cpu < F.m.topo.max_cpu; cpu++) {
		if (!F.m.topo.cpus[cpu].present)
			continue;
		for (k = 0; k < n; k++) {
			if (vpmu_rdmsr(F.v, cpu, regs[k], &v) == 0 && v != 0)
				answer("%u 0x%x 0x%" PRIx64 "\n", cpu, (unsigned)regs[k], v);
		}
	}
}

/* "deny open CPU|all ERRNO" (n == 4) or "allow open CPU|all" (n == 3). */
static int
deny_command(char **w, unsigned n)
{
	bool deny = strcmp(w[0], "deny") == 0;
	unsigned cpu, first, last;
	uint64_t a;
	int err = 0;

	if (strcmp(w[1], "open") != 0 || n != (deny ? 4u : 3u))
		return -1;
	if (deny && (err = parse_errno(w[3])) < 0)
		return -1;
	if (strcmp(w[2], "all") == 0) {
		first = 0;
		last = F.m.topo.max_cpu;
	} else {
		if (parse_u64(w[2], &a) != 0 || a >= F.m.topo.max_cpu || !F.m.topo.cpus[a].present)
			return -1;
		first = (unsigned)a;
		last = first + 1;
	}
	for (cpu = first; cpu < last; cpu++)
		F.deny_open[cpu] = err;
	return 0;
}

/* A CPU back from hotplug: its PMU as after power-on, everything 0. */
static void
pmu_reset(unsigned cpu)
{
	unsigned k, ngp = F.m.id.n_gp ? F.m.id.n_gp : 4;

	for (k = 0; k < ngp; k++) {
		vpmu_poke(F.v, cpu, MSR_PERFEVTSEL0 + k, 0);
		vpmu_poke(F.v, cpu, MSR_PMC0 + k, 0);
	}
	for (k = 0; k < 3; k++)
		vpmu_poke(F.v, cpu, MSR_FIXED_CTR0 + k, 0);
	vpmu_poke(F.v, cpu, MSR_FIXED_CTR_CTRL, 0);
	vpmu_poke(F.v, cpu, MSR_PERF_GLOBAL_CTRL, 0);
}

/* "takeover CPU|all EVTSEL": counter 0 programmed and cleared by someone
 * else, on every CPU between two of httop's accesses. */
static int
takeover_command(char **w, unsigned n)
{
	unsigned cpu, first, last;
	uint64_t a, evtsel;

	if (n != 3 || parse_u64(w[2], &evtsel) != 0)
		return -1;
	if (strcmp(w[1], "all") == 0) {
		first = 0;
		last = F.m.topo.max_cpu;
	} else {
		if (parse_u64(w[1], &a) != 0 || a >= F.m.topo.max_cpu || !F.m.topo.cpus[a].present)
			return -1;
		first = (unsigned)a;
		last = first + 1;
	}
	for (cpu = first; cpu < last; cpu++) {
		if (!F.m.topo.cpus[cpu].present)
			continue;
		vpmu_poke(F.v, cpu, MSR_PERFEVTSEL0, evtsel);
		vpmu_poke(F.v, cpu, MSR_PMC0, 0);
	}
	return 0;
}

/* "at N COMMAND...": keep the command for later. */
static int
at_command(char *rest)
{
	char *end;
	unsigned long n = strtoul(rest, &end, 10);

	if (end == rest || *end != ' ' || F.nlater == MAX_LATER ||
	    strlen(end + 1) >= sizeof F.later[0].line)
		return -1;
	F.later[F.nlater].wait = (unsigned)n;
	snprintf(F.later[F.nlater].line, sizeof F.later[0].line, "%s", end + 1);
	F.nlater++;
	return 0;
}

/* A refresh of httop starts: run the "at" commands that are due. */
static void
refresh_starts(void)
{
	unsigned i = 0;

	while (i < F.nlater) {
		if (F.later[i].wait-- > 0) {
			i++;
			continue;
		}
		(void)command(F.later[i].line);
		F.later[i] = F.later[--F.nlater];
	}
}

/* One command line; 0 or -EINVAL (the answer says why). */
static int
command(char *line)
{
	char *w[5] = { NULL };
	char *save = NULL, *tok;
	uint64_t a = 0, b = 0, c = 0;
	unsigned n = 0, cpu;
	int err;

	if (strncmp(line, "at ", 3) == 0) {
		if (at_command(line + 3) == 0)
			return 0;
		answer("error: bad command 'at'\n");
		return -EINVAL;
	}
	for (tok = strtok_r(line, " \t", &save); tok != NULL && n < 5;
	    tok = strtok_r(NULL, " \t", &save))
		w[n++] = tok;
	if (n == 0)
		return 0;
	catch_up();
	if (n >= 2 && (strcmp(w[0], "deny") == 0 || strcmp(w[0], "allow") == 0)) {
		if (deny_command(w, n) != 0)
			goto bad;
		return 0;
	}
	if (strcmp(w[0], "takeover") == 0) {
		if (takeover_command(w, n) != 0)
			goto bad;
		return 0;
	}
	if (n >= 2 && parse_u64(w[1], &a) != 0 && strcmp(w[0], "advance") != 0)
		goto bad;
	if (n >= 3 && parse_u64(w[2], &b) != 0 && strcmp(w[0], "fail") != 0)
		goto bad;
	if (n >= 4 && parse_u64(w[3], &c) != 0)
		goto bad;
	cpu = (unsigned)a;
	if (n >= 2 && strcmp(w[0], "advance") != 0 && strcmp(w[0], "truth") != 0 &&
	    (a >= F.m.topo.max_cpu || !F.m.topo.cpus[a].present))
		goto bad;

	if (strcmp(w[0], "advance") == 0 && n == 2) {
		char *end;
		double s = strtod(w[1], &end);

		if (*end != '\0' || s < 0)
			goto bad;
		vpmu_advance(F.v, (uint64_t)(s * F.tsc_hz + 0.5));
	} else if (strcmp(w[0], "poke") == 0 && n == 4) {
		vpmu_poke(F.v, cpu, (uint32_t)b, c);
	} else if (strcmp(w[0], "offline") == 0 && n == 2) {
		vpmu_set_online(F.v, cpu, false);
	} else if (strcmp(w[0], "online") == 0 && n == 2) {
		vpmu_set_online(F.v, cpu, true);
	} else if (strcmp(w[0], "unplug") == 0 && n == 2) {
		vpmu_set_online(F.v, cpu, false);
		F.unplugged[cpu] = true;
	} else if (strcmp(w[0], "plug") == 0 && n == 2) {
		F.unplugged[cpu] = false;
		vpmu_set_online(F.v, cpu, true);
		pmu_reset(cpu);
	} else if (strcmp(w[0], "fail") == 0 && n == 3) {
		if ((err = parse_errno(w[2])) < 0)
			goto bad;
		vpmu_fail_next(F.v, cpu, err);
	} else if (strcmp(w[0], "get") == 0 && n == 3) {
		uint64_t v;

		if ((err = vpmu_rdmsr(F.v, cpu, (uint32_t)b, &v)) != 0)
			answer("error %d\n", -err);
		else
			answer("0x%" PRIx64 "\n", v);
	} else if (strcmp(w[0], "dump") == 0 && n == 1) {
		dump();
	} else if (strcmp(w[0], "truth") == 0 && n == 2) {
		uint64_t t[4];

		if (a >= F.m.topo.ncores)
			goto bad;
		vpmu_truth(F.v, (unsigned)a, t);
		answer("%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", t[0], t[1], t[2], t[3]);
	} else if (strcmp(w[0], "log") == 0 && n == 1) {
		size_t i;

		for (i = 0; i < F.nlog; i++)
			answer("%u 0x%x 0x%" PRIx64 "\n", F.log[i].cpu, (unsigned)F.log[i].msr,
			    F.log[i].val);
	} else if (strcmp(w[0], "clearlog") == 0 && n == 1) {
		F.nlog = 0;
	} else if (strcmp(w[0], "counts") == 0 && n == 1) {
		answer("reads %" PRIu64 " writes %" PRIu64 "\n", F.nreads, F.nwrites);
	} else if (strcmp(w[0], "snapshot") == 0 && n == 1) {
		if (F.nsnap < MAX_LATER)
			F.snap[F.nsnap++] = F.nopen;
	} else if (strcmp(w[0], "snapshots") == 0 && n == 1) {
		unsigned i;

		for (i = 0; i < F.nsnap; i++)
			answer("%ld\n", F.snap[i]);
	} else if (strcmp(w[0], "now") == 0 && n == 1) {
		answer("%" PRIu64 "\n", vpmu_now(F.v));
	} else {
		goto bad;
	}
	return 0;
bad:
	answer("error: bad command '%s'\n", w[0]);
	return -EINVAL;
}

static int
ctl_write(const char *buf, size_t size)
{
	char *text = xmalloc(size + 1), *line, *save = NULL;
	int rc = 0;

	memcpy(text, buf, size);
	text[size] = '\0';
	F.anslen = 0;
	F.ans[0] = '\0';
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (command(line) != 0)
			rc = -EINVAL;
	}
	free(text);
	return rc != 0 ? rc : (int)size;
}

static int
fs_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	size_t done;
	int cpu, rc;

	(void)fi;
	if (strcmp(path, "/ctl") == 0)
		return ctl_write(buf, size);
	if ((cpu = open_path_cpu(path)) < 0)
		return -ENOENT;
	if (size % 8 != 0)
		return -EINVAL;
	for (done = 0; done < size; done += 8) {
		uint64_t v;

		memcpy(&v, buf + done, 8);
		catch_up();
		F.nwrites++;
		if (F.nlog == F.caplog) {
			F.caplog = F.caplog * 2 + 64;
			F.log = xreallocarray(F.log, F.caplog, sizeof *F.log);
		}
		F.log[F.nlog].cpu = (unsigned)cpu;
		F.log[F.nlog].msr = (uint32_t)off;
		F.log[F.nlog].val = v;
		F.nlog++;
		if ((rc = vpmu_wrmsr(F.v, (unsigned)cpu, (uint32_t)off, v)) != 0)
			return done > 0 ? (int)done : rc;
	}
	return (int)size;
}

static const struct fuse_operations fs_ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.truncate = fs_truncate,
	.read = fs_read,
	.write = fs_write,
	.release = fs_release,
};

static int
usage(void)
{
	fprintf(stderr, "usage: fakemsr MOUNTPOINT --topology XML --cpuid DUMP [--scenario S] "
	    "[--seed N] [--realtime] [--cutoff SECONDS] [--step SECONDS] [--counters-start VALUE] [--foreground]\n");
	return 2;
}

static void
preset_counters(uint64_t v)
{
	unsigned cpu, k, ngp = F.m.id.n_gp ? F.m.id.n_gp : 4;

	for (cpu = 0; cpu < F.m.topo.max_cpu; cpu++) {
		if (!F.m.topo.cpus[cpu].present)
			continue;
		for (k = 0; k < ngp; k++)
			vpmu_poke(F.v, cpu, MSR_PMC0 + k, v);
		for (k = 0; k < 3; k++)
			vpmu_poke(F.v, cpu, MSR_FIXED_CTR0 + k, v);
	}
}

int
main(int argc, char **argv)
{
	const char *mnt = NULL, *xml = NULL, *cpuid = NULL, *scen = "idle";
	uint64_t seed = 1, start_val = 0;
	bool fg = false, preset = false;
	struct scenario sc;
	struct errmsg e;
	char *fargv[8];
	int i, fargc = 0, rc;

	F.cutoff = 0.02;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--topology") == 0 && next != NULL)
			xml = argv[++i];
		else if (strcmp(a, "--cpuid") == 0 && next != NULL)
			cpuid = argv[++i];
		else if (strcmp(a, "--scenario") == 0 && next != NULL)
			scen = argv[++i];
		else if (strcmp(a, "--seed") == 0 && next != NULL) {
			if (parse_u64(argv[++i], &seed) != 0)
				return usage();
		} else if (strcmp(a, "--counters-start") == 0 && next != NULL) {
			if (parse_u64(argv[++i], &start_val) != 0)
				return usage();
			preset = true;
		} else if (strcmp(a, "--cutoff") == 0 && next != NULL) {
			char *end;

			F.cutoff = strtod(argv[++i], &end);
			if (*end != '\0' || F.cutoff < 0)
				return usage();
		} else if (strcmp(a, "--step") == 0 && next != NULL) {
			char *end;

			F.step = strtod(argv[++i], &end);
			if (*end != '\0' || !(F.step > 0))
				return usage();
		} else if (strcmp(a, "--realtime") == 0)
			F.realtime = true;
		else if (strcmp(a, "--foreground") == 0)
			fg = true;
		else if (a[0] != '-' && mnt == NULL)
			mnt = a;
		else
			return usage();
	}
	if (mnt == NULL || xml == NULL)
		return usage();

	if (machine_load(&F.m, xml, cpuid, &e) != 0) {
		fprintf(stderr, "fakemsr: %s\n", e.text);
		return 1;
	}
	if (scenario_resolve(&sc, scen, &F.m.topo, &e) != 0) {
		fprintf(stderr, "fakemsr: %s\n", e.text);
		machine_free(&F.m);
		return 1;
	}
	F.v = vpmu_new(&F.m, &sc, seed);
	scenario_free(&sc);
	F.tsc_hz = vpmu_tsc_hz(F.v);
	/* httop reads cores in topology order, threads in order: the first
	 * CPU of the first core is read first in every refresh. */
	F.step_cpu = F.m.topo.ncores > 0 ? F.m.topo.cores[0].cpus[0] : 0;
	if (preset)
		preset_counters(start_val);
	F.anscap = 4096;
	F.ans = xcalloc(1, F.anscap);
	F.deny_open = xcalloc(F.m.topo.max_cpu ? F.m.topo.max_cpu : 1, sizeof *F.deny_open);
	F.unplugged = xcalloc(F.m.topo.max_cpu ? F.m.topo.max_cpu : 1, sizeof *F.unplugged);
	clock_gettime(CLOCK_MONOTONIC, &F.last);

	fargv[fargc++] = argv[0];
	fargv[fargc++] = (char *)mnt;
	fargv[fargc++] = (char *)"-s";
	fargv[fargc++] = (char *)"-o";
	fargv[fargc++] = (char *)"fsname=fakemsr,subtype=fakemsr";
	if (fg)
		fargv[fargc++] = (char *)"-f";
	fargv[fargc] = NULL;
	rc = fuse_main(fargc, fargv, &fs_ops, NULL);

	vpmu_free(F.v);
	machine_free(&F.m);
	free(F.log);
	free(F.ans);
	free(F.deny_open);
	free(F.unplugged);
	return rc;
}
