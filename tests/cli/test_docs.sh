#!/bin/sh
# test_docs.sh: documentation that must agree with the program.
# - httop(1) ENVIRONMENT names each variable once (LANG and LC_* were
#   listed twice, with different texts).
# - httop(1) rendered has no sentence run into the next ("_total.Labels:").
# - HACKING.md's recipe for seeing the German messages from a build tree,
#   run as written, gives German output.
# - Nothing describes procstat's busy time as busy ticks or its split as
#   tick counts (the busy time is the time less the growth of idle, iowait
#   and steal): httop(1), README, NEWS, the schema, plan.h, the
#   OpenMetrics HELP, and the meaning and notes a procstat run records.
# - httop(1)'s list of the members of --check's JSON report names every
#   member a report has (parsed from one: httop --check --demo), the
#   top-level source among the head's and each thread's cpu in its place;
#   the schema says what the source and a thread's cpu are.
# - Every manual page is clean under mandoc -Tlint -W warning (a macro
#   inside a table is dropped, an unparsable date printed as it is).
# - httop(1)'s --source auto names the sources in the order --help gives
#   (from the code's table; the manual had left bpf out).
# - httop(1) REPLAY's example header is the shipped Stampede2 trace's:
#   its position N/M is the interval ending at the time it gives, of the
#   trace's M intervals (it said 17/59 for 18/58).
# - httop(1) SEE ALSO names every other manual page of httop's (it left
#   out httop-diemap(5), which the README and --die-map send readers to).
# - The json member source, in httop(1) and the schema, names every
#   source --source takes but auto (both had left out bpf, the manual
#   sched too, though a run of either writes its name there).
# - --textfile-level's series per thread is the number OUTPUT FORMATS
#   gives (it said 14, the table and a run 15).
# - httop(1) FILES names every data file make install puts in the data
#   directory (data/local.mk; the licence texts and READMEs beside them
#   apart): the Stampede2 trace, the die map and the msr-safe allowlist
#   were installed with no word of where.
# - httop(1)'s list of reasons ("The reasons, with the codes used in csv
#   and json") has an entry (.TP, then the code) for every code of
#   src/metrics/reason.c but ok: not-read ran into the entry before it and
#   job-untracked, which json's absent can give, was not in the list.
# - httop(1)'s example of a command's summary has each line a summary
#   starts with a label (httop -- COMMAND on the demo): it lacked the CPU
#   time: line and the command's own figures.
# - httop(1) SYNOPSIS is --help's usage lines, one for one, word for word
#   (the manual's placeholders in lower case aside), and those lines name
#   every way of running httop: each mode of app.c's table and
#   app_run's (-b, --replay, a watched job, --nodes, --all-nodes,
#   --check, --restore, --acct-record, -- COMMAND), and every option
#   --help says ends in "exit" but --help and --version (SYNOPSIS lacked
#   --replay, --check and --nodes).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/cli/i18nlib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 22

# The tag lines of ENVIRONMENT (the line after each .TP), one variable a line.
sed -n '/^\.SH ENVIRONMENT/,/^\.SH [^E]/p' "$HTTOP_SRCDIR/man/httop.1" |
	awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' |
	sed 's/\\-/-/g; s/^\.B[RI]* //; s/"//g; s/,//g' | tr ' ' '\n' |
	grep -E '^[A-Z][A-Z_]+$' | sort >env.names
dups=$(uniq -d env.names | tr '\n' ' ')
check "httop(1) ENVIRONMENT names each variable once (twice: ${dups:-none})" [ -z "$dups" ]
check "... and LANG among them" grep -qx LANG env.names

