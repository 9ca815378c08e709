#!/usr/bin/env bash
# Rung 5 on the cpu backend runs the pct schedule without being asked (engine/rungs/rung5.c):
# beside its repeats under the run's schedule, each check runs once per pct seed. Three races
# of our own that the default order never shows (tests/engine/fixtures/race: a plain += between
# blocks, a chained scan and a last-block reduction that publish without a fence) are caught
# with no option given, with the race report; their fixed twins pass. --schedule turns it off.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
for s in xblock scan lastblock; do
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite tests/engine/fixtures/race/$s.json \
        --backend cpu --no-progress --timeout 60 >"$KL_TMP/$s.txt" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/$s.txt"
    tap_check "$s: exit 0 with no option ($rc)" test $rc -eq 0
    tap_check "$s: the repeats under the default adversarial order do not reach it" \
        grep -qE '^pass +buggy +r5 repeat-default .*\(not reached here\)' "$KL_TMP/$s.txt"
    tap_check "$s: the pct seed catches it with a race report" \
        sh -c "grep -qE '^fail +buggy +r5 pct1-default ' '$KL_TMP/$s.txt' &&
               grep -A2 -E '^fail +buggy +r5 pct1' '$KL_TMP/$s.txt' | grep -q 'data race on global memory'"
    tap_check "$s: the fixed variant passes its pct seed" grep -qE '^pass +fixed +r5 pct1-default ' "$KL_TMP/$s.txt"
done
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite tests/engine/fixtures/race/xblock.json \
    --backend cpu --no-progress --timeout 60 --schedule adversarial >"$KL_TMP/given.txt" 2>&1
tap_check "--schedule given: no pct check is added" sh -c "! grep -q ' pct[0-9]' '$KL_TMP/given.txt'"
