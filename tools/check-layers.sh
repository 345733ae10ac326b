#!/bin/sh
# check-layers.sh [SRCDIR]: every #include "..." in src/ against the layer
# table in HACKING.md (the lines "    N  src/FOLDER/ ..." between the
# markers "layers:" and ":layers"). A file may include headers of its own
# layer and of layers with a smaller number; anything else is an upward
# include. Prints TAP: one line per layer, then the verdict; exit 1 on any
# upward include or a file in a folder the table does not list.
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
table=$(awk '/^layers:/ { on = 1; next } /^:layers/ { on = 0 } on && $1 ~ /^[0-9]+$/ { print $1, $2 }' \
    "$src/HACKING.md")
if [ -z "$table" ]; then
	echo "Bail out! no layer table (layers: ... :layers) in $src/HACKING.md"
	exit 1
fi
# rank_of PATH: the number of the longest folder of the table that holds PATH.
ranks=$(printf '%s\n' "$table" | awk '{ f = $2; sub(/^src\//, "", f); if (f == "") f = "/"
    print length(f), $1, f }' |
    sort -rn | awk '{ print $2, $3 }')
rank_of() {
	printf '%s\n' "$ranks" | while read -r n f; do
		case $f in
		/) case $1 in */*) ;; *) echo "$n"; return ;; esac ;;
		*) case $1 in "$f"*) echo "$n"; return ;; esac ;;
		esac
	done
}
n=0 bad=0
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
cd "$src/src" || exit 1
for file in $(find . -name '*.[ch]' | sed 's|^\./||' | sort); do
	r=$(rank_of "$file")
	if [ -z "$r" ]; then
		echo "# $file: its folder is not in the table" >>"$out"
		bad=$((bad + 1))
		continue
	fi
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file"); do
		[ "$inc" = config.h ] && continue
		# A header without a folder is the one next to the file if there
		# is one (the compiler looks there first), else one in src/.
		t=$inc
		case $inc in */*) ;; *)
			d=$(dirname "$file")
			[ "$d" != . ] && [ -f "$d/$inc" ] && t=$d/$inc ;;
		esac
		ir=$(rank_of "$t")
		if [ -z "$ir" ] || [ "$ir" -gt "$r" ]; then
			echo "# $file (layer $r) includes $inc (layer ${ir:-none})" >>"$out"
			bad=$((bad + 1))
		fi
		n=$((n + 1))
	done
done
echo "1..1"
if [ "$bad" -eq 0 ]; then
	echo "ok 1 - $n includes in src/, none upward (HACKING.md's layer table)"
else
	cat "$out"
	echo "not ok 1 - $bad upward includes or unlisted folders in src/ ($n checked)"
	exit 1
fi
