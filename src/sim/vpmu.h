/* vpmu.h: a virtual PMU. It holds the MSRs of every CPU of a machine,
 * honours what is programmed (event, umask, AnyThread, enable bits, global
 * enables), counts at the right rates with the hardware's quantisation,
 * wraps at the counter widths, and knows the true four-way split because it
 * drives the activity itself (scenario.h). Used by the sim source in-process
 * and by the FUSE fake MSR device in tests. */
#ifndef HTTOP_VPMU_H
#define HTTOP_VPMU_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "sim/scenario.h"

struct vpmu;

/* The machine's group decides which events exist and their clocks; widths
 * and counter counts come from the identity (defaults 48 bits, 4 GP, 3 fixed).
 * The vpmu keeps its own copy of what it needs from m and sc. */
struct vpmu *vpmu_new(const struct machine *m, const struct scenario *sc, uint64_t seed);
void vpmu_free(struct vpmu *v);

/* MSR access as the kernel's msr driver answers it: 0, -EIO (#GP: unknown
 * MSR, reserved bits set, read-only), -ENXIO (CPU offline or absent). */
int vpmu_rdmsr(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t *val);
int vpmu_wrmsr(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t val);
/* The same write, but no access cost passes: it allocates nothing, so a
 * fatal-signal handler may call it (msr_io wr_async). */
int vpmu_wrmsr_async(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t val);

/* Virtual time, in TSC ticks since the simulated machine started.
 * Advancing costs nothing: each core is counted when next looked at. */
uint64_t vpmu_now(const struct vpmu *v);
void vpmu_advance(struct vpmu *v, uint64_t ticks);
double vpmu_tsc_hz(const struct vpmu *v);
/* Each MSR access also advances time by this many ticks (an IPI costs
 * microseconds), so read skew is simulated. Default 0. */
void vpmu_set_access_cost(struct vpmu *v, uint64_t ticks);

/* Cumulative true time of core `core` (topology index) in each category up
 * to now, in TSC ticks: out[0..3] = neither, t0 only, t1 only, both. For
 * cores without exactly 2 threads, out[1] = ticks any thread active. */
void vpmu_truth(struct vpmu *v, unsigned core, uint64_t out[4]);

/* Fault injection (tests). */
void vpmu_set_online(struct vpmu *v, unsigned cpu, bool online);
void vpmu_fail_next(struct vpmu *v, unsigned cpu, int err);   /* next access returns -err */
/* Pre-set register values before httop starts (a PMU busy with someone
 * else's events), or a write by another program mid-run: same call. */
void vpmu_poke(struct vpmu *v, unsigned cpu, uint32_t msr, uint64_t val);
uint64_t vpmu_writes(const struct vpmu *v);   /* wrmsr calls that succeeded */
/* Windows counted so far, one per core caught up (tests: the cost of an
 * access must not grow with the number of cores). */
uint64_t vpmu_windows(const struct vpmu *v);

/* The reference-clock scale S in TSC ticks (fixed counter 2 adds S per
 * reference tick): CPUID.15H EBX/EAX on SKX/ICX (TSC/25 MHz without 15H),
 * the base ratio on SNB, 1 on NHM and others. */
uint64_t vpmu_ref_scale(const struct vpmu *v);
bool vpmu_cpu_present(const struct vpmu *v, unsigned cpu);
bool vpmu_cpu_online(const struct vpmu *v, unsigned cpu);

/* Simulated register conventions (what a fresh machine looks like):
 * - every register starts at 0: IA32_PERF_GLOBAL_CTRL 0 (as left by the
 *   kernel's perf driver when nobody counts); but AMD HWCR starts with bit
 *   30 (IRPerfEn) set, as Linux leaves it, so IRPerfCount counts (poke 0
 *   to model a kernel that never set it);
 * - the activity is neither user nor kernel: a counter with OS or USR set
 *   counts all of it; EDGE, INV or CMASK make an event count nothing;
 * - the threads of a core share one clock: the highest ghz of the threads
 *   active at that moment;
 * - an offline CPU is halted (counts nothing, is "neither" in the truth);
 * - an access first lets the access cost pass, then answers. */

#endif
