"""The cost of a rung-2 pass over a small Triton op (the row softmax of ops_triton.py, M=64,
N=1024) against the plain test loop that a pytest file writes: per value class, inputs made on
the device, the op, the float64 reference and torch.testing.assert_close. Both sides run the
same 13 checks (one per value class); the op's launches alone are timed too. Every side runs
once to warm up (Triton's and kladder's compiles), then REPEATS times; the median is reported.

    python3 overhead.py OUT_DB [REPEATS]      prints a TSV: side, seconds per pass, per check
"""
import statistics
import sys
import time

import torch

import kladder
import ops_triton as T

M, N = 64, 1024
CLASSES = 13


def plain_inputs(k):
    """One input per check, made on the device as a plain test makes them."""
    g = torch.Generator(device="cuda").manual_seed(k)
    return torch.randn(M, N, device="cuda", generator=g) * (1 + k)


def plain_pass():
    for k in range(CLASSES):
        x = plain_inputs(k)
        y = torch.empty_like(x)
        T.softmax(x, y)
        ref = T.softmax_ref(x.double())
        torch.testing.assert_close(y, ref.float(), atol=1e-6, rtol=1e-5)
    torch.cuda.synchronize()


def launches_only():
    xs = [plain_inputs(k) for k in range(CLASSES)]
    ys = [torch.empty_like(x) for x in xs]
    torch.cuda.synchronize()
    t = time.perf_counter()
    for x, y in zip(xs, ys):
        T.softmax(x, y)
    torch.cuda.synchronize()
    return time.perf_counter() - t


def kladder_pass(db):
    report = kladder.ladder(T.softmax, T.softmax_ref, params={"M": M, "N": N},
                            buffers=T.ROWS, rungs=(2,), tolerance=(1e-6, 1e-5), backend="cuda",
                            db=db, name="overhead-softmax")
    if len(report.checks) != CLASSES or not report.passed:  # said, and still timed
        print("# kladder run %s: %d checks, %d failed" % (report.run_id, len(report.checks),
                                                        len(report.failures)), file=sys.stderr)
    return report


def timed(fn, *a):
    t = time.perf_counter()
    fn(*a)
    return time.perf_counter() - t


def main():
    db = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    plain_pass(), kladder_pass(db), launches_only()  # warm-up: compiles, contexts
    sides = {"plain pytest loop": [timed(plain_pass) for _ in range(reps)],
             "kladder rung 2": [timed(kladder_pass, db) for _ in range(reps)],
             "the op's launches alone": [launches_only() for _ in range(reps)]}
    base = statistics.median(sides["plain pytest loop"])
    print("side\tseconds per pass\tms per check\tx plain loop")
    for side, ts in sides.items():
        m = statistics.median(ts)
        print("%s\t%.4f\t%.3f\t%.2f" % (side, m, 1e3 * m / CLASSES, m / base))


if __name__ == "__main__":
    main()
