#!/bin/sh
# test_fakemsr_hotplug.sh: CPU hotplug under httop, on the fake MSR device
# (skx-6140 topology, 6154 CPUID: 72 CPUs, core 5 = {5, 41}; scenario busy,
# --step 0.5). "unplug 5" takes CPU 5 offline and removes its msr file
# (open: ENOENT, the open file: ENXIO); "plug 5" brings it back with its
# PMU reset to 0, as after power-on. "at N" runs a command at the start of
# httop's refresh N + 1 (2 of calibration, the first read, then one per
# interval: "at N" is just before the read that ends interval N - 2).
#
# Four cycles: unplug at 4, 9, 14, 19 and plug at 6, 11, 16, 21. An unplug
# at U hits the read ending interval U - 2: offline from there. A plug at
# P = U + 2 comes just after httop's open attempt of that refresh (the
# attempt comes first), so the next refresh reopens CPU 5, programs it and
# reads it: interval P - 1 still began offline, interval P is valid. So of
# 22 intervals, core {5, 41} is valid in 1, 6, 11, 16, 21, 22 and offline
# in the others; the 35 other cores are valid in all of them.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 10

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --step 0.5
ctl dump >"$work/before"
printf '%s\n' "at 2 snapshot" "at 4 unplug 5" "at 5 snapshot" "at 6 plug 5" \
    "at 9 unplug 5" "at 11 plug 5" "at 14 unplug 5" "at 16 plug 5" "at 19 unplug 5" \
    "at 21 plug 5" "at 23 snapshot" >"$mnt/ctl" ||
    { echo "Bail out! the fake refused 'at'"; exit 1; }

httop_msr "$SKX_XML" "$SKX_CPUID" -b -n 22 -d 0.1 --format json >"$work/out" 2>"$work/err"
st=$?
sed 's/^/# /' "$work/err"
core5=$(jq -r '.cores[] | select(.cpus == [5, 41]) | if .valid then "V" else .reason end' \
    "$work/out" | tr '\n' ' ')
diag "core {5, 41}: $core5"

check "exit 0 with 22 intervals" test "$st" -eq 0 -a "$(jq -s length "$work/out")" = 22
check_schema "$work/out"
O="offline offline offline offline"
check "core {5, 41}: valid in 1, 6, 11, 16, 21, 22, offline in the others" \
    test "$core5" = "V $O V $O V $O V $O V V "
check "the 35 other cores are valid in every interval" \
    test "$(jq -r '[.cores[] | select(.cpus != [5, 41] and .valid)] | length' "$work/out" |
    sort -u)" = 35
check "threads 5 and 41 have no figures while offline (interval 2)" \
    test "$(jq -s -r '.[1].threads[] | select(.cpu == 5 or .cpu == 41) | "\(.valid) \(.reason)"' \
    "$work/out" | sort -u)" = "false offline"
# Open msr files as the fake counts them: all 72 before, 71 while CPU 5
# is away (httop closed it), 72 after four cycles (no descriptor leaked).
check "open msr files: 72 before, 71 while CPU 5 is away, 72 after four cycles" \
    test "$(ctl snapshots | tr '\n' ' ')" = "72 71 72 "
# Programmed once at start, and again at each of the 4 returns.
check "CPU 5 got PERFEVTSEL0 0x63013c 5 times (start + 4 returns), sibling 41 FIXED_CTR_CTRL twice (calibration, plan)" \
    eval 'test "$(ctl log | awk '"'"'$1 == 5 && $2 == "0x186" && $3 == "0x63013c"'"'"' | wc -l)" -eq 5 &&
    test "$(ctl log | awk '"'"'$1 == 41 && $2 == "0x38d" && $3 == "0x333"'"'"' | wc -l)" -eq 2'
ctl dump >"$work/after"
check "every register restored, CPU 5's included" cmp -s "$work/before" "$work/after"

# Every device missing at start (no msr module): fatal, with the modprobe
# hint for the default path and the template for --msr-path.
ctl deny open all ENOENT >/dev/null
httop_msr "$SKX_XML" "$SKX_CPUID" -b -n 2 -d 0.1 --format json >"$work/out" 2>"$work/err"
st=$?
diag "all missing: exit $st: $(cat "$work/err")"
check "every device missing: non-zero exit naming $mnt/0/msr and --msr-path" \
    eval 'test "$st" -ne 0 -a "$st" -ne 2 && grep -q -- "$mnt/0/msr does not exist: check the --msr-path" "$work/err"'
check "every device missing: no output" test ! -s "$work/out"
ctl allow open all >/dev/null
exit 0
