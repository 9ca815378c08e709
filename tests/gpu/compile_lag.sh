#!/usr/bin/env bash
# Lag builds (kernels/kl.h, KL_LAG) compile for every GPU compiler the engine drives: every kernel
# file (aiter_4494 among them has fences) and the lag fixtures with -DKL_LAG=1, in both modes (one
# wave behind, and ahead: -DKL_LAG_MODE=1), for sm_90 (NVRTC, where installed) and gfx1250
# (clang-22, no HIP headers); for gfx950 and gfx942, the same compiler at wave 64, the lag and
# async fixtures and the kernels with fences and async copies. A kernel with a barrier gets a different code object
# lagged (the hold-back is in it), ahead differs from behind, and the flags are in the cache key:
# the plain object compiled after the lag ones is the plain one again.
# kl-test: once (only outside compilers and readers run; the sanitizers have nothing of ours to watch)
. tests/tap.sh
set -u
# the cache the test scripts share: the plain builds are compile_amd_clang.sh's too
export XDG_CACHE_HOME=$KL_CACHE KLADDER_HIP_COMPILER=clang
every=(kernels/*.kl tests/engine/fixtures/lag/*.kl tests/engine/fixtures/async/*.kl)
wave64=(kernels/aiter_4494.kl kernels/aiter_6127.kl kernels/aiter_6170.kl
        tests/engine/fixtures/lag/*.kl tests/engine/fixtures/async/*.kl)

lag_target() { # backend target [files...]
    local b=$1 t=$2 out mode
    shift 2
    local files=("$@")
    for mode in 0 1; do
        out=$("$KLADDER" compile --backend "$b" --target "$t" --flag -DKL_LAG=1 \
            --flag -DKL_LAG_MODE=$mode "${files[@]}" 2>&1)
        for k in "${files[@]}"; do
            if grep -qF "ok $b $t $k " <<<"$out"; then
                tap_ok "$b $t compiles $k lagged (KL_LAG_MODE=$mode)"
            else
                tap_fail "$b $t compiles $k lagged (KL_LAG_MODE=$mode)"
                grep -A30 "^FAIL $b $t $k" <<<"$out" | head -n 30
            fi
        done
    done
    "$KLADDER" compile --backend "$b" --target "$t" --out "$KL_TMP/plain.co" kernels/aiter_6127.kl >/dev/null
    "$KLADDER" compile --backend "$b" --target "$t" --flag -DKL_LAG=2 --out "$KL_TMP/lag.co" \
        kernels/aiter_6127.kl >/dev/null
    "$KLADDER" compile --backend "$b" --target "$t" --flag -DKL_LAG=2 --flag -DKL_LAG_MODE=1 \
        --out "$KL_TMP/ahead.co" kernels/aiter_6127.kl >/dev/null
    "$KLADDER" compile --backend "$b" --target "$t" --out "$KL_TMP/plain2.co" kernels/aiter_6127.kl >/dev/null
    tap_check "$b $t: aiter_6127's ahead build differs from its lag build of the same seed" \
        bash -c "! cmp -s '$KL_TMP/lag.co' '$KL_TMP/ahead.co'"
    tap_check "$b $t: aiter_6127's ahead build differs from its plain build" \
        bash -c "! cmp -s '$KL_TMP/plain.co' '$KL_TMP/ahead.co'"
    tap_check "$b $t: aiter_6127's lag build differs from its plain build" \
        bash -c "! cmp -s '$KL_TMP/plain.co' '$KL_TMP/lag.co'"
    tap_check "$b $t: the plain build after the lag build is the plain one (flag in the cache key)" \
        cmp -s "$KL_TMP/plain.co" "$KL_TMP/plain2.co"
    # On a GPU a lag build lands async copies from per-thread queues the engine hands over
    # through kl_lag_async_slots: the lag object of a kernel with async copies has the variable,
    # the plain one does not (the engine then copies as usual).
    "$KLADDER" compile --backend "$b" --target "$t" --out "$KL_TMP/a-plain.co" kernels/aiter_6170.kl >/dev/null
    "$KLADDER" compile --backend "$b" --target "$t" --flag -DKL_LAG=1 --out "$KL_TMP/a-lag.co" \
        kernels/aiter_6170.kl >/dev/null
    tap_check "$b $t: aiter_6170's lag build has kl_lag_async_slots, its plain build none" \
        bash -c "readelf -sW '$KL_TMP/a-lag.co' | grep -qw kl_lag_async_slots &&
                 ! readelf -sW '$KL_TMP/a-plain.co' | grep -qw kl_lag_async_slots"
}

if ! tap_have_nvrtc; then
    tap_skip "no CUDA toolkit NVRTC under /usr/local/cuda*/lib* (set KLADDER_NVRTC to use another)"
else
    lag_target cuda sm_90 "${every[@]}"
fi
probe=$("$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl 2>&1)
if [ $? -ne 0 ] && grep -q "not found" <<<"$probe"; then
    tap_skip "clang-22 is not installed (scripts/deps.sh --test installs it)"
else
    lag_target hip gfx1250 "${every[@]}"
    for t in gfx950 gfx942; do
        lag_target hip $t "${wave64[@]}"
    done
fi
