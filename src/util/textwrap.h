/* textwrap.h: prose for a terminal of 80 columns, broken at blanks. The
 * summaries httop prints for a person (a command's run, --check) hold
 * figures and reasons of any length and translations longer than the
 * English. */
#ifndef HTTOP_TEXTWRAP_H
#define HTTOP_TEXTWRAP_H

#include <stddef.h>
#include <stdio.h>

#define TEXT_WIDTH 80
/* The continuation lines of httop's messages on standard error. */
#define TEXT_MSG_INDENT 2

/* Columns of the first n bytes of the UTF-8 string s: one per character
 * (as the curses front end counts them). */
unsigned text_cols(const char *s, size_t n);

/* Write text to fp with no line longer than `width` columns: a line
 * (each '\n' in text ends one) is broken at the blank before a word that
 * would pass the edge, never at its leading blanks, and each further line
 * is indented by `indent` blanks. A word longer than a line is left whole. */
void text_wrap(FILE *fp, unsigned indent, unsigned width, const char *text);

/* printf-style into text_wrap at TEXT_WIDTH (up to 4095 bytes). */
void text_wrapf(FILE *fp, unsigned indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One of httop's messages ("httop: ...\n"), printf-style, on standard
 * error: on a terminal, where a person reads it, wrapped by text_wrap at
 * TEXT_WIDTH with continuation lines indented by TEXT_MSG_INDENT; into a
 * file or a pipe, one line a message, as logs and grep want it. */
void text_msgf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
