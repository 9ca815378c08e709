#!/usr/bin/env bash
# Plain CUDA sources through NVRTC without a GPU (docs/kernels.md): the CUDA fixtures of
# tests/engine/fixtures/plain compile for sm_90 as a run compiles them (the toolkit's headers,
# cooperative groups included; template instances handed to NVRTC as name expressions), and
# every entry point the manifest names - C++ names, template instances, extern "C" - is found
# in the CUBIN under its mangled symbol. A HIP source compiles for CUDA too, kladder's HIP part
# of kl_vendor.h mapping HIP's device API onto CUDA's (a struct shuffled whole with HIP's
# unmasked __shfl_down, cg::reduce from hip_cooperative_groups.h); its own error is still the
# compiler's, at its line. NVRTC only here (KLADDER_NVCC names no nvcc):
# tests/gpu/compile_asship.sh takes the nvcc path.
. tests/tap.sh
set -u
export XDG_CACHE_HOME=$KL_CACHE KLADDER_NVCC=/nonexistent/nvcc

if ! tap_have_nvrtc; then
    tap_skip "no CUDA toolkit NVRTC under /usr/local/cuda*/lib* (set KLADDER_NVRTC to use another)"
    echo "1..$_tap_n"
    exit 0
fi
fx=tests/engine/fixtures/plain
suites=("$fx/softmax.json" "$fx/moving-average.json" "$fx/cg-block-sum.json" "$fx/gelu-bf16.json"
        "$fx/half-rmsnorm.json")
out=$("$KLADDER" compile --backend cuda --target sm_90 "${suites[@]}" 2>&1)
rc=$?
sed 's/^/# /' <<<"$out" | head -n 40
tap_check "every suite compiles and every entry is found: exit 0 ($rc)" test $rc -eq 0
for s in "${suites[@]}"; do
    tap_check "NVRTC sm_90 compiles $(basename "$s")" grep -qF "ok cuda sm_90 $s " <<<"$out"
done
tap_check "a C++ name is found by its mangled symbol" \
    grep -qF "fixed softmax_warp = _Z12softmax_warpPfPKfii" <<<"$out"
tap_check "an extern \"C\" name by itself" grep -qF "reference softmax_ref = softmax_ref" <<<"$out"
tap_check "a template instance named with spaces, as written in the manifest" \
    grep -qF "fixed moving_average<128, 5, true> = _Z14moving_averageILi128ELi5ELb1EEvPfPKfi" <<<"$out"
tap_check "and its sibling instance apart from it" \
    grep -qF "buggy moving_average<128, 5, false> = _Z14moving_averageILi128ELi5ELb0EEvPfPKfi" <<<"$out"
tap_check "an instance over an unsigned parameter (demangled 0u)" \
    grep -qF "fixed block_sums<0> = _Z10block_sumsILj0EEvPfPKfii" <<<"$out"

hips=("$fx"/block-sumsq.json "$fx"/layernorm.json "$fx"/rms-scale.json "$fx"/scan-i64.json
      "$fx"/tile-max.json "$fx"/welford.json)
out=$("$KLADDER" compile --backend cuda --target sm_90 "${hips[@]}" 2>&1)
rc=$?
sed 's/^/# /' <<<"$out" | head -n 20
tap_check "the six HIP sources compile for CUDA: exit 0 ($rc)" test $rc -eq 0
tap_check "a struct shuffled whole with HIP's __shfl_down (welford.hip)" \
    grep -qF "fixed row_variance<true> = _Z12row_varianceILb1EEvPfPKfi" <<<"$out"
tap_check "cg::reduce from HIP's cooperative groups header (tile_max.hip)" \
    grep -qF "fixed tile_row_max<true> = _Z12tile_row_maxILb1EEvPfPKfii" <<<"$out"
cp "$fx/welford.hip" "$fx/welford.json" "$KL_TMP/"
sed -i 's/__shfl_down(w, o)/__shfl_down_nowhere(w, o)/' "$KL_TMP/welford.hip"
out=$("$KLADDER" compile --backend cuda --target sm_90 "$KL_TMP/welford.json" 2>&1)
rc=$?
tap_check "a HIP source's own error is still the compiler's: exit 1 ($rc)" test $rc -eq 1
line=$(grep -n __shfl_down_nowhere "$KL_TMP/welford.hip" | cut -d: -f1)
tap_check "at its line of the file" \
    grep -qF "welford.hip($line): error: identifier \"__shfl_down_nowhere\" is undefined" <<<"$out"
echo "1..$_tap_n"
