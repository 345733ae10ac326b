#!/usr/bin/env python3
"""fake-srun.py ARGS...: a stand-in for srun in the tests (HTTOP_SRUN),
for the one job step httop starts for many nodes: it takes --nodelist=
A,B,... and the command after "--", runs the command once per node as
that node (tests/nodes/as-host.sh HOST COMMAND..., with the node's load
from $NODES_LOADS) and writes what the tasks write as srun --label does
(Slurm 22.05): each line cut into pieces of 1024 bytes, each piece on a
line of its own after "K: " (K the task, right-aligned to the widest),
a line of exactly k pieces followed by an empty piece; a task's standard
error labelled the same way on standard error; a task that fails said
as "srun: error: HOST: task K: Exited with exit code X". SIGTERM is
passed on to every task. Each start is logged (its node list) to
$SRUN_LOG when it is set. The command's "--job ID" is left out (there
is no Slurm here: each task watches its whole simulated node). Each task
has SLURMD_NODENAME, its node's name, in its environment, as under
slurmstepd."""
import os
import selectors
import signal
import subprocess
import sys

PIECE = 1024


def main():
    args = sys.argv[1:]
    cmd = args[args.index("--") + 1:]
    # no Slurm here: the tasks watch the whole (simulated) node
    if "--job" in cmd:
        i = cmd.index("--job")
        del cmd[i:i + 2]
    nodes = [a.split("=", 1)[1] for a in args if a.startswith("--nodelist=")][0].split(",")
    log = os.environ.get("SRUN_LOG")
    if log:
        with open(log, "a") as f:
            f.write(",".join(nodes) + "\n")
    host_sh = os.path.join(os.path.dirname(os.path.abspath(__file__)), "as-host.sh")
    width = len(str(len(nodes) - 1))
    # each task knows its node by Slurm's name, as slurmstepd tells it
    tasks = [subprocess.Popen([host_sh, h] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL,
                              env=dict(os.environ, SLURMD_NODENAME=h)) for h in nodes]

    def term(sig, frame):
        for t in tasks:
            if t.poll() is None:
                t.send_signal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, term)
    sel = selectors.DefaultSelector()
    part = {}
    for k, t in enumerate(tasks):
        sel.register(t.stdout, selectors.EVENT_READ, (k, 1))
        sel.register(t.stderr, selectors.EVENT_READ, (k, 2))
        part[(k, 1)] = part[(k, 2)] = b""
    open_fds = 2 * len(tasks)
    left = [2] * len(tasks)
    status = [0]

    def ended(k):
        rc = tasks[k].wait()
        if rc != 0:
            msg = ("Exited with exit code %d" % rc) if rc > 0 else ("Killed by signal %d" % -rc)
            os.write(2, b"srun: error: %s: task %d: %s\n" % (nodes[k].encode(), k, msg.encode()))
            status[0] = 1

    def emit(fd, k, line):
        label = str(k).rjust(width).encode() + b": "
        out = b""
        while len(line) >= PIECE:
            out += label + line[:PIECE] + b"\n"
            line = line[PIECE:]
        out += label + line + b"\n"
        os.write(fd, out)
    while open_fds > 0:
        try:
            events = sel.select()
        except InterruptedError:
            continue
        for key, _ in events:
            k, fd = key.data
            data = os.read(key.fileobj.fileno(), 65536)
            if not data:
                sel.unregister(key.fileobj)
                open_fds -= 1
                left[k] -= 1
                if left[k] == 0:
                    ended(k)
                continue
            buf = part[(k, fd)] + data
            *lines, part[(k, fd)] = buf.split(b"\n")
            for line in lines:
                emit(fd, k, line)
    sys.exit(status[0])


main()
