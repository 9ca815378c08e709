#!/usr/bin/env bash
# The API of data/api/hip_api.tsv on the cpu backend, beyond the probes of
# tests/unitsh/api_coverage.sh: the device functions that need no running kernel give the values
# worked out by hand (fixtures/api/values.cpp: rounding modes, 16-bit float conversions and
# comparisons, bit manipulation, erfinv, Bessel, norms, the fast-math intrinsics); a kernel that
# uses a name the cpu backend declares unsupported is refused before any check with
# "`NAME` is not supported on the cpu backend" at its line of the file (exit 2); host code written
# against the CUDA driver API (CUresult, CUdevice, cuInit, cuGetErrorString, cuLaunchKernel ...)
# compiles beside a kernel that runs, clean, with its bug caught. (atomicInc/atomicDec,
# bf16x2 atomicAdd, the legacy coordinates, thread_group and __expf/__logf run in
# tests/engine/plain_sources.sh's ring_slots.cu, pair_colsum.cu and lse_rows.hip.)
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/api
CXX=${CXX:-c++}

# ---- values ----------------------------------------------------------------------------------
{
    echo '#define KL_CPU 1'
    for h in kl.h kl_vendor.h kl_host.h; do echo "#line 1 \"$h\""; cat "kernels/$h"; done
    echo '#line 1 "values.cpp"'
    cat "$fx/values.cpp"
} >"$KL_TMP/values.cpp"
"$CXX" -std=c++17 -O2 -w -o "$KL_TMP/values" "$KL_TMP/values.cpp" 2>"$KL_TMP/values.err"
rc=$?
sed 's/^/# /' "$KL_TMP/values.err" | head -n 20
tap_check "the values program compiles against kladder's headers (exit $rc)" test $rc -eq 0
"$KL_TMP/values" >"$KL_TMP/values.out" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/values.out"
tap_check "every value is as expected (exit $rc)" test $rc -eq 0
sed 's/EXPECT_EQ(__float2int_rd(-1.5f), -2)/EXPECT_EQ(__float2int_rd(-1.5f), -1)/' "$fx/values.cpp" >"$KL_TMP/wrong.cpp"
{ sed '/^#line 1 "values.cpp"$/q' "$KL_TMP/values.cpp"; cat "$KL_TMP/wrong.cpp"; } >"$KL_TMP/wrong_all.cpp"
"$CXX" -std=c++17 -O2 -w -o "$KL_TMP/wrong" "$KL_TMP/wrong_all.cpp" && "$KL_TMP/wrong" >"$KL_TMP/wrong.out" 2>&1
rc=$?
tap_check "a wrong expectation is reported, naming its line (exit $rc)" \
    bash -c "test $rc -eq 1 && grep -qE '^values.cpp:[0-9]+: __float2int_rd\(-1.5f\) is not -1$' '$KL_TMP/wrong.out'"

# ---- an unsupported name: refused at its line ------------------------------------------------
mine=$KL_TMP/mine
mkdir -p "$mine"
cat >"$mine/stamp.cu" <<'CU'
#include <cuda_runtime.h>

__global__ void stamp_sm(unsigned *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __smid() + (unsigned)i;
}
CU
cat >"$mine/stamp.json" <<'JSON'
{"format": "kladder-suite", "version": 1, "name": "stamp", "source": "stamp.cu",
 "variants": {"fixed": "stamp_sm", "buggy": "stamp_sm"}, "reference": "stamp_sm",
 "params": {"n": 64}, "buffers": [{"name": "out", "dtype": "u32", "shape": ["n"], "role": "output"}],
 "args": ["out", "n"], "launch": {"block": [64, 1, 1], "grid": [1, 1, 1]},
 "tolerance": {"abs": 0, "rel": 0}, "baseline": [{"n": 64}], "rungs": {"1": {}}}
JSON
"$KLADDER" --db "$KL_TMP/k.db" run --suite "$mine/stamp.json" --backend cpu --no-progress >/dev/null 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err" | head -n 5
tap_check "a kernel using __smid is refused: exit 2 ($rc)" test $rc -eq 2
tap_check "with \"\`__smid\` is not supported on the cpu backend\" at stamp.cu:7" \
    grep -qE '^stamp.cu:7: error: .*`__smid` is not supported on the cpu backend' "$KL_TMP/err"
sed -i 's/__smid() + (unsigned)i/cooperative_groups::this_grid().thread_rank()/; 1a #include <cooperative_groups.h>' "$mine/stamp.cu"
"$KLADDER" --db "$KL_TMP/k.db" run --suite "$mine/stamp.json" --backend cpu --no-progress >/dev/null 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err" | head -n 5
tap_check "a grid group (which the cpu backend cannot sync) is refused: exit 2 ($rc)" test $rc -eq 2
tap_check "naming this_grid at stamp.cu:8" \
    grep -qE '^stamp.cu:8: error: .*`this_grid` is not supported on the cpu backend' "$KL_TMP/err"

# ---- the driver API in host code ---------------------------------------------------------------
"$KLADDER" --db "$KL_TMP/k.db" run --suite "$fx/driver-host.json" --backend cpu --no-progress --json \
    >"$KL_TMP/drv.json" 2>"$KL_TMP/drv.err"
rc=$?
sed 's/^/# /' "$KL_TMP/drv.err" | head -n 5
tap_check "host code on the driver API compiles; the kernel passes and its bug is caught (exit $rc)" \
    python3 - "$KL_TMP/drv.json" <<'PY'
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
fixed = [c for c in checks if c["variant"] == "fixed"]
buggy = [c for c in checks if c["variant"] == "buggy"]
sys.exit(not (fixed and all(c["verdict"] == "pass" for c in fixed) and any(c["verdict"] == "fail" for c in buggy)))
PY
echo "1..$_tap_n"
