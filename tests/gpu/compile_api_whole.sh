#!/usr/bin/env bash
# kl-test: once
# The API of data/api/hip_api.tsv that a HIP file uses, compiled whole for gfx1250 by clang with
# no ROCm (kladder's HIP headers, KL_HIP_WHOLE): the fast-math intrinsics (__expf, __logf,
# __sinf, __cosf, __tanf, __sincosf, __powf, __fdividef, __saturatef, __exp10f, __log2f,
# __log10f and the _rn operations), atomicInc and atomicDec, atomicAdd on __half2 and
# __hip_bfloat162, HIP's legacy coordinates and cooperative groups' thread_group with
# tiled_partition(group, n); and lse_rows.hip, which runs on the cpu backend in
# tests/engine/plain_sources.sh. Each entry point is in the gfx1250 code object.
. tests/tap.sh
set -u
export XDG_CACHE_HOME=$KL_TMP/cache
if ! command -v "${KLADDER_CLANG:-clang-22}" >/dev/null; then
    tap_skip "clang-22 is not installed (scripts/deps.sh --test installs it)"
    echo "1..$_tap_n"
    exit 0
fi
d=$KL_TMP/api
mkdir -p "$d"
cat >"$d/api_use.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_fp16.h>

namespace cg = cooperative_groups;

__global__ void fast_math(float *out, const float *x, int n)
{
    const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if (i >= n)
        return;
    const float v = x[i];
    float s, c;
    __sincosf(v, &s, &c);
    out[i] = __expf(v) + __logf(v) + __sinf(v) + __cosf(v) + __tanf(v) + s + c + __powf(v, 1.5f) +
             __fdividef(v, 3.f) + __saturatef(v) + __exp10f(v) + __log2f(v) + __log10f(v) +
             __fadd_rn(v, 1.f) + __fmul_rn(v, v) + __fdiv_rn(v, 2.f) + __fsqrt_rn(v) + __frcp_rn(v) +
             (float)(hipGridDim_x + hipBlockIdx_y + hipThreadIdx_z + hipBlockDim_y);
}

__global__ void wrap_and_pairs(unsigned *cursor, __half2 *h, __hip_bfloat162 *b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned up = atomicInc(cursor, 15u);
    const unsigned down = atomicDec(cursor + 1, 15u);
    atomicAdd(h + (up & 7u), __floats2half2_rn(1.f, 2.f));
    atomicAdd(b + (down & 7u), __floats2bfloat162_rn(1.f, 2.f));
}

__global__ void group_sum(float *out, const float *x, int n)
{
    __shared__ float part[256];
    cg::thread_group block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 16);
    const unsigned me = block.thread_rank();
    part[me] = me < (unsigned)n ? x[me] : 0.f;
    block.sync();
    for (unsigned half = block.size() / 2; half >= tile.size(); half /= 2) {
        if (me < half)
            part[me] += part[me + half];
        block.sync();
    }
    for (unsigned half = tile.size() / 2; half > 0; half /= 2) {
        if (tile.thread_rank() < half)
            part[me] += part[me + half];
        tile.sync();
    }
    if (me == 0)
        out[0] = part[0];
}
HIP
cat >"$d/api-use.json" <<'JSON'
{"format": "kladder-suite", "version": 1, "name": "api-use", "source": "api_use.hip",
 "variants": {"fixed": "fast_math", "buggy": "wrap_and_pairs"}, "reference": "group_sum",
 "params": {"n": 64}, "buffers": [{"name": "out", "dtype": "f32", "shape": ["n"], "role": "output"},
 {"name": "x", "dtype": "f32", "shape": ["n"], "role": "input"}],
 "args": ["out", "x", "n"], "launch": {"block": [64, 1, 1], "grid": [1, 1, 1]},
 "tolerance": {"abs": 0, "rel": 0}, "baseline": [{"n": 64}], "rungs": {"1": {}}}
JSON
out=$("$KLADDER" compile --backend hip --target gfx1250 "$d/api-use.json" tests/engine/fixtures/plain/lse-rows.json 2>&1)
rc=$?
sed 's/^/# /' <<<"$out" | head -n 30
tap_check "both files compile whole for gfx1250: exit 0 ($rc)" test $rc -eq 0
tap_check "the fast-math intrinsics and legacy coordinates (fast_math)" \
    grep -qF "fixed fast_math = _Z9fast_mathPfPKfi" <<<"$out"
tap_check "atomicInc, atomicDec and the pair atomicAdds (wrap_and_pairs)" \
    grep -qE "buggy wrap_and_pairs = _Z14wrap_and_pairsPjP7__half2P15__hip_bfloat162i" <<<"$out"
tap_check "a thread_group and tiled_partition(group, 16) (group_sum)" \
    grep -qF "reference group_sum = _Z9group_sumPfPKfi" <<<"$out"
tap_check "lse_rows.hip, as the cpu backend runs it" \
    grep -qF "fixed lse_rows<true> = _Z8lse_rowsILb1EEvPfPKfii" <<<"$out"
echo "1..$_tap_n"
