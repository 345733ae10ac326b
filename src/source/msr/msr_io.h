/* msr_io.h: how the msr source reaches MSRs. The file backend does
 * pread/pwrite at offset = MSR index on a per-CPU device (/dev/cpu/%u/msr,
 * or a FUSE fake in tests); the simulator has its own backend (sim/sim.h).
 * Everything above this (busy check, save, program, read, restore) is the
 * same code for both. */
#ifndef HTTOP_MSR_IO_H
#define HTTOP_MSR_IO_H

#include <stdint.h>

#include "util/errmsg.h"

/* One read of a refresh, for batch backends. */
struct msr_op {
	unsigned cpu;
	uint32_t msr;
};

struct msr_io {
	/* Open CPU `cpu`'s device (kept open). 0 or -errno, with a message. */
	int (*open_cpu)(struct msr_io *io, unsigned cpu, struct errmsg *e);
	/* 0 or -errno (EIO: unsupported MSR; ENXIO: CPU offline; EPERM/EACCES). */
	int (*rd)(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *val);
	int (*wr)(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val);
	/* Async-signal-safe write (pwrite only); may equal wr. */
	int (*wr_async)(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val);
	void (*close_cpu)(struct msr_io *io, unsigned cpu);
	/* Optional (msr-safe's batch device; NULL elsewhere). The engine
	 * announces once per programmed plan every read a refresh makes, in
	 * the order it makes them; then at the start of each refresh calls
	 * batch_fetch, which reads them all at once (one ioctl), and rd()
	 * answers those reads from what was fetched (the per-op error
	 * included). batch_fetch returns 0 or -errno for the whole batch. */
	int (*batch_plan)(struct msr_io *io, const struct msr_op *ops, unsigned n,
	    struct errmsg *e);
	int (*batch_fetch)(struct msr_io *io);
	void (*destroy)(struct msr_io *io);
	uint64_t nreads, nwrites;  /* counted by the backends, for tests and bench */
	uint64_t nbatches;         /* batch_fetch calls (ioctls), for tests and bench */
};

/* The msr driver's device of CPU %u (the default of --msr-path). */
#define MSR_DEV_TEMPLATE "/dev/cpu/%u/msr"

/* `template` holds one %u for the CPU number, e.g. MSR_DEV_TEMPLATE. */
struct msr_io *msr_io_file_new(const char *template, unsigned max_cpu);

/* msr-safe (msr_io_safe.c): the per-CPU devices of `template` (one %u,
 * e.g. "/dev/cpu/%u/msr_safe") for writes and lone reads, and the batch
 * device `batch_path` ("/dev/cpu/msr_batch") for a refresh's reads, one
 * ioctl for all CPUs. Without a usable batch device it reads CPU by CPU. */
struct msr_io *msr_io_safe_new(const char *template, const char *batch_path, unsigned max_cpu);
/* Tests: the same with ioctl(2) replaced by `fn` (0, or -1 and errno). */
typedef int (*msr_ioctl_fn)(int fd, unsigned long req, void *arg, void *ctx);
struct msr_io *msr_io_safe_new_test(const char *template, const char *batch_path,
    unsigned max_cpu, msr_ioctl_fn fn, void *ctx);

#endif
