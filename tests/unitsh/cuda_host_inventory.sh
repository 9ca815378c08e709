#!/usr/bin/env bash
# The CUDA runtime's enumerations, types and error-code functions in kernels/kl_host.h are the
# toolkit's (scripts/cuda_host_inventory.py): where a toolkit is installed, the generated
# blocks are what its headers give; a host program using an enumerator of them compiles for the
# cpu backend (cudaDevAttrComputeMode, the one cuda-samples' helper_cuda.h asks for), and the
# script fails when kl_host.h declares one of those enumerations by hand as well.
# kl-test: once (a script and the toolkit's headers; nothing of ours is compiled in)
. tests/tap.sh
inc=${CUDA_INCLUDE:-/usr/local/cuda/include}
if [ ! -f "$inc/driver_types.h" ] || [ ! -f "$inc/cuda_runtime_api.h" ]; then
    tap_skip "no CUDA toolkit headers in $inc (the generated blocks are checked where one is)"
    exit 0
fi
python3 scripts/cuda_host_inventory.py --include "$inc" --check
tap_check "kl_host.h's generated blocks are the toolkit's ($inc)" test $? -eq 0
tap_check "the device attribute a common helper header asks for is there, with the toolkit's value" \
    grep -qE '^    cudaDevAttrComputeMode = 20,$' kernels/kl_host.h
tap_check "a runtime function beyond the hand-written ones is declared (cudaDeviceGetP2PAttribute)" \
    grep -q 'KL_HOST_CUDA(cudaDeviceGetP2PAttribute)' kernels/kl_host.h
# an enumeration declared by hand beside the generated one is refused, naming it
mkdir -p "$KL_TMP/scripts" "$KL_TMP/kernels"
cp scripts/cuda_host_inventory.py "$KL_TMP/scripts/"
sed 's|^/\* ---- the CUDA runtime -.*|&\nenum cudaLimit { cudaLimitStackSize = 0 };|' kernels/kl_host.h >"$KL_TMP/kernels/kl_host.h"
python3 "$KL_TMP/scripts/cuda_host_inventory.py" --include "$inc" >"$KL_TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/out"
tap_check "a hand-written enum cudaLimit beside the generated one: refused, named" \
    sh -c "test $rc -ne 0 && grep -q 'declares enum cudaLimit by hand' '$KL_TMP/out'"
# the types block: flag constants, handle and scalar typedefs and flat structures, the toolkit's
tap_check "a flag constant of driver_types.h (cudaMemAttachHost 0x02)" \
    grep -qx '#define cudaMemAttachHost 0x02' kernels/kl_host.h
tap_check "a scalar typedef of texture_types.h (cudaTextureObject_t)" \
    grep -qx 'typedef unsigned long long cudaTextureObject_t;' kernels/kl_host.h
tap_check "a handle typedef (cudaMemPool_t)" \
    grep -qx 'typedef struct CUmemPoolHandle_st \*cudaMemPool_t;' kernels/kl_host.h
tap_check "cudaDeviceProp is the toolkit's (uuid), with the members CUDA 13 dropped kept after it" \
    sh -c "sed -n '/^struct cudaDeviceProp {/,/^};/p' kernels/kl_host.h | grep -q 'cudaUUID_t uuid;' &&
           sed -n '/^struct cudaDeviceProp {/,/^};/p' kernels/kl_host.h | grep -q 'int clockRate; /\* before CUDA 13 \*/'"
# a structure declared by hand beside the generated one is refused, naming it
sed 's|^/\* ---- the CUDA runtime -.*|&\nstruct cudaExtent { size_t width; };|' kernels/kl_host.h >"$KL_TMP/kernels/kl_host.h"
python3 "$KL_TMP/scripts/cuda_host_inventory.py" --include "$inc" >"$KL_TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/out"
tap_check "a hand-written struct cudaExtent beside the generated one: refused, named" \
    sh -c "test $rc -ne 0 && grep -q 'declares struct cudaExtent by hand' '$KL_TMP/out'"
