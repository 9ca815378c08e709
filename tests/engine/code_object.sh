#!/usr/bin/env bash
# kladder run --code-object FILE runs a code object built elsewhere (kladder compile --out)
# instead of compiling the suite's source: a machine without a compiler runs what another built.
# Proof that the file, not the source, ran: an object built from a copy whose fixed variant
# carries the bug fails the fixed checks, while the suite's own source passes them.
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
run() { "$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite flydsl-1199 --backend cpu \
        --variant fixed --no-progress --timeout 60 "$@"; }

"$KLADDER" compile --backend cpu --target cpu-wave32 --out "$KL_TMP/good.so" kernels/flydsl_1199.kl >/dev/null
run --code-object "$KL_TMP/good.so" >"$KL_TMP/good.txt" 2>&1
rc=$?
tap_check "the suite's own kernels from a prebuilt object: expectation met (got $rc)" test "$rc" -eq 0

# The fixed entry point with the buggy loop count: only the prebuilt object has it.
sed 's|int k_tiles = tile_k > 0 ? (K + tile_k - 1) / tile_k : 0;|int k_tiles = tile_k > 0 ? K / tile_k : 0;|' \
    kernels/flydsl_1199.kl >"$KL_TMP/sabotaged.kl"
tap_check "the sabotaged copy differs from the kernel" bash -c '! cmp -s kernels/flydsl_1199.kl "$1"' _ "$KL_TMP/sabotaged.kl"
"$KLADDER" compile --backend cpu --target cpu-wave32 --out "$KL_TMP/bad.so" "$KL_TMP/sabotaged.kl" >/dev/null
run --code-object "$KL_TMP/bad.so" >"$KL_TMP/bad.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/bad.txt" | tail -n 4
tap_check "the prebuilt object ran, not the source: fixed checks fail (exit 1, got $rc)" test "$rc" -eq 1
tap_check "a tail check of the fixed variant failed" grep -qE '^fail +fixed +r1 tail-K' "$KL_TMP/bad.txt"

# An object without the suite's entry points: an error naming the entry point.
"$KLADDER" compile --backend cpu --target cpu-wave32 --out "$KL_TMP/other.so" kernels/flydsl_1220.kl >/dev/null
run --code-object "$KL_TMP/other.so" >"$KL_TMP/other.txt" 2>&1
tap_check "a code object of other kernels: the missing entry point is named" \
    grep -q "entry point 'ktail_gemm_fixed' not found" "$KL_TMP/other.txt"

# A file that is not there: a usage error naming it.
run --code-object "$KL_TMP/missing.co" >"$KL_TMP/missing.txt" 2>&1
rc=$?
tap_check "a missing code object is a usage error (exit 2, got $rc)" test "$rc" -eq 2
tap_check "naming the file" grep -q "missing.co: No such file" "$KL_TMP/missing.txt"

# An AMD code object handed to another target: the processor is named before any loader runs.
run --code-object tests/fixtures/codeobj/flydsl_1199.gfx1250.co >"$KL_TMP/amd.txt" 2>&1
tap_check "a gfx1250 code object on the cpu backend is named as such" \
    grep -q "flydsl_1199.gfx1250.co is a gfx1250 code object; this run compiles for cpu-wave32" "$KL_TMP/amd.txt"
