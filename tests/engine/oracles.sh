#!/usr/bin/env bash
# The oracles see what a kernel of our own does wrong, on the cpu backend:
# - a write one element past a scratch buffer lands in its guard, and every guard of every
#   buffer is compared after every check (rung 1, and each replay of rung 4's graph);
# - an elementwise copy whose flat index is held in too few bits (16 here, the 32-bit int of a
#   2^31-element output at a size the cpu runs) never writes the tail of its output; when the
#   reference shares the mistake, the compare sees sentinel against sentinel, so the oracle must
#   fail elements of the shape that neither wrote.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures
db=$KL_TMP/k.db

"$KLADDER" --db "$db" run --rung 1 --suite $fx/scratch_oob.json --backend cpu --no-progress \
    >"$KL_TMP/s1.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/s1.txt"
tap_check "scratch overflow, rung 1: expectation met (fixed passes, buggy caught)" test "$rc" -eq 0
tap_check "scratch overflow, rung 1: the guard after scratch tmp is named" \
    grep -q '^       scratch tmp: 1 words past its end (padding included) were written (first at byte +0)' "$KL_TMP/s1.txt"
tap_check "scratch overflow, rung 1: the plain unit test does not see it (the lesson)" \
    grep -q '^pass   baseline-buggy' "$KL_TMP/s1.txt"

"$KLADDER" --db "$db" run --rung 4 --suite $fx/scratch_oob.json --backend cpu --no-progress \
    >"$KL_TMP/s4.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/s4.txt"
tap_check "scratch overflow, rung 4 graph: buggy caught at a replay" \
    grep -q 'replay 1 of 3: scratch tmp: 1 words past its end' "$KL_TMP/s4.txt"
tap_check "scratch overflow, rung 4 graph: the fixed variant passes" grep -q '^pass   fixed .*graph-replay' "$KL_TMP/s4.txt"

"$KLADDER" --db "$db" run --rung 1 --suite $fx/idx_wrap.json --backend cpu --variant buggy \
    --no-progress --json >"$KL_TMP/w.json" 2>"$KL_TMP/w.err"
rc=$?
sed 's/^/# /' "$KL_TMP/w.json" | grep -E 'verdict|detail|bad_count' | head -12
tap_check "wrapped index shared by the reference: caught (exit 0, buggy expected to fail)" test "$rc" -eq 0
tap_check "wrapped index: the detail counts the 4464 tail elements written by neither" \
    grep -q '4464 elements inside its shape were written by neither the variant nor the reference (still the sentinel in both, first at \[65536\])' "$KL_TMP/w.json"
tap_check "wrapped index: bad_count is not 0" grep -qE '"bad_count":[[:space:]]*4464' "$KL_TMP/w.json"
