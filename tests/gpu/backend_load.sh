#!/usr/bin/env bash
# A GPU backend that cannot load says why, naming what it tried: a missing library is reported
# with the path, never as a crash or a silent "no devices".
. tests/tap.sh
set -u

# (hipRTC forced: with the runtime missing, clang would otherwise build gfx90a offline.)
out=$(KLADDER_HIP_COMPILER=hiprtc KLADDER_HIP_LIBRARY=/nonexistent/libamdhip64.so "$KLADDER" compile --backend hip --target gfx90a kernels/util.kl 2>&1)
rc=$?
tap_check "hip with a missing runtime exits 2 (got $rc)" test "$rc" -eq 2
tap_check "hip names the library it tried" grep -q "/nonexistent/libamdhip64.so" <<<"$out"

out=$(KLADDER_NVRTC=/nonexistent/libnvrtc.so "$KLADDER" compile --backend cuda --target sm_90 kernels/util.kl 2>&1)
rc=$?
tap_check "cuda with a missing NVRTC exits 2 (got $rc)" test "$rc" -eq 2
tap_check "cuda names the NVRTC it tried" grep -q "/nonexistent/libnvrtc.so" <<<"$out"
tap_check "cuda says how to point at another NVRTC" grep -q "KLADDER_NVRTC" <<<"$out"

# A library that opens but is not the vendor's: every symbol lookup fails, and the message
# names the missing entry point.
libc=$(ldd "$KLADDER" | awk '/libc\.so/ {print $3; exit}')
out=$(KLADDER_HIP_COMPILER=hiprtc KLADDER_HIP_LIBRARY=$libc "$KLADDER" compile --backend hip --target gfx90a kernels/util.kl 2>&1)
tap_check "hip bound to a non-HIP library names a missing hip symbol" grep -q "lacks hip" <<<"$out"

# Without a GPU the device list is empty with the runtime's reason (when `devices` exists).
if "$KLADDER" devices --help >/dev/null 2>&1; then
    out=$("$KLADDER" devices --json 2>&1)
    if ls /dev/nvidia0 >/dev/null 2>&1 || ls /dev/kfd >/dev/null 2>&1; then
        tap_skip "this machine has a GPU; the no-GPU reasons are not checked"
    else
        tap_check "devices --json gives every GPU backend a reason" \
            python3 -c 'import json,sys
d=json.loads(sys.stdin.read())
gpu=[b for b in d if b["backend"] in ("hip","cuda")]
assert len(gpu)==2, gpu
for b in gpu:
    assert b["available"] is False or b["devices"]==[], b
    assert b["reason"], b' <<<"$out"
        if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
            tap_check "without a driver, the cuda reason names libcuda.so.1" \
                grep -q 'libcuda.so.1' <<<"$out"
        fi
    fi
    out=$(KLADDER_NVRTC=/nonexistent/libnvrtc.so "$KLADDER" devices 2>&1)
    tap_check "devices shows the NVRTC that could not be opened" \
        grep -q 'cuda .*unavailable.*/nonexistent/libnvrtc.so' <<<"$out"
else
    tap_skip "kladder devices is not built yet"
fi