# mandoc's linter: nothing at warning level or above in any page.
if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tlint -W warning "$HTTOP_SRCDIR"/man/*.1 "$HTTOP_SRCDIR"/man/*.5 >lint.out 2>&1
	sed 's/^/# /' lint.out
	check "mandoc -Tlint -W warning: every manual page is clean" [ ! -s lint.out ]
else
	skip "mandoc is not installed (Debian: mandoc)"
fi

# Rendered at 80 columns: a word glued to the next sentence by a
# full stop with no space (".B x . Next" renders "x.Next").
MANWIDTH=80 man -l "$HTTOP_SRCDIR/man/httop.1" 2>/dev/null | col -b >man.txt
check "httop(1) rendered: no full stop glued to the next sentence (_total.Labels)" \
	sh -c '[ -s man.txt ] && ! grep -E "[a-z_]\.[A-Z][a-z]+[:, ]" man.txt'

# procstat's busy time is the time less idle, iowait and steal; the
# tick accounting of the busy columns is only why httop does not use them.
stale='busy ticks|tick counts|kernel.s tick accounting|idle ticks in|busy time moves in ticks'
found=$(cd "$HTTOP_SRCDIR" && grep -nE "$stale" man/httop.1 README.md NEWS data/httop.schema.in.json \
    src/plan/plan.h src/plan/plan.c src/out/openmetrics.c src/source/procstat/procstat_source.c \
    src/source/sources.h | head -n 3)
check "no document calls procstat's busy time busy ticks or its split tick counts (${found:-none})" \
    [ -z "$found" ]
"$HTTOP" --source procstat -b -n 1 -d 0.1 --record "$tmp/ps.trace" >"$tmp/ps.txt" 2>/dev/null
found=$(cat "$tmp/ps.txt" "$tmp/ps.trace" 2>/dev/null | grep -E "$stale" | head -n 1)
check "... nor what a procstat run prints and records (meaning, notes: ${found:-none})" \
    sh -c "[ -s '$tmp/ps.trace' ] && [ -z \"\$1\" ]" sh "$found"

# --check's JSON report: every member it writes is in httop(1)'s list
# (CHECK, The JSON report), rendered wide so that no word is hyphenated.
"$HTTOP" --check --demo -b --format json >check.json 2>/dev/null
MANWIDTH=1000 man -l "$HTTOP_SRCDIR/man/httop.1" 2>/dev/null | col -b |
	sed -n '/^ *The JSON report$/,/^ *Checking a new node type/p' | tr -s ' \n' '  ' >check.man
check "httop(1) names every member of --check's JSON report" python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
man = open(sys.argv[2]).read()
assert "source" in d and isinstance(d["cases"][0]["threads"][0]["cpu"], int), d.keys()
keys = set()
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            keys.add(k)
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(d)
words = set(re.findall(r"[a-z_]+", man))
missing = sorted(keys - words)
assert not missing, missing
' check.json check.man
check "... the top-level source among the head's members, each thread's cpu among the thread's" \
    python3 -c '
import re, sys
man = open(sys.argv[1]).read()
head = re.search(r"Members: (.*?) plan \(the counter plan", man)
assert head and re.search(r"\bsource\b", head.group(1)), head and head.group(1)
assert re.search(r"threads \(per CPU: cpu\b", man), "threads (per CPU: cpu ..."
' check.man
check "... and the schema says what the source and a thread's cpu are" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
src = s["properties"]["source"]["description"]
cpu = s["$defs"]["thread"]["properties"]["cpu"].get("description", "")
assert "sched" in src and "--check" in src, src
assert "CPU" in cpu and "--check" in cpu, cpu
' "$HTTOP_SRCDIR/data/httop.schema.in.json"

# HACKING.md, "Seeing the translation before make install": its commands,
# run from a copy of the layout they expect (po/ and build/src/httop).
sed -n '/^## Seeing the translation/,/^## /p' "$HTTOP_SRCDIR/HACKING.md" |
	sed -n 's/^    //p' >recipe.sh
mkdir -p build/src
ln -s "$HTTOP_SRCDIR/po" po
ln -s "$HTTOP" build/src/httop
if ! i18n_setup "$tmp/i18n"; then
	skip "$i18n_skip"
elif [ ! -s recipe.sh ]; then
	not_ok "HACKING.md has no recipe for the translation"
else
	# LOCPATH, where i18n_setup had to build the locale; the recipe sets
	# the rest itself.
	# shellcheck disable=SC2086
	env $(printf '%s\n' $i18n_env | grep '^LOCPATH=') sh -e recipe.sh >out 2>err
	check "the HACKING.md recipe prints httop's help in German" grep -q '^Aufruf: httop' out
fi

# --source auto's order: --help's (made from source/kinds.c's table) and
# the manual's paragraph under --source, one name a line each.
"$HTTOP" --help | tr '\n' ' ' | sed 's/  */ /g; s/.*(default auto: \([^)]*\)).*/\1/' |
	sed 's/,//g; s/ then / /g; s/ and / /g' | tr ' ' '\n' | grep . >auto.help
