#!/bin/sh
# test_procstat.sh: the procstat source on this machine's /proc/stat
# (httop(1), SOURCES), --topology FILE declaring which of this machine's
# CPUs share a core, and httop -- COMMAND with it:
#  - every JSON line names the source and says what its figures mean; CPI
#    and GHz are absent as not-counted; each thread's utilisation is in
#    [0, 1]; the lines are valid against the schema;
#  - a --topology of this machine's online CPUs in adjacent pairs makes
#    the split a bound (four shares as bounds); one with a CPU this
#    machine lacks is refused, naming the CPU and both lists;
#  - the text header has the meaning line;
#  - a recording replays to the same figures, the meaning kept;
#  - httop --source procstat -- COMMAND passes the command's status on and
#    prints the four shares of a busy command as bounds.
. "${HTTOP_SRCDIR:-.}/tests/lib.sh"

need python3 python3
[ -r /proc/stat ] || skip_all "no /proc/stat"
online=$(cat /sys/devices/system/cpu/online 2>/dev/null) || skip_all "no sysfs CPU list"

work=$(mktemp -d /tmp/httop-procstat.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT

# hwloc XML: the online CPUs, adjacent ones paired into cores; and the same
# with one CPU more than this machine has online.
python3 - "$online" "$work/pairs.xml" "$work/more.xml" <<'EOF'
import sys

def cpus(text):
    out = []
    for part in text.strip().split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out

def mask(cs):
    m = 0
    for c in cs:
        m |= 1 << c
    words = []
    while True:
        words.append("0x%08x" % (m & 0xffffffff))
        m >>= 32
        if m == 0:
            break
    return ",".join(reversed(words))

def xml(cs, path):
    cores = [cs[i:i + 2] for i in range(0, len(cs), 2)]
    gp = [1]
    def nxt():
        gp[0] += 1
        return gp[0]
    def attrs(c):
        return ('cpuset="%s" complete_cpuset="%s" nodeset="0x00000001" '
                'complete_nodeset="0x00000001"' % (mask(c), mask(c)))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<!DOCTYPE topology SYSTEM "hwloc2.dtd">', '<topology version="2.0">',
             ' <object type="Machine" os_index="0" %s allowed_cpuset="%s" '
             'allowed_nodeset="0x00000001" gp_index="1">' % (attrs(cs), mask(cs)),
             '  <object type="Package" os_index="0" %s gp_index="%d">' % (attrs(cs), nxt())]
    for i, core in enumerate(cores):
        lines.append('   <object type="Core" os_index="%d" %s gp_index="%d">'
                     % (i, attrs(core), nxt()))
        for c in core:
            lines.append('    <object type="PU" os_index="%d" %s gp_index="%d"/>'
                         % (c, attrs([c]), nxt()))
        lines.append('   </object>')
    lines.append('  </object>')
    lines.append('  <object type="NUMANode" os_index="0" %s gp_index="%d" '
                 'local_memory="1000000"/>' % (attrs(cs), nxt()))
    lines += [' </object>', '</topology>']
    open(path, "w").write("\n".join(lines) + "\n")

