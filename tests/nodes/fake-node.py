#!/usr/bin/env python3
# fake-node.py MODE HOST [WORDS...]: a node that misbehaves, for
# httop --nodes ... --via 'python3 tests/nodes/fake-node.py MODE %h'
# (tests/cli/test_nodes_hostile.sh). WORDS are the remote httop's; only
# its -d is read. Its lines are the JSON line in $FAKE_LINE (one interval
# of httop --format json) with this HOST and the time of now.
#   steady   a line every -d seconds
#   fast     a line every -d / 10 seconds (a node sending faster than -d)
#   back     a line every -d seconds, its clock set back 30 s after the
#            fourth (each later stamp 30 s behind)
#   lag      a line every -d seconds, its clock 2 s behind (a node whose
#            clock is not synchronised, by less than the viewer's
#            threshold for an unsynchronised one)
#   once     its first start: one line, then exit 1; every later start
#            (a state file in $FAKE_DIR): what ssh says of a refused
#            connection, exit 255 (a node that answers once, then is gone)
#   stall    one line, then half of one, then silence
#   hostile  every -d a line of 1025 packages of one core each, every core
#            at tile row 255, column 255
#   zeros    one line of 14 MiB: an object whose "cores" are 7 million 0s,
#            then silence
#   mute     no line ever: a node whose httop has not started yet, or
#            hangs (it runs until it is ended)
#   byhost   the mode the HOST's name starts with, up to its first digit
#            (steady1, mute1): nodes of different modes in one view
#   big      $FAKE_LINES (40) lines of 270 KB (the line padded with blanks)
#            as fast as the pipe takes them, then the seconds that took in
#            $FAKE_DIR/HOST.took, then silence
import json
import os
import sys
import time


def delay(words):
    for i, w in enumerate(words[:-1]):
        if w == "-d":
            return float(words[i + 1])
    return 1.0


def template(host):
    with open(os.environ["FAKE_LINE"]) as f:
        r = json.loads(f.readlines()[-1])
    r["host"] = host
    return r


def emit(r, off=0.0):
    r["unix_time"] = time.time() + off
    s = json.dumps(r, separators=(",", ":"))
    sys.stdout.buffer.write(s.encode() + b"\n")
    sys.stdout.buffer.flush()


def hostile(r):
    core, thread = r["cores"][0], r["threads"][0]
    cores, threads = [], []
    for p in range(1025):
        c = dict(core, package=p, core=0, cpus=[p], tile={"row": 255, "col": 255})
        cores.append(c)
        threads.append(dict(thread, cpu=p, package=p, core=0, thread=0))
    r["cores"], r["threads"], r["packages"] = cores, threads, []
    r["node"] = dict(r["node"], ncores=1025, nvalid=1025)
    r["layout"], r["layout_basis"] = "physical", "map"
    return r


def paced(r, d, back_after=None, lag=0.0):
    t = time.time()
    k = 0
    while True:
        emit(r, -30.0 if back_after is not None and k >= back_after else -lag)
        k += 1
        t += d
        time.sleep(max(0.0, t - time.time()))


def main():
    mode, host, words = sys.argv[1], sys.argv[2], sys.argv[3:]
    if mode == "byhost":
        mode = host.rstrip("0123456789")
    d = delay(words)
    r = template(host)
    state = os.path.join(os.environ.get("FAKE_DIR", "."), host)
    if mode == "steady":
        paced(r, d)
    elif mode == "fast":
        paced(r, d / 10)
    elif mode == "back":
        paced(r, d, 4)
    elif mode == "lag":
        paced(r, d, lag=2.0)
    elif mode == "hostile":
        paced(hostile(r), d)
    elif mode == "once":
        if os.path.exists(state + ".once"):
            sys.stderr.write("ssh: connect to host %s port 22: Connection refused\n" % host)
            sys.exit(255)
        open(state + ".once", "w").close()
        emit(r)
        sys.exit(1)
    elif mode == "mute":
        time.sleep(600)
    elif mode == "stall":
        emit(r)
        s = json.dumps(r, separators=(",", ":"))
        sys.stdout.buffer.write(s[: len(s) // 2].encode())
        sys.stdout.buffer.flush()
        time.sleep(600)
    elif mode == "zeros":
        sys.stdout.buffer.write(b'{"host":"%s","node":{},"cores":[' % host.encode() +
                                b",".join([b"0"] * (7 << 20)) + b"]}\n")
        sys.stdout.buffer.flush()
        time.sleep(600)
    elif mode == "big":
        # the line made once, its time stamp written in place
        n = int(os.environ.get("FAKE_LINES", "40"))
        r["unix_time"] = 1000000000.000001
        s = json.dumps(r, separators=(",", ":"))
        s = (s[:-1] + " " * (270000 - len(s)) + "}\n").encode()
        at = s.index(b"1000000000.000001")
        line = bytearray(s)
        t0 = time.time()
        for _ in range(n):
            line[at:at + 17] = b"%017.6f" % time.time()
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
        with open(state + ".took", "w") as f:
            f.write("%.3f\n" % (time.time() - t0))
        time.sleep(600)
    else:
        sys.exit("fake-node.py: no mode " + mode)


main()
