#!/usr/bin/env bash
# The cost of the cpu backend's access interleaving and race check: `kladder run --case ID
# --backend cpu` (every rung the case has, adversarial schedule) timed for one or more kladder
# binaries, old and new side by side, in CPU seconds of the run and its workers (user + system,
# which a loaded machine changes less than wall time), after one untimed run that warms the
# compile cache. Checks get 30 s (a buggy variant that hangs costs that much on every binary).
#
#   bench/cpu_sched_cost.sh [--cases "ID ID..."] BINARY...
#
# Prints one line per case and binary: case, binary, CPU seconds, wall seconds, verdict summary.
set -u
cases="flydsl-1199 aiter-4494 aiter-6402 sglang-37751 aiter-4812"
if [ "${1:-}" = --cases ]; then
    cases=$2
    shift 2
fi
[ $# -ge 1 ] || { echo "usage: $0 [--cases \"ID...\"] BINARY..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache XDG_DATA_HOME=$tmp/data
for c in $cases; do
    i=0
    for k in "$@"; do
        "$k" --db "$tmp/warm$i.db" run --case "$c" --backend cpu --no-progress --timeout 30 >/dev/null 2>&1
        /usr/bin/time -f "%U %S %e" -o "$tmp/t" "$k" --db "$tmp/k$i.db" run --case "$c" --backend cpu \
            --no-progress --timeout 30 >"$tmp/out" 2>&1
        read -r u s e <"$tmp/t"
        printf '%-14s %-40s cpu %7.2f s  wall %7.2f s  %s\n' "$c" "$k" "$(echo "$u + $s" | bc)" "$e" \
            "$(grep -E '^(expectation met|EXPECTATION NOT MET)' "$tmp/out" | cut -c1-60)"
        i=$((i + 1))
    done
done
