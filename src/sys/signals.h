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

#include <signal.h>
#include <stdbool.h>

/* Install the handlers and make the pipe. Call once, first thing. */
int signals_init(void);
/* From now on an ending signal is only noted (signals_caught, signals_fd):
 * call before the first register is written. */
void signals_defer(void);
/* Readable once an ending signal has been noted; never drained. */
int signals_fd(void);
/* What a fatal signal puts back before dying (the registers: the app
 * passes source_emergency_restore and its source), async-signal-safe;
 * NULL: nothing. A callback, so that this file needs nothing but libc. */
void signals_set_restore(void (*restore)(void *), void *arg);
/* The terminal restore a fatal signal, or an ending one during start-up,
 * runs first (NULL: none); async-signal-safe (screen_emergency_restore). */
void signals_set_screen(void (*restore)(void));
/* While the live view is up (hold true), SIGWINCH is blocked except
 * inside evloop_wait's ppoll: curses' handler for it then always runs
 * there and wakes the wait, so a resize that came while httop was
 * drawing or reading is never left until the next key. 0, or -1. */
int signals_hold_winch(bool hold);
/* The mask evloop_wait waits with: NULL when SIGWINCH is not held. */
const sigset_t *signals_wait_mask(void);
/* The ending signal received so far, or 0. */
int signals_caught(void);
/* Note an ending cause found by the program itself (a terminal that went
 * away counts as SIGHUP), as if the signal had come. */
void signals_note(int sig);
/* Sleep up to `seconds`, woken at once by an ending signal. Returns
 * signals_caught(). */
int signals_sleep(double seconds);
/* httop runs a command (httop -- COMMAND): from now on SIGCHLD writes a
 * byte to a second self-pipe that evloop_wait polls (WAKE_CHILD), so the
 * command's end wakes the one wait like a signal or a key. 0, or -1 with
 * errno. */
int signals_watch_children(void);
/* In a child before its exec (the command): every signal httop handles
 * or ignores, and the signal mask, back as httop found them at its start
 * (ignored stays ignored: a nohup'd or backgrounded command is the same
 * under httop). */
void signals_inherit(void);
/* That pipe's read end, or -1 before signals_watch_children. */
int signals_child_fd(void);
/* The ending signal noted since the last call (0: none), forgotten, and
 * the pipe emptied: while a command runs, httop passes a signal on or
 * lets it be and goes on waiting for the command's end. */
int signals_take(void);
/* Exit status for an ending signal: 0 for SIGINT/SIGTERM (the normal way
 * to stop httop), 128 + signal number for SIGHUP/SIGQUIT. */
int signals_exit_status(int sig);

#endif
