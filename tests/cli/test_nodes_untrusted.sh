#!/bin/sh
# test_nodes_untrusted.sh: what a node's line may claim (httop(1), SECURITY),
# with nodes that lie (tests/nodes/hostile.py through the stand-in
# transport tests/nodes/as-host.sh) next to an honest busy one, h1:
#  - text from a node (an invalid interval's reason with escape sequences,
#    CR LF and a right-to-left override) reaches the summary escaped, \xHH:
#    no byte of it raw, no forged line; the merged JSON stream is JSON;
#  - a host that is not a host name, a node calling itself another host, a
#    line with "host" twice, weights of 1.7e308 or of 0 under its figures,
#    a raw escape sequence where a head parse does not look (not JSON):
#    the line is refused (not in the merged stream, not in the job) and
#    the node lost, saying why (also when it ends before that);
#  - a raw bidi override, DEL, C1 or invisible format character in a
#    string (JSON): passed on in the merged stream as \u escapes, the same
#    value, nothing of it raw;
#  - -0 is 0, never "-0.0".
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 28

via="env NODES_RUN=$tmp $HTTOP_SRCDIR/tests/nodes/as-host.sh %h"
export NODES_LOADS="h1=busy r=evil-reason bad=evil-host liar=evil-claim dup=evil-dup heavy=evil-heavy zero=evil-zero nz=evil-negzero cl=evil-list rawesc=evil-rawesc rawbidi=evil-rawbidi rawfmt=evil-rawfmt"
export HTTOP_HOSTLIST=builtin
# run NAME LIST FORMAT [N]: N intervals (2), NAME.out, NAME.err, the
# status in NAME.st
run() {
	n=$1 l=$2 f=$3
	"$HTTOP" --nodes "$l" --via "$via" --remote-httop "$HTTOP" --format "$f" -b -n "${4:-2}" \
	    >"$n.out" 2>"$n.err"
	echo $? >"$n.st"
}
# raw NAME: no ESC, BEL, CR or U+202E in NAME.out and NAME.err
raw() {
	! LC_ALL=C grep -q "$(printf '[\033\007\r]')" "$1.out" "$1.err" &&
	    ! grep -q "$(printf '\342\200\256')" "$1.out" "$1.err"
}

# 1-5: a reason with escape sequences, a forged line, a bidi override.
run reason 'h1,r' summary
check "summary with a hostile reason: exit 0 ($(cat reason.st))" [ "$(cat reason.st)" -eq 0 ]
check "nothing of it raw: no ESC, BEL, CR, U+202E" raw reason
# (the job's lines: 2, or 3 when an interval of h1 closed one without r)
check "no forged line: 2 of h1 and of r, only job lines else ($(awk '{ print $1 }' reason.out | sort | tr '\n' ' '))" \
    sh -c '[ "$(grep -c "^h1 " "$1")" -eq 2 ] && [ "$(grep -c "^r " "$1")" -eq 2 ] &&
    [ -z "$(awk "\$1 != \"h1\" && \$1 != \"r\" && \$1 != \"job\"" "$1")" ]' sh reason.out
check "r's reason shown escaped, \\xHH" grep -qF \
    'r: \x1b]0;TITLE\x07\x1b[2J\x0d\x0aFORGED LINE\xe2\x80\xae\x1b[5n' reason.out
run reasonj 'h1,r' json
check "the merged JSON lines: JSON, r's reason as the node sent it" python3 -c '
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
assert len(rs) == 4, len(rs)
r = [x for x in rs if x["host"] == "r"]
assert len(r) == 2 and r[0]["reason"].startswith("\x1b]0;TITLE\x07"), r[0].get("reason")
' reasonj.out

# 6-17: lines refused: the node is lost with its reason (at its third bad
# line), the job goes on with h1 alone, the merged stream has h1's lines
# only.
for c in "bad:\"host\" is not a host name" "liar:the line is host h1's, not liar's" \
    "dup:a member name given twice" "heavy:\"tsc\" is more than 36 cores count in" \
    "zero:a figure the node shows has a weight of 0" \
    "rawesc:a control character, raw, in a string (JSON escapes them)"; do
	h=${c%%:*} why=${c#*:}
	run "$h" "h1,$h" json 3
	check "$h: refused and lost, said why ($(head -c 300 "$h.err"))" sh -c \
	    'grep -qF "httop: node $1: its output is not httop'"'"'s JSON (" "$1.err" &&
	    grep -qF -- "$2" "$1.err" && [ "$(cat "$1.st")" -eq 1 ]' sh "$h" "$why"
	check "$h: the merged stream holds h1's 3 lines only, each with one host" python3 -c '
import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)
rs = [json.loads(l, object_pairs_hook=once) for l in open(sys.argv[1])]
assert [r["host"] for r in rs] == ["h1"] * 3, [r["host"] for r in rs]
' "$h.out"
done

