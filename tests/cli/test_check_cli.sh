#!/bin/sh
# test_check_cli.sh: httop --check on the simulator, which plays case
# (core index mod 7) on every core of the machine (or the --check-case
# given) in one interval of simulated time, and the options of the check.
#   - the Skylake-SP demo passes, in text and as one JSON object whose every
#     share lies within its stated tolerance of the case's;
#   - Zen 2 (no AnyThread): the split is bounds only, each held, a pass;
#   - Xeon Phi (four threads a core): no split to check, the rest passes;
#   - the reference event ticks at 125 where the table says 120: the scale
#     fails (the split, on the measured scale, passes); at 121, within the
#     calibration's 2%, the table's 120 is kept: the shares pass over 1 s
#     and fail over 30 s, where their tolerance is below the 0.8% error;
#   - Sapphire Rapids, whose split rests on the table's scale with no event
#     to measure it: a wrong table (88 for 96) fails the split;
#   - bad options: exit 2 with one message naming the option.
. "$HTTOP_SRCDIR/tests/lib.sh"
F=$HTTOP_FIXTURES
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 42

SKX="--topology $F/hwloc/skx-6140-2s-18c-ht.x86.xml"
ZEN="--topology $F/hwloc/zen2-epyc7742-2s-64c-smt.xml --cpuid $F/cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt"
KNL="--topology $F/hwloc/knl-7250-68c-4t-flat-quadrant.xml"
SPR="--topology $F/hwloc/spr-max9460-2s-40c-ht.x86.xml"

# json [options]: the check as JSON in $tmp/out, status in $st.
json() {
	# shellcheck disable=SC2086
	"$HTTOP" --check --source sim "$@" -b --format json >"$tmp/out" 2>"$tmp/err"
	st=$?
	diag "exit $st: $(head -c 200 "$tmp/err")"
}

jqv() {
	jq -r "$1" "$tmp/out" 2>/dev/null
}

# --- the demo, as text -------------------------------------------------------------
"$HTTOP" --check --demo --seconds 1 >"$tmp/text" 2>"$tmp/err"
st=$?
check "demo, text: exit 0" test "$st" -eq 0
check "demo, text: a block per core (36)" test "$(grep -c '^package [01], core [0-9]* (CPUs' "$tmp/text")" -eq 36
# The report's prose lines, each on one line again (a wrapped line goes on
# indented by two more spaces than its first).
unwrap() {
	awk '/^ / && prev != "" && (match($0, /^ */) ? RLENGTH : 0) >= lead + 2 {
		sub(/^ */, " "); prev = prev $0; next }
	{ if (NR > 1) print prev; prev = $0; match($0, /^ */); lead = RLENGTH }
	END { print prev }' "$1"
}
unwrap "$tmp/text" >"$tmp/text.joined"
# A terminal of 80 columns, or a mail, shows it unbroken: prose is
# wrapped, the tables fit (characters, not bytes).
check "demo, text: every line fits 80 columns (longest $(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$tmp/text"))" \
    test "$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$tmp/text")" -le 80
# One numbering everywhere: CPUs 12,48 are package 0, core 8 in every view
# and output (the hardware's core id within its package, not the index).
check "demo, text: CPUs 12,48 named package 0, core 8, as the views do" \
    grep -q '^package 0, core 8 (CPUs 12,48), case ' "$tmp/text"
# (with how closely the shares and utilisations held: the widest
# tolerance of their rows that passed, in points)
check "demo, text: trusted for every family the simulator can show, the shares' precision said" \
    grep -qx "trusted on this node: split (to [0-9]\.[0-9] points), utilisation (to [0-9]\.[0-9] points), CPI, frequency, clock, reference-clock scale" \
    "$tmp/text.joined"
check "demo, text: the verdict is the last line" test "$(tail -n 1 "$tmp/text")" = "verdict: pass"
check "demo, text: nothing on standard error" test ! -s "$tmp/err"

# --- the demo, as JSON ---------------------------------------------------------------
"$HTTOP" --check --demo --seconds 1 -b --format json >"$tmp/out" 2>"$tmp/err"
st=$?
check "demo, json: exit 0, one object that python3 reads" \
    sh -c '[ "$1" -eq 0 ] && python3 -c "import json, sys; json.loads(sys.stdin.read())" <"$2"' \
    sh "$st" "$tmp/out"
check "demo, json: outcome pass, 36 cases, each a pass" \
    test "$(jqv '"\(.outcome) \(.cases | length) \([.cases[] | select(.verdict == "pass")] | length)"')" = \
    "pass 36 36"
check "demo, json: CPUs 12,48 are package 0, core 8; 35,71 package 1, core 26" \
    test "$(jqv '[.cases[] | select(.cpus[0] == 12 or .cpus[0] == 35) | "\(.package):\(.core)"] | join(",")')" = \
    "0:8,1:26"
check "demo, json: every case is numbered as the batch json numbers its core" \
    sh -c '"$1" --demo -b -n 1 --format json | jq -r ".cores[] | \"\(.cpus[0]) \(.package) \(.core)\"" | sort >"$2.b" &&
	jq -r ".cases[] | \"\(.cpus[0]) \(.package) \(.core)\"" "$2" | sort >"$2.c" && cmp -s "$2.b" "$2.c"' \
    sh "$HTTOP" "$tmp/out"
