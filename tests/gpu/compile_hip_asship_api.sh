#!/usr/bin/env bash
# HIP files as they ship, compiled whole for gfx1250 by clang with no ROCm (kladder's HIP
# headers, KL_HIP_WHOLE) through `kladder scan`, and the same files on the cpu backend:
#   host_api.hip   host code of a HIP program: hipMemcpy into a variable-length array,
#                  hipHostMalloc with hipHostMallocMapped, the module API (hipModule_t,
#                  hipFunction_t, hipModuleLaunchKernel with the HIP_LAUNCH_PARAM markers),
#                  hipDeviceCanAccessPeer, hipMemcpyToSymbol(HIP_SYMBOL(...)), memset with no
#                  <cstring> of its own, props.warpSize beside warpSize read in a kernel;
#   rounding.hip   device math and conversions: HIP's min and max, lrintf, cbrtf and cbrt,
#                  floor and ldexp on double, __double2hiint/__double2loint/__hiloint2double,
#                  the conversion intrinsics with their rounding modes, sinpif and cospif, and
#                  the atomics HIP adds (double add/min/max, integer sub/min/and/or/xor,
#                  unsigned long, float min).
# Both go in for gfx1250 with every entry launchable, and go in on the cpu backend too, where
# rounding.hip runs rung 1: its kernel that floors with __float2int_rd passes against a
# reference written with floorf, and its twin that truncates with __float2int_rz (wrong for the
# negative inputs) is caught. The refusals stay named: a vendor library kladder does not stand
# in for is missing-header with its name, an intrinsic HIP does not have is missing-api.
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
if ! command -v "${KLADDER_CLANG:-clang-22}" >/dev/null; then
    tap_skip "clang-22 is not installed (scripts/deps.sh --test installs it)"
    echo "1..$_tap_n"
    exit 0
fi
d=$KL_TMP/asship
mkdir -p "$d"
cat >"$d/host_api.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <cstdio>

__constant__ float coef[4];

__global__ void scale_by_coef(float *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lanes = warpSize;
    if (i < n)
        x[i] *= coef[i % 4] + (float)(lanes & 1);
}

int run_module(const char *path, float *d_x, int n)
{
    hipModule_t module;
    hipFunction_t fn;
    if (hipModuleLoad(&module, path) != hipSuccess)
        return 1;
    hipModuleGetFunction(&fn, module, "scale_by_coef");
    struct { float *x; int n; } args = {d_x, n};
    size_t size = sizeof args;
    void *config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                      HIP_LAUNCH_PARAM_END};
    hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, config);
    return hipModuleUnload(module) == hipSuccess ? 0 : 1;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 256;
    float host[n]; /* a variable-length array, as C99-minded host code writes it */
    memset(host, 0, sizeof host);
    const float c[4] = {1.f, 2.f, 3.f, 4.f};
    hipMemcpyToSymbol(HIP_SYMBOL(coef), c, sizeof c);
    float *pinned = nullptr, *d_x = nullptr;
    hipHostMalloc((void **)&pinned, n * sizeof(float), hipHostMallocMapped);
    hipMalloc((void **)&d_x, n * sizeof(float));
    hipMemcpy(d_x, host, n * sizeof(float), hipMemcpyHostToDevice);
    hipDeviceProp_t props;
    hipGetDeviceProperties(&props, 0);
    hipLaunchKernelGGL(scale_by_coef, dim3((n + 255) / 256), dim3(256), 0, 0, d_x, n);
    hipMemcpy(host, d_x, n * sizeof(float), hipMemcpyDeviceToHost);
    int peer = 0;
    hipDeviceCanAccessPeer(&peer, 0, 1);
    printf("warp %d, peer %d, first %f\n", props.warpSize, peer, host[0]);
    hipHostFree(pinned);
    hipFree(d_x);
    return argc > 2 ? run_module(argv[2], d_x, n) : 0;
}
HIP
cat >"$d/rounding.hip" <<'HIP'
#include <hip/hip_runtime.h>

/* floor(x) + x, through the rounding API: the integer part with __float2int_rd (or, in the
 * buggy twin, __float2int_rz, which truncates negative values up), and x rebuilt from cbrtf of
 * its cube, lrintf and the min/max split of its sign */
template <bool Down>
__global__ void floor_plus(float *out, const float *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float v = x[i];
    const int whole = Down ? __float2int_rd(v) : __float2int_rz(v);
    const float again = cbrtf(v * v * v) + (float)lrintf(v) - rintf(v);
    out[i] = (float)whole + max(again, 0.f) + min(again, 0.f);
}
template __global__ void floor_plus<true>(float *, const float *, int);
template __global__ void floor_plus<false>(float *, const float *, int);

__global__ void floor_plus_ref(float *out, const float *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = floorf(x[i]) + x[i];
}

/* the double forms and the conversion intrinsics in every rounding mode */
__global__ void conversions(long long *out, const double *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double v = x[i];
    long long acc = __double2hiint(v) ^ __double2loint(v);
    acc += __double_as_longlong(__hiloint2double(__double2hiint(v), __double2loint(v)));
    acc += __double2int_rd(v) + __double2int_rn(v) + __double2int_ru(v) + __double2int_rz(v);
    acc += __double2ll_rd(v) + __double2ull_ru(fabs(v)) + __float2uint_rn((float)fabs(v));
    acc += __float2ll_rz((float)v) + __float2ull_rd((float)fabs(v));
    acc += (long long)(__int2float_rd(i) + __int2float_ru(i) + __int2float_rz(-i) + __uint2float_ru(i));
    acc += (long long)(__ll2float_rd(acc) + __ll2float_ru(acc) + __ull2float_rz((unsigned long long)acc));
    acc += (long long)(__ll2double_rd(acc) + __ull2double_ru((unsigned long long)acc));
    acc += (long long)(cbrt(v) + floor(v) + ldexp(v, 3) + max(v, 1.0) + min(i, n));
    out[i] = acc + llrint(v) + lround(v);
}

