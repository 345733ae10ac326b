/* term.h: the terminal's life cycle: curses started on the controlling
 * terminal with its modes saved first (so a fatal signal can put them
 * back without curses), what the terminal can do (UTF-8, colours, the
 * mouse), resizes, and the way back. */
#ifndef HTTOP_TERM_H
#define HTTOP_TERM_H

#include "ui/palette.h"
#include "ui/ui.h"
#include "util/errmsg.h"

/* Start curses on the controlling terminal (saving its modes for
 * screen_restore). -1 with a message when there is no usable terminal. */
int screen_open(struct ui_ctx *u, const struct ui_settings *s, struct errmsg *e);
/* Put the terminal back as it was (endwin; idempotent). */
void screen_close(struct ui_ctx *u);
/* The same, then the last frame's text written where the shell goes on
 * (the normal screen), as top leaves its last frame after -n: blank
 * lines at the end and blanks at a line's end left out. */
void screen_close_keep(struct ui_ctx *u);
/* Async-signal-safe terminal restore for fatal signals: the saved termios
 * and the sequences that leave the alternate screen and show the cursor. */
void screen_emergency_restore(void);
/* After SIGWINCH or KEY_RESIZE: re-read the size. */
void screen_resize(struct ui_ctx *u);
/* Force the next refresh to repaint everything (Ctrl-L). */
void screen_repaint(struct ui_ctx *u);
/* The input descriptor curses reads keys from. */
int screen_fd(const struct ui_ctx *u);

#endif
