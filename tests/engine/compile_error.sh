#!/usr/bin/env bash
# A user's kernel that does not compile is one setup error: exit 2 before the first check, the
# compiler's first error once, at its line of the kernel file with that line's text, no control
# characters or '?' for the compiler's newlines, nothing recorded. Two first kernels a user
# writes: the dialect with a return type after KL_KERNEL (which already holds void), and a plain
# HIP file. The dialect's own example (docs/engine.md, kernels/kl.h) is the form that compiles.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
fx=tests/engine/fixtures
dir=$KL_TMP/mine
mkdir -p "$dir"
runs() { "$KLADDER" --db "$db" results --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }

# one setup error: exit 2, the message once, no check line, nothing recorded
one_error() { # what, err file, out file, rc
    tap_check "$1: exit 2 ($4)" test "$4" -eq 2
    tap_check "$1: said once" test "$(grep -c 'does not compile for' "$2")" -eq 1
    tap_check "$1: no check ran" bash -c "! grep -qE '^(pass|fail|error) ' '$3'"
    tap_check "$1: no '?' and no control character in what it prints" \
        bash -c "! grep -qP '[?\x00-\x08\x0b-\x1f\x7f]' '$2' '$3'"
    tap_check "$1: nothing recorded" test "$(runs)" -eq 0
}

# ---- KL_KERNEL void: the slip the dialect's old example taught -----------------------------
cp $fx/drop_tail.json "$dir/my.json"
sed 's/^KL_KERNEL /KL_KERNEL void /' $fx/drop_tail.kl >"$dir/drop_tail.kl"
"$KLADDER" --db "$db" run --suite "$dir/my.json" --backend cpu --no-progress >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err"
one_error "KL_KERNEL void" "$KL_TMP/err" "$KL_TMP/out" $rc
tap_check "names the suite and the kernel file" \
    grep -qF 'kladder run: suite drop-tail-test: drop_tail.kl does not compile for cpu-wave32:' "$KL_TMP/err"
tap_check "the first error at its line of the kernel file, not of kl.h or a temporary file" \
    grep -qxF "drop_tail.kl:10: error: two or more data types in declaration of 'copy_fixed'" "$KL_TMP/err"
tap_check "with that line's text" \
    grep -qE '^ +10 \| KL_KERNEL void copy_fixed\(' "$KL_TMP/err"
tap_check "and what to write instead" \
    grep -qF 'KL_KERNEL already holds void: write KL_KERNEL name(args)' "$KL_TMP/err"
tap_check "no temporary file named" bash -c "! grep -q 'kernel.cpp' '$KL_TMP/err'"

# ---- a plain HIP file -------------------------------------------------------------------------
cat >"$dir/plain.kl" <<'KL'
#include <hip/hip_runtime.h>

__global__ void copy_fixed(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
KL
sed 's/"source": "drop_tail.kl"/"source": "plain.kl"/' $fx/drop_tail.json >"$dir/plain.json"
"$KLADDER" --db "$db" run --suite "$dir/plain.json" --backend cpu --no-progress --json \
    >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err"
one_error "a plain HIP file" "$KL_TMP/err" "$KL_TMP/out" $rc
tap_check "its first error, at line 1" grep -qE '^plain\.kl:1: (fatal )?error' "$KL_TMP/err"
tap_check "--json writes no report of a run that did not start" test ! -s "$KL_TMP/out"

# ---- the dialect's example is the form that compiles ------------------------------------------
tap_check "docs/engine.md shows KL_KERNEL name(args)" grep -qF '`KL_KERNEL name(args)`' docs/engine.md
tap_check "kernels/kl.h too" grep -qF 'KL_KERNEL name(args)' kernels/kl.h
tap_check "neither shows KL_KERNEL void name" bash -c "! grep -q 'KL_KERNEL void name' docs/engine.md kernels/kl.h"
sed 's/^KL_KERNEL void /KL_KERNEL /' "$dir/drop_tail.kl" >"$dir/fixed.kl"
mv "$dir/fixed.kl" "$dir/drop_tail.kl"
"$KLADDER" --db "$db" run --suite "$dir/my.json" --rung 1 --backend cpu --no-progress >"$KL_TMP/out" 2>&1
rc=$?
tap_check "written that way it runs: exit 0 ($rc)" test $rc -eq 0
