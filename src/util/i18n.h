/* i18n.h: gettext wiring. Every user-visible string goes through _() or N_(). */
#ifndef HTTOP_I18N_H
#define HTTOP_I18N_H

#if ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) (s)
#endif
#define N_(s) (s)

#endif
