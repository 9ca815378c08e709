#!/usr/bin/env bash
# kladder scan on a folder of our own small sources, each a kind of file a kernel engineer has:
# one that goes in (a whole unit with main()), one that calls a device function nobody declares,
# one that includes a header nobody has, one with a syntax error, one with a template kernel
# (an instance host code launches, and a template no code instantiates), a .cu file with no
# kernel, a .hip file, a header (no unit), a .cpp with a kernel and one without, a file that
# needs a -D, and one whose macros take longer than the time limit. Each is classified as it
# should be, the summary counts them, --json says the same, and the exit status is 1 (0 for a
# folder where every file goes in). Bad input gets one clear error and exit 2: no such path, an
# empty folder, a FIFO given or found (never read), a folder below that cannot be read, bad
# options. The cuda backend compiles without a GPU (nvcc or NVRTC) or says NVRTC is missing.
# No control character from a file name or a compiler reaches the terminal.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
src=$KL_TMP/src
mkdir -p "$src/sub"

cat >"$src/fine.cu" <<'EOF'
#include <cuda_runtime.h>
#include <cstdio>
#include "sub/helpers.cuh"
__global__ void add_bias(float *x, float bias, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = plus(x[i], bias);
}
int main()
{
    float *d = nullptr;
    cudaMalloc(&d, 256 * sizeof(float));
    add_bias<<<4, 64>>>(d, 0.5f, 256);
    cudaDeviceSynchronize();
    std::printf("ok\n");
    return 0;
}
EOF
cat >"$src/sub/helpers.cuh" <<'EOF'
#pragma once
__device__ inline float plus(float a, float b) { return a + b; }
EOF
cat >"$src/lanes.cu" <<'EOF'
#include <cuda_runtime.h>
__global__ void count_lanes(unsigned *out)
{
    unsigned v = threadIdx.x;
    out[threadIdx.x] = __kl_no_such_intrinsic(v, 3);
}
EOF
cat >"$src/vendor.cu" <<'EOF'
#include <cuda_runtime.h>
#include <kl_no_such_vendor_library.h>
__global__ void fill(float *x) { x[threadIdx.x] = 1.0f; }
EOF
cat >"$src/typo.cu" <<'EOF'
__global__ void halve(float *x)
{
    x[threadIdx.x] = x[threadIdx.x] * ;
}
EOF
cat >"$src/templ.cu" <<'EOF'
template <int FACTOR>
__global__ void scale_by(float *x)
{
    x[threadIdx.x] *= FACTOR;
}
template <typename T>
__global__ void zero_all(T *x)
{
    x[threadIdx.x] = T();
}
void launch(float *x)
{
    scale_by<3><<<1, 32>>>(x);
}
EOF
cat >"$src/host_only.cu" <<'EOF'
#include <cstdio>
int main() { std::printf("nothing for the device\n"); return 0; }
EOF
cat >"$src/copy.hip" <<'EOF'
#include <hip/hip_runtime.h>
__global__ void copy_rows(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
EOF
cat >"$src/with_kernel.cpp" <<'EOF'
#include <hip/hip_runtime.h>
__global__ void negate(float *x) { x[threadIdx.x] = -x[threadIdx.x]; }
EOF
cat >"$src/host_code.cpp" <<'EOF'
int host_helper(int a) { return a + 1; }
EOF
cat >"$src/width.cu" <<'EOF'
#ifndef WIDTH
#error WIDTH must be given
#endif
__global__ void widen(float *x) { x[threadIdx.x] *= WIDTH; }
EOF

scan_json() { "$KLADDER" scan --jobs 2 --json "$@"; }
# field PATH_SUFFIX EXPR: a Python expression over the file's record f, from $KL_TMP/scan.json
field() {
    python3 - "$KL_TMP/scan.json" "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
found = [x for x in doc["files"] if x["path"].endswith("/" + sys.argv[2])]
f = found[0] if len(found) == 1 else None
print(eval(sys.argv[3]) if f else "no such record")
EOF
}

# ---- the folder -----------------------------------------------------------------------------
scan_json "$src" >"$KL_TMP/scan.json" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err"
tap_check "a folder with refusals: exit 1 ($rc)" test "$rc" -eq 1
tap_check "fine.cu goes in, its local include read" test "$(field fine.cu 'f["cause"]')" = ok
tap_check "fine.cu: add_bias launchable" \
    test "$(field fine.cu '[(e["kernel"], e["state"]) for e in f["entries"]]')" = "[('add_bias', 'launchable')]"
tap_check "lanes.cu: missing API named" test "$(field lanes.cu 'f["cause"], f["what"]')" = \
    "('missing-api', '__kl_no_such_intrinsic')"
tap_check "lanes.cu: at its file and line" test "$(field lanes.cu 'f["where"]')" = "lanes.cu:5"
tap_check "vendor.cu: missing header named" test "$(field vendor.cu 'f["cause"], f["what"]')" = \
    "('missing-header', 'kl_no_such_vendor_library.h')"
tap_check "vendor.cu: at the include's line" test "$(field vendor.cu 'f["where"]')" = "vendor.cu:2"
tap_check "typo.cu: a compile error with its first error line" \
    test "$(field typo.cu 'f["cause"], "typo.cu:3" in f["message"], "error" in f["message"]')" = \
    "('compile-error', True, True)"
tap_check "templ.cu goes in: the instance launched is launchable, the other template has none" \
    test "$(field templ.cu 'f["cause"], sorted((e["kernel"], e.get("instance"), e["state"]) for e in f["entries"])')" = \
    "('ok', [('scale_by', 'scale_by<3>', 'launchable'), ('zero_all', None, 'no-instance')])"
tap_check "host_only.cu: no kernel" test "$(field host_only.cu 'f["cause"]')" = no-kernel
tap_check "copy.hip goes in on the cpu backend" test "$(field copy.hip 'f["cause"]')" = ok
tap_check "a .cpp with a kernel is a unit and goes in" test "$(field with_kernel.cpp 'f["cause"]')" = ok
tap_check "a .cpp without one is no unit" test "$(field host_code.cpp 'f')" = "no such record"
tap_check "a header is no unit" test "$(field helpers.cuh 'f')" = "no such record"
tap_check "width.cu without -D: the #error is its compile error" \
    test "$(field width.cu 'f["cause"], "WIDTH must be given" in f["message"]')" = "('compile-error', True)"
summary=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]
print(s["files"], s["compiled_whole"], s["every_entry_launchable"], s["refused"],
      s["refusals"]["missing-api"], s["refusals"]["missing-header"], s["refusals"]["compile-error"],
      s["refusals"]["no-kernel"], [a["name"] for a in s["missing_api"]])' "$KL_TMP/scan.json")
