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
not a Python interpreter.

A node's stream begins with its first line when its reader comes (the
FIFO is opened for writing within 20 ms of the reader's open), and begins
again with its first line when a new reader comes after the last went
(the write end reports the reader gone within 20 ms; what the pipe held
goes with it): the viewer that starts a node again gets what a fresh
httop on a real node gives, a compact stream's first line with its
core_list, never the middle of the old stream, whose lines carry none. A
pipe that is full (its reader slow) drops that node's line."""
import errno
import fcntl
import glob
import os
import re
import select
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
    n = len(names)
    lines, paths = [], []
    for k, name in enumerate(names):
        own = b'"host":"' + name.encode() + b'"'
        lines.append([host.sub(own, l, count=1) + b"\n" for l in recs[k % len(recs)]])
        path = os.path.join(d, name)
        if not os.path.exists(path):
            os.mkfifo(path)
        paths.append(path)
    fds = [None] * n          # the write end, while the node has a reader
    pos = [0] * n             # the node's next line
    since = [0] * n           # the step at which its reader came
    of_fd = {}
    gone = select.poll()      # the write ends: POLLERR when the reader went
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))

    def drop(k):
        gone.unregister(fds[k])
        del of_fd[fds[k]]
        os.close(fds[k])
        fds[k] = None

    def send(k):
        if not write_line(fds[k], lines[k][pos[k] % len(lines[k])]):
            drop(k)
            return
        pos[k] += 1

    def readers():
        """Nodes whose reader went: closed; nodes whose reader came:
        opened, their stream from its first line."""
        for fd, ev in gone.poll(0):
            if ev & (select.POLLERR | select.POLLHUP) and fd in of_fd:
                drop(of_fd[fd])
        for k in range(n):
            if fds[k] is not None:
                continue
            try:
                fd = os.open(paths[k], os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:
                if e.errno == errno.ENXIO:     # no reader yet
                    continue
                raise
            try:
                fcntl.fcntl(fd, 1031, 1 << 20)     # F_SETPIPE_SZ: a line fits whole
            except OSError:
                pass
            fds[k] = fd
            of_fd[fd] = k
            gone.register(fd, 0)
            pos[k] = 0
            since[k] = step[0]
            send(k)

    start = time.monotonic()
    step = [0]
    while not stop and time.monotonic() - start < seconds:
        readers()
        # one line a step: a node whose first line has just gone out
        # has its next at the next step
        for k in range(n):
            if fds[k] is not None and since[k] < step[0]:
                send(k)
        step[0] += 1
        while not stop:
            left = start + step[0] * delay - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(left, 0.02))
            readers()


def write_line(fd, line):
    """False when the reader has gone."""
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
    except BrokenPipeError:
        return False
    return True


main()
