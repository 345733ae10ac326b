/* i18n.h: gettext wiring. Every user-visible string goes through _() or N_();
 * a message whose wording depends on a count goes through ngettext(). */
#ifndef HTTOP_I18N_H
#define HTTOP_I18N_H

#if ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) (s)
#define ngettext(s, p, n) ((n) == 1 ? (s) : (p))
#endif
#define N_(s) (s)

#endif