tap_check "the summary: 9 files, 5 compiled whole, 4 with every entry launchable, 5 refused by cause ($summary)" \
    test "$summary" = "9 5 4 5 1 1 2 1 ['__kl_no_such_intrinsic']"

"$KLADDER" scan --jobs 2 "$src" >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/out"
tap_check "the text report: exit 1 too" test "$rc" -eq 1
tap_check "a line per file, in name order" test "$(grep -E '^(ok|refused) +/' "$KL_TMP/out" | sed -E 's/^(ok|refused) +//; s/[: ].*//' | xargs -n1 basename | tr '\n' ' ')" = \
    "copy.hip fine.cu host_only.cu lanes.cu templ.cu typo.cu vendor.cu width.cu with_kernel.cpp "
tap_check "the refusal lines say the cause" sh -c 'grep -q "lanes.cu: missing API __kl_no_such_intrinsic at lanes.cu:5" "$1" &&
    grep -q "vendor.cu: missing header kl_no_such_vendor_library.h at vendor.cu:2" "$1" &&
    grep -q "host_only.cu: no-kernel" "$1"' _ "$KL_TMP/out"
tap_check "the summary table" sh -c 'grep -qE "^files +9\$" "$1" && grep -qE "^every entry launchable +4 +44.4%\$" "$1" &&
    grep -qE "^  __kl_no_such_intrinsic +1\$" "$1"' _ "$KL_TMP/out"

