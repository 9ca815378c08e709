#!/usr/bin/env bash
# A CUDA program's host side and the vendors' complex numbers, as files ship them
# (tests/engine/fixtures/toolkit): host_api.cu (a CUDART_CB stream callback, cudaMemAttachHost,
# cudaDeviceProp's uuid and the members CUDA 13 dropped, a memory pool's properties, graph nodes,
# a cudaTextureObject_t argument, a host helper's own rsqrtf) and complex_rotate.hip
# (hip/hip_complex.h) and graph_host.cu (a graph built by hand: 3-D copy makers, a host node) go in whole on the cpu backend, and for gfx1250 where clang-22 is
# installed; a member no toolkit has is still the compiler's error, named. The values of the
# complex functions are checked in api_cpu.sh, a kernel using them in plain_sources.sh
# (complex_filter.cu, with its own host rsqrtf).
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/toolkit

"$KLADDER" scan --json "$fx" >"$KL_TMP/cpu.json" 2>"$KL_TMP/cpu.err"
rc=$?
sed 's/^/# /' "$KL_TMP/cpu.err"
tap_check "cpu: every file goes in (exit $rc)" test "$rc" -eq 0
cause() { python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["files"]:
    if f["path"].endswith(sys.argv[2]): print(f["cause"], " ".join(e["kernel"] for e in f.get("entries", []) if e["state"] == "launchable"))' "$@"; }
tap_check "cpu: host_api.cu goes in with scale_rows ($(cause "$KL_TMP/cpu.json" host_api.cu))" \
    test "$(cause "$KL_TMP/cpu.json" host_api.cu)" = "ok scale_rows"
tap_check "cpu: complex_rotate.hip goes in with rotate_acc" \
    test "$(cause "$KL_TMP/cpu.json" complex_rotate.hip)" = "ok rotate_acc"
tap_check "cpu: graph_host.cu (make_cudaPos/Extent/PitchedPtr, cudaHostNodeParams) goes in with add_one" \
    test "$(cause "$KL_TMP/cpu.json" graph_host.cu)" = "ok add_one"

# the other side: a member no toolkit declares is refused with the compiler's words
mkdir -p "$KL_TMP/bad"
sed 's/p\.computeMode/p.computeModeX/' "$fx/host_api.cu" >"$KL_TMP/bad/host_api.cu"
"$KLADDER" scan "$KL_TMP/bad" >"$KL_TMP/bad.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/bad.txt"
tap_check "a member cudaDeviceProp has not: refused, named at its line (exit $rc)" \
    sh -c "test $rc -eq 1 && grep -q 'computeModeX' '$KL_TMP/bad.txt' && grep -q 'host_api.cu:3[0-9]' '$KL_TMP/bad.txt'"

if "$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl >/dev/null 2>&1; then
    "$KLADDER" scan --backend hip --target gfx1250 --json "$fx" >"$KL_TMP/gfx.json" 2>"$KL_TMP/gfx.err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/gfx.err"
    tap_check "gfx1250: every file goes in (exit $rc)" test "$rc" -eq 0
    tap_check "gfx1250: host_api.cu (a launch on a cudaStream_t) with scale_rows" \
        test "$(cause "$KL_TMP/gfx.json" host_api.cu)" = "ok scale_rows"
    tap_check "gfx1250: complex_rotate.hip with rotate_acc" \
        test "$(cause "$KL_TMP/gfx.json" complex_rotate.hip)" = "ok rotate_acc"
else
    tap_skip "clang-22 absent: nothing compiled for gfx1250"
fi
