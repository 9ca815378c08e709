#!/usr/bin/env bash
# Lag builds (kernels/kl.h, KL_LAG; --lag): one seeded wave of a block held back after each
# barrier. On the cpu backend the hold-back is a yield to the scheduler, so under the default
# schedule (threads in order, waves in step, as a GPU runs them) a race between waves passes
# until a lag build makes an earlier wave late: aiter-6127 (identical warm-up tokens and a
# missing barrier before the overflow count) and a delay line of our own (an in-place scale
# read half a block back) escape without lag and are caught with it, at wave 32 and 64, by rung
# 2's value classes and rung 5's repeats. A plain run after a lag run is not handed the lag
# object (the flag is in the cache key), and no fixed variant of a rung-2/5 suite fails lagged.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
dl=tests/engine/fixtures/lag/delay_line.json
run() { # out-file rung suite [extra args]
    local o=$1 r=$2 s=$3
    shift 3
    "$KLADDER" --db "$KL_TMP/k.db" run --rung "$r" --suite "$s" --backend cpu --no-progress \
        --timeout 120 --schedule default "$@" >"$o" 2>&1
}

run "$KL_TMP/a0.txt" 2 aiter-6127 --lag off
rc=$?
sed 's/^/# /' "$KL_TMP/a0.txt" | grep -v '^# pass'
tap_check "aiter-6127 rung 2, waves in step, no lag: the buggy kernel escapes (exit 1)" \
    grep -q 'not caught: aiter-6127 rung 2' "$KL_TMP/a0.txt"
test $rc -eq 1 || tap_fail "exit $rc"

run "$KL_TMP/a1.txt" 2 aiter-6127 --lag 1,2,3,4
rc=$?
sed 's/^/# /' "$KL_TMP/a1.txt" | grep -v '^# pass'
tap_check "aiter-6127 rung 2 with --lag 1,2,3,4: expectation met (exit 0)" test $rc -eq 0
tap_check "aiter-6127: a lag copy of the identical-rows class catches the overflow count" \
    grep -qE '^fail +buggy +r2 identical-rows-lag[1-4] .*\(expected\)' "$KL_TMP/a1.txt"
tap_check "aiter-6127: no check without lag catches it (the lag is what shows the race)" \
    bash -c "! grep -E '^fail +buggy' '$KL_TMP/a1.txt' | grep -qv -- '-lag[0-9]'"
tap_check "aiter-6127: every fixed check passes lagged (14 classes x 5)" \
    test "$(grep -cE '^pass +fixed +r2 ' "$KL_TMP/a1.txt")" -eq 70

# The plain build again in the same cache: it must not be handed a lag object.
run "$KL_TMP/a2.txt" 2 aiter-6127 --lag off
tap_check "aiter-6127: a plain run after the lag run still escapes (the lag flag is in the cache key)" \
    grep -q 'not caught: aiter-6127 rung 2' "$KL_TMP/a2.txt"

for wave in 32 64; do
    for r in 2 5; do
        run "$KL_TMP/d0.txt" $r $dl --wave $wave --lag off
        sed 's/^/# /' "$KL_TMP/d0.txt" | grep -v '^# pass'
        tap_check "delay line rung $r wave $wave, no lag: escapes" \
            grep -q "not caught: lag-delay-line rung $r" "$KL_TMP/d0.txt"
        run "$KL_TMP/d1.txt" $r $dl --wave $wave --lag 1,2,3,4
        rc=$?
        sed 's/^/# /' "$KL_TMP/d1.txt" | grep -v '^# pass'
        tap_check "delay line rung $r wave $wave, --lag 1,2,3,4: caught, fixed passes (exit 0)" \
            test $rc -eq 0
        tap_check "delay line rung $r wave $wave: the finding is in a lag copy" \
            grep -qE "^fail +buggy +r$r [a-z-]+-lag[1-4] .*\(expected\)" "$KL_TMP/d1.txt"
        tap_check "delay line rung $r wave $wave: four lag copies of each check, fixed all pass" \
            test "$(grep -cE "^pass +fixed +r$r [a-z-]+-lag[1-4] " "$KL_TMP/d1.txt")" -eq 4
    done
done

"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $dl --backend cpu --no-progress --schedule default \
    --lag 3 --variant fixed --json >"$KL_TMP/j.json" 2>/dev/null
tap_check "--json: a lag copy carries its seed, a plain check none" \
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['checks']
lag = {x['check']: x.get('lag') for x in c if x['variant'] == 'fixed'}
sys.exit(0 if lag == {'repeat-default': None, 'repeat-default-lag3': 3} else 1)" "$KL_TMP/j.json"

# auto (the default) plans no lag copy on the cpu backend: its schedule lags waves already.
run "$KL_TMP/auto.txt" 2 $dl
tap_check "--lag auto on the cpu backend: no lag copies" bash -c "! grep -q -- '-lag[0-9]' '$KL_TMP/auto.txt'"

# No false alarm: every suite with rung 2 or 5, fixed variants, lagged, both schedules.
for rs in 2:aiter-5801 2:atom-1750 2:flydsl-1020 2:flydsl-1213 5:aiter-6344 \
    5:tests/engine/fixtures/race/leaders.json 5:tests/engine/fixtures/race/scan.json; do
    for sched in default adversarial; do
        run "$KL_TMP/f.txt" "${rs%%:*}" "${rs#*:}" --variant fixed --lag 1,2,3,4 --schedule $sched
        rc=$?
        grep -vE '^pass' "$KL_TMP/f.txt" | sed 's/^/# /'
        tap_check "${rs#*:} rung ${rs%%:*} fixed, $sched schedule, lagged: no check fails (exit 0)" \
            test $rc -eq 0
    done
done

"$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite $dl --backend cpu --lag 0 >"$KL_TMP/bad.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/bad.txt"
tap_check "--lag 0: a usage error (exit 2) that says what --lag expects" \
    bash -c "test $rc -eq 2 && grep -q -- \"--lag expects auto, off or seeds\" '$KL_TMP/bad.txt'"
