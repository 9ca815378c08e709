#!/usr/bin/env bash
# A warm compile cache and a cold one give the same results (flydsl-1277: 22 failures warm, 2
# cold). Each suite runs cold (KLADDER_NO_CACHE=1), then at wave 32 against a cache filled at
# wave 64 (the cpu backend picks the wave at launch, so both widths share one object: the entry
# must be reused and must not carry the other width into the results), then warm again; every
# check's verdict, first bad element, bad count and largest error must match the cold run's.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_TMP/cache
unset KLADDER_NO_CACHE
project() { # the fields that must not depend on the cache, one line per check
    python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    print(c["variant"], c["check"], c["shape"], c["verdict"], c["first_bad"], c["bad_count"], c["max_err"])
' "$1"
}
entries() { find "$XDG_CACHE_HOME/kladder/code" -name '*.bin' 2>/dev/null | wc -l; }
for suite in flydsl-1199 aiter-6344-tail; do
    run() { "$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$suite" --backend cpu --no-progress --json "$@" 2>/dev/null; }
    KLADDER_NO_CACHE=1 run >"$KL_TMP/cold.json"
    tap_check "$suite: the cold run leaves the cache empty" test "$(entries)" -eq 0
    run --wave 64 >/dev/null
    filled=$(entries)
    tap_check "$suite: a wave-64 run fills the cache ($filled entries)" test "$filled" -gt 0
    run >"$KL_TMP/first.json"   # wave 32 from wave-64 entries: same object, wave set at launch
    before=$(entries)
    tap_check "$suite: wave 32 reuses the wave-64 entries ($filled -> $before)" test "$before" -eq "$filled"
    run >"$KL_TMP/warm.json"
    tap_check "$suite: the warm run compiles nothing new" test "$(entries)" -eq "$before"
    project "$KL_TMP/cold.json" >"$KL_TMP/cold.txt"
    project "$KL_TMP/first.json" >"$KL_TMP/first.txt"
    project "$KL_TMP/warm.json" >"$KL_TMP/warm.txt"
    tap_check "$suite: the cold run has checks ($(wc -l <"$KL_TMP/cold.txt"))" test -s "$KL_TMP/cold.txt"
    tap_diff "$suite: a cache filled by another configuration gives the cold results" "$KL_TMP/cold.txt" "$KL_TMP/first.txt"
    tap_diff "$suite: the warm cache gives the cold results" "$KL_TMP/cold.txt" "$KL_TMP/warm.txt"
    rm -rf "$XDG_CACHE_HOME"
done
