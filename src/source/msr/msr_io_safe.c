/* msr_io_safe.c: MSR access through LLNL msr-safe (msr_safe.h has the
 * kernel interface and where it was checked). Writes and lone reads go to
 * the per-CPU device, as the file backend does them; the reads of a
 * refresh go to the batch device in one ioctl for every CPU, announced
 * once per plan (batch_plan), fetched at the start of each refresh
 * (batch_fetch) and handed out by rd(). Before the engine starts, the
 * source checks the allowlist against what this machine's plans need. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "plan/plan.h"
#include "source/msr/msr_safe.h"
#include "source/sources.h"
#include "util/i18n.h"
#include "util/xalloc.h"

_Static_assert(sizeof(struct msr_safe_op) == 32, "msr_batch_op is 32 bytes");
_Static_assert(sizeof(struct msr_safe_batch) == 16, "msr_batch_array is 16 bytes on x86-64");

/* What rd() knows about op i of the batch. */
enum res_state {
	RES_NONE = 0,   /* not fetched this refresh: rd() reads the device */
	RES_READY,      /* fetched, not yet handed out */
	RES_USED,       /* handed out: a second read goes to the device */
};

struct msr_io_safe {
	struct msr_io io;          /* first: the ops see a struct msr_io * */
	struct msr_io *dev;        /* the per-CPU devices (file backend) */
	char *template;
	char *batch_path;
	unsigned max_cpu;
	msr_ioctl_fn ioctl_fn;
	void *ctx;

	int bfd;                   /* batch device, -1 when not in use */
	bool batch_tried;
	char note[160];            /* why the batch device is not used */

	/* The refresh's reads, in the engine's order, and their results. */
	struct msr_safe_op *ops;
	struct msr_safe_op *retry; /* ops still to run after a refusal */
	unsigned *retry_idx;
	uint64_t *val;
	int *err;
	uint8_t *state;
	unsigned n, cap, cursor;
};

static int
real_ioctl(int fd, unsigned long req, void *arg, void *ctx)
{
	(void)ctx;
	return ioctl(fd, req, arg);
}

static struct msr_io_safe *
safe_of(struct msr_io *io)
{
	return (struct msr_io_safe *)io;
}

static void
batch_off(struct msr_io_safe *f, const char *why)
{
	if (f->bfd >= 0)
		close(f->bfd);
	f->bfd = -1;
	snprintf(f->note, sizeof f->note, _("%s: %s; reading CPU by CPU"), f->batch_path, why);
}

/* The batch device is optional: without it (an old module, no read
 * permission on it) every read goes to the per-CPU device instead. */
