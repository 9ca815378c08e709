#!/usr/bin/env bash
# The repeat benchmark (issue: repeats that prove a rate): N repeats of the smallest kernel
# (bench/repeat_tiny.json: one block of 64 threads, 64 floats) by `kladder run --rung 5`, the
# whole command timed by the wall clock, and repeats per second printed. The target is
# N = 1.28e8 (aiter-4841's 7 failures in 292,889,600 calls ruled out at 95% needs 125,345,546)
# in at most 180 s on the H200. On the cpu backend only small N are practical; --extrapolate
# then prints what 1.28e8 would take at that rate (for development only: a GPU run must do the
# full count).
#
#   bench/repeat_rate.sh [--backend cuda|hip|cpu] [--repeats N] [--extrapolate] [--timeout S]
set -euo pipefail
cd "$(dirname "$0")/.."
K=${KLADDER:-build/kladder}
backend=cuda repeats=128000000 extrapolate=0 timeout=600
while [ $# -gt 0 ]; do
    case $1 in
        --backend) backend=$2; shift 2 ;;
        --repeats) repeats=$2; shift 2 ;;
        --extrapolate) extrapolate=1; shift ;;
        --timeout) timeout=$2; shift 2 ;;
        *) echo "usage: $0 [--backend B] [--repeats N] [--extrapolate] [--timeout S]" >&2; exit 2 ;;
    esac
done
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export XDG_DATA_HOME=$w/data XDG_CACHE_HOME=$w/cache
# compile once outside the timed run, as a second run of the same kernel would find it cached
"$K" --db "$w/k.db" run --rung 5 --suite bench/repeat_tiny.json --backend "$backend" \
    --variant fixed --repeat 64 --no-progress >/dev/null 2>&1 || true
t0=$(date +%s.%N)
set +e
"$K" --db "$w/k.db" run --rung 5 --suite bench/repeat_tiny.json --backend "$backend" \
    --variant fixed --repeat "$repeats" --timeout "$timeout" --no-progress >"$w/out.txt" 2>&1
rc=$?
set -e
t1=$(date +%s.%N)
sed 's/^/# /' "$w/out.txt"
ran=$(sed -nE 's/^ +([0-9]+) repeats equal to the first run.*/\1/p' "$w/out.txt" | head -n 1)
if [ "$rc" -ne 0 ] || [ -z "$ran" ]; then
    echo "repeat_rate: the run did not pass its repeats (exit $rc)" >&2
    exit 1
fi
python3 - "$ran" "$t0" "$t1" "$backend" "$extrapolate" <<'PY'
import sys
ran, t0, t1, backend, extra = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5] == "1"
wall = t1 - t0
rate = ran / wall
print("backend %s: %d repeats in %.2f s wall (whole kladder run): %.0f repeats/s" % (backend, ran, wall, rate))
if extra:
    print("extrapolated, development only: 1.28e8 repeats would take %.0f s at this rate" % (1.28e8 / rate))
else:
    print("1.28e8 in <= 180 s needs %.0f repeats/s: %s" % (1.28e8 / 180, "met" if ran >= 128000000 and wall <= 180 else "not shown by this run"))
PY