# ---- -D, and a folder where every file goes in ------------------------------------------------
"$KLADDER" scan -D WIDTH=4 "$src/width.cu" "$src/fine.cu" >"$KL_TMP/out" 2>&1
rc=$?
tap_check "-D reaches the compiler; every file in: exit 0 ($rc)" test "$rc" -eq 0

# ---- the time limit ---------------------------------------------------------------------------
slow=$KL_TMP/slow
mkdir -p "$slow"
{
    echo '#define E0 1,'
    for i in $(seq 1 40); do echo "#define E$i E$((i - 1)) E$((i - 1))"; done
    echo '__global__ void k(int *x) { static const int v[] = { E40 0 }; x[0] = v[0]; }'
} >"$slow/macros.cu"
mkdir -p "$KL_TMP/slowtmp"
TMPDIR=$KL_TMP/slowtmp "$KLADDER" scan --timeout 1 --json "$slow" >"$KL_TMP/scan.json" 2>"$KL_TMP/err"
rc=$?
tap_check "a compile past the time limit is stopped and refused: time-limit ($rc)" \
    test "$rc:$(field macros.cu 'f["cause"]')" = "1:time-limit"
# the compiler goes with the worker stopped: none is left running on the file (once one was,
# with no limit at all, until it had taken the machine's memory)
left=
for _ in 1 2 3 4 5 6 7 8 9 10; do
    left=$(pgrep -f "$KL_TMP/slowtmp" || true)
    [ -z "$left" ] && break
    sleep 0.5
done
tap_check "no compiler is left running once the scan has stopped it ($left)" test -z "$left"
pkill -9 -f "$KL_TMP/slowtmp" 2>/dev/null

# ---- the hip backend, offline -----------------------------------------------------------------
if command -v clang-22 >/dev/null 2>&1; then
    "$KLADDER" scan --backend hip --json "$src/copy.hip" "$src/templ.cu" >"$KL_TMP/scan.json" 2>"$KL_TMP/err"
    rc=$?
    tap_check "copy.hip and templ.cu compile for gfx1250 with their entries ($rc)" \
        test "$rc:$(field copy.hip 'f["cause"]'):$(field templ.cu 'sorted(e["state"] for e in f["entries"])')" = \
        "0:ok:['launchable', 'no-instance']"
else
    tap_skip "no clang-22 for the gfx1250 compile"
fi

# ---- the cuda backend without a GPU: nvcc or NVRTC compile, or it says what is missing ------------
"$KLADDER" scan --backend cuda "$src/fine.cu" >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
if tap_have_nvrtc; then
    tap_check "cuda: fine.cu compiles for sm_90 with its entry ($rc)" \
        sh -c 'test "$1" -eq 0 && grep -q "^ok .*fine.cu (1 entry launchable): add_bias" "$2"' _ "$rc" "$KL_TMP/out"
else
    tap_skip "no NVRTC here for the sm_90 compile"
fi
KLADDER_NVRTC=$KL_TMP/no/libnvrtc.so "$KLADDER" scan --backend cuda "$src/fine.cu" >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
tap_check "cuda without NVRTC: exit 2, it says so ($rc)" \
    sh -c 'test "$1" -eq 2 && grep -q "the cuda backend cannot compile here: NVRTC not found" "$2"' _ "$rc" "$KL_TMP/err"

