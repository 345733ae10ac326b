#!/bin/sh
# test_nodes_replay_restart.sh: a replayed node that the viewer starts
# again comes back whole (bench/replay-node, bench/replay-nodes.py: the
# transport of test_nodes_scale.sh).
#
# A real node started again is a fresh httop: its compact stream begins
# with a line that has its "core_list". The replayed nodes once read on
# from where their FIFO stood, the middle of a stream whose lines carry no
# core_list: a node lost before the viewer had read its first line (slow
# to start in a loaded sanitizer build) then had its lines refused
# ("before any line that had one") and was lost again and again, never
# whole ("512 nodes never came up whole").
#  1. the replayer: a second start of a node's transport begins again
#     with the stream's first line, core_list and all;
#  2. the viewer: 3 replayed nodes, one of which loses its first line
#     (its first transport reads it away and ends, status 3): the viewer
#     says it is lost, starts it again (1 s later), and all 3 are up and
#     in a job interval, whole.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
dir=$tui_dir/nodes
mkdir -p "$dir"
server=
trap 'tui_kill; [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tui_dir"' EXIT
plan 4
node=$HTTOP_SRCDIR/bench/replay-node
# A compact stream of 30 intervals of the demo machine (no wrap to its
# first line again within the test).
HTTOP_CLOCK=virtual "$HTTOP" --sim demo --seed 0 --topology "$HTTOP_SRCDIR/data/demo-skx.xml" \
    --cpuid "$HTTOP_SRCDIR/data/demo-skx.cpuid" -b --format json --compact -n 30 -d 1 \
    >"$dir/rec-0.jsonl" 2>"$dir/rec.err" || { cat "$dir/rec.err"; exit 1; }

# 1. The replayer alone, one node, a line every 0.2 s.
python3 "$HTTOP_SRCDIR/bench/replay-nodes.py" "$dir" 0.2 30 a1 & server=$!
i=0
while [ ! -p "$dir/a1" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
"$node" "$dir" a1 | head -n 1 >"$dir/first.1"
sleep 1
"$node" "$dir" a1 | head -n 1 >"$dir/first.2"
kill "$server"; wait "$server" 2>/dev/null; server=
has_list() { grep -q '"core_list":' "$1" && grep -q '"host":"a1"' "$1"; }
check "replayer: the first start's first line has the core_list" has_list "$dir/first.1"
check "replayer: a second start begins the stream again, core_list and all ($(head -c 60 "$dir/first.2"))" \
    has_list "$dir/first.2"

# 2. The viewer. b2's first transport reads its first line away and ends.
rm -f "$dir"/a1
cat >"$dir/via" <<EOF
#!/bin/sh
# via DIR HOST ...: bench/replay-node, but b2's first start loses its first line
if [ "\$2" = b2 ] && mkdir "\$1/lost-b2" 2>/dev/null; then
	$(q "$node") "\$1" b2 | head -n 1 >/dev/null
	exit 3
fi
exec $(q "$node") "\$@"
EOF
chmod +x "$dir/via"
python3 "$HTTOP_SRCDIR/bench/replay-nodes.py" "$dir" 1 60 b1 b2 b3 & server=$!
i=0
while [ ! -p "$dir/b3" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
tui_start 160 40 HTTOP_HOSTLIST=builtin HTTOP_CLOCK= -- --nodes 'b[1-3]' --via "$dir/via $dir %h" -d 1
check "viewer: b2 lost once (its first transport ended, status 3)" wait_for '1 lost' 10
if wait_for '3 nodes: 3 up' 15 && wait_for '3 of 3 nodes' 10; then
	ok "viewer: b2 started again, all 3 up and whole in a job interval"
else
	not_ok "viewer: b2 never came back whole"; show_screen
	sed 's/^/# /' "$tui_dir/stderr"
fi
keys q
tui_wait_exit 5
kill "$server"; wait "$server" 2>/dev/null; server=
