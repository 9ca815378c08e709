#!/usr/bin/env bash
# Rung 3, test the seams, on the cpu backend: its five reproducers meet their expectation (the
# plain unit test passes both variants, rung 3 catches the buggy one), and second examples of
# each bug class written here: a 64-lane ballot count and an argmax whose index stride is 64
# (caught by running every check at wave 32 and 64), a wave32 build declared with
# KL_ASSUME_WAVE and run where the suite pins wave 64 (refused before launch, both numbers
# named), a KV cache written in one layout and read in another, a test's bf16 reference that
# truncates (checked against an exact one at the halfway points), a kernel that spills where the suite says no spills, and dynamic LDS beyond gfx942's
# limit. The code-object parts need clang-22 and are skipped with the reason without it.
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/rung3
run() { # out-name suite [args...]
    local out=$1 suite=$2
    shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 3 --suite "$suite" --backend cpu --no-progress \
        --timeout 120 "$@" >"$KL_TMP/$out.txt" 2>&1
    echo $? >"$KL_TMP/$out.rc"
}
rc_of() { cat "$KL_TMP/$1.rc"; }
has() { grep -qE "$2" "$KL_TMP/$1.txt"; }
clang_ok=1
"$KLADDER" compile --backend hip --target gfx1250 kernels/util.kl >/dev/null 2>&1 || clang_ok=0

# ---- sglang-37751: a norm that hard-codes 64 lanes -------------------------------------------
run s37751 sglang-37751
tap_check "sglang-37751: expectation met (exit $(rc_of s37751))" test "$(rc_of s37751)" -eq 0
tap_check "sglang-37751: the unit test (at wave 64) passes the buggy norm" has s37751 '^pass +baseline-buggy +r3 unit-test-M32-N1024'
tap_check "sglang-37751: wrong at wave 32" has s37751 '^fail +buggy +r3 wave32-default'
tap_check "sglang-37751: the failure says the wave" has s37751 '^ +at wave 32: out: [0-9]+ of 32768 elements differ'
tap_check "sglang-37751: right at wave 64" has s37751 '^pass +buggy +r3 wave64-default'
tap_check "sglang-37751: the fixed norm passes at both" \
    bash -c '! grep -qE "^fail +fixed" "$1"' _ "$KL_TMP/s37751.txt"

# ---- flydsl-1024: built as wave64 for a wave32 target ----------------------------------------
run f1024 flydsl-1024
tap_check "flydsl-1024: expectation met (exit $(rc_of f1024))" test "$(rc_of f1024)" -eq 0
tap_check "flydsl-1024: the suite pins wave 32, so no wave 64 check" \
    bash -c '! grep -qE "r3 wave64-" "$1"' _ "$KL_TMP/f1024.txt"
tap_check "flydsl-1024: the wave64 build is refused at wave 32, both numbers named" \
    has f1024 'kernel softmax_1024_buggy assumes wave 64 \(KL_ASSUME_WAVE\), this run.s wave is 32: not launched'
tap_check "flydsl-1024: the unit test passes the buggy kernel" has f1024 '^pass +baseline-buggy'
if [ $clang_ok = 1 ]; then
    tap_check "flydsl-1024: the gfx1250 code object contradicts the kernel's assumption" \
        has f1024 'assumes wave 64 \(KL_ASSUME_WAVE\), the gfx1250 code object runs wave 32'
    tap_check "flydsl-1024: the fixed kernel's gfx1250 code object passes" has f1024 '^pass +fixed +r3 code-gfx1250'
else
    tap_skip "clang-22 absent: no gfx1250 code object"
fi

# ---- sglang-41687: wrong top-k indices for rows longer than k --------------------------------
run s41687 sglang-41687
tap_check "sglang-41687: expectation met (exit $(rc_of s41687))" test "$(rc_of s41687)" -eq 0
tap_check "sglang-41687: rows of length k are right at wave 32" has s41687 '^pass +buggy +r3 wave32-row_eq_k'
tap_check "sglang-41687: rows longer than k are wrong at wave 32" has s41687 '^fail +buggy +r3 wave32-row_8k'
tap_check "sglang-41687: and right at wave 64" has s41687 '^pass +buggy +r3 wave64-row_32k'

# ---- aiter-5465: producer and consumer pick different scale layouts --------------------------
run a5465 aiter-5465
tap_check "aiter-5465: expectation met (exit $(rc_of a5465))" test "$(rc_of a5465)" -eq 0
tap_check "aiter-5465: the unit test (default layout) passes the buggy launcher" has a5465 '^pass +baseline-buggy'
tap_check "aiter-5465: the default layout pairs up" has a5465 '^pass +buggy +r3 layout-scale_layout1-wave32'
tap_check "aiter-5465: the transposed layout does not" has a5465 '^fail +buggy +r3 layout-scale_layout2-wave32'
tap_check "aiter-5465: the fixed launcher passes every layout" has a5465 '^pass +fixed +r3 layout-scale_layout2-wave64'

