#!/usr/bin/env bash
# The H200 recheck after engine/ moved into rooms and the rung table took the rung-specific
# questions: every built-in case runs with the kladder of the commit before the move
# (build/device-old, from scripts/device-bundle.sh at a69822b) and with the one after
# (build/device), one after the other per case, on the cuda backend; compare.py then lists
# every check whose verdict differs. Run from the repository root on the GPU machine:
#
#   bash bench/results/h200-2026-12-02-rooms/run.sh FIRST LAST     cases FIRST..LAST (1-based)
set -u
cd "$(dirname "$0")/../../.."
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
first=${1:-1} last=${2:-1000}
i=0
for f in kernels/suites/*.json; do
    sed -n 's/.*"case"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -n 1
done | sort -u | while read -r c; do
    i=$((i + 1))
    [ "$i" -ge "$first" ] && [ "$i" -le "$last" ] || continue
    for side in old new; do
        bin=build/device-$side
        [ $side = new ] && bin=build/device
        s=$SECONDS
        LD_LIBRARY_PATH="$PWD/$bin/lib" timeout -k 5 150 "$bin/kladder" --db "$OUT/$side.db" \
            run --case "$c" --backend cuda --timeout 30 --json --no-progress \
            >"$OUT/$side-$c.json" 2>"$OUT/$side-$c.err"
        printf '%s\t%s\t%d\t%d\n' "$side" "$c" $? $((SECONDS - s)) | tee -a "$OUT/steps.tsv"
    done
done
