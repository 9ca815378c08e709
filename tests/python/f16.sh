#!/usr/bin/env bash
# f16 buffers from Python (docs/python.md): numpy float16 arrays in and out. Two correct
# formulations of an RMS normalization over half rows (the squares summed in float64 by the
# reference, in float32 by the op) pass rungs 1 and 2; the same op summing its squares in half,
# as a port that stays in the input type does, overflows where the values are large, and rung
# 2's value classes catch it where the default shape does not.
. tests/tap.sh
. tests/python_env.sh numpy
cat >"$KL_TMP/f16.py" <<'PY'
import sys
import numpy as np
import kladder

def rms_ref(x):
    v = x.astype(np.float64)
    return (v / np.sqrt((v * v).mean(axis=-1, keepdims=True) + 1e-6)).astype(np.float16)

def rms_f32(x):
    v = x.astype(np.float32)
    s = np.add.reduce(v * v, axis=-1, keepdims=True, dtype=np.float32)
    return (v / np.sqrt(s / np.float32(x.shape[-1]) + np.float32(1e-6))).astype(np.float16)

def rms_f16(x):  # the squares summed in half
    s = np.add.reduce(x * x, axis=-1, keepdims=True, dtype=np.float16)
    return (x.astype(np.float32) / np.sqrt(s.astype(np.float32) / x.shape[-1] + 1e-6)).astype(np.float16)

buffers = {"x": kladder.In("f16", "R", "C"), "y": kladder.Out("f16", "R", "C")}
with np.errstate(all="ignore"):
    for op in (rms_f32, rms_f16):
        r = kladder.ladder(op, rms_ref, {"R": 8, "C": 256}, buffers, rungs=(1, 2), db=":memory:")
        default = [c for c in r.checks if c.name == "default"]
        print(op.__name__, r.verdict, len(r.checks), len(r.failures),
              default[0].verdict if default else "-", " ".join(sorted(c.name for c in r.failures)))
PY
(cd "$KL_TMP" && $py f16.py) >"$KL_TMP/out.txt" 2>&1
sed 's/^/# /' "$KL_TMP/out.txt"
tap_check "the float32 sum over half rows passes every check of rungs 1 and 2" \
    grep -qE '^rms_f32 pass [0-9]+ 0 pass *$' "$KL_TMP/out.txt"
tap_check "the half sum passes the default shape but is caught by a value class" \
    grep -qE '^rms_f16 fail [0-9]+ [1-9][0-9]* pass .*(large-mean|max-finite)' "$KL_TMP/out.txt"
echo "1..$_tap_n"
