#!/bin/sh
# test_runsum_width.sh: the summary of a command's run (httop -- COMMAND,
# out/runsum.c) fits 80 columns and loses nothing (issue 35: its table was
# 111 columns wide, its meaning: line 131 and its absent: line 133).
# - every line is at most 80 columns (display width: a wide character
#   counts two, a combining one none);
# - each prose paragraph (a line and the more indented lines that continue
#   it) joined again is the text the summary means: the command and how it
#   ended, the host line, the meaning as the batch header gives it on one
#   line, the absent figures with the reasons metrics/reason.c gives them;
# - the nine figures of the node are there, each head once.
# Runs: --demo (sim), --source procstat (no split on a machine without
# SMT: the absent: line), procstat on declared siblings (bounds), a command
# too long for a line, and a run with no counter source (--source perf on a
# machine without hardware events, if this is one); procstat in German
# (longer words, UTF-8), the width only.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/cli/i18nlib.sh"
need python3 python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 12

# judge FILE MEANING NAME [width-only]: the width and the words; MEANING
# is the batch header's meaning (one line) or "".
judge() {
	python3 - "$1" "$2" "$HTTOP_SRCDIR/src/metrics/reason.c" "$3" ${4:+"$4"} <<'EOF'
import json, re, sys, unicodedata
path, meaning, reason_c, name = sys.argv[1:5]
lines = open(path, encoding="utf-8").read().split("\n")
bad = []

def width(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w

for i, l in enumerate(lines):
    if width(l) > 80:
        bad.append("line %d is %d columns: %r" % (i + 1, width(l), l))

if sys.argv[5:] == ["width-only"]:
    for b in bad:
        print("# " + b)
    print("# %s: %d lines, widest %d" % (name, len(lines), max(width(l) for l in lines)))
    sys.exit(1 if bad else 0)

def indent(l):
    return len(l) - len(l.lstrip(" "))

# Paragraphs: a line and the lines after it indented two or more further
# (" host ..." then "  why: ..." are two).
paras = []
for l in lines:
    if l.strip() == "":
        paras.append(None)
    elif paras and paras[-1] is not None and indent(l) >= paras[-1][0] + 2 and \
            not re.match(r"^ +(package \d+|node)\s", l):
        paras[-1][1].append(l.strip())
    else:
        paras.append((indent(l), [l.strip()]))
text = [" ".join(p[1]) for p in paras if p is not None]

def one(pattern, what):
    hits = [t for t in text if re.fullmatch(pattern, t)]
    if len(hits) != 1:
        bad.append("%s: %d paragraphs match %r" % (what, len(hits), pattern))
    return hits[0] if hits else None

one(r"httop: .+ \(pid \d+\): (exit status \d+|killed by signal .+) after \d+\.\d\d s",
    "the command line")
bare = any(t.startswith("host ") and "no counter source" in t for t in text)
if bare:
    one(r"host \S+, no counter source: the SMT split, utilisation, threads per busy core, "
        r"GHz and CPI were not measured", "the host line (no source)")
    one(r"why: .+", "why")
else:
    one(r"host \S+, source \S+; the command's CPUs [0-9,-]+ \(\d+ cores?\); "
        r"figures over \d+\.\d\d s", "the host line")
    if meaning:
        one(re.escape("meaning: " + meaning), "the meaning, as the batch header says it")
    # The node's figures: nine, each head once.
    heads = ["neither%", "t0 only%", "t1 only%", "both%", "util%", "both/busy%",
             "threads", "GHz", "CPI"]
    found = [t for t in text if t.split()[:1] == ["neither%"] or t.split()[:1] == ["util%"]]
    allheads = " ".join(found)
    for h in heads:
        n = len(re.findall(r"(?:^| )" + re.escape(h) + r"(?= |$)", allheads))
        if n != 1:
            bad.append("head %s %d times in %r" % (h, n, allheads))
    node = []
    for l in lines:
        if re.match(r"^  node\s", l):
            node += l.split()[1:]
    if len(node) != 9 or not all(re.fullmatch(r"-|\d+\.\d+(-\d+\.\d+)?", v) for v in node):
        bad.append("the node's figures: %r" % node)
    # absent: the figures shown "-", grouped by reason, with the reasons'
    # words (metrics/reason.c).
    reasons = dict((code, txt) for txt, code in
                   re.findall(r'N_\("([^"]*)"\), "([a-z-]+)"', open(reason_c).read()))
    absent = [t for t in text if t.startswith("absent: ")]
    if "-" in node:
        if len(absent) != 1:
            bad.append("figures are absent (%r) but %d absent: paragraphs" % (node, len(absent)))
        else:
            names = ["neither", "t0 only", "t1 only", "both", "util", "both/busy", "threads",
                     "GHz", "CPI"]
            told = {}
            for part in absent[0][len("absent: "):].split("; "):
                figs, why = part.split(": ", 1)
                if why not in reasons.values():
                    bad.append("absent: %r is no reason of metrics/reason.c" % why)
                for f in figs.split(", "):
                    told[f] = why
            want = set(names[i] for i, v in enumerate(node) if v == "-")
            if set(told) != want:
                bad.append("absent: names %r, the node shows '-' for %r" % (sorted(told),
                           sorted(want)))
    elif absent:
        bad.append("nothing is absent, yet: %r" % absent)
for b in bad:
    print("# " + b)
print("# %s: %d lines, widest %d" % (name, len(lines), max(width(l) for l in lines)))
sys.exit(1 if bad else 0)
EOF
}

# run NAME MEANING HTTOP-ARGS...: the summary on standard error, judged.
run() {
	name=$1 meaning=$2
	shift 2
	timeout 60 "$HTTOP" "$@" >out 2>"$name.err"; st=$?
	check "$name: the command's status 0 (got $st)" [ "$st" -eq 0 ]
	if judge "$name.err" "$meaning" "$name"; then
		ok "$name: every line within 80 columns, every word there"
	else
		not_ok "$name: every line within 80 columns, every word there"
		sed 's/^/# | /' "$name.err"
	fi
}

# The meaning as the batch header gives it, on one line.
meaning_of() {
	timeout 30 "$HTTOP" "$@" -b -n 1 -d 0.2 2>/dev/null | sed -n 's/^meaning: //p' | head -n 1
}

run demo "$(meaning_of --demo)" --demo -- sleep 1
m=$(meaning_of --source procstat)
check "procstat: the batch header has a meaning line" [ -n "$m" ]
run procstat "$m" --source procstat -- sleep 1
if lstopo-no-graphics --input "pack:1 core:1 pu:2" --of xml pairs.xml 2>/dev/null &&
    [ -s pairs.xml ] && [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
	run pairs "$(meaning_of --source procstat --topology pairs.xml)" \
	    --source procstat --topology pairs.xml -d 0.2 -- \
	    sh -c 'timeout 0.6 sh -c "while :; do :; done"; exit 0'
else
	skip "no synthetic topology (lstopo-no-graphics) or one CPU online"
	skip "no synthetic topology (lstopo-no-graphics) or one CPU online"
fi
run long "" --demo -- sh -c 'exit 0 # a command line long enough that its first line of the summary cannot fit in eighty columns'
# No counter source opens where there are no hardware events (a VM);
# elsewhere --source perf opens and the summary is the usual one.
run nosource "" --source perf -- true

# German: the translated heads and prose fit too (columns, not bytes).
if i18n_setup "$tmp/de"; then
	timeout 60 env $i18n_env "$HTTOP" --source procstat -- sleep 0.5 >out 2>de.err
	if judge de.err "" de width-only; then
		ok "German: every line within 80 columns"
	else
		not_ok "German: every line within 80 columns"; sed 's/^/# | /' de.err
	fi
else
	skip "German: $i18n_skip"
fi
