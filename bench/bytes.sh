#!/bin/sh
# bytes.sh: terminal bytes per refresh in steady state against a full
# repaint (bench/term-bytes.sh) for httop's live view on the fake device of
# one simulated machine, or for htop, in a W x H pane (default 200 x 60) at
# a 1 s interval.
#
#   bench/bytes.sh BUILD MACHINE|htop [REFRESHES [W H]]
#
# Last line (term-bytes.sh's): per_refresh=N full=N ratio=R
set -u
BUILD=$(cd "$1" && pwd) NAME=$2 N=${3:-10} W=${4:-200} H=${5:-60}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'fake_umount; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

if [ "$NAME" = htop ]; then
	command -v htop >/dev/null 2>&1 || { echo "htop is not installed" >&2; exit 77; }
	sh "$here/term-bytes.sh" -x "$W" -y "$H" -d 1 -n "$N" -c "htop -d 10" -m 'Tasks:' -P Z
else
	fake_mount "$NAME" --scenario demo --step 1 || exit 1
	sh "$here/term-bytes.sh" -x "$W" -y "$H" -d 1 -n "$N" -c "$HTTOP $(msr_args "$NAME") -d 1"
fi
