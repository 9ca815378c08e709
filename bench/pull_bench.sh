#!/usr/bin/env bash
# Pull benchmark: two hosts of 50,000 checks each (500 runs x 100 checks) pulled into a fresh
# database, over file:// and over http on loopback. Target: <= 1 s wall on 2 cores.
#
#   bench/pull_bench.sh [--runs R] [--checks C] [--repeat N] [--cores LIST]
#
# KLADDER (default build/kladder) is the binary measured. --cores pins the pull to those CPUs
# with taskset (e.g. 0,1 for "2 cores" on a bigger machine). Prints one line per repetition with
# kladder's own split (fetch / parse / merge, from `pull --timing`) and the best and median wall
# times at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=500 checks=100 repeat=5 cores=
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --checks) checks=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --cores) cores=$2; shift 2 ;;
        *) echo "usage: $0 [--runs R] [--checks C] [--repeat N] [--cores LIST]" >&2; exit 2 ;;
    esac
done
K=${KLADDER:-build/kladder}
[ -x "$K" ] || { echo "no binary at $K (make first, or set KLADDER)" >&2; exit 2; }
pin=()
[ -n "$cores" ] && pin=(taskset -c "$cores")
w=$(mktemp -d)
srv=
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$w"; }
trap cleanup EXIT

gen=tests/fixtures/remote/gen_results.py
python3 $gen --host gpu-a --runs "$runs" --checks "$checks" --out "$w/a.json"
python3 $gen --host gpu-b --runs "$runs" --checks "$checks" --seed 2 --speed 1.3 \
    --device "NVIDIA H200" --backend cuda --out "$w/b.json"
echo "documents: 2 x $runs runs x $checks checks ($(du -h "$w/a.json" | cut -f1) and $(du -h "$w/b.json" | cut -f1))"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')${cores:+, pinned to CPUs $cores}"

python3 tests/importers/serve.py --root "$w" --port-file "$w/port" &
srv=$!
for _ in $(seq 1 100); do [ -s "$w/port" ] && break; sleep 0.05; done
port=$(cat "$w/port")

one() { # $1 label, $2 url a, $3 url b
    local db=$w/bench.db
    rm -f "$db" "$db-wal" "$db-shm"
    "$K" --db "$db" hosts add a "$2" >/dev/null
    "$K" --db "$db" hosts add b "$3" >/dev/null
    sync
    local t0 t1
    t0=$(date +%s.%N)
    "${pin[@]}" "$K" --db "$db" pull --timing >"$w/out" 2>"$w/timing"
    t1=$(date +%s.%N)
    grep -q "^a: $runs new runs, $((runs * checks)) checks" "$w/out" || { cat "$w/out"; exit 1; }
    grep -q "^b: $runs new runs, $((runs * checks)) checks" "$w/out" || { cat "$w/out"; exit 1; }
    local wall
    wall=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
    echo "$1 $wall s   $(tr '\n' ';' <"$w/timing" | sed 's/;$//; s/;/; /g')"
    echo "$wall" >>"$w/walls.$1"
}
for i in $(seq 1 "$repeat"); do
    one file "file://$w/a.json" "file://$w/b.json"
    one http "http://127.0.0.1:$port/files/a.json" "http://127.0.0.1:$port/files/b.json"
done
for kind in file http; do
    sort -n "$w/walls.$kind" | python3 -c "
import sys
v = [float(x) for x in sys.stdin]
print(f'$kind: best {v[0]:.3f} s, median {v[len(v) // 2]:.3f} s over {len(v)} pulls of {2 * $runs * $checks} checks')"
done
