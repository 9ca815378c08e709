#!/usr/bin/env bash
# The CUDA math libraries' host API on the cpu backend (kernels/kl_cublas.h, kl_cufft.h,
# kl_cusparse.h, kl_cusolver.h, kl_curand.h): spectrum.cu (tests/engine/fixtures/mathlibs)
# includes cufft.h, cublas_v2.h, cusparse.h, cusolverDn.h and curand.h, has a kernel and calls
# each library from host code. It goes in whole with its kernel launchable; under `kladder exec`
# its kernel's values are right and each call answers its library's not-supported status (the
# program checks both and exits 0). The other sides: the kernel with a sign wrong fails the
# program's own check; a function no toolkit has is refused as missing API at its line; a
# library header is served only to a file that includes it (cufftComplex without cufft.h is
# the compiler's error). cuRAND's device API (curand_kernel.h) is declared unsupported: a kernel
# calling curand_init is refused, naming it at its line.
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/mathlibs

"$KLADDER" scan --backend cpu --json "$fx" >"$KL_TMP/scan.json" 2>"$KL_TMP/scan.err"
rc=$?
sed 's/^/# /' "$KL_TMP/scan.err"
cause() { python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["files"]:
    if f["path"].endswith(sys.argv[2]): print(f["cause"], " ".join(e["kernel"] for e in f.get("entries", []) if e["state"] == "launchable"))' "$@"; }
tap_check "spectrum.cu goes in whole (exit $rc)" test "$rc" -eq 0
tap_check "with scale_spectrum launchable ($(cause "$KL_TMP/scan.json" spectrum.cu))" \
    test "$(cause "$KL_TMP/scan.json" spectrum.cu)" = "ok scale_spectrum"

"$KLADDER" exec "$fx/spectrum.cu" >"$KL_TMP/exec.out" 2>"$KL_TMP/exec.err"
rc=$?
sed 's/^/# /' "$KL_TMP/exec.out" "$KL_TMP/exec.err"
out=$(cat "$KL_TMP/exec.out")
tap_check "kladder exec: the program passes its own checks (exit $rc)" \
    sh -c "test $rc -eq 0 && grep -qx PASS '$KL_TMP/exec.out'"
for want in "cufftPlan1d  *CUFFT_NOT_SUPPORTED" "cufftExecC2C  *CUFFT_NOT_SUPPORTED" \
    "cublasCgelsBatched  *CUBLAS_STATUS_NOT_SUPPORTED" \
    "cusparseCreateCsr  *CUSPARSE_STATUS_NOT_SUPPORTED" \
    "cusolverDnSgetrf_bufferSize  *CUSOLVER_STATUS_NOT_SUPPORTED" \
    "curandCreateGenerator  *CURAND_STATUS_TYPE_ERROR" "scale_spectrum values  *right"; do
    tap_check "exec: ${want%% *} answers ${want##*\*}" grep -qx "$want" <<<"$out"
done

# ---- the other sides ----
mkdir -p "$KL_TMP/sign" "$KL_TMP/bad" "$KL_TMP/noinc"
sed 's/bins\[i\]\.y \*= -gain;/bins[i].y *= gain;/' "$fx/spectrum.cu" >"$KL_TMP/sign/spectrum.cu"
"$KLADDER" exec "$KL_TMP/sign/spectrum.cu" >"$KL_TMP/sign.out" 2>"$KL_TMP/sign.err"
rc=$?
sed 's/^/# /' "$KL_TMP/sign.out"
tap_check "a kernel that forgets the conjugate: the program's own check fails (exit $rc)" \
    sh -c "test $rc -ne 0 && grep -q 'scale_spectrum values  *wrong' '$KL_TMP/sign.out'"
sed 's/cufftPlan1d(&plan/cufftPlan9d(\&plan/' "$fx/spectrum.cu" >"$KL_TMP/bad/spectrum.cu"
"$KLADDER" scan --backend cpu "$KL_TMP/bad" >"$KL_TMP/bad.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/bad.txt"
tap_check "a cuFFT function no toolkit has: refused as missing API at its line (exit $rc)" \
    sh -c "test $rc -eq 1 && grep -q 'missing API cufftPlan9d at spectrum.cu:[0-9]' '$KL_TMP/bad.txt'"
sed '/#include <cufft.h>/d' "$fx/spectrum.cu" >"$KL_TMP/noinc/spectrum.cu"
"$KLADDER" scan --backend cpu "$KL_TMP/noinc" >"$KL_TMP/noinc.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/noinc.txt"
tap_check "without #include <cufft.h> cuFFT's types are not there: refused (exit $rc)" \
    sh -c "test $rc -eq 1 && grep -q 'refused .*spectrum.cu: compile error' '$KL_TMP/noinc.txt'"

# cuRAND's device API: its state types are there (a kernel takes them, host code sizes them), and
# a kernel calling a generator is refused at the call's line, naming the function (the cpu
# backend does not emulate cuRAND's generators)
mkdir -p "$KL_TMP/rng"
cat >"$KL_TMP/rng/dropout.cu" <<'CU'
#include <curand_kernel.h>
__global__ void dropout(float *x, curandState *states, int n, float keep)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        curand_init(1234ULL, i, 0, &states[i]);
        x[i] = curand_uniform(&states[i]) < keep ? x[i] / keep : 0.0f;
    }
}
int main()
{
    curandState *states;
    cudaMalloc(&states, 1024 * sizeof(curandState));
    return 0;
}
CU
"$KLADDER" scan --backend cpu "$KL_TMP/rng" >"$KL_TMP/rng.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/rng.txt"
tap_check "a kernel calling curand_init: refused as not supported on the backend, at its line (exit $rc)" \
    sh -c "test $rc -eq 1 && grep -q 'API not supported on this backend: curand_init.* at dropout.cu:6' '$KL_TMP/rng.txt'"
