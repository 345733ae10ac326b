/* screen.h: the screen as the views and the front end use it: the
 * terminal's life cycle (term.h), how cells look (palette.h) and what is
 * drawn with (widgets.h). */
#ifndef HTTOP_SCREEN_H
#define HTTOP_SCREEN_H

#include "ui/palette.h"
#include "ui/term.h"
#include "ui/widgets.h"

#endif
