#!/bin/sh
# test_nodes_ssh.sh: httop --nodes --via ssh against a real sshd that the
# test starts on loopback addresses 127.0.0.2-4, each answering as its own
# host (h1, h2, h3) with its own simulated load: sshd's ForceCommand runs
# the httop ssh asked for (SSH_ORIGINAL_COMMAND, so the words went through
# the remote shell's quoting) with that host's --host and --sim. Checked:
# the merged JSON against each host's own output, the summary's job line,
# the live view's rows and job figures (tmux), a node nothing answers for
# (ssh's own message), and that sshd and every ssh are gone afterwards,
# also when a check fails (traps).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
sshd=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$sshd" ] || ! command -v ssh >/dev/null 2>&1 || ! command -v ssh-keygen >/dev/null 2>&1; then
	skip_all "openssh-server and openssh-client are not installed"
fi
tmp=$(mktemp -d) || exit 1
sshd_pid=
cleanup() {
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
	tui_kill
	rm -rf "$tmp" "$tui_dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
plan 11
cap_re() { cap | grep -Eq -- "$1"; }

data=$HTTOP_SRCDIR/data
port=$((20000 + $$ % 20000))
user=$(id -un)
ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey" && ssh-keygen -q -t ed25519 -N '' -f "$tmp/id" &&
    cp "$tmp/id.pub" "$tmp/authorized_keys" || exit 1
# The forced command: the httop that ssh asked for, as this address's host;
# for a fixed count (-n) on the test clock, so that its figures are exact
# and the same as the host's own run (sshd gives it a clean environment).
cat >"$tmp/node.sh" <<EOF2
#!/bin/sh
case "\$SSH_ORIGINAL_COMMAND" in *" -n "*) export HTTOP_CLOCK=virtual ;; esac
eval "exec \$SSH_ORIGINAL_COMMAND --host \$1 --sim \$2 --topology '$data/demo-skx.xml' --cpuid '$data/demo-skx.cpuid'"
EOF2
chmod 755 "$tmp/node.sh" "$tmp"
cat >"$tmp/sshd_config" <<EOF2
Port $port
ListenAddress 127.0.0.2
ListenAddress 127.0.0.3
ListenAddress 127.0.0.4
HostKey $tmp/hostkey
PidFile $tmp/sshd.pid
AuthorizedKeysFile $tmp/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin yes
LogLevel ERROR
Match LocalAddress 127.0.0.2
	ForceCommand $tmp/node.sh h1 busy
Match LocalAddress 127.0.0.3
	ForceCommand $tmp/node.sh h2 one-per-core
Match LocalAddress 127.0.0.4
	ForceCommand $tmp/node.sh h3 idle
EOF2
cat >"$tmp/ssh_config" <<EOF2
Host h1
	HostName 127.0.0.2
Host h2
	HostName 127.0.0.3
Host h3
	HostName 127.0.0.4
Host h4
	HostName 127.0.0.5
Host *
	Port $port
	User $user
	IdentityFile $tmp/id
	IdentitiesOnly yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
EOF2
# httop's ssh (HTTOP_SSH): the system's, with this configuration.
cat >"$tmp/ssh" <<EOF2
#!/bin/sh
exec ssh -F $tmp/ssh_config "\$@"
EOF2
chmod +x "$tmp/ssh"
[ "$(id -u)" -eq 0 ] && mkdir -p /run/sshd && chmod 755 /run/sshd
"$sshd" -D -e -f "$tmp/sshd_config" 2>"$tmp/sshd.log" &
sshd_pid=$!
i=0
until "$tmp/ssh" -o BatchMode=yes h1 true 2>/dev/null; do
	i=$((i + 1))
	if [ $i -ge 50 ] || ! kill -0 "$sshd_pid" 2>/dev/null; then
		sed 's/^/# sshd: /' "$tmp/sshd.log"
		for i in $(seq 11); do skip "sshd did not start on 127.0.0.2-4:$port"; done
		exit 0
	fi
	sleep 0.1
done
export HTTOP_SSH=$tmp/ssh HTTOP_HOSTLIST=builtin HTTOP_CLOCK=
cd "$tmp" || exit 1

# 1-3: the merged JSON stream; each host's lines against its own output
"$HTTOP" --nodes 'h[1-3]' --via ssh --remote-httop "$HTTOP" -b -n 2 -d 1 >merged.jsonl 2>err.txt
st=$?
check "three nodes over ssh, -n 2: exit 0 ($st)" [ "$st" -eq 0 ]
check "six lines, each host twice" [ "$(wc -l <merged.jsonl)" -eq 6 -a \
    "$(grep -c '"host":"h3"' merged.jsonl)" -eq 2 ]
