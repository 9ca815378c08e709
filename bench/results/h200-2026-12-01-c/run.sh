#!/usr/bin/env bash
# The H200 runs behind this folder's README: run from the repository root on the GPU machine
# with the bundle of scripts/device-bundle.sh at build/device. Every command runs under a
# time limit, its output kept in $OUT/<part>/<name>.txt, one line per command in $OUT/steps.tsv
# (name, exit status, seconds, command); a failing command never stops the next.
#
#   bash bench/results/h200-2026-12-01-c/run.sh PART...    parts: late ranks
set -u
cd "$(dirname "$0")/../../.."
OUT=${OUT:-build/device-out}
K=$PWD/build/device/kladder
export LD_LIBRARY_PATH="$PWD/build/device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
part=""
c() { # c NAME LIMIT CMD...
    local name=$1 limit=$2; shift 2
    local s=$SECONDS
    timeout -k 5 "$limit" "$@" >"$OUT/$part/$name.txt" 2>&1
    local rc=$?
    printf '%s/%s\t%d\t%d\t%s\n' "$part" "$name" "$rc" $((SECONDS - s)) "$*" >>"$OUT/steps.tsv"
    echo "-- $part/$name: exit $rc in $((SECONDS - s))s"
}
sh_c() { local name=$1 limit=$2; shift 2; c "$name" "$limit" bash -c "$*"; }

late() {
    local D=$OUT/late
    # aiter-6170 with lag copies (auto: seeds 1-4, behind and ahead), whose async copies land late
    c aiter-6170 200 "$K" --db "$D/r.db" run --case aiter-6170 --backend cuda --no-progress
    # the same bug without lag builds: how often does a plain launch read a tile in flight?
    c aiter-6170-plain 200 "$K" --db "$D/r.db" run --rung 5 --suite aiter-6170 --backend cuda --lag off --repeat 20000 --no-progress
    c aiter-6170-unit-x100 200 bash -c "for i in \$(seq 100); do '$K' --db '$D/u.db' run --rung 5 --suite aiter-6170 --backend cuda --lag off --repeat 1 --variant buggy --no-progress | grep -E '^(pass|fail) +baseline-buggy +r5 unit-test-M32-N1024'; done | awk '{print \$1}' | sort | uniq -c"
    c colsum-r5 120 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/async/colsum.json --backend cuda --no-progress
    c colsum-r1 120 "$K" --db "$D/r.db" run --rung 1 --suite tests/engine/fixtures/async/colsum.json --backend cuda --no-progress
    c aiter-5418 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-5418 --backend cuda --no-progress
    c sglang-41868 120 "$K" --db "$D/r.db" run --case sglang-41868 --backend cuda --no-progress
    for s in aiter-6127 aiter-5801 flydsl-1213; do
        c "r2-$s" 120 "$K" --db "$D/r.db" run --rung 2 --suite "$s" --backend cuda --no-progress
    done
    c aiter-4841 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-4841 --backend cuda --no-progress
}

ranks() {
    local D=$OUT/ranks
    c flydsl-1214-one-gpu 200 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --case flydsl-1214 --backend cuda --no-progress
    c stale-flag-one-gpu 120 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --rung 6 --suite tests/engine/fixtures/stale_flag.json --backend cuda --no-progress
    c aiter-4812-one-gpu 200 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --case aiter-4812 --backend cuda --no-progress
}

for p in "$@"; do
    part=$p
    mkdir -p "$OUT/$part"
    "$p"
done
for db in "$OUT"/*/*.db; do
    [ -f "$db" ] && "$K" --db "$db" export >"${db%.db}.export.json" 2>/dev/null
done
rm -f "$OUT"/*/*.db "$OUT"/*/*.db-wal "$OUT"/*/*.db-shm
# one archive: the machine returns a handful of files, not a folder
(cd "$OUT" && tar czf "parts-$(printf '%s-' "$@")results.tar.gz" --exclude='*.tar.gz' ./*/ steps.tsv && find . -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +)
