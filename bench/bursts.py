#!/usr/bin/env python3
"""bursts.py FILE N DELAY: the bytes of N whole refreshes in a growing file.

A refresh is a burst of output; chunks less than DELAY/3 apart belong to
the same burst (refreshes are DELAY apart, so two are never merged even
if one comes late by most of an interval). The burst under way when the
script starts is skipped, then N bursts are summed. Polls the file's size
every 5 ms; gives up after 3 * N * DELAY + 5 s. Prints
"refreshes=N bytes=B" (refreshes may be less than N on a timeout).
"""
import os
import sys
import time


def main():
    path, n, delay = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    merge = delay / 3.0
    end = time.monotonic() + 3 * n * delay + 5
    size = os.path.getsize(path)
    last_growth = time.monotonic()
    bursts = []            # bytes of each complete burst seen
    in_burst = True        # assume one is under way: skip it
    while time.monotonic() < end and len(bursts) < n + 1:
        time.sleep(0.005)
        s = os.path.getsize(path)
        now = time.monotonic()
        if s != size:
            if not in_burst or now - last_growth >= merge:
                bursts.append(0)
                in_burst = True
            if bursts:
                bursts[-1] += s - size
            size = s
            last_growth = now
        elif in_burst and now - last_growth >= merge:
            in_burst = False
    # The last burst may still be growing: keep only complete ones.
    if in_burst and bursts:
        bursts.pop()
    done = bursts[:n]
    print("refreshes=%d bytes=%d" % (len(done), sum(done)))


if __name__ == "__main__":
    main()
