#!/usr/bin/env bash
# kl-test: once
# Plain HIP files compiled whole for the hip backend without a GPU (docs/kernels.md): clang
# builds each as its author does (-x hip --offload-device-only --offload-arch=gfx1250 -O3, host
# code parsed and dropped), with kladder's own HIP headers where no ROCm is installed; the .hip
# fixtures of tests/engine/fixtures/plain and the HIP program of tests/engine/fixtures/asship
# (transpose.hip: hipMalloc, HIP_CHECK from its helper header, a <<<...>>> launch on
# hipStreamDefault; cg::reduce over a tile; a launcher that
# declares `dim3 gridDim, blockDim`; __half, __half2 and __hip_bfloat16 from hip/hip_fp16.h and
# hip/hip_bf16.h, in a launcher's signature too) give gfx1250 code objects holding every
# entry point their suites name; a device-code error is clang's, at its line of the file; the
# whole-unit compiler is in the cache key, and KLADDER_HIP_CLANG=off leaves the file to hipRTC.
. tests/tap.sh
set -u
export XDG_CACHE_HOME=$KL_TMP/cache
if ! command -v "${KLADDER_CLANG:-clang-22}" >/dev/null; then
    tap_skip "clang-22 is not installed (scripts/deps.sh --test installs it)"
    echo "1..$_tap_n"
    exit 0
fi
fx=tests/engine/fixtures/plain
suites=("$fx"/block-sumsq.json "$fx"/layernorm.json "$fx"/rms-scale.json "$fx"/scan-i64.json
        "$fx"/tile-max.json "$fx"/welford.json "$fx"/tile-transpose.json "$fx"/half-to-bf16.json
        tests/engine/fixtures/asship/transpose.json)
out=$("$KLADDER" compile --backend hip --target gfx1250 "${suites[@]}" 2>&1)
rc=$?
sed 's/^/# /' <<<"$out" | head -n 40
tap_check "every file compiles whole and every entry is found: exit 0 ($rc)" test $rc -eq 0
for s in "${suites[@]}"; do
    tap_check "clang gfx1250 compiles $(basename "$s") whole" \
        grep -qE "^ok hip gfx1250 $s .*whole unit: -x hip --offload-device-only" <<<"$out"
done
tap_check "a template instance named in the manifest is in the code object" \
    grep -qF "fixed row_variance<true> = _Z12row_varianceILb1EEvPfPKfi" <<<"$out"
tap_check "a struct shuffled whole with HIP's __shfl_down (welford.hip)" \
    grep -qF "buggy row_variance<false> = _Z12row_varianceILb0EEvPfPKfi" <<<"$out"
tap_check "cg::reduce over a tile of 16 from HIP's cooperative groups (tile_max.hip)" \
    grep -qF "fixed tile_row_max<true> = _Z12tile_row_maxILb1EEvPfPKfii" <<<"$out"
tap_check "a launcher naming its own dim3 gridDim and blockDim, and a reference with its own args" \
    grep -qF "reference transpose_naive = _Z15transpose_naivePfPKfiil" <<<"$out"
tap_check "half and bf16 under HIP's names, their headers served by kladder's (half_to_bf16.hip)" \
    grep -qF "buggy restore_bf16<false> = _Z12restore_bf16ILb0EEvP14__hip_bfloat16PK6__halffi" <<<"$out"
tap_check "a whole HIP program's template kernels, beside its host code and helper header" \
    grep -qF "fixed transpose_staged<64> = _Z16transpose_stagedILj64EEvPfPKf" <<<"$out"

"$KLADDER" compile --backend hip --target gfx1250 --out "$KL_TMP/welford.co" "$fx/welford.json" >/dev/null 2>&1
facts=$(python3 tests/gpu/codeobj.py "$KL_TMP/welford.co")
tap_check "the code object is gfx1250's: '$facts'" test "$facts" = "amdgpu 0x49 32"

out=$("$KLADDER" compile --backend hip --target gfx1250 "$fx/welford.json" 2>&1)
tap_check "a repeated compile comes from the cache" grep -q ", cached)$" <<<"$out"
out=$(KLADDER_HIP_CLANG=off KLADDER_HIP_COMPILER=hiprtc "$KLADDER" compile --backend hip --target gfx1250 "$fx/welford.json" 2>&1)
tap_check "KLADDER_HIP_CLANG=off leaves it to hipRTC (no whole-unit compile, no cache hit)" \
    bash -c '! grep -qE "whole unit|, cached\)$" <<<"$1"' _ "$out"

cp "$fx/welford.hip" "$fx/welford.json" "$KL_TMP/"
sed -i 's/__shfl_down(w, o)/__shfl_down_nowhere(w, o)/' "$KL_TMP/welford.hip"
out=$("$KLADDER" compile --backend hip --target gfx1250 "$KL_TMP/welford.json" 2>&1)
rc=$?
line=$(grep -n __shfl_down_nowhere "$KL_TMP/welford.hip" | cut -d: -f1)
sed 's/^/# /' <<<"$out" | head -n 6
tap_check "a device-code error fails the compile: exit 1 ($rc)" test $rc -eq 1
tap_check "clang names it at line $line of welford.hip" \
    grep -qE "welford.hip:$line:[0-9]+: error: use of undeclared identifier '__shfl_down_nowhere'" <<<"$out"
echo "1..$_tap_n"