check "demo, json: every case of the 7 is played" \
    test "$(jqv '[.cases[].case] | unique | join(",")')" = "apart,both,half,idle,t0,t1,uneven"
# The tolerance as the manual gives it, 0.005 + (P + 2 s) / T with no
# edges on the simulator, and every share within it of the case's.
check "demo, json: every share's tolerance is 0.005 + (0.005 + 2 skew) / interval" \
    test "$(jqv '[.cases[] | .interval as $t | .skew as $s | .figures[] | select(.family == "split") |
	select((.tolerance - (0.005 + (0.005 + 2 * $s) / $t)) | fabs > 1e-9)] | length')" = 0
check "demo, json: every share within its tolerance of the case's" \
    test "$(jqv '[.cases[].figures[] | select(.family == "split") |
	select(((.measured - .expected) | fabs) > .tolerance)] | length')" = 0
check "demo, json: case half's shares are 0.25 each" \
    test "$(jqv '[.cases[] | select(.case == "half") | .figures[] | select(.family == "split") |
	.expected] | unique | join(",")')" = 0.25
check "demo, json: CPI 24/9 and the clock 1.25 x 3.0 GHz on the busy threads" \
    test "$(jqv '[.cases[].figures[] | select(.basis == "simulator") | .expected] | unique |
	map(. * 1000 | round) | join(",")')" = "2667,3750"

"$HTTOP" --check-case uneven --demo --cpus 0-3 --seconds 1 -b --format json >"$tmp/out"
check "--check-case implies --check; --cpus 0-3 keeps their 4 cores, all playing it" \
    test "$(jqv '[.cases[].case] | join(",")')" = "uneven,uneven,uneven,uneven"

# --- machines without an exact split ---------------------------------------------------
# shellcheck disable=SC2086
json $ZEN --seconds 1
check "zen 2: exit 0, the split bounds only" \
    test "$st $(jqv .summary.split)" = "0 bound"
check "zen 2: half's shares are bounds that hold" \
    test "$(jqv '[.cases[] | select(.case == "half") | .figures[] | select(.family == "split") |
	.kind + ":" + .verdict] | unique | join(",")')" = "bound:bound"
check "zen 2: idle and both all the time leave no doubt: exact shares" \
    test "$(jqv '[.cases[] | select(.case == "idle" or .case == "both") | .figures[] |
	select(.family == "split") | .kind] | unique | join(",")')" = exact
# shellcheck disable=SC2086
json $KNL --seconds 1
check "xeon phi: exit 0, no split checked, and why" \
    test "$st $(jqv '.summary.split + " " + (.unchecked.split | test("SMT") | tostring)')" = \
    "0 unchecked true"

# --- a wrong reference-clock scale ----------------------------------------------------------
sed 's/^CPUID 00000015: 00000002-000000F0-/CPUID 00000015: 00000002-000000F9-/' \
    "$F/cpuid/skx-6154-2s-18c-ht.cpuid.txt" >"$tmp/skx-125.cpuid"
# shellcheck disable=SC2086
json $SKX --cpuid "$tmp/skx-125.cpuid" --seconds 1
check "scale 125 for 120: exit 1, the scale failed" \
    test "$st $(jqv '"\(.scale.table) \(.scale.measured) \(.summary.scale) \(.outcome)"')" = \
    "1 120 125 failed fail"
check "scale 125 for 120: the split, on the measured 125, is trusted" \
    test "$(jqv .summary.split)" = trusted
sed 's/^CPUID 00000015: 00000002-000000F0-/CPUID 00000015: 00000002-000000F1-/' \
    "$F/cpuid/skx-6154-2s-18c-ht.cpuid.txt" >"$tmp/skx-121.cpuid"
# shellcheck disable=SC2086
json $SKX --cpuid "$tmp/skx-121.cpuid" --seconds 1
check "scale 121 for 120: calibration keeps 120; over 1 s the shares pass" \
    test "$st $(jqv '"\(.scale.measured) \(.summary.split)"')" = "0 120 trusted"
# shellcheck disable=SC2086
json $SKX --cpuid "$tmp/skx-121.cpuid" --seconds 30
check "scale 121 for 120: over 30 s the shares fail" \
    test "$st $(jqv .summary.split)" = "1 failed"
# CPUID 15H 191/2 = 95.5: the table falls back to 4 x the base ratio 22 =
# 88, the device rounds to 96.
sed 's/^CPUID 00000015: 00000002-000000B0-/CPUID 00000015: 00000002-000000BF-/' \
    "$F/cpuid/spr-w9-3475x-1s-36c-ht.cpuid.txt" >"$tmp/spr-96.cpuid"
# shellcheck disable=SC2086
json $SPR --cpuid "$tmp/spr-96.cpuid" --seconds 1
check "sapphire rapids, table 88 for 96 and nothing to measure it: the split fails" \
    test "$st $(jqv '.summary.split + " " + .summary.scale')" = "1 failed unchecked"
