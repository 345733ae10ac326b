#!/bin/sh
# reads.sh: MSR accesses per refresh of httop's msr source on the fake
# device, for one simulated machine.
#
#   bench/reads.sh BUILD MACHINE [K]        (MACHINE: see bench/lib.sh)
#
# Reads and writes per refresh in steady state: the device's counts after
# `httop -b -n 1` and after `-n 1+K`; the difference of the two runs less
# the first is K refreshes (start-up, calibration, programming and restore
# are the same in both and cancel). The device's clock is --step, so the
# figures do not depend on the machine's load.
#
# Sibling skew: one more run under strace (-n 2) gives the order of the
# reads (pread64 on each CPU's file; reads of registers httop writes are
# the restore's read-back at exit and are left out). In the last refresh,
# for every core,
# the reads from its first to its last read (inclusive) are counted: a
# core read back to back spans exactly its own reads. The skew is the
# largest span; "foreign" the largest number of other cores' reads inside
# it (0 when each core is read back to back). The core of every CPU comes
# from httop's own batch output of the same run. Without strace, or with
# NOSTRACE=1 in the environment (the CI gate), these are -.
#
# turbostat's cost model (one read per counter per CPU; its source says 10
# MSRs per CPU per sample by default) applied to the counters httop reads:
# the distinct MSRs read in a refresh times the CPUs.
#
# Last line: reads=N writes=N span=N foreign=N core_reads=N msrs=N turbostat=N
set -u
BUILD=$(cd "$1" && pwd) NAME=$2 K=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'fake_umount; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

fake_mount "$NAME" --scenario demo --step 0.05 || exit 1
counts() { ctl counts | awk '{ print $2, $4 }'; }
run() {
	# shellcheck disable=SC2046
	"$HTTOP" $(msr_args "$NAME") -b -d 0.05 -n "$1" >"$work/out.txt" 2>"$work/err.txt" || {
		echo "httop failed: $(cat "$work/err.txt")" >&2
		exit 1
	}
}
set -- $(counts); r0=$1 w0=$2
run 1
set -- $(counts); r1=$1 w1=$2
run $((1 + K))
set -- $(counts); r2=$1 w2=$2
# (r2 - r1) is one run of 1+K refreshes, (r1 - r0) one of 1.
reads=$(calc "((($r2 - $r1) - ($r1 - $r0)) / $K)")
writes=$(calc "((($w2 - $w1) - ($w1 - $w0)) / $K)")

span=- foreign=- core_reads=- msrs=- turbostat=-
if [ -z "${NOSTRACE:-}" ] && command -v strace >/dev/null 2>&1; then
	# shellcheck disable=SC2046
	strace -qq -e trace=openat,pread64,pwrite64 -o "$work/trace" \
	    "$HTTOP" $(msr_args "$NAME") -b -d 0.05 -n 2 >"$work/out.txt" 2>/dev/null
	# cpu -> core key from the batch text output ("pkg core cpus ...").
	awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9,]+$/ {
		n = split($3, c, ","); for (i = 1; i <= n; i++) print c[i], $1 "." $2 }' \
	    "$work/out.txt" | sort -u >"$work/cores"
	set -- $(awk -v R="$reads" -v mnt="$mnt" '
	    FNR == NR { core[$1] = $2; next }
	    /^openat\(/ && index($0, mnt "/") {
		p = $0; sub(/^[^"]*"/, "", p); sub(/".*/, "", p)
		sub(/\/msr$/, "", p); sub(/.*\//, "", p)
		fd = $NF; fdcpu[fd] = p; next }
	    /^pwrite64\(/ {
		off = $0; sub(/.*, 8, /, "", off); sub(/\).*/, "", off)
		written[off] = 1; next }
	    /^pread64\(/ {
		fd = $0; sub(/^pread64\(/, "", fd); sub(/,.*/, "", fd)
		if (!(fd in fdcpu)) next
		off = $0; sub(/.*, 8, /, "", off); sub(/\).*/, "", off)
		# A register httop wrote is read back only by the restore at
		# exit (and by a conflict check), never by a refresh.
		if (off in written) next
		n++; cpu[n] = fdcpu[fd]; msr[n] = off }
	    END {
		# The last refresh: the last R reads.
		first = n - R + 1
		for (i = first; i <= n; i++) {
			k = core[cpu[i]]
			if (!(k in lo)) lo[k] = i
			hi[k] = i; own[k]++
			if (!(msr[i] in seen)) { seen[msr[i]] = 1; nm++ }
			if (!(cpu[i] in cseen)) { cseen[cpu[i]] = 1; nc++ }
		}
		for (k in lo) {
			s = hi[k] - lo[k] + 1
			if (s > span) span = s
			if (s - own[k] > foreign) foreign = s - own[k]
			if (own[k] > cr) cr = own[k]
		}
		print span + 0, foreign + 0, cr + 0, nm + 0, nm * nc
	    }' "$work/cores" "$work/trace")
	span=$1 foreign=$2 core_reads=$3 msrs=$4 turbostat=$5
fi
echo "reads=$reads writes=$writes span=$span foreign=$foreign core_reads=$core_reads msrs=$msrs turbostat=$turbostat"