for h in h1:busy h2:one-per-core h3:idle; do
	HTTOP_CLOCK=virtual "$HTTOP" --host "${h%%:*}" --sim "${h#*:}" --topology "$data/demo-skx.xml" \
	    --cpuid "$data/demo-skx.cpuid" -b --format json -n 2 -d 1 >"own-${h%%:*}.jsonl" 2>/dev/null
done
if python3 - merged.jsonl own-h1.jsonl own-h2.jsonl own-h3.jsonl >cmp.out 2>&1 <<'PY'
import json, sys
# Steady loads: every figure is the same in every interval and run; the
# times are not (real time over ssh).
keys = ("neither", "t0_only", "t1_only", "both", "util", "active_threads", "ghz", "cpi",
        "both_of_busy", "ncores", "nvalid")
def figs(r):
    return ([r["node"][k] for k in keys], [[c[k] for k in ("util", "both", "cpi")]
            for c in r["cores"]], r["source"], r["split"])
merged = [json.loads(l) for l in open(sys.argv[1])]
for f in sys.argv[2:]:
    own = [figs(json.loads(l)) for l in open(f)]
    host = json.loads(open(f).readline())["host"]
    mine = [figs(r) for r in merged if r["host"] == host]
    assert mine == own, (host, mine[:1], own[:1])
print("ok")
PY
then ok "each host's figures over ssh are its own output's"
else not_ok "merged against own: $(tail -3 cmp.out)"; fi

# 4: the summary's job line (h1 busy, h2 a thread a core, h3 idle: see
# test_nodes.sh for the working): util 66.7, both/busy 50.0, 1.50, 3.00, 0.67.
# The nodes run on the test clock, whose stamps (2024) are far from this
# viewer's: each is placed by when its lines come, so a node whose ssh and
# httop start half an interval later than the others' (a loaded CI
# machine) has its two intervals in the job's second and third: then the
# first and last job lines say which node is missing. Every job line
# with all three nodes has the figures; one at least has all three.
"$HTTOP" --nodes 'h[1-3]' --via ssh --remote-httop "$HTTOP" --format summary -n 2 -d 1 \
    >sum.txt 2>/dev/null
whole=$(grep '^job ' sum.txt | awk '$4 == 1 { print $4, $5, $6, $7, $8, $9 }' | sort -u)
part=$(grep '^job ' sum.txt | awk '$4 != 1' | grep -vc 'nodes missing: ')
check "the job's line over ssh: $(grep '^job' sum.txt | tr -s ' ' | tr '\n' '|')" \
    [ "$whole|$part" = "1 66.7 50.0 1.50 3.00 0.67|0" ]

# 5-6: a node nothing answers for: ssh's message, the status
"$HTTOP" --nodes 'h1,h4' --via ssh --remote-httop "$HTTOP" --format summary -n 2 -d 0.2 \
    >h4.txt 2>h4.err
st=$?
check "h4 gave nothing: exit 1 ($st)" [ "$st" -eq 1 ]
check "the reason is ssh's: $(grep h4 h4.err | head -1)" \
    grep -Eq 'node h4: ssh: connect to host 127.0.0.5 port [0-9]+: Connection refused \(exit status 255\)' h4.err

# 7-9: the live view over ssh
tui_start 160 40 HTTOP_SSH="$tmp/ssh" HTTOP_HOSTLIST=builtin HTTOP_CLOCK= -- \
    --nodes 'h[1-3]' --via ssh --remote-httop "$HTTOP" -d 1
wait_for '3 nodes: 3 up' 20
check "the live view: 3 nodes, 3 up" cap_re '3 nodes: 3 up'
wait_for '^job .*util 66.7%.*both threads 50.0% of busy core time' 10
check "h1's row is h1's own: 100.0 2.00 3.00 0.50 100.0" \
    cap_re '^h1 +up .* 100\.0 +2\.00 +3\.00 +0\.50 +100\.0'
check "the job's figures: util 66.7%, both threads 50.0% of busy core time" \
    cap_re '^job .*util 66.7%.*both threads 50.0% of busy core time'
keys q
tui_wait_exit 10
tui_stop

# 10-11: nothing of the run is left; sshd is stopped by the trap
sleep 0.3
check "no ssh of httop's is left" [ "$(pgrep -f "ssh -F $tmp/ssh_config" | wc -l)" -eq 0 ]
kill "$sshd_pid" && wait "$sshd_pid" 2>/dev/null
check "sshd stopped" sh -c "! kill -0 $sshd_pid 2>/dev/null"
sshd_pid=
exit 0
