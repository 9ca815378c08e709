#!/usr/bin/env bash
# Rung 2's default contract on the H200 (docs/engine.md, "Contracts, bounds and doubt"): the
# four pairs of correct kernels of tests/engine/fixtures/trust (a column variance and
# normalization, an L2 norm, a top-k, a chunked attention; each pair two kernels written apart
# from each other, against a plain float reference, "2": {} and no contract on any output) and
# the seeded bug of each kind, on the cuda backend and, for comparison, on the cpu backend of
# the same machine.
#   summary.tsv: per suite and backend, the exit status, how many checks of a correct kernel
#   did not pass (fixed and buggy variants of a *-pair suite, the fixed variant of a *-bug
#   suite; doubts counted apart), and how many checks caught the seeded bug.
# What to expect: every *-pair row exit 0 with 0 not passed and 0 in doubt; every *-bug row
# exit 0 with 0 not passed and the bug caught by at least one check, on cuda as on cpu (the
# cpu rows as in tests/engine/trust_defaults.sh). A pair row that is not 0 names the check in
# its .json file: a false alarm of the default contract on this GPU's rounding.
# Run from the repository root on the GPU machine, with BIN the kladder built there and OUT a
# folder for the results (about two minutes):
#
#   BIN=build/device/kladder OUT=build/device-out bash bench/results/h200-2026-12-04-trust/run.sh
set -u
cd "$(dirname "$0")/../../.."
BIN=${BIN:-build/kladder}
# the device bundle carries the libraries it was built with beside it
[ -d "$(dirname "$BIN")/lib" ] && export LD_LIBRARY_PATH="$(dirname "$BIN")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
fx=tests/engine/fixtures/trust
export XDG_DATA_HOME=$OUT/data XDG_CACHE_HOME=$OUT/cache

"$BIN" devices >"$OUT/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv >"$OUT/gpu.txt" 2>&1

printf 'suite\tbackend\texit\tcorrect_not_passed\tcorrect_in_doubt\tbug_caught\tbug_checks\tseconds\n' \
    >"$OUT/summary.tsv"
for suite in "$fx"/*-pair.json "$fx"/*-bug.json; do
    name=$(basename "$suite" .json)
    for backend in cuda cpu; do
        s=$SECONDS
        timeout -k 5 120 "$BIN" --db "$OUT/k.db" run --rung 2 --suite "$suite" --backend $backend \
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
pair = name.endswith("-pair")
correct = [c for c in checks if c["variant"] in ("fixed", "baseline-fixed") or
           (pair and c["variant"] in ("buggy", "baseline-buggy"))]
bad = sum(1 for c in correct if c["verdict"] not in ("pass", "skip", "doubt"))
doubt = sum(1 for c in correct if c["verdict"] == "doubt")
bug = [] if pair else [c for c in checks if c["variant"] == "buggy"]
caught = sum(1 for c in bug if c["verdict"] == "fail")
print(f"{name}\t{backend}\t{rc}\t{bad}\t{doubt}\t{caught}\t{len(bug)}\t{secs}")
for c in correct:
    if c["verdict"] not in ("pass", "skip"):
        print(f"#\t{c['variant']}\t{c['check']}\t{c['verdict']}\t{c['detail'][:240]}", file=sys.stderr)
PY
        tail -n 1 "$OUT/summary.tsv"
    done
done
echo
if command -v column >/dev/null; then column -t -s "$(printf '\t')" "$OUT/summary.tsv"; else cat "$OUT/summary.tsv"; fi
