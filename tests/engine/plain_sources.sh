#!/usr/bin/env bash
# Kernels as they ship (docs/kernels.md), on the cpu backend: twenty-two CUDA and HIP sources of our
# own, written as public libraries write them (vendor includes, local includes, warp shuffles
# with masks and widths, struct and 64-bit shuffles, cooperative groups, bf16/half types, f16
# buffers (a half sum of squares that the unit test's shape passes and a long row or large
# values break; f16 restored into bf16 by a multiply that overflows in half),
# 128-bit loads, cache hints, extern __shared__, template kernels named by instance, a launcher
# naming its own dim3 gridDim and blockDim, a reference with its own reference_args, device
# assert, an in-place optimizer step on inout buffers, atomics into a zeroed output, wrapping
# atomicInc/atomicDec counters, bf16x2 atomicAdd, __expf/__logf in HIP's legacy coordinates
# reduced through a cooperative groups thread_group, static
# __shared__ arrays), each with a reference and a one-line bug, run unchanged through rungs 1,
# 2, 3 and 5: every check of the fixed variant and of its plain unit test passes, and the bug is
# caught. A static shared array indexed past its end is a failed check naming the kernel, the
# line, the offset and the array with its size, on the default order and under pct, never a
# dead worker; and where two arrays sit side by side the overflow of the first (which a GPU
# would write into the second) is named as the first's.
# Bad input gets one error naming what and where: a header neither kladder nor the host compiler
# has, a local include that is not there (each where the preprocessor reaches it), a device name nobody declares, an entry point the source lacks, an
# entry point name that is no C++ name, a bool argument the manifest gives another type (found
# in the built module before the first check: exit 2).
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/plain

