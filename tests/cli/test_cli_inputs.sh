#!/bin/sh
# test_cli_inputs.sh: every file httop and httop-ppc2trace read, given
# something that is not a file of the kind (a device that never ends, a
# named pipe nobody writes to, a file far too large, a line that does not
# end, NUL bytes), ends at once in one line on stderr that names the file
# and the limit, never a hang or a run that eats memory. And nothing read
# from a bad file reaches the terminal raw: control bytes come out as \xHH.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 33

PPC="$HTTOP_BUILDDIR/tools/httop-ppc2trace"
topo="$HTTOP_SRCDIR/data/demo-skx.xml"
mkfifo fifo
# Sparse files: the size is refused before a byte is read.
truncate -s 2M big2m
truncate -s 17M big17m
truncate -s 65M big65m
truncate -s 5M big5m
head -c 4096 /dev/zero >zeros
{ echo 'httop-scenario 1'; head -c 5000 /dev/zero | tr '\0' a; echo; } >longline.scn

# refused PATTERN CMD...: ended at all (a hang is killed after 60 s, a
# generous guard: a refusal takes milliseconds; exit 124/137),
# a status from 1 to 2, exactly one line on stderr holding PATTERN, and
# nothing on stdout.
refused() {
	pat=$1; shift
	timeout -s KILL 60 "$@" >out 2>err; st=$?
	if [ "$st" -ge 1 ] && [ "$st" -le 2 ] && [ "$(wc -l <err)" -eq 1 ] &&
	    grep -q -- "$pat" err && [ ! -s out ]; then
		ok "$(basename "$1") ${*#"$1"} -> $st: $pat"
	else
		not_ok "$(basename "$1") ${*#"$1"} -> exit $st, stderr: $(head -c 300 err)"
	fi
}

H="$HTTOP"
# scenario files (--sim)
refused "scenario file /dev/zero is a device" "$H" --sim /dev/zero --topology "$topo" -b -n 1
refused "scenario file fifo is a named pipe" "$H" --sim fifo --topology "$topo" -b -n 1
refused "big2m is 2097152 bytes, more than the 1 MiB" "$H" --sim big2m --topology "$topo" -b -n 1
refused "longline.scn:2: line longer than 4096 bytes" "$H" --sim longline.scn --topology "$topo" -b -n 1
refused "zeros:1: a NUL byte" "$H" --sim zeros --topology "$topo" -b -n 1
# CPUID dumps (--cpuid): /dev/zero spun in libcpuid's reader
refused "CPUID dump /dev/zero is a device" "$H" --cpuid /dev/zero --sim idle -b -n 1
refused "CPUID dump fifo is a named pipe" "$H" --cpuid fifo --sim idle -b -n 1
refused "more than the 16 MiB" "$H" --cpuid big17m --sim idle -b -n 1
refused "zeros:1: a NUL byte" "$H" --cpuid zeros --sim idle -b -n 1
# topologies (--topology)
refused "topology /dev/zero is a device" "$H" --topology /dev/zero --sim idle -b -n 1
refused "topology fifo is a named pipe" "$H" --topology fifo --sim idle -b -n 1
refused "more than the 64 MiB" "$H" --topology big65m --sim idle -b -n 1
refused "holds a NUL byte" "$H" --topology zeros --sim idle -b -n 1
# a NUMA node numbered 4294967295: hwloc sized a bitmap by it (512 MB)
sed '0,/type="NUMANode" os_index="[0-9]*"/s//type="NUMANode" os_index="4294967295"/' \
    "$topo" >numa-huge.xml
