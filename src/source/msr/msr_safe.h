/* msr_safe.h: LLNL msr-safe as httop talks to it, and the MSRs httop
 * needs from its allowlist.
 *
 * The kernel interface, written here from its description and checked
 * against LLNL/msr-safe (README.md "/dev/cpu/msr_batch", msr_safe.h,
 * msr_batch.c, msr-smp.c, msr_allowlist.c, msr_version.h; version 2.0):
 * - /dev/cpu/N/msr_safe: pread/pwrite of 8 bytes at offset = MSR, as the
 *   msr driver, but checked against the allowlist: a read needs the MSR in
 *   it (else EACCES), a write changes only the bits of its write mask
 *   (none: EACCES). A caller with CAP_SYS_RAWIO bypasses the list.
 * - /dev/cpu/msr_batch: one ioctl(X86_IOC_MSR_BATCH) runs an array of
 *   operations on any CPUs, opened for reading. The allowlist is checked
 *   first, for every op (err = -ENXIO offline CPU, -EACCES not listed,
 *   -EROFS write to a read-only MSR; wmask is filled in for every listed
 *   MSR, reads included); if any op fails there, none is run and the
 *   ioctl fails with that error. Otherwise every op runs; a #GP gives that
 *   op -EIO and the ioctl fails with -EIO, the others hold their data.
 *   Whole-call errors: ENOTTY, EBADF, EFAULT, EINVAL (no ops), E2BIG,
 *   ENOMEM, ENOPROTOOPT (major version differs from the module's).
 * - /dev/cpu/msr_allowlist: lines "0xADDR 0xWRITEMASK", '#' starts a
 *   comment; writing the file replaces the whole list, and a duplicate
 *   address makes the write fail. */
#ifndef HTTOP_MSR_SAFE_H
#define HTTOP_MSR_SAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "machine/machine.h"

#define MSR_SAFE_DEV_DEFAULT   "/dev/cpu/%u/msr_safe"
#define MSR_SAFE_BATCH_DEFAULT "/dev/cpu/msr_batch"
#define MSR_SAFE_ALLOWLIST     "/dev/cpu/msr_allowlist"

/* One operation of a batch: 32 bytes, naturally aligned. */
struct msr_safe_op {
	uint16_t cpu;        /* in: the CPU to run it on */
	uint16_t isrdmsr;    /* in: non-zero read, 0 write */
	int32_t err;         /* out: 0 or a negative errno */
	uint32_t msr;        /* in: the register */
	uint64_t msrdata;    /* in: value to write; out: value read */
	uint64_t wmask;      /* out: the allowlist's write mask for msr */
};

/* The ioctl's argument: 16 bytes on x86-64. Before 2.0 the 4 bytes after
 * numops were padding, so old modules ignore the version. */
struct msr_safe_batch {
	uint32_t numops;
	uint32_t version;    /* major << 16 | minor << 8 | patch */
	struct msr_safe_op *ops;
};

#define MSR_SAFE_VERSION   (2u << 16)    /* 2.0.0: what this code was checked against */
#define MSR_SAFE_IOC_BATCH _IOWR('c', 0xA2, struct msr_safe_batch)

/* One MSR httop uses: read always; `wmask` the bits it writes (0: none). */
struct msr_need {
	uint32_t msr;
	uint64_t wmask;
	bool required;       /* false: read when allowed, skipped otherwise */
};

#define MSR_SAFE_MAX_NEEDS 24

/* Every MSR httop reads or writes on machine m (its plan and the
 * calibration plan, plus MSR_PLATFORM_INFO on Intel, which is optional),
 * the write masks merged per MSR, sorted by address. Returns the count. */
unsigned msr_safe_needs(const struct machine *m, struct msr_need *out, unsigned max);
/* The allowlist line for one need, e.g. "0x0000038F 0x0000000700000001". */
void msr_safe_allowlist_line(const struct msr_need *n, char *buf, size_t len);

#endif
