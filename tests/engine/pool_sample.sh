#!/usr/bin/env bash
# Full pools on the cpu backend: a rung 4 pool check whose input is beyond the cpu's reach fills
# only the rows its checks read (rung 4's "pool_sample"), the rest reserved and unbacked, and
# says so. atom-2533 (an int32 row x 576 offset) is then conclusive on the cpu, and so is a
# gather of our own (row x 1000 in an int), caught at the first element past 2^31.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
t=120
[ "${KL_SAN:-0}" = 1 ] && t=300

"$KLADDER" --db "$db" run --rung 4 --suite atom-2533 --backend cpu --no-progress --timeout $t \
    >"$KL_TMP/a.txt" 2>&1
rc=$?
cut -c1-240 "$KL_TMP/a.txt" | sed 's/^/# /'
tap_check "atom-2533 on cpu: expectation met (exit 0)" test "$rc" -eq 0
tap_check "atom-2533 on cpu: conclusive, nothing skipped" sh -c "! grep -qiE '^(skip|inconclusive)' '$KL_TMP/a.txt'"
tap_check "atom-2533: at the wrap the gather reads zeros from the wrapped row on (row 512, column 128)" \
    grep -qE 'out: 294784 of 589824 elements differ from the reference( beyond the bound)? \(first at \[512, 128\]' "$KL_TMP/a.txt"
tap_check "atom-2533: the report names the rows filled" \
    grep -q 'sampled on the cpu backend: input pool filled only in rows 3727758 to 3728781' "$KL_TMP/a.txt"

fx=tests/engine/fixtures/gather_rows.json
"$KLADDER" --db "$db" run --rung 4 --suite $fx --backend cpu --no-progress --timeout $t \
    >"$KL_TMP/g.txt" 2>&1
rc=$?
cut -c1-240 "$KL_TMP/g.txt" | sed 's/^/# /'
tap_check "our gather: expectation met (exit 0)" test "$rc" -eq 0
tap_check "our gather below 2^31 elements: the 32-bit offset is not reached" \
    grep -qE '^pass +buggy +r4 pool-below .*\(not reached here\)' "$KL_TMP/g.txt"
tap_check "our gather across 2^31 elements: caught at row 2,147,483 column 648" \
    grep -qE 'out: 16352 of 64000 elements differ from the reference( beyond the bound)? \(first at \[47, 648\]' "$KL_TMP/g.txt"

# Without the declaration the same pool checks are beyond the cpu: skipped, the run inconclusive.
sed 's/"pool_sample": {[^}]*},//' $fx >"$KL_TMP/nosample.json"
cp tests/engine/fixtures/gather_rows.kl "$KL_TMP/"
"$KLADDER" --db "$db" run --rung 4 --suite "$KL_TMP/nosample.json" --backend cpu --no-progress \
    --timeout $t >"$KL_TMP/n.txt" 2>&1
rc=$?
tap_check "without pool_sample: skipped, inconclusive, exit 1" \
    sh -c "test $rc -eq 1 && tail -n 1 '$KL_TMP/n.txt' | grep -q '^inconclusive'"
# A pool_sample that names no input is refused with the file and the field.
sed 's/"buffer": "pool", "first_row"/"buffer": "out", "first_row"/' $fx >"$KL_TMP/bad.json"
"$KLADDER" --db "$db" run --rung 4 --suite "$KL_TMP/bad.json" --backend cpu --no-progress \
    >"$KL_TMP/b.txt" 2>&1
rc=$?
tap_check "pool_sample naming an output: exit 2, file and field named" \
    sh -c "test $rc -eq 2 && grep -q 'bad.json: rungs.4.pool_sample.buffer: expected the name of an input buffer, got \"out\"' '$KL_TMP/b.txt'"
sed 's/"first_row": "first"/"first_row": "frist"/' $fx >"$KL_TMP/bad2.json"
"$KLADDER" --db "$db" run --rung 4 --suite "$KL_TMP/bad2.json" --backend cpu --no-progress \
    >"$KL_TMP/b2.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/b2.txt"
tap_check "pool_sample with an unknown name: exit 2, the field named" \
    sh -c "test $rc -eq 2 && grep -q 'rungs.4.pool_sample.first_row: expected an expression over the parameters' '$KL_TMP/b2.txt'"
