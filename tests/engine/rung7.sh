#!/usr/bin/env bash
# Rung 7 on the cpu backend: the two built-in reproducers meet their expectation (buggy caught,
# fixed and baseline pass), a second suite of each bug class written for this test is caught the
# same way, and malformed rung 7 settings are refused naming the file and the field.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/rung7
run7() { # suite [args] -> output in $KL_TMP/out.txt, exit status in $rc
    local suite=$1
    shift
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$suite" --backend cpu --no-progress \
        --timeout 60 "$@" >"$KL_TMP/out.txt" 2>&1
    rc=$?
}
has() { grep -qE -- "$1" "$KL_TMP/out.txt"; }

# flydsl-1153: a mis-cased tuning knob never reaches the code object.
run7 flydsl-1153
tap_check "flydsl-1153: exit 0 (expectation met)" test "$rc" -eq 0
tap_check "flydsl-1153: the fixed knob reaches the code object" has '^pass +fixed +r7 flag:-DF1153_VEC=4 '
tap_check "flydsl-1153: the mis-cased knob fails, named" has '^fail +buggy +r7 flag:-Df1153_vec=4 '
tap_check "flydsl-1153: ... with what it means" has 'flag -Df1153_vec=4 changes nothing: the code object of flydsl_1153.kl for cpu-wave32 is byte for byte the same with and without it'
tap_check "flydsl-1153: the plain unit test passes both variants" test "$(grep -cE '^pass +baseline-(fixed|buggy) ' "$KL_TMP/out.txt")" -eq 2
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"

# flydsl-1277: a warm cache keyed without the flags returns the other configuration's kernel.
run7 flydsl-1277
tap_check "flydsl-1277: exit 0 (expectation met)" test "$rc" -eq 0
tap_check "flydsl-1277: kladder's key: warm equals cold" has '^pass +fixed +r7 warm-cold '
tap_check "flydsl-1277: the key without flags is caught on the second configuration" has '^fail +buggy +r7 warm-cold '
tap_check "flydsl-1277: ... naming it" has '-DF1277_SCALE=3: the warm cache \(a hit: an earlier configuration.s entry\) gave another code object than a cold compile'
tap_check "flydsl-1277: the cache-key audit passes kladder's key" has '^pass +fixed +r7 cache-key '
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"

# A suite of our own: three knobs, two of them inert in the buggy configuration; a tile
# specialisation over four configurations, one repeated.
run7 $fx/knobs.json
tap_check "knobs: exit 0" test "$rc" -eq 0
tap_check "knobs: a read knob and -O1 pass" test "$(grep -cE '^pass +fixed +r7 flag:' "$KL_TMP/out.txt")" -eq 2
tap_check "knobs: the misspelt knob is named" has '^fail +buggy +r7 flag:-DKNOBS_ROWS_PER_BLK=4 '
tap_check "knobs: the knob nothing reads is named" has '^fail +buggy +r7 flag:-DKNOBS_TRACE=1 '
tap_check "knobs: -O1 reaches the code in the buggy configuration too" has '^pass +buggy +r7 flag:-O1 '
tap_check "knobs: warm-cold names each configuration served stale" \
    has '-DKNOBS_TILE=64: the warm cache.*; -DKNOBS_TILE=128: the warm cache'
tap_check "knobs: the repeated configuration is a correct hit, not named" \
    test -z "$(grep -F -- '-DKNOBS_TILE=16: the warm' "$KL_TMP/out.txt")"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"

# The rung's verdicts land in the JSON report with the check names.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite flydsl-1153 --backend cpu --no-progress \
    --json >"$KL_TMP/r.json" 2>/dev/null
tap_check "JSON: the flag check is reported with its verdict" \
    grep -q '"check":[[:space:]]*"flag:-Df1153_vec=4"' "$KL_TMP/r.json"

# Settings errors: the file, the field, what was expected; exit 2.
bad() { # file expected
    local out rc
    out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$fx/$1" --backend cpu --no-progress 2>&1)
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$fx/$1: $2" <<<"$out"; then
        tap_ok "$1: $2"
    else
        tap_fail "$1: exit $rc, wanted '$2'"
        printf '%s\n' "$out" | sed 's/^/# /'
    fi
}
bad bad-key.json 'rungs.7: expected only the keys "flags", "configs", "buggy_key", "contracts", "timing", "timing_repeats", "hosts", "api" or "ci", got unknown key "flgs"'
bad bad-flag.json 'rungs.7.flags.fixed[1]: expected a compiler flag (printable, no spaces, starting with '"'"'-'"'"'), got 3'
bad bad-configs.json 'rungs.7.configs: expected an array of at least two flag lists'
bad bad-flag-control.json 'rungs.7.flags.buggy[2]: expected a compiler flag (printable, no spaces, starting with '"'"'-'"'"'), got "-DKNOBS�[2J"'
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$fx/bad-flag-control.json" --backend cpu 2>&1)
tap_check "a control character in a manifest value never reaches the terminal" test -z "$(printf '%s' "$out" | tr -d -c '\033')"
bad bad-buggy-key.json 'rungs.7.buggy_key: expected one of kladder without-flags, got "no-flags"'

