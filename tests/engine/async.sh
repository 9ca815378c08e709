#!/usr/bin/env bash
# Async copies (kl_async_copy / kl_async_wait) on the cpu backend, and the three reproducers of
# their misuse. Under every schedule but the default a copy lands at the wait that must see it,
# its destination holding 0xff bytes until then, so a read before the wait, or a write that
# the copy lands on, is wrong on every run and every seed; under the default schedule (the
# unit test's) it lands when issued and the same bugs pass. tests/engine/fixtures/async holds
# kernels of the class of our own: a pipeline that is never drained, and one whose wait count
# was left one too high.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/async
run() { # out-file rung suite [extra args]
    local o=$1 r=$2 s=$3
    shift 3
    "$KLADDER" --db "$KL_TMP/k.db" run --rung "$r" --suite "$s" --backend cpu --no-progress \
        --timeout 60 "$@" >"$KL_TMP/$o.txt" 2>&1
    echo $? >"$KL_TMP/$o.rc"
    sed 's/^/# /' "$KL_TMP/$o.txt"
}
has() { grep -qE "$2" "$KL_TMP/$1.txt"; }
rc_of() { cat "$KL_TMP/$1.rc"; }

# ---- the drain fixture, every schedule ------------------------------------------------------
for s in adversarial random pct; do
    caught=0 clean=0 seeds="1 2 3"
    [ "${KL_SAN:-0}" = 1 ] && seeds=1
    n=0
    for seed in $seeds; do
        n=$((n + 1))
        run "cs-$s" 1 $fx/colsum.json --schedule $s --seed $seed
        [ "$(grep -cE '^fail +buggy +r1 .*\(expected\)' "$KL_TMP/cs-$s.txt")" -eq 2 ] &&
            has "cs-$s" '^ +y: [0-9]+ of [0-9]+ elements differ .*NaN/Inf where the reference is finite' &&
            caught=$((caught + 1))
        [ "$(grep -cE '^pass +fixed +r1 ' "$KL_TMP/cs-$s.txt")" -eq 2 ] &&
            has "cs-$s" '^pass +baseline-buggy' && ! has "cs-$s" 'data race' && clean=$((clean + 1))
    done
    tap_check "drain, $s: the last tile read before its copy landed is NaN in every check, $n of $n seeds ($caught)" \
        test $caught -eq $n
    tap_check "drain, $s: the fixed pipeline passes, the unit test passes both, no race alarm ($clean of $n)" \
        test $clean -eq $n
done
run cs-def 1 $fx/colsum.json --schedule default
tap_check "drain, default schedule: copies land when issued, so the undrained pipeline passes" \
    test "$(grep -cE '^pass +buggy +r1 ' "$KL_TMP/cs-def.txt")" -eq 2

# ---- aiter-5418: the padding zeroed before the wait -----------------------------------------
# (rung 5's repeats under the adversarial order, the copies' schedule; the pct seeds rung 5
# adds without --schedule are tests/engine/rung5_pct.sh's, and cost seconds a launch here)
run a5418 5 aiter-5418 --schedule adversarial
tap_check "aiter-5418: expectation met (exit $(rc_of a5418))" test "$(rc_of a5418)" -eq 0
tap_check "aiter-5418: the unit test's whole tiles pass the buggy kernel" has a5418 '^pass +baseline-buggy +r5 unit-test-M64-N1024'
tap_check "aiter-5418: a row with padding adds the padding the copy landed on the zeros" \
    has a5418 '^fail +buggy +r5 repeat-M64-N1000 .*\(expected\)'
tap_check "aiter-5418: ... every row of it" has a5418 '^ +first run: y: 64 of 64 elements differ from the reference'
tap_check "aiter-5418: the fixed kernel passes its repeats" has a5418 '^pass +fixed +r5 repeat-M64-N1000'
run a5418-def 5 aiter-5418 --schedule default --repeat 1
tap_check "aiter-5418, default schedule: the copy lands before the zero and the bug hides" \
    has a5418-def '^pass +buggy +r5 repeat-M64-N1000'

# ---- aiter-6170: a wait hoisted above the copy it was written to count ---------------------
run a6170 5 aiter-6170 --schedule adversarial
tap_check "aiter-6170: expectation met (exit $(rc_of a6170))" test "$(rc_of a6170)" -eq 0
tap_check "aiter-6170: the unit test passes the buggy kernel" has a6170 '^pass +baseline-buggy +r5 unit-test-M32-N1024'
tap_check "aiter-6170: tiles 1 to 5 of every 8-tile row are read in flight" \
    has a6170 '^ +first run: y: 20480 of 32768 elements differ from the reference .* 20480 NaN/Inf where the reference is finite'
tap_check "aiter-6170: ... and tile 1 of every 4-tile row" \
    has a6170 '^ +first run: y: 8192 of 32768 elements differ from the reference'
run a6170-def 5 aiter-6170 --schedule default --repeat 1
tap_check "aiter-6170, default schedule: every copy has landed at once and the bug hides" \
    test "$(grep -cE '^pass +buggy +r5 ' "$KL_TMP/a6170-def.txt")" -eq 2

