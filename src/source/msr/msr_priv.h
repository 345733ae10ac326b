/* msr_priv.h: the msr engine's state, shared by its files (msr_source.c:
 * program, read, restore; msr_recover.c: what a killed run left). Not for
 * use outside src/source/msr/. */
#ifndef HTTOP_MSR_PRIV_H
#define HTTOP_MSR_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"
#include "source/msr/msr_io.h"
#include "source/msr/msr_state.h"
#include "source/source.h"

/* Distinct registers written over all plans programmed (calibration, then
 * the main plan): each plan writes at most PLAN_MAX_WRITES. */
#define MSR_MAX_REGS (2 * PLAN_MAX_WRITES)

/* Busy registers named in the refusal message before "and N more". */
#define BUSY_SHOWN 4

enum msr_cpu_state {
	MC_UNUSED = 0,   /* not present in the topology */
	MC_OPEN,         /* device open, programmed with the current plan */
	MC_OFFLINE,      /* offline when the source started: unknown, never opened */
	MC_GONE,         /* known CPU whose device went away (ENXIO, missing):
			  * closed; one open attempt per refresh */
	MC_BUSY,         /* came back with another program's events in the
			  * plan's registers and no --force: open, not read */
};

struct msr_source {
	struct source src;            /* first: s->priv points back here */
	struct msr_io *io;
	unsigned max_cpu;
	uint8_t *cpu_state;           /* enum msr_cpu_state per CPU */
	double start;                 /* clock_mono() at open: samples count from here */
	uint64_t seq;
	bool platform_done;
	/* The one thing the engine adds to the machine description: the base
	 * ratio from MSR_PLATFORM_INFO, once, before the first sample. */
	struct cpu_identity *id;

	/* The save table, sized once: register r of CPU c is entry
	 * c * MSR_MAX_REGS + r. reg[] holds the MSRs in the order they were
	 * first written; restore goes backwards. emergency_restore reads it
	 * from a signal handler, so an entry is complete before its flag is
	 * set, and a register is in reg[] before nreg counts it. */
	uint32_t reg[MSR_MAX_REGS];
	volatile sig_atomic_t nreg;
	uint64_t *saved;              /* value before httop's first write */
	uint64_t *cur;                /* value httop wrote last */
	uint64_t own[MSR_MAX_REGS];   /* bits of reg[r] some plan wrote */
	volatile sig_atomic_t *has;   /* saved[] holds a value to restore */

	/* program() scratch: the old values of registers not yet saved. */
	uint64_t *old;
	uint8_t *pending;
	bool force;                   /* the last program() had --force */

	/* Batch backends: the reads of one refresh, announced again when
	 * the set of CPUs read changes (hotplug). */
	struct msr_op *ops;
	bool batch_dirty;

	void *ext;                    /* a wrapper's state (sim_source.c) */
	void (*free_ext)(void *);

	/* The saved-state file (msr_state.h), NULL without one; its
	 * entries, sized once. */
	struct msr_state *state;
	struct msr_state_entry *sent;
	/* The plans httop may have written on this machine (the main plan
	 * and its calibration), to know its own settings when a killed run
	 * left them; made at first use. */
	struct plan sig_main, sig_cal;
	bool sig_ready, sig_have_cal;
};

static inline struct msr_source *
msr_of(const struct source *s)
{
	return s->priv;
}

static inline unsigned
cpu_thread(const struct msr_source *ms, unsigned cpu)
{
	return ms->src.m->topo.cpus[cpu].thread;
}

static inline bool
write_applies(const struct plan_write *w, unsigned thread)
{
	return (w->thread_mask >> thread) & 1u;
}

static inline size_t
slot_of(unsigned cpu, int r)
{
	return (size_t)cpu * MSR_MAX_REGS + (size_t)r;
}

/* msr_recover.c. Is `v`, read from `msr` on `cpu`, what httop writes
 * there (in the bits it owns) in one of its plans for this machine? Only
 * registers with busy bits (a control register that says someone counts)
 * when `busy_only`. *mask gets the bits that plan owns. */
bool msr_httop_value(struct msr_source *ms, unsigned cpu, uint32_t msr, uint64_t v,
    bool busy_only, uint64_t *mask);
/* Another httop, still running, whose state names these devices: its
 * PID, or 0. */
long msr_live_httop(const struct msr_source *ms);

#endif