# ---- the twenty-two kernels ------------------------------------------------------------------
# The sanitizer pass watches our own code (the source preparation, the launchers, the argument
# packing), which rung 1 exercises as fully as all four; it runs rung 1 only.
only=()
[ "${KL_SAN:-0}" = 1 ] && only=(--rung 1)
for suite in "$fx"/*.json; do
    name=$(basename "$suite" .json)
    "$KLADDER" --db "$KL_TMP/k.db" run --suite "$suite" "${only[@]}" --backend cpu --no-progress \
        --json --timeout 120 >"$KL_TMP/$name.json" 2>"$KL_TMP/$name.err"
    sed 's/^/# /' "$KL_TMP/$name.err"
    tap_check "$name: ${only[*]:-rungs 1, 2, 3 and 5} pass the fixed variant and its unit test, and catch the bug" \
        python3 - "$KL_TMP/$name.json" "$suite" "${only[@]}" <<'EOF'
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
want = {int(r) for r in json.load(open(sys.argv[2]))["rungs"]}
if len(sys.argv) > 3:
    want = {int(sys.argv[4])}
ok = True
for c in checks:
    if c["variant"] in ("fixed", "baseline-fixed") and c["verdict"] != "pass":
        print("# not passed:", c["rung"], c["variant"], c["check"], c["verdict"], c["detail"][:300])
        ok = False
ran = {c["rung"] for c in checks if c["variant"] == "fixed"}
caught = {c["rung"] for c in checks if c["variant"] == "buggy" and c["verdict"] == "fail"}
print("# rungs run:", sorted(ran), "rungs that caught the bug:", sorted(caught))
sys.exit(not (ok and ran == want and caught))
EOF
done

# ---- static shared arrays past their end ----------------------------------------------------
# seg_scan.cu (CUDA; tile and chunk_total side by side) and rms_scale.hip (HIP): the buggy
# variants stage more than their array holds once the length passes it.
named() { # JSON KERNEL FILE ARRAY BYTES LINE-PATTERN: every failed buggy check names it
    python3 - "$KL_TMP/$1.json" "$2" "$3" "$4" "$5" "$(grep -n "$6" "$fx/$3" | head -1 | cut -d: -f1)" <<'PY'
import json, re, sys
path, kernel, src, array, size, line = sys.argv[1:]
want = re.compile(r"shared memory: %s \(%s:%s, %s\+0x[0-9a-f]+\): a write at byte [0-9]+ of the block's %s bytes of __shared__ %s \(past its end\)"
                  % (re.escape(kernel), re.escape(src), line, re.escape(kernel), size, array))
fails = [c for c in json.load(open(path))["checks"] if c["variant"] == "buggy" and c["verdict"] == "fail"]
named = [c for c in fails if want.search(c["detail"])]
pct = [c for c in named if "pct" in c["check"]]
for c in fails:
    if not want.search(c["detail"]):
        print("# not named:", c["rung"], c["check"], c["detail"][:300])
print("# named:", len(named), "of", len(fails), "failed checks;", len(pct), "under pct")
sys.exit(not (fails and len(named) == len(fails) and pct and {c["rung"] for c in named} == {1, 2, 3, 5}))
PY
}
if [ "${KL_SAN:-0}" != 1 ]; then
    tap_check "seg_scan.cu: a static shared tile overflowing into its neighbour is named (kernel, line, offset, size, array)" \
        named seg-scan 'scan::segmented_scan<false>' seg_scan.cu tile 1024 'tile\[k\] = first'
    tap_check "rms_scale.hip: the HIP kernel's LDS row cache overflow is named the same way" \
        named rms-scale 'rms_scale<false>' rms_scale.hip row_cache 2048 'row_cache\[c\] = v'
    tap_check "no worker died of a shared memory overflow" \
        bash -c "! grep -hE 'signal [0-9]+|worker died' '$KL_TMP/seg-scan.json' '$KL_TMP/rms-scale.json'"
fi

# ---- one clear error for bad input -------------------------------------------------------------
mine=$KL_TMP/mine
mkdir -p "$mine"
cp "$fx"/softmax.cu "$fx"/softmax.json "$fx"/vec_scale.cu "$fx"/vec-scale.json "$fx"/vec_ops.cuh "$mine/"
refused() { # manifest -> exit status in $rc, stderr in $KL_TMP/err
    "$KLADDER" --db "$KL_TMP/k.db" run --suite "$1" --rung 1 --backend cpu --no-progress \
        >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/err"
}
sed -i 's|#include <cfloat>|#include <cudnn_frontend.h>|' "$mine/softmax.cu"
refused "$mine/softmax.json"
tap_check "a header kladder does not supply: exit 2 ($rc)" test $rc -eq 2
tap_check "naming the file, the line and the header" \
    grep -qF "softmax.cu:$(grep -n cudnn_frontend "$mine/softmax.cu" | cut -d: -f1): error: #error \"#include <cudnn_frontend.h>: neither kladder" "$KL_TMP/err"

rm "$mine/vec_ops.cuh"
refused "$mine/vec-scale.json"
tap_check "a local include that is not there: exit 2 ($rc)" test $rc -eq 2
tap_check "naming the including file, its line and the include" \
    grep -qF "vec_scale.cu:$(grep -n vec_ops.cuh "$mine/vec_scale.cu" | cut -d: -f1): error: #error \"#include \\\"vec_ops.cuh\\\": no such file beside vec_scale.cu" "$KL_TMP/err"

cp "$fx"/softmax.cu "$mine/softmax.cu"
sed -i 's|__ldg(x + c)|__ldg_nowhere(x + c)|' "$mine/softmax.cu"
refused "$mine/softmax.json"
tap_check "a device name nobody declares: exit 2 ($rc)" test $rc -eq 2
tap_check "is the compiler's error at its line of the kernel file" \
    grep -qE "softmax.cu:$(grep -n __ldg_nowhere "$mine/softmax.cu" | cut -d: -f1):.*__ldg_nowhere" "$KL_TMP/err"

cp "$fx"/softmax.cu "$mine/softmax.cu"
sed 's|"fixed": "softmax_warp"|"fixed": "softmax_warp_long"|' "$fx/softmax.json" >"$mine/noentry.json"
refused "$mine/noentry.json"
tap_check "an entry point the source lacks: exit 2 ($rc)" test $rc -eq 2
tap_check "naming the manifest, the field and the source" \
    grep -qF "noentry.json: variants.fixed: no kernel named \"softmax_warp_long\" in softmax.cu" "$KL_TMP/err"

sed 's|"fixed": "vec_scale<0>"|"fixed": "vec_scale<0>); int x(0"|' "$fx/vec-scale.json" >"$mine/badname.json"
refused "$mine/badname.json"
tap_check "an entry point name that is no C++ name: exit 2 ($rc)" test $rc -eq 2
tap_check "is refused at load, naming the field" \
    grep -qF 'badname.json: variants.fixed: expected a kernel entry point name' "$KL_TMP/err"
tap_check "and a dialect source (.kl) still takes identifiers only" \
    bash -c "sed 's|\"fixed\": \"gather_rows_i64\"|\"fixed\": \"gather_rows_i64<1>\"|' tests/engine/fixtures/gather_rows.json >'$mine/kl.json' &&
             cp tests/engine/fixtures/gather_rows.kl '$mine/' &&
             ! '$KLADDER' --db '$KL_TMP/k.db' run --suite '$mine/kl.json' --rung 1 --backend cpu --no-progress >/dev/null 2>&1"
cp "$fx"/vec_ops.cuh "$mine/"
sed 's|"negate": "bool"|"negate": "i32"|' "$fx/vec-scale.json" >"$mine/badtype.json"
refused "$mine/badtype.json"
tap_check "a bool argument the manifest calls i32: a setup error before any check, exit 2 ($rc)" test $rc -eq 2
tap_check "told once, naming the kernel, argument and field" \
    test "$(grep -cF "kernel vec_scale<0>'s argument 5 is 1 bytes, the manifest's args[4] (negate) is 4" "$KL_TMP/err")" -eq 1

# ---- a kernel whose name a host launcher overloads, wherever the launcher stands -------------
# The launcher declared before the kernel's definition (the kernel only declared above it), and a
# template kernel beside a plain launcher of the same name: the entry point is the kernel.
cat >"$mine/over.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void twice(float *out, const float *in, int n = 0);
void twice(float *out, const float *in, int n, cudaStream_t s) { twice<<<(n + 255) / 256, 256, 0, s>>>(out, in, n); }
__global__ void twice(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}
template <typename T>
__global__ void scale(T *out, const T *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * (T)2;
}
void scale(float *out, const float *in, int n, cudaStream_t s) { scale<float><<<(n + 255) / 256, 256, 0, s>>>(out, in, n); }
__global__ void twice_ref(float *out, const float *in, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = in[i] + in[i];
}
CU
for entry in twice "scale<float>"; do
    python3 -c '
import json, sys
json.dump({"format": "kladder-suite", "version": 1, "name": "over", "source": "over.cu",
           "variants": {"fixed": sys.argv[1]}, "reference": "twice_ref", "params": {"N": 300},
           "buffers": [{"name": "out", "dtype": "f32", "shape": ["N"], "role": "output"},
                       {"name": "in", "dtype": "f32", "shape": ["N"], "role": "input"}],
           "args": ["out", "in", "N"],
           "launch": {"block": [256, 1, 1], "grid": ["ceil(N, 256)", 1, 1]},
           "reference_launch": {"block": [1, 1, 1], "grid": [1, 1, 1]},
           "tolerance": {"abs": 0, "rel": 0}, "baseline": [{"N": 300}], "rungs": {"1": {}}},
          open(sys.argv[2], "w"))' "$entry" "$mine/over.json"
    "$KLADDER" --db "$KL_TMP/k.db" run --suite "$mine/over.json" --backend cpu --no-progress \
        >"$KL_TMP/over.txt" 2>&1
    rc=$?
    grep -v '^pass' "$KL_TMP/over.txt" | sed 's/^/# /'
    tap_check "$entry: the kernel, not the launcher overloading its name, runs and passes (exit $rc)" \
        sh -c "test $rc -eq 0 && grep -qE '^pass +fixed +r1 default' '$KL_TMP/over.txt'"
done
echo "1..$_tap_n"
