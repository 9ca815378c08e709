#!/usr/bin/env bash
# The offline AMD path: clang-22 compiles every kernel (kernels/*.kl, kl.h prepended as a run
# does) for gfx1250 (wave32), gfx950 and gfx942 (wave64) with no GPU and no HIP headers; the
# code objects name the processor and wave size; compiles are cached with clang's identity and
# flags in the key; clang's refusals reach the user with its own message.
# kl-test: once (only outside compilers and readers run; the sanitizers have nothing of ours to watch)
. tests/tap.sh
set -u
# The compiles of every kernel go through the cache the test scripts share (inspect.sh and
# compile_lag.sh build the same objects); the checks of the cache itself keep one of their own.
export XDG_CACHE_HOME=$KL_CACHE KLADDER_HIP_COMPILER=clang

probe=$("$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl 2>&1)
if [ $? -ne 0 ] && grep -q "not found" <<<"$probe"; then
    tap_skip "clang-22 is not installed (scripts/deps.sh --test installs it): ${probe//$'\n'/ }"
    exit 0
fi

check_target() { # target  elf-mach  wave
    local target=$1 mach=$2 wave=$3 out
    local kernels=(kernels/*.kl)
    out=$("$KLADDER" compile --backend hip --target "$target" "${kernels[@]}" 2>&1)
    for k in "${kernels[@]}"; do
        if grep -qF "ok hip $target $k " <<<"$out"; then
            tap_ok "clang $target compiles $k"
        else
            tap_fail "clang $target compiles $k"
            grep -A30 "^FAIL hip $target $k" <<<"$out" | head -n 30
        fi
    done
    for k in util flydsl_1199; do
        "$KLADDER" compile --backend hip --target "$target" --out "$KL_TMP/$target.co" \
            "kernels/$k.kl" >/dev/null
        local facts
        facts=$(python3 tests/gpu/codeobj.py "$KL_TMP/$target.co")
        tap_check "clang $target $k: code object says '$facts', want 'amdgpu $mach $wave'" \
            test "$facts" = "amdgpu $mach $wave"
    done
}
check_target gfx1250 0x49 32
check_target gfx950 0x4f 64
check_target gfx942 0x4c 64

# The cache: the same compile again is a hit; another flag or another clang is a miss.
export XDG_CACHE_HOME=$KL_TMP/cache
out=$("$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl 2>&1)
tap_check "a first compile into an empty cache is a miss" bash -c '! grep -q ", cached)$" <<<"$1"' _ "$out"
out=$("$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl 2>&1)
tap_check "a repeated compile comes from the cache" grep -q ", cached)$" <<<"$out"
out=$("$KLADDER" compile --backend hip --target gfx1250 --flag -DKL_TEST_FLAG=1 kernels/util.kl 2>&1)
tap_check "a new flag is a cache miss" bash -c '! grep -q ", cached)$" <<<"$1"' _ "$out"
cat >"$KL_TMP/clang-other" <<'SH'
#!/bin/sh
# Another build of the same compiler: the identity line differs, the code does not.
if [ "$1" = "--version" ]; then echo "Debian clang version 22.1.9 (2~test)"; exit 0; fi
exec clang-22 "$@"
SH
chmod +x "$KL_TMP/clang-other"
out=$(KLADDER_CLANG=$KL_TMP/clang-other "$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl 2>&1)
tap_check "another clang identity is a cache miss ($out)" \
    bash -c 'grep -q "22.1.9 (2~test)" <<<"$1" && ! grep -q ", cached)$" <<<"$1"' _ "$out"

# gfx1250 is wave32 only: asking clang for wave64 is refused with clang's own words, exit 1.
out=$("$KLADDER" compile --backend hip --target gfx1250 --flag -mwavefrontsize64 kernels/util.kl 2>&1)
rc=$?
tap_check "gfx1250 with -mwavefrontsize64 exits 1 (got $rc)" test "$rc" -eq 1
tap_check "clang's refusal names wavefrontsize64" grep -q "wavefrontsize64" <<<"$out"

# A broken kernel: clang's message points into the kernel file.
cat >"$KL_TMP/broken.kl" <<'KL'
KL_KERNEL void broken(float *x)
{
    x[threadIdx.x] = not_declared_anywhere;
}
KL_EXPORT(broken)
KL
out=$("$KLADDER" compile --backend hip --target gfx950 "$KL_TMP/broken.kl" 2>&1)
rc=$?
tap_check "a broken kernel exits 1 (got $rc)" test "$rc" -eq 1
tap_check "clang's log points at line 3 of broken.kl" grep -q "broken.kl:3" <<<"$out"

# A processor clang does not know: its message, exit 1, nothing written.
out=$("$KLADDER" compile --backend hip --target gfx9999 --out "$KL_TMP/x.co" kernels/util.kl 2>&1)
rc=$?
tap_check "gfx9999 exits 1 (got $rc)" test "$rc" -eq 1
tap_check "gfx9999: clang names the processor" grep -q "gfx9999" <<<"$out"
tap_check "gfx9999: no code object written" test ! -e "$KL_TMP/x.co"

# No clang at all and clang forced: a setup error that says what was looked for.
out=$(KLADDER_CLANG=/nonexistent/clang-22 "$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl 2>&1)
tap_check "a missing clang is named" grep -q "/nonexistent/clang-22 not found" <<<"$out"

# No HIP runtime at all: clang still builds, and says that it compiles offline.
out=$(KLADDER_HIP_COMPILER=auto KLADDER_HIP_LIBRARY=/nonexistent/libamdhip64.so "$KLADDER" compile --backend hip --target gfx1250 --out "$KL_TMP/noruntime.co" kernels/flydsl_1199.kl 2>&1)
rc=$?
tap_check "without the HIP runtime gfx1250 still builds (exit $rc)" test "$rc" -eq 0
tap_check "and says the runtime did not load" grep -q "runtime did not load (.*/nonexistent/libamdhip64.so.*); compiling for gfx1250 offline" <<<"$out"
tap_check "the code object is gfx1250's" test "$(python3 tests/gpu/codeobj.py "$KL_TMP/noruntime.co")" = "amdgpu 0x49 32"

# KL_ASSUME_WAVE at compile time: where the code object fixes the wave, a contradiction is noted
# (not a failure: a reproducer's buggy variant contradicts its target on purpose).
out=$("$KLADDER" compile --backend hip --target gfx1250 kernels/flydsl_1024.kl 2>&1)
tap_check "gfx1250: the wave64 build of flydsl-1024 is noted with both numbers" \
    grep -q "note: kernel softmax_1024_buggy assumes wave 64 (KL_ASSUME_WAVE), the gfx1250 code object runs wave 32" <<<"$out"
out=$("$KLADDER" compile --backend hip --target gfx942 kernels/flydsl_1024.kl tests/engine/fixtures/rung3/assume32.kl 2>&1)
tap_check "gfx942: wave 64 holds for flydsl-1024 (no note)" bash -c '! grep -q "softmax_1024_buggy assumes" <<<"$1"' _ "$out"
tap_check "gfx942: the wave32 build is noted" \
    grep -q "note: kernel rowsum_buggy assumes wave 32 (KL_ASSUME_WAVE), the gfx942 code object runs wave 64" <<<"$out"