# ---- flydsl-1253: the test's own E8M0 reference rounds down ---------------------------------
run f1253 flydsl-1253
tap_check "flydsl-1253: expectation met (exit $(rc_of f1253))" test "$(rc_of f1253)" -eq 0
tap_check "flydsl-1253: on the unit test's powers of two both helpers agree with the exact reference" \
    has f1253 '^pass +buggy +r3 wave32-powers_of_two'
tap_check "flydsl-1253: on the binade edges the helper is one step low, 3 inputs in 4" \
    has f1253 'at wave 32: scale: 96 of 128 elements differ from the reference \(first at \[1\]\), max error 1$'
tap_check "flydsl-1253: the fixed helper is exact there" has f1253 '^pass +fixed +r3 wave32-binade_edges'

# ---- second examples of each class ----------------------------------------------------------
run bf16 "$fx/bf16_oracle.json"
tap_check "a truncating bf16 test reference: expectation met (exit $(rc_of bf16))" test "$(rc_of bf16)" -eq 0
tap_check "a truncating bf16 test reference: agrees on exact values" has bf16 '^pass +buggy +r3 wave64-exact_values'
tap_check "a truncating bf16 test reference: caught at the halfway points" has bf16 '^fail +buggy +r3 wave64-halfway'

run kv "$fx/kvlayout.json"
tap_check "KV cache layouts: expectation met (exit $(rc_of kv))" test "$(rc_of kv)" -eq 0
tap_check "KV cache layouts: the [d][t] cache read as [t][d] is caught" has kv '^fail +buggy +r3 layout-kv_layout2-wave32'
tap_check "KV cache layouts: pinned wave 32, no wave 64 layout check" \
    bash -c '! grep -q "layout-kv_layout1-wave64" "$1"' _ "$KL_TMP/kv.txt"

run ballot "$fx/ballot64.json"
tap_check "64-lane ballot count: expectation met (exit $(rc_of ballot))" test "$(rc_of ballot)" -eq 0
tap_check "64-lane ballot count: caught at wave 32" has ballot '^fail +buggy +r3 wave32-default'
tap_check "64-lane ballot count: not at wave 64" has ballot '^pass +buggy +r3 wave64-default'

run argmax "$fx/argmax64.json"
tap_check "argmax stride 64: expectation met (exit $(rc_of argmax))" test "$(rc_of argmax)" -eq 0
tap_check "argmax stride 64: short rows right at wave 32" has argmax '^pass +buggy +r3 wave32-short_rows'
tap_check "argmax stride 64: long rows wrong at wave 32" has argmax '^fail +buggy +r3 wave32-long_rows'

run assume "$fx/assume32.json"
tap_check "wave32 build, wave 64 pinned: expectation met (exit $(rc_of assume))" test "$(rc_of assume)" -eq 0
tap_check "wave32 build: refused at wave 64 with both numbers" \
    has assume 'kernel rowsum_buggy assumes wave 32 \(KL_ASSUME_WAVE\), this run.s wave is 64: not launched'
tap_check "wave32 build: the generic kernel runs at the pinned wave" has assume '^pass +fixed +r3 wave64-default'
tap_check "wave32 build: baseline_wave 32 honoured (the unit test passes it)" has assume '^pass +baseline-buggy'
# The JSON report carries both sides of the comparison.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 3 --suite "$fx/ballot64.json" --backend cpu \
    --no-progress --variant buggy --json >"$KL_TMP/j.json" 2>/dev/null
tap_check "--json: wave32-default failed and wave64-default passed for the 64-lane ballot" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = {c["check"]: c["verdict"] for c in d["checks"] if c["variant"] == "buggy"}
sys.exit(0 if v.get("wave32-default") == "fail" and v.get("wave64-default") == "pass" else 1)' "$KL_TMP/j.json"

