#!/bin/sh
# test_completion.sh: the bash completion (completion/httop). Each case
# sources the script in a fresh bash, sets COMP_WORDS/COMP_CWORD as bash
# would, calls _httop and compares COMPREPLY, one word a line, sorted.
# The option list and the value lists are taken from `httop --help` and the
# program itself, so an option or a value added there without completion
# makes this test fail.
. "$HTTOP_SRCDIR/tests/lib.sh"
COMP="$HTTOP_SRCDIR/completion/httop"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 35

if ! command -v bash >/dev/null 2>&1; then
	i=0; while [ $i -lt 33 ]; do skip "bash is not installed"; i=$((i + 1)); done
	exit 0
fi

# comp WORD...: the completions of the last word, sorted, in comp.out. Bash
# runs in work/, which holds only the files the file cases put there.
mkdir work || exit 1
comp() {
	(cd work && bash -c '. "$0" || exit 1; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _httop;
	    [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' "$COMP" httop "$@") |
	    LC_ALL=C sort >comp.out
}
# expect DESCRIPTION WANT WORD...: the completions are exactly the lines of WANT.
expect() {
	d=$1; want=$2; shift 2
	comp "$@"
	printf '%s' "$want" | LC_ALL=C sort >want.out
	if cmp -s want.out comp.out; then ok "$d"
	else not_ok "$d"; diff want.out comp.out | sed 's/^/# /'; fi
}
nl='
'

check "the script parses (bash -n)" bash -n "$COMP"
check "sourcing it registers _httop for httop" \
	sh -c "bash -c '. \"$COMP\" && complete -p httop' | grep -qx 'complete -F _httop httop'"

# --- Options: the same set as --help. -------------------------------------
"$HTTOP" --help >help.out || exit 1
grep -o -- '--[a-z][a-z0-9-]*' help.out | LC_ALL=C sort -u >help.opts
comp --
if cmp -s help.opts comp.out; then ok "'httop --<TAB>' offers exactly the long options of --help"
else not_ok "'httop --<TAB>' and --help differ (< help, > completion)"; diff help.opts comp.out | sed 's/^/# /'; fi
grep -o -- '^ *-[a-zA-Z],' help.out | tr -d ' ,' | LC_ALL=C sort >help.short
comp -
grep -v -- '^--' comp.out >comp.short
if cmp -s help.short comp.short; then ok "'httop -<TAB>' offers the short options -b -d -n of --help"
else not_ok "'httop -<TAB>' short options differ"; diff help.short comp.short | sed 's/^/# /'; fi
expect "'httop --vers<TAB>' gives --version" "--version$nl" --vers

# Which options take a value: in --help the option is followed by a
# metavariable in capitals (--delay SECS, --msr-safe-path TMPL on its own line).
# Continuation lines are indented further and never start with an option.
sed -n 's/^ \{1,8\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\) *\([A-Z]\{0,1\}\).*/\2 \3/p' \
    help.out >help.kinds
bad=
for o in $(sed -n 's/ [A-Z]$//p' help.kinds); do
	comp "$o" ''
	grep -qx -- --help comp.out && bad="$bad $o"
done
if [ -z "$bad" ]; then ok "after an option that takes a value no option is offered"
else not_ok "options offered where a value belongs, after:$bad"; fi
bad=
for o in $(sed -n 's/ $//p' help.kinds); do
	comp "$o" ''
	grep -qx -- --help comp.out || bad="$bad $o"
done
if [ -z "$bad" ]; then ok "after an option without a value the options are offered"
else not_ok "no options offered after:$bad"; fi
if [ "$(wc -l <help.kinds)" -eq "$(wc -l <help.opts)" ]; then
	ok "every long option in --help was classified ($(wc -l <help.opts | tr -d ' '))"
else
	not_ok "classified $(wc -l <help.kinds) of $(wc -l <help.opts) options"
fi
expect "'httop --delay <TAB>' offers nothing (a number)" "" --delay ''
# The same from the source: the table of options (optdefs[] in
# src/cli/options.c, a row each: name, letter, value, ...), value or not.
sed -n '/optdefs\[\] = {/,/^};/p' "$HTTOP_SRCDIR/src/cli/options.c" |
	sed -n 's/^	{ "\([a-z0-9-]*\)", [^,]*, VAL_\([A-Z]*\),.*/--\1 \2/p' |
	sed 's/ REQUIRED$/ valued/; s/ NONE$/ flags/; s/ OPTIONAL$/ optional/' |
	LC_ALL=C sort >src.kinds
bash -c '. "$0"; for o in $_httop_valued; do echo "$o valued"; done;
    for o in $_httop_flags; do echo "$o flags"; done;
    for o in $_httop_optional; do echo "$o optional"; done' "$COMP" |
	grep -v '^-[a-zA-Z] ' | LC_ALL=C sort >comp.kinds
if [ -s src.kinds ] && cmp -s src.kinds comp.kinds; then
	ok "optdefs[] in options.c and the script agree on each option and whether it takes a value ($(wc -l <src.kinds | tr -d ' '))"
else
	not_ok "optdefs[] and the script differ (< options.c, > completion)"
	diff src.kinds comp.kinds | sed 's/^/# /'
fi

# --- Value lists: offered exactly the words httop accepts. -----------------
# For OPT, every offered value must be accepted (httop OPT VALUE --version
# exits 0: the value is checked before --version ends the parse), and every
# word of OPT's --help entry that httop accepts must be offered.
values() {
	opt=$1
	comp "$opt" ''
	bad=
	for v in $(cat comp.out); do
		"$HTTOP" "$opt" "$v" --version >/dev/null 2>&1 || bad="$bad $v(refused)"
	done
	# OPT's entry: its line and the indented lines after it.
	awk -v o="$opt" '
		$0 ~ "^ *(-[a-zA-Z], )?" o "( |$)" { on = 1; print; next }
		on && /^                    *[^ -]/ { print; next }
		{ on = 0 }' help.out | tr -c 'a-z-' '\n' | grep -v '^-*$' | sort -u >words.out
	for v in $(cat words.out); do
		if "$HTTOP" "$opt" "$v" --version >/dev/null 2>&1 && ! grep -qx -- "$v" comp.out; then
			bad="$bad $v(missing)"
		fi
	done
	if [ -n "$(cat comp.out)" ] && [ -z "$bad" ]; then
		ok "$opt: offers $(tr '\n' ' ' <comp.out)- all accepted, none of --help missing"
	else
		not_ok "$opt: offered $(tr '\n' ' ' <comp.out):$bad"
	fi
}
values --format
values --source
values --on-conflict
values --level
values --textfile-level
# Worked by hand from options.c: auto msr msr-safe perf sched sim replay; m* = msr msr-safe.
expect "'httop --source m<TAB>' gives msr, msr-safe" "msr${nl}msr-safe$nl" --source m
expect "'httop --on-conflict re<TAB>' gives reclaim, report" "reclaim${nl}report$nl" --on-conflict re

# --opt=value, split by bash at '=' (COMP_WORDBREAKS) or whole.
expect "'httop --source=pe<TAB>' (one word) gives --source=perf" "--source=perf$nl" --source=pe
expect "'httop --source = pe<TAB>' (split) gives perf" "perf$nl" --source = pe
expect "'httop --on-conflict =<TAB>' (split) gives the three policies" \
	"exit${nl}reclaim${nl}report$nl" --on-conflict =

# --- --sim: built-in scenarios and scenario files. ------------------------
sed -n '/scenario_builtins\[\] = {/,/}/p' "$HTTOP_SRCDIR/src/sim/scenario.c" |
	grep -o '"[a-z-]*"' | tr -d '"' >builtins
mkdir work/sub || exit 1
: >work/a.scn; : >work/b.txt; : >work/topo.xml; : >'work/my trace'
expect "'httop --sim <TAB>' gives the built-ins of scenario.c, *.scn files and directories" \
	"$(cat builtins)${nl}a.scn${nl}sub$nl" --sim ''
expect "'httop --sim b<TAB>' gives both, bursts, busy (b.txt is not a scenario)" \
	"both${nl}bursts${nl}busy$nl" --sim b
expect "'httop --sim=one<TAB>' gives --sim=one-per-core" "--sim=one-per-core$nl" --sim=one
# httop takes each name (the parse only: --version ends it before a run).
bad=
for s in $(cat builtins); do
	"$HTTOP" --sim "$s" --version >/dev/null 2>&1 || bad="$bad $s"
done
check "httop accepts every built-in scenario name${bad:+ (refused:$bad)}" [ -z "$bad" ]

# --- Files and directories. ------------------------------------------------
expect "'httop --topology <TAB>' gives *.xml and directories" "sub${nl}topo.xml$nl" --topology ''
bad=
for o in --cpuid --replay --record --die-map --msr-path --msr-safe-path --msr-batch-path; do
	grep -qx -- "$o" help.opts || continue
	comp "$o" ''
	printf 'a.scn\nb.txt\nmy trace\nsub\ntopo.xml\n' | cmp -s - comp.out || bad="$bad $o"
done
check "file options offer every file and directory${bad:+ (not:$bad)}" [ -z "$bad" ]
expect "'httop --replay my<TAB>' keeps a name with a blank whole" "my trace$nl" --replay my
bad=
for o in --sysfs-root --textfile; do
	grep -qx -- "$o" help.opts || continue
	comp "$o" ''
	printf 'sub\n' | cmp -s - comp.out || bad="$bad $o"
done
check "directory options offer directories only${bad:+ (not:$bad)}" [ -z "$bad" ]

# --- --pid and --cgroup. ---------------------------------------------------
# This shell's own PID is running: it is offered, alone and after a comma.
me=$$
comp --pid "$me"
check "'httop --pid $me<TAB>' offers $me" grep -qx "$me" comp.out
comp --pid "1,$me"
check "'httop --pid 1,$me<TAB>' offers 1,$me" grep -qx "1,$me" comp.out
comp --pid ''
check "'httop --pid <TAB>' offers 1 (init) and only numbers" \
	sh -c 'grep -qx 1 comp.out && ! grep -qv "^[0-9][0-9]*$" comp.out'
if [ -d /sys/fs/cgroup ] && [ -n "$(find /sys/fs/cgroup -mindepth 1 -maxdepth 1 -type d 2>/dev/null)" ]; then
	# The directories under /sys/fs/cgroup (following symbolic links, as
	# compgen -d does), each with a '/'.
	want=$(cd /sys/fs/cgroup && for d in *; do [ -d "$d" ] && echo "$d/"; done)
	expect "'httop --cgroup <TAB>' gives the directories of /sys/fs/cgroup" "$want$nl" --cgroup ''
	expect "'httop --cgroup /sys/fs/cg<TAB>' completes an absolute path" "/sys/fs/cgroup$nl" \
		--cgroup /sys/fs/cg
else
	skip "/sys/fs/cgroup has no directories here"
	skip "/sys/fs/cgroup has no directories here"
fi

# --- After "--": the command httop runs, not httop's options. ---------------
comp --sim demo -- slee
check "'httop --sim demo -- slee<TAB>' offers commands (sleep)" grep -qx sleep comp.out
comp -- sleep ''
check "'httop -- sleep <TAB>' offers none of httop's options" sh -c '! grep -qx -- --help comp.out'
