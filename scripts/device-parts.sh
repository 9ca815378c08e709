#!/usr/bin/env bash
# Sourced by a bench/results/*/run.sh that runs named parts on the GPU machine, from the
# repository root, with the bundle of scripts/device-bundle.sh at build/device. It sets K (the
# bundled kladder) and OUT, and gives:
#   c NAME LIMIT CMD...    runs CMD under a time limit, its output in $OUT/<part>/NAME.txt and
#                          one line in $OUT/steps.tsv (name, exit status, seconds, command); a
#                          failing command never stops the next
#   sh_c NAME LIMIT TEXT   the same for a bash command line
#   run_parts PART...      calls each part's function in $OUT/PART/, exports every results
#                          database it left there as JSON, and packs the folders into one
#                          archive (the machine returns a handful of files, not a folder)
set -u
OUT=${OUT:-build/device-out}
K=$PWD/build/device/kladder
export LD_LIBRARY_PATH="$PWD/build/device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
part=""
c() {
    local name=$1 limit=$2; shift 2
    local s=$SECONDS
    timeout -k 5 "$limit" "$@" >"$OUT/$part/$name.txt" 2>&1
    local rc=$?
    printf '%s/%s\t%d\t%d\t%s\n' "$part" "$name" "$rc" $((SECONDS - s)) "$*" >>"$OUT/steps.tsv"
    echo "-- $part/$name: exit $rc in $((SECONDS - s))s"
}
sh_c() { local name=$1 limit=$2; shift 2; c "$name" "$limit" bash -c "$*"; }
run_parts() {
    for p in "$@"; do
        part=$p
        mkdir -p "$OUT/$part"
        "$p"
    done
    for db in "$OUT"/*/*.db; do
        [ -f "$db" ] && "$K" --db "$db" export >"${db%.db}.export.json" 2>/dev/null
    done
    rm -f "$OUT"/*/*.db "$OUT"/*/*.db-wal "$OUT"/*/*.db-shm
    (cd "$OUT" && tar czf "parts-$(printf '%s-' "$@")results.tar.gz" --exclude='*.tar.gz' ./*/ steps.tsv &&
        find . -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +)
}
