/* msr_state.h: the saved-state file of a run that programs MSRs.
 *
 * Before its first write to a PMU register, a run writes into a
 * directory only root can write (/run/httop) what it saved and what it
 * writes, per CPU and register; at a clean end it removes the file. A
 * SIGKILL or the OOM killer leaves it, and the next run (or httop
 * --restore) puts the saved values back (msr_source.c). The directory and
 * the files are opened while httop holds its privilege, before it reads
 * anything a user names; a set-ID httop keeps the descriptors and writes
 * through them after it gave its privilege up. See httop(1), RECOVERY and
 * SECURITY. */
#ifndef HTTOP_MSR_STATE_H
#define HTTOP_MSR_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/errmsg.h"

/* The state directory (HTTOP_STATE_DIR replaces it only in an httop
 * that gained no privilege: the tests). */
#define MSR_STATE_DIR "/run/httop"
/* Other runs' files read at start, and the size of one: bounds. */
#define MSR_STATE_MAX_RUNS 16
#define MSR_STATE_MAX_BYTES (4u << 20)

/* One register of one CPU: its value before the run's first write, the
 * bits the run owns, and the value the run wrote. */
struct msr_state_entry {
	unsigned cpu;
	uint32_t msr;
	uint64_t saved, own, wrote;
};

/* Another run's file, found at start, of this boot. */
struct msr_state_run {
	int fd;                       /* open read-write, -1 once done */
	char name[64];
	long pid;
	bool live;                    /* that run is still going */
	char *devices;                /* the devices it wrote (the source's detail) */
	struct msr_state_entry *ent;
	size_t n;
};

struct msr_state {
	int dirfd;
	int fd;                       /* this run's file */
	char name[64];
	char boot[64];
	long pid;
	unsigned long long start;     /* /proc/PID/stat's starttime: a reused PID differs */
	struct msr_state_run run[MSR_STATE_MAX_RUNS];
	size_t nrun;
	char *buf;                    /* what msr_state_write() writes */
	size_t cap;
};

/* Open (or create, mode 0700) the directory `dir`, which must be owned by
 * the effective user and writable by nobody else; read the files of other
 * runs (those of an earlier boot, or of an ended run that left an empty
 * file, are removed); create this run's file (O_EXCL, 0600). NULL with the
 * reason when any of it cannot be done: httop then runs without one. */
struct msr_state *msr_state_open(const char *dir, struct errmsg *e);
/* This run's state, whole: `devices` (the source's detail) and the
 * entries. 0, or -1 (the file is then empty: no state). */
int msr_state_write(struct msr_state *st, const char *devices, const struct msr_state_entry *ent,
    size_t n);
/* A clean end: the registers are back; the file goes. */
void msr_state_remove(struct msr_state *st);
/* Another run's state has been dealt with: its file goes. */
void msr_state_run_done(struct msr_state *st, size_t i);
/* Closes the descriptors; this run's file is removed if it is empty. */
void msr_state_free(struct msr_state *st);
/* Parse a state file's text: 0 and the fields (ent allocated), or -1.
 * Separate for the tests. */
int msr_state_parse(const char *text, size_t len, char *boot, size_t bootlen, long *pid,
    unsigned long long *start, char **devices, struct msr_state_entry **ent, size_t *n);

#endif
