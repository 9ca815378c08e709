#!/usr/bin/env bash
# Every built-in case (the 32, the three non-kernel cases among them) with `run --case` on the
# cuda backend of an H200, with the kladder of scripts/device-bundle.sh (build/device). Writes one
# JSON report per case and steps.tsv (case, exit status, seconds) under OUT. Run from the
# repository root on the GPU machine:
#
#   bash bench/results/h200-2026-12-02-cases32/run.sh            (BIN=another bundle folder)
set -u
cd "$(dirname "$0")/../../.."
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
bin=${BIN:-build/device}
for f in kernels/suites/*.json; do
    sed -n 's/.*"case"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -n 1
done | sort -u | while read -r c; do
    s=$SECONDS
    LD_LIBRARY_PATH="$PWD/$bin/lib" timeout -k 5 150 "$bin/kladder" --db "$OUT/k.db" \
        run --case "$c" --backend cuda --timeout 30 --json --no-progress \
        >"$OUT/$c.json" 2>"$OUT/$c.err"
    printf '%s\t%d\t%d\n' "$c" $? $((SECONDS - s)) | tee -a "$OUT/steps.tsv"
done
LD_LIBRARY_PATH="$PWD/$bin/lib" "$bin/kladder" --db "$OUT/k.db" export --all --out "$OUT/export.json" 2>&1 | tail -n 2
