#!/usr/bin/env bash
# Plain CUDA and HIP sources (docs/kernels.md) on the H200: the twelve kernels of
# tests/engine/fixtures/plain, as their authors would write them.
#   1. nvcc compiles every .cu file as it is (sm_90): the fixtures are real CUDA, not a dialect
#      that only kladder accepts.
#   2. kladder runs every suite on the cuda backend (NVRTC, the vendor's headers where it has
#      them) and, for comparison, on the cpu backend of the same machine: every rung the suite
#      lists, both variants, --json.
#   3. summary.tsv: per suite and backend, the exit status, how many checks of the fixed
#      variant and of its plain unit test did not pass, and how many checks caught the bug.
# What to expect today: the cpu rows as in tests/engine/plain_sources.sh (0 not passed, the bug
# caught). On cuda the eight .cu suites compile with the toolkit's headers and their entries
# are found (tests/gpu/compile_plain.sh checks that offline against NVRTC 13); this is their
# first launch on a GPU. The four .hip suites use HIP's API (unmasked shuffles, hip/ headers),
# which CUDA does not have: their rows end at the compile, the .err files say where.
# Run from the repository root on the GPU machine, with BIN the kladder built there and OUT a
# folder for the results:
#
#   BIN=build/device/kladder OUT=build/device-out bash bench/results/h200-2026-12-02-plain-sources/run.sh
set -u
cd "$(dirname "$0")/../../.."
BIN=${BIN:-build/kladder}
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
fx=tests/engine/fixtures/plain
export XDG_DATA_HOME=$OUT/data XDG_CACHE_HOME=$OUT/cache

"$BIN" devices >"$OUT/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv >"$OUT/gpu.txt" 2>&1

: >"$OUT/nvcc.tsv"
for f in "$fx"/*.cu; do
    nvcc -std=c++17 -arch=sm_90 -I"$fx" -c -o "$OUT/$(basename "$f" .cu).o" "$f" \
        >"$OUT/nvcc-$(basename "$f").log" 2>&1
    printf '%s\t%d\n' "$(basename "$f")" $? | tee -a "$OUT/nvcc.tsv"
done

printf 'suite\tbackend\texit\tfixed_not_passed\tbuggy_caught\tbuggy_checks\tseconds\n' >"$OUT/summary.tsv"
for suite in "$fx"/*.json; do
    name=$(basename "$suite" .json)
    for backend in cuda cpu; do
        s=$SECONDS
        timeout -k 5 300 "$BIN" --db "$OUT/k.db" run --suite "$suite" --backend $backend \
            --timeout 60 --json --no-progress >"$OUT/$backend-$name.json" 2>"$OUT/$backend-$name.err"
        rc=$?
        python3 - "$OUT/$backend-$name.json" "$name" $backend $rc $((SECONDS - s)) \
            >>"$OUT/summary.tsv" <<'PY'
import json, sys
path, name, backend, rc, secs = sys.argv[1:]
try:
    checks = json.load(open(path))["checks"]
except Exception:
    checks = []
bad = sum(1 for c in checks if c["variant"] in ("fixed", "baseline-fixed") and c["verdict"] != "pass")
caught = sum(1 for c in checks if c["variant"] == "buggy" and c["verdict"] == "fail")
nb = sum(1 for c in checks if c["variant"] == "buggy")
print(f"{name}\t{backend}\t{rc}\t{bad}\t{caught}\t{nb}\t{secs}")
PY
        tail -n 1 "$OUT/summary.tsv"
    done
done
"$BIN" --db "$OUT/k.db" export --out "$OUT/export.json" 2>"$OUT/export.err"
