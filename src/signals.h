/* signals.h: how httop ends. SIGINT, SIGTERM, SIGHUP and SIGQUIT are never
 * blocked. During start-up, before any register is written, such a signal
 * ends httop at once from its handler (the terminal put back first): a slow
 * parse or a library call cannot hold it up, and there is nothing else to
 * undo. From signals_defer() on (just before the first register write) the
 * handler only notes the signal and writes a byte to a pipe that the event
 * loop polls together with the terminal, so the loop ends cleanly and puts
 * the registers back; a signal is never lost between a check and a wait.
 * SIGPIPE is ignored: a closed stdout is a write error that ends the run.
 * Fatal signals put the PMU and the terminal back before dying. */
#ifndef HTTOP_SIGNALS_H
#define HTTOP_SIGNALS_H

#include <stdbool.h>

struct source;

/* Install the handlers and make the pipe. Call once, first thing. */
int signals_init(void);
/* From now on an ending signal is only noted (signals_caught, signals_fd):
 * call before the first register is written. */
void signals_defer(void);
/* Readable once an ending signal has been noted; never drained. */
int signals_fd(void);
/* The source whose registers a fatal signal must restore (NULL: none). */
void signals_set_source(struct source *s);
/* The terminal restore a fatal signal, or an ending one during start-up,
 * runs first (NULL: none); async-signal-safe (screen_emergency_restore). */
void signals_set_screen(void (*restore)(void));
/* The ending signal received so far, or 0. */
int signals_caught(void);
/* Note an ending cause found by the program itself (a terminal that went
 * away counts as SIGHUP), as if the signal had come. */
void signals_note(int sig);
/* Sleep up to `seconds`, woken at once by an ending signal. Returns
 * signals_caught(). */
int signals_sleep(double seconds);
/* Exit status for an ending signal: 0 for SIGINT/SIGTERM (the normal way
 * to stop httop), 128 + signal number for SIGHUP/SIGQUIT. */
int signals_exit_status(int sig);

#endif