# 18-21: a raw right-to-left override; DEL, C1, invisible format
# characters; in a string, where a head parse does not look: the lines
# are JSON and passed on, those characters as \u escapes (the values the
# node sent), nothing of them raw (no ESC, C1 or U+202E byte).
for h in rawbidi rawfmt; do
	run "$h" "h1,$h" json 3
	check "$h: passed on, status 0 ($(cat "$h.st"): $(head -c 300 "$h.err"))" \
	    sh -c '[ "$(cat "$1.st")" -eq 0 ] && [ ! -s "$1.err" ]' sh "$h"
	check "$h: 3 lines of each, JSON, x as the node sent it; no raw ESC, C1 or U+202E" python3 -c '
import json, sys
h, want = sys.argv[2], {"rawbidi": "\u202eFORGED",
    "rawfmt": "a\x7fb\x85c\x9b2Jd\xade\u200bf\U000e0041g\u2066h\u00e9"}[sys.argv[2]]
raw = open(sys.argv[1], "rb").read()
rs = [json.loads(l) for l in raw.decode("utf-8").splitlines()]
assert sorted(r["host"] for r in rs) == ["h1"] * 3 + [h] * 3, [r["host"] for r in rs]
assert all(r["x"] == want for r in rs if r["host"] == h), [r.get("x") for r in rs]
text = raw.decode("utf-8")
bad = [c for c in text if ord(c) < 0x20 and c != "\n" or 0x7f <= ord(c) <= 0x9f or
       c in "\u202e\u2066\u200b\xad\t" or 0xe0000 <= ord(c) <= 0xe007f]
assert not bad, bad[:5]
assert "\\u202e" in text or h != "rawbidi"
' "$h.out" "$h"
done

# 22-23: the job of h1 and a node whose weights are 1.7e308: h1's own
# figures (CPI 0.50, valid), never CPI 0.00.
run heavys 'h1,heavy' summary 3
check "heavy weights: the job is h1's (CPI 0.50), not CPI 0.00" sh -c \
    '[ "$(grep -c "^job .* 0\.50 job  1 of 2 nodes missing: heavy$" "$1")" -eq 3 ] &&
    ! grep -q " 0\.00" "$1"' sh heavys.out
all_clean() { for n in bad liar dup heavy zero rawesc rawbidi rawfmt heavys; do raw "$n" || return 1; done; }
check "nothing raw in any run" all_clean

# 24: -0 is 0.
run nz 'nz' summary
check "-0 prints as 0.0, never -0.0 ($(head -1 nz.out))" sh -c \
    '[ "$(awk "\$1 == \"nz\" { print \$5 }" "$1")" = "0.0
0.0" ] && ! grep -q -- "-0\.0" "$1"' sh nz.out

# compact lines: compact lines (the summary asks for them) whose machine is
# refused: lost with the reason, h1 goes on.
run cl 'h1,cl' summary 3
check "cl: its core_list refused, lost, said why ($(head -c 300 cl.err))" sh -c \
    'grep -qF "httop: node cl: its output is not httop'"'"'s JSON (" cl.err &&
    grep -qF "before any line that had one" cl.err && [ "$(cat cl.st)" -eq 1 ]'
check "cl: h1's three intervals in the summary" [ "$(grep -c '^h1 ' cl.out)" -eq 3 ]

# a node that ends (-n 2) before its refused lines make it lost: why its
# lines were refused, not "ended before its first interval" (it gave two).
run liar2 'h1,liar' summary 2
check "liar, -n 2: said why its lines were refused ($(head -c 300 liar2.err))" sh -c \
    'grep -qF "httop: node liar: its output is not httop'"'"'s JSON (the line is host h1'"'"'s, not liar'"'"'s" liar2.err &&
    ! grep -q "before its first interval" liar2.err'

# last
check "nothing left running" [ "$(procs_tagged "NODES_RUN=$tmp")" -eq 0 ]
exit 0
