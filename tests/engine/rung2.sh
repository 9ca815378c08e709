#!/usr/bin/env bash
# Rung 2 on a user's own suites that list it with no settings: a kernel that divides by a row's
# largest magnitude passes the unit test and every random input, and is caught by the all-zero
# rows; an argmax that breaks ties towards the last index is caught by exact ties. The finding
# names the value class, the first bad element and the input there. Narrowed to classes that
# cannot show the bug, the same rung lets it through: the classes are what catch it.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
f=tests/engine/fixtures
run() { # suite out-file [extra args]
    local s=$1 o=$2
    shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite "$s" --backend cpu --no-progress \
        --timeout 60 "$@" >"$o" 2>&1
}

run $f/rowscale.json "$KL_TMP/rs.txt"
rc=$?
sed 's/^/# /' "$KL_TMP/rs.txt"
tap_check "rowscale: expectation met (exit 0)" test $rc -eq 0
tap_check "rowscale: the unit test passes the buggy kernel" grep -qE '^pass +baseline-buggy' "$KL_TMP/rs.txt"
tap_check "rowscale: every class passes the fixed kernel" \
    test "$(grep -cE '^pass +fixed +r2 ' "$KL_TMP/rs.txt")" -eq 14
tap_check "rowscale: zero rows catch the divide by the row maximum" \
    grep -qE '^fail +buggy +r2 zero-rows .*\(expected\)' "$KL_TMP/rs.txt"
tap_check "rowscale: the finding names the class, the element and the input there" \
    grep -qE '^ +value class zero-rows: y: 80 of 240 elements differ from the reference beyond the bound \(first at \[0, 0\];.*NaN/Inf where the reference is finite; input x there is 0$' "$KL_TMP/rs.txt"

run $f/argmax_ties.json "$KL_TMP/am.txt"
rc=$?
sed 's/^/# /' "$KL_TMP/am.txt"
tap_check "argmax: expectation met (exit 0)" test $rc -eq 0
tap_check "argmax: the unit test passes the wrong tie rule" grep -qE '^pass +baseline-buggy' "$KL_TMP/am.txt"
tap_check "argmax: every class passes the fixed kernel" \
    test "$(grep -cE '^pass +fixed +r2 ' "$KL_TMP/am.txt")" -eq 14
tap_check "argmax: exact ties catch the wrong tie rule" \
    grep -qE '^fail +buggy +r2 ties .*\(expected\)' "$KL_TMP/am.txt"
tap_check "argmax: the finding shows the tied row" \
    grep -qE '^ +value class ties: idx: [0-9]+ of 16 elements differ .*; input scores row [0-9]+:( -?0\.[27]5)+ \.\.\.$' "$KL_TMP/am.txt"

# The same suite narrowed to classes without ties or zero rows: the bug escapes (exit 1).
sed 's/"rungs": {"2": {}}/"rungs": {"2": {"classes": ["one-hot", "peaked", "distinct"]}}/' \
    $f/argmax_ties.json >"$KL_TMP/argmax_narrow.json"
cp $f/argmax_ties.kl "$KL_TMP/"
run "$KL_TMP/argmax_narrow.json" "$KL_TMP/nar.txt"
rc=$?
sed 's/^/# /' "$KL_TMP/nar.txt"
tap_check "argmax without tie classes: the buggy kernel escapes (exit 1)" test $rc -eq 1
tap_check "and the report says so" grep -q 'not caught: argmax-ties-test rung 2' "$KL_TMP/nar.txt"

# --json carries the class in the detail of each check.
run $f/rowscale.json "$KL_TMP/rs.json" --json --variant buggy
tap_check "--json: the zero-rows check's detail names its class" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=[x for x in d["checks"] if x["check"]=="zero-rows" and x["variant"]=="buggy"][0]; sys.exit(0 if c["detail"].startswith("value class zero-rows: ") and c["first_bad"]==0 else 1)' "$KL_TMP/rs.json"

# "ties": "any": an argmax that sends ties to the last index is right under that contract (it
# passes every class, ties included), and one that never looks at the last score is still
# caught, with the pick that is outside the tied set named.
run $f/argmax_any.json "$KL_TMP/any.txt"
sed 's/^/# /' "$KL_TMP/any.txt"
tap_check "ties any: the last-index argmax passes every class" \
    test "$(grep -cE '^pass +fixed +r2 ' "$KL_TMP/any.txt")" -eq 14
tap_check "ties any: a pick outside the tied set is caught and named" \
    grep -qE "^ +value class [a-z-]+: idx: [0-9]+ of 16 picks are outside the reference's tied set of scores \(first at \[[0-9]+\]\); input scores row" "$KL_TMP/any.txt"

# "nan": "never": against a reference that divides by zero too, the NaN of the all-zero rows
# matches the reference and passes; the rule makes it a failure of its own.
run $f/rowscale_nan.json "$KL_TMP/nan.txt" --variant buggy
sed 's/^/# /' "$KL_TMP/nan.txt"
tap_check "nan never: NaN from finite inputs fails even where the reference has it" \
    grep -qE '^fail +buggy +r2 zero-rows .*' "$KL_TMP/nan.txt"
tap_check "nan never: the finding names the rule and the input" \
    grep -qE '^ +value class zero-rows: y: 80 NaN from finite inputs \(first at \[0, 0\]; its rule is "nan": "never"\); input x there is 0$' "$KL_TMP/nan.txt"
sed 's/, "nan": "never"//' $f/rowscale_nan.json >"$KL_TMP/rowscale_prop.json"
cp $f/rowscale.kl "$KL_TMP/"
run "$KL_TMP/rowscale_prop.json" "$KL_TMP/prop.txt" --variant buggy
tap_check "nan propagate (the default): the same NaN passes" grep -qE '^pass +buggy +r2 zero-rows' "$KL_TMP/prop.txt"

# rows_sum_to: a softmax that forgets to subtract the row maximum overflows on the largest
# finite values; its reference has the same flaw, so only the property, which needs no
# reference, sees the rows that no longer sum to 1. Without the property it passes.
run $f/softmax_rows.json "$KL_TMP/sm.txt" --variant buggy
sed 's/^/# /' "$KL_TMP/sm.txt"
tap_check "rows_sum_to: the naive softmax is caught on the largest finite values" \
    grep -qE '^ +value class max-finite: P: [0-9]+ of 12 rows do not sum to 1 \(first row at \[[0-9]+, 0\]; input X there is ' "$KL_TMP/sm.txt"
tap_check "rows_sum_to: rows that sum to NaN are not told a largest error below the tolerance" \
    sh -c "grep -qE 'rows do not sum to 1 .*, some sums are NaN or infinite\$' '$KL_TMP/sm.txt' &&
           ! grep -q 'do not sum to 1 .*largest error' '$KL_TMP/sm.txt'"
sed -e '/"properties"/d' -e 's/"classes": \["max-finite", "peaked"\],$/"classes": ["max-finite", "peaked"]}}/' \
    $f/softmax_rows.json >"$KL_TMP/softmax_noprop.json"
cp $f/softmax_rows.kl "$KL_TMP/"
run "$KL_TMP/softmax_noprop.json" "$KL_TMP/sm2.txt" --variant buggy
tap_check "without the property the shared flaw passes" grep -qE '^pass +buggy +r2 max-finite' "$KL_TMP/sm2.txt"
