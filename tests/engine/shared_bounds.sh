#!/usr/bin/env bash
# The cpu backend breaks a GPU's silence about shared memory (tests/engine/fixtures/lds): a
# segmented scan that stages a whole segment in the block's dynamic shared memory writes past
# it once a segment is longer than twice the block. That is a failed check naming the kernel,
# the source line, the offset and the size, on the default order and under pct alike, never a
# worker that dies in free(); the chunked scan, a second correct implementation, passes. And a
# crash is a verdict: a variant that takes the worker down is an error with the signal, the
# kernel and its line, and counts as caught, as a hang does.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/lds
run() { # OUT SUITE [options]: exit status in $rc
    local out=$1 suite=$2; shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$suite" --backend cpu \
        --no-progress --timeout 60 "$@" >"$KL_TMP/$out.txt" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/$out.txt"
}
has() { grep -qE "$2" "$KL_TMP/$1.txt"; }
finding='^ +shared memory: segscan_buggy \(lds\.kl:[0-9]+, segscan_buggy\+0x[0-9a-f]+\): a write at byte [0-9]+ of the block.s 1024 bytes of dynamic shared memory \(past its end\)$'

for sched in adversarial pct; do
    run "scan-$sched" $fx/segscan.json --schedule $sched
    tap_check "$sched: exit 0 ($rc)" test $rc -eq 0
    tap_check "$sched: the whole-segment staging fails both long segments with the kernel, line, offset and size" \
        sh -c "test \$(grep -cE '$finding' '$KL_TMP/scan-$sched.txt') -eq 2"
    tap_check "$sched: the chunked scan passes them" \
        sh -c "test \$(grep -cE '^pass +fixed +r1 seg' '$KL_TMP/scan-$sched.txt') -eq 2"
    tap_check "$sched: no worker died" sh -c "! grep -qE 'signal|worker died' '$KL_TMP/scan-$sched.txt'"
done
tap_check "the unit test's short segments fit: it passes the overflow (the lesson)" \
    has scan-adversarial '^pass +baseline-buggy'

run crash $fx/crash.json
tap_check "crash: exit 0, the crash counted as the catch ($rc)" test $rc -eq 0
tap_check "crash: each buggy check is an error with the signal, the kernel and its line" \
    sh -c "test \$(grep -cE '^ +the worker died with signal 11 without a result: kladder worker: signal 11 \(SIGSEGV\) in segscan_crash_buggy \(lds\.kl:[0-9]+, segscan_crash_buggy\+0x[0-9a-f]+\)' '$KL_TMP/crash.txt') -eq 3"
tap_check "crash: marked expected, and the summary counts it caught" \
    sh -c "test \$(grep -cE '^error +buggy +r1 .*\(expected\)$' '$KL_TMP/crash.txt') -eq 2 &&
           grep -qE 'buggy caught by 2 of 2 checks' '$KL_TMP/crash.txt'"
tap_check "crash: the fixed variant passes beside it (a fresh worker each time)" \
    sh -c "test \$(grep -cE '^pass +fixed +r1 seg' '$KL_TMP/crash.txt') -eq 2"
