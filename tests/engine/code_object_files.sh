#!/usr/bin/env bash
# A manifest's "code_object" names a binary built elsewhere: a gfx1250 code object and PTX that
# clang-22 builds here from tests/fixtures/codeobj/scale.cu, and an offload bundle holding the
# code object. `kladder inspect --suite` finds each entry point by name (the reference's symbol
# is C++-mangled) and checks the kernel's parameters against "args" and its workgroup limit
# against "launch": a right manifest passes, a wrong one is one error naming its field. A
# truncated or corrupt binary is one error naming the file; the cpu backend refuses a GPU binary
# by name.
. tests/lib.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
src=tests/fixtures/codeobj/scale.cu
kl_need "clang-22 absent: nothing builds the code objects" clang-22
# Built once per source for every script and pass (the compile cache's folder).
built=$KL_CACHE/code-object-files/$(sha256sum "$src" | cut -c1-16)
mkdir -p "$built"
if [ ! -s "$built/scale.hsaco" ]; then
    clang-22 -x hip --offload-arch=gfx1250 --offload-device-only --no-gpu-bundle-output \
        -nogpulib -nogpuinc -O2 -o "$built/scale.hsaco.$$" "$src" 2>"$KL_TMP/clang.txt" &&
        mv "$built/scale.hsaco.$$" "$built/scale.hsaco"
fi
if [ ! -s "$built/scale.ptx" ]; then
    clang-22 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib -O2 -S \
        -Wno-unknown-cuda-version -o "$built/scale.ptx.$$" "$src" 2>>"$KL_TMP/clang.txt" &&
        mv "$built/scale.ptx.$$" "$built/scale.ptx"
fi
d=$KL_TMP/suite
mkdir -p "$d"
cp "$built/scale.hsaco" "$built/scale.ptx" "$d/"
# The bundle as clang-offload-bundler lays it out: magic, count, (offset, size, id) each, data.
python3 - "$d/scale.hsaco" "$d/scale.bundle" <<'PY'
import struct, sys
code = open(sys.argv[1], "rb").read()
ids = [b"host-x86_64-unknown-linux-gnu-", b"hipv4-amdgcn-amd-amdhsa--gfx1250"]
head = len(b"__CLANG_OFFLOAD_BUNDLE__") + 8 + sum(24 + len(i) for i in ids)
at = (head + 4095) // 4096 * 4096
out = b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", len(ids))
out += struct.pack("<QQQ", at, 0, len(ids[0])) + ids[0]
out += struct.pack("<QQQ", at, len(code), len(ids[1])) + ids[1]
open(sys.argv[2], "wb").write(out.ljust(at, b"\0") + code)
PY