cs = cpus(sys.argv[1])
xml(cs, sys.argv[2])
xml(cs + [max(cs) + 1], sys.argv[3])
EOF
ncpus=$(python3 -c "
import sys
n = 0
for p in sys.argv[1].split(','):
    a, _, b = p.partition('-'); n += int(b or a) - int(a) + 1
print(n)" "$online")

plan 15

"$HTTOP" --source procstat -b -n 2 -d 0.2 --format json >"$work/a.json" 2>"$work/a.err"
st=$?
check "--source procstat -b --format json: exit status 0 (got $st)" [ "$st" -eq 0 ]
check "two lines" [ "$(wc -l <"$work/a.json")" -eq 2 ]
check "source procstat, its meaning, CPI and GHz absent as not-counted, utilisations in [0,1]" \
	python3 - "$work/a.json" <<'EOF'
import json, sys
lines = open(sys.argv[1]).readlines()
assert len(lines) == 2, len(lines)
for line in lines:
    d = json.loads(line)
    assert d["source"] == "procstat", d["source"]
    assert "idle accounting" in d["meaning"], d.get("meaning")
    for c in d["cores"]:
        assert c["cpi"] is None and c["absent"]["cpi"] == "not-counted", c
        assert c["ghz"] is None and c["absent"]["ghz"] == "not-counted", c
    for t in d["threads"]:
        assert t["util"] is not None and 0.0 <= t["util"] <= 1.0, t
EOF
check_schema "$work/a.json"

"$HTTOP" --source procstat --topology "$work/pairs.xml" -b -n 2 -d 0.2 --format json \
	>"$work/b.json" 2>"$work/b.err"
st=$?
check "--topology of this machine's online CPUs ($online) in pairs: accepted (got $st)" \
	[ "$st" -eq 0 ]
if [ "$ncpus" -ge 2 ]; then
	check "declared pairs: the split is a bound, every share of the node shown" \
		python3 - "$work/b.json" <<'EOF'
import json, sys
lines = open(sys.argv[1]).readlines()
assert len(lines) == 2, len(lines)
for line in lines:
    d = json.loads(line)
    assert d["split"] == "ticks", d["split"]
    n = d["node"]
    for k in ("neither", "t0_only", "t1_only", "both"):
        assert n[k] is not None or (n[k + "_lo"] is not None and n[k + "_hi"] is not None), (k, n)
        lo = n[k] if n[k] is not None else n[k + "_lo"]
        hi = n[k] if n[k] is not None else n[k + "_hi"]
        assert 0.0 <= lo <= hi <= 1.0, (k, lo, hi)
    assert any(len(c["cpus"]) == 2 for c in d["cores"]), d["cores"]
EOF
else
	skip "one CPU online: no pair to declare"
fi

"$HTTOP" --source procstat --topology "$work/more.xml" -b -n 1 >"$work/c.out" 2>"$work/c.err"
st=$?
check "--topology with a CPU this machine lacks: refused (status $st)" [ "$st" -ne 0 ]
check "... naming the CPU and this machine's online CPUs ($online)" \
	grep -q "is not an online CPU of this machine.*online CPUs ($online)" "$work/c.err"
diag "$(cat "$work/c.err")"

"$HTTOP" --source procstat -b -n 1 -d 0.2 >"$work/d.txt" 2>&1
check "text header: the meaning line" grep -q "^meaning: procstat: utilisation" "$work/d.txt"

"$HTTOP" --source procstat --topology "$work/pairs.xml" -b -n 3 -d 0.2 --format json \
	--record "$work/r.trace" >"$work/live.json" 2>"$work/r.err" &&
    "$HTTOP" --replay "$work/r.trace" -b --format json >"$work/rep.json" 2>>"$work/r.err"
st=$?
check "--record, then --replay: status 0 (got $st)" [ "$st" -eq 0 ]
check "... the replay gives the same figures and keeps the meaning" \
	python3 - "$work/live.json" "$work/rep.json" <<'EOF2'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert len(a) == 3 and len(b) == 3, (len(a), len(b))
for x, y in zip(a, b):
    assert y["source"] == "replay" and y["meaning"] == x["meaning"], (x.get("meaning"), y.get("meaning"))
    assert x["split"] == y["split"]
    for k in ("util", "util_lo", "util_hi", "both", "both_lo", "both_hi", "neither", "neither_lo"):
        assert x["node"][k] == y["node"][k], (k, x["node"][k], y["node"][k])
EOF2
diag "$(cat "$work/r.err")"

"$HTTOP" --source procstat -d 0.2 -- sh -c 'exit 5' >"$work/e.out" 2>"$work/e.err"
st=$?
check "--source procstat -- sh -c 'exit 5': status 5 (got $st)" [ "$st" -eq 5 ]
check "... its summary names the source and its CPU time" \
	sh -c "grep -q 'source procstat' '$work/e.err' && grep -q 'CPU time: user' '$work/e.err'"

# A busy command on declared pairs: the four shares as bounds.
"$HTTOP" --source procstat --topology "$work/pairs.xml" -d 0.2 -- \
	sh -c 'timeout 0.6 sh -c "while :; do :; done"; exit 0' >"$work/f.out" 2>"$work/f.err"
st=$?
check "busy command on declared pairs: status 0 (got $st)" [ "$st" -eq 0 ]
if [ "$ncpus" -ge 2 ]; then
	# node row: neither, t0 only, t1 only, both: numbers, a bound as lo-hi.
	node=$(summary_node "$work/f.err")
	check "... the summary's node row has the four shares, bounds as lo-hi ($node)" \
		awk -v r="$node" 'BEGIN { n = split(r, v, " ")
		    for (i = 1; i <= 4; i++) if (v[i] !~ /^[0-9.]+(-[0-9.]+)?$/) bad++
		    exit !(n == 9 && bad == 0) }'
else
	skip "one CPU online: no pair to declare"
fi
diag "$(cat "$work/f.err")"
exit $((tap_failed > 0))
