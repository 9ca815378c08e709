#!/usr/bin/env bash
# kladder exec's guards and runtime beyond exec.sh's, each both ways: a correct program that
# passes and a defective one caught with its kind and file:line. Reads of never-written device
# memory (a halo cell never staged, then copied device to device; a memset of half the sums)
# under every schedule, one finding per allocation and launch with its count, while memory a
# kernel or a memset wrote passes. Symbols (__constant__ and __device__, CUDA's and
# HIP_SYMBOL) copied to and from, at an offset and through their address; a copy past one is
# caught with the symbol's name and size. Pitched memory (cudaMallocPitch, cudaMemset2D,
# cudaMemcpy2D) and cudaLaunchKernel/hipLaunchKernel, the kernel as itself or as a void pointer;
# a 2D copy past its allocation and a kernel stepping by the width (into the padding never
# written) are caught. Template kernels launched with their template arguments deduced run, and
# a read past one's input is caught at its line. A kernel's own memset and memcpy (of a size
# known at run time only) write as its stores do, and a memcpy past its input is caught.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/exec

# run NAME [ARGS...]: kladder exec's stdout in $out, its exit status in $rc
run() {
    out=$("$KLADDER" exec "$@" 2>"$KL_TMP/err")
    rc=$?
}
has() { grep -qF -- "$1" <<<"$out"; }

# ---- the correct programs run clean ----
for f in stencil_ok.cu init_by_kernel_ok.cu symbols_ok.cu symbols_ok.hip pitched_ok.cu \
    template_deduced_ok.cu device_memcpy_ok.cu; do
    run "$fx/$f"
    tap_check "$f passes: exit 0 ($rc)" test $rc -eq 0
    tap_check "$f: its own PASS kept, verdict pass" bash -c \
        'grep -q PASS <<<"$1" && grep -q "^========= pass: 0 findings; the program: exit status 0" <<<"$1"' _ "$out"
done
for s in default adversarial random; do
    run --schedule $s "$fx/init_by_kernel_ok.cu"
    tap_check "schedule $s: memory a kernel and memsets wrote, read and added to, passes ($rc)" test $rc -eq 0
    run --schedule $s "$fx/device_memcpy_ok.cu"
    tap_check "schedule $s: memory a kernel's own memset and memcpy wrote counts as written ($rc)" test $rc -eq 0
done
# a kernel's own memcpy is guarded too: one element past its input, caught at its line
run "$fx/device_memcpy_past.cu"
tap_check "a kernel's memcpy past its input: exit 1 ($rc)" test $rc -eq 1
tap_check "a kernel's memcpy past its input: the allocation, the memcpy's line, the launch" bash -c \
    'grep -q "out-of-bounds: a read 0 bytes past its end, in the 1200-byte device allocation made at device_memcpy_ok.cu:39: by thread (0,0,0) of block (5,0,0)" <<<"$1" &&
     grep -q "at copy_segments (device_memcpy_ok.cu:22" <<<"$1" &&
     grep -q "in kernel copy_segments<<<(6,1,1),(32,1,1)>>> launched at device_memcpy_ok.cu:44 (launch 2)" <<<"$1"' _ "$out"

# ---- reads of never-written memory ----
# a device-to-device copy carries never-written bytes along: the stencil's missing right halo
# cell is staged on the device first, then copied whole into the stencil's input
for s in pct default random; do
    run --schedule $s "$fx/stencil_halo.cu"
    tap_check "schedule $s: a halo cell never staged, copied device to device, then read: exit 1 ($rc)" \
        test $rc -eq 1
    tap_check "schedule $s: the halo read names the input's allocation, its last cell and the stencil's line" bash -c \
        'grep -q "^========= uninitialised-read: a read of 4 bytes at byte 2004 of the 2008-byte device allocation made at stencil_ok.cu:27" <<<"$1" &&
         grep -q "at smooth (stencil_ok.cu:16" <<<"$1" &&
         grep -q "in kernel smooth<<<(4,1,1),(128,1,1)>>> launched at stencil_ok.cu:31 (launch 1)$" <<<"$1"' _ "$out"
