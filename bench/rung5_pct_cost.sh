#!/usr/bin/env bash
# What rung 5's pct seeds cost on the cpu backend: `kladder run --rung 5 --suite S --backend
# cpu` for every built-in suite with rung 5 (but aiter-4841, below), once with `--schedule adversarial` (the plan rung 5
# ran before it added pct seeds: the same repeats, nothing else) and once with no option (the
# repeats and the pct seeds), in CPU seconds of the run and its workers (user + system, which a
# loaded machine changes less than wall time), each after one untimed run that warms the
# compile cache. Rung 1 of flydsl-1199 beside them: a rung whose plan did not change.
#
#   bench/rung5_pct_cost.sh [BINARY]        (default build/kladder)
#
# Prints one line per suite and plan: suite, rung, plan, CPU seconds, wall seconds, summary.
set -u
bin=${1:-build/kladder}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache XDG_DATA_HOME=$tmp/data
one() { # SUITE RUNG LABEL [options]
    local s=$1 r=$2 label=$3
    shift 3
    "$bin" --db "$tmp/warm.db" run --rung "$r" --suite "$s" --backend cpu --no-progress "$@" >/dev/null 2>&1
    /usr/bin/time -f "%U %S %e" -o "$tmp/t" "$bin" --db "$tmp/k.db" run --rung "$r" --suite "$s" \
        --backend cpu --no-progress "$@" >"$tmp/out" 2>&1
    read -r u sy e < <(tail -n 1 "$tmp/t")
    printf '%-13s r%s %-22s cpu %7.2f s  wall %7.2f s  %s\n' "$s" "$r" "$label" \
        "$(echo "$u + $sy" | bc)" "$e" \
        "$(grep -E '^(expectation met|EXPECTATION NOT MET)' "$tmp/out" | cut -c1-90)"
}
# aiter-4841 declares its schedule (random) for rung 5: no pct seed is added there, and
# --schedule would override its own, so it runs once, as it ran before.
one aiter-4841 5 "its own (unchanged)"
for s in aiter-5418 aiter-6170 aiter-6344 sglang-41868; do
    one $s 5 "adversarial (before)" --schedule adversarial
    one $s 5 "default (pct seeds)"
done
one flydsl-1199 1 "adversarial"
one flydsl-1199 1 "default"
