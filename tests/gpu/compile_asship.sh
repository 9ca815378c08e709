#!/usr/bin/env bash
# kl-test: once
# Kernel files as they ship on the cuda backend, without a GPU (docs/kernels.md): the programs of
# tests/engine/fixtures/asship (twelve CUDA files written with the shapes of public benchmark
# programs, and a HIP program with hipMalloc and HIP_CHECK), whole translation units with host
# code, a common header, cuBLAS includes, <<<...>>> launches and host launchers overloading a
# kernel's name, compile for sm_90 with the toolkit's nvcc (-cubin), and every entry point each
# suite names is found in the CUBIN by its mangled symbol (a template instance over a vendor type
# included). Without nvcc, KLADDER_NVCC naming none, the same files are refused by NVRTC at a
# host include, the fallback this path replaces.
. tests/tap.sh
set -u
export XDG_CACHE_HOME=$KL_CACHE
nvcc=${KLADDER_NVCC:-/usr/local/cuda/bin/nvcc}
if ! tap_have_nvrtc || [ ! -x "$nvcc" ]; then
    tap_skip "no CUDA toolkit (NVRTC and nvcc) under /usr/local/cuda"
    echo "1..$_tap_n"
    exit 0
fi
fx=tests/engine/fixtures/asship
# and a HIP file of our own whose launcher declares `dim3 gridDim, blockDim`
suites=("$fx"/*.json tests/engine/fixtures/plain/tile-transpose.json)
out=$(KLADDER_NVCC=$nvcc "$KLADDER" compile --backend cuda --target sm_90 "${suites[@]}" 2>&1)
rc=$?
sed 's/^/# /' <<<"$out" | grep -v '^#   ' | head -n 40
tap_check "all ${#suites[@]} files compile whole and every entry is found: exit 0 ($rc)" test $rc -eq 0
for s in "${suites[@]}"; do
    tap_check "nvcc sm_90 compiles $(basename "$s") and finds its entries" \
        grep -qF "ok cuda sm_90 $s " <<<"$out"
done
tap_check "a kernel whose name a host launcher overloads is found as the kernel" \
    grep -qF "fixed gelu_grad_vec = _Z13gelu_grad_vecP13__nv_bfloat16PKS_S2_i" <<<"$out"
tap_check "a reference with its own reference_args (matmul_per_output takes BT)" \
    grep -qF "reference matmul_per_output = _Z17matmul_per_outputPfPKfS1_S1_iii" <<<"$out"
tap_check "a template instance over a vendor type" \
    grep -qF "fixed sumsq_block<__nv_bfloat16> = _Z11sumsq_blockI13__nv_bfloat16EvPfPKT_m" <<<"$out"

# nvcc's build is in the cache key: a toolkit upgraded in place (the same path) compiles again.
fake=$KL_TMP/nvcc
mkfake() { # BUILD-LINE: an nvcc that says so and otherwise is the real one
    printf '#!/bin/sh\nif [ "$1" = --version ]; then echo "Build %s"; exit 0; fi\nexec %s "$@"\n' \
        "$1" "$nvcc" >"$fake"
    chmod +x "$fake"
}
mkfake cuda_99.1.r99.1/compiler.1_0
first=$(KLADDER_NVCC=$fake "$KLADDER" compile --backend cuda --target sm_90 "$fx/adamw.json" 2>&1)
again=$(KLADDER_NVCC=$fake "$KLADDER" compile --backend cuda --target sm_90 "$fx/adamw.json" 2>&1)
mkfake cuda_99.2.r99.2/compiler.2_0
upgraded=$(KLADDER_NVCC=$fake "$KLADDER" compile --backend cuda --target sm_90 "$fx/adamw.json" 2>&1)
sed 's/^/# /' <<<"$upgraded" | head -n 1
tap_check "the compile line names nvcc's build" \
    grep -qF "whole units: nvcc cuda_99.1.r99.1/compiler.1_0 ($fake)" <<<"$first"
tap_check "the same nvcc again comes from the cache" grep -q "^ok .*, cached)" <<<"$again"
recompiled() { grep -qF 'nvcc cuda_99.2' <<<"$upgraded" && ! grep -q '^ok .*, cached)' <<<"$upgraded"; }
tap_check "an nvcc of another build at the same path compiles again" recompiled

out=$(KLADDER_NVCC=/nonexistent/nvcc "$KLADDER" compile --backend cuda --target sm_90 "$fx/adamw.json" 2>&1)
rc=$?
sed 's/^/# /' <<<"$out" | head -n 8
tap_check "NVRTC alone cannot take a whole file: exit 1 ($rc)" test $rc -eq 1
tap_check "it stops at a host include of the common header, naming it" grep -qE 'kit.cuh\([0-9]+\): catastrophic error: cannot open source file "(vector|cublas_v2.h)"' <<<"$out"
echo "1..$_tap_n"