done
run --json "$fx/stencil_halo.cu"
tap_check "--json: the never-written read is one finding of kind uninitialised-read ($rc)" \
    python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["verdict"] == "finding", d["verdict"]
assert [f["kind"] for f in d["findings"]] == ["uninitialised-read"], d["findings"]
assert "stencil_ok.cu:16" in d["findings"][0]["report"]
assert d["program"]["exit_status"] == 1
' "$out"
run --schedule adversarial "$fx/memset_short.cu"
tap_check "a memset of half the sums: exit 1 ($rc)" test $rc -eq 1
tap_check "a short memset: the second launch's reads of the sums never zeroed, counted" bash -c \
    'grep -q "^========= uninitialised-read: a read of 4 bytes at byte \(6[4-9]\|[7-9][0-9]\|1[0-2][0-9]\) of the 128-byte device allocation made at init_by_kernel_ok.cu:37" <<<"$1" &&
     grep -q "at add_odd (init_by_kernel_ok.cu:25" <<<"$1" &&
     grep -q "launched at init_by_kernel_ok.cu:42 (launch 2)" <<<"$1" &&
     grep -q "and 15 more reads of never-written bytes of it in this launch" <<<"$1"' _ "$out"


# symbols: a copy at an offset that runs past a __constant__ array, and a cudaMemcpy through
# cudaGetSymbolAddress's pointer past a __device__ float
run "$fx/symbol_past.cu"
tap_check "a copy past a __constant__ array: exit 1 ($rc)" test $rc -eq 1
tap_check "a copy past a symbol: the call's line, the overrun, the symbol and its size" has \
    "copy-out-of-bounds: copy to a symbol of 20 bytes at symbols_ok.cu:42: the destination runs 8 bytes past the end of the 20-byte symbol c_taps (it starts at byte 8)"
tap_check "a copy past a symbol: the call fails, the program says so" has "symbols_ok.cu:42: error 1"
mkdir -p "$KL_TMP/sym"
cp "$fx/common.h" "$KL_TMP/sym/"
sed 's/cudaMemcpy(scale, &quarter, sizeof quarter,/cudaMemcpy(scale, taps, 2 * sizeof quarter,/' \
    "$fx/symbols_ok.cu" >"$KL_TMP/sym/symbol_address_past.cu"
run "$KL_TMP/sym/symbol_address_past.cu"
tap_check "a cudaMemcpy past a __device__ float through its symbol's address: the symbol named ($rc)" \
    bash -c 'test "$2" -eq 1 && grep -q "copy-out-of-bounds: copy of 8 bytes at symbol_address_past.cu:47: the destination runs 4 bytes past the end of the 4-byte symbol d_scale (it starts at byte 0)" <<<"$1"' _ "$out" "$rc"

# pitched memory: a 2D copy of one row too many, a kernel that steps by the width, not the
# pitch (it reads the rows' padding, which nothing wrote), and a launch through a void pointer
run "$fx/pitch_rows_past.cu"
tap_check "a 2D copy of one row too many: exit 1 ($rc)" test $rc -eq 1
tap_check "a 2D copy past a pitched allocation: the rows, the overrun and the allocation's line" has \
    "copy-out-of-bounds: 2D copy (38 rows of 400 bytes) of 19344 bytes at pitched_ok.cu:41: the source runs 400 bytes past the end of the 18944-byte device allocation made at pitched_ok.cu:33 (it starts at byte 0)"
run --schedule default "$fx/stride_not_pitch.cu"
tap_check "rows stepped by the width, not the pitch: exit 1 ($rc)" test $rc -eq 1
tap_check "stepping by the width: the padding's never-written bytes read at the kernel's line" bash -c \
    'grep -q "^========= uninitialised-read: a read of 4 bytes at byte [0-9]* of the 18944-byte device allocation made at pitched_ok.cu:33" <<<"$1" &&
     grep -q "at scale_rows (pitched_ok.cu:20" <<<"$1" &&
     grep -q "in kernel scale_rows<<<(4,37,1),(32,1,1)>>> launched at pitched_ok.cu:39 (launch 1)" <<<"$1" &&
     grep -q "and 799 more reads of never-written bytes of it in this launch" <<<"$1"' _ "$out"