static void
batch_open(struct msr_io_safe *f)
{
	if (f->batch_tried)
		return;
	f->batch_tried = true;
	if (f->max_cpu > 0x10000u) {
		/* msr_batch_op.cpu is 16 bits. */
		batch_off(f, _("more than 65536 CPUs"));
		return;
	}
	f->bfd = open(f->batch_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (f->bfd < 0)
		batch_off(f, strerror(errno));
}

static int
safe_open_cpu(struct msr_io *io, unsigned cpu, struct errmsg *e)
{
	struct msr_io_safe *f = safe_of(io);
	bool is_default = strcmp(f->template, MSR_SAFE_DEV_DEFAULT) == 0;
	char path[4096];
	const char *p;
	int rc;

	batch_open(f);
	rc = f->dev->open_cpu(f->dev, cpu, e);
	if (rc == 0 || rc == -ENXIO || rc == -EINVAL)
		return rc;
	/* The file backend's advice is about the msr driver: say it for
	 * msr-safe instead. The template has its %u (EINVAL otherwise). */
	p = strstr(f->template, "%u");
	snprintf(path, sizeof path, "%.*s%u%s", (int)(p - f->template), f->template, cpu, p + 2);
	switch (-rc) {
	case ENOENT:
	case ENODEV:
		if (is_default)
			errmsg_set(e, _("%s does not exist: the msr-safe module is not loaded; "
			    "ask the administrator to load it (see httop(1), PRIVILEGE), or use "
			    "--source msr as root"), path);
		else
			errmsg_set(e, _("%s does not exist: check the --msr-safe-path template '%s'"),
			    path, f->template);
		break;
	case EACCES:
	case EPERM:
		errmsg_set(e, _("no permission to open %s: msr-safe's devices need read-write "
		    "access for one of your groups (httop(1), PRIVILEGE)"), path);
		break;
	case ELOOP:
		errmsg_set(e, _("%s is a symbolic link: give the real device path with "
		    "--msr-safe-path"), path);
		break;
	default:
		break;   /* the file backend's message names the path and errno */
	}
	return rc;
}

/* Index of the next unused fetched op for (cpu, msr), or -1. The engine
 * reads in the order it announced, so the cursor is almost always it. */
static int
find_op(struct msr_io_safe *f, unsigned cpu, uint32_t msr)
{
	unsigned i;

	if (f->cursor < f->n && f->state[f->cursor] == RES_READY &&
	    f->ops[f->cursor].cpu == cpu && f->ops[f->cursor].msr == msr)
		return (int)f->cursor;
	for (i = 0; i < f->n; i++) {
		if (f->state[i] == RES_READY && f->ops[i].cpu == cpu && f->ops[i].msr == msr)
			return (int)i;
	}
	return -1;
}

static int
safe_rd(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct msr_io_safe *f = safe_of(io);
	int i = find_op(f, cpu, msr);

	io->nreads++;
	if (i < 0)
		return f->dev->rd(f->dev, cpu, msr, val);
	f->state[i] = RES_USED;
	f->cursor = (unsigned)i + 1;
	if (f->err[i] != 0)
		return f->err[i] < 0 ? f->err[i] : -f->err[i];
	*val = f->val[i];
	return 0;
}

/* Writes always go to the per-CPU device: they are few (program, restore)
 * and each must be known to have happened before the next. */
static int
safe_wr(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct msr_io_safe *f = safe_of(io);

	io->nwrites++;
	return f->dev->wr(f->dev, cpu, msr, val);
}

/* Only the file backend's pwrite: safe in a signal handler. */
static int
safe_wr_async(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct msr_io_safe *f = safe_of(io);

	return f->dev->wr_async(f->dev, cpu, msr, val);
}

static void
safe_close_cpu(struct msr_io *io, unsigned cpu)
{
	struct msr_io_safe *f = safe_of(io);

	f->dev->close_cpu(f->dev, cpu);
}

static int
safe_batch_plan(struct msr_io *io, const struct msr_op *ops, unsigned n, struct errmsg *e)
{
	struct msr_io_safe *f = safe_of(io);
	unsigned i;

	(void)e;
	batch_open(f);
	if (n > f->cap) {
		f->ops = xreallocarray(f->ops, n, sizeof *f->ops);
		f->retry = xreallocarray(f->retry, n, sizeof *f->retry);
		f->retry_idx = xreallocarray(f->retry_idx, n, sizeof *f->retry_idx);
		f->val = xreallocarray(f->val, n, sizeof *f->val);
		f->err = xreallocarray(f->err, n, sizeof *f->err);
		f->state = xreallocarray(f->state, n, sizeof *f->state);
		f->cap = n;
	}
	f->n = 0;
	for (i = 0; i < n; i++) {
		if (ops[i].cpu > 0xFFFFu) {
			batch_off(f, _("a CPU number above 65535"));
			return 0;
		}
		memset(&f->ops[i], 0, sizeof f->ops[i]);
		f->ops[i].cpu = (uint16_t)ops[i].cpu;
		f->ops[i].isrdmsr = 1;
		f->ops[i].msr = ops[i].msr;
		f->state[i] = RES_NONE;
	}
	f->n = n;
	f->cursor = 0;
	return 0;
}

/* One ioctl over ops[0..n). 0, or the errno it failed with. */
static int
batch_run(struct msr_io_safe *f, struct msr_safe_op *ops, unsigned n)
{
	struct msr_safe_batch b;
	unsigned i;

	for (i = 0; i < n; i++) {
		ops[i].err = 0;
		ops[i].msrdata = 0;
		ops[i].wmask = 0;
	}
	memset(&b, 0, sizeof b);
	b.numops = n;
	b.version = MSR_SAFE_VERSION;
	b.ops = ops;
	f->io.nbatches++;
	if (f->ioctl_fn(f->bfd, MSR_SAFE_IOC_BATCH, &b, f->ctx) == 0)
		return 0;
	return errno != 0 ? errno : EIO;
}

/* The allowlist stage refused some ops, so none ran (msr_safe.h). */
static bool
refused_before_run(int err)
{
	return err == ENXIO || err == EACCES || err == EROFS;
}

/* Results of ops[] after a call that failed with `err` (0: succeeded):
 * an op that ran or has its own error is final; one that did not run is
 * left to the per-CPU device. */
static void
take_results(struct msr_io_safe *f, const struct msr_safe_op *ops, const unsigned *idx,
    unsigned n, int err)
{
	bool ran = err == 0 || err == EIO;
	unsigned k;

	for (k = 0; k < n; k++) {
		unsigned i = idx != NULL ? idx[k] : k;

		if (ops[k].err != 0) {
			f->err[i] = ops[k].err;
			f->state[i] = RES_READY;
		} else if (ran) {
			f->err[i] = 0;
			f->val[i] = ops[k].msrdata;
			f->state[i] = RES_READY;
		}
	}
}

static int
safe_batch_fetch(struct msr_io *io)
{
	struct msr_io_safe *f = safe_of(io);
	unsigned i, m = 0;
	int err;

	for (i = 0; i < f->n; i++)
		f->state[i] = RES_NONE;
	f->cursor = 0;
	if (f->bfd < 0 || f->n == 0)
		return 0;
	err = batch_run(f, f->ops, f->n);
	if (err != 0 && !refused_before_run(err) && err != EIO) {
		/* The whole call failed: this refresh reads CPU by CPU, and a
		 * call the module will never accept is not tried again. */
		if (err == ENOTTY || err == ENOPROTOOPT || err == EINVAL || err == EBADF)
			batch_off(f, err == ENOPROTOOPT ?
			    _("msr-safe's major version is not 2 (ENOPROTOOPT)") : strerror(err));
		return 0;
	}
	take_results(f, f->ops, NULL, f->n, err);
	if (!refused_before_run(err))
		return 0;
	/* An offline CPU or a missing allowlist entry stopped the whole
	 * batch: run the rest once more without the refused ops. */
	for (i = 0; i < f->n; i++) {
		if (f->state[i] == RES_NONE) {
			f->retry[m] = f->ops[i];
			f->retry_idx[m++] = i;
		}
	}
	if (m == 0)
		return 0;
	err = batch_run(f, f->retry, m);
	if (err == 0 || err == EIO || refused_before_run(err))
		take_results(f, f->retry, f->retry_idx, m, err);
	return 0;
}

static void
safe_destroy(struct msr_io *io)
{
	struct msr_io_safe *f = safe_of(io);

	f->dev->destroy(f->dev);
	if (f->bfd >= 0)
		close(f->bfd);
	free(f->ops);
	free(f->retry);
	free(f->retry_idx);
	free(f->val);
	free(f->err);
	free(f->state);
	free(f->template);
	free(f->batch_path);
	free(f);
}

struct msr_io *
msr_io_safe_new_test(const char *template, const char *batch_path, unsigned max_cpu,
    msr_ioctl_fn fn, void *ctx)
{
	struct msr_io_safe *f = xcalloc(1, sizeof *f);

	f->template = xstrdup(template != NULL ? template : MSR_SAFE_DEV_DEFAULT);
	f->batch_path = xstrdup(batch_path != NULL ? batch_path : MSR_SAFE_BATCH_DEFAULT);
	f->dev = msr_io_file_new(f->template, max_cpu);
	f->max_cpu = max_cpu;
	f->ioctl_fn = fn != NULL ? fn : real_ioctl;
	f->ctx = ctx;
	f->bfd = -1;
	f->io.open_cpu = safe_open_cpu;
	f->io.rd = safe_rd;
	f->io.wr = safe_wr;
	f->io.wr_async = safe_wr_async;
	f->io.close_cpu = safe_close_cpu;
	f->io.batch_plan = safe_batch_plan;
	f->io.batch_fetch = safe_batch_fetch;
	f->io.destroy = safe_destroy;
	return &f->io;
}

struct msr_io *
msr_io_safe_new(const char *template, const char *batch_path, unsigned max_cpu)
{
	return msr_io_safe_new_test(template, batch_path, max_cpu, NULL, NULL);
}

/* ---- What httop needs from the allowlist ---- */

static void
need_add(struct msr_need *out, unsigned *n, unsigned max, uint32_t msr, uint64_t wmask,
    bool required)
{
	unsigned i;

	for (i = 0; i < *n; i++) {
		if (out[i].msr == msr) {
			out[i].wmask |= wmask;
			out[i].required = out[i].required || required;
			return;
		}
	}
	if (*n >= max)
		return;
	out[*n].msr = msr;
	out[*n].wmask = wmask;
	out[*n].required = required;
	(*n)++;
}

static void
need_plan(const struct plan *p, struct msr_need *out, unsigned *n, unsigned max)
{
	unsigned k;

	for (k = 0; k < p->nslots; k++)
		need_add(out, n, max, p->slots[k].msr, 0, true);
	for (k = 0; k < p->nwrites; k++)
		need_add(out, n, max, p->writes[k].msr, p->writes[k].mask, true);
}

unsigned
msr_safe_needs(const struct machine *m, struct msr_need *out, unsigned max)
{
	struct plan p, cal;
	unsigned n = 0, i, j;

	plan_for_machine(&p, m);
	need_plan(&p, out, &n, max);
	if (plan_calibration(&cal, &p, m))
		need_plan(&cal, out, &n, max);
	/* The engine reads the base ratio there; without it the nominal
	 * frequency comes from elsewhere. */
	if (m->id.vendor == CPU_VENDOR_INTEL)
		need_add(out, &n, max, MSR_PLATFORM_INFO, 0, false);
	for (i = 1; i < n; i++) {
		struct msr_need t = out[i];

		for (j = i; j > 0 && out[j - 1].msr > t.msr; j--)
			out[j] = out[j - 1];
		out[j] = t;
	}
	return n;
}

void
msr_safe_allowlist_line(const struct msr_need *n, char *buf, size_t len)
{
	snprintf(buf, len, "0x%08X 0x%016llX", (unsigned)n->msr, (unsigned long long)n->wmask);
}

static const char *
need_name(uint32_t msr)
{
	switch (msr) {
	case MSR_TSC: return "TSC";
	case MSR_PLATFORM_INFO: return "PLATFORM_INFO";
	case MSR_MPERF: return "MPERF";
	case MSR_APERF: return "APERF";
	case MSR_PMC0: return "PMC0";
	case MSR_PERFEVTSEL0: return "PERFEVTSEL0";
	case MSR_FIXED_CTR0: return "FIXED_CTR0";
	case MSR_FIXED_CTR1: return "FIXED_CTR1";
	case MSR_FIXED_CTR2: return "FIXED_CTR2";
	case MSR_FIXED_CTR_CTRL: return "FIXED_CTR_CTRL";
	case MSR_PERF_GLOBAL_CTRL: return "PERF_GLOBAL_CTRL";
	case MSR_AMD_IRPERF: return "IRPerfCount";
	default: return "MSR";
	}
}

/* The refusal: the first bad entry in full, how many in all. */
static int
allowlist_error(const struct msr_need *bad, unsigned nbad, uint64_t have, bool missing,
    struct errmsg *e)
{
	char line[64], more[64] = "";

	msr_safe_allowlist_line(bad, line, sizeof line);
	if (nbad > 1)
		snprintf(more, sizeof more, ngettext(" (%u entry is missing or short in all)",
		    " (%u entries are missing or short in all)", nbad), nbad);
	if (missing)
		return errmsg_set(e, _("msr-safe's allowlist lacks MSR 0x%X (%s)%s: add the line "
		    "'%s' to %s (httop's data directory has every line it needs in "
		    "msr-safe/allowlist; see httop(1), PRIVILEGE)"), (unsigned)bad->msr,
		    need_name(bad->msr), more, line, MSR_SAFE_ALLOWLIST);
	return errmsg_set(e, _("msr-safe's allowlist lets httop write bits 0x%llX of MSR 0x%X "
	    "(%s) but it writes 0x%llX%s: make its line '%s' in %s (see httop(1), "
	    "PRIVILEGE)"), (unsigned long long)have, (unsigned)bad->msr, need_name(bad->msr),
	    (unsigned long long)bad->wmask, more, line, MSR_SAFE_ALLOWLIST);
}

/* Check every need on CPU `cpu`. Through the batch device this also gives
 * the write masks; CPU by CPU only reads can be checked (a write would
 * change a register). A caller with CAP_SYS_RAWIO passes the per-CPU
 * check whatever the list says, as the module lets it. */
static int
allowlist_check(struct msr_io_safe *f, const struct machine *m, unsigned cpu,
    struct errmsg *e)
{
	struct msr_need need[MSR_SAFE_MAX_NEEDS];
	struct msr_safe_op ops[MSR_SAFE_MAX_NEEDS];
	uint64_t have[MSR_SAFE_MAX_NEEDS];
	unsigned n = msr_safe_needs(m, need, MSR_SAFE_MAX_NEEDS), i, nbad = 0, first = 0;
	bool missing[MSR_SAFE_MAX_NEEDS], batch = f->bfd >= 0;
	uint64_t v;
	int err = 0, rc;

	if (batch) {
		for (i = 0; i < n; i++) {
			memset(&ops[i], 0, sizeof ops[i]);
			ops[i].cpu = (uint16_t)cpu;
			ops[i].isrdmsr = 1;
			ops[i].msr = need[i].msr;
		}
		err = batch_run(f, ops, n);
		if (err != 0 && !refused_before_run(err) && err != EIO) {
			batch_off(f, err == ENOPROTOOPT ?
			    _("msr-safe's major version is not 2 (ENOPROTOOPT)") : strerror(err));
			batch = false;
		}
	}
	for (i = 0; i < n; i++) {
		if (batch) {
			rc = ops[i].err;
			have[i] = ops[i].wmask;
		} else {
			rc = f->dev->rd(f->dev, cpu, need[i].msr, &v);
			have[i] = need[i].wmask;   /* not knowable here */
		}
		missing[i] = rc == -EACCES || rc == -EPERM;
		if (!need[i].required)
			continue;
		if (missing[i] || (have[i] & need[i].wmask) != need[i].wmask) {
			if (nbad++ == 0)
				first = i;
		}
	}
	if (nbad > 0)
		return allowlist_error(&need[first], nbad, have[first], missing[first], e);
	return 0;
}

struct source *
msr_safe_source_new(struct machine *m, struct msr_io *io, struct errmsg *e)
{
	struct msr_io_safe *f;
	struct source *s;
	unsigned cpu;

	if (io == NULL || io->rd != safe_rd) {
		if (io != NULL)
			io->destroy(io);
		errmsg_set(e, _("internal error: the msr-safe source needs an msr-safe io"));
		return NULL;
	}
	f = safe_of(io);
	s = msr_source_new(m, io, "msr-safe", e);
	if (s == NULL)
		return NULL;
	s->needs_rawio = true;
	for (cpu = 0; cpu < m->topo.max_cpu; cpu++) {
		if (m->topo.cpus[cpu].present && m->topo.cpus[cpu].online)
			break;
	}
	if (cpu < m->topo.max_cpu && allowlist_check(f, m, cpu, e) != 0) {
		source_close(s);
		return NULL;
	}
	if (f->bfd >= 0)
		snprintf(s->detail, sizeof s->detail, "%s + %s", f->template, f->batch_path);
	else
		snprintf(s->detail, sizeof s->detail, "%s (%s)", f->template, f->note);
	return s;
}

struct source *
msr_safe_source_open(struct machine *m, const char *dev_template, const char *batch_path,
    struct errmsg *e)
{
	return msr_safe_source_new(m, msr_io_safe_new(dev_template, batch_path,
	    m->topo.max_cpu), e);
}
