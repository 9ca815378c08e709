#!/usr/bin/env bash
# Lag builds' ahead mode (kernels/kl.h, KL_LAG_MODE=1; --lag ahead:S): every wave of a block but
# the seeded one held back after each barrier, so the seeded wave runs ahead of all the others.
# The class it shows is a single consumer that reads before ANY of many producers has published:
# holding one producer back (the plain lag mode) cannot matter while the others publish the same
# value. On the cpu backend under the default schedule (waves in step, as a GPU runs them) the
# held waves yield once, so the seeded wave's threads run to their next wait first:
#  - a clip flag of our own (tests/engine/fixtures/lag/clip_flag.*: the last wave reports a flag
#    the first half's waves set) escapes plain and lagged and is caught ahead, rungs 2 and 5,
#    waves 32 and 64;
#  - aiter-4841 (448 threads store the same scale, a reader in another wave reads it without a
#    barrier) escapes plain and lagged under the default schedule and is caught by an ahead copy;
#  - no fixed variant of a rung-2/5 suite fails ahead.
# The runs go ahead first, then lagged, then plain, through one compile cache: an escape after an
# ahead run also shows the mode is in the cache key.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
cf=tests/engine/fixtures/lag/clip_flag.json
ahead4=ahead:1,ahead:2,ahead:3,ahead:4
run() { # out-file rung suite [extra args]
    local o=$1 r=$2 s=$3
    shift 3
    "$KLADDER" --db "$KL_TMP/k.db" run --rung "$r" --suite "$s" --backend cpu --no-progress \
        --timeout 120 --schedule default "$@" >"$o" 2>&1
}
show() { grep -vE '^pass' "$1" | sed 's/^/# /'; }

for wave in 32 64; do
    for r in 2 5; do
        run "$KL_TMP/c1.txt" $r $cf --wave $wave --lag $ahead4
        rc=$?
        show "$KL_TMP/c1.txt"
        tap_check "clip flag rung $r wave $wave, --lag $ahead4: caught, fixed passes (exit 0)" \
            test $rc -eq 0
        tap_check "clip flag rung $r wave $wave: the finding is in an ahead copy" \
            grep -qE "^fail +buggy +r$r [a-z-]+-ahead[1-4] .*\(expected\)" "$KL_TMP/c1.txt"
        tap_check "clip flag rung $r wave $wave: no plain check catches it" \
            bash -c "! grep -E '^fail +buggy' '$KL_TMP/c1.txt' | grep -qv -- '-ahead[0-9]'"
        tap_check "clip flag rung $r wave $wave: four ahead copies of each check, fixed all pass" \
            test "$(grep -cE "^pass +fixed +r$r [a-z-]+-ahead[1-4] " "$KL_TMP/c1.txt")" -eq 4
        for lag in 1,2,3,4 off; do
            run "$KL_TMP/c0.txt" $r $cf --wave $wave --lag $lag
            show "$KL_TMP/c0.txt"
            tap_check "clip flag rung $r wave $wave, --lag $lag (one wave behind or none): escapes" \
                grep -q "not caught: lag-clip-flag rung $r" "$KL_TMP/c0.txt"
        done
    done
done

# aiter-4841 under the default schedule (its suite declares random for rung 5; --schedule wins).
# Its one block of 512 threads has 16 waves of 32 (8 of 64), the reader in wave 8 (4): ahead
# seeds 1..waves put each wave ahead in turn, and block 0's hash makes seed 4 (8 at wave 64) the
# reader's. The fixed variant's 1504 repeats run plain; each copy runs 8.
run "$KL_TMP/q1.txt" 5 aiter-4841 --lag $ahead4
rc=$?
show "$KL_TMP/q1.txt"
tap_check "aiter-4841 rung 5 wave 32, default schedule, --lag $ahead4: expectation met (exit 0)" \
    test $rc -eq 0
tap_check "aiter-4841 wave 32: an ahead copy catches the scale read before every store" \
    grep -qE '^fail +buggy +r5 repeat-default-ahead[1-4] .*\(expected\)' "$KL_TMP/q1.txt"
tap_check "aiter-4841 wave 32: every fixed ahead copy passes" \
    test "$(grep -cE '^pass +fixed +r5 repeat-default-ahead[1-4] ' "$KL_TMP/q1.txt")" -eq 4
run "$KL_TMP/q2.txt" 5 aiter-4841 --wave 64 \
    --lag ahead:1,ahead:2,ahead:3,ahead:4,ahead:5,ahead:6,ahead:7,ahead:8
rc=$?
show "$KL_TMP/q2.txt"
tap_check "aiter-4841 rung 5 wave 64, ahead seeds 1-8 (each of the 8 waves once): met (exit 0)" \
    test $rc -eq 0
tap_check "aiter-4841 wave 64: exactly one ahead copy (the reader's wave ahead) catches it" \
    test "$(grep -cE '^fail +buggy +r5 repeat-default-ahead[1-8] .*\(expected\)' "$KL_TMP/q2.txt")" -eq 1
for lag in 1,2,3,4 off; do
    run "$KL_TMP/q0.txt" 5 aiter-4841 --lag $lag
    show "$KL_TMP/q0.txt"
    tap_check "aiter-4841 rung 5 wave 32, default schedule, --lag $lag: escapes (one wave behind cannot matter)" \
        grep -q 'not caught: aiter-4841 rung 5' "$KL_TMP/q0.txt"
done

"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $cf --backend cpu --no-progress --schedule default \
    --lag 2,ahead:3 --variant fixed --json >"$KL_TMP/j.json" 2>/dev/null
tap_check "--json: a copy carries its seed and mode, a plain check neither" \
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['checks']
got = {x['check']: (x.get('lag'), x.get('lag_mode')) for x in c if x['variant'] == 'fixed'}
want = {'repeat-default': (None, None), 'repeat-default-lag2': (2, 'behind'),
        'repeat-default-ahead3': (3, 'ahead')}
sys.exit(0 if got == want else print(got) or 1)" "$KL_TMP/j.json"

# No false alarm: every suite with rung 2 or 5, fixed variants, ahead, both schedules.
for rs in 2:aiter-5801 2:atom-1750 2:flydsl-1020 2:flydsl-1213 2:aiter-6127 5:aiter-6344 \
    5:tests/engine/fixtures/race/leaders.json 5:tests/engine/fixtures/race/scan.json \
    5:tests/engine/fixtures/lag/delay_line.json; do
    for sched in default adversarial; do
        run "$KL_TMP/f.txt" "${rs%%:*}" "${rs#*:}" --variant fixed --lag $ahead4 --schedule $sched
        rc=$?
        show "$KL_TMP/f.txt"
        tap_check "${rs#*:} rung ${rs%%:*} fixed, $sched schedule, ahead: no check fails (exit 0)" \
            test $rc -eq 0
    done
done

for bad in ahead:0 ahead: ahead:x 'ahead:1,' behind:1; do
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite $cf --backend cpu --lag "$bad" >"$KL_TMP/bad.txt" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/bad.txt"
    tap_check "--lag $bad: a usage error (exit 2) naming the S and ahead:S forms" \
        bash -c "test $rc -eq 2 && grep -qF -- '(each S or ahead:S)' '$KL_TMP/bad.txt'"
done
