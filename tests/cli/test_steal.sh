#!/bin/sh
# test_steal.sh: each thread's steal share (the time a hypervisor ran
# something else while the virtual CPU wanted to run), read from
# /proc/stat's steal column by --source procstat, in every format that
# carries figures:
# - json: "steal" a share in 0..1 for every thread, util + steal at most 1
#   (busy time excludes steal), valid against httop.schema.json; the same
#   lines in the compact form carry the same values;
# - the steal the run shows, summed over its intervals (share x length),
#   is at most what /proc/stat's steal column grew by around the whole run
#   (read by this test before and after; USER_HZ ticks), plus a tick of
#   rounding per interval;
# - csv: steal, steal_lo, steal_hi after the columns that were there
#   (last), the thread rows' steal in 0..1;
# - openmetrics: httop_thread_steal_ratio, one sample per thread;
# - --demo (the simulator: no /proc/stat) has it absent with the reason
#   "no-steal" (json "absent", csv "absent"), and no steal sample.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
[ -r /proc/stat ] || skip_all "no /proc/stat"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
plan 11

hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
steal_ticks() { awk '/^cpu[0-9]/ { s += $9 } END { print s + 0 }' /proc/stat; }
before=$(steal_ticks)
"$HTTOP" --source procstat -b -n 4 -d 0.5 --format json >"$dir/ps.json" 2>"$dir/err"
after=$(steal_ticks)
check "procstat json: 4 intervals ($(head -c 200 "$dir/err"))" \
    test "$(wc -l <"$dir/ps.json")" -eq 4
check "... each thread's steal a share in 0..1, util + steal <= 1" python3 - "$dir/ps.json" <<'EOF'
import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    assert d["threads"], d
    for t in d["threads"]:
        if not t["valid"]:
            continue
        s, u = t["steal"], t["util"]
        assert isinstance(s, (int, float)) and 0 <= s <= 1, t
        assert t["steal_lo"] is None and t["steal_hi"] is None, t
        assert "steal" not in t.get("absent", {}), t
        assert u is None or u + s <= 1 + 1e-9, (u, s)
EOF
check "... at most the growth of /proc/stat's steal ($before -> $after ticks of 1/$hz s) around the run" \
    python3 - "$dir/ps.json" "$before" "$after" "$hz" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
grew = (int(sys.argv[3]) - int(sys.argv[2])) / float(sys.argv[4])
tick = 1 / float(sys.argv[4])
seen = sum(t["steal"] * d["interval"] for d in lines for t in d["threads"] if t["valid"])
n = sum(1 for d in lines for t in d["threads"] if t["valid"])
print("# steal shown %.4f s, /proc/stat grew %.4f s" % (seen, grew))
assert seen <= grew + n * tick + 1e-9, (seen, grew)
EOF
check_schema "$dir/ps.json"

"$HTTOP" --source procstat -b -n 2 -d 0.3 --format json --compact >"$dir/ps.compact" 2>/dev/null
check "compact json: steal after the flags, a share or null" \
    python3 - "$dir/ps.compact" <<'EOF'
import json, sys
for l in open(sys.argv[1]):
    for t in json.loads(l)["thread_figs"]:
        s = t[8]
        assert s is None or (isinstance(s, (int, float)) and 0 <= s <= 1), t
        assert isinstance(t[7], int), t
EOF
check_schema "$dir/ps.compact"

"$HTTOP" --source procstat -b -n 2 -d 0.3 --format csv >"$dir/ps.csv" 2>/dev/null
check "procstat csv: steal, steal_lo, steal_hi after the fixed columns, together; each thread's steal in 0..1" \
    python3 - "$dir/ps.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
i = head.index("steal")
assert head[i:i + 3] == ["steal", "steal_lo", "steal_hi"] and i > head.index("job"), head
threads = [dict(zip(head, r)) for r in rows[1:] if r[0] == "thread"]
assert threads
for t in threads:
    assert 0 <= float(t["steal"]) <= 1, t
EOF

"$HTTOP" --source procstat -b -n 1 -d 0.3 --format openmetrics >"$dir/ps.om" 2>/dev/null
ncpu=$(grep -c '^httop_thread_valid{' "$dir/ps.om")
check "procstat openmetrics: one httop_thread_steal_ratio sample per thread ($ncpu)" \
    sh -c '[ "$1" -gt 0 ] && [ "$(grep -c "^httop_thread_steal_ratio{" "$2")" -eq "$1" ] &&
        grep -q "^# UNIT httop_thread_steal_ratio ratio" "$2"' sh "$ncpu" "$dir/ps.om"

"$HTTOP" --demo -b -n 1 -d 0.2 --format json >"$dir/demo.json" 2>/dev/null
check "--demo json: steal null, absent no-steal, on every valid thread" python3 - "$dir/demo.json" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
valid = [t for t in d["threads"] if t["valid"]]
assert valid
for t in valid:
    assert t["steal"] is None and t["steal_lo"] is None and t["steal_hi"] is None, t
    assert t["absent"]["steal"] == "no-steal", t
EOF
"$HTTOP" --demo -b -n 1 -d 0.2 --format csv >"$dir/demo.csv" 2>/dev/null
check "--demo csv: steal empty, \"steal:no-steal\" in absent" python3 - "$dir/demo.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
threads = [dict(zip(rows[0], r)) for r in rows[1:] if r[0] == "thread" and r[3] == "1"]
assert threads
for t in threads:
    assert t["steal"] == "" and "steal:no-steal" in t["absent"].split(), t
EOF
"$HTTOP" --demo -b -n 1 -d 0.2 --format openmetrics >"$dir/demo.om" 2>/dev/null
check "--demo openmetrics: the family, no sample" \
    sh -c 'grep -q "^# TYPE httop_thread_steal_ratio gauge" "$1" &&
        ! grep -q "^httop_thread_steal_ratio{" "$1"' sh "$dir/demo.om"
