/* msr_io.h: how the msr source reaches MSRs. The file backend does
 * pread/pwrite at offset = MSR index on a per-CPU device (/dev/cpu/%u/msr,
 * or a FUSE fake in tests); the vpmu backend calls the simulator directly.
 * Everything above this (busy check, save, program, read, restore) is the
 * same code for both. */
#ifndef HTTOP_MSR_IO_H
#define HTTOP_MSR_IO_H

#include <stdint.h>

#include "util/errmsg.h"

struct vpmu;

struct msr_io {
	/* Open CPU `cpu`'s device (kept open). 0 or -errno, with a message. */
	int (*open_cpu)(struct msr_io *io, unsigned cpu, struct errmsg *e);
	/* 0 or -errno (EIO: unsupported MSR; ENXIO: CPU offline; EPERM/EACCES). */
	int (*rd)(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *val);
	int (*wr)(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val);
	/* Async-signal-safe write (pwrite only); may equal wr. */
	int (*wr_async)(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val);
	void (*close_cpu)(struct msr_io *io, unsigned cpu);
	void (*destroy)(struct msr_io *io);
	uint64_t nreads, nwrites;  /* counted by the backends, for tests and bench */
};

/* `template` holds one %u for the CPU number, e.g. "/dev/cpu/%u/msr". */
struct msr_io *msr_io_file_new(const char *template, unsigned max_cpu);
struct msr_io *msr_io_vpmu_new(struct vpmu *v);

#endif