manifest() { # NAME CODE_OBJECT ARG_TYPES ARGS BLOCK
    cat >"$d/$1.json" <<JSON
{"format": "kladder-suite", "version": 1, "name": "$1", "code_object": "$2",
 "variants": {"fixed": "scale_fixed", "buggy": "scale_drop_last"}, "reference": "scale_ref",
 "params": {"n": 1000, "a": 2.5},
 "buffers": [{"name": "in", "dtype": "f32", "shape": ["n"], "role": "input"},
             {"name": "out", "dtype": "f32", "shape": ["n"], "role": "output"}],
 "args": $4, "arg_types": $3,
 "launch": {"block": [$5, 1, 1], "grid": ["ceil(n, $5)", 1, 1]},
 "reference_launch": {"block": [64, 1, 1], "grid": [1, 1, 1]},
 "baseline": [{"n": 1000}], "rungs": {"1": {"untuned": false, "extra": [{"name": "big", "n": 8192}]},
                                   "3": {"targets": ["gfx1250"], "wave": 32}, "5": {}}}
JSON
}
right_args='["out", "in", "a", "n"]'
for co in scale.hsaco scale.ptx scale.bundle; do
    manifest "right-${co#*.}" "$co" '{"a": "f32", "n": "i32"}' "$right_args" 256
    out=$("$KLADDER" inspect --suite "$d/right-${co#*.}.json" 2>&1)
    rc=$?
    tap_check "$co: a right manifest checks (exit 0, got $rc)" test $rc -eq 0
    tap_check "$co: the C++ reference is found by its name" \
        grep -q 'reference "scale_ref": kernel _Z9scale_refPfPKffi, its 4 parameters match' <<<"$out"
    [ $rc -eq 0 ] || sed 's/^/# /' <<<"$out"
    # Wrong manifests: each one error naming the field.
    manifest "wide-${co#*.}" "$co" '{"a": "f32", "n": "i64"}' "$right_args" 256
    out=$("$KLADDER" inspect --suite "$d/wide-${co#*.}.json" 2>&1)
    rc=$?
    tap_check "$co: n declared i64 is named: args[3] (exit $rc: $out)" \
        bash -c '[ "$1" -eq 1 ] && grep -q "args\[3\] (\"n\", i64): 8 bytes, but the kernel.s parameter 4 is 4 bytes" <<<"$2" && [ $(wc -l <<<"$2") -eq 1 ]' _ "$rc" "$out"
    manifest "short-${co#*.}" "$co" '{"a": "f32"}' '["out", "in", "a"]' 256
    out=$("$KLADDER" inspect --suite "$d/short-${co#*.}.json" 2>&1)
    tap_check "$co: a missing argument is named: args ($out)" grep -q "args: 3 given, but kernel scale_fixed .* takes 4 parameters" <<<"$out"
    manifest "swap-${co#*.}" "$co" '{"a": "f32", "n": "i32"}' '["out", "a", "in", "n"]' 256
    out=$("$KLADDER" inspect --suite "$d/swap-${co#*.}.json" 2>&1)
    tap_check "$co: a value where a pointer goes is named: args[1] ($out)" grep -q 'args\[1\] ("a", f32): 4 bytes, but' <<<"$out"
    manifest "kind-${co#*.}" "$co" '{"a": "f32", "n": "i32", "n * 4": "u64"}' '["out", "n * 4", "a", "n"]' 256
    out=$("$KLADDER" inspect --suite "$d/kind-${co#*.}.json" 2>&1)
    tap_check "$co: a value of a pointer's size where a pointer goes is named: args[1] ($out)" \
        grep -q 'args\[1\] ("n \* 4", u64): a value, but the kernel.s parameter 2 is a pointer' <<<"$out"
    manifest "big-${co#*.}" "$co" '{"a": "f32", "n": "i32"}' "$right_args" 512
    out=$("$KLADDER" inspect --suite "$d/big-${co#*.}.json" 2>&1)
    tap_check "$co: a block past the kernel's workgroup limit is named: launch.block ($out)" \
        grep -q "launch.block: 512 threads at the default parameters, but kernel scale_fixed (variants.fixed) of .* allows at most 256" <<<"$out"
done

