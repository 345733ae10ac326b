#!/bin/sh
# test_fakemsr_hangup.sh: the live view on the fake MSR device of a
# Skylake-SP loses its terminal: the tmux server is killed under it, or the
# ssh client of the session it runs in is killed (kill -9), with SIGHUP
# delivered or ignored (nohup). Each time httop ends with status 129, as
# for SIGHUP (a live view that missed the hang-up would run on: the wait
# for it is a generous guard of 30 s, not a timing), and every register is
# back to its value before httop.
# The ssh part runs a private sshd on a loopback port, as root; it is
# skipped (with the reason) where sshd or ssh is not installed.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

if ! command -v tmux >/dev/null 2>&1; then
	skip_all "tmux is not installed (Debian: tmux)"
fi
plan 11

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --realtime
ctl dump >"$work/before"
sock=httop-hangup-$$
sshd_pid=
cleanup_more() {
	tmux -L "$sock" kill-server >/dev/null 2>&1; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null
	fake_cleanup
}
trap cleanup_more EXIT

# The command a terminal runs: httop's PID and exit status go to files,
# written by a shell that outlives the hang-up (its trap catches SIGHUP,
# so httop starts with SIGHUP at its default; "nohup" ignores it instead).
wrapper() {
	how=$1
	cat >"$work/run.sh" <<EOF
#!/bin/sh
cd '$work' || exit 1
rm -f pid status
trap ': hangup' HUP
$( [ "$how" = nohup ] && echo "trap '' HUP" )
'$HTTOP' --source msr --msr-path '$mnt/%u/msr' --topology '$SKX_XML' \\
    --cpuid '$SKX_CPUID' -d 0.2 2>stderr &
p=\$!
echo \$p >pid
# A trapped SIGHUP cuts wait short (status 129): wait until httop is gone.
wait \$p; st=\$?
while kill -0 \$p 2>/dev/null; do wait \$p; st=\$?; done
echo \$st >status.tmp && mv status.tmp status
EOF
	chmod +x "$work/run.sh"
	ctl clearlog >/dev/null
}

# ended DESC: httop ended (guard: 30 s) with status 129, registers back.
ended() {
	i=0
	while [ ! -f "$work/status" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	st=$(cat "$work/status" 2>/dev/null)
	if [ "$st" = 129 ]; then
		ok "$1: httop ended with status 129"
	else
		not_ok "$1: httop ended with status 129 (status '${st:-none}' after 30 s)"
		pid=$(cat "$work/pid" 2>/dev/null)
		[ -n "$pid" ] && ps -o pid,stat,pcpu,etime,cmd -p "$pid" | sed 's/^/# /'
		[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
		sed 's/^/# stderr: /' "$work/stderr" 2>/dev/null
	fi
	ctl dump >"$work/after"
	if cmp -s "$work/before" "$work/after"; then
		ok "$1: every register is back to its value before httop"
	else
		not_ok "$1: every register is back to its value before httop"
		diff "$work/before" "$work/after" | sed 's/^/# /'
	fi
}

# running: the main plan is programmed and httop is alive.
running() {
	i=0
	while [ ! -s "$work/pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	wait_log "0x186 0x63013c" >/dev/null 2>&1
	sleep 0.5
	kill -0 "$(cat "$work/pid" 2>/dev/null)" 2>/dev/null
}

for how in sighup nohup; do
	wrapper $how
	tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "$work/run.sh"
	if running; then
		tmux -L "$sock" kill-server
		ended "tmux server killed ($how)"
	else
		not_ok "tmux ($how): httop did not start"; skip "not started"
		sed 's/^/# stderr: /' "$work/stderr" 2>/dev/null
	fi
done

# --- ssh: a private sshd on 127.0.0.1, a key made here, kill -9 of ssh. ---
sshd=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$sshd" ] || ! command -v ssh >/dev/null 2>&1 ||
    ! command -v ssh-keygen >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6 7; do skip "ssh or sshd is not installed (openssh-client, openssh-server)"; done
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	for i in 1 2 3 4 5 6 7; do skip "the private sshd needs root"; done
	exit 0
fi
mkdir -p "$work/ssh" /run/sshd 2>/dev/null
chmod 700 "$work/ssh"
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/host" && ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/user" &&
    cp "$work/ssh/user.pub" "$work/ssh/authorized_keys" && chmod 600 "$work/ssh/authorized_keys"
port=$((20000 + $$ % 20000))
cat >"$work/ssh/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $work/ssh/host
AuthorizedKeysFile $work/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $work/ssh/sshd.pid
EOF
"$sshd" -D -e -f "$work/ssh/sshd_config" 2>"$work/ssh/log" &
sshd_pid=$!
sshopts="-F /dev/null -p $port -i $work/ssh/user -o BatchMode=yes -o StrictHostKeyChecking=no
    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
i=0
# shellcheck disable=SC2086
until ssh $sshopts root@127.0.0.1 true 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 50 ]; then
		not_ok "the private sshd answers"
		sed 's/^/# sshd: /' "$work/ssh/log"
		exit 1
	fi
	sleep 0.1
done
ok "the private sshd answers on 127.0.0.1:$port"
ok "ssh logs in with the test's key"

for how in sighup nohup; do
	wrapper $how
	# ssh -tt: a terminal on the far side, as a user's interactive ssh has.
	# shellcheck disable=SC2086
	ssh -tt $sshopts root@127.0.0.1 "TERM=xterm $work/run.sh" </dev/null >"$work/ssh.out" 2>&1 &
	ssh_pid=$!
	if running; then
		kill -KILL "$ssh_pid"
		wait "$ssh_pid" 2>/dev/null
		ended "ssh client killed ($how)"
	else
		not_ok "ssh ($how): httop did not start"; skip "not started"
		kill -KILL "$ssh_pid" 2>/dev/null
		sed 's/^/# stderr: /' "$work/stderr" 2>/dev/null
	fi
done
# ssh, tmux and the fake device's user: none of httop is left.
sleep 0.2
if pgrep -f "msr-path $mnt" >/dev/null; then
	not_ok "no httop is left running"
	pgrep -af "msr-path $mnt" | sed 's/^/# /'
else
	ok "no httop is left running"
fi
exit 0
