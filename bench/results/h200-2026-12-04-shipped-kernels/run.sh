#!/usr/bin/env bash
# Public kernel files exactly as they ship, on the H200 (docs/kernels.md): the twelve llm.c
# dev/cuda files of tests/engine/fixtures/shipped (whole translation units: host code, cuBLAS
# and cuBLASLt includes, <<<...>>> launches, common.h), each with its suite beside it.
#   1. kladder runs every suite on the cuda backend: the file compiled whole by the toolkit's
#      nvcc (-cubin), the file's optimised kernel against its own naive one, every rung the
#      suite lists.
#   2. the suite's one-line bug (bugs.tsv, applied to a copy by apply_bug.py) runs the same way.
#   3. summary.tsv: per suite, the exit status and the checks of the fixed kernel that did not
#      pass, then the exit status and the failed checks of the bugged copy.
#   4. hip-on-cuda.tsv: the six .hip suites of tests/engine/fixtures/plain on the cuda backend
#      (HIP's device API mapped onto CUDA's by kl_vendor.h), their first run on an NVIDIA GPU.
# What to expect: every file accepted (no compile error), the fixed kernel clean (exit 0, 0 not
# passed), the bugged copy caught (exit 1, at least one failed check) - as tests/engine/
# shipped_kernels.sh shows on the cpu backend; the .hip suites exit 0 with 0 not passed and the
# bug caught (a suite pinning wave 64 for rung 3 may skip it on a 32-lane GPU).
# Run from the repository root on the GPU machine:
#
#   BIN=build/device/kladder OUT=build/device-out bash bench/results/h200-2026-12-04-shipped-kernels/run.sh
set -u
cd "$(dirname "$0")/../../.."
BIN=${BIN:-build/kladder}
# the device bundle carries the libraries it was built with beside it
[ -d "$(dirname "$BIN")/lib" ] && export LD_LIBRARY_PATH="$(dirname "$BIN")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
fx=tests/engine/fixtures/shipped
export XDG_DATA_HOME=$OUT/data XDG_CACHE_HOME=$OUT/cache

"$BIN" devices >"$OUT/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv >"$OUT/gpu.txt" 2>&1
command -v nvcc >"$OUT/nvcc.txt" 2>&1 && nvcc --version >>"$OUT/nvcc.txt" 2>&1

count() { # JSON -> "not-passed failed" of the fixed kernel (the variant "fixed" and its baseline)
    python3 - "$1" <<'PY'
import json, sys
try:
    checks = json.load(open(sys.argv[1]))["checks"]
except Exception:
    checks = []
mine = [c for c in checks if c["variant"] in ("fixed", "baseline-fixed")]
print(sum(c["verdict"] != "pass" for c in mine), sum(c["verdict"] == "fail" for c in mine), len(mine))
PY
}

printf 'suite\tfixed_exit\tfixed_not_passed\tfixed_checks\tbug_exit\tbug_failed\tbug_checks\tseconds\n' >"$OUT/summary.tsv"
while IFS=$'\t' read -r suite _; do
    case $suite in '#'*|'') continue ;; esac
    s=$SECONDS
    timeout -k 5 100 "$BIN" --db "$OUT/k.db" run --suite "$fx/$suite.json" --backend cuda \
        --timeout 60 --json --no-progress >"$OUT/$suite.json" 2>"$OUT/$suite.err"
    rc=$?
    read -r bad _ n < <(count "$OUT/$suite.json")
    python3 "$fx/apply_bug.py" "$suite" "$OUT/bug-$suite" >"$OUT/bug-$suite.txt"
    timeout -k 5 100 "$BIN" --db "$OUT/k.db" run --suite "$OUT/bug-$suite/$suite.json" --backend cuda \
        --timeout 60 --json --no-progress >"$OUT/bug-$suite.json" 2>"$OUT/bug-$suite.err"
    brc=$?
    read -r _ failed bn < <(count "$OUT/bug-$suite.json")
    printf '%s\t%d\t%s\t%s\t%d\t%s\t%s\t%d\n' "$suite" $rc "$bad" "$n" $brc "$failed" "$bn" \
        $((SECONDS - s)) | tee -a "$OUT/summary.tsv"
done <"$fx/bugs.tsv"
# The six HIP sources of tests/engine/fixtures/plain on the NVIDIA GPU (kl_vendor.h's HIP part):
# each suite's fixed and buggy variants, as tests/engine/plain_sources.sh runs them on cpu.
printf 'suite\texit\tfixed_not_passed\tbuggy_caught\tbuggy_checks\n' >"$OUT/hip-on-cuda.tsv"
for suite in tests/engine/fixtures/plain/{block-sumsq,layernorm,rms-scale,scan-i64,tile-max,welford}.json; do
    name=$(basename "$suite" .json)
    timeout -k 5 100 "$BIN" --db "$OUT/k.db" run --suite "$suite" --backend cuda --timeout 60 \
        --json --no-progress >"$OUT/hip-$name.json" 2>"$OUT/hip-$name.err"
    rc=$?
    python3 - "$OUT/hip-$name.json" "$name" $rc >>"$OUT/hip-on-cuda.tsv" <<'PY'
import json, sys
path, name, rc = sys.argv[1:]
try:
    checks = json.load(open(path))["checks"]
except Exception:
    checks = []
bad = sum(c["variant"] in ("fixed", "baseline-fixed") and c["verdict"] != "pass" for c in checks)
caught = sum(c["variant"] == "buggy" and c["verdict"] == "fail" for c in checks)
print(f"{name}\t{rc}\t{bad}\t{caught}\t{sum(c['variant'] == 'buggy' for c in checks)}")
PY
    tail -n 1 "$OUT/hip-on-cuda.tsv"
done

python3 - "$OUT/summary.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
clean = sum(r["fixed_exit"] == "0" and r["fixed_not_passed"] == "0" and r["fixed_checks"] != "0" for r in rows)
caught = sum(r["bug_exit"] == "1" and int(r["bug_failed"] or 0) > 0 for r in rows)
print(f"{len(rows)} files: {clean} fixed kernels clean, {caught} one-line bugs caught")
PY
