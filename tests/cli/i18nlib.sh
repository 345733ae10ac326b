# i18nlib.sh: run httop in German without installing it. Source it after
# tests/lib.sh; call i18n_setup DIR first. It compiles po/de.po into
# DIR/locale/de/LC_MESSAGES/httop.mo (HTTOP_LOCALEDIR points httop there)
# and finds or builds the de_DE.UTF-8 locale (localedef into DIR/loc, no
# root needed). On success it sets i18n_env to the variables for `env`;
# on failure it sets i18n_skip to the reason and returns 1.

i18n_env=
i18n_skip=

i18n_setup() {
	dir=$1
	if ! command -v msgfmt >/dev/null 2>&1; then
		i18n_skip="msgfmt (gettext) is not installed"
		return 1
	fi
	mkdir -p "$dir/locale/de/LC_MESSAGES" || return 1
	if ! msgfmt -c -o "$dir/locale/de/LC_MESSAGES/httop.mo" "$HTTOP_SRCDIR/po/de.po"; then
		i18n_skip="po/de.po does not compile"
		return 1
	fi
	locpath=
	# A system that has the locale already needs no localedef.
	if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\{0,1\}8'; then
		if ! command -v localedef >/dev/null 2>&1; then
			i18n_skip="localedef is not installed and de_DE.UTF-8 is not generated"
			return 1
		fi
		if [ ! -f /usr/share/i18n/locales/de_DE ]; then
			i18n_skip="the de_DE locale source is absent (install locales)"
			return 1
		fi
		mkdir -p "$dir/loc" || return 1
		# Exit status 1 is only a warning (e.g. a missing optional category).
		localedef -i de_DE -f UTF-8 "$dir/loc/de_DE.UTF-8" >"$dir/localedef.log" 2>&1
		if [ ! -d "$dir/loc/de_DE.UTF-8" ]; then
			i18n_skip="localedef could not build de_DE.UTF-8: $(head -c 200 "$dir/localedef.log")"
			return 1
		fi
		locpath="LOCPATH=$dir/loc"
	fi
	i18n_env="$locpath LANGUAGE=de LC_ALL=de_DE.UTF-8 HTTOP_LOCALEDIR=$dir/locale"
	return 0
}

# de COMMAND...: run it in German.
de() { env $i18n_env "$@"; }
