#!/usr/bin/env bash
# Storage classes as the hardware has them, on the cpu backend (tests/engine/fixtures/storage):
# every __shared__ object is one per block wherever it is declared (a scalar and an array in a
# template kernel, a template-sized array, extern dynamic shared memory in nvcc's order of
# specifiers at file scope beside a plain kernel's scalar, objects inside a plain and a template
# __device__ function with __align__(16)), and __device__ and __constant__ globals are one per
# device (`__constant__ static`, `static __constant__`, `__constant__ __align__(16)`). For each
# form the correct kernel passes rung 5's pct seed with no race reported, and its twin that
# drops a barrier (or takes a ticket from a __device__ counter with a plain increment) is caught
# there with a race report. Once, a __shared__ scalar of a template kernel was one variable of
# all blocks: the correct kernel raced with itself and the missing barrier was never seen.
# The forms compile for gfx1250 too (where clang-22 is installed).
# Entry points as files spell them: a kernel of 40 arguments, names on the line after
# `__global__ void`, a template instance named through the file's own typedef, and a template
# named without its arguments, which is refused with an example of an instance.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures

run5() { # SUITE OUT: rung 5 on the cpu backend
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite "$1" --backend cpu --no-progress \
        --timeout 120 >"$2" 2>&1
}

for form in scalar array dynamic device-fn device-global; do
    out=$KL_TMP/$form.txt
    run5 "$fx/storage/$form.json" "$out"
    rc=$?
    sed 's/^/# /' "$out"
    tap_check "$form: exit 0 ($rc)" test "$rc" -eq 0
    tap_check "$form: the correct kernel passes the pct seed" \
        grep -qE '^pass +fixed +r5 pct1-default ' "$out"
    tap_check "$form: no race is reported for it" \
        sh -c "! grep -A3 -E '^[a-z]+ +fixed ' '$out' | grep -q 'data race'"
    tap_check "$form: the racy twin is caught by the pct seed with a race report" \
        sh -c "grep -A2 -E '^fail +buggy +r5 pct1-default ' '$out' | grep -q 'data race on'"
done
# where each race is: the block's shared memory for shared objects, global for the counter
for form in scalar array dynamic device-fn; do
    tap_check "$form: the race is in one block's __shared__ memory" \
        grep -q 'data race on __shared__ memory of block' "$KL_TMP/$form.txt"
done
tap_check "device-global: the race is on the __device__ counter in global memory" \
    grep -q 'data race on global memory .*grid_total<false>' "$KL_TMP/device-global.txt"
tap_check "scalar: the instance named through the file's typedef runs as center_scalar<float, false>" \
    grep -q 'center_scalar<float, false>' "$KL_TMP/scalar.txt"

# The same forms compile whole for gfx1250 (clang-22 with no HIP headers: kl_vendor.h's), where
# clang-22 is installed.
if "$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl >/dev/null 2>&1; then
    for form in scalar array dynamic device-fn device-global; do
        "$KLADDER" compile --backend hip --target gfx1250 "$fx/storage/$form.json" \
            >"$KL_TMP/$form-gfx1250.txt" 2>&1
        rc=$?
        sed 's/^/# /' "$KL_TMP/$form-gfx1250.txt"
        tap_check "$form: compiles for gfx1250 ($rc)" grep -q '^ok hip gfx1250' "$KL_TMP/$form-gfx1250.txt"
    done
else
    tap_skip "clang-22 absent: nothing compiled for gfx1250"
fi

# ---- entry points -----------------------------------------------------------------------------
out=$KL_TMP/args40.txt
run5 "$fx/entry/args40.json" "$out"
rc=$?
sed 's/^/# /' "$out"
tap_check "40 arguments, names on the next line: exit 0 ($rc)" test "$rc" -eq 0
tap_check "40 arguments: the correct kernel passes" grep -qE '^pass +fixed +r5 pct1-default ' "$out"
tap_check "40 arguments: the kernel that drops the 38th integer is caught" \
    grep -qE '^fail +buggy +r5 repeat-default ' "$out"

bare=$KL_TMP/bare.json
sed 's/"center_array<kThreads, true>"/"center_array"/' "$fx/storage/array.json" >"$bare"
cp "$fx/storage/storage.cu" "$KL_TMP/storage.cu"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite "$bare" --backend cpu --no-progress \
    >"$KL_TMP/bare.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/bare.txt"
tap_check "a template named without arguments: exit 2 ($rc)" test "$rc" -eq 2
tap_check "it is named a template, with an instance to name instead" \
    grep -q 'variants.fixed: center_array in storage.cu is a template: name an instance, e.g. center_array<256, true>' \
    "$KL_TMP/bare.txt"
tap_check "said once, before any compile" sh -c "test \$(grep -c 'is a template' '$KL_TMP/bare.txt') -eq 1 &&
    ! grep -q 'error:' '$KL_TMP/bare.txt'"
echo "1..$_tap_n"