# Case apart: thread 0 alone half the time, counted as 0.5 x 88 / 96 =
# 0.4583 (to the reference clock's quantisation, 0.1%).
check "sapphire rapids: case apart shows t0 only 0.458 (0.5 x 88 / 96): fail" \
    test "$(jqv '.cases[] | select(.case == "apart") | .figures[] | select(.figure == "t0_only") |
	"\(.measured > 0.4573 and .measured < 0.4593) \(.verdict)"' | head -n 1)" = "true fail"

# --- a hostile CPU brand in the JSON report ----------------------------------------------
# CPUID 80000004's ECX and EDX end the brand with e2 80 ae (U+202E, the
# right-to-left override), a quote and the byte ff, which is not UTF-8. The
# report escapes them as the json lines do (util/jsonstr.c): \u202e, \"
# and '?', so the object is valid UTF-8 JSON and holds no U+202E raw.
sed 's/^CPUID 80000004: 302E3320-7A484730-00000000-00000000/CPUID 80000004: 302E3320-7A484730-22AE80E2-000000FF/' \
    "$F/cpuid/skx-6154-2s-18c-ht.cpuid.txt" >"$tmp/skx-bidi.cpuid"
# shellcheck disable=SC2086
json $SKX --cpuid "$tmp/skx-bidi.cpuid" --seconds 1
diag "$(grep -o '"cpu":"[^,]*' "$tmp/out" | cat -v)"
check "a brand with U+202E, a quote and byte ff: escaped in the JSON report as \\u202e, \\\" and ?" \
    python3 -c 'import json, sys
raw = open(sys.argv[1], "rb").read()
doc = json.loads(raw.decode("utf-8"))
sys.exit(0 if b"\xe2\x80\xae" not in raw and b"\\u202e\\\"?\"" in raw and
    doc["cpu"] == "Intel(R) Xeon(R) Gold 6154 CPU @ 3.00GHz\u202e\"?" else 1)' "$tmp/out"
# The text report, for a terminal: the same brand escaped as \xHH, nothing raw.
# shellcheck disable=SC2086
"$HTTOP" --check --source sim $SKX --cpuid "$tmp/skx-bidi.cpuid" --seconds 1 >"$tmp/text2" 2>&1
check "... and in the text report as \\xe2\\x80\\xae and \\xff, neither raw" python3 -c 'import sys
raw = open(sys.argv[1], "rb").read()
sys.exit(0 if b"\xe2\x80\xae" not in raw and b"\xff" not in raw and
    b"cpu: Intel(R) Xeon(R) Gold 6154 CPU @ 3.00GHz\\xe2\\x80\\xae\"\\xff" in raw else 1)' "$tmp/text2"

# --- options ---------------------------------------------------------------------------
# bad MESSAGE ARGS...: exit 2 and MESSAGE (a grep pattern) on standard error.
bad() {
	m=$1
	shift
	"$HTTOP" "$@" >/dev/null 2>"$tmp/err"
	st=$?
	check "httop $* -> exit 2: $(head -c 100 "$tmp/err")" \
	    sh -c '[ "$1" -eq 2 ] && [ "$(grep -c . "$2")" -eq 1 ] && grep -q -- "$3" "$2"' \
	    sh "$st" "$tmp/err" "$m"
}
bad "--check-case: no case 'nope'; give one of idle, t0, t1, both, half, apart, uneven" \
    --check-case nope --demo
bad "--seconds: '0.1' is not" --check --demo --seconds 0.1
bad "--seconds: 'x' is not" --check --demo --seconds x
bad "add --check" --demo --seconds 2
bad "--check cannot be combined with -n" --check --demo -n 1
bad "--check cannot be combined with -d" --check --demo -d 1
bad "--check writes its report as text or json, not csv: give --format text or --format json" \
    --check --demo -b --format csv
# A case of a core's second thread on cores of one thread would check
# nothing and pass: refused, naming the way out.
NOHT="--topology $F/hwloc/hsw-ep-e5-2680v3-2s-12c-noht.x86.xml"
# shellcheck disable=SC2086
bad "--check-case half needs a core's second thread, and each core checked here has one thread: .*--topology FILE" \
    --check --source sim $NOHT --check-case half
# shellcheck disable=SC2086
bad "--check-case t1 needs a core's second thread" --check --source sim $NOHT --check-case t1
bad "--check cannot be combined with --sim" --check --sim busy
bad "--check cannot be combined with --record" --check --demo --record "$tmp/x.trace"
bad "--check cannot be combined with --replay" --check --replay "$tmp/x.trace"

# The bash completion knows the cases.
if command -v bash >/dev/null 2>&1; then
	got=$(bash -c '. "$1"; COMP_WORDS=(httop --check-case ""); COMP_CWORD=2; _httop;
	    printf "%s\n" "${COMPREPLY[@]}"' sh "$HTTOP_SRCDIR/completion/httop" | tr '\n' ' ')
	check "completion: --check-case offers the cases ($got)" \
	    test "$got" = "idle t0 t1 both half apart uneven "
else
	skip "bash is not installed"
fi
exit 0
