"""Where a rung-2 pass of overhead.py spends its time on the Python side: cProfile over PASSES
passes (after one to warm up), the 25 costliest functions by own time and by cumulative time.

    python3 profile_pass.py OUT_DB [PASSES]
"""
import cProfile
import pstats
import sys

import overhead

db = sys.argv[1]
passes = int(sys.argv[2]) if len(sys.argv) > 2 else 10
overhead.kladder_pass(db)
prof = cProfile.Profile()
prof.enable()
for _ in range(passes):
    overhead.kladder_pass(db)
prof.disable()
for key in ("tottime", "cumulative"):
    print("==== %d passes, by %s" % (passes, key))
    pstats.Stats(prof, stream=sys.stdout).sort_stats(key).print_stats(25)
