#!/usr/bin/env bash
# The 2^31 and 2^32-byte cliffs on the cpu backend: buffers are reserved address space, backed
# only where touched, and rung 1's cliff checks run a block sample (the tiles at each cliff, the
# first and the last) with the oracles over the sampled tiles. The report says so.
# - aiter-6402 (a GEMM whose 32-bit store offsets cannot reach past 2^31 bytes): conclusive,
#   caught exactly at the cliff, the fixed variant passing;
# - our own elementwise bf16 kernel with a 32-bit flat index (range-checked stores, dropped
#   past 2^31 elements), at 2^31 + 8192 elements: caught at element 2^31, under the default
#   schedule and under pct;
# - element cliffs: our own f32 rows kernel and flydsl-1020 (a 32-bit index past 2^31 elements,
#   2^33 bytes), caught above 2^31 elements and passing below; with byte cliffs only it escapes.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
t=120
[ "${KL_SAN:-0}" = 1 ] && t=300

"$KLADDER" --db "$db" run --rung 1 --suite aiter-6402 --backend cpu --no-progress --timeout $t \
    >"$KL_TMP/g.txt" 2>&1
rc=$?
cut -c1-240 "$KL_TMP/g.txt" | sed 's/^/# /'
tap_check "aiter-6402 on cpu: expectation met (exit 0)" test "$rc" -eq 0
tap_check "aiter-6402 on cpu: conclusive, nothing skipped" \
    sh -c "! grep -qiE '^(skip|inconclusive)' '$KL_TMP/g.txt'"
tap_check "aiter-6402: above the 2^31 cliff the buggy store is caught at the cliff's element" \
    grep -q 'C: 128 of the 105472 sampled elements differ from the reference (first at \[7067, 10112\])' "$KL_TMP/g.txt"
tap_check "aiter-6402: every fixed cliff check passes" \
    test "$(grep -cE '^pass +fixed +r1 cliff-C-' "$KL_TMP/g.txt")" -eq 4
tap_check "the report says the check was sampled, and over how much" \
    grep -qE '^ +sampled on the cpu backend: 8 of 66472 blocks ran \(the tiles of C at each 2\^31 and 2\^32-byte cliff it reaches, the first and the last\), oracles over those 105472 of 1073883648 elements' "$KL_TMP/g.txt"
"$KLADDER" --db "$db" run --rung 1 --suite aiter-6402 --backend cpu --variant fixed --no-progress \
    --timeout $t --json >"$KL_TMP/g.json" 2>/dev/null
tap_check "--json names the sampled oracle" grep -q '"oracle":[[:space:]]*"reference+sentinel (sampled)"' "$KL_TMP/g.json"

fx=tests/engine/fixtures/idx32.json
"$KLADDER" --db "$db" run --rung 1 --suite $fx --backend cpu --no-progress --timeout $t \
    >"$KL_TMP/i.txt" 2>&1
rc=$?
cut -c1-240 "$KL_TMP/i.txt" | sed 's/^/# /'
tap_check "32-bit flat index: expectation met (exit 0)" test "$rc" -eq 0
tap_check "32-bit flat index at 2^31 + 8192 elements: the 512 sampled elements past 2^31 never written" \
    grep -q 'out: 512 of the 1536 sampled elements differ from the reference (first at \[2147483648\]).*512 never written' "$KL_TMP/i.txt"
tap_check "the 64-bit index passes every cliff" test "$(grep -cE '^pass +fixed +r1 ' "$KL_TMP/i.txt")" -eq 5
# The pct schedule (every access a switch point, its own scheduler) runs the same sample: only
# the sampled blocks, not the millions of the whole grid.
"$KLADDER" --db "$db" run --rung 1 --suite $fx --backend cpu --no-progress --timeout $t \
    --schedule pct >"$KL_TMP/ip.txt" 2>&1
rc=$?
cut -c1-240 "$KL_TMP/ip.txt" | sed 's/^/# /'
tap_check "pct: 32-bit flat index, expectation met (exit 0)" test "$rc" -eq 0
tap_check "pct: the 512 sampled elements past 2^31 never written" \
    grep -q 'out: 512 of the 1536 sampled elements differ from the reference (first at \[2147483648\]).*512 never written' "$KL_TMP/ip.txt"
tap_check "pct: the report says each cliff check was sampled" \
    test "$(grep -cE '^ +sampled on the cpu backend: [0-9]+ of [0-9]+ blocks ran' "$KL_TMP/ip.txt")" -ge 8
