#!/usr/bin/env bash
# NaN reach by contract (docs/engine.md, "Contracts, bounds and doubt", rule 6): by default a
# NaN/Inf input may poison every output of the reduction it enters (its row, its column), so a
# correct causal softmax whose masked keys come out 0 / NaN in a row with a NaN in a visible key
# passes nan-inf, run alone as a user runs one kernel; a kernel that leaks the NaN into another
# row (a reset by multiplying by zero, which NaN survives) still fails, in the rows it does not
# reach. tests/engine/fixtures/nanreach.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/nanreach
run() { # OUT VARIANT: exit status in $rc
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite $fx/causal.json --backend cpu \
        --no-progress --timeout 60 --variant "$2" >"$KL_TMP/$1.txt" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/$1.txt" | cut -c1-300
}
run fixed fixed
tap_check "causal softmax alone: exit 0 ($rc)" test $rc -eq 0
tap_check "causal softmax: nan-inf passes though its masked keys are NaN in a NaN row" \
    grep -qE '^pass +fixed +r2 nan-inf ' "$KL_TMP/fixed.txt"
tap_check "causal softmax: nothing fails or is in doubt" \
    sh -c "! grep -qE '^(fail|doubt|error)' '$KL_TMP/fixed.txt'"
run leak buggy
tap_check "the leak into another row fails nan-inf" grep -qE '^fail +buggy +r2 nan-inf ' "$KL_TMP/leak.txt"
tap_check "... named as elements the NaN does not reach" \
    grep -qE "^ +value class nan-inf: P: [0-9]+ elements that the inputs' NaN/Inf .* do not reach" "$KL_TMP/leak.txt"
tap_check "the leak passes the ordinary class (a NaN-only bug)" grep -qE '^pass +buggy +r2 distinct ' "$KL_TMP/leak.txt"
