#!/bin/sh
# test_record_events.sh: the events --record writes and a replay shows, on
# the fake MSR device (skx-6140 topology, 6154 CPUID: 72 CPUs, core 5 =
# {5, 41}; scenario busy, --step 0.5), and a full disk under the msr
# source: the registers are restored.
#
# As in test_fakemsr_hotplug.sh, "at 4 unplug 5" hits the read ending
# interval 2 and "at 6 plug 5" comes just after that refresh's reopening
# attempt, so CPU 5 is read again for the sample ending interval 5, and
# core {5, 41} (core 19) is invalid in intervals 2 to 5 (the last one
# began offline). Samples are counted in file order from 0 (the first
# read; their seq= numbers count the 2 calibration reads too): events
# "offline cpu 5" before sample 2, "online cpu 5" before sample 5,
# "invalid: package 1, core 1 ..." before samples 2, 3, 4, 5. A takeover of
# PERFEVTSEL0 on CPUs 0-35 "at 8" hits the read ending interval 6:
# "reprogrammed: ..." before sample 6 (--on-conflict reclaim writes the
# plan back), with "invalid: package 0, core 0 ..." before samples 6 and 7 (the
# counter read back after the reclaim is still off for one interval).
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 10

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --step 0.5
ctl dump >"$work/before"
cmds="at 4 unplug 5
at 6 plug 5
"
for c in $(seq_list 0 35); do
	cmds="${cmds}at 8 takeover $c 0x43003c
"
done
printf '%s' "$cmds" >"$mnt/ctl" || { echo "Bail out! the fake refused 'at'"; exit 1; }

T=$work/ev.trace.gz
httop_msr "$SKX_XML" "$SKX_CPUID" -b -n 8 -d 0.1 --format json --on-conflict reclaim \
    --record "$T" >"$work/live" 2>"$work/err"
st=$?
sed 's/^/# /' "$work/err"
check "the recording run exits 0 (got $st)" [ "$st" -eq 0 ]
gzip -dc "$T" >"$work/ev.trace"
# event_before N TEXT: an event line containing TEXT just before the
# N-th sample line (from 0) of the trace.
event_before() {
	awk -v n="$1" -v pat="$2" '
	/^sample / { seen++; next }
	/^event / { if (seen == n && index($0, pat)) found = 1 }
	END { exit !found }' "$work/ev.trace"
}
# invalid_before P C: the sample numbers with an "invalid: package P, core
# C " event (the core named by its package and its id, as every view).
invalid_before() {
	awk -v pat="text=\"invalid: package $1, core $2 " '
	/^sample / { seen++; next }
	/^event / && index($0, pat) { printf "%d ", seen }' "$work/ev.trace"
}
grep '^event' "$work/ev.trace" | sed 's/^/# /'
check "\"offline cpu 5\" before sample 2" event_before 2 'text="offline cpu 5"'
check "\"online cpu 5\" before sample 5" event_before 5 'text="online cpu 5"'
# invalid_many: the sample numbers with an "invalid: N cores" or "invalid:
# all N cores" event (a reason several cores have names them all).
invalid_many() {
	awk '/^sample / { seen++; next }
	/^event / && /text="invalid: (all )?[0-9]+ cores \(cpus / { printf "%d ", seen }' "$work/ev.trace"
}
check "\"invalid: package 1, core 1 \" (CPUs 5,41) before samples 2-5, \"invalid: (all) N cores\" before 6 and 7" \
    [ "$(invalid_before 1 1)" = "2 3 4 5 " -a "$(invalid_many)" = "6 7 " ]
reprogrammed_once() {
	[ "$(grep -c '^event .*text="reprogrammed: ' "$work/ev.trace")" -eq 1 ] &&
	    event_before 6 'text="reprogrammed: '
}
check "\"reprogrammed: \" before sample 6, and only there" reprogrammed_once

"$HTTOP" --replay "$T" -b --format json >"$work/replay" 2>"$work/rerr"; st=$?
sed 's/^/# replay: /' "$work/rerr"
check "the replay exits 0 and shows the events on stderr" sh -c '[ "$1" -eq 0 ] &&
grep -q "^httop: replay, [0-9.]* s: offline cpu 5" "$2" &&
grep -q "^httop: replay, [0-9.]* s: online cpu 5" "$2" &&
grep -q "^httop: replay, [0-9.]* s: invalid: .*reprogrammed: " "$2"' sh "$st" "$work/rerr"
check "the replay's figures are the run's" sh -c '
jq -c "{time, valid, reason, node, cores, threads}" "$1" >"$1.f" &&
jq -c "{time, valid, reason, node, cores, threads}" "$2" >"$2.f" && cmp -s "$1.f" "$2.f"' \
    sh "$work/live" "$work/replay"
check_schema "$work/live" "$work/replay"

# A full disk under the msr source: exit 1, one message, every register
# as before httop started.
mkdir "$work/m"
if mount -t tmpfs -o size=64k tmpfs "$work/m" 2>"$work/mount.err"; then
	httop_msr "$SKX_XML" "$SKX_CPUID" -b -d 0.05 --format json \
	    --record "$work/m/full.trace" >/dev/null 2>"$work/err"
	st=$?
	sed 's/^/# /' "$work/err"
	umount "$work/m"
	check "full disk under msr: exit 1, one line naming the file" sh -c '[ "$1" -eq 1 ] &&
	    [ "$(wc -l <"$2")" -eq 1 ] && grep -q "full.trace: No space left on device" "$2"' \
	    sh "$st" "$work/err"
	ctl dump >"$work/after"
	check "... every register restored" cmp -s "$work/before" "$work/after"
else
	skip "cannot mount a tmpfs: $(cat "$work/mount.err")"
	skip "cannot mount a tmpfs"
fi
exit 0