refused "numa-huge.xml:[0-9]*: an os_index above 1048576" "$H" --topology numa-huge.xml --sim idle -b -n 1
# die maps (--die-map)
refused "die map /dev/zero is a device" "$H" --demo -b -n 1 --die-map /dev/zero
refused "die map fifo is a named pipe" "$H" --demo -b -n 1 --die-map fifo
refused "more than the 4 MiB" "$H" --demo -b -n 1 --die-map big5m
# httop-ppc2trace: the counter file and the register lists
printf '0 0 0x186 0 0x43003c cycles\n' >sel.input
refused "counter file /dev/zero is a device" "$PPC" --sockets 1 --smt 1 --perfevtsel sel.input /dev/zero
refused "counter file fifo is a named pipe" "$PPC" --sockets 1 --smt 1 --perfevtsel sel.input fifo
refused "register list fifo is a named pipe" "$PPC" --sockets 1 --smt 1 --perfevtsel fifo zeros
refused "zeros:1: a NUL byte" "$PPC" --sockets 1 --smt 1 --perfevtsel sel.input zeros
printf '0 0 0x186 0\0 0x43003c cycles\n' >nul.input
refused "nul.input:1: a NUL byte" "$PPC" --sockets 1 --smt 1 --perfevtsel nul.input zeros

# A FIFO given as --sim must not leave httop waiting for a writer (none
# ever comes: a wait would last until the guard kills it, 60 s). The time
# it took is a diagnostic, not asserted (no wall time in make check).
start=$(date +%s%N)
timeout -s KILL 60 "$H" --sim fifo --topology "$topo" -b -n 1 >/dev/null 2>&1; st=$?
diag "the named pipe was refused in $(( ($(date +%s%N) - start) / 1000000 )) ms"
check "a named pipe is refused, not waited on (status $st, 1 or 2)" sh -c '[ "$1" -ge 1 ] && [ "$1" -le 2 ]' sh "$st"

# Control characters and invalid UTF-8 from a file: escaped in the message.
printf 'httop-scenario 1\ncpus 0 bu\033[2J\033]0;owned\007sy\377\n' >esc.scn
"$H" --sim esc.scn --topology "$topo" -b -n 1 >out 2>err
check "scenario message quotes the bad word escaped" grep -q 'bu\\x1b\[2J\\x1b\]0;owned\\x07sy\\xff' err
check "no ESC, BEL or 0xff byte reaches stderr" sh -c '! LC_ALL=C grep -q "$(printf "[\033\007\377]")" err'
printf 'httop-diemap 1\nname x\nnumbering tile\ngrid 1 1\nrow \033[31m\n' >esc.map
"$H" --demo -b -n 1 --die-map esc.map >out 2>err
check "die map message: ESC escaped" grep -q '\\x1b\[31m' err
check "die map message: no ESC byte" sh -c '! LC_ALL=C grep -q "$(printf "\033")" err'
printf 'GenuineIntel\033[5m\n' >esc.cpuid
"$H" --cpuid esc.cpuid --sim idle -b -n 1 >out 2>err
check "CPUID dump message: no ESC byte" sh -c '! LC_ALL=C grep -q "$(printf "\033")" err'
# A file name with a control character (it is quoted in every message)
cp zeros "$(printf 'z\033[1mz')"
"$H" --sim "$(printf 'z\033[1mz')" --topology "$topo" -b -n 1 >out 2>err
check "a file name's ESC is escaped" grep -q 'z\\x1b\[1mz' err
check "... and not written raw" sh -c '! LC_ALL=C grep -q "$(printf "\033")" err'

# Malformed topologies name the line and the cause, not "Invalid argument"
head -c 3000 "$topo" >cut.xml
"$H" --topology cut.xml --sim idle -b -n 1 >out 2>err
check "a cut topology names its line" grep -q 'cut.xml:[0-9]*: the file ends inside' err
sed 's/type="Core"/type="Kernel"/' "$topo" >badtype.xml
"$H" --topology badtype.xml --sim idle -b -n 1 >out 2>err
check "hwloc's reason is quoted" grep -q 'unrecognized object type string Kernel' err
check "... not Invalid argument" sh -c '! grep -q "Invalid argument" err'
