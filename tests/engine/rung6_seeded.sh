#!/usr/bin/env bash
# Rung 6 on the cpu backend gives one verdict per seed: the emulated ranks are coroutines of one
# seeded scheduler (engine/cpu/cpu_ranks.h), so `run --case aiter-4812` repeated with one seed while
# two busy loops load the machine gives the same verdict, and the same number of wrong elements,
# in every check of every run. (Ranks on OS threads gave a different check verdict in most runs
# of this loop.) The busy loops run at the lowest priority: they take every core the runs leave
# idle, so the schedule's timing changes, without taking the cores other tests run on beside this
# one (tests/run.sh -j). KL_RUNS sets the number of runs (default 5; 3 on the sanitizer build).
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
runs=${KL_RUNS:-$([ "${KL_SAN:-0}" = 1 ] && echo 3 || echo 5)}

# signature FILE: the run's outcome and, per check, its verdict and wrong-element count
signature() {
    python3 - "$1" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
print("met" if rep["expectation_met"] else "unmet")
for c in rep["checks"]:
    print(c["variant"], c["check"], c["verdict"], c["bad_count"])
PY
}

busy=()
for _ in 1 2; do
    nice -n 19 yes >/dev/null &
    busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT

for i in $(seq "$runs"); do
    "$KLADDER" --db "$KL_TMP/r6.db" run --case aiter-4812 --backend cpu --seed 7 --no-progress \
        --json --timeout 120 >"$KL_TMP/run$i.json" 2>"$KL_TMP/run$i.err"
    echo "# run $i: exit $?"
    signature "$KL_TMP/run$i.json" >"$KL_TMP/sig$i.txt" 2>&1
done
kill "${busy[@]}" 2>/dev/null

tap_check "run 1 meets every expectation" grep -qx met "$KL_TMP/sig1.txt"
tap_check "run 1 has checks" test "$(wc -l <"$KL_TMP/sig1.txt")" -gt 10
same=0
for i in $(seq 2 "$runs"); do
    diff -u "$KL_TMP/sig1.txt" "$KL_TMP/sig$i.txt" | sed 's/^/# /' && same=$((same + 1))
done
tap_check "seed 7 under load: runs 2..$runs give run 1's verdict in every check ($same of $((runs - 1)))" \
    test "$same" -eq $((runs - 1))
