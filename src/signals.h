/* signals.h: how httop ends. SIGINT, SIGTERM, SIGHUP and SIGQUIT end the
 * refresh loop cleanly (registers restored); they are blocked except while
 * httop waits, so a signal wakes the wait at once and never interrupts a
 * read half-way. SIGPIPE is ignored: a closed stdout is a write error that
 * ends the run. Fatal signals put the PMU back before dying. */
#ifndef HTTOP_SIGNALS_H
#define HTTOP_SIGNALS_H

#include <stdbool.h>

struct source;

/* Install the handlers and block the ending signals. Call once, early. */
int signals_init(void);
/* The source whose registers a fatal signal must restore (NULL: none). */
void signals_set_source(struct source *s);
/* Wait up to `seconds` (0: only take a pending signal). Returns the ending
 * signal received so far, or 0. */
int signals_wait(double seconds);
/* signals_wait, also woken when `fd` is readable or another signal
 * (SIGWINCH) arrives: *ready is then true. seconds < 0: no time limit. */
int signals_wait_fd(double seconds, int fd, bool *ready);
/* The terminal restore a fatal signal runs before the registers' (NULL:
 * none); async-signal-safe (screen_emergency_restore). */
void signals_set_screen(void (*restore)(void));
/* The ending signal received so far, or 0. */
int signals_caught(void);
/* Exit status for an ending signal: 0 for SIGINT/SIGTERM (the normal way
 * to stop httop), 128 + signal number for SIGHUP/SIGQUIT. */
int signals_exit_status(int sig);

#endif
