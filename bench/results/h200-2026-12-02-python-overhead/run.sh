#!/usr/bin/env bash
# The overhead of a rung-2 pass from Python on the cuda backend, before and after the per-check
# path was cut, side by side on one machine in one session: bench/results/2026-12-02-python's
# overhead.py (the Triton row softmax, 64x1024, 13 checks, against the plain pytest loop), run
# ROUNDS times for each side, alternately, in a process of its own; then each side once more
# with KLADDER_PHASE_TIMES=1 (per-phase microseconds per check) and under cProfile.
#
#   BIN=build/gpu/device/kladder BEFORE=build/gpu/device/libkladder-before.so \
#   BEFORE_PY=build/gpu/device/python-before OUT=out-folder \
#       bash bench/results/h200-2026-12-02-python-overhead/run.sh
#
# BEFORE/BEFORE_PY: libkladder.so and python/ of the commit measured as "before" (README.md).
# Writes OUT/: SIDE-ROUND.tsv (overhead.py's table), phases-SIDE.txt, profile-SIDE.txt, env.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
: "${BIN:?}" "${BEFORE:?}" "${BEFORE_PY:?}" "${OUT:?}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
BIN=$(abs "$BIN") BEFORE=$(abs "$BEFORE") BEFORE_PY=$(abs "$BEFORE_PY")
AFTER=$(dirname "$BIN")/libkladder.so
ROUNDS=${ROUNDS:-3}
py=${PYTHON:-python3}
export XDG_DATA_HOME=$OUT/data XDG_CACHE_HOME=$OUT/cache PYTHONDONTWRITEBYTECODE=1
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    $py -c 'import torch, triton, numpy; print("torch", torch.__version__, "triton", triton.__version__, "numpy", numpy.__version__)'
    LD_LIBRARY_PATH=$(dirname "$BIN")/lib "$BIN" --version
    nproc; uptime
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
cd "$repo/bench/results/2026-12-02-python"
side() { # side name, then the command's words
    local lib=$AFTER pp=$repo/python
    [ "$1" = before ] && lib=$BEFORE pp=$BEFORE_PY
    shift
    KLADDER_LIB=$lib PYTHONPATH=$pp:$PWD:$here "$@"
}
for r in $(seq "$ROUNDS"); do
    for s in before after; do
        side $s $py overhead.py "$OUT/$s.db" 7 >"$OUT/$s-$r.tsv" 2>"$OUT/$s-$r.err"
        echo "== $s, round $r"; cat "$OUT/$s-$r.tsv"
    done
done
for s in before after; do
    KLADDER_PHASE_TIMES=1 side $s $py overhead.py "$OUT/$s.db" 3 >/dev/null 2>"$OUT/phases-$s.txt"
    side $s $py "$here/profile_pass.py" "$OUT/$s.db" 10 >"$OUT/profile-$s.txt" 2>&1
done
rm -rf "$OUT/cache" "$OUT/data" "$OUT"/*.db*
