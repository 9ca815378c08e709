#!/usr/bin/env bash
# The cpu backend's race check on four races a GPU hides (tests/engine/fixtures/race): a plain
# `+=` between blocks, the wave leaders' plain `+=` into __shared__ memory, a chained scan and a
# last-block reduction that publish without a fence. Over 20 seeds of the pct schedule
# every buggy variant fails with a race report naming both accesses, and no fixed variant alarms.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
for s in xblock leaders scan lastblock; do
    caught=0 clean=0
    for seed in $(seq 1 20); do
        "$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite tests/engine/fixtures/race/$s.json \
            --backend cpu --repeat 1 --no-progress --timeout 60 --schedule pct --seed $seed >"$KL_TMP/$s.txt" 2>&1
        grep -qE '^fail +buggy' "$KL_TMP/$s.txt" &&
            grep -qE '^ +data race on .*: (atomic )?(write|read) by block [0-9]+ thread [0-9]+ at [a-z_]+_buggy\+0x[0-9a-f]+( \(races\.kl:[0-9]+\))?, then' "$KL_TMP/$s.txt" &&
            caught=$((caught + 1))
        grep -qE '^pass +fixed' "$KL_TMP/$s.txt" && ! grep -q 'data race' <(grep -A1 ' fixed ' "$KL_TMP/$s.txt") &&
            clean=$((clean + 1))
    done
    sed 's/^/# /' "$KL_TMP/$s.txt"
    tap_check "$s: the buggy variant is caught with a race report in >= 19 of 20 seeds ($caught)" test $caught -ge 19
    tap_check "$s: the fixed variant passes without an alarm in 20 of 20 seeds ($clean)" test $clean -eq 20
done
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite tests/engine/fixtures/race/xblock.json \
    --backend cpu --repeat 1 --no-progress --timeout 60 --schedule default >"$KL_TMP/def.txt" 2>&1
tap_check "the default schedule (no access interleaving) does not see the race" \
    grep -qE '^pass +buggy' "$KL_TMP/def.txt"
