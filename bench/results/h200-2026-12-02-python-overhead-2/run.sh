#!/usr/bin/env bash
# The overhead of a rung-2 pass from Python on the cuda backend, before and after the next
# check's inputs are made in the background and the oracles read back once, side by side on one
# machine in one session: bench/results/2026-12-02-python's overhead.py (the Triton row softmax,
# 64x1024, 13 checks, against the plain pytest loop), ROUNDS rounds of both sides alternately,
# each in a process of its own; then each side once more with KLADDER_PHASE_TIMES=1 (the after
# side also with KLADDER_PREFETCH=0: every input made on demand) and under cProfile; then
# same_inputs.py with the inputs made ahead and on demand, compared.
#
#   BIN=path/to/device/kladder BEFORE=path/to/before/libkladder.so \
#   BEFORE_PY=path/to/before/python OUT=out-folder \
#       bash bench/results/h200-2026-12-02-python-overhead-2/run.sh
#
# Writes OUT/: SIDE-ROUND.tsv, phases-SIDE.txt, profile-SIDE.txt, same-inputs-{0,1}.tsv and
# same-inputs.diff (empty: the same), env.txt.
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
old=$repo/bench/results/h200-2026-12-02-python-overhead
cd "$repo/bench/results/2026-12-02-python"
side() { # side name, then the command's words
    local lib=$AFTER pp=$repo/python
    [ "$1" = before ] && lib=$BEFORE pp=$BEFORE_PY
    shift
    KLADDER_LIB=$lib PYTHONPATH=$pp:$PWD:$here:$old "$@"
}
for r in $(seq "$ROUNDS"); do
    for s in before after; do
        side $s $py overhead.py "$OUT/$s.db" 7 >"$OUT/$s-$r.tsv" 2>"$OUT/$s-$r.err"
        echo "== $s, round $r"; cat "$OUT/$s-$r.tsv"
    done
done
for s in before after; do
    KLADDER_PHASE_TIMES=1 side $s $py overhead.py "$OUT/$s.db" 3 >/dev/null 2>"$OUT/phases-$s.txt"
    side $s $py "$old/profile_pass.py" "$OUT/$s.db" 10 >"$OUT/profile-$s.txt" 2>&1
done
KLADDER_PREFETCH=0 KLADDER_PHASE_TIMES=1 side after $py overhead.py "$OUT/after.db" 3 \
    >"$OUT/after-noprefetch.tsv" 2>"$OUT/phases-after-noprefetch.txt"
for p in 0 1; do
    KLADDER_PREFETCH=$p side after $py "$here/same_inputs.py" "$OUT/same.db" \
        >"$OUT/same-inputs-$p.tsv" 2>&1
done
diff "$OUT/same-inputs-0.tsv" "$OUT/same-inputs-1.tsv" >"$OUT/same-inputs.diff"
echo "same inputs and results with and without the prefetch: $([ -s "$OUT/same-inputs.diff" ] && echo NO || echo yes) ($(wc -l <"$OUT/same-inputs-1.tsv") checks)"
rm -rf "$OUT/cache" "$OUT/data" "$OUT"/*.db*
