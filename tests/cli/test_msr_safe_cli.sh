#!/bin/sh
# test_msr_safe_cli.sh: --source msr-safe and --source auto on the FUSE fake
# MSR device (skx-6140 topology, 6154 CPUID: 72 CPUs), whose per-CPU files
# answer as /dev/cpu/N/msr_safe does for registers on the allowlist. There
# is no batch device here (--msr-batch-path names a missing file), so the
# source reads CPU by CPU; the batch path is tests/unit/test_msr_safe.c's.
# Checked: msr-safe runs and restores every register; auto picks msr-safe
# when its device exists, msr when it does not, says why when it falls
# back, and when nothing works prints one line with every step's reason.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 22

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario demo --step 0.2
ctl dump >"$work/before"

# run ARGS...: httop on the fake machine; $st, $work/out, $work/err.
run() {
	"$HTTOP" --topology "$SKX_XML" --cpuid "$SKX_CPUID" -b -n 2 -d 0.2 --format json \
	    --msr-batch-path "$work/no-batch" "$@" >"$work/out" 2>"$work/err"
	st=$?
	diag "exit $st: $(cat "$work/err")"
}
source_is() { grep -q "\"source\":\"$1\"" "$work/out"; }
restored() { ctl dump >"$work/after" && cmp -s "$work/before" "$work/after"; }

# 1. --source msr-safe on the fake's files.
run --source msr-safe --msr-safe-path "$mnt/%u/msr"
check "--source msr-safe: exit 0" test "$st" -eq 0
check "... two JSON intervals" test "$(grep -c '"source"' "$work/out")" -eq 2
check "... the header says source msr-safe" source_is msr-safe
check "... nothing on stderr" test ! -s "$work/err"
check "... every register restored" restored
check_schema "$work/out"

# 2. auto: the msr-safe device of CPU 0 exists, so msr-safe runs.
run --msr-safe-path "$mnt/%u/msr"
check "auto with an msr-safe device: exit 0" test "$st" -eq 0
check "... and it is msr-safe that runs" source_is msr-safe
check "... silently" test ! -s "$work/err"

# 3. auto without msr-safe: the msr device, and no word about msr-safe.
run --msr-safe-path "$work/none/%u/msr_safe" --msr-path "$mnt/%u/msr"
check "auto without msr-safe: exit 0 on the msr device" test "$st" -eq 0
check_schema "$work/out"
check "... source msr" source_is msr
check "... nothing on stderr" test ! -s "$work/err"

# 4. msr-safe there but unusable (CPU 0's device is a symlink, which httop
# never opens): auto says so once and goes on with msr.
mkdir -p "$work/ms/0" && ln -s "$mnt/0/msr" "$work/ms/0/msr_safe"
# (-v: the step's reason; without it auto names the steps that failed)
run -v --msr-safe-path "$work/ms/%u/msr_safe" --msr-path "$mnt/%u/msr"
check "auto falls back to msr: exit 0" test "$st" -eq 0
check "... source msr" source_is msr
check "... one line saying why msr-safe was not used, and what ran" \
    test "$(wc -l <"$work/err")" -eq 1 -a -n "$(grep '^httop: --source auto: msr-safe: .*symbolic link: give the real device path with --msr-safe-path; using msr$' "$work/err")"

# 5. Every device refuses (EACCES): one line, every step's reason.
ctl deny open all EACCES >/dev/null
run --msr-safe-path "$mnt/%u/msr" --msr-path "$mnt/%u/msr"
check "nothing opens: exit 1" test "$st" -eq 1
check "... exactly one line" test "$(wc -l <"$work/err")" -eq 1
check "... msr-safe's reason names the group permission" \
    grep -q "msr-safe: no permission to open $mnt/0/msr: .*read-write access for one of your groups" "$work/err"
check "... msr's reason names setcap" grep -q "; msr: no permission.*setcap cap_sys_rawio" "$work/err"
check "... perf's reason, and the way out" grep -q "; perf: .*(or try httop --demo)$" "$work/err"
ctl allow open all >/dev/null
check "... and no register was written" restored
