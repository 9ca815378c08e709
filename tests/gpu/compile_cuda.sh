#!/usr/bin/env bash
# NVRTC compiles every kernel (kernels/*.kl with kl.h) to a CUBIN for sm_90 without a GPU,
# where the CUDA toolkit's NVRTC is installed; the CUBIN must be for SM 9.0.
# kl-test: once (only outside compilers and readers run; the sanitizers have nothing of ours to watch)
. tests/tap.sh
set -u

if ! tap_have_nvrtc; then
    tap_skip "no CUDA toolkit NVRTC under /usr/local/cuda*/lib* (set KLADDER_NVRTC to use another)"
    exit 0
fi

kernels=(kernels/*.kl) # one list for the command and the checks
out=$("$KLADDER" compile --backend cuda --target sm_90 "${kernels[@]}" 2>&1)
rc=$?
if [ $rc -eq 2 ]; then
    tap_fail "NVRTC is installed (or KLADDER_NVRTC set) but the cuda backend cannot load: ${out//$'\n'/ }"
    exit 0
fi
for k in "${kernels[@]}"; do
    if grep -qF "ok cuda sm_90 $k " <<<"$out"; then
        tap_ok "NVRTC sm_90 compiles $k"
    else
        tap_fail "NVRTC sm_90 compiles $k"
        awk -v k="$k" '$0 ~ "^FAIL cuda .* " k "$" {p=1} /^(ok|FAIL) / && $0 !~ k {p=0} p' <<<"$out" | head -n 30
    fi
done

"$KLADDER" compile --backend cuda --target sm_90 --out "$KL_TMP/util.cubin" kernels/util.kl >/dev/null
facts=$(python3 tests/gpu/codeobj.py "$KL_TMP/util.cubin")
tap_check "the CUBIN is for SM 90 (got '$facts')" test "$facts" = "cuda 90"

cat >"$KL_TMP/broken.kl" <<'KL'
KL_KERNEL void broken(float *x)
{
    x[threadIdx.x] = not_declared_anywhere;
}
KL_EXPORT(broken)
KL
out=$("$KLADDER" compile --backend cuda --target sm_90 "$KL_TMP/broken.kl" 2>&1)
rc=$?
tap_check "a broken kernel exits 1 (got $rc)" test "$rc" -eq 1
tap_check "the log names the undeclared identifier" grep -q "not_declared_anywhere" <<<"$out"
tap_check "the log points at line 3 of the kernel file" grep -q "broken.kl(3)" <<<"$out"

out=$("$KLADDER" compile --backend cuda --target compute_90 kernels/util.kl 2>&1)
tap_check "cuda refuses a compute_XY target (PTX gives no CUBIN)" grep -q 'not an sm_XY' <<<"$out"
