#!/usr/bin/env bash
# flydsl-1214: a cache-policy value written for gfx950 (17: sc0|sc1, system scope) means
# non-temporal at device scope on gfx1250. The cpu backend decodes policies as gfx1250 does and
# keeps, per emulated rank, the words a load below system scope read: a peer's data comes back
# stale. One rank (the library's own unit test) has no peer and passes both variants; rung 6's
# two- and four-rank checks with inputs changing every call catch buggy, and with constant
# inputs stale equals fresh, which is why only changing inputs show it.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_TMP/cache
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
