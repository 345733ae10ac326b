#!/bin/sh
# test_command_hangup.sh: httop -- COMMAND as the terminal's session leader
# (ssh HOST 'httop -- ./solver', a login shell's exec, a tmux pane's
# command), and the terminal goes away (the ssh connection drops, the pane
# is killed): the kernel sends SIGHUP to the session leader alone, so httop
# passes it on to the command, which ends as it would without httop, and
# httop with it. The command kept running (and httop waiting for it) after
# the hang-up: the command's process group, httop's, heard nothing.
. "$HTTOP_SRCDIR/tests/lib.sh"
need tmux tmux
# (no skip under nohup: tmux sets the pane's command's signals to their
# defaults, SIGHUP included, as a terminal's login does)
plan 3
tmp=$(mktemp -d) || exit 1
sock=httop-test-hup-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock";
    [ -n "$cpid" ] && kill "$cpid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cpid=
# The command: a sleep that notes its PID; httop is exec'd by the pane's
# shell, so it is the session leader of the pane's terminal.
cat >"$tmp/cmd.sh" <<EOS
#!/bin/sh
echo \$\$ >"$tmp/cmd.pid"
exec sleep 300
EOS
chmod +x "$tmp/cmd.sh"
tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
    "exec '$HTTOP' --source procstat -- '$tmp/cmd.sh'"
i=0
while [ ! -s "$tmp/cmd.pid" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
cpid=$(cat "$tmp/cmd.pid" 2>/dev/null)
hpid=$(ps -o ppid= -p "$cpid" 2>/dev/null | tr -d ' ')
check "the command runs under httop, the session leader (command $cpid, httop $hpid)" \
    sh -c '[ -n "$1" ] && [ -n "$2" ] && [ "$(ps -o sid= -p "$2" | tr -d " ")" = "$2" ]' sh "$cpid" "$hpid"
# The terminal goes away.
tmux -L "$sock" kill-server
# A generous did-it-end guard: it takes milliseconds.
i=0
while kill -0 "$cpid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "the hang-up ends the command" sh -c '! kill -0 "$1" 2>/dev/null' sh "$cpid"
i=0
while [ -n "$hpid" ] && kill -0 "$hpid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "... and httop with it" sh -c '[ -n "$1" ] && ! kill -0 "$1" 2>/dev/null' sh "$hpid"
[ -n "$hpid" ] && kill "$hpid" 2>/dev/null
exit 0
