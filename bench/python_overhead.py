"""The cost of a rung-2 pass through kladder's Python face against the plain test loop, on the
cpu backend, side by side in one process.

The op is a row softmax in numpy (M x N float32, default 64 x 256), judged against a float64
reference. The plain loop is what a test file writes: per check, an input made with numpy's
generator, the op, the float64 reference and np.allclose. The kladder side is
kladder.ladder(op, ref, rungs=(2,)) on the same op at the same shape: its checks' buffers,
guards, sentinels, value classes, oracles and the run recorded in a database. Both sides run the
same number of checks (the plain loop as many as the kladder pass planned); the op's own calls
alone are timed too.

Times are processor time (user + sys of this process, time.process_time), so that other work on
a shared machine does not count; each side runs once to warm up, then REPEATS times
alternately; the median per pass is reported, per check and as a multiple of the plain loop.

    PYTHONPATH=python KLADDER_LIB=build/libkladder.so \\
        python3 bench/python_overhead.py [--repeats 7] [--m 64] [--n 256] [--db PATH] [--json FILE]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np

import kladder


def softmax(x):
    """The op: a row softmax in float32, as a kernel's reference-free version computes it."""
    with np.errstate(all="ignore"):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def softmax_ref(x):
    """The reference: the same in float64 (kladder passes float64 copies of the inputs)."""
    with np.errstate(all="ignore"):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def plain_pass(m, n, checks):
    """The plain loop: one random input per check (scaled differently, a stand-in for the value
    classes), the op, the float64 reference, np.allclose."""
    ok = True
    for k in range(checks):
        rng = np.random.default_rng(k)
        x = (rng.standard_normal((m, n), dtype=np.float32) * (1 + k)).astype(np.float32)
        y = softmax(x)
        ref = softmax_ref(x.astype(np.float64))
        ok &= bool(np.allclose(y, ref.astype(np.float32), atol=1e-6, rtol=1e-5))
    return ok


def op_alone(xs):
    for x in xs:
        softmax(x)


def kladder_pass(m, n, db):
    return kladder.ladder(softmax, softmax_ref, params={"M": m, "N": n},
                          buffers={"x": kladder.In("f32", "M", "N"),
                                   "y": kladder.Out("f32", "M", "N")},
                          rungs=(2,), tolerance=(1e-6, 1e-5), backend="cpu", db=db,
                          name="overhead-softmax")


def cpu(fn, *a):
    t = time.process_time()
    r = fn(*a)
    return time.process_time() - t, r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--m", type=int, default=64)
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--db", help="the database (default: a fresh one in a temporary folder)")
    ap.add_argument("--json", help="also write the numbers here")
    a = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = a.db or os.path.join(tmp.name, "overhead.db")

    _, rep = cpu(kladder_pass, a.m, a.n, db)  # warm-up; plans the number of checks
    checks = len(rep.checks)
    if not rep.passed:
        print("# kladder run %s: %d of %d checks failed:\n%s"
              % (rep.run_id, len(rep.failures), checks,
                 "\n".join(c.describe() for c in rep.failures)), file=sys.stderr)
    plain_pass(a.m, a.n, checks)
    xs = [np.random.default_rng(k).standard_normal((a.m, a.n), dtype=np.float32)
          for k in range(checks)]
    sides = {"plain numpy loop": [], "kladder rung 2": [], "the op alone": []}
    for _ in range(a.repeats):  # alternately, so that a change in the machine's load hits both
        sides["plain numpy loop"].append(cpu(plain_pass, a.m, a.n, checks)[0])
        sides["kladder rung 2"].append(cpu(kladder_pass, a.m, a.n, db)[0])
        sides["the op alone"].append(cpu(op_alone, xs)[0])
    base = statistics.median(sides["plain numpy loop"])
    rows = []
    print("# row softmax %dx%d f32, cpu backend, %d checks a pass, processor time (user+sys), "
          "median of %d; x plain loop: the medians' ratio, and the median of each round's "
          "ratio (the sides of a round ran under the same load)" % (a.m, a.n, checks, a.repeats))
    print("side\tms per pass\tms per check\tx plain loop\tx plain loop, by round\t"
          "all passes (ms)")
    for side, ts in sides.items():
        med = statistics.median(ts)
        by_round = statistics.median(t / p for t, p in zip(ts, sides["plain numpy loop"]))
        rows.append({"side": side, "s_per_pass": med, "ms_per_check": 1e3 * med / checks,
                     "x_plain": med / base, "x_plain_by_round": by_round, "passes_s": ts})
        print("%s\t%.2f\t%.3f\t%.2f\t%.2f\t%s" % (side, 1e3 * med, 1e3 * med / checks,
                                                   med / base, by_round,
                                                   " ".join("%.1f" % (1e3 * t) for t in ts)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"m": a.m, "n": a.n, "checks": checks, "repeats": a.repeats,
                       "sides": rows}, f, indent=1)


if __name__ == "__main__":
    main()
