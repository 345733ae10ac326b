#!/usr/bin/env python3
"""replay-nodes.py DIR DELAY SECONDS NAME... : stand in for many nodes'
httop -b --format json by replaying recorded JSON streams (httop --nodes
--via 'bench/replay-node DIR %h', bench/nodes-scale.sh).

DIR holds the recordings, rec-*.jsonl (any number: node k replays the
k-th modulo their count, its "host" member made its own name). For each
NAME this makes the FIFO DIR/NAME and, every DELAY seconds on fixed
deadlines, writes the node's next line to it (from the start again at
the end), for SECONDS seconds or until SIGTERM. One process serves every
node: a node costs the viewer its pipe and a `cat` (bench/replay-node),
not a Python interpreter. A FIFO is held open for reading and writing,
so a line written before its reader comes waits in the pipe; a pipe that
is full (its reader gone or slow) drops that node's line."""
import fcntl
import glob
import os
import re
import signal
import sys
import time


def main():
    d, delay, seconds, names = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
    recs = []
    for f in sorted(glob.glob(os.path.join(d, "rec-*.jsonl"))):
        with open(f, "rb") as fp:
            recs.append([l.rstrip(b"\n") for l in fp if l.strip()])
    if not recs:
        sys.exit("replay-nodes.py: no rec-*.jsonl in " + d)
    host = re.compile(rb'"host":"[^"]*"')
    lines, fds = [], []
    for k, name in enumerate(names):
        own = b'"host":"' + name.encode() + b'"'
        lines.append([host.sub(own, l, count=1) + b"\n" for l in recs[k % len(recs)]])
        path = os.path.join(d, name)
        if not os.path.exists(path):
            os.mkfifo(path)
        fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        try:
            fcntl.fcntl(fd, 1031, 1 << 20)     # F_SETPIPE_SZ: a line fits whole
        except OSError:
            pass
        fds.append(fd)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    start = time.monotonic()
    step = 0
    while not stop and time.monotonic() - start < seconds:
        for k, fd in enumerate(fds):
            line = lines[k][step % len(lines[k])]
            try:
                n = os.write(fd, line)
                # a line cut by a full pipe is finished at once, blocking
                # briefly, so the reader never sees half a line
                give_up = time.monotonic() + 1.0
                while n < len(line) and time.monotonic() < give_up:
                    try:
                        n += os.write(fd, line[n:])
                    except BlockingIOError:
                        time.sleep(0.001)
            except BlockingIOError:
                pass
        step += 1
        left = start + step * delay - time.monotonic()
        if left > 0:
            time.sleep(left)


main()