/* the atomics HIP adds beyond add, exchange, max and compare-and-swap, and sinpi/cospi */
__global__ void tally(double *sum, unsigned *bits, unsigned long *extremes, float *low, const double *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double v = x[i];
    atomicAdd(sum, v);
    atomicMin(sum + 1, v);
    atomicMax(sum + 2, v);
    atomicSub(bits, 1u);
    atomicMin(bits + 1, (unsigned)i);
    atomicAnd(bits + 2, ~(1u << (i & 31)));
    atomicOr(bits + 3, 1u << (i & 31));
    atomicXor(bits + 4, (unsigned)i);
    atomicMin(extremes, (unsigned long)i);
    atomicMax(extremes + 1, (unsigned long)i);
    atomicAdd(extremes + 2, 1ul);
    atomicMin(low, sinpif((float)v) + cospif((float)v));
}
HIP
cat >"$d/vendor_lib.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
__global__ void noop(int *x) { x[threadIdx.x] = 0; }
HIP
cat >"$d/not_hip.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void lanes(int *x) { x[threadIdx.x] = __kl_not_a_hip_intrinsic(x[threadIdx.x]); }
HIP
# field FILE EXPR: a Python expression over the file's record f in $KL_TMP/scan.json
field() {
    python3 - "$KL_TMP/scan.json" "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
found = [x for x in doc["files"] if x["path"].endswith("/" + sys.argv[2])]
f = found[0] if len(found) == 1 else None
print(eval(sys.argv[3]) if f else "no such record")
EOF
}
entries='f["cause"], sorted((e.get("instance") or e["kernel"], e["state"]) for e in f["entries"])'

# ---- gfx1250 ----------------------------------------------------------------------------------
"$KLADDER" scan --backend hip --target gfx1250 --jobs 2 --json "$d" >"$KL_TMP/scan.json" 2>"$KL_TMP/err"
rc=$?
python3 -c 'import json,sys; [print("#", f["path"].split("/")[-1], f["cause"], f.get("message", "")[:200]) for f in json.load(open(sys.argv[1]))["files"]]' "$KL_TMP/scan.json"
tap_check "gfx1250: the scan refuses the two files it must (exit $rc)" test "$rc" -eq 1
tap_check "gfx1250: host_api.hip goes in, its kernel launchable" \
    test "$(field host_api.hip "$entries")" = "('ok', [('scale_by_coef', 'launchable')])"
tap_check "gfx1250: rounding.hip goes in, both instances, the reference, conversions and tally launchable" \
    test "$(field rounding.hip "$entries")" = \
    "('ok', [('conversions', 'launchable'), ('floor_plus<false>', 'launchable'), ('floor_plus<true>', 'launchable'), ('floor_plus_ref', 'launchable'), ('tally', 'launchable')])"
tap_check "gfx1250: a vendor library is missing-header with its name" \
    test "$(field vendor_lib.hip 'f["cause"], f["what"]')" = "('missing-header', 'hipcub/hipcub.hpp')"
tap_check "gfx1250: an intrinsic HIP does not have is missing-api with its name" \
    test "$(field not_hip.hip 'f["cause"], f["what"]')" = "('missing-api', '__kl_not_a_hip_intrinsic')"

# ---- the cpu backend: the same files compile, and rounding.hip runs ---------------------------
"$KLADDER" scan --backend cpu --jobs 2 --json "$d/host_api.hip" "$d/rounding.hip" >"$KL_TMP/scan.json" 2>"$KL_TMP/err"
rc=$?
python3 -c 'import json,sys; [print("#", f["path"].split("/")[-1], f["cause"], f.get("message", "")[:200]) for f in json.load(open(sys.argv[1]))["files"]]' "$KL_TMP/scan.json"
tap_check "cpu: host_api.hip and rounding.hip go in (exit $rc)" \
    test "$rc:$(field host_api.hip 'f["cause"]'):$(field rounding.hip 'f["cause"]')" = "0:ok:ok"
cat >"$d/floor-plus.json" <<'JSON'
{"format": "kladder-suite", "version": 1, "name": "asship-floor-plus", "source": "rounding.hip",
 "variants": {"fixed": "floor_plus<true>", "buggy": "floor_plus<false>"}, "reference": "floor_plus_ref",
 "params": {"n": 512},
 "buffers": [{"name": "out", "dtype": "f32", "shape": ["n"], "role": "output"},
             {"name": "x", "dtype": "f32", "shape": ["n"], "role": "input", "init": "normal"}],
 "args": ["out", "x", "n"], "launch": {"block": [64, 1, 1], "grid": ["ceil(n, 64)", 1, 1]},
 "tolerance": {"abs": 1e-4, "rel": 1e-4}, "baseline": [{"n": 512}], "rungs": {"1": {}}}
JSON
"$KLADDER" --db "$KL_TMP/k.db" run --suite "$d/floor-plus.json" --rung 1 --backend cpu --no-progress \
    --timeout 120 >"$KL_TMP/r1.txt" 2>&1
sed 's/^/# /' "$KL_TMP/r1.txt" | head -n 30
tap_check "cpu rung 1: the kernel flooring with __float2int_rd passes" grep -qE '^pass +fixed +r1 ' "$KL_TMP/r1.txt"
tap_check "cpu rung 1: the twin truncating with __float2int_rz is caught" grep -qE '^fail +buggy +r1 ' "$KL_TMP/r1.txt"
echo "1..$_tap_n"
