#!/usr/bin/env bash
# hipRTC compiles every kernel (kernels/*.kl, with kl.h prepended as a run does) for gfx90a
# (wave64) and gfx1030 (wave32), with no GPU: the code objects must name the right processor
# and wave size, a broken kernel must fail with the compiler's message, and a processor the
# compiler does not know must be refused, never abort the process.
# kl-test: once (only outside compilers and readers run; the sanitizers have nothing of ours to watch)
. tests/tap.sh
set -u

probe=$("$KLADDER" compile --backend hip --target gfx90a kernels/util.kl 2>&1)
if [ $? -eq 2 ]; then
    tap_skip "hipRTC unavailable here: ${probe//$'\n'/ }"
    exit 0
fi

check_target() { # target  elf-mach  wave
    local target=$1 mach=$2 wave=$3 out
    local kernels=(kernels/*.kl) # one list for the command and the checks
    out=$("$KLADDER" compile --backend hip --target "$target" "${kernels[@]}" 2>&1)
    for k in "${kernels[@]}"; do
        if grep -qF "ok hip $target $k " <<<"$out"; then
            tap_ok "hipRTC $target compiles $k"
        else
            tap_fail "hipRTC $target compiles $k"
            awk -v k="$k" '$0 ~ "^FAIL hip .* " k "$" {p=1} /^(ok|FAIL) / && $0 !~ k {p=0} p' <<<"$out" | head -n 30
        fi
    done
    # The code object really is for this processor and wave size (not a default the runtime
    # chose for a device that is not here).
    "$KLADDER" compile --backend hip --target "$target" --out "$KL_TMP/$target.co" kernels/util.kl >/dev/null
    local facts
    facts=$(python3 tests/gpu/codeobj.py "$KL_TMP/$target.co")
    tap_check "gfx target $target: code object says '$facts', want 'amdgpu $mach $wave'" \
        test "$facts" = "amdgpu $mach $wave"
}
check_target gfx90a 0x3f 64
check_target gfx1030 0x36 32

# A kernel with an error fails, exit 1, and the compiler's message points into the kernel file.
cat >"$KL_TMP/broken.kl" <<'KL'
KL_KERNEL void broken(float *x)
{
    x[threadIdx.x] = not_declared_anywhere;
}
KL_EXPORT(broken)
KL
out=$("$KLADDER" compile --backend hip --target gfx90a "$KL_TMP/broken.kl" 2>&1)
rc=$?
tap_check "a broken kernel exits 1 (got $rc)" test "$rc" -eq 1
tap_check "the log names the undeclared identifier" grep -q "not_declared_anywhere" <<<"$out"
tap_check "the log points at line 3 of the kernel file" grep -q "broken.kl:3" <<<"$out"

# Not a gfx target: refused before hipRTC guesses.
out=$("$KLADDER" compile --backend hip --target sm_90 kernels/util.kl 2>&1)
tap_check "hip refuses target sm_90 with a reason" grep -q 'not a gfx target' <<<"$out"

# A processor that hipRTC's code generator (comgr) does not know — gfx1250 and gfx942 with ROCm
# 5.2 — is refused with a message naming the target and comgr's own error, exit status 1: never
# an abort inside hipRTC (status 134), never a code object. Where the installed ROCm knows the
# processor, the code object must be for it.
# (With no offline compiler: clang would otherwise build these, tests/gpu/compile_amd_clang.sh.)
for target in gfx1250 gfx942; do
    co=$KL_TMP/$target.co
    out=$(KLADDER_CLANG=/nonexistent/clang-22 KLADDER_NO_CACHE=1 "$KLADDER" compile --backend hip --target "$target" --out "$co" kernels/flydsl_1220.kl 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ]; then
        tap_check "this ROCm knows $target: the code object is for it" \
            grep -aq "amdgcn-amd-amdhsa--$target" "$co"
        continue
    fi
    tap_check "$target refused with exit status 1, not an abort (got $rc)" test "$rc" -eq 1
    tap_check "$target: the message names the target" \
        grep -q "hipRTC cannot compile for $target: " <<<"$out"
    tap_check "$target: the message carries comgr's own error" \
        grep -q "amd_comgr_get_isa_metadata(\"amdgcn-amd-amdhsa--$target\") failed: [A-Z_]" <<<"$out"
    tap_check "$target: nothing from the C library's heap checks or a sanitizer" \
        bash -c '! grep -qiE "invalid pointer|double free|Sanitizer|Aborted" <<<"$1"' _ "$out"
    tap_check "$target: no code object written" test ! -e "$co"
done
