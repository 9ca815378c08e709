#!/usr/bin/env bash
# A layer norm from Python, the case a worst-case bound got wrong both ways: two correct
# float32 implementations (two-pass, and a blocked Welford merge) pass every rung-2 value class
# against a float64 reference, near-ties included (rows of near-equal values, where the output
# is rounding amplified by 1/sigma: engine/values/contract.c's cancellation term); a one-pass
# E[x^2] - E[x]^2 variance, which cancels on rows of mean 128, is caught by large-mean as fail.
# Debian's python3 with numpy.
. tests/tap.sh
. tests/python_env.sh numpy

$py - "$KL_TMP/k.db" >"$KL_TMP/out.txt" 2>&1 <<'PY'
import sys
import numpy as np
import kladder
from kladder import In, Out

np.seterr(all="ignore")
EPS = np.float32(1e-5)

def two_pass(x):
    x = x.astype(np.float32)
    m = x.mean(axis=-1, keepdims=True, dtype=np.float32)
    d = x - m
    v = (d * d).mean(axis=-1, keepdims=True, dtype=np.float32)
    return d / np.sqrt(v + EPS)

def welford_blocks(x, B=64):
    # per block of B columns: count, mean, M2; blocks merged left to right (Chan et al.)
    x = x.astype(np.float32)
    n = np.zeros(x.shape[:-1] + (1,), np.float32)
    mean = np.zeros_like(n)
    m2 = np.zeros_like(n)
    for s in range(0, x.shape[-1], B):
        b = x[..., s:s + B]
        nb = np.float32(b.shape[-1])
        mb = b.mean(axis=-1, keepdims=True, dtype=np.float32)
        m2b = ((b - mb) * (b - mb)).sum(axis=-1, keepdims=True, dtype=np.float32)
        tot = n + nb
        delta = mb - mean
        mean = mean + delta * (nb / tot)
        m2 = m2 + m2b + delta * delta * (n * nb / tot)
        n = tot
    return (x - mean) / np.sqrt(m2 / n + EPS)

def one_pass(x):
    x = x.astype(np.float32)
    m = x.mean(axis=-1, keepdims=True, dtype=np.float32)
    v = (x * x).mean(axis=-1, keepdims=True, dtype=np.float32) - m * m
    return (x - m) / np.sqrt(v + EPS)

def reference(x):
    x = x.astype(np.float64)
    m = x.mean(axis=-1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
    return (x - m) / np.sqrt(v + 1e-5)

buffers = {"x": In("f32", "M", "N"), "y": Out("f32", "M", "N", reduce="N", kind="normalized")}
for name, op in (("two-pass", two_pass), ("welford", welford_blocks), ("one-pass", one_pass)):
    r = kladder.ladder(op, reference, params={"M": 32, "N": 1024}, buffers=buffers, rungs=(2,),
                       tolerance=(1e-6, 1e-6), backend="cpu", db=sys.argv[1],
                       name="layernorm-" + name)
    for c in r.checks:
        print("CHECK", name, c.name, c.verdict)
        if c.verdict != "pass":
            print("#", (c.detail or "").replace("\n", " ")[:300])
PY
rc=$?
sed 's/^/# /' "$KL_TMP/out.txt" | grep -v '^# CHECK' | head -20
tap_check "the three layer norms ran (exit 0)" test $rc -eq 0
for ok in two-pass welford; do
    n=$(grep -c "^CHECK $ok " "$KL_TMP/out.txt")
    bad=$(grep "^CHECK $ok " "$KL_TMP/out.txt" | grep -vc ' pass$')
    tap_check "$ok: every rung-2 check passes ($n checks, $bad not passed)" \
        test "$n" -ge 13 -a "$bad" -eq 0
    tap_check "$ok: near-ties passes" grep -qE "^CHECK $ok near-ties[^ ]* pass$" "$KL_TMP/out.txt"
done
tap_check "one-pass variance: caught by large-mean as fail" \
    grep -qE "^CHECK one-pass large-mean[^ ]* fail$" "$KL_TMP/out.txt"
tap_check "one-pass variance: near-ties does not call it (the bug is the large mean)" \
    grep -qE "^CHECK one-pass near-ties[^ ]* pass$" "$KL_TMP/out.txt"
