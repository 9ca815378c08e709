#!/usr/bin/env bash
# The CUDA math libraries' host API on the cpu backend (kernels/kl_cublas.h, kl_cufft.h,
# kl_cusparse.h, kl_cusolver.h, kl_curand.h): spectrum.cu (tests/engine/fixtures/mathlibs)
# includes cufft.h, cublas_v2.h, cusparse.h, cusolverDn.h and curand.h, has a kernel and calls
# each library from host code. It goes in whole with its kernel launchable; under `kladder exec`
# its kernel's values are right and each call answers its library's not-supported status (the
# program checks both and exits 0). The other sides: the kernel with a sign wrong fails the
# program's own check; a function no toolkit has is refused as missing API at its line; a
# library header is served only to a file that includes it (cufftComplex without cufft.h is
# the compiler's error). cuRAND's device API (curand_kernel.h): XORWOW's numbers are cuRAND's
# (xorwow.cu), another generator is refused where a kernel starts it.
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

# cuRAND's device API: XORWOW (curandState) as cuRAND computes it. xorwow.cu draws integers,
# uniforms and normals from four threads' states (one subsequence 2^40 out, offsets, both
# jumps ahead); its output is the toolkit's generator's (xorwow.expected): integers and uniforms
# to the bit, normals to 1e-6 (the host's logf/sinf/cosf). A state started one subsequence off
# gives other numbers, and the comparison names the thread.
same() { python3 - "$1" "$2" <<'PY'
import sys
want = [l.split() for l in open(sys.argv[1]) if l.startswith("thread")]
got = [l.split() for l in open(sys.argv[2]) if l.startswith("thread")]
bad = [w[:3] for w, g in zip(want, got)
       if (w[2] != "normal" and w != g) or
       (w[2] == "normal" and any(abs(float(a) - float(b)) > 1e-6 * max(1.0, abs(float(a)))
                                 for a, b in zip(w[3:], g[3:])))]
if len(want) != 12 or len(got) != 12 or bad:
    print("differs:", " ".join(" ".join(b) for b in bad) or "line count %d" % len(got))
    sys.exit(1)
PY
}
"$KLADDER" exec "$fx/xorwow.cu" >"$KL_TMP/xorwow.out" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/xorwow.out"
tap_check "xorwow.cu runs under exec (exit $rc)" test $rc -eq 0
tap_check "its numbers are cuRAND's XORWOW's" \
    same "$fx/xorwow.expected" "$KL_TMP/xorwow.out"
tap_check "xorwow.cu goes in with draw launchable" test "$(cause "$KL_TMP/scan.json" xorwow.cu)" = "ok draw"
mkdir -p "$KL_TMP/off"
sed 's/(1ULL << 40) + 7/(1ULL << 40) + 6/' "$fx/xorwow.cu" >"$KL_TMP/off/xorwow.cu"
"$KLADDER" exec "$KL_TMP/off/xorwow.cu" >"$KL_TMP/off.out" 2>&1
why=$(same "$fx/xorwow.expected" "$KL_TMP/off.out")
tap_check "a state one subsequence off: other numbers, thread 3's ($why)" \
    bash -c "test -n '$why' && ! grep -q 'thread [012]' <<<'$why' && grep -q 'thread 3 int' <<<'$why'"

# the other generators are refused where a kernel calls them, naming the call
mkdir -p "$KL_TMP/rng"
cat >"$KL_TMP/rng/dropout.cu" <<'CU'
#include <curand_kernel.h>
__global__ void dropout(float *x, curandStatePhilox4_32_10_t *states, int n, float keep)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        curand_init(1234ULL, i, 0, &states[i]);
        x[i] = curand_uniform(&states[i]) < keep ? x[i] / keep : 0.0f;
    }
}
int main()
{
    curandStatePhilox4_32_10_t *states;
    cudaMalloc(&states, 1024 * sizeof(curandStatePhilox4_32_10_t));
    return 0;
}
CU
"$KLADDER" scan --backend cpu "$KL_TMP/rng" >"$KL_TMP/rng.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/rng.txt"
tap_check "a kernel starting a Philox state: refused as not supported, at its line (exit $rc)" \
    sh -c "test $rc -eq 1 && grep -q 'API not supported on this backend: curand_init.* at dropout.cu:6' '$KL_TMP/rng.txt'"
