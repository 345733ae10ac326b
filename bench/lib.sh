# bench/lib.sh: sourced by the bench scripts. The simulated machines, the
# FUSE fake MSR device (tests/fakemsr) and httop's msr source on it.
#
# Needs: BUILD (a build directory with src/httop and tests/fakemsr/fakemsr),
# FIXTURES (the fixtures as make check or make bench unpacks them: BUILD's
# tests/unpacked), a work directory $work made by the caller.

: "${FIXTURES:=${HTTOP_FIXTURES:-$BUILD/tests/unpacked}}"
HTTOP="$BUILD/src/httop"
FAKEMSR="$BUILD/tests/fakemsr/fakemsr"
SKX_CPUID="$FIXTURES/cpuid/skx-8180-2s-28c-ht.cpuid.txt"

# The machines: name, logical CPUs, topology, CPU identity. 2 and 1024 are
# hwloc synthetic topologies (made by machine_xml); the Skylake-SP dump
# gives them the skx counter plan. No KNL CPUID dump exists in the
# fixtures: the KNL identity comes from the topology's own CPU attributes.
MACHINES="syn2 skx96 knl272 syn1024"
machine_cpus() {
	case $1 in syn2) echo 2 ;; skx96) echo 96 ;; knl272) echo 272 ;; syn1024) echo 1024 ;; esac
}
machine_desc() {
	case $1 in
	syn2) echo "synthetic 1 x 1 x 2" ;;
	skx96) echo "SKX 8168 2 x 24 x 2" ;;
	knl272) echo "KNL 7250 68 x 4" ;;
	syn1024) echo "synthetic 4 x 128 x 2" ;;
	esac
}

# machine_xml NAME: the topology file (synthetic ones generated into $work).
machine_xml() {
	case $1 in
	syn2 | syn1024)
		f="$work/$1.xml"
		if [ ! -s "$f" ]; then
			if [ "$1" = syn2 ]; then s="package:1 core:1 pu:2"; else s="package:4 core:128 pu:2"; fi
			lstopo -i "$s" --of xml "$f" 2>/dev/null || { echo "lstopo failed for $s" >&2; return 1; }
		fi
		echo "$f" ;;
	skx96) echo "$FIXTURES/hwloc/skx-8168-2s-24c-ht.v1.xml" ;;
	knl272) echo "$FIXTURES/hwloc/knl-7250-68c-4t-flat-quadrant.xml" ;;
	esac
}

# machine_args NAME: --topology and --cpuid, as both httop and fakemsr take them.
machine_args() {
	x=$(machine_xml "$1") || return 1
	case $1 in
	knl272) echo "--topology $x" ;;
	*) echo "--topology $x --cpuid $SKX_CPUID" ;;
	esac
}

mnt=
# fake_mount NAME [fakemsr options]: a fresh fake device for machine NAME
# (fresh, so its virtual clock and counters start the same every time).
fake_mount() {
	name=$1
	shift
	fake_umount
	mnt=$(mktemp -d "$work/mnt.XXXXXX") || return 1
	# shellcheck disable=SC2046
	if ! "$FAKEMSR" "$mnt" $(machine_args "$name") "$@" 2>"$work/fakemsr.err" ||
	    [ ! -e "$mnt/ctl" ]; then
		echo "cannot mount the fake MSR device (needs root and /dev/fuse): $(cat "$work/fakemsr.err")" >&2
		rmdir "$mnt" 2>/dev/null
		mnt=
		return 1
	fi
}

fake_umount() {
	if [ -n "$mnt" ]; then
		fusermount3 -u "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
		rmdir "$mnt" 2>/dev/null
		mnt=
	fi
}

# ctl COMMAND: one command to the device, its answer.
ctl() {
	printf '%s\n' "$*" >"$mnt/ctl" && cat "$mnt/ctl"
}

# msr_args NAME: httop's arguments for the msr source on the mounted device.
msr_args() {
	echo "--source msr --msr-path $mnt/%u/msr $(machine_args "$1")"
}

calc() { awk "BEGIN { print ($1) }"; }

# callgrind_incl FILE FUNC...: inclusive instructions of each function (0
# when it never ran), one a line.
callgrind_incl() {
	f=$1
	shift
	callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$f" 2>/dev/null >"$f.txt"
	for fn in "$@"; do
		awk -v fn="$fn" '
		    $0 ~ ("[:]" fn " \\[") || $0 ~ ("PROGRAM TOTALS") && fn == "TOTAL" {
			v = $1; gsub(/,/, "", v); print v; found = 1; exit }
		    END { if (!found) print 0 }' "$f.txt"
	done
}

# A private tmux server for the screen measurements, a new one for every
# pane: a server started on the socket of one still shutting down can
# fail, and then no pane runs at all. (The counter lives in this shell:
# callers run pane_start in their own shell, not in $(...).)
tstarts=0
tsock=httop-bench-$$-0
tm() { tmux -L "$tsock" "$@"; }
# The server, and the socket tmux may leave in /tmp/tmux-UID.
tm_stop() {
	tm kill-server >/dev/null 2>&1
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$tsock"
}

# pane_start W H COMMAND: run the shell command line in a detached W x H
# pane, with LANG=C.UTF-8 TERM=screen-256color and a private
# XDG_CONFIG_HOME; $work/pane.t0 gets the time (s) just before the
# command's exec, $work/pane.pid its PID, $work/pane.done its exit.
pane_start() {
	w=$1 h=$2
	shift 2
	tm_stop
	tstarts=$((tstarts + 1))
	tsock=httop-bench-$$-$tstarts
	rm -f "$work/pane.t0" "$work/pane.pid" "$work/pane.done" "$work/go"
	mkdir -p "$work/config"
	cat >"$work/pane.sh" <<EOF2
#!/bin/sh
cd '$work' || exit 1
while [ ! -f go ]; do sleep 0.02; done
export XDG_CONFIG_HOME='$work/config' LANG=C.UTF-8 TERM=screen-256color
sh -c 'echo \$\$ >pane.pid; date +%s.%N >pane.t0; exec $*'
echo \$? >pane.done
exec sleep 3600
EOF2
	chmod +x "$work/pane.sh"
	if ! tm -f /dev/null new-session -d -s b -x "$w" -y "$h" "$work/pane.sh"; then
		echo "tmux could not start a pane (socket $tsock)" >&2
		return 1
	fi
	tm set-option -g status off >/dev/null
	tm resize-window -t b -x "$w" -y "$h" >/dev/null 2>&1
	return 0
}
pane_go() { touch "$work/go"; }
cap() { tm capture-pane -p -t b 2>/dev/null; }
# pane_wait_done SECONDS: until the command has exited.
pane_wait_done() {
	n=$(($1 * 10))
	while [ ! -f "$work/pane.done" ] && [ $n -gt 0 ]; do
		# The pane gone without a word: do not wait out the time.
		if ! tm has-session -t b 2>/dev/null; then
			sleep 0.2
			break
		fi
		sleep 0.1
		n=$((n - 1))
	done
	[ -f "$work/pane.done" ]
}
