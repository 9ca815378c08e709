#!/usr/bin/env bash
# Rung 7's timing micro-checks and cross-host check on the cpu backend. flydsl-1228 meets its
# expectation (the recorded host whose fences cost 10x fails, naming the check and the ratio;
# the pair within noise passes; the plain unit test passes both); a second pair of our own, made
# here from this machine's own run (a block barrier 6x dearer on the second host), is caught the
# same way, and this machine against itself is not; `kladder compare` marks the same rows; bad
# settings and a hostile host file are refused naming the file and the field. Verdicts come from
# recorded documents only: this machine's timings are numbers, never a verdict.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
run7() { # suite -> output in $KL_TMP/out.txt, exit status in $rc
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$1" --backend cpu --no-progress \
        --timeout 120 >"$KL_TMP/out.txt" 2>&1
    rc=$?
}
has() { grep -qE -- "$1" "$KL_TMP/out.txt"; }

run7 flydsl-1228
tap_check "flydsl-1228: exit 0 (expectation met)" test "$rc" -eq 0
tap_check "flydsl-1228: the host whose fences cost 10x fails" has '^fail +buggy +r7 cross-host '
tap_check "flydsl-1228: ... naming the check and the ratio" \
    has 'timing:fence_device \(fixed\): 10\.0x slower on host-b than on host-a, median'
tap_check "flydsl-1228: ... and only the fences" test -z "$(grep -E 'timing:(atomic|barrier|launch)[a-z_]* \(' "$KL_TMP/out.txt")"
tap_check "flydsl-1228: two hosts within the noise pass" \
    has '^pass +fixed +r7 cross-host '
tap_check "flydsl-1228: the plain unit test passes both variants" \
    test "$(grep -cE '^pass +baseline-(fixed|buggy) ' "$KL_TMP/out.txt")" -eq 2
tap_check "flydsl-1228: six micro-checks timed for each variant" \
    test "$(grep -cE '^pass +(fixed|buggy) +r7 timing:(fence_block|fence_device|fence_system|atomic_device|barrier_block|launch) ' "$KL_TMP/out.txt")" -eq 12
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"

# The micro-checks' times are recorded with their repeats and spread, as compare needs them.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite timing-micro --variant fixed --backend cpu \
    --no-progress --json >"$KL_TMP/r.json" 2>/dev/null
rc=$?
tap_check "timing-micro: exit 0" test "$rc" -eq 0
tap_check "timing-micro: each micro-check has 15 timed repeats, a median and a [min, max] spread" \
    test "$(jq '[.checks[] | select(.check | startswith("timing:")) | select(.repeats == 15 and
        .time_us.min != null and .time_us.median >= .time_us.min and .time_us.max >= .time_us.median)] | length' "$KL_TMP/r.json")" -eq 6

# Our own pair, made from this machine's run just recorded: this machine against itself, and
# against a copy whose block barrier is 6x dearer (the buggy host).
"$KLADDER" --db "$KL_TMP/k.db" export >"$KL_TMP/self.json"
jq '.exported_by.host = "slow-barrier" | (.checks[] | select(.check == "timing:barrier_block")
    | .time_us) |= with_entries(.value *= 6)' "$KL_TMP/self.json" >"$KL_TMP/slow.json"
cp kernels/timing_micro.kl "$KL_TMP/"
jq --arg s "$KL_TMP/self.json" --arg b "$KL_TMP/slow.json" \
    '.name = "xhost-own" | del(.control) | .rungs["7"].hosts = {fixed: [$s, $s], buggy: [$s, $b]}' \
    kernels/suites/timing-micro.json >"$KL_TMP/xhost-own.json"
run7 "$KL_TMP/xhost-own.json"
tap_check "own pair: exit 0" test "$rc" -eq 0
tap_check "own pair: this machine against itself passes" has '^pass +fixed +r7 cross-host '
tap_check "own pair: the 6x barrier fails, named with its ratio" \
    has 'timing:barrier_block \(fixed\): 6\.0x slower on slow-barrier than on'
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"

# kladder compare judges the same recorded hosts with the same rules.
"$KLADDER" --db "$KL_TMP/c.db" pull "file://$PWD/kernels/hosts/f1228-host-a.json" \
    "file://$PWD/kernels/hosts/f1228-buggy-host-b.json" >/dev/null 2>&1
"$KLADDER" --db "$KL_TMP/c.db" compare host-a host-b --rung 7 >"$KL_TMP/cmp.txt" 2>&1
tap_check "compare: the fence rows are flagged (!)" \
    test "$(grep -cE 'timing:fence_(block|device|system) .* slower ! ' "$KL_TMP/cmp.txt")" -eq 6
tap_check "compare: the launch rows are within noise (~)" \
    test "$(grep -cE 'timing:launch .* slower ~ ' "$KL_TMP/cmp.txt")" -eq 2

# Settings errors: the file, the field, what was expected; exit 2.
bad() { # jq-edit expected
    jq "$1" kernels/suites/flydsl-1228.json >"$KL_TMP/bad.json"
    cp kernels/timing_micro.kl "$KL_TMP/"
    local out rc
    out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$KL_TMP/bad.json" --backend cpu --no-progress 2>&1)
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$KL_TMP/bad.json: $2" <<<"$out"; then
        tap_ok "$2"
    else
        tap_fail "$2: exit $rc"
        printf '%s\n' "$out" | sed 's/^/# /'
    fi
}
bad '.rungs["7"].hosts.fixed |= .[0:1]' 'rungs.7.hosts.fixed: expected two exported results files, one per host'
bad '.rungs["7"].hosts.buggy[1] = 3' 'rungs.7.hosts.buggy[1]: expected a file path without control characters'
bad '.rungs["7"].timing_repeats = 2' 'rungs.7.timing_repeats: expected'
bad '.rungs["7"].timing[0].name = "fence-block"' 'rungs.7.timing[0].name: expected a check name'

# A host file that is not a clean results document: the check errors naming it, nothing passes.
jq '.exported_by.host = "x\u001b[2J"' kernels/hosts/f1228-host-a.json >"$KL_TMP/hostile.json"
jq --arg a "$PWD/kernels/hosts/f1228-host-a.json" --arg h "$KL_TMP/hostile.json" \
    '.name = "xhost-hostile" | .rungs["7"].hosts.fixed = [$a, $h]' \
    kernels/suites/flydsl-1228.json >"$KL_TMP/xhost-hostile.json"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$KL_TMP/xhost-hostile.json" --variant fixed \
    --backend cpu --no-progress >"$KL_TMP/out.txt" 2>&1
rc=$?
tap_check "hostile host file: exit 1" test "$rc" -eq 1
tap_check "hostile host file: the cross-host check errors" has '^error +fixed +r7 cross-host '
tap_check "hostile host file: ... naming the file and the field" has "setup: .*hostile.json: field 'host': contains a control character"
[ "$rc" -eq 1 ] || sed 's/^/# /' "$KL_TMP/out.txt"
tap_check "hostile host file: no escape reaches the terminal" test -z "$(tr -d -c '\033' <"$KL_TMP/out.txt")"
echo "1..$_tap_n"
