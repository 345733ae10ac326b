/* clock.h: the one clock httop measures intervals and deadlines with. */
#ifndef HTTOP_CLOCK_H
#define HTTOP_CLOCK_H

/* Seconds on CLOCK_MONOTONIC: never jumps with the wall clock. */
double clock_mono(void);
/* Seconds since the Unix epoch (CLOCK_REALTIME), for time stamps. */
double clock_wall(void);

#endif
