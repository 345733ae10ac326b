/* clock.h: the one clock httop measures intervals and deadlines with. */
#ifndef HTTOP_CLOCK_H
#define HTTOP_CLOCK_H

/* Seconds on CLOCK_MONOTONIC: never jumps with the wall clock. */
double clock_mono(void);
/* The same clock in nanoseconds (the scheduler's record and the bpf
 * program's bpf_ktime_get_ns count on it). */
unsigned long long clock_mono_ns(void);
/* Seconds since the Unix epoch (CLOCK_REALTIME), for time stamps. */
double clock_wall(void);

#endif
