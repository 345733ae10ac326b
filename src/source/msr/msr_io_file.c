/* msr_io_file.c: MSR access through per-CPU device files, as the kernel's
 * msr driver offers them (/dev/cpu/N/msr): pread/pwrite of 8 bytes at
 * offset = MSR index (doc/hardware.md section 5). The same code serves --msr-path and
 * the FUSE fake device used by the tests. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/msr/msr_io.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* MSR indices such as 0xC00000E9 are offsets above 2^31. */
_Static_assert(sizeof(off_t) >= 8, "off_t must be 64 bits (AC_SYS_LARGEFILE)");


struct msr_io_file {
	struct msr_io io;       /* first: the ops see a struct msr_io * */
	char *template;
	unsigned max_cpu;
	int *fd;                /* per CPU, -1 when not open */
};

/* The path of CPU `cpu`: the template with its "%u" replaced. The template
 * is the user's text, so it is never used as a printf format. */
static int
file_path(const char *template, unsigned cpu, char *buf, size_t len)
{
	const char *p = strstr(template, "%u");
	int n;

	if (p == NULL)
		return -1;
	n = snprintf(buf, len, "%.*s%u%s", (int)(p - template), template, cpu, p + 2);
	return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

static int
file_open_cpu(struct msr_io *io, unsigned cpu, struct errmsg *e)
{
	struct msr_io_file *f = (struct msr_io_file *)io;
	bool is_default = strcmp(f->template, MSR_DEV_TEMPLATE) == 0;
	char path[4096];
	int fd, err;

	if (cpu >= f->max_cpu) {
		errmsg_set(e, ngettext("CPU %u is beyond the %u CPU of the topology",
		    "CPU %u is beyond the %u CPUs of the topology", f->max_cpu), cpu, f->max_cpu);
		return -EINVAL;
	}
	if (file_path(f->template, cpu, path, sizeof path) != 0) {
		errmsg_set(e, _("bad MSR path template '%s': it must contain %%u for the CPU number, "
		    "e.g. /dev/cpu/%%u/msr"), f->template);
		return -EINVAL;
	}
	if (f->fd[cpu] >= 0)
		return 0;
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		f->fd[cpu] = fd;
		return 0;
	}
	err = errno;
	switch (err) {
	case ENOENT:
	case ENODEV:
		if (is_default)
			errmsg_set(e, _("%s does not exist: the msr module is not loaded: "
			    "run 'modprobe msr' as root"), path);
		else
			errmsg_set(e, _("%s does not exist: check the --msr-path template '%s'"),
			    path, f->template);
		break;
	case EACCES:
	case EPERM:
		errmsg_set(e, _("no permission to open %s: run as root, or give the binary "
		    "CAP_SYS_RAWIO (setcap cap_sys_rawio+ep), or use msr-safe"), path);
		break;
	case ENXIO:
		/* Offline or absent CPU: the caller marks it and carries on. */
		errmsg_set(e, _("CPU %u is offline (%s)"), cpu, path);
		break;
	case ELOOP:
		errmsg_set(e, _("%s is a symbolic link: give the real device path with --msr-path"),
		    path);
		break;
	default:
		errmsg_set(e, _("cannot open %s: %s"), path, strerror(err));
		break;
	}
	return -err;
}

static int
file_rd(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct msr_io_file *f = (struct msr_io_file *)io;
	ssize_t n;

	io->nreads++;
	if (cpu >= f->max_cpu || f->fd[cpu] < 0)
		return -EBADF;
	do
		n = pread(f->fd[cpu], val, sizeof *val, (off_t)msr);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof *val ? 0 : -EIO;
}

/* Only pwrite and plain arithmetic: safe to call from a signal handler. */
static int
file_wr(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct msr_io_file *f = (struct msr_io_file *)io;
	ssize_t n;

	io->nwrites++;
	if (cpu >= f->max_cpu || f->fd[cpu] < 0)
		return -EBADF;
	do
		n = pwrite(f->fd[cpu], &val, sizeof val, (off_t)msr);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof val ? 0 : -EIO;
}

static void
file_close_cpu(struct msr_io *io, unsigned cpu)
{
	struct msr_io_file *f = (struct msr_io_file *)io;

	if (cpu < f->max_cpu && f->fd[cpu] >= 0) {
		close(f->fd[cpu]);
		f->fd[cpu] = -1;
	}
}

static void
file_destroy(struct msr_io *io)
{
	struct msr_io_file *f = (struct msr_io_file *)io;
	unsigned cpu;

	for (cpu = 0; cpu < f->max_cpu; cpu++)
		file_close_cpu(io, cpu);
	free(f->fd);
	free(f->template);
	free(f);
}

struct msr_io *
msr_io_file_new(const char *template, unsigned max_cpu)
{
	struct msr_io_file *f = xcalloc(1, sizeof *f);
	unsigned cpu;

	f->io.open_cpu = file_open_cpu;
	f->io.rd = file_rd;
	f->io.wr = file_wr;
	f->io.wr_async = file_wr;
	f->io.close_cpu = file_close_cpu;
	f->io.destroy = file_destroy;
	f->template = xstrdup(template != NULL ? template : MSR_DEV_TEMPLATE);
	f->max_cpu = max_cpu;
	f->fd = xcalloc(max_cpu ? max_cpu : 1, sizeof *f->fd);
	for (cpu = 0; cpu < max_cpu; cpu++)
		f->fd[cpu] = -1;
	return &f->io;
}