sed -n '/^\\fB\\-\\-source\\fR/,/that works/p' "$HTTOP_SRCDIR/man/httop.1" |
	sed -n '/^\.B auto$/,/that works/p' | grep -E '^\.BR? ' |
	sed '1d; s/^\.BR* //; s/\\-/-/g; s/ *,$//' >auto.man
check "httop(1) --source auto: the order of --help ($(tr '\n' ' ' <auto.help)), not ($(tr '\n' ' ' <auto.man))" \
    sh -c '[ -s auto.help ] && cmp -s auto.help auto.man'

# REPLAY's example: "source replay N/M (T s of L s)". The summary of the
# shipped trace gives each interval's end time; N is the one at T, M how many.
ex=$(sed -n 's/^\.B "source replay \([0-9]*\/[0-9]* ([0-9.]* s of [0-9.]* s)\).*/\1/p' \
    "$HTTOP_SRCDIR/man/httop.1")
"$HTTOP" --replay "$HTTOP_SRCDIR/data/traces/stampede2-c591-803.trace.gz" --format summary \
    2>/dev/null >replay.sum
got=$(awk -v ex="$ex" 'BEGIN { split(ex, w, "[ (/]+"); t = w[3] }
	{ n++; if (sprintf("%.1f", $2) == t && !at) at = n; last = $2 }
	END { printf "%d/%d (%s s of %.1f s)", at, n, t, last }' replay.sum)
check "httop(1) REPLAY's example is the Stampede2 trace's: '$ex' (the trace: '$got')" [ "${ex:-none}" = "$got" ]

# SEE ALSO: every page in man/ but httop(1) itself.
sed -n '/^\.SH SEE ALSO/,/^\.SH /p' "$HTTOP_SRCDIR/man/httop.1" | sed 's/\\-/-/g' >seealso.man
missing=
for f in "$HTTOP_SRCDIR"/man/*.[0-9]; do
	b=${f##*/}; name=${b%.*}; sec=${b##*.}
	[ "$name" = httop ] && continue
	grep -q "^\.BR $name ($sec)" seealso.man || missing="$missing $name($sec)"
done
check "httop(1) SEE ALSO names every other page of man/ (missing:${missing:- none})" [ -z "$missing" ]

# The sources json's source can name: those of --source but auto.
"$HTTOP" --help | tr '\n' ' ' | sed 's/  */ /g' |
	sed 's/.*--source SRC counter source: \([^(]*\) (default.*/\1/' |
	sed 's/,//g; s/ or / /g' | tr ' ' '\n' | grep . | grep -vx auto >src.help
man_src=$(grep '^\.BR source " (' "$HTTOP_SRCDIR/man/httop.1" | sed 's/\\-/-/g')
schema_src=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["properties"]["source"]["description"])' \
    "$HTTOP_SRCDIR/data/httop.schema.in.json")
miss_man= miss_schema=
while read -r k; do
	printf '%s\n' "$man_src" | grep -q -- "[ (]$k[,)]" || miss_man="$miss_man $k"
	printf '%s\n' "$schema_src" | grep -q -- " $k[, ]" || miss_schema="$miss_schema $k"
done <src.help
check "the source list of --help has 8 names but auto ($(tr '\n' ' ' <src.help))" \
    [ "$(wc -l <src.help)" -eq 8 ]
check "httop(1) json: source names every source (missing:${miss_man:- none})" [ -z "$miss_man" ]
check "the schema's source names every source (missing:${miss_schema:- none})" [ -z "$miss_schema" ]

# Series per thread: OPTIONS (--textfile-level) and the table agree.
opt=$(sed -n 's/^(everything: 22 per core and \([0-9]*\) per thread).*/\1/p' "$HTTOP_SRCDIR/man/httop.1")
tab=$(sed -n 's/^thread *+ \([0-9]*\) per thread.*/\1/p' "$HTTOP_SRCDIR/man/httop.1")
check "--textfile-level's series per thread ($opt) are the table's ($tab)" \
    sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh "$opt" "$tab"

# FILES: each file data/local.mk installs, by its name.
MANWIDTH=1000 man -l "$HTTOP_SRCDIR/man/httop.1" 2>/dev/null | col -b |
	sed -n '/^FILES$/,/^ENVIRONMENT$/p' >files.man