# ---- bad input --------------------------------------------------------------------------------
bad() { # name, expected exit, pattern in stderr, args...
    local name=$1 want=$2 pat=$3
    shift 3
    "$KLADDER" scan "$@" >"$KL_TMP/out" 2>"$KL_TMP/err" </dev/null
    local rc=$?
    sed 's/^/# /' "$KL_TMP/err"
    tap_check "$name: exit $want ($rc), one message naming it" \
        sh -c 'test "$1" -eq "$2" && test "$(grep -c "^kladder scan: " "$4")" -eq 1 && grep -q -- "$3" "$4"' \
        _ "$rc" "$want" "$pat" "$KL_TMP/err"
}
bad "no such path" 2 "$KL_TMP/nowhere: no such file or folder" "$KL_TMP/nowhere"
mkdir -p "$KL_TMP/empty/deeper"
echo '#pragma once' >"$KL_TMP/empty/deeper/only.cuh"
bad "a folder with no unit" 2 "empty: no unit to scan under it" "$KL_TMP/empty"
mkfifo "$KL_TMP/pipe.cu"
bad "a FIFO given" 2 "pipe.cu: not a regular file or a folder" "$KL_TMP/pipe.cu"
mkdir -p "$KL_TMP/withfifo"
cp "$src/fine.cu" "$KL_TMP/withfifo/"
cp -r "$src/sub" "$KL_TMP/withfifo/"
mkfifo "$KL_TMP/withfifo/stuck.cu"
timeout 60 "$KLADDER" scan --json "$KL_TMP/withfifo" >"$KL_TMP/scan.json" 2>"$KL_TMP/err"
rc=$?
tap_check "a FIFO in a folder is refused unread, the rest scanned ($rc)" \
    test "$rc:$(field stuck.cu 'f["cause"]'):$(field fine.cu 'f["cause"]')" = "1:unreadable:ok"
bad "no PATH" 2 "needs at least one PATH"
bad "an unknown backend" 2 "backend expects hip, cuda or cpu" --backend vulkan "$src"
bad "-D that is no macro" 2 "expected NAME or NAME=VALUE" -D '1X=2' "$src"
bad "-I that is no folder" 2 "no such folder" -I "$KL_TMP/nowhere" "$src"
bad "a header given" 2 "not a unit to scan" "$src/sub/helpers.cuh"

# a folder below that cannot be read (as a user the permission holds for: root reads anything)
locked=$KL_TMP/locked
mkdir -p "$locked/inner"
cp "$src/fine.cu" "$locked/"
cp -r "$src/sub" "$locked/"
cp "$src/fine.cu" "$locked/inner/"
as_user=()
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null 2>&1; then
        as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
        chmod -R a+rX "$KL_TMP"
        chmod a+rx "$(dirname "$KL_TMP")" 2>/dev/null
    fi
