#!/usr/bin/env python3
"""replay-srun.py SRUN-ARGS...: stand in for the one job step that
`httop --via srun` starts (HTTOP_SRUN=bench/replay-srun.py,
bench/nodes-scale.sh with VIA=srun): for the nodes of its --nodelist=
it replays the recordings $REPLAY_DIR/rec-*.jsonl (node k the k-th
modulo their count, its "host" member made its own name) as ONE stream,
the way srun --label writes its tasks' lines: every $REPLAY_DELAY (1)
seconds on fixed deadlines each task's next line, cut into pieces of
1024 bytes, each piece on a line of its own after "K: " (K the task,
right-aligned to the widest), a line of exactly k pieces followed by an
empty piece. With --compact in the command, the recordings of compact
lines, $REPLAY_DIR/compact/rec-*.jsonl. Until SIGTERM (or $REPLAY_SECONDS, 100000)."""
import os
import re
import signal
import sys
import time
import glob

PIECE = 1024


def main():
    args = sys.argv[1:]
    nodes = [a.split("=", 1)[1] for a in args if a.startswith("--nodelist=")][0].split(",")
    d = os.environ["REPLAY_DIR"]
    # the viewer asked its nodes for compact lines: the recordings of them
    cmd = args[args.index("--") + 1:] if "--" in args else []
    if "--compact" in cmd:
        d = os.path.join(d, "compact")
    delay = float(os.environ.get("REPLAY_DELAY", "1"))
    seconds = float(os.environ.get("REPLAY_SECONDS", "100000"))
    recs = []
    for f in sorted(glob.glob(os.path.join(d, "rec-*.jsonl"))):
        with open(f, "rb") as fp:
            recs.append([l.rstrip(b"\n") for l in fp if l.strip()])
    if not recs:
        sys.exit("replay-srun.py: no rec-*.jsonl in " + d)
    host = re.compile(rb'"host":"[^"]*"')
    # each recorded line split around its host name once
    split = [[host.split(l, maxsplit=1) for l in r] for r in recs]
    width = len(str(len(nodes) - 1))
    labels = [str(k).rjust(width).encode() + b": " for k in range(len(nodes))]
    owns = [b'"host":"' + n.encode() + b'"' for n in nodes]
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    out = sys.stdout.buffer
    start = time.monotonic()
    step = 0
    while not stop and time.monotonic() - start < seconds:
        for k in range(len(nodes)):
            r = split[k % len(split)]
            a, b = r[step % len(r)]
            line = a + owns[k] + b
            lab = labels[k]
            parts = [lab + line[i:i + PIECE] + b"\n" for i in range(0, len(line), PIECE)]
            if len(line) % PIECE == 0:
                parts.append(lab + b"\n")
            try:
                out.write(b"".join(parts))
            except BrokenPipeError:
                return
        out.flush()
        step += 1
        left = start + step * delay - time.monotonic()
        if left > 0:
            time.sleep(left)


main()