# ---- our own kernel of aiter-6170's class: a wait count left one too high ---------------------
run centre 5 $fx/centre.json --schedule adversarial
tap_check "centre fixture: expectation met (exit $(rc_of centre))" test "$(rc_of centre)" -eq 0
tap_check "centre fixture: the unit test passes the buggy kernel" has centre '^pass +baseline-buggy +r5 unit-test-M32-N1024'
tap_check "centre fixture: tiles 1 to 4 of every 8-tile row are read in flight" \
    has centre '^ +first run: y: 16384 of 32768 elements differ from the reference'
tap_check "centre fixture: both wide shapes catch it, fixed passes both" \
    sh -c "test \$(grep -cE '^fail +buggy +r5 repeat-.*\(expected\)' '$KL_TMP/centre.txt') -eq 2 &&
           test \$(grep -cE '^pass +fixed +r5 repeat-' '$KL_TMP/centre.txt') -eq 2"
run centre-def 5 $fx/centre.json --schedule default --repeat 1
tap_check "centre fixture, default schedule: the copies have landed and the bug hides" \
    test "$(grep -cE '^pass +buggy +r5 ' "$KL_TMP/centre-def.txt")" -eq 2

# ---- sglang-41868: the tail tile's copy lost its mask -----------------------------------------
run s41868 1 sglang-41868
tap_check "sglang-41868: expectation met (exit $(rc_of s41868))" test "$(rc_of s41868)" -eq 0
tap_check "sglang-41868: the unit test's whole tiles pass the buggy kernel" has s41868 '^pass +baseline-buggy +r1 unit-test-M16-N4096'
tap_check "sglang-41868: every tail shape catches it" \
    test "$(grep -cE '^fail +buggy +r1 tail-N[0-9]+-tile256 .*\(expected\)' "$KL_TMP/s41868.txt")" -eq 4
tap_check "sglang-41868: rows read the next row's elements, the last row the guard after x" \
    has s41868 '^ +y: 64 of 64 elements differ from the reference .* 1 NaN/Inf where the reference is finite'
run s41868-def 1 sglang-41868 --schedule default
tap_check "sglang-41868: not a timing bug: the default schedule catches it too" \
    test "$(grep -cE '^fail +buggy +r1 tail-' "$KL_TMP/s41868-def.txt")" -eq 4

# ---- gfx1250 code objects: the copies are the target's async loads ---------------------------
if command -v clang-22 >/dev/null && command -v llvm-objdump-22 >/dev/null; then
    co() { KLADDER_HIP_COMPILER=clang "$KLADDER" compile --backend hip --target "$1" --out "$KL_TMP/$1.co" \
        $fx/colsum.kl >/dev/null 2>&1 && llvm-objdump-22 -d "$KL_TMP/$1.co" >"$KL_TMP/$1.s"; }
    if co gfx1250 && co gfx950; then
        tap_check "gfx1250: kl_async_copy is global_load_async_to_lds_b32" grep -q 'global_load_async_to_lds_b32' "$KL_TMP/gfx1250.s"
        tap_check "gfx1250: the buggy kernel's last wait leaves one in flight, the fixed one drains" \
            sh -c "awk '/<colsum_buggy>:/,/<colsum_ref>:/' '$KL_TMP/gfx1250.s' | grep -q 's_wait_asynccnt 0x1' &&
                   ! awk '/<colsum_buggy>:/,/<colsum_ref>:/' '$KL_TMP/gfx1250.s' | grep -q 's_wait_asynccnt 0x0' &&
                   awk '/<colsum_fixed>:/,/<colsum_buggy>:/' '$KL_TMP/gfx1250.s' | grep -q 's_wait_asynccnt 0x0'"
        tap_check "gfx950: no async loads (synchronous copies)" sh -c "! grep -q 'async' '$KL_TMP/gfx950.s'"
    else
        tap_fail "clang-22 compiles the async fixture for gfx1250 and gfx950"
    fi
else
    tap_skip "clang-22 or llvm-objdump-22 not installed (scripts/deps.sh --test installs them)"
fi

# ---- NVRTC: cp.async from sm_80, plain copies before; hipRTC: plain copies ----------------------
if tap_have_nvrtc; then
    for sm in sm_90 sm_75; do
        out=$("$KLADDER" compile --backend cuda --target $sm $fx/colsum.kl 2>&1)
        tap_check "NVRTC $sm compiles the async fixture" grep -qF "ok cuda $sm $fx/colsum.kl " <<<"$out"
    done
else
    tap_skip "no NVRTC: the cuda mapping of async copies is compiled where the toolkit is installed"
fi
out=$("$KLADDER" compile --backend hip --target gfx90a $fx/colsum.kl 2>&1)
if [ $? -eq 2 ]; then
    tap_skip "no hipRTC: ${out//$'\n'/ }"
else
    tap_check "hipRTC gfx90a compiles the async fixture (plain copies)" grep -qF "ok hip gfx90a $fx/colsum.kl " <<<"$out"
fi