# the kernel as a void pointer: found by its address, run with its own parameter types
mkdir -p "$KL_TMP/launch"
cp "$fx/common.h" "$fx/stride_not_pitch.cu" "$KL_TMP/launch/"
sed 's/cudaLaunchKernel(scale_rows,/cudaLaunchKernel((const void *)scale_rows,/' \
    "$fx/pitched_ok.cu" >"$KL_TMP/launch/pitched_ok.cu"
run "$KL_TMP/launch/pitched_ok.cu"
tap_check "cudaLaunchKernel of a kernel cast to a void pointer runs it ($rc)" \
    bash -c 'test "$2" -eq 0 && grep -q "^pitch 512, 0 wrong: PASS" <<<"$1"' _ "$out" "$rc"
run "$KL_TMP/launch/stride_not_pitch.cu"
tap_check "a kernel launched as a void pointer: its finding names it and its line ($rc)" bash -c \
    'test "$2" -eq 1 && grep -q "at scale_rows (pitched_ok.cu:20" <<<"$1" &&
     grep -q "in kernel scale_rows<<<(4,37,1),(32,1,1)>>> launched at pitched_ok.cu:39" <<<"$1"' _ "$out" "$rc"
cat >"$KL_TMP/launch/template_void.cu" <<'EOF'
#include <cstdio>
#include <cuda_runtime.h>
template <int N> __global__ void fill(int *v) { v[threadIdx.x] = N; }
int main()
{
    int *v;
    cudaMalloc(&v, 32 * sizeof(int));
    void *args[] = {&v};
    cudaError_t e = cudaLaunchKernel((const void *)fill<3>, dim3(1), dim3(32), args, 0, 0);
    printf("launch: %s\n", cudaGetErrorName(e));
    return e != cudaSuccess;
}
EOF
run "$KL_TMP/launch/template_void.cu"
tap_check "a template kernel's instance as a void pointer: not supported, said by the call ($rc)" \
    bash -c 'test "$2" -eq 1 && grep -q "^launch: cudaErrorNotSupported" <<<"$1"' _ "$out" "$rc"

# a template kernel launched with its arguments deduced, one element past its input
run -D PAST=1 "$fx/template_deduced_ok.cu"
tap_check "a deduced template kernel's read past its input: exit 1 ($rc)" test $rc -eq 1
tap_check "a deduced template kernel's read past its input: the allocation, the kernel's line, the launch" bash -c \
    'grep -q "out-of-bounds: a read 0 bytes past its end, in the 800-byte device allocation made at template_deduced_ok.cu:37" <<<"$1" &&
     grep -q "(template_deduced_ok.cu:17" <<<"$1" &&
     grep -q "in kernel scaled_copy<<<(4,1,1),(64,1,1)>>> launched at template_deduced_ok.cu:43 (launch 1)" <<<"$1"' _ "$out"

# a symbol named by a string (the old API): a compile error that says so, never a copy into
# the string literal
mkdir -p "$KL_TMP/strsym"
printf '%s\n' '#include <cuda_runtime.h>' '__constant__ float c_k[4];' \
    'int main() { float h[4] = {0}; return (int)cudaMemcpyToSymbol("c_k", h, sizeof h); }' \
    >"$KL_TMP/strsym/by_name.cu"
run "$KL_TMP/strsym/by_name.cu"
tap_check "a symbol named by a string: exit 2 ($rc), the compile error says the symbol is the variable" \
    bash -c 'test "$1" -eq 2 && grep -q "by_name.cu does not compile.*the symbol of cudaMemcpyToSymbol is the variable itself" "$2"' _ "$rc" "$KL_TMP/err"

echo "1..$_tap_n"