# flydsl-1088: the toolchain smoke launches every kernel once at the smallest shape on both wave
# widths; the one that takes the process down at entry fails by name, the plain unit test (wave
# 32) passes both variants.
run7 flydsl-1088
tap_check "flydsl-1088: exit 0 (expectation met)" test "$rc" -eq 0
tap_check "flydsl-1088: the aborting kernel fails, named, at wave 64" \
    has '^fail +buggy +r7 smoke-w64:f1088_axpy_buggy '
tap_check "flydsl-1088: ... as a kernel that took the process down" \
    has 'the kernel took the process down after its launch: the worker (died with signal|exited with status)'
tap_check "flydsl-1088: the fixed kernel runs at both widths, at the smallest shape (n=300)" \
    test "$(grep -cE '^pass +fixed +r7 smoke-w(32|64):f1088_axpy_fixed +n=300,' "$KL_TMP/out.txt")" -eq 2
tap_check "flydsl-1088: the unit test passes both variants" \
    test "$(grep -cE '^pass +baseline-(fixed|buggy) ' "$KL_TMP/out.txt")" -eq 4
tap_check "flydsl-1088: checks after the crash still ran (a fresh worker)" has '^pass +buggy +r7 warm-cold '
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"
# Our own: a null store at entry instead of a trap.
run7 $fx/entry_abort.json
tap_check "entry_abort: exit 0" test "$rc" -eq 0
tap_check "entry_abort: the null store at entry fails, named" has '^fail +buggy +r7 smoke-w64:scale_rows_buggy '
tap_check "entry_abort: the fixed entry passes at both widths" \
    test "$(grep -cE '^pass +fixed +r7 smoke-w(32|64):scale_rows_fixed ' "$KL_TMP/out.txt")" -eq 2
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"

# The smoke applies to every suite whose kernels are plain device kernels, declared or not: a
# suite without rung 7 settings gets the smoke only, and its buggy kernels are expected to run.
run7 aiter-4494
tap_check "aiter-4494 (no rung 7 settings): exit 0" test "$rc" -eq 0
tap_check "aiter-4494: four smoke checks, nothing else of rung 7" \
    test "$(grep -cE '^pass +(fixed|buggy) +r7 smoke-w(32|64):' "$KL_TMP/out.txt")" -eq 4 -a \
    -z "$(grep -E 'r7 (cache-key|warm-cold)' "$KL_TMP/out.txt")"
# Rung 7's unit test runs at the wave its header says, whatever rung 3's baseline_wave is:
# flydsl-1024's buggy kernel assumes wave 64, so at the default wave 32 its unit test catches
# it; run at wave 64, as its CI ran, the unit test passes both variants.
run7 flydsl-1024 --wave 64
tap_check "flydsl-1024 (rung 3 suite) at --wave 64: exit 0, its unit test passes both" \
    sh -c "test $rc -eq 0 && grep -qE '^kladder run .*, wave 64\), schedule' '$KL_TMP/out.txt'"
run7 flydsl-1024
tap_check "flydsl-1024 at the default wave 32: the header says 32, and the unit test there catches the buggy kernel" \
    sh -c "grep -qE '^kladder run .*, wave 32\), schedule' '$KL_TMP/out.txt' &&
           grep -qE '^fail +baseline-buggy +r7 unit-test-' '$KL_TMP/out.txt'"
run7 aiter-4812
tap_check "a rung 6 suite (kernels run by rank machinery) is not smoked: exit 2" test "$rc" -eq 2
# --suite all: every kernel of every such suite, one command.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite all --variant fixed --backend cpu --no-progress \
    --timeout 60 >"$KL_TMP/all.txt" 2>&1
rc=$?
tap_check "--suite all: exit 0" test "$rc" -eq 0
n=$("$KLADDER" run --list | awk '$5 !~ /6/' | wc -l)
smokes=$(grep -cE '^pass +fixed +r7 smoke-w(32|64):' "$KL_TMP/all.txt")
tap_check "--suite all: two smoke checks for each of the $n suites with plain kernels ($smokes)" \
    test "$smokes" -eq $((2 * n))
tap_check "--suite all: no rung 6 suite among them" test -z "$(grep -E 'smoke-w[0-9]+:(allreduce_4812|dispatch_4812|allreduce_6446)' "$KL_TMP/all.txt")"
[ "$rc" -eq 0 ] || tail -n 5 "$KL_TMP/all.txt" | sed 's/^/# /'