if [ $clang_ok = 1 ]; then
    tap_check "wave32 build: the gfx942 code object contradicts it" \
        has assume 'kernel rowsum_buggy assumes wave 32 \(KL_ASSUME_WAVE\), the gfx942 code object runs wave 64'
    run spill "$fx/spill.json"
    tap_check "no spills: expectation met (exit $(rc_of spill))" test "$(rc_of spill)" -eq 0
    tap_check "no spills: the scratch table is caught on gfx1250" \
        has spill '^ +gfx1250 wave 32: .*scratch [1-9][0-9]* bytes .*the suite says no spills'
    tap_check "no spills: the fixed kernel uses none" has spill '^pass +fixed +r3 code-gfx942'
    run lds "$fx/lds.json"
    tap_check "80 KiB LDS: a failure on gfx942 (exit $(rc_of lds))" test "$(rc_of lds)" -eq 1
    tap_check "80 KiB LDS: over gfx942's 64 KiB" has lds '^ +gfx942 wave 64: LDS 81920 of 65536 bytes'
    tap_check "80 KiB LDS: within gfx1250's 320 KiB" has lds '^pass +fixed +r3 code-gfx1250'
    if command -v llvm-objdump-22 >/dev/null; then
        run isaf "$fx/isa_forbid.json"
        tap_check "ISA forbid: only the disassembly catches the scratch table (exit $(rc_of isaf))" test "$(rc_of isaf)" -eq 0
        tap_check "ISA forbid: scratch_ instructions counted and named" \
            has isaf '^ +gfx1250 wave 32: .*; [1-9][0-9]* scratch_\* instructions \(forbidden\)$'
        run isar "$fx/isa_require.json" --variant fixed
        tap_check "ISA require: a class the kernel never issues fails it (exit $(rc_of isar))" test "$(rc_of isar)" -eq 1
        tap_check "ISA require: the one it issues is counted, the missing one named" \
            has isar '[1-9][0-9]* ds_store\* instructions? \(required\); 0 v_wmma\* instructions \(required\)$'
        # flydsl-1264: each tile depth is its own build; the 64-deep buggy tile issues no WMMA.
        run f1264 flydsl-1264
        tap_check "flydsl-1264: expectation met (exit $(rc_of f1264))" test "$(rc_of f1264)" -eq 0
        tap_check "flydsl-1264: the buggy 64-deep tile issues no WMMA on gfx1250" \
            has f1264 '^fail +buggy +r3 code-gfx1250-tile_k64 '
        tap_check "flydsl-1264: counted and named" \
            has f1264 '^ +gfx1250 tile_k=64 wave 32: .*; 0 v_wmma\* instructions \(required\)$'
        tap_check "flydsl-1264: the fixed 64-deep tile issues one" has f1264 '^pass +fixed +r3 code-gfx1250-tile_k64 '
        tap_check "flydsl-1264: the buggy 128-deep tile (the unit test's) issues them too" \
            has f1264 '^pass +buggy +r3 code-gfx1250-tile_k128 '
        tap_check "flydsl-1264: the cpu path still computes zeros for the buggy 64-deep tile" \
            has f1264 '^fail +buggy +r3 wave32-default '
        # A second kernel of the class: a 4-wide tile under an 8-wide step stores nothing. The
        # wave checks run the 16-wide tile only: the per-tile code objects alone catch it.
        run tb "$fx/tile_build.json"
        tap_check "tile builds: expectation met (exit $(rc_of tb))" test "$(rc_of tb)" -eq 0
        tap_check "tile builds: the 4-wide buggy build has no store" \
            has tb '^ +gfx1250 tile_n=4 wave 32: .*; 0 global_store\* instructions \(required\)$'
        tap_check "tile builds: the 16-wide buggy build passes" has tb '^pass +buggy +r3 code-gfx1250-tile_n16 '
        tap_check "tile builds: the fixed 4-wide build stores" has tb '^pass +fixed +r3 code-gfx1250-tile_n4 '
        tap_check "tile builds: nothing else catches it" test "$(grep -cE '^fail +buggy' "$KL_TMP/tb.txt")" -eq 1
        KLADDER_OBJDUMP=/nonexistent/llvm-objdump-22 run isan "$fx/isa_forbid.json" --variant buggy
        tap_check "ISA without a disassembler: skipped with the reason, never passed" \
            has isan '^skip +buggy +r3 code-gfx1250 .*'
        tap_check "naming the tool" has isan 'the ISA check cannot run: /nonexistent/llvm-objdump-22 not found'
    else
        tap_skip "llvm-objdump-22 absent: no ISA checks"
    fi
else
    tap_skip "clang-22 absent: no offline code objects to check"
fi

# With no compiler for the targets the code checks are skipped with the reason, never passed.
KLADDER_CLANG=/nonexistent/clang-22 KLADDER_HIP_COMPILER=clang \
    run noclang "$fx/spill.json" --variant fixed
tap_check "no compiler: code checks skipped, not passed" has noclang '^skip +fixed +r3 code-gfx1250'
tap_check "no compiler: the reason names clang-22" has noclang 'clang-22 is not installed'
