"""The same rung-2 checks with the inputs made ahead and on demand give the same inputs and the
same results: the row softmax of bench/results/2026-12-02-python (the correct op and the buggy
one, 64 x 1024, the 13 value classes), one line per check: the op, the check, a sha256 of the
input as the op saw it on the device, the verdict, the oracle, the first bad element and a
sha256 of the detail. run.sh runs it with KLADDER_PREFETCH=0 and =1 and compares the two.

    python3 same_inputs.py OUT_DB
"""
import hashlib
import sys

import kladder
import ops_triton as T


def run(db, op, name):
    seen = []

    def seen_op(x, y):  # the op's own argument names: the ladder passes y by name
        seen.append(hashlib.sha256(x.detach().cpu().numpy().tobytes()).hexdigest()[:16])
        op(x, y)

    r = kladder.ladder(seen_op, T.softmax_ref, params={"M": 64, "N": 1024}, buffers=T.ROWS,
                       rungs=(2,), tolerance=(1e-6, 1e-5), backend="cuda", db=db, name=name)
    for c, h in zip(r.checks, seen):
        print("\t".join([name, c.name, h, c.verdict, c.oracle or "", str(c.first_bad),
                         hashlib.sha256((c.detail or "").encode()).hexdigest()[:16]]))


if __name__ == "__main__":
    run(sys.argv[1], T.softmax, "softmax")
    run(sys.argv[1], T.softmax_bug, "softmax-buggy")
