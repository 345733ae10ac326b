/* scenario.h: the simulator's activity schedule: for every CPU, when it is
 * active (not halted), at what frequency and IPC. Parsed from a scenario
 * file (man httop.1, SCENARIO FILES) or built in (--sim NAME). */
#ifndef HTTOP_SCENARIO_H
#define HTTOP_SCENARIO_H

#include <stdint.h>

#include "machine/capid.h"
#include "machine/topology.h"
#include "util/errmsg.h"

/* What one CPU does; times in TSC ticks of the simulated machine. */
enum activity_kind {
	ACT_IDLE = 0,     /* always halted */
	ACT_BUSY,         /* never halted */
	ACT_DUTY,         /* periodic: active for duty*period at the start of each period,
	                     shifted by phase*period */
	ACT_BURSTS,       /* random on/off bursts, exponential lengths, seeded */
	ACT_PHASES,       /* alternates between sub-activities every phase_len */
};

#define SCEN_MAX_PHASES 4

struct activity {
	enum activity_kind kind;
	double duty;              /* ACT_DUTY: fraction active, 0..1 */
	double phase;             /* ACT_DUTY: offset as a fraction of period */
	double period_s;          /* ACT_DUTY period, seconds */
	double on_s, off_s;       /* ACT_BURSTS: mean on and off lengths, seconds */
	double phase_len_s;       /* ACT_PHASES: length of each phase */
	unsigned nphases;
	struct activity *phases;  /* ACT_PHASES: nphases sub-activities */
	double ghz;               /* core clock while active (0: the base clock) */
	double ipc;               /* instructions per core cycle while active */
};

struct scenario {
	char name[64];
	unsigned max_cpu;
	struct activity *cpu;     /* per OS CPU number, max_cpu entries */
	/* A "capid6" line: the simulated machine's CAPID6 per package, for the
	 * physical die grid (n 0: none given). */
	struct capid6_given capid6;
};

/* Built-in names: idle, busy, one-per-core, both, alternate, bursts, demo. */
extern const char *const scenario_builtins[];   /* those names, NULL-terminated */
int scenario_builtin(struct scenario *sc, const char *name, const struct topology *t,
    struct errmsg *e);
/* A scenario file; errors name the file and line. */
int scenario_load(struct scenario *sc, const char *path, const struct topology *t,
    struct errmsg *e);
/* `spec` is a built-in name or a path. */
int scenario_resolve(struct scenario *sc, const char *spec, const struct topology *t,
    struct errmsg *e);
void scenario_free(struct scenario *sc);
/* A scenario built in code (httop --check): every CPU of `t` idle, and
 * scenario_set_cpu() gives one CPU a copy of an activity. */
void scenario_empty(struct scenario *sc, const char *name, const struct topology *t);
void scenario_set_cpu(struct scenario *sc, unsigned cpu, const struct activity *a);

#endif