sed -n 's/^dist_[a-z]*_DATA *+*= *//p' "$HTTOP_SRCDIR/data/local.mk" | tr ' ' '\n' |
	grep . | sed 's,.*/,,' | grep -v -e '^LICENSES$' -e '^README' >data.files
missing=
while read -r f; do grep -qF -- "$f" files.man || missing="$missing $f"; done <data.files
check "httop(1) FILES names each of the $(wc -l <data.files) data files (missing:${missing:- none})" \
    sh -c '[ -s data.files ] && [ -z "$1" ]' sh "$missing"

# The reasons: each code a tagged entry of the list.
sed -n 's/.*"\([a-z][a-z-]*\)" },$/\1/p' "$HTTOP_SRCDIR/src/metrics/reason.c" | grep -vx ok >codes
sed -n '/^The reasons, with the codes used in csv and json:$/,/^\.SH /p' "$HTTOP_SRCDIR/man/httop.1" |
	sed 's/\\-/-/g' | awk 'prev ~ /^\.TP/ && /^\.B [a-z-]*$/ { print $2 } { prev = $0 }' >codes.man
missing=$(grep -vxF -f codes.man codes | tr '\n' ' ')
check "httop(1) lists each of the $(wc -l <codes) reason codes as an entry (missing: ${missing:-none})" \
    sh -c '[ "$(wc -l <codes)" -ge 20 ] && [ -z "$1" ]' sh "$missing"

# A command's summary: the labels of its unindented lines, in the example.
"$HTTOP" --demo -d 0.1 -- sleep 0.3 2>&1 >/dev/null | grep -E '^ [a-zA-Z]' |
	sed -E "s/^ (httop:|CPU time:|host|the command's own figures|the CPUs' figures).*/\\1/" |
	sort -u >sum.labels
sed -n '/^\.SS A command from start to end/,/^\.fi/p' "$HTTOP_SRCDIR/man/httop.1" >sum.man
missing=
while read -r l; do grep -q "^ $l" sum.man || missing="$missing '$l'"; done <sum.labels
check "httop(1)'s example summary has the $(wc -l <sum.labels) labelled lines of a run's (missing:${missing:- none})" \
    sh -c '[ "$(wc -l <sum.labels)" -ge 5 ] && [ -z "$1" ]' sh "$missing"

# SYNOPSIS and --help's usage lines: the same lines, and every mode there.
LC_ALL=C LANGUAGE='' "$HTTOP" --help |
	awk 'NR == 1 { if (!sub(/^Usage: /, "")) exit; print; next }
	    /^       httop / { sub(/^ +/, ""); print; next } { exit }' | tr 'A-Z' 'a-z' >usage.help
LC_ALL=C MANWIDTH=1000 man -l "$HTTOP_SRCDIR/man/httop.1" 2>/dev/null | col -b |
	sed -n '/^SYNOPSIS$/,/^DESCRIPTION$/p' | sed '1d; $d; s/^ *//; s/  */ /g; /^$/d' |
	tr 'A-Z' 'a-z' >usage.man
diff usage.help usage.man | sed 's/^/# /'
check "httop(1) SYNOPSIS is --help's $(wc -l <usage.help) usage lines, one for one" \
    sh -c '[ "$(wc -l <usage.help)" -ge 10 ] && cmp -s usage.help usage.man'
# The options whose --help text ends the run ("... and exit", "then exit").
LC_ALL=C LANGUAGE='' "$HTTOP" --help |
	awk '/^  -|^      --/ { if (e != "") print e; e = $0; next }
	    /^ {20,}/ && e != "" { e = e " " $0; next } { if (e != "") print e; e = "" }' |
	grep -E '(and|then) exit' | sed -E 's/^ *(-[a-zA-Z], )?(--[a-z-]+).*/\2/' |
	grep -vx -e --help -e --version >exits
missing=
for m in -b --replay --pid --cgroup --job --nodes --all-nodes --check --restore --acct-record -- \
    $(cat exits); do
	tr ' {}[]|' '\n' <usage.help | grep -qx -- "$m" || missing="$missing $m"
done
check "--help's usage lines name every way of running httop ($(wc -l <exits) options that exit among them; missing:${missing:- none})" \
    sh -c '[ "$(wc -l <exits)" -ge 3 ] && [ -z "$1" ]' sh "$missing"
