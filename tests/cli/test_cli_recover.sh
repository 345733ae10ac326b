#!/bin/sh
# test_cli_recover.sh: the same as test_fakemsr_recover.sh's first part
# without FUSE: plain sparse files as the MSR devices of a Skylake-SP
# (skx-6140 topology, 6154 CPUID, 72 CPUs; pread/pwrite at offset = MSR
# index). httop is killed with SIGKILL while its counters are programmed;
# the next run puts back exactly what was there before (every file all
# zeros again) from the killed run's saved state, and removes the state.
. "$HTTOP_SRCDIR/tests/lib.sh"
need od od
tmp=$(mktemp -d) || exit 1
bg_pid=
cleanup() {
	if [ -n "$bg_pid" ]; then
		kill -KILL "$bg_pid" 2>/dev/null
		wait "$bg_pid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
plan 9

XML="$HTTOP_FIXTURES/hwloc/skx-6140-2s-18c-ht.x86.xml"
CPUID="$HTTOP_FIXTURES/cpuid/skx-6154-2s-18c-ht.cpuid.txt"
c=0
while [ $c -lt 72 ]; do
	mkdir -p "$tmp/dev/$c"
	truncate -s 4096 "$tmp/dev/$c/msr" || exit 1
	c=$((c + 1))
done
truncate -s 4096 "$tmp/zero"
HTTOP_STATE_DIR="$tmp/state"
export HTTOP_STATE_DIR
mkdir -m 700 "$HTTOP_STATE_DIR"
hargs="--source msr --msr-path $tmp/dev/%u/msr --topology $XML --cpuid $CPUID"

# evtsel CPU: PERFEVTSEL0 of the CPU, as hex.
evtsel() {
	od -A n -t x8 -j 390 -N 8 "$tmp/dev/$1/msr" | tr -d ' '
}

# shellcheck disable=SC2086
"$HTTOP" $hargs -b -n 1000 -d 0.2 --format json >"$tmp/out" 2>"$tmp/err" &
bg_pid=$!
i=0
while [ $i -lt 200 ] && [ "$(evtsel 0)" != 000000000063013c ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.3
check "httop runs with PERFEVTSEL0 0x63013c on CPU 0" kill -0 "$bg_pid"
kill -KILL "$bg_pid"
wait "$bg_pid" 2>/dev/null
killed=$bg_pid
bg_pid=
check "killed with SIGKILL, it left PERFEVTSEL0 0x63013c" test "$(evtsel 0)" = 000000000063013c
check "... and its saved state" test -s "$(ls "$HTTOP_STATE_DIR"/msr-"$killed"-* 2>/dev/null)"

# shellcheck disable=SC2086
"$HTTOP" $hargs -b -n 1 -d 0.2 --format json >"$tmp/out" 2>"$tmp/err"
st=$?
sed 's/^/# /' "$tmp/err"
check "the next run works (status $st)" test "$st" -eq 0
check "it says what it put back, naming the killed httop" \
	grep -q "^httop: put back 180 registers that httop (pid $killed), killed" "$tmp/err"
bad=0
c=0
while [ $c -lt 72 ]; do
	cmp -s "$tmp/zero" "$tmp/dev/$c/msr" || bad=$((bad + 1))
	c=$((c + 1))
done
check "every register is back to 0, as before the killed run ($bad CPUs differ)" test "$bad" -eq 0
check "no state is left" test -z "$(ls "$HTTOP_STATE_DIR")"

# Killed again; its devices then go away (a fake device unmounted): a run
# on other devices removes that state and touches nothing of it.
# shellcheck disable=SC2086
"$HTTOP" $hargs -b -n 1000 -d 0.2 --format json >"$tmp/out" 2>"$tmp/err" &
bg_pid=$!
i=0
while [ $i -lt 200 ] && [ "$(evtsel 0)" != 000000000063013c ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -KILL "$bg_pid"
wait "$bg_pid" 2>/dev/null
bg_pid=
mv "$tmp/dev" "$tmp/dev2"
# shellcheck disable=SC2086
"$HTTOP" --source msr --msr-path "$tmp/dev2/%u/msr" --topology "$XML" --cpuid "$CPUID" \
    --restore >"$tmp/out" 2>"$tmp/err"
st=$?
sed 's/^/# /' "$tmp/err"
check "httop --restore on other devices works (status $st)" test "$st" -eq 0
check "... and removes the state of the devices that are gone" \
	test -z "$(ls "$HTTOP_STATE_DIR")"
exit 0
