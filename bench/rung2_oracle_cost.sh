#!/usr/bin/env bash
# The cost of rung 2's oracles: `kladder run --rung 2 --suite S --backend cpu` timed end to end
# for one or more kladder binaries, run alternately in one session (old and new side by side),
# over the built-in suites that list rung 2. Each binary gets its own database and a warm
# compile cache (one untimed run of each suite first).
#
#   bench/rung2_oracle_cost.sh [--repeat N] [--suites "A B"] BINARY...
#
# Prints per binary and suite: the median wall time, the checks, and the median per check.
set -u
repeat=3 suites="flydsl-1020 flydsl-1213 atom-1750 aiter-5801 aiter-6127"
while [ $# -gt 0 ]; do
    case $1 in
    --repeat) repeat=$2; shift 2 ;;
    --suites) suites=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--repeat N] [--suites \"A B\"] BINARY..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache XDG_DATA_HOME=$tmp/data
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
for s in $suites; do
    i=0
    for k in "$@"; do
        "$k" --db "$tmp/$i.db" run --rung 2 --suite "$s" --backend cpu --no-progress >/dev/null 2>&1
        i=$((i + 1))
    done
    for r in $(seq "$repeat"); do
        i=0
        for k in "$@"; do
            t0=$(date +%s.%N)
            "$k" --db "$tmp/$i.db" run --rung 2 --suite "$s" --backend cpu --no-progress --json \
                >"$tmp/out.json" 2>/dev/null
            t1=$(date +%s.%N)
            n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["checks"]))' "$tmp/out.json")
            echo "$i $s $(echo "$t1 - $t0" | bc -l) $n" >>"$tmp/times"
            i=$((i + 1))
        done
    done
done
i=0
for k in "$@"; do
    tot=0
    for s in $suites; do
        w=$(awk -v i=$i -v s=$s '$1 == i && $2 == s {print $3}' "$tmp/times" | median)
        n=$(awk -v i=$i -v s=$s '$1 == i && $2 == s {print $4}' "$tmp/times" | head -1)
        printf '%-40s %-12s %7.2f s %4d checks %7.1f ms a check\n' "$k" "$s" "$w" "$n" \
            "$(echo "$w * 1000 / $n" | bc -l)"
        tot=$(echo "$tot + $w" | bc -l)
    done
    printf '%-40s %-12s %7.2f s\n' "$k" "all" "$tot"
    i=$((i + 1))
done
