#!/usr/bin/env bash
# An op described with nothing but its params and buffers goes up the ladder's default rungs
# (1, 2, 5): rung 1 plans its boundary checks by itself (the default shape, and every dimension
# one below and one above its default and at 1), so a row sum that pairs up its columns and
# drops the last one of an odd row is caught there, and a correct row sum written another way
# (a running sum) passes every check.
. tests/tap.sh
. tests/python_env.sh numpy
export KL_DB=$KL_TMP/k.db

$py - >"$KL_TMP/out.txt" 2>&1 <<'PY'
import os
import numpy as np
import kladder

def reference(x):
    return x.sum(axis=-1)

def running_sum(x):  # correct, written another way
    with np.errstate(over="ignore"):  # rung 2's max-finite rows overflow float32 as they should
        return np.cumsum(x.astype(np.float64), axis=-1)[:, -1].astype(np.float32)

def pairs(x):  # sums column pairs: an odd row loses its last element
    n = x.shape[-1] // 2 * 2
    return (x[:, 0:n:2] + x[:, 1:n:2]).sum(axis=-1)

for op in (running_sum, pairs):
    r = kladder.ladder(op, reference, params={"M": 4, "N": 128},
                       buffers={"x": kladder.In("f32", "M", "N"), "y": kladder.Out("f32", "M")},
                       tolerance=(1e-4, 1e-5), db=os.environ["KL_DB"], name=op.__name__)
    r1 = sorted(c.name for c in r.checks if c.rung == 1)
    print(op.__name__, r.verdict, "rung1:", " ".join(r1))
    for c in r.failures:
        print(op.__name__, "failed:", c.rung, c.name)
PY
rc=$?
sed 's/^/# /' "$KL_TMP/out.txt"
tap_check "no tiles, the default rungs: the ladder runs (exit $rc)" test $rc -eq 0
tap_check "rung 1 plans the default shape and each dimension's tails by itself" \
    grep -qxF 'running_sum pass rung1: default small-M1 small-N1 tail-M3 tail-M5 tail-N127 tail-N129' "$KL_TMP/out.txt"
tap_check "the correct op passes every check" bash -c "! grep -q '^running_sum failed' '$KL_TMP/out.txt'"
tap_check "the op that drops an odd row's last column fails" grep -q '^pairs fail ' "$KL_TMP/out.txt"
tap_check "caught by rung 1's odd lengths" \
    bash -c "grep -qx 'pairs failed: 1 tail-N127' '$KL_TMP/out.txt' && grep -qx 'pairs failed: 1 tail-N129' '$KL_TMP/out.txt' &&
             grep -qx 'pairs failed: 1 small-N1' '$KL_TMP/out.txt' && ! grep -q '^pairs failed: 1 default' '$KL_TMP/out.txt'"
