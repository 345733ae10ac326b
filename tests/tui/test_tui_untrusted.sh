#!/bin/sh
# test_tui_untrusted.sh: text from a node in the live view (httop(1),
# SECURITY): node r's intervals are invalid with a reason of escape
# sequences (retitle the window, clear the screen, ask the terminal's
# status), CR LF and a right-to-left override (tests/nodes/hostile.py
# through tests/nodes/as-host.sh). Its own view's header shows the reason
# escaped, \xHH, and so its CPU's brand (the same text): none of it
# reaches the terminal (the window keeps its
# title, no U+202E on the screen, the header's lines stay whole). In the
# Nodes view r's row is marked invalid and, with the cursor on it, its
# reason is under the rows, escaped.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 8
cap_has() { cap | grep -Fq -- "$1"; }

via="env NODES_RUN=tui-hostile-$$ $HTTOP_SRCDIR/tests/nodes/as-host.sh %h"
tui_start 160 40 HTTOP_CLOCK= HTTOP_HOSTLIST=builtin "NODES_LOADS=h1=busy r=evil-reason" -- \
    --nodes 'h1,r' --via "$via" --remote-httop "$HTTOP" -d 0.5
wait_for '^r  ' 15
wait_for 'FORGED' 5
# The Nodes view: the job's header line names r's reason (it may wrap
# at the blank).
check "the job's reason in the Nodes view's header, escaped" sh -c \
    'grep -Fq "\x1b]0;TITLE\x07\x1b[2J\x0d\x0aFORGED" "$1" && grep -Fq "LINE\xe2\x80\xae\x1b[5n" "$1"' \
    sh "$(cap >"$tui_dir/nodes"; echo "$tui_dir/nodes")"
# r's row says its interval is not valid, h1's does not; with the cursor
# on r (it starts on h1) the line under the rows gives r's reason, escaped.
check "r's row is marked invalid, h1's up ($(cap | grep -E '^(r|h1) ' | awk '{ printf "%s %s; ", $1, $2 }'))" \
    sh -c 'grep -Eq "^r +invalid " "$1" && grep -Eq "^h1 +up " "$1"' sh "$(cap >"$tui_dir/rows"; echo "$tui_dir/rows")"
sleep 1
keys Down
wait_for '^r: its last interval is not valid' 5
check "the cursor on r: its reason under the rows, escaped ($(cap | grep -F 'is not valid'))" \
    cap_has 'r: its last interval is not valid: \x1b]0;TITLE\x07\x1b[2J\x0d\x0aFORGED'
# Enter on r: its own views, its header.
keys Enter
wait_for 'node r +\(2 of 2\)' 5
check "r's own view: its reason in the header, escaped ($(cap | grep -F 'invalid:'))" \
    cap_has 'invalid: \x1b]0;TITLE\x07\x1b[2J\x0d\x0aFORGED'
check "r's CPU brand in its header's first line, escaped ($(cap | head -n 1 | cut -c1-60))" \
    sh -c 'cap_first=$(head -n 1 "$1"); case $cap_first in "httop  r  \x1b]0;TITLE\x07\x1b[2J"*) ;; *) exit 1 ;; esac' \
    sh "$(cap >"$tui_dir/head"; echo "$tui_dir/head")"
check "no right-to-left override on the screen" \
    sh -c '! grep -q "$(printf "\342\200\256")" "$1"' sh "$(cap >"$tui_dir/screen"; echo "$tui_dir/screen")"
title=$(tm display-message -p -t t '#{pane_title}')
check "the window's title is not the node's ($title)" [ "$title" != TITLE ]
keys q
tui_wait_exit 10
sleep 0.3
check "q: status 0, no node's process left ($tui_status)" \
    sh -c '[ "$1" = 0 ] && [ "$2" -eq 0 ]' sh "$tui_status" "$(procs_tagged "NODES_RUN=tui-hostile-$$")"
tui_stop
exit 0
