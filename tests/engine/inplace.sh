#!/usr/bin/env bash
# Kernels that read what they write (tests/engine/fixtures/inplace): an in-place AdamW step whose
# p, m and v are "inout" (filled like inputs, judged like outputs against the reference run on
# the same values), a sum of squares accumulated atomically into an output whose "init" is
# zeros (honoured on every rung, not only by the unit test), and per-block partial sums whose
# reference and output shape read the variant's launch ("block.x", "grid.x"). Each has a
# second correct implementation that passes and a one-line bug that is caught; the AdamW
# manifest with plain outputs is reported instead of passing against NaN. Rung 2's value classes
# fill an inout buffer as they fill an input (row_rescale.cu, whose only float buffer is inout).
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/inplace
run() { # OUT SUITE RUNG [options]: exit status in $rc
    local out=$1 suite=$2 rung=$3; shift 3
    "$KLADDER" --db "$KL_TMP/k.db" run --rung "$rung" --suite "$suite" --backend cpu \
        --no-progress --timeout 60 "$@" >"$KL_TMP/$out.txt" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/$out.txt"
}
has() { grep -qE "$2" "$KL_TMP/$1.txt"; }
lacks() { ! grep -qE "$2" "$KL_TMP/$1.txt"; }

# ---- inout: an in-place optimizer step -------------------------------------------------------
run adamw1 $fx/adamw.json 1
tap_check "adamw rung 1: exit 0 ($rc)" test $rc -eq 0
tap_check "adamw rung 1: the fused step passes every tile" \
    sh -c "grep -cE '^pass +fixed +r1 tile-B' '$KL_TMP/adamw1.txt' | grep -qx 2"
tap_check "adamw rung 1: the decay without lr is caught on p" \
    has adamw1 '^ +p: [0-9]+ of 1024 elements differ from the reference'
tap_check "adamw: a user's suite says which rungs caught it and that its unit test does too" \
    has adamw1 '^inplace-adamw: the bug is caught by rung 1 \(2 of 2 checks\); the plain unit test catches it too \(1 of 1 shapes\)$'
tap_check "adamw: the unit test's catch is not an unmet expectation" has adamw1 '^expectation met: '
run adamw5 $fx/adamw.json 5 --repeat 2
tap_check "adamw rung 5 (inout refilled before every repeat): fixed passes, buggy caught, exit 0 ($rc)" \
    sh -c "test $rc -eq 0 && grep -qE '^pass +fixed +r5 repeat-default' '$KL_TMP/adamw5.txt' &&
           grep -qE '^fail +buggy +r5 repeat-default' '$KL_TMP/adamw5.txt'"

# The same op declared with plain outputs: every buffer the reference reads is its sentinel, and
# NaN against NaN would pass any step. The check does not pass and says what the manifest lacks;
# since both variants fail it the same way (the reference's inputs, not the kernel), it is in
# doubt for both (docs/engine.md), never a pass and never a catch: the run exits 1.
mkdir -p "$KL_TMP/plain"
cp $fx/inplace.kl "$KL_TMP/plain/"
sed 's/"role": "inout"/"role": "output"/; s/"role": "inout", "init": "uniform"/"role": "output"/' \
    $fx/adamw.json >"$KL_TMP/plain/adamw.json"
run plain "$KL_TMP/plain/adamw.json" 1
tap_check "outputs the kernel reads: the fixed variant is not passed vacuously (exit 1)" \
    sh -c "test $rc -eq 1 && grep -qE '^doubt +fixed +r1 tile-B64' '$KL_TMP/plain.txt'"
tap_check "and the finding names the buffer and the missing role" \
    has plain '^ +in doubt: .*p: the reference computed 1024 elements from p.s own unwritten contents \(the sentinel.s NaN, first near \[0\]\): the op reads p, so declare it "role": "inout" \(or give it an "init"\)'

# ---- an output's init on every rung: atomics into a zeroed output ------------------------------
run sumsq1 $fx/sumsq.json 1
tap_check "sumsq rung 1: the atomic accumulation passes against the zeroed reference" \
    sh -c "grep -qE '^pass +baseline-fixed' '$KL_TMP/sumsq1.txt' && grep -qE '^pass +fixed +r1 n3001' '$KL_TMP/sumsq1.txt'"
run sumsq5 $fx/sumsq.json 5
tap_check "sumsq rung 5: the fixed variant passes its repeats and every pct seed ($rc)" \
    sh -c "! grep -qE '^[a-z]+ +fixed .*UNEXPECTED' '$KL_TMP/sumsq5.txt' &&
           test \$(grep -cE '^pass +fixed +r5 ' '$KL_TMP/sumsq5.txt') -eq 5"
tap_check "sumsq rung 5: the plain += between blocks is caught by pct with no option given" \
    has sumsq5 '^fail +buggy +r5 pct1-default'
tap_check "sumsq rung 5: with a race report" has sumsq5 'data race on global memory'
tap_check "sumsq rung 5: exit 0" test $rc -eq 0

# ---- the launch in expressions -----------------------------------------------------------------
run part $fx/partials.json 1
tap_check "partials: the reference takes block.x and the output is grid.x long: every tile passes" \
    sh -c "test \$(grep -cE '^pass +fixed +r1 tile-B' '$KL_TMP/part.txt') -eq 3"
tap_check "partials: the dropped element is caught at every tile" \
    sh -c "test \$(grep -cE '^fail +buggy +r1 tile-B' '$KL_TMP/part.txt') -eq 3"
tap_check "partials: exit 0 ($rc)" test $rc -eq 0
mkdir -p "$KL_TMP/bad"
cp $fx/inplace.kl "$KL_TMP/bad/"
sed 's/"grid": \["ceil(n, B)", 1, 1\]}/"grid": ["ceil(n, block.x)", 1, 1]}/' $fx/partials.json >"$KL_TMP/bad/p.json"
run badlaunch "$KL_TMP/bad/p.json" 1
tap_check "the launch itself cannot name the launch: exit 2 naming the field ($rc)" \
    sh -c "test $rc -eq 2 && grep -q 'launch.grid\[0\]: expected an expression over the parameters: unknown name .block.x.' '$KL_TMP/badlaunch.txt'"

# ---- rung 2 varies an inout buffer -------------------------------------------------------------
# row_rescale.cu: each row divided by its maximum, in place; x is its only float buffer. The
# buggy maximum starts at 0, right whenever a row holds a positive value (every normal row), so
# the unit test passes it and only a value class filling x itself (const-rows) catches it.
run rescale $fx/row_rescale.json 2
tap_check "row_rescale rung 2: exit 0 ($rc)" test $rc -eq 0
tap_check "row_rescale rung 2: the value classes fill the inout buffer (a check per class)" \
    sh -c "grep -cE '^pass +fixed +r2 (const-rows|identical-rows|distinct) ' '$KL_TMP/rescale.txt' | grep -qx 3"
tap_check "row_rescale rung 2: the maximum started at 0 is caught by const-rows, not by the unit test" \
    has rescale '^inplace-row-rescale: the bug is caught by rung 2 \(1 of 3 checks\); the plain unit test does not catch it \(0 of 1 shapes\)$'
