#!/usr/bin/env bash
# A processor that hipRTC's code generator (comgr) does not know — gfx1250 and gfx942 with ROCm
# 5.2 — is refused with a message naming the target and comgr's own error, exit status 1: never
# an abort inside hipRTC (status 134), never a code object. Where the installed ROCm knows the
# processor, the code object must be for it.
. tests/tap.sh
set -u

probe=$("$KLADDER" compile --backend hip --target gfx90a kernels/util.kl 2>&1)
if [ $? -eq 2 ]; then
    tap_skip "the hip backend cannot load here: ${probe//$'\n'/ }"
    exit 0
fi

for target in gfx1250 gfx942; do
    co=$KL_TMP/$target.co
    out=$("$KLADDER" compile --backend hip --target "$target" --out "$co" kernels/flydsl_1220.kl 2>&1)
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
