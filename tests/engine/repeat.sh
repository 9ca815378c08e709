#!/usr/bin/env bash
# Rung 5's bitwise-repeat oracle: a reduction whose atomic additions land in a different order
# on every launch stays within the reference's tolerance (the first run passes) but its repeats
# differ bitwise from the first run. The adversarial schedule varies the order per launch; the
# default schedule is deterministic, so there the same kernel is not caught.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_TMP/cache
s=tests/engine/fixtures/nondet.json
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $s --backend cpu --repeat 3 --no-progress \
    --timeout 30 >"$KL_TMP/adv.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/adv.txt"
tap_check "adversarial: expectation met (exit 0)" test $rc -eq 0
tap_check "the fixed reduction repeats bitwise" grep -qE '^pass +fixed +r5 repeat-default' "$KL_TMP/adv.txt"
tap_check "the atomic reduction is caught by its repeats" grep -qE '^fail +buggy +r5 repeat-default' "$KL_TMP/adv.txt"
tap_check "by the repeats' content hashes, not the reference (--repeat 3 honoured)" \
    grep -qE "^ +3 repeats: [0-9]+ differed from the first run's content hash" "$KL_TMP/adv.txt"
tap_check "and a byte-for-byte re-run names the first differing byte" \
    grep -qE '[0-9]+ 8-byte words differed from the first run \(first at byte [0-9]+\)' "$KL_TMP/adv.txt"
tap_check "the baseline passes it" grep -qE '^pass +baseline-buggy' "$KL_TMP/adv.txt"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $s --backend cpu --repeat 3 --no-progress \
    --schedule default --timeout 30 >"$KL_TMP/def.txt" 2>&1
rc=$?
tap_check "default schedule: deterministic, the buggy reduction escapes (exit 1)" test $rc -eq 1
tap_check "and the report says it was not caught" grep -q 'not caught: tests/engine/fixtures/nondet.json rung 5' "$KL_TMP/def.txt"
