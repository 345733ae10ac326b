/* term.h: the terminal's life cycle: curses started on the controlling
 * terminal with its modes saved first (so a fatal signal can put them
 * back without curses), what the terminal can do (UTF-8, colours, the
 * mouse), resizes, and the way back. */
#ifndef HTTOP_TERM_H
#define HTTOP_TERM_H

#include "ui/palette.h"
#include "ui/ui.h"
#include "util/errmsg.h"

/* The largest screen httop lays out, more than a terminal shows: one
 * across a whole 8K monitor (7680 x 4320 pixels) in an 8 x 9-pixel font
 * has 960 x 480 cells. Curses keeps three copies of every cell, about 28
 * bytes each: 42 MB at the bound, where COLUMNS=10000 LINES=10000 took
 * 8 GB. A larger terminal is drawn at the bound, from its top left. */
#define SCREEN_MAX_COLS 1000
#define SCREEN_MAX_ROWS 500

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
/* Before curses looks at the terminal's size (newterm, getch after a
 * SIGWINCH): the size it will take (LINES and COLUMNS as the user set
 * them, else the terminal's) bounded by SCREEN_MAX_ROWS x SCREEN_MAX_COLS,
 * through LINES and COLUMNS, which curses reads first; the user's values
 * back where the size is within the bound. */
void screen_bound(struct ui_ctx *u);
/* Force the next refresh to repaint everything (Ctrl-L). */
void screen_repaint(struct ui_ctx *u);
/* The input descriptor curses reads keys from. */
int screen_fd(const struct ui_ctx *u);

#endif
