#!/usr/bin/env python3
"""om_strict.py: httop's OpenMetrics through a strict parser, the one of
python3-prometheus-client (prometheus_client.openmetrics.parser), which
refuses a family given twice ("Clashing name"), a series whose samples are
split by another's, timestamps that go back within a series, and any data
after "# EOF".

  om_strict.py FILE   FILE: one or more expositions, each ending "# EOF"

Prints "expositions E families F samples S", then for each exposition
"N: F families, S samples, T times" (T: the distinct timestamps). Exit
status 1 and the parser's message on the first refusal; 77 when the
module is not there."""

import sys

try:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
    from prometheus_client.samples import Timestamp
except ImportError:
    print("prometheus_client is not installed (Debian: python3-prometheus-client)")
    sys.exit(77)

# Until a fix of 2024 (Debian 12 has 0.16) Timestamp compared seconds
# or nanoseconds alone, so 1.9 > 2.1 and the parser said "Timestamps went
# backwards" of 1.9 then 2.1 (prometheus/client_python issue 1037): compare
# them as the numbers they are.
Timestamp.__gt__ = lambda a, b: (a.sec, a.nsec) > (b.sec, b.nsec)
Timestamp.__lt__ = lambda a, b: (a.sec, a.nsec) < (b.sec, b.nsec)


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    parts = text.split("# EOF\n")
    if parts[-1] != "" or len(parts) < 2:
        print("the text does not end with # EOF")
        return 1
    rows, nf, ns = [], 0, 0
    for i, part in enumerate(parts[:-1], 1):
        try:
            fams = list(text_string_to_metric_families(part + "# EOF\n"))
        except ValueError as err:
            print("exposition %d refused: %s" % (i, err))
            return 1
        samples = [s for f in fams for s in f.samples]
        times = {None if s.timestamp is None else float(s.timestamp) for s in samples}
        rows.append("%d: %d families, %d samples, %d times" % (i, len(fams), len(samples),
                                                               len(times)))
        nf += len(fams)
        ns += len(samples)
    print("expositions %d families %d samples %d" % (len(rows), nf, ns))
    print("\n".join(rows))
    return 0


sys.exit(main())
