#!/usr/bin/env python3
"""replay-srun.py SRUN-ARGS...: stand in for the one job step that
`httop --via srun` starts (HTTOP_SRUN=bench/replay-srun.py,
bench/nodes-scale.sh with VIA=srun): for the nodes of its --nodelist=
it replays the recordings $REPLAY_DIR/rec-*.jsonl (node k the k-th
modulo their count, its "host" member made its own name) as ONE stream,
the way srun --label writes its tasks' lines: every -d of the command
(the nodes' refresh; $REPLAY_DELAY when set, else 1) seconds on fixed
deadlines each task's next line, cut into pieces of
1024 bytes, each piece on a line of its own after "K: " (K the task,
right-aligned to the widest), a line of exactly k pieces followed by an
empty piece. With --compact in the command, the recordings of compact
lines, $REPLAY_DIR/compact/rec-*.jsonl. Until SIGTERM (or $REPLAY_SECONDS, 100000).

Each line's "unix_time" is made the step's time on this machine's clock
(the same for every task of a step), as nodes started together with
synchronised clocks stamp their intervals: the viewer places them by
their stamps, not by when it read them (the recordings' own stamps are
of 2024, which the viewer takes as clocks far off). The first line of
every task goes out at once; a real node's comes -d after its start.

$REPLAY_STATS, when set, is a file written at the end with one line
"steps=N late=M worst=S": the steps replayed, how many of them had not
been written whole by the next step's deadline (the replayer or its
reader, whose full pipe blocks it, could not keep up), and the longest
step's writing time in seconds."""
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
    delay = 1.0
    if "-d" in cmd[:-1]:
        delay = float(cmd[cmd.index("-d") + 1])
    delay = float(os.environ.get("REPLAY_DELAY", delay))
    seconds = float(os.environ.get("REPLAY_SECONDS", "100000"))
    recs = []
    for f in sorted(glob.glob(os.path.join(d, "rec-*.jsonl"))):
        with open(f, "rb") as fp:
            recs.append([l.rstrip(b"\n") for l in fp if l.strip()])
    if not recs:
        sys.exit("replay-srun.py: no rec-*.jsonl in " + d)
    host = re.compile(rb'"host":"[^"]*"')
    stamp = re.compile(rb'"unix_time":[-+.0-9eE]*')
    # each recorded line split around its stamp and its host name once

    def cut(line):
        a, b = host.split(line, maxsplit=1)
        a = stamp.split(a, maxsplit=1)
        if len(a) != 2:
            sys.exit("replay-srun.py: a line without \"unix_time\" before \"host\"")
        return a[0], a[1], b
    split = [[cut(l) for l in r] for r in recs]
    width = len(str(len(nodes) - 1))
    labels = [str(k).rjust(width).encode() + b": " for k in range(len(nodes))]
    owns = [b'"host":"' + n.encode() + b'"' for n in nodes]
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    out = sys.stdout.buffer
    start = time.monotonic()
    wall = time.time()
    step = late = 0
    worst = 0.0
    while not stop and time.monotonic() - start < seconds:
        t = b'"unix_time":%.6f' % (wall + step * delay)
        for k in range(len(nodes)):
            r = split[k % len(split)]
            a, m, b = r[step % len(r)]
            line = a + t + m + owns[k] + b
            lab = labels[k]
            parts = [lab + line[i:i + PIECE] + b"\n" for i in range(0, len(line), PIECE)]
            if len(line) % PIECE == 0:
                parts.append(lab + b"\n")
            try:
                out.write(b"".join(parts))
            except BrokenPipeError:
                return stats(step, late, worst)
        try:
            out.flush()
        except BrokenPipeError:
            return stats(step, late, worst)
        took = time.monotonic() - (start + step * delay)
        worst = max(worst, took)
        step += 1
        if start + step * delay < time.monotonic():
            late += 1
        # a SIGTERM ends the wait within 0.1 s
        while not stop and time.monotonic() < start + step * delay:
            time.sleep(min(0.1, start + step * delay - time.monotonic()))
    stats(step, late, worst)


def stats(steps, late, worst):
    path = os.environ.get("REPLAY_STATS")
    if path:
        with open(path, "w") as f:
            f.write("steps=%d late=%d worst=%.3f\n" % (steps, late, worst))


main()
