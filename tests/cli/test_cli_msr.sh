#!/bin/sh
# test_cli_msr.sh: without a usable MSR device httop says, in one line,
# what to do, and exits non-zero without output; --source auto says so in
# one line and goes on with a source that works (procstat at the latest),
# and no step after msr's advises --source msr (it just failed).
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 12

# one_line DESC PATTERN ARGS...: non-zero exit, not 2 (not a usage error),
# empty stdout, exactly one line on stderr matching PATTERN.
one_line() {
	d=$1; pat=$2; shift 2
	"$HTTOP" "$@" >"$tmp/out" 2>"$tmp/err"; st=$?
	if [ "$st" -ne 0 ] && [ "$st" -ne 2 ] && [ ! -s "$tmp/out" ] &&
	    [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$pat" "$tmp/err"; then
		ok "$d"
	else
		not_ok "$d (exit $st)"; sed 's/^/# /' "$tmp/err"
	fi
}

one_line "--msr-path into a missing directory: one line naming the path" \
	"$tmp/nodir/" --source msr --msr-path "$tmp/nodir/%u/msr" -b -n 1
# on_line DESC PATTERN ARGS...: exit 0, output, exactly one line on
# stderr matching PATTERN (auto's note of the steps that failed).
# (Beside it, the scheduler source, where auto comes to it as root, may say
# what it could not follow: "httop: sched, T s: ...", an event of the
# interval, not of the choice.)
on_line() {
	d=$1; pat=$2; shift 2
	"$HTTOP" "$@" >"$tmp/out" 2>"$tmp/err"; st=$?
	if [ "$st" -eq 0 ] && [ -s "$tmp/out" ] &&
	    [ "$(grep -vc '^httop: sched, [0-9.]* s: ' "$tmp/err")" -eq 1 ] &&
	    grep -q -- "$pat" "$tmp/err"; then
		ok "$d"
	else
		not_ok "$d (exit $st)"; sed 's/^/# /' "$tmp/err"
	fi
}

on_line "--source auto with a missing device names it and goes on" \
	"msr: $tmp/nodir/0/msr.*; using " -v --msr-path "$tmp/nodir/%u/msr" -b -n 1
one_line "the missing device is named with its CPU number" \
	"$tmp/nodir/0/msr" --source msr --msr-path "$tmp/nodir/%u/msr" -b -n 1

# A device that exists but cannot be read as an MSR (a plain empty file).
mkdir -p "$tmp/empty/0" "$tmp/empty/1"
: >"$tmp/empty/0/msr"; : >"$tmp/empty/1/msr"
"$HTTOP" --source msr --msr-path "$tmp/empty/%u/msr" -b -n 1 >"$tmp/out" 2>"$tmp/err"; st=$?
check "an MSR path that reads nothing is an error" [ "$st" -ne 0 ]
check "... with no output" [ ! -s "$tmp/out" ]
check "... and a message" [ -s "$tmp/err" ]

if [ -e /dev/cpu/0/msr ]; then
	skip "/dev/cpu/0/msr exists on this machine: the msr module is loaded"
	skip "/dev/cpu/0/msr exists on this machine: the msr module is loaded"
	skip "/dev/cpu/0/msr exists on this machine: the msr module is loaded"
	skip "/dev/cpu/0/msr exists on this machine: the msr module is loaded"
	skip "/dev/cpu/0/msr exists on this machine: the msr module is loaded"
	skip "/dev/cpu/0/msr exists on this machine: the msr module is loaded"
else
	# A usage error comes alone: auto's note on the sources that failed
	# is said only once the options are known good.
	"$HTTOP" --cpus 4096 -b -n 1 >"$tmp/out" 2>"$tmp/err"; st=$?
	check "auto, --cpus beyond the machine: status 2, one line, the --cpus error ($st: $(head -c 200 "$tmp/err"))" \
	    sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q -- "--cpus: CPU 4096" "$2"' \
	    sh "$st" "$tmp/err"
	one_line "--source msr without the msr module: one line saying modprobe msr" \
		"modprobe msr" --source msr -b -n 1
	on_line "the default (auto) with -v says modprobe msr too, and goes on" "modprobe msr.*; using " \
		-v -b -n 1
	# After msr failed, no later step sends the user back to it: each
	# says what would help (here perf, in a VM without a virtual PMU).
	if grep -q -- '--source msr' "$tmp/err"; then
		not_ok "auto: no step after msr advises --source msr"; sed 's/^/# /' "$tmp/err"
	else
		ok "auto: no step after msr advises --source msr"
	fi
	if grep -q 'perf: no hardware performance events' "$tmp/err"; then
		check "auto: perf without hardware events: give the VM a virtual PMU or run on the node" \
		    grep -q 'perf: no hardware .*(ENOENT); give the VM a virtual PMU, or run httop on the node itself; ' "$tmp/err"
	else
		skip "perf has hardware events here (or failed otherwise): $(cat "$tmp/err")"
	fi
	# No source at all: no msr module, no hardware perf events here, and a
	# --topology of another machine, which procstat refuses.
	if "$HTTOP" --source perf -b -n 1 >/dev/null 2>&1; then
		skip "perf works here: auto would use it"
	else
		one_line "no source works: one line with every reason, suggesting httop --demo" \
			"procstat: --topology.*or try httop --demo" -b -n 1 \
			--topology "$HTTOP_FIXTURES/hwloc/clx-6230-2s-20c-ht.x86.xml"
	fi
fi
