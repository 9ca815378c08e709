#!/usr/bin/env bash
# Rung 5's bitwise-repeat oracle: a reduction whose atomic additions land in a different order
# on every launch stays within the reference's tolerance (the first run passes) but its repeats
# differ bitwise from the first run. The adversarial schedule varies the order per launch; the
# default schedule is deterministic, so there the same kernel is not caught.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
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
tap_check "and the report says it was not caught" grep -q 'not caught: nondet-test rung 5' "$KL_TMP/def.txt"

# Every repeat starts from the sentinel: a kernel of ours that writes its output on its first
# call only (later calls find their scratch flag set and write nothing) must not match the first
# run by leaving the first run's output in place.
w=tests/engine/fixtures/write_once.json
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $w --backend cpu --no-progress \
    --timeout 30 >"$KL_TMP/once.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/once.txt"
tap_check "write-once kernel: expectation met (exit 0)" test $rc -eq 0
tap_check "a repeat that writes nothing differs from the first run" \
    grep -qE "^ +2 repeats: 2 differed from the first run's content hash" "$KL_TMP/once.txt"
tap_check "the kernel that writes on every call passes" grep -qE '^pass +fixed +r5 repeat-default' "$KL_TMP/once.txt"

# --repeat auto: N = ceil(ln(1-C)/ln(1-R)) = 299 for R = 0.01, C = 0.95, rounded up to whole
# graphs of 32 (320); the run says which rate its repeats rule out.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $w --backend cpu --variant fixed --no-progress \
    --repeat auto --rate 0.01 --confidence 0.95 --timeout 30 >"$KL_TMP/auto.txt" 2>&1
sed 's/^/# /' "$KL_TMP/auto.txt"
tap_check "--repeat auto --rate 0.01 --confidence 0.95: the rate ruled out is reported" \
    grep -qE '^ +320 repeats equal to the first run: rules out a failure rate of 0.00932 or more per run at 95% confidence' "$KL_TMP/auto.txt"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $w --backend cpu --variant fixed --no-progress \
    --repeat auto --rate 0.01 --confidence 0.95 --timeout 30 --json >"$KL_TMP/auto.json" 2>/dev/null
tap_check "--json: repeats and rules_out" sh -c "grep -qE '\"repeats\":[[:space:]]*320' '$KL_TMP/auto.json' && grep -q '\"rules_out\"' '$KL_TMP/auto.json'"
# The suite's declared rate (0.5 at 0.9: 4 repeats) replaces its explicit repeats (2) under auto.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $w --backend cpu --variant fixed --no-progress \
    --repeat auto --timeout 30 >"$KL_TMP/auto2.txt" 2>&1
tap_check "--repeat auto alone: N from the suite's declared rate and confidence" \
    grep -qE '^ +4 repeats equal to the first run: rules out a failure rate of 0.438 or more per run at 90% confidence' "$KL_TMP/auto2.txt"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $w --backend cpu --repeat 5 --rate 0.1 \
    --no-progress >"$KL_TMP/both.txt" 2>&1
rc=$?
tap_check "--repeat N with --rate: usage error (exit 2)" test $rc -eq 2
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $w --backend cpu --rate 1.5 \
    --no-progress >"$KL_TMP/bad.txt" 2>&1
rc=$?
tap_check "--rate 1.5: usage error naming the option" sh -c "test $rc -eq 2 && grep -q -- '--rate expects a probability' '$KL_TMP/bad.txt'"

# Small outputs rotate through copies inside the graph, one hash-and-refill per 8 repeats: a
# kernel of ours that writes one element past its output from its second call on passes its
# first run, and its repeats' stores land in the guards of the copies they were given.
o=tests/engine/fixtures/late_oob.json
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $o --backend cpu --no-progress \
    --timeout 30 >"$KL_TMP/oob.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/oob.txt"
tap_check "late out-of-bounds kernel: expectation met (exit 0)" test $rc -eq 0
tap_check "its repeats' stores outside the output copies are counted" \
    grep -qE '^ +64 repeats: 7 guard words around the output copies changed' "$KL_TMP/oob.txt"
# Large N on a small output: 1024 repeats per graph, N rounded up to whole graphs.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite bench/repeat_tiny.json --backend cpu \
    --no-progress --repeat 8200 --timeout 60 >"$KL_TMP/big.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/big.txt"
tap_check "--repeat 8200 on the benchmark's tiny kernel: 9216 repeats (9 graphs of 1024), all equal" \
    sh -c "test $rc -eq 0 && grep -qE '^ +9216 repeats equal to the first run' '$KL_TMP/big.txt'"