# The sample needs one block per tile of the output: a grid that names no output dimension
# cannot be sampled, and the check is skipped with that reason, never passed.
sed 's/"grid": \["ceil(n, 256)", 1, 1\]/"grid": [8, 1, 1]/' $fx >"$KL_TMP/fixedgrid.json"
cp tests/engine/fixtures/idx32.kl "$KL_TMP/"
"$KLADDER" --db "$db" run --rung 1 --suite "$KL_TMP/fixedgrid.json" --backend cpu --variant fixed \
    --no-progress --timeout $t >"$KL_TMP/f.txt" 2>&1
tap_check "a grid that walks no output dimension: skipped with the reason" \
    grep -q 'cannot be sampled: grid\[0\] ("8") walks no dimension of output out of its own' "$KL_TMP/f.txt"

# Element cliffs ("unit": "elements"): a 32-bit element index of an f32 output breaks at 2^31
# elements, 2^33 bytes, which no byte cliff reaches. Our own rows kernel: caught above 2^31
# elements and wrapping onto row 0 above 2^32; with byte cliffs only, it escapes.
fx=tests/engine/fixtures/rows_idx32.json
"$KLADDER" --db "$db" run --rung 1 --suite $fx --backend cpu --no-progress --timeout $t \
    >"$KL_TMP/r.txt" 2>&1
rc=$?
cut -c1-240 "$KL_TMP/r.txt" | sed 's/^/# /'
tap_check "rows, 32-bit element index: expectation met (exit 0)" test "$rc" -eq 0
tap_check "rows: below 2^31 elements the buggy variant passes (the cliff is exact)" \
    grep -qE '^pass +buggy +r1 cliff-out-below2\^31el-R33554431 ' "$KL_TMP/r.txt"
tap_check "rows: above 2^31 elements the row past the cliff is never written" \
    grep -q 'out: 64 of the 448 sampled elements differ from the reference (first at \[33554432, 0\]).*64 never written' "$KL_TMP/r.txt"
tap_check "rows: above 2^32 elements the index wraps onto row 0" \
    grep -q 'out: 256 of the 576 sampled elements differ from the reference (first at \[0, 0\])' "$KL_TMP/r.txt"
tap_check "rows: the sample names the element cliffs" \
    grep -q 'the tiles of out at each 2^31 and 2^32-byte cliff it reaches and each 2^31 and 2^32-element one' "$KL_TMP/r.txt"
tap_check "rows: the 64-bit index passes every cliff" \
    test "$(grep -cE '^pass +fixed +r1 cliff-out-' "$KL_TMP/r.txt")" -eq 4
sed 's/, "unit": "elements"//' $fx >"$KL_TMP/rows_bytes.json"
cp tests/engine/fixtures/rows_idx32.kl "$KL_TMP/"
"$KLADDER" --db "$db" run --rung 1 --suite "$KL_TMP/rows_bytes.json" --backend cpu --no-progress \
    --timeout $t >"$KL_TMP/rb.txt" 2>&1
tap_check "rows with byte cliffs only (2^31 and 2^32 bytes): the buggy variant escapes" \
    grep -q 'not caught: rows-idx32-test rung 1' "$KL_TMP/rb.txt"

# flydsl-1020's second bug: one call with B*S*H*D just above 2^31 (rows R = B*S*H, D = 256).
"$KLADDER" --db "$db" run --rung 1 --suite flydsl-1020 --backend cpu --no-progress --timeout $t \
    >"$KL_TMP/fl.txt" 2>&1
rc=$?
cut -c1-240 "$KL_TMP/fl.txt" | sed 's/^/# /'
tap_check "flydsl-1020 rung 1 on cpu: expectation met (exit 0)" test "$rc" -eq 0
tap_check "flydsl-1020: the unit test passes both variants" \
    test "$(grep -cE '^pass +baseline-(fixed|buggy) +r1 ' "$KL_TMP/fl.txt")" -eq 2
tap_check "flydsl-1020: just below 2^31 elements the 32-bit index passes" \
    grep -qE '^pass +buggy +r1 cliff-O-below2\^31el-R8388607 ' "$KL_TMP/fl.txt"
tap_check "flydsl-1020: just above 2^31 elements the buggy variant drops the row past the cliff" \
    grep -q 'O: 256 of the 1792 sampled elements differ from the reference (first at \[8388608, 0\]).*256 never written' "$KL_TMP/fl.txt"
tap_check "flydsl-1020: the 64-bit index passes every cliff" \
    test "$(grep -cE '^pass +fixed +r1 cliff-O-' "$KL_TMP/fl.txt")" -eq 4