# The launch facts the binaries carry.
json=$("$KLADDER" inspect --json "$d/scale.bundle" "$d/scale.ptx")
facts=$(python3 -c '
import json, sys
for f in json.loads(sys.argv[1]):
    k = {k["name"]: k for k in f["kernels"]}["scale_fixed"]
    print(f["format"], f["processor"], k["wavefront_size"], k["max_threads"],
          [(p["offset"], p["size"], p["kind"]) for p in k["params"]])' "$json")
tap_check "launch facts: wave, workgroup limit and parameters ($facts)" test "$facts" = \
"offload bundle gfx1250 32 256 [(0, 8, 'pointer'), (8, 8, 'pointer'), (16, 4, 'value'), (20, 4, 'value')]
PTX sm_90 32 256 [(0, 8, 'pointer'), (8, 8, 'pointer'), (16, 4, ''), (20, 4, '')]"
out=$("$KLADDER" inspect --target gfx942 "$d/scale.bundle" 2>&1)
tap_check "a bundle without the processor asked for lists what it holds ($out)" \
    grep -q "holds no AMD code object for gfx942 (it holds: gfx1250)" <<<"$out"

# Truncated and corrupt binaries: one error line naming the file, exit 1.
head -c 2000 "$d/scale.hsaco" >"$d/cut.hsaco"
python3 - "$d/scale.bundle" "$d/cut.bundle" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
at = 24 + 8 + 24 + len(b"host-x86_64-unknown-linux-gnu-")
b[at + 8:at + 16] = struct.pack("<Q", len(b))   # the device entry claims more than the file
open(sys.argv[2], "wb").write(bytes(b))
PY
sed '/_param_2,/,$d' "$d/scale.ptx" >"$d/cut.ptx"
for bad in cut.hsaco cut.bundle cut.ptx; do
    manifest "bad-${bad#*.}" "$bad" '{"a": "f32", "n": "i32"}' "$right_args" 256
    out=$("$KLADDER" inspect --suite "$d/bad-${bad#*.}.json" 2>&1)
    rc=$?
    tap_check "$bad: one error naming the file, exit 1 (got $rc: $out)" \
        bash -c '[ "$1" -eq 1 ] && [ $(wc -l <<<"$2") -eq 1 ] && grep -q "$3: " <<<"$2"' _ "$rc" "$out" "$bad"
done
out=$("$KLADDER" inspect --suite "$d/bad-bundle.json" 2>&1)
tap_check "the corrupt bundle's entry is named" grep -q "offload bundle entry 1 (hipv4-amdgcn-amd-amdhsa--gfx1250): offset .* past the end" <<<"$out"
out=$("$KLADDER" inspect --suite "$d/bad-ptx.json" 2>&1)
tap_check "the cut PTX names its line" grep -qE "cut.ptx: line [0-9]+: kernel scale_fixed: " <<<"$out"

# The cpu backend cannot run a GPU binary: one usage error before any check, naming it.
for co in right-hsaco right-ptx; do
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$d/$co.json" --backend cpu \
        --no-progress --timeout 60 >"$KL_TMP/cpu.txt" 2>&1
    rc=$?
    tap_check "$co on the cpu backend: exit 2 with one line (got $rc)" \
        bash -c '[ "$1" -eq 2 ] && [ $(wc -l <"$2") -eq 1 ]' _ "$rc" "$KL_TMP/cpu.txt"
    tap_check "$co: the GPU binary is named" grep -qE "scale(\.hsaco is a gfx1250 code object|\.ptx is a sm_90 PTX); this run compiles for cpu-wave32: the cpu backend runs host code only and cannot run a GPU binary" "$KL_TMP/cpu.txt"
done
"$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite tests/engine/fixtures/drop_tail.json --backend cpu \
    --code-object "$d/scale.bundle" --no-progress >"$KL_TMP/cli.txt" 2>&1
tap_check "--code-object with a bundle on the cpu backend: refused, named" \
    grep -q "scale.bundle is a gfx1250 offload bundle; this run compiles for cpu-wave32: the cpu backend" "$KL_TMP/cli.txt"

# Lag builds and rung 3's builds for a processor rebuild the source: with a prebuilt object
# (here the cpu backend's own, built by kladder compile) they say so, skipped, while the
# object's own checks run.
cat >"$d/scale.kl" <<'KL'
KL_KERNEL scale_fixed(float *out, const float *in, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * in[i];
}
KL_KERNEL scale_drop_last(float *out, const float *in, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1)
        out[i] = a * in[i];
}
KL_KERNEL scale_ref(float *out, const float *in, float a, int n)
{
    for (int i = threadIdx.x; blockIdx.x == 0 && i < n; i += blockDim.x)
        out[i] = in[i] * a;
}
KL_EXPORT(scale_fixed)
KL_EXPORT(scale_drop_last)
KL_EXPORT(scale_ref)
KL
sed 's/"code_object": "scale.hsaco"/"source": "scale.kl"/' "$d/right-hsaco.json" >"$d/source.json"
"$KLADDER" compile --backend cpu --target cpu-wave32 --out "$d/scale.so" "$d/scale.kl" >/dev/null
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --lag 1 --repeat 2 --suite "$d/source.json" --backend cpu \
    --code-object "$d/scale.so" --no-progress --timeout 60 >"$KL_TMP/lag.txt" 2>&1
tap_check "a lag build of a prebuilt object is skipped with the reason, once per variant" \
    test "$(grep -cE '^skip +(fixed|buggy) +r5 .*-lag1' "$KL_TMP/lag.txt")" -eq 2
tap_check "the reason names the rebuild" grep -q "lag builds rebuild the source with -DKL_LAG=1: the prebuilt code object .*scale.so cannot be rebuilt" "$KL_TMP/lag.txt"
tap_check "the prebuilt object's own checks ran: fixed passed, buggy caught" \
    bash -c 'grep -qE "^pass +fixed +r5" "$1" && grep -qE "^fail +buggy +r5" "$1"' _ "$KL_TMP/lag.txt"
sed 's/^/# /' "$KL_TMP/lag.txt" | grep -v "^#  " | head -12
"$KLADDER" --db "$KL_TMP/k.db" run --rung 3 --suite "$d/source.json" --backend cpu \
    --code-object "$d/scale.so" --no-progress --timeout 60 >"$KL_TMP/r3.txt" 2>&1
tap_check "rung 3's gfx1250 build of a prebuilt object is skipped, saying why" \
    bash -c '[ $(grep -cE "^skip +(fixed|buggy) +r3 code-gfx1250" "$1") -eq 2 ] &&
             grep -q "this check builds the source for gfx1250: the prebuilt code object .*scale.so cannot be rebuilt" "$1"' _ "$KL_TMP/r3.txt"
tap_check "rung 3's wave checks of the prebuilt object ran: fixed passed, buggy caught" \
    bash -c 'grep -qE "^pass +fixed +r3 wave32" "$1" && grep -qE "^fail +buggy +r3 wave32" "$1"' _ "$KL_TMP/r3.txt"
