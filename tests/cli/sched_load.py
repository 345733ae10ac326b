#!/usr/bin/env python3
"""sched_load.py CPU MODE SECONDS: a load with a known schedule for the
scheduler source's tests, pinned to CPU. MODE busy: runs all the time;
half: runs in the first 10 ms of every 20 ms period (periods start at
multiples of 20 ms of CLOCK_MONOTONIC) and sleeps in the rest, with a
timer slack of 1 ns; idle: sleeps. Writes, on standard output when it
ends, how late it woke on average (us) and how far its last busy check ran
past a window's end on average (us): the edges' error."""
import ctypes
import os
import sys
import time

PERIOD = 0.020
BUSY = 0.010


def main():
    cpu, mode, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    os.sched_setaffinity(0, {cpu})
    try:
        libc = ctypes.CDLL(None)
        libc.prctl(29, 1, 0, 0, 0)   # PR_SET_TIMERSLACK: 1 ns
    except OSError:
        pass
    now = time.monotonic()
    end = now + seconds
    late = over = 0.0
    n = 0
    if mode == "busy":
        while time.monotonic() < end:
            pass
    elif mode == "idle":
        time.sleep(seconds)
    else:
        start = (int(now / PERIOD) + 1) * PERIOD
        while start < end:
            t = time.monotonic()
            if start > t:
                time.sleep(start - t)
            t = time.monotonic()
            late += t - start
            stop = start + BUSY
            while t < stop:
                t = time.monotonic()
            over += t - stop
            n += 1
            start += PERIOD
    if n:
        print("%.1f %.1f" % (late / n * 1e6, over / n * 1e6))
    else:
        print("0 0")


main()
