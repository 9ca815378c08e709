"""Medians of KLADDER_PHASE_TIMES=1's lines (phases-*.txt): per phase, microseconds a check.

    python3 phases.py phases-before.txt phases-after.txt ...
"""
import collections
import statistics
import sys

for f in sys.argv[1:]:
    d = collections.defaultdict(list)
    for line in open(f):
        if line.startswith("phases "):
            for kv in line.split(":", 1)[1].split():
                k, v = kv.split("=")
                d[k].append(int(v))
    print(f, "(%d checks)" % len(d["total"]),
          " ".join("%s=%d" % (k, statistics.median(v)) for k, v in d.items()))
