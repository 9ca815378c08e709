#!/usr/bin/env bash
# Outputs the kernel reads, the launch in expressions, crashes as verdicts, on the H200 (cuda
# backend): the in-place AdamW step ("inout"), the atomic sum of squares into a zeroed output
# ("init": "zeros") and the per-block partials whose reference takes "block.x"
# (tests/engine/fixtures/inplace) through rungs 1 and 5, and the segmented scan
# (tests/engine/fixtures/lds) with its crashing variant through rung 1. Then the five built-in
# suites with rung 5, whose plan on a GPU did not change (pct seeds are the cpu backend's).
# One line per run in $OUT/steps.tsv: what, exit status, seconds; each run's --json beside it.
#
#   BIN=path/to/kladder OUT=out-folder bash bench/results/h200-2026-12-02-inout/run.sh
#
# Expected: every run exits 0 except where noted in steps.tsv's "expect" column. On a GPU the
# sum of squares' plain += between blocks may or may not lose an update (it is the cpu's pct
# seeds that catch it for sure): its buggy variant is reported either way, exit 0 or 1.
set -u
cd "$(dirname "$0")/../../.."
BIN=${BIN:-build/kladder}
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
printf 'what\texpect\trc\tseconds\n' >"$OUT/steps.tsv"
one() { # NAME EXPECT ARGS...
    local name=$1 expect=$2
    shift 2
    local s=$SECONDS
    timeout -k 5 300 "$BIN" --db "$OUT/k.db" run --backend cuda --timeout 30 --no-progress "$@" \
        --json >"$OUT/$name.json" 2>"$OUT/$name.err"
    local rc=$?
    "$BIN" --db "$OUT/k.db" run --backend cuda --timeout 30 --no-progress "$@" >"$OUT/$name.txt" 2>&1
    printf '%s\t%s\t%d\t%d\n' "$name" "$expect" $rc $((SECONDS - s)) | tee -a "$OUT/steps.tsv"
}
fx=tests/engine/fixtures
one adamw-r1 0 --rung 1 --suite $fx/inplace/adamw.json
one adamw-r5 0 --rung 5 --suite $fx/inplace/adamw.json
one sumsq-r1 "0 or 1" --rung 1 --suite $fx/inplace/sumsq.json
one sumsq-r5 "0 or 1" --rung 5 --suite $fx/inplace/sumsq.json
one partials-r1 0 --rung 1 --suite $fx/inplace/partials.json
one segscan-r1 "0 or 1 (a GPU may not notice the overflow)" --rung 1 --suite $fx/lds/segscan.json
one crash-r1 "1 (on a GPU the wild load is a launch error, not a crash of the worker)" --rung 1 --suite $fx/lds/crash.json
for s in aiter-4841 aiter-5418 aiter-6170 aiter-6344 sglang-41868; do
    one "$s-r5" 0 --rung 5 --suite "$s"
done
