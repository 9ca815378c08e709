#!/usr/bin/env bash
# Launchers that name their own `dim3 gridDim, blockDim`, and a reference whose signature is not
# the variant's ("reference_args"), on the H200's cuda backend:
#   - llm.c's matmul_forward.cu as it ships (tests/engine/fixtures/shipped/matmul-forward.json):
#     the tiled matmul_forward_kernel4 against the naive matmul_forward_kernel1, which takes BT
#     as well; then the suite's one-line bug (bugs.tsv) on a copy;
#   - tile_transpose.hip (tests/engine/fixtures/plain/tile-transpose.json), a HIP file of ours on
#     the NVIDIA GPU: a shared-memory tiled transpose, its buggy bounds, a flat naive reference
#     with an extra length argument.
# What to expect: the fixed kernels clean (exit 0, no check of theirs not passed), the bugs caught
# (exit 1 for the bugged copy; exit 0 with the buggy variant caught for the suite that has one).
# Run from the repository root on the GPU machine:
#
#   BIN=build/device/kladder OUT=build/device-out bash bench/results/h200-2026-12-04-launch-dims/run.sh
set -u
cd "$(dirname "$0")/../../.."
BIN=${BIN:-build/kladder}
[ -d "$(dirname "$BIN")/lib" ] && export LD_LIBRARY_PATH="$(dirname "$BIN")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
export XDG_DATA_HOME=$OUT/data XDG_CACHE_HOME=$OUT/cache
fx=tests/engine/fixtures/shipped
nvidia-smi --query-gpu=name,driver_version --format=csv >"$OUT/gpu.txt" 2>&1

summary() { # JSON NAME EXIT -> one line: the fixed kernel's checks not passed, the buggy caught
    python3 - "$@" <<'PY'
import json, sys
path, name, rc = sys.argv[1:]
try:
    checks = json.load(open(path))["checks"]
except Exception:
    checks = []
fixed = [c for c in checks if c["variant"] in ("fixed", "baseline-fixed")]
bad = sum(c["verdict"] != "pass" for c in fixed)
caught = sum(c["variant"] == "buggy" and c["verdict"] in ("fail", "hang") for c in checks)
failed = sum(c["verdict"] == "fail" for c in fixed)
print(f"{name}\texit {rc}\tfixed checks {len(fixed)}, not passed {bad}, failed {failed}\tbuggy caught {caught}")
PY
}

timeout -k 5 120 "$BIN" --db "$OUT/k.db" run --suite "$fx/matmul-forward.json" --backend cuda \
    --timeout 60 --json --no-progress >"$OUT/matmul-forward.json" 2>"$OUT/matmul-forward.err"
summary "$OUT/matmul-forward.json" matmul-forward $? | tee "$OUT/summary.txt"
python3 "$fx/apply_bug.py" matmul-forward "$OUT/bug" >"$OUT/bug.txt"
timeout -k 5 120 "$BIN" --db "$OUT/k.db" run --suite "$OUT/bug/matmul-forward.json" --backend cuda \
    --timeout 60 --json --no-progress >"$OUT/bug-matmul-forward.json" 2>"$OUT/bug-matmul-forward.err"
summary "$OUT/bug-matmul-forward.json" "matmul-forward, bugged copy (failed = caught)" $? | tee -a "$OUT/summary.txt"
timeout -k 5 120 "$BIN" --db "$OUT/k.db" run --suite tests/engine/fixtures/plain/tile-transpose.json \
    --backend cuda --timeout 60 --json --no-progress >"$OUT/tile-transpose.json" 2>"$OUT/tile-transpose.err"
summary "$OUT/tile-transpose.json" tile-transpose $? | tee -a "$OUT/summary.txt"
