#!/usr/bin/env bash
# flydsl-1214: a cache-policy value written for gfx950 (17: sc0|sc1, system scope) means
# non-temporal at device scope on gfx1250. The cpu backend decodes policies as gfx1250 does and
# keeps, per emulated rank, the words a load below system scope read: a peer's data comes back
# stale. One rank (the library's own unit test) has no peer and passes both variants; rung 6's
# two- and four-rank checks with inputs changing every call catch buggy, and with constant
# inputs stale equals fresh, which is why only changing inputs show it.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
run() { "$KLADDER" --db "$KL_TMP/k.db" run --rung 6 --backend cpu --no-progress --timeout 60 "$@"; }

run --suite flydsl-1214 >"$KL_TMP/a.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/a.txt"
tap_check "flydsl-1214 rung 6: expectation met (exit 0)" test $rc -eq 0
tap_check "the one-rank unit test passes both variants" \
    sh -c "grep -cE '^pass +baseline-(fixed|buggy) +r6 unit-test-tp1 ' '$KL_TMP/a.txt' | grep -qx 2"
tap_check "every check passes the fixed variant (the target's system-coherent policy)" \
    sh -c "! grep -qE '^(fail|hang|error) +fixed ' '$KL_TMP/a.txt'"
for c in tp2-changing tp4-changing; do
    tap_check "$c: buggy sums stale peer data" grep -qE "^fail +buggy +r6 $c " "$KL_TMP/a.txt"
done
tap_check "the wrong elements are counted per rank and size" \
    grep -qE '^ +rank 0 size 4 KiB \(registered path\): [0-9]+ wrong, calls' "$KL_TMP/a.txt"
tap_check "tp2-constant: with the same inputs every call, stale equals fresh (buggy passes)" \
    grep -qE '^pass +buggy +r6 tp2-constant ' "$KL_TMP/a.txt"

# With the default schedule the rank's peer memory is not emulated as weakly ordered; the
# stale table does not depend on it.
run --suite flydsl-1214 --variant buggy --schedule default >"$KL_TMP/d.txt" 2>&1
tap_check "default schedule: buggy still caught at tp2-changing" \
    grep -qE '^fail +buggy +r6 tp2-changing ' "$KL_TMP/d.txt"

# Our own second example: the start flag polled with the gfx950 value never shows the new
# call's number, so the bounded wait gives up (hang), while one rank has no flag to poll.
run --suite tests/engine/fixtures/stale_flag.json >"$KL_TMP/f.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/f.txt"
tap_check "stale-flag fixture: expectation met (exit 0)" test $rc -eq 0
tap_check "its one-rank unit test passes both" \
    sh -c "grep -cE '^pass +baseline-(fixed|buggy) +r6 unit-test-tp1 ' '$KL_TMP/f.txt' | grep -qx 2"
tap_check "its buggy variant hangs at two ranks, the wait that gave up named" \
    sh -c "grep -qE '^hang +buggy +r6 tp2-changing ' '$KL_TMP/f.txt' && grep -q 'gave up waiting for the' '$KL_TMP/f.txt'"
tap_check "its fixed variant passes every check" sh -c "! grep -qE '^(fail|hang|error) +fixed ' '$KL_TMP/f.txt'"

# The same source on the real targets (offline, clang 22): value 17 stays system scope on
# gfx950 (sc0 sc1) in both variants, and on gfx1250 only buggy's peer load is device scope.
dis() { llvm-objdump-22 -d --mcpu="$1" --disassemble-symbols="allreduce_1214_$2" "$KL_TMP/$1.co" | grep -E '_load'; }
if command -v clang-22 >/dev/null && command -v llvm-objdump-22 >/dev/null; then
    for t in gfx950 gfx1250; do
        KLADDER_HIP_COMPILER=clang "$KLADDER" compile --backend hip --target $t --out "$KL_TMP/$t.co" \
            flydsl_1214.kl >/dev/null 2>&1 || tap_fail "clang compiles flydsl_1214.kl for $t"
    done
    n_fixed=$(dis gfx1250 fixed | grep -c 'scope:SCOPE_DEV')
    n_buggy=$(dis gfx1250 buggy | grep -c 'scope:SCOPE_DEV')
    n_950=$( { dis gfx950 fixed; dis gfx950 buggy; } | grep -c 'SCOPE_DEV')
    s_950=$(dis gfx950 buggy | grep -c 'sc0 sc1')
    tap_check "gfx950: 17 is sc0 sc1, no device-scope load in either variant ($s_950 sc0 sc1 loads)" \
        test "$n_950" -eq 0 -a "$s_950" -gt 0
    tap_check "gfx1250: buggy's peer load is scope:SCOPE_DEV ($n_buggy), fixed has none ($n_fixed)" \
        test "$n_buggy" -ge 1 -a "$n_fixed" -eq 0
else
    tap_skip "clang-22 or llvm-objdump-22 missing: the gfx950/gfx1250 code objects are not inspected"
fi
