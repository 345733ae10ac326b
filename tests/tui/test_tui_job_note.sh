#!/bin/sh
# test_tui_job_note.sh: j without a watched job answers on the status line
# with what to do (the options that watch a job) at every width: the whole
# sentence where it fits, shorter forms that keep "no job" and the options
# on a narrow terminal. At 40 and 60 columns it was cut before them
# ("j: no job is watched; start httop with…").
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 8
export XDG_CONFIG_HOME="$tui_dir/config"

# note W: the status line after j at W x 12, in $line.
note() {
	line=
	tui_start "$1" 12 -- --demo -d 0.5
	if wait_for 'quit' 10; then
		keys j
		wait_for 'no job' 5
		line=$(cap | tail -n 1)
	fi
	keys q
	tui_wait_exit 5
}

whole='j: no job is watched; start httop with --pid, --cgroup, --job or -- COMMAND'
for w in 40 60 80; do
	note "$w"
	case $w in
	40) want='no job: --pid, --cgroup, --job, -- CMD' ;;
	60) want='j: no job; start httop with --pid, --cgroup, --job, -- CMD' ;;
	80) want=$whole ;;
	esac
	check "$w columns: j says '$want' (got '$line')" \
	    sh -c 'printf "%s\n" "$1" | grep -qF -- "$2"' sh "$line" "$want"
	check "... not cut (no ellipsis)" sh -c '! printf "%s\n" "$1" | grep -qF "…"' sh "$line"
done

# ASCII (LANG=C) at 40: the same short form.
tui_start 40 12 LANG=C -- --demo -d 0.5
line=
if wait_for 'quit' 10; then
	keys j
	wait_for 'no job' 5
	line=$(cap | tail -n 1)
fi
check "40 columns, ASCII: j says the short form (got '$line')" \
    sh -c 'printf "%s\n" "$1" | grep -qF "no job: --pid, --cgroup, --job, -- CMD"' sh "$line"
check "... not cut" sh -c '! printf "%s\n" "$1" | grep -qF "..."' sh "$line"
keys q
tui_wait_exit 5
