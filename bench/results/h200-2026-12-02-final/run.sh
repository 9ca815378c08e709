#!/usr/bin/env bash
# The H200 after the oracle, kernels-as-they-ship, Python and test-speed work merged: every
# built-in case on the cuda backend with its expectation, the oracle pairs and seeded bugs
# (bench/gpu_oracles.sh), the plain CUDA sources (bench/results/h200-2026-12-02-plain-sources)
# and the Python face (bench/results/2026-12-02-python). Run from the repository root on the GPU
# machine, with BIN a kladder from scripts/device-bundle.sh and OUT a folder for the results:
#
#   BIN=build/gpu/device/kladder OUT=build/device-out bash bench/results/h200-2026-12-02-final/run.sh cases
#   BIN=build/gpu/device/kladder OUT=build/device-out bash bench/results/h200-2026-12-02-final/run.sh rest
#
# cases: OUT/cases/CASE.json (run --case CASE --backend cuda --timeout 30 --json), steps.tsv
# (case, exit status, seconds) and export.json (the database, for `kladder pull`).
set -u
cd "$(dirname "$0")/../../.."
BIN=${BIN:-build/gpu/device/kladder}
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$PWD/$(dirname "$BIN")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export XDG_DATA_HOME=$PWD/$OUT/data XDG_CACHE_HOME=$PWD/$OUT/cache
case ${1:-} in
cases)
    mkdir -p "$OUT/cases"
    for f in kernels/suites/*.json; do
        sed -n 's/.*"case"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -n 1
    done | sort -u | while read -r c; do
        s=$SECONDS
        timeout -k 5 200 "$BIN" --db "$OUT/cases.db" run --case "$c" --backend cuda --timeout 30 \
            --json --no-progress >"$OUT/cases/$c.json" 2>"$OUT/cases/$c.err"
        printf '%s\t%d\t%d\n' "$c" $? $((SECONDS - s)) | tee -a "$OUT/steps.tsv"
    done
    "$BIN" --db "$OUT/cases.db" export >"$OUT/export.json"
    ;;
rest)
    bash bench/gpu_oracles.sh --backend cuda --kladder "$BIN" --out "$OUT/oracles" | tee "$OUT/oracles.txt"
    BIN=$BIN OUT=$OUT/plain bash bench/results/h200-2026-12-02-plain-sources/run.sh >"$OUT/plain.log" 2>&1
    BIN=$BIN OUT=$OUT/python bash bench/results/2026-12-02-python/run.sh >"$OUT/python.log" 2>&1
    ;;
*)
    echo "usage: $0 cases|rest" >&2
    exit 2
    ;;
esac