fi
chmod 000 "$locked/inner"
if [ "$(id -u)" != 0 ] || [ ${#as_user[@]} -gt 0 ]; then
    HOME=$KL_TMP XDG_CACHE_HOME=$KL_TMP/usercache "${as_user[@]}" "$KLADDER" scan "$locked" \
        >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/err"
    tap_check "a folder below that cannot be read: exit 2 naming it ($rc)" \
        sh -c "test $rc -eq 2 && grep -q 'locked/inner: cannot read this folder' '$KL_TMP/err'"
else
    tap_skip "root without setpriv: no folder it cannot read"
fi
chmod 755 "$locked/inner"

# ---- control characters from outside ----------------------------------------------------------
odd=$KL_TMP/odd
mkdir -p "$odd"
cp "$src/typo.cu" "$odd/$(printf 'red\033[31m.cu')"
"$KLADDER" scan "$odd" >"$KL_TMP/out" 2>&1
"$KLADDER" scan --json "$odd" >>"$KL_TMP/out" 2>&1
tap_check "a file name with an escape sequence reaches the output cleaned" \
    sh -c "! grep -qP '[\x00-\x08\x0b-\x1f\x7f]' '$KL_TMP/out' && grep -q 'red' '$KL_TMP/out'"

# A project's common header reached through -I, included with quotes as cuda-samples and
# rocm-examples include theirs: found there (after the file's own folder), read inside that
# folder; without the -I it is a missing header named at its include.
proj=$KL_TMP/proj
mkdir -p "$proj/Common" "$proj/app"
printf '#pragma once\n#define TILE 32\n' >"$proj/Common/util_common.h"
cat >"$proj/app/uses.cu" <<'EOF'
#include "util_common.h"
__global__ void fill_tile(float *out) { out[threadIdx.x % TILE] = 1.0f; }
EOF
"$KLADDER" scan --backend cpu -I "$proj/Common" "$proj/app" >"$KL_TMP/inc.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/inc.txt" | head -3
tap_check "a quoted include found through -I: the file goes in (exit $rc)" \
    sh -c "test $rc -eq 0 && grep -qE '^ok +.*uses.cu .*fill_tile' '$KL_TMP/inc.txt'"
"$KLADDER" scan --backend cpu "$proj/app" >"$KL_TMP/noinc.txt" 2>&1
rc=$?
tap_check "without -I: a missing header, named (exit $rc)" \
    sh -c "test $rc -eq 1 && grep -q 'util_common.h' '$KL_TMP/noinc.txt'"
echo "1..$_tap_n"

# ---- a prototype is no entry ------------------------------------------------------------------
# A kernel another file defines, declared in a shared header and launched here, is not one of
# this file's entries; a template declared first and defined after, instantiated explicitly,
# counts once for its instance.
proto=$KL_TMP/proto
mkdir -p "$proto"
printf '%s\n' '__global__ void spin(volatile unsigned *latch);' \
    'template <int N> __global__ void fill(int *x);' >"$proto/k.cuh"
printf '%s\n' '#include "k.cuh"' \
    '__global__ void scale(float *y, float a, int n) { int i = threadIdx.x; if (i < n) y[i] *= a; }' \
    'template <int N> __global__ void fill(int *x) { x[threadIdx.x] = N; }' \
    'template __global__ void fill<3>(int *);' \
    'int main() { unsigned *l = 0; spin<<<1, 1>>>(l); return 0; }' >"$proto/main.cu"
"$KLADDER" scan "$proto" >"$KL_TMP/proto.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/proto.txt"
tap_check "a kernel only declared here is no entry; the file goes in with scale and fill<3> (exit $rc)" \
    sh -c "test $rc -eq 0 && grep -q '^ok .*main.cu (2 entries launchable): scale, fill<3>$' '$KL_TMP/proto.txt'"

# ---- kernels under preprocessor branches --------------------------------------------------------
# A kernel the build's own #if leaves out is no entry of that build: on the cpu backend it is
# listed as under a branch not taken, never as not launchable; -D picks the other branch; a
# file whose every kernel is left out has no kernel to scan.
cond=$KL_TMP/cond
mkdir -p "$cond"
printf '%s\n' '#ifdef USE_FAST' '__global__ void fast_k(float *x) { x[threadIdx.x] = 1.f; }' '#else' \
    '__global__ void slow_k(float *x) { x[threadIdx.x] = 2.f; }' '#endif' '#if 0' \
    '__global__ void never(float *x) { x[0] = 0; }' '#endif' \
    '__global__ void always(float *x) { x[0] = 3; }' >"$cond/cond.cu"
printf '%s\n' '#ifdef HAVE_NOTHING' '__global__ void gone(float *x) { x[0] = 0; }' '#endif' \
    'int host_only(void) { return 0; }' >"$cond/gone.cu"
"$KLADDER" scan --json "$cond" >"$KL_TMP/cond.json" 2>&1
rc=$?
states() { python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["files"]:
    if f["path"].endswith(sys.argv[2]): print(f["cause"], *[e["kernel"] + ":" + e["state"] for e in f.get("entries", [])])' "$@"; }
tap_check "a kernel left out by #ifdef and one by #if 0: inactive; the others launchable ($(states "$KL_TMP/cond.json" cond.cu))" \
    test "$(states "$KL_TMP/cond.json" cond.cu)" = "ok fast_k:inactive slow_k:launchable never:inactive always:launchable"
tap_check "every kernel left out: no kernel, and the file is the only refusal (exit $rc)" \
    sh -c "test $rc -eq 1 && test \"\$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"files\"][1][\"cause\"])' '$KL_TMP/cond.json')\" = no-kernel"
"$KLADDER" scan -D USE_FAST --json "$cond/cond.cu" >"$KL_TMP/cond2.json" 2>&1
tap_check "-D USE_FAST takes the other branch" \
    test "$(states "$KL_TMP/cond2.json" cond.cu)" = "ok fast_k:launchable slow_k:inactive never:inactive always:launchable"
