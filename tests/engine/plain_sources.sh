#!/usr/bin/env bash
# Kernels as they ship (docs/kernels.md), on the cpu backend: twelve CUDA and HIP sources of our
# own, written as public libraries write them (vendor includes, local includes, warp shuffles
# with masks and widths, struct and 64-bit shuffles, cooperative groups, bf16/half types,
# 128-bit loads, cache hints, extern __shared__, template kernels named by instance, device
# assert), each with a reference and a one-line bug, run unchanged through rungs 1, 2, 3 and 5:
# every check of the fixed variant and of its plain unit test passes, and the bug is caught.
# Bad input gets one error naming what and where: a header kladder does not supply, a local
# include that is not there, a device name nobody declares, an entry point the source lacks, an
# entry point name that is no C++ name, a bool argument the manifest gives another type.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/plain

# ---- the twelve kernels ----------------------------------------------------------------------
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
sed -i 's|#include <cfloat>|#include <thrust/device_vector.h>|' "$mine/softmax.cu"
refused "$mine/softmax.json"
tap_check "a header kladder does not supply: exit 2 ($rc)" test $rc -eq 2
tap_check "naming the file, the line and the header" \
    grep -qF "softmax.cu:$(grep -n thrust "$mine/softmax.cu" | cut -d: -f1): #include <thrust/device_vector.h>: kladder supplies no such header" "$KL_TMP/err"

rm "$mine/vec_ops.cuh"
refused "$mine/vec-scale.json"
tap_check "a local include that is not there: exit 2 ($rc)" test $rc -eq 2
tap_check "naming the including file, its line and the include" \
    grep -qF "vec_scale.cu:$(grep -n vec_ops.cuh "$mine/vec_scale.cu" | cut -d: -f1): #include \"vec_ops.cuh\": no such file beside vec_scale.cu" "$KL_TMP/err"

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
tap_check "a bool argument the manifest calls i32 is told, naming the kernel, argument and field" \
    grep -qF "kernel vec_scale<1>'s argument 5 is 1 bytes, the manifest's args[4] (negate) is 4" "$KL_TMP/out"
echo "1..$_tap_n"
